"""Callers whose last instruction was a call, popped by the callee that finished (fast paths on), against the
VM's rounds that find each at its end (fast paths off): the same steps, the same work, the same budget stops."""
import pytest
from ruleset_builder import load

from interpreter import Game
from interpreter.errors import RunawayGameError
from interpreter.machine import fast_paths, linetable

# `leaf` may wait (a choose it never reaches), so each call is a frame on the VM; `middle` and `outer` end
# with their call, so that when `leaf` finishes both callers are done too
SPEC = {
    "variables": {"total": 0},
    "functions": {
        "leaf": {"params": ["x"], "do": "if x > 100:\n  c = choose(player(0), [1, 2])\ntotal += x"},
        "middle": {"params": ["x"], "do": "total += 1\nleaf(x)"},
        "outer": {"params": ["x"], "do": "middle(x)"},
    },
    "flow": [{"do": "for i in range(6):\n  outer(i)\n  total += 1000"}],
}


def _play(tmp_path, monkeypatch, fast: bool, max_steps: int | None = None):
    monkeypatch.setattr(fast_paths, "on", lambda: fast)
    spec = dict(SPEC, limits={"max_steps": max_steps}) if max_steps is not None else SPEC
    try:
        game = Game(load(tmp_path, spec), 1)
    except RunawayGameError as exc:
        return str(exc).split("ruleset.yaml:", 1)[1]   # (each load is a folder of its own)
    source = linetable.SOURCES[game.codes["fn:leaf"].runner.__code__.co_filename]
    return game.state.steps, game.work, game.state.vars["total"], game.state.stack, "_up" in source


def test_finished_callers_popped_by_the_callee_charge_as_the_vm_rounds_did(tmp_path, monkeypatch):
    *fast, chained = _play(tmp_path, monkeypatch, True)
    *plain, not_chained = _play(tmp_path, monkeypatch, False)
    assert chained and not not_chained
    assert fast == plain
    steps = fast[0]
    for max_steps in range(steps - 12, steps + 1):
        assert _play(tmp_path, monkeypatch, True, max_steps)[:4] == _play(tmp_path, monkeypatch, False, max_steps)[:4]


@pytest.mark.parametrize("fast", [True, False])
def test_a_budget_stop_right_after_a_callee_is_the_same_either_way(tmp_path, monkeypatch, fast):
    steps = _play(tmp_path, monkeypatch, fast)[0]
    assert "did not end" in _play(tmp_path, monkeypatch, fast, steps - 1)
