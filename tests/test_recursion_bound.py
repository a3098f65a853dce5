"""Rules that call themselves stop at the same depth with the fast paths on and off.

Python's own recursion limit used to be the bound: a call took one Python frame with the fast paths on and
several on the VM with them off, so a function recursing 200 deep played on in one mode and stopped with
"rules recurse too deeply" in the other. The calls of functions that may call themselves are now counted
(``inline_calls.MAX_RECURSION``), in both modes alike. Each mode runs in a process of its own (the switch
is read once per process), with no disk cache.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from ruleset_builder import load_text

from interpreter import Game
from interpreter.dsl.inline_calls import MAX_RECURSION

ROOT = Path(__file__).resolve().parent.parent

RULESET = """\
id: unit
players: {min: 2, max: 2}
variables: {n: 0}
functions:
  down:
    params: [k]
    do: |
      if k <= 0:
        return 0
      return down(k - 1) + 1
  deep:
    params: [k]
    value: "0 if k <= 0 else deep(k - 1) + 1"
  through:
    params: [k]
    value: "any([k], y -> y <= 0 or count(filter([y], t -> through(t - 1))) >= 0)"
  ping:
    params: [k]
    value: "k <= 0 or pong(k - 1)"
  pong:
    params: [k]
    value: "ping(k)"
actions:
  - id: go
    if: count([FUNCTION(n)]) > 0
    do: |
      n = n + 15
flow:
  - repeat: 12
    steps:
      - each_player: current
        steps:
          - turn: {player: current, actions: [go], max_actions: 1}
"""

PROBE = """
import json, sys
from interpreter import Game, load_ruleset
g = Game(load_ruleset(sys.argv[1]), 2, seed=1)
error = None
try:
    while not g.is_over:
        g.apply(g.legal_actions()[0])
except Exception as exc:
    error = f"{type(exc).__name__}: {exc}"
print(json.dumps([g.state.vars["n"], error, g.log_hash()]))
"""


def _played(folder, mode):
    env = {**os.environ, "DAVIT_FAST_PATHS": mode, "DAVIT_NO_CACHE": "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", PROBE, str(folder)], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _stops_at(game, calls_per_level):
    """Play the first action until the rules stop; n then, checked against the bound."""
    error = None
    try:
        while not game.is_over:
            game.apply(game.legal_actions()[0])
    except Exception as exc:
        error = f"{type(exc).__name__}: {exc}"
    n = game.state.vars["n"]
    # n grows by 15 a decision: the first n whose calls, one inside another, pass the bound
    assert (n + 1) * calls_per_level > MAX_RECURSION >= (n - 15 + 1) * calls_per_level, n
    assert error is not None and error.endswith("rules recurse too deeply") and "ruleset.yaml:" in error, error
    return n, error


CASES = (("down", 1), ("deep", 1), ("through", 1), ("ping", 2))


@pytest.mark.parametrize("function,calls_per_level", CASES)
def test_the_calls_are_counted(tmp_path, function, calls_per_level):
    _stops_at(Game(load_text(tmp_path, RULESET.replace("FUNCTION", function)), 2, seed=1), calls_per_level)


def test_only_functions_that_may_call_themselves_are_counted(tmp_path):
    functions = load_text(tmp_path, RULESET.replace("FUNCTION", "down")).env.functions
    assert {name for name, info in functions.items() if info.recursive} == {"down", "deep", "through", "ping", "pong"}


@pytest.mark.slow   # a process per mode
def test_the_same_depth_stops_the_rules_in_both_modes(tmp_path):
    for function, calls_per_level in CASES:
        folder = tmp_path / function
        folder.mkdir()
        (folder / "ruleset.yaml").write_text(RULESET.replace("FUNCTION", function), encoding="utf-8")
        on, off = _played(folder, "on"), _played(folder, "off")
        assert on == off, function
        n, error, _ = on
        # n grows by 15 a decision: the first n whose calls, one inside another, pass the bound
        assert (n + 1) * calls_per_level > MAX_RECURSION >= (n - 15 + 1) * calls_per_level, (function, n)
        assert error is not None and error.endswith("rules recurse too deeply"), error
        assert "ruleset.yaml:" in error
