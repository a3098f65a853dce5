"""A simulate worker that dies (kill -9, out of memory) never hangs the run: its games are played again,
or the run ends with the games that finished and names the missing ones."""
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from interpreter.analysis import runner
from interpreter.analysis.simulate import simulate

pytestmark = pytest.mark.slow   # see tests/conftest.py: the fast tier leaves it out

ROOT = Path(__file__).resolve().parent.parent


def _dying(tmp_path, always_for=None):
    """A play_chunk that SIGKILLs its worker: once (the first chunk played), or every time it plays the
    chunk starting at game ``always_for``."""
    real = runner.play_chunk
    marker = tmp_path / "killed-once"

    def play_chunk(spec, games, ruleset=None):
        first = games[0][0]
        if (always_for is None and not marker.exists()) or first == always_for:
            marker.touch()
            os.kill(os.getpid(), signal.SIGKILL)
        return real(spec, games, ruleset)
    return play_chunk


def _within(seconds, fn):
    """``fn()``, failing (not hanging) if it takes more than ``seconds``: a hung pool never returns."""
    out = {}
    thread = threading.Thread(target=lambda: out.setdefault("result", fn()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert "result" in out, f"the run did not end within {seconds} s"
    return out["result"]


def _figures(result):
    return {k: v for k, v in result.items() if k not in ("seconds", "games_per_second")}


def test_a_killed_worker_s_games_are_played_again_with_the_same_result(tmp_path, monkeypatch):
    alone = simulate("tutorial", games=200, players=2, seed=3, workers=1, keep_records=True)
    monkeypatch.setattr(runner, "play_chunk", _dying(tmp_path))
    again = _within(60, lambda: simulate("tutorial", games=200, players=2, seed=3, workers=2, keep_records=True))
    assert (tmp_path / "killed-once").exists()          # a worker did die
    assert _figures(again) == _figures(alone) and not again["interrupted"]


def test_games_that_kill_their_worker_every_time_are_named_missing(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(runner, "play_chunk", _dying(tmp_path, always_for=50))
    result = _within(60, lambda: simulate("tutorial", games=200, players=2, seed=3, workers=2, keep_records=True))
    assert result["interrupted"] and result["games"] == 150
    assert result["missing_games"] == list(range(50, 100))
    assert sorted(r["game"] for r in result["records"]) == list(range(50)) + list(range(100, 200))
    err = capsys.readouterr().err
    assert "worker process died" in err and "games 50–99" in err


def _children(pid):
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(c) for c in text.split()]


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs /proc to find the workers")
def test_kill_9_of_a_worker_of_the_command_ends_the_run_with_the_full_result():
    argv = [sys.executable, "-m", "interpreter", "simulate", "titanic-board-game", "--games", "300",
            "--players", "2", "--workers", "2", "--seed", "5", "--json"]
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        killed = None
        deadline = time.monotonic() + 60
        while killed is None and time.monotonic() < deadline and proc.poll() is None:
            workers = _children(proc.pid)
            if len(workers) >= 2:
                time.sleep(0.5)   # let them start playing
                killed = workers[0]
                os.kill(killed, signal.SIGKILL)
            time.sleep(0.05)
        assert killed is not None, "the run ended before a worker could be killed"
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:   # a hung run: end it and its workers, so that nothing outlives the test
            for pid in _children(proc.pid):
                os.kill(pid, signal.SIGKILL)
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    result = json.loads(out)
    assert result["games"] == 300 and not result["interrupted"]
    alone = simulate("titanic-board-game", games=300, players=2, seed=5, workers=1)
    assert {k: result[k] for k in alone if k in result and k not in ("seconds", "games_per_second")} == \
        {k: v for k, v in alone.items() if k not in ("seconds", "games_per_second")}


def test_a_ray_worker_that_dies_every_time_gives_up_only_its_games(tmp_path):
    """Ray plays a task again when its worker dies; games whose worker dies on every try are named
    missing, and the other jobs' records still arrive (as with the local pool)."""
    pytest.importorskip("ray", reason="Ray is not installed (pip install '.[ray]')")
    from interpreter.analysis import ray_backend
    from interpreter.analysis.runner import WorkerLostError

    marker = tmp_path / "tries"

    def chunk(files, spec, games):   # defined here, so Ray ships it by value to its workers
        if games[0][0] == 50:
            with open(marker, "a") as tries:
                tries.write("x")
            os.kill(os.getpid(), signal.SIGKILL)
        return [{"game": index} for index, _ in games]

    session = ray_backend.RaySession(None, 2)
    try:
        session.task = session.ray.remote(max_retries=ray_backend.RETRIES)(chunk)
        spec = runner.RunSpec(ref="tutorial", variant=None, players=2)
        jobs = [(start, spec, [(i, i) for i in range(start, start + 50)]) for start in (0, 50, 100)]
        done = {}

        def run():
            try:
                session.run(jobs, lambda key, records: done.setdefault(key, records))
            except WorkerLostError as exc:
                return exc
        lost = _within(120, run)
    finally:
        session.close()
    assert isinstance(lost, WorkerLostError) and lost.missing == list(range(50, 100))
    assert "games 50–99" in str(lost)
    assert sorted(done) == [0, 100] and [r["game"] for r in done[100]] == list(range(100, 150))
    assert marker.read_text() == "x" * (ray_backend.RETRIES + 1)   # played again before it was given up
