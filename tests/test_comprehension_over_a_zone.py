"""A comprehension walks a zone's things, as ``for t in zone:`` and the collection built-ins do.

The checker types the items of a zone as things, so ``[t for t in pile if ...]`` passed validate, then
stopped the game with Python's "object of type 'ZoneRef' has no len()".
"""
import pytest
from ruleset_builder import load

from interpreter import Game
from interpreter.machine import fast_paths

PILE = {"variables": {"n": 0, "names": []}, "zones": [{"id": "pile"}, {"id": "out"}],
        "props": {"things": {"tag": "a"}},
        "things": [{"id": "c", "kind": "card", "count": 3, "start": "pile"}]}


@pytest.mark.parametrize("fast", [True, False])
def test_a_comprehension_walks_the_things_of_a_zone(tmp_path, monkeypatch, fast):
    monkeypatch.setattr(fast_paths, "on", lambda: fast)
    rs = load(tmp_path, {**PILE, "flow": [{"do": 'thing("c.2").tag = "b"\n'
                                                  'n = count([t for t in pile if t.tag == "a"])\n'
                                                  'names = [t.id for t in pile]\n'
                                                  # the body moves the things it walks: the walk is of the zone
                                                  # as it was when the walk began
                                                  'moved = [move(t, out) for t in pile]'}]})
    game = Game(rs, 1, seed=0)
    assert game.state.vars["n"] == 2
    assert game.state.vars["names"] == ["c.1", "c.2", "c.3"]
    assert game.state.zones["out"] == ["c.1", "c.2", "c.3"] and game.state.zones["pile"] == []
