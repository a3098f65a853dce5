"""Generated forms of statements and of the expressions a statement evaluates, against the generic path.

Two forms, each a fast path (off with ``DAVIT_FAST_PATHS=off``):

* a run of statements that set properties of one object to literals (``t.mark = 3``,
  ``t.holder = ""``) reads the object and finds the thing's dict once (``fast_reads.declared_writes``);
* in a statement that changes something (``move(t, first(filter(things(), x -> ...)))``), a comprehension
  that changes nothing reads an argument's or a local's attribute once (``read_memo.comprehension_body``).

Each must answer what the generic path answers, charge the same work and fail where it fails.
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
  - {id: a, attrs: {row: 1}}
  - {id: b, attrs: {row: 2}}
things:
  - {id: red, start: a, attrs: {mark: 5}}
  - {id: blue, start: b}
  - {id: green, start: b}
props:
  things:
    mark: 0
    holder: ""
    held: false
functions:
  reset:
    params: [z, n]
    do: |
      for t in things():
          t.mark = n
          t.holder = ""
          t.held = true
          t.mark = 2
      z.mark = 1
      z.held = false
      return [[x.mark, x.holder, x.held] for x in things()]
flow:
  - do: |
      got = [reset(b, 4)]
      thing("green").mark = 3
      thing("red").mark = 3
      thing("red").held = false
      t = thing("green")
      move(t, first(filter(things(), x -> x.mark == t.mark and x != t and not x.held)).zone)
      got = got + [thing("green").zone.row]
""" + "      move(t, [a, b, a][count(things(), x -> x.face_up == t.face_up) - count([flip(t)])" \
    " - count(things(), x -> x.face_up == t.face_up)])\n" + """\
      got = got + [thing("green").zone.row]
"""
LAST = "      move(t, first(filter(things(), x -> x.mark == t.mark and x != t and x.held)).zone)\n"   # none is held

PLAY = """
import json, sys
from pathlib import Path
sys.path.insert(0, "tests")
from ruleset_builder import load_text
from interpreter import Game
from interpreter.errors import GameError
try:
    game = Game(load_text(Path(sys.argv[1]), sys.argv[2]), 1, seed=1)
    print(json.dumps([game.state.vars["got"], [game.state.props[t].get("mark") for t in ("red", "blue", "green")],
                      game.spent]))
except GameError as exc:
    print(json.dumps([exc.message, exc.location.line, exc.location.column]))
"""


def _at(text: str, line_has: str, word: str) -> list:
    lines = text.splitlines()
    row = next(i for i, line in enumerate(lines, 1) if line_has in line)
    return [row, lines[row - 1].index(word) + 1]


def test_the_forms_are_generated_and_answer_as_worked_out_by_hand(tmp_path):
    before = set(linetable.SOURCES)
    text = RULES.replace("      z.mark = 1\n      z.held = false\n", "")
    game = Game(load_text(tmp_path, text), 1, seed=1)
    # reset sets every thing's mark to 2, not held; then green and red get 3, red is not held: green moves to a
    assert game.state.vars["got"][0] == [[2, "", True]] * 3
    # then all three show one face, and green turns over: 3 - 1 - 1, green moves to b
    assert game.state.vars["got"][1:] == [1, 2]
    if not fast_paths.on():
        return
    sources = [s for name, s in linetable.SOURCES.items() if name not in before]
    # the three literal writes of the loop set one dict found once; the move's comprehension keeps t.mark lazily
    assert any(len(re.findall(r"\n +_p\d+\['(?:mark|holder|held)'\] = ", s)) == 3 for s in sources), sources
    # (each comprehension its own: the second reads t.face_up again after flip changed it)
    assert sum(len(re.findall(r"_m\d+ = _k\d+\n", s)) for s in sources if "L['t']" in s) == 3, sources


@pytest.mark.slow
def test_grouped_writes_answer_and_charge_as_the_statements_one_by_one(tmp_path):
    # with the fast paths off the function runs on the VM, whose call costs other work: the work is compared
    # with the same statements kept apart (a `pass` between them), the answers with both
    text = RULES.replace("      z.mark = 1\n      z.held = false\n", "")
    apart = text.replace('          t.holder = ""\n', '          t.holder = ""\n          pass\n') \
        .replace("          t.held = true\n", "          t.held = true\n          pass\n")
    on, off = _both_modes(tmp_path / "grouped", text, PLAY)
    one_by_one, _ = _both_modes(tmp_path / "apart", apart, PLAY)
    assert on == one_by_one and on[:2] == off[:2]
    assert on[1] == [3, 2, 3] and on[2] > 0


@pytest.mark.slow
def test_a_statements_comprehension_answers_and_charges_as_with_the_fast_paths_off(tmp_path):
    text = RULES.replace("      got = [reset(b, 4)]\n", "      got = [0]\n")   # the flow alone: the VM's either way
    on, off = _both_modes(tmp_path, text, PLAY)
    assert on == off
    assert on[0] == [0, 1, 2] and on[2] > 0


@pytest.mark.slow
def test_a_grouped_write_fails_at_its_own_statement_as_with_the_fast_paths_off(tmp_path):
    # a zone has no mark: the first write to z fails there, and the run of writes to t before it is done
    on, off = _both_modes(tmp_path / "zone", RULES, PLAY)
    assert on == off
    assert on[1:] == _at(RULES, "z.mark = 1", "mark = 1") and "mark" in on[0], on
    # a number: the first write of the loop's run fails, not a later one
    text = RULES.replace("for t in things():", "for t in [n]:").replace("          t.mark = n\n", "")
    on, off = _both_modes(tmp_path / "number", text, PLAY)
    assert on == off
    assert on[1:] == _at(text, 't.holder = ""', 'holder = ""'), on


@pytest.mark.slow
def test_a_statements_comprehension_fails_where_its_first_read_stands_as_with_the_fast_paths_off(tmp_path):
    # the last move finds no thing (none is held): `.zone` of none fails; before it, t.mark of a zone
    text = (RULES + LAST).replace("      z.mark = 1\n      z.held = false\n", "")
    on, off = _both_modes(tmp_path / "none", text, PLAY)
    assert on == off
    assert on[1:] == _at(text, "and x.held)).zone", "zone)") and "none" in on[0], on
    text = RULES.replace('t = thing("green")', "t = [a, 1][0]").replace("      z.mark = 1\n      z.held = false\n", "")
    on, off = _both_modes(tmp_path / "zone", text, PLAY)
    assert on == off
    assert on[1:] == _at(text, "x.mark == t.mark and x != t and not", "mark and x != t"), on   # at the name read
