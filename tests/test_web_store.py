"""Games survive a restart (issue 29): `davit serve --db FILE` writes each decision as it is made; killed
(SIGKILL) and started again with the same file, it goes on with the same game, step and seat links."""
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENV = dict(os.environ, PYTHONPATH=str(ROOT))


GAME = ["titanic", "--agents", "human,random", "--seed", "4"]


def _sigint_ignored():
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _start(cwd, db, game=GAME, background=False):
    """``background``: started as a shell's background job is, with SIGINT ignored until uvicorn's handler."""
    proc = subprocess.Popen([sys.executable, "-m", "interpreter", "serve", *game, "--no-browser", "--db", str(db)],
                            cwd=cwd, env=ENV, text=True, preexec_fn=_sigint_ignored if background else None,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    timer = threading.Timer(60, proc.kill)   # whatever happens, the server does not outlive the test
    timer.start()
    lines = []
    for line in proc.stdout:
        lines.append(line)
        if line.startswith("Press Ctrl-C"):
            break
    links = [w for line in lines for w in line.split() if "/seat/" in w]
    assert len(links) == 1, "".join(lines) + (proc.stderr.read() if proc.poll() is not None else "")
    return proc, timer, links[0], "".join(lines)


def _state(link):
    with urllib.request.urlopen(f"{link}/state", timeout=10) as r:
        return json.loads(r.read())


def _act(link, step):
    request = urllib.request.Request(f"{link}/act", data=json.dumps({"index": 0, "step": step}).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=10) as r:
        return json.loads(r.read())


def _stop(proc, timer, sig=signal.SIGKILL):
    proc.send_signal(sig)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        pytest.fail(f"the server did not stop within 30 s of signal {sig}: {proc.stderr.read()}")
    finally:
        timer.cancel()
    proc.stdout.close()
    proc.stderr.close()


@pytest.mark.slow
def test_a_killed_server_goes_on_with_the_same_game_and_links(tmp_path):
    pytest.importorskip("starlette", reason="the web extra is not installed")
    pytest.importorskip("uvicorn", reason="the web extra is not installed")
    db = tmp_path / "tables.db"
    proc, timer, link, _ = _start(tmp_path, db)
    try:
        for _ in range(4):
            state = _state(link)
            assert not state["over"] and state["actions"]
            _act(link, state["step"])
        before = _state(link)
    finally:
        _stop(proc, timer)   # killed: nothing is written at the end
    written = sqlite3.connect(db).execute("SELECT COUNT(*) FROM decisions").fetchone()[0]
    assert written >= 4
    proc, timer, again, out = _start(tmp_path, db)
    try:
        assert again.split("/seat/")[1] == link.split("/seat/")[1]   # the same seat link
        assert "Resumed" in out
        after = _state(again)
        for key in ("step", "actions", "zones", "players", "question", "log"):
            assert after[key] == before[key], key
        assert _act(again, after["step"])["ok"]   # and it goes on from there
    finally:
        _stop(proc, timer, signal.SIGINT)
    # without a ruleset, the last unfinished game of the file goes on; with --new, another begins
    proc, timer, third, out = _start(tmp_path, db, [])
    try:
        assert third.split("/seat/")[1] == link.split("/seat/")[1] and "Resumed" in out
        assert _state(third)["step"] > before["step"]
    finally:
        _stop(proc, timer)
    # a background job starts with SIGINT ignored: "Press Ctrl-C" is printed only once Ctrl-C works
    # (uvicorn's handler in place), so a SIGINT right after the line still stops the table
    proc, timer, fresh, out = _start(tmp_path, db, GAME + ["--new"], background=True)
    try:
        assert fresh.split("/seat/")[1] != link.split("/seat/")[1] and "Resumed" not in out
    finally:
        _stop(proc, timer, signal.SIGINT)
    assert proc.returncode == 0
