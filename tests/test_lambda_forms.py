"""``any``, ``all`` and ``first`` with a lambda as loops of a generated function (dsl/lambda_forms.py).

Their bodies read the caller's names (a lexical variable, a comprehension's
item, a rule's local, a read the caller kept), sit inside one another and
inside comprehensions and lambdas. They must answer what the generator forms
answer with the fast paths off, charge the same work, and report an error
inside a body at the same place in both modes.
"""
import ast

import pytest
from ruleset_builder import load_text
from test_read_memo import _both_modes as both_modes

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
  - {id: c, attrs: {row: 3}}
things:
  - {id: red, start: a, attrs: {mark: 5}}
  - {id: blue, start: b}
  - {id: green, start: b}
  - {id: grey, start: c}
props:
  things:
    mark: 0
    holder: ""
functions:
  near:
    params: [z, n]
    value: |
      [any(things(), t -> t.zone == z and t.mark > n), all(z, t -> t.mark >= n and z.row > 0),
       first(things(), t -> t.zone.row == z.row and t.mark == n), z.row > 1 and any(z, t -> t.mark == z.row)]
  nested:
    params: [n]
    value: |
      [first([a, b, c], z -> any(z, t -> t.mark > n and z.row < 3 and all(things(), u -> u.mark >= 0))),
       [x.id for x in things() if any([1, 2, 3], k -> x.mark == k + n)],
       sum([a, b, c], z -> count(things(), t -> t.zone == z and any([z], y -> y.row == n)))]
  plus:
    params: [a, b]
    value: "a + b"
  weight:
    params: [n, t]
    value: "plus(t.mark, n) + 10 / (t.mark - n)"
  lightest:
    params: [n]
    value: "[x.id for x in sorted(things(), t -> weight(n, t))]"
  fails:
    params: [n]
    value: "any(things(), t -> t.zone.row > n and 10 / (t.mark - 3) > 100)"
flow:
  - do: |
      thing("blue").mark = 2
      thing("green").mark = 3
      k = 1
      got = [near(a, 4), near(b, 2), near(c, 0), nested(0), nested(1), any(things(), t -> t.mark == k + 1)]
      got = got + [lightest(1)]
      got = got + [first(things(), t -> t.mark > k and t.holder == "").id, all([a, b], z -> z.row >= k)]
"""

PLAY = """
import json, sys
sys.path.insert(0, "tests")
from pathlib import Path
from ruleset_builder import load_text
from test_read_memo import _both_modes as both_modes
from interpreter import Game
from interpreter.errors import GameError
try:
    game = Game(load_text(Path(sys.argv[1]), sys.argv[2]), 1, seed=1)
    print(json.dumps([repr(game.state.vars["got"]), game.work]))
except GameError as exc:
    print(json.dumps([exc.message, exc.location.line, exc.location.column]))
"""


def _both_modes(tmp_path, text):
    return both_modes(tmp_path, text, PLAY)


def test_the_loops_answer_as_written_by_hand(tmp_path):
    before = set(linetable.SOURCES)
    game = Game(load_text(tmp_path, RULES), 1, seed=1)
    things = game.table.things
    zones = game.table.zones
    assert game.state.vars["got"] == [
        [True, True, None, False],
        [True, True, things["blue"], True],
        [False, True, things["grey"], False],
        [zones["a"], ["blue", "green"], 0],
        [zones["a"], ["blue", "green"], 1],
        True, ["grey", "red", "green", "blue"], "red", True]
    if fast_paths.on():
        sources = [s for name, s in linetable.SOURCES.items() if name not in before]
        trees = [ast.parse(s) for s in sources]
        assert not any(isinstance(node, ast.GeneratorExp) for tree in trees for node in ast.walk(tree))
        assert sum(isinstance(node, ast.For) for tree in trees for node in ast.walk(tree)) >= 11
        # t -> weight(n, t), n the argument of lightest's own Python function: functools.partial(weight, g, n)
        lightest = linetable.SOURCES[game.ruleset.functions["lightest"].fast.__davit_file__]
        calls = [node for node in ast.walk(ast.parse(lightest)) if isinstance(node, ast.Call)]
        assert not any(isinstance(node, ast.Lambda) for node in ast.walk(ast.parse(lightest)))
        assert any([ast.unparse(a)[:2] for a in call.args[:2]] == ["_f", "g"] for call in calls), lightest


# the same loops in a `do:` block, reading the rule's locals: with the fast paths off a ruleset function runs on
# the VM, whose steps are charged too, so the work is compared where no ruleset function is called
IN_FLOW = RULES.split("functions:")[0] + """\
flow:
  - do: |
      thing("blue").mark = 2
      thing("green").mark = 3
      for z in [a, b, c]:
          n = 4 - z.row
          got = got + [any(things(), t -> t.zone == z and t.mark > n), all(z, t -> t.mark >= n and z.row > 0)]
          got = got + [first(things(), t -> t.zone.row == z.row and t.mark == n)]
          got = got + [first([a, b, c], y -> any(y, t -> t.mark > n and y.row < 3 and all(things(), u -> u.mark >= 0)))]
          got = got + [[x.id for x in things() if any([1, 2, 3], k -> x.mark == k + n)]]
"""


@pytest.mark.slow
def test_the_loops_answer_and_charge_as_with_the_fast_paths_off(tmp_path):
    on, off = _both_modes(tmp_path / "functions", RULES)
    assert on[0] == off[0]
    on, off = _both_modes(tmp_path / "flow", IN_FLOW)
    assert on == off and on[1] > 0


@pytest.mark.slow
def test_an_error_inside_a_loop_is_reported_where_it_stands_in_both_modes(tmp_path):
    text = RULES.replace("nested(1), ", "nested(1), fails(0), ")
    on, off = _both_modes(tmp_path, text)
    assert on == off
    lines = text.splitlines()
    row = next(i for i, line in enumerate(lines, 1) if "10 / (t.mark - 3)" in line)
    # green (mark 3), the third thing: the first two answered
    assert on[1:] == [row, lines[row - 1].index("10 /") + 1] and "division" in on[0], on


@pytest.mark.slow
def test_an_error_inside_a_function_a_lambda_only_calls_is_reported_where_it_stands_in_both_modes(tmp_path):
    text = RULES.replace("[lightest(1)]", "[lightest(2)]")   # blue's mark is 2: 10 / 0 in weight
    on, off = _both_modes(tmp_path, text)
    assert on == off
    lines = text.splitlines()
    row = next(i for i, line in enumerate(lines, 1) if "10 / (t.mark - n)" in line)
    assert on[1:] == [row, lines[row - 1].index("10 /") + 1] and "division" in on[0], on


KINDS = """\
id: unit
players: {min: 1, max: 1}
variables:
  got: []
zones:
  - {id: a, attrs: {row: 1}}
  - {id: b, attrs: {row: 2}}
things:
  - {id: p1, kind: pawn, start: a, attrs: {mark: 5}}
  - {id: p2, kind: pawn, start: b}
  - {id: c1, kind: card, start: b}
props:
  things:
    mark: 0
flow:
  - do: |
      got = [[t.id for t in things("pawn") if t.kind == "pawn" and t.mark > 0]]
      got = got + [filter(things("card"), t -> t.kind == "pawn")]
      got = got + [count(things("pawn"), t -> t.kind != "pawn" or t.zone.row > 1), [t.zone.row for t in things("card")]]
      got = got + [any(things("pawn"), t -> t.kind == "card" or t.zone.row == 2), all(things(), t -> t.kind == "pawn")]
"""


def test_the_kind_of_an_item_of_things_of_a_kind_is_known_and_its_zone_a_zone(tmp_path):
    before = set(linetable.SOURCES)
    game = Game(load_text(tmp_path, KINDS), 1, seed=1)
    assert game.state.vars["got"] == [["p1"], [], 1, [2], True, False]
    if fast_paths.on():
        sources = [s for name, s in linetable.SOURCES.items() if name not in before]
        # only things() walks a kind it does not prove: the one `kind` read; no zone's class tested
        assert sum(s.count(".kind") for s in sources) == 1 and not any("is _ZR" in s for s in sources), sources


@pytest.mark.slow
def test_known_kinds_answer_and_charge_as_with_the_fast_paths_off(tmp_path):
    on, off = _both_modes(tmp_path, KINDS)
    assert on == off
