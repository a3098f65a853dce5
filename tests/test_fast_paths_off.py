"""Every fast path can be turned off, and the recorded games are the same without them.

A fast path (:mod:`interpreter.machine.fast_paths`) is a second way of doing
what a plain path does, trusted because the declarations prove they agree.
Each test here runs in a process of its own with ``DAVIT_FAST_PATHS=off``
(the switch is read once per process), and no disk cache, so that no code
compiled in the other mode is reused.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(code_or_args, mode="off"):
    env = {**os.environ, "DAVIT_FAST_PATHS": mode, "DAVIT_NO_CACHE": "1", "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, *code_or_args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=900)


@pytest.mark.slow
def test_off_turns_every_fast_path_off():
    probe = """
from interpreter import Game, load_ruleset
from interpreter.agents import make_agents, play_out
from interpreter.machine import fast_paths
import interpreter.agents.seats as seats
rs = load_ruleset("titanic")
fused = []
seats.play_by_index = lambda *a, **k: fused.append(1)
play_out(Game(rs, 2, seed=1), make_agents(["random"], 2, 1))
board = load_ruleset("collapsible-d").board
kept = sum(f.fast is not None for f in rs.functions.values())
print(fast_paths.on(), kept, len(rs.functions), len(fused), board._keep)
"""
    on = _run(["-c", probe], mode="on")
    off = _run(["-c", probe])
    assert on.returncode == 0 and off.returncode == 0, on.stderr + off.stderr
    on_flag, on_fast, n_functions, on_fused, on_keep = on.stdout.split()
    off_flag, off_fast, _, off_fused, off_keep = off.stdout.split()
    assert (on_flag, off_flag) == ("True", "False")
    assert int(on_fast) > 0 and int(off_fast) == 0, "off: every ruleset function runs on the VM"
    assert int(n_functions) >= int(on_fast)
    assert (on_fused, off_fused) == ("1", "0"), "off: random bots play through the public API"
    assert (on_keep, off_keep) == ("True", "False")


@pytest.mark.slow
def test_recorded_games_are_the_same_with_the_fast_paths_off():
    done = _run([str(ROOT / "tools" / "record_game_hashes.py")])
    assert done.returncode == 0, done.stderr
    recorded = json.loads((ROOT / "tests" / "fixtures" / "game_hashes.json").read_text())
    played = json.loads(done.stdout)
    assert len(played) == len(recorded) > 0
    key = lambda row: (row["ruleset"], str(row["variant"]), row["players"], row["seed"])   # noqa: E731
    assert sorted(played, key=key) == sorted(recorded, key=key)


@pytest.mark.slow
def test_a_misspelt_switch_is_one_line_of_error():
    done = _run(["-m", "interpreter", "validate", "rulesets/tutorial"], mode="of")
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "DAVIT_FAST_PATHS must be 'on' or 'off'" in lines[0], done.stderr
