"""Small `value:` functions written out at their calls (dsl/inline_calls.py): the same answers, the same errors."""
import pytest
from ruleset_builder import load

from interpreter import Game, load_ruleset
from interpreter.errors import GameError
from interpreter.machine import fast_paths

INLINED_ERROR = """\
id: unit
players: {min: 1, max: 1}
variables:
  n: 0
  # none at first: the static check cannot know its type, so the mistake shows only when the game runs
  word: null
functions:
  bump:
    params: [x]
    value: x + n
zones:
  - id: pile
things:
  - id: chip
    start: pile
flow:
  - do: |
      word = "chip"
      w = word
      n = bump(w)
"""


def test_an_error_inside_a_written_out_function_names_the_function(tmp_path):
    (tmp_path / "ruleset.yaml").write_text(INLINED_ERROR, encoding="utf-8")
    rs = load_ruleset(tmp_path)
    if fast_paths.on():
        assert rs.functions["bump"].inlinable, "bump(w) is written out at its call"
    with pytest.raises(GameError) as info:
        Game(rs, 1, seed=1)
    lines = INLINED_ERROR.splitlines()
    row = next(i for i, line in enumerate(lines, 1) if "value: x + n" in line)
    assert "TypeError" in info.value.message
    assert (info.value.location.line, info.value.location.column) == (row, lines[row - 1].index("x + n") + 1)


def test_only_small_value_functions_that_call_none_are_written_out(tmp_path):
    rs = load(tmp_path, {
        "variables": {"n": 0},
        "functions": {"twice": {"params": ["x"], "value": "x * 2 + 1"},
                      "double": {"params": ["x"], "value": "x * 2"},
                      "calls": {"params": ["x"], "value": "twice(x) + 1"},
                      "steps": {"params": ["x"], "do": "return x + 1"},
                      "moves": {"params": ["x"], "value": "x + n"}},
        "flow": [{"do": "a = 1\nn = twice(a) + double(a) + calls(a) + steps(a) + moves(a)"}],
    })
    game = Game(rs, 1, seed=1)
    assert game.state.vars["n"] == 3 + 2 + 4 + 2 + 1
    if fast_paths.on():
        names = ("twice", "double", "calls", "steps", "moves")
        inlinable = {name: rs.functions[name].inlinable for name in names}
        # twice reads only its argument and does two operations: its answers are kept (state_free), cheaper
        # than written out; double is one operation, too small to keep
        assert inlinable == {"twice": False, "double": True, "calls": False, "steps": False, "moves": True}
