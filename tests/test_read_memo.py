"""A read repeated within one expression that changes nothing is worked out once (dsl/read_memo.py).

Each expression below reads the same attribute of the same variable more than
once, in places that are evaluated always, sometimes or never (branches, the
right side of `and` and `or`, lambdas, comprehensions, chained comparisons).
They must answer what they answer with the fast paths off (every read through
the reader), and an error must be reported where the first read that fails
stands, in both modes.
"""
import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from ruleset_builder import load_text

from interpreter import Game
from interpreter.errors import GameError
from interpreter.machine import fast_paths, linetable

ROOT = Path(__file__).resolve().parent.parent

RULES = """\
id: unit
players: {min: 1, max: 1}
variables:
  got: []
zones:
  - {id: a, attrs: {row: 1, effect: suite}}
  - {id: b, attrs: {row: 2, effect: hold}}
  - {id: c, attrs: {row: 3, effect: open}}
  - {id: d, attrs: {row: 4}}
things:
  - {id: red, start: a, attrs: {mark: 5}}
  - {id: blue, start: b}
  - {id: green, start: b}
props:
  things:
    mark: 0
    holder: ""
  zones:
    lit: false
functions:
  sort_of:
    params: [s]
    value: |
      (("low" if s.row == 0 else "one") if s.row < 2 else
        ("suite" if s.effect == "suite" else s.effect != "hold" and s.effect))
  marks:
    params: [z]
    value: |
      ([t.mark + t.mark for t in things() if t.mark > 0 and t.mark != z.row] +
        [count(things(), t -> t.mark == z.row or t.mark > z.row)])
  leaks:
    params: [z]
    value: |
      [(z.lit and z.row > 5) or z.row == 2, (z.row if z.lit else 0) + z.row, 0 < z.row < z.row + 1 < z.row + 2,
       any([1, 2], x -> z.row == x) and z.row > 0, (z.lit and z.row > 1) and z.row < 3,
       (z.lit or z.row > 2) or z.row == 1, z.row if z.row > 1 and z.lit else -1,
       -1 if z.lit or z.row > 2 else z.row, [t.mark + z.row for t in things() if z.row < 3 and t.mark > z.row]]
  holders:
    params: [n]
    value: "[t.holder + t.holder for t in things() if t.holder != '' and t.holder == t.holder and n > 0]"
  props_twice:
    params: [n]
    value: '[t.holder + text(t.mark) for t in things() if t.holder != "" or t.mark > n]'
  both:
    params: [t]
    value: 't.mark > 1 and t.holder == ""'
  called_first:
    params: [n]
    value: '[t.mark + n for t in things() if both(t) and t.mark < 9 and t.holder == ""]'
  first_read_fails:
    params: [s]
    value: "s.row > 3 and (s.effect == 'hold' or s.effect == 'open')"
flow:
  - do: |
      thing("blue").mark = 2
      b.lit = true
      thing("red").holder = "x"
      got = [sort_of(a), sort_of(b), sort_of(c), marks(a), marks(b), leaks(a), leaks(b), leaks(c), holders(1)]
      got = got + [props_twice(1), called_first(1), first_read_fails(c), first_read_fails(d)]
      s = b
      if s.lit and s.row == 2 and s.effect == "hold" and s.row + s.row == 4:
          got = got + ["b"]
"""

PLAY = """
import json, sys
from pathlib import Path
sys.path.insert(0, "tests")
import pytest
from ruleset_builder import load_text
from interpreter import Game
from interpreter.errors import GameError
try:
    print(json.dumps(Game(load_text(Path(sys.argv[1]), sys.argv[2]), 1, seed=1).state.vars["got"]))
except GameError as exc:
    print(json.dumps([exc.message, exc.location.line, exc.location.column]))
"""


def _both_modes(tmp_path, text, play=PLAY):
    """What the script ``play`` prints for ``text``, with the fast paths on and off (each in a process of its own,
    no disk cache). tests/test_lambda_forms.py asks it too."""
    answers = []
    for mode in ("on", "off"):
        folder = tmp_path / mode
        folder.mkdir(parents=True)
        env = {**os.environ, "DAVIT_FAST_PATHS": mode, "DAVIT_NO_CACHE": "1", "PYTHONPATH": str(ROOT)}
        done = subprocess.run([sys.executable, "-c", play, str(folder), text], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=300, check=True)
        answers.append(json.loads(done.stdout))
    return answers


@pytest.mark.slow
def test_repeated_reads_answer_as_with_the_fast_paths_off(tmp_path):
    on, off = _both_modes(tmp_path, RULES.replace(", first_read_fails(d)", ""))
    assert on == off
    assert on[:3] == ["one", False, "open"]   # a's row is 1; b's effect is "hold"; c's "open"


@pytest.mark.slow
def test_the_first_read_that_fails_is_reported_where_it_stands(tmp_path):
    on, off = _both_modes(tmp_path, RULES)
    assert on == off
    lines = RULES.splitlines()
    row = next(i for i, line in enumerate(lines, 1) if "s.row > 3 and" in line)
    # d has no effect: the first `s.effect` fails, never a later one
    assert on[1:] == [row, lines[row - 1].index("s.effect") + 3]   # (at the name read)


def test_a_read_is_kept_only_where_a_later_one_uses_it(tmp_path):
    before = set(linetable.SOURCES)
    game = Game(load_text(tmp_path, RULES.replace(", first_read_fails(d)", "")), 1, seed=1)
    # worked out by hand from the rules above
    assert game.state.vars["got"] == [
        "one", False, "open", [10, 4, 2], [10, 2],
        [False, 1, True, True, False, True, -1, 1, [6, 3]],   # a: row 1, not lit
        [True, 4, True, True, True, True, 2, -1, [7]],   # b: row 2, lit
        [False, 3, True, False, False, True, -1, -1, []],   # c: row 3, not lit
        ["xx"], ["x5", "2"], [3], False, "b"]
    if not fast_paths.on():
        return
    sources = {name: s for name, s in linetable.SOURCES.items() if name not in before}
    kept, used = set(), set()
    for source in sources.values():
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.NamedExpr) and node.target.id.startswith("_m"):
                kept.add(node.target.id)
            elif isinstance(node, ast.Name) and node.id.startswith("_m") and isinstance(node.ctx, ast.Load):
                used.add(node.id)
    # sort_of keeps s.row and s.effect, marks and holders t.mark and t.holder, leaks z.row where it dominates,
    # props_twice and called_first the properties of t (both(t) is written out: what it reads holds after it)
    assert len(kept) >= 7 and kept == used
    # the condition on the local s looks it up once: its first read keeps it, the others use that name
    condition = next(s for s in sources.values() if "'effect'" in s and "L['s']" in s)
    assert condition.count("L['s']") == 1, condition
    props = [s for s in sources.values() if "'holder'" in s and "'mark'" in s]
    assert props and all(re.search(r"\(_m\d+ := _h\d+\[_[avw]\d+\.id\]\)", s) for s in props), props


def test_a_local_read_before_it_is_set_is_reported_at_the_first_read(tmp_path):
    text = RULES.replace("      s = b\n", "      if got == []:\n          s = b\n")   # (never: got is not empty)
    with pytest.raises(GameError) as info:
        Game(load_text(tmp_path, text.replace(", first_read_fails(d)", "")), 1, seed=1)
    lines = text.splitlines()
    row = next(i for i, line in enumerate(lines, 1) if "if s.lit and" in line)
    assert (info.value.location.line, info.value.location.column) == (row, lines[row - 1].index("s.lit") + 1)
    assert "'s' is used before it is given a value" in info.value.message


def test_a_statement_reads_afresh(tmp_path):
    # a `do:` block's statements change what the next one reads: nothing is kept there
    text = RULES.replace("thing(\"blue\").mark = 2\n", "thing(\"blue\").mark = 2\n      got = [thing(\"blue\").mark]\n"
                         "      thing(\"blue\").mark = thing(\"blue\").mark + thing(\"blue\").mark\n")
    try:
        game = Game(load_text(tmp_path, text.replace(", first_read_fails(d)", "")), 1, seed=1)
    except GameError as exc:   # (never: the rules are sound)
        raise AssertionError(exc.message) from None
    assert game.table.things["blue"].id == "blue"
    assert game.state.props["blue"]["mark"] == 4


LAZY = """\
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
functions:
  same_mark:
    params: [t]
    value: "[x.id for x in things() if x.mark == t.mark and x != t] + [count(things(), x -> x.mark < t.mark)]"
flow:
  - do: |
      thing("green").mark = 5
      t = thing("blue")
      got = [same_mark(thing("red")), same_mark(t), [x.id for x in things() if x.mark > t.mark and t.mark < 1]]
      got = got + [[x.id for x in [] if x.mark == t.mark], [x.id for x in things() if t.zone == b or t.mark / 0 > 1]]
"""


def test_a_read_of_an_argument_or_a_local_inside_a_comprehension_is_worked_out_once(tmp_path):
    before = set(linetable.SOURCES)
    game = Game(load_text(tmp_path, LAZY), 1, seed=1)
    assert game.state.vars["got"] == [["green", 1], [0], ["red", "green"], [], ["red", "blue", "green"]]
    if fast_paths.on():
        sources = [s for name, s in linetable.SOURCES.items() if name not in before]
        # t.mark inside each comprehension: kept lazily, in the function of same_mark and of the condition
        assert sum(bool(re.search(r"_m\d+ = _k\d+\n", s)) for s in sources) >= 2, sources


@pytest.mark.slow
def test_lazily_kept_reads_answer_as_with_the_fast_paths_off_and_fail_where_the_first_read_stands(tmp_path):
    on, off = _both_modes(tmp_path / "answers", LAZY)
    assert on == off
    text = LAZY.replace("same_mark(t)", "same_mark(a)")   # a zone has no mark: the first read of t.mark fails
    on, off = _both_modes(tmp_path / "fails", text)
    assert on == off
    lines = text.splitlines()
    row = next(i for i, line in enumerate(lines, 1) if "x.mark == t.mark" in line)
    assert on[1:] == [row, lines[row - 1].index("t.mark") + 3] and "mark" in on[0], on   # (at the name read)
