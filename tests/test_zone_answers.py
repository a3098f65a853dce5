"""Comparisons of ruleset functions' answers that are certain to be the table's zones are written as ``is``.

``dsl/zone_answers.py`` proves from a function's syntax tree that it answers one of
the table's zone objects (a zone named as such, a thing's ``.zone``, ``space(text)``,
both branches of a conditional, another such function); ``a == b`` of two such is then
``a is b`` (``fast_reads.zone_identity``). The answers and the errors must be those of
the generic path (``DAVIT_FAST_PATHS=off``: every comparison through ``==``), and a
function that may answer anything else (``none``, a parameter that shadows a zone's
name) is compared with ``==``.
"""
import re

import pytest
from ruleset_builder import load_text
from test_read_memo import _both_modes

from interpreter import Game
from interpreter.machine import fast_paths, linetable

RULES = """\
id: unit
players: {min: 1, max: 1}
variables:
  got: []
zones:
  - {id: a}
  - {id: b}
things:
  - {id: red, start: a}
  - {id: blue, start: b}
functions:
  home:
    params: [t]
    value: thing(t).zone
  pawn:
    params: [t]
    value: thing(t)
  spot:
    params: [n]
    value: space("a" + n)
  pick:
    params: [n]
    value: "a if n > 0 else pawn('blue').zone"
  maybe:
    params: [n]
    value: "a if n > 0 else none"
  shadow:
    params: [a]
    value: a
  same:
    params: [x, y]
    value: "[home(x) == pick(y), spot('') != home(x), maybe(y) == a, shadow(b) == home(x), home(x) == none]"
flow:
  - do: |
      got = [same("red", 1), same("red", 0), same("blue", 0), same("blue", 1)]
"""

PLAY = """
import json, sys
from pathlib import Path
sys.path.insert(0, "tests")
from ruleset_builder import load_text
from interpreter import Game
from interpreter.errors import GameError
try:
    game = Game(load_text(Path(sys.argv[1]), sys.argv[2]), 1, seed=1)
    print(json.dumps([game.state.vars["got"], game.spent]))
except GameError as exc:
    print(json.dumps([exc.message, exc.location.line, exc.location.column]))
"""


def test_proven_zones_are_compared_by_identity_and_the_rest_by_equality(tmp_path):
    before = set(linetable.SOURCES)
    game = Game(load_text(tmp_path, RULES), 1, seed=1)
    # red is on a, blue on b; pick(1) is a, pick(0) is b; maybe(0) is none; shadow(b) is b
    assert game.state.vars["got"] == [[True, False, True, False, False], [False, False, False, False, False],
                                      [True, True, False, True, False], [False, True, True, True, False]]
    if not fast_paths.on():
        return
    same = next(s for name, s in linetable.SOURCES.items()
                if name not in before and s.startswith("def _f(g, _a1, _a2)"))
    # home(x) == pick(y) and spot('') != home(x) by identity; maybe, shadow and none by ==
    assert len(re.findall(r"\) is not \(|\) is \(", same)) == 2, same
    assert same.count(") == (") == 3, same


@pytest.mark.slow
def test_identity_answers_and_fails_as_with_the_fast_paths_off(tmp_path):
    # with the fast paths off, functions run on the VM, whose calls cost other work: the work is compared with
    # the same rules where a function that only passes its argument on hides the proof (== again)
    hidden = RULES.replace("home(x) == pick(y)", "home(x) == shadow(pick(y))") \
        .replace("spot('') != home(x)", "shadow(spot('')) != home(x)")
    on, off = _both_modes(tmp_path / "answers", RULES, PLAY)
    compared, _ = _both_modes(tmp_path / "hidden", hidden, PLAY)
    assert on == compared and on[0] == off[0]
    text = RULES.replace("same(\"blue\", 1)]", "same(\"blue\", 1), spot(\"z\") == home(\"red\")]")
    on, off = _both_modes(tmp_path / "fails", text, PLAY)
    assert on == off
    lines = text.splitlines()
    row = next(i for i, line in enumerate(lines, 1) if 'space("a" + n)' in line)
    assert on[1:] == [row, lines[row - 1].index("space") + 1] and "az" in on[0], on
