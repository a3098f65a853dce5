"""A `value:` function's first call, of a small function that charges a unit of its own, written out in place.

``on_a(p) = spot(p) == a`` calls ``spot`` first thing; ``spot(p) = pawn_of(p).zone`` charges
a unit (it calls a ruleset function), so it is not written out at every call. As the first
call of ``on_a`` it is (``inline_calls.call_charges``): its unit is charged right after
``on_a``'s own, failing at ``spot``'s place, as the call did. Compared with the same
functions where the call is not the first thing worked out (``a == spot(p)``: written as a
call): the same answers, the same work, the same budget errors at every start around the
limit. With the fast paths off nothing is written out.
"""
import pytest
from ruleset_builder import load_text

from interpreter import Game
from interpreter.errors import GameError
from interpreter.machine import fast_paths, linetable
from interpreter.machine.budget import MAX_WORK

RULES = """\
id: unit
players: {min: 2, max: 2}
zones:
  - {id: a}
  - {id: b}
things:
  - {id: pawn, per_player: true, start: a}
functions:
  pawn_of:
    params: [p]
    value: thing("pawn", p)
  spot:
    params: [p]
    value: pawn_of(p).zone
  on_a:
    params: [p]
    value: spot(p) == a
  twice_b:
    params: [p]
    value: "not (spot(p) == b) or spot(p) == b and count(b) > 0"
  first_arg:
    params: [p]
    value: count(spot(p)) + count(spot(p))
flow:
  - do: |
      move(thing("pawn", player(1)), b)
"""
SWAPPED = RULES.replace("spot(p) == a", "a == spot(p)").replace("not (spot(p) == b)", "not (b == spot(p))") \
    .replace("count(spot(p)) + count", "0 + count(spot(p)) + count")


def _answers(tmp_path, text, name):
    """For each player and each start of the work count around the limit: what function ``name`` answers and
    the work it leaves, or the error's message and place."""
    tmp_path.mkdir()
    game = Game(load_text(tmp_path, text), 2, seed=1)
    fn = game.ruleset.functions[name].fast
    found = []
    for seat in range(2):
        for start in range(MAX_WORK - 6, MAX_WORK + 1):
            game.work = start
            try:
                found.append((fn(game, game.table.players[seat]), game.work))
            except GameError as exc:
                found.append((exc.message, exc.location.line, exc.location.column))
    return found


@pytest.mark.parametrize("name", ["on_a", "twice_b", "first_arg"])
def test_the_first_call_written_out_answers_charges_and_fails_as_the_call(tmp_path, name):
    before = set(linetable.SOURCES)
    written = _answers(tmp_path / "first", RULES, name)
    called = _answers(tmp_path / "swapped", SWAPPED, name)
    # (the columns of the caller's own line differ where SWAPPED moved its text: compared by line)
    assert [found[:2] for found in written] == [found[:2] for found in called]
    lines = RULES.splitlines()
    spot = next(i for i, line in enumerate(lines, 1) if "pawn_of(p).zone" in line)
    at_spot = [found for found in written + called if len(found) == 3 and found[1] == spot]
    assert at_spot and {found[2] for found in at_spot} == {lines[spot - 1].index(".zone") + 2}, \
        "spot's own unit fails at its place"
    assert any(len(found) == 2 for found in written), "within the budget: answers"
    assert written[-1][1] != spot, "past the budget: the caller's own unit fails first, at its place"
    if fast_paths.on():
        sources = [s for n, s in linetable.SOURCES.items() if n not in before]
        # on_a, twice_b and first_arg each charge two units first thing: their own and spot's
        assert sum(s.count("g.work += 1\n") == 2 for s in sources) >= 3, sources
