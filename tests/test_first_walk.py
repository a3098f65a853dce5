"""A `value:` function's first walk written out among its first lines (dsl/first_walk.py), against the helper.

``pawns_on(s) = filter(s, t -> ...)`` and ``dice_of(t) = filter(things("die"), ...)`` start by
walking their source; written out, the walk must give the same items, charge the same work
and fail at the same place as ``items_walked`` and ``things_walked`` do. Compared with the
same functions where the walk is not the first thing worked out (``... if true else []``:
the condition comes first, so the walk is the helper's), at every start of the work count
around the limit, for a zone with things, an empty zone, a list and a number.
"""
import pytest
from ruleset_builder import load_text

from interpreter import Game
from interpreter.errors import GameError
from interpreter.machine import fast_paths, linetable
from interpreter.machine.budget import MAX_WORK

RULES = """\
id: unit
players: {min: 1, max: 1}
zones:
  - {id: a}
  - {id: b}
things:
  - {id: d1, kind: die, start: a}
  - {id: d2, kind: die, start: a}
  - {id: p1, kind: pawn, start: a}
props:
  things:
    holder: ""
functions:
  pawns_on:
    params: [s]
    value: 'filter(s, t -> t.kind == "pawn")'
  pawn_count:
    params: [s]
    value: 'count(filter(s, t -> t.kind == "pawn")) + 1'
  dice_of:
    params: [t]
    value: 'filter(things("die"), d -> d.holder == t.id)'
  every_die:
    params: [t]
    value: '[x.id for x in things() if x.kind == "die" and t != x]'
flow:
  - do: |
      thing("d1").holder = "p1"
"""
LATER = RULES
for body in ('filter(s, t -> t.kind == "pawn")\'', 'count(filter(s, t -> t.kind == "pawn")) + 1\'',
             'filter(things("die"), d -> d.holder == t.id)\'',
             '[x.id for x in things() if x.kind == "die" and t != x]\''):
    LATER = LATER.replace(body, body[:-1] + " if true else []'")


def _answers(tmp_path, text):
    """For each function, argument and start of the work count around the limit: its answer (ids) and the work
    it leaves, or the error's message and place."""
    tmp_path.mkdir()
    game = Game(load_text(tmp_path, text), 1, seed=1)
    zones, things = game.table.zones, game.table.things
    found = []
    for name in ("pawns_on", "pawn_count", "dice_of", "every_die"):
        fn = game.ruleset.functions[name].fast
        for arg in (zones["a"], zones["b"], [things["p1"], things["d2"]], 7, things["p1"]):
            for start in range(MAX_WORK - 7, MAX_WORK + 2):
                game.work = start
                try:
                    got = fn(game, arg)
                    found.append(([getattr(x, "id", x) for x in got] if isinstance(got, list) else got, game.work))
                except GameError as exc:
                    found.append((exc.message, exc.location.line, exc.location.column))
    return found


@pytest.mark.skipif(not fast_paths.on(), reason="nothing is written out with the fast paths off")
def test_a_first_walk_written_out_answers_charges_and_fails_as_the_helper(tmp_path):
    before = set(linetable.SOURCES)
    written = _answers(tmp_path / "first", RULES)
    sources = [s for n, s in linetable.SOURCES.items() if n not in before]
    later = _answers(tmp_path / "later", LATER)
    assert written == later
    assert any(len(f) == 2 for f in written) and any(len(f) == 3 and "touched more" in f[0] for f in written)
    assert any(len(f) == 3 and "touched more" not in f[0] for f in written), "a number is walked by the helper"
    # the four walks written out: two of a parameter (items_walked's), two of the table's things
    assert sum("g.state.zones[_a1.id]" in s for s in sources) == 2, sources
    assert sum("g.table.things_by_kind.get('die', ())" in s or "g.table.thing_list" in s for s in sources) == 2
