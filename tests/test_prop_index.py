"""The things of a kind by a property's value (interpreter/dsl/prop_index.py) are those the plain walk finds.

A comprehension whose filter leads with ``x.prop == <the same for every item>`` walks only the things the
state's lists give for that value. The lists are kept exact by every writer of a thing's properties: at
every decision of a seeded game of every bundled ruleset each list made so far is the one a walk of the
things makes now; a small ruleset writes the properties every way a rule can, and its filters answer what
the walk answers; a list is never used where it cannot answer (a value that is a list, NaN, another source).
"""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from bundled_cases import player_counts
from ruleset_builder import load_text

from interpreter import Game, load_ruleset
from interpreter.agents import make_agents, play_out
from interpreter.dsl.prop_index import by_value, picked

ROOT = Path(__file__).resolve().parent.parent


def _checked(game) -> int:
    """Compare every list the state keeps with the walk's; how many were compared."""
    st, compared = game.state, 0
    for name, tables in st.index.items():
        for (kind, default), table in tables.items():
            assert table == by_value(st.props, game.table.things_by_kind[kind], name, default), (name, kind)
            compared += 1
    return compared


def _cases():
    counts = player_counts()
    return [(rid, p) for (rid, variant), (low, high) in counts.items() if variant is None
            for p in sorted({low, high})]


@pytest.mark.parametrize("rid,players", _cases(), ids=str)
def test_the_kept_lists_are_the_walk_at_every_decision(rid, players):
    game = Game(load_ruleset(rid), players, seed=3, record=False)
    agents = make_agents("random", players, 3)
    compared, decisions = _checked(game), 0
    while not game.is_over and decisions < 400:
        decisions += play_out(game, agents, max_decisions=1)
        compared += _checked(game)
    if rid == "collapsible-d":   # (its filters lead with a passenger's seat and a die's holder)
        assert compared > decisions > 0


RULESET = """\
id: unit
players: {min: 2, max: 2}
zones:
  - {id: pile, face: down}
  - {id: shown, face: up}
things:
  - {id: p1, kind: pawn, start: pile}
  - {id: p2, kind: pawn, start: pile}
  - {id: p3, kind: pawn, start: pile}
  - {id: p4, kind: pawn, start: pile}
  - {id: c1, kind: cube, start: pile}
props:
  things:
    seat: -1
    mark: 0
variables:
  seen: []
  ps: []
  n: 1
flow:
  - do: |
      ps = filter(things("pawn"), x -> x.seat == 1)
      seen = seen + [[t.id for t in ps]]
      thing("p2").seat = 1
      ps = filter(things("pawn"), x -> x.seat == 1)
      seen = seen + [[t.id for t in ps]]
      thing("p3").seat = n
      thing("p1").seat = n + 1
      seen = seen + [[t.id for t in things("pawn") if t.seat == n and t.mark == 0]]
      seen = seen + [count(things("pawn"), x -> x.seat == player(0).seat + 1)]
      seen = seen + [any(things("pawn"), x -> x.seat == n + 1)]
      seen = seen + [first(things("pawn"), x -> x.seat == n).id]
      thing("p2").mark = 2
      seen = seen + [[t.id for t in things("pawn") if t.seat == n and t.mark == 0]]
      ps = filter(things("pawn"), x -> x.face_up == true)
      seen = seen + [[t.id for t in ps]]
      move(thing("p4"), shown)
      ps = filter(things("pawn"), x -> x.face_up == true)
      seen = seen + [[t.id for t in ps]]
      thing("p4").seat = 1
      ps = filter(things("pawn"), x -> x.seat == 1)
      seen = seen + [[t.id for t in ps]]
"""


def test_every_writer_keeps_the_lists_exact(tmp_path):
    game = Game(load_text(tmp_path, RULESET), 2, seed=1)
    assert game.state.vars["seen"] == [[], ["p2"], ["p2", "p3"], 2, True, "p2", ["p3"], [], ["p4"], ["p2", "p3", "p4"]]
    assert "seat" in game.state.index and _checked(game) > 0
    assert "face_up" not in game.state.index   # (moves and flips write it without dropping lists: never looked up)


def test_a_list_answers_only_where_it_can(tmp_path):
    game = Game(load_text(tmp_path, RULESET), 2, seed=1)
    pawns = game.table.things_by_kind["pawn"]
    assert picked(game, pawns, "pawn", "seat", -1, 1) == [p for p in pawns
                                                         if game.state.props[p.id].get("seat", -1) == 1]
    assert picked(game, pawns[:2], "pawn", "seat", -1, 1) == pawns[:2]   # not the kind's list: walked
    assert picked(game, pawns, "pawn", "seat", -1, float("nan")) is pawns   # equal to nothing, itself included
    assert picked(game, pawns, "pawn", "seat", -1, [1]) is pawns   # no key
    game.set_attr(pawns[0], "mark", [1, 2], None)
    assert picked(game, pawns, "pawn", "mark", 0, 0) is pawns   # a list among the values: no list of them
    assert game.state.index["mark"][("pawn", 0)] is None


def test_a_clone_and_a_deal_start_their_lists_again(tmp_path):
    game = Game(load_text(tmp_path, RULESET), 2, seed=1)
    pawns = game.table.things_by_kind["pawn"]
    assert picked(game, pawns, "pawn", "seat", -1, 1)
    other = game.clone()
    assert other.state.index == {} and game.state.index
    ids = [p.id for p in pawns]
    game.state.deal_props(ids, ids[1:] + ids[:1])
    assert game.state.index == {}
    assert picked(game, pawns, "pawn", "seat", -1, 1) == [p for p in pawns
                                                         if game.state.props[p.id].get("seat", -1) == 1]


def test_a_test_that_is_not_first_or_not_pure_walks_every_thing(tmp_path):
    # the other side counts (work for each item walked), the test comes after another or is one side of an
    # `or`: each item is still tested as it was, so no list of pawns by `mark` is made
    lines = ['thing("p1").seat = 1', 'thing("p2").mark = 1',
             'ps = filter(things("pawn"), x -> x.mark == count(things("cube"), c -> c.mark == 0))',
             'ps = filter(things("pawn"), x -> x.seat > 0 and x.mark == 1)',
             'ps = filter(things("pawn"), x -> x.mark == 1 or x.seat == 1)',
             'ps = filter(things("pawn"), x -> x.seat == n)']
    text = RULESET.split("flow:")[0] + "flow:\n  - do: |\n" + "".join(f"      {line}\n" for line in lines)
    game = Game(load_text(tmp_path, text), 2, seed=1)
    assert {name: list(tables) for name, tables in game.state.index.items()} == \
        {"mark": [("cube", 0)], "seat": [("pawn", -1)]}   # (the count's own filter of cubes leads with its test)


FAILING = RULESET.split("flow:")[0] + """\
  someone: none
flow:
  - do: |
      thing("p1").seat = 1
      ps = filter(things("pawn"), x -> x.seat == someone.seat)
"""

ERROR_OF = """
import sys
sys.path.insert(0, "tests")
from ruleset_builder import load_text
from pathlib import Path
from interpreter import Game
from interpreter.errors import DavitError
try:
    Game(load_text(Path(sys.argv[1]), sys.argv[2]), 2, seed=1)
except DavitError as e:
    print(str(e).replace(sys.argv[1], "TMP"))
"""


@pytest.mark.slow
def test_an_error_on_the_other_side_is_where_it_was(tmp_path):
    # worked out before the first item instead of at it: the same error, at the same place, as the plain walk's
    errors = []
    for mode in ("on", "off"):
        env = {**os.environ, "DAVIT_FAST_PATHS": mode, "DAVIT_NO_CACHE": "1", "PYTHONPATH": str(ROOT)}
        (tmp_path / mode).mkdir()
        done = subprocess.run([sys.executable, "-c", ERROR_OF, str(tmp_path / mode), FAILING], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0 and re.search(r"ruleset\.yaml:24:58: .*seat", done.stdout), done.stdout
        errors.append(done.stdout)
    assert errors[0] == errors[1]
