"""Run every `$ davit ...` command of docs/play.md, in order, in an empty folder.

Other commands (`copy`) just have to succeed. `play` gets its answers on stdin (one move and `quit` when it
starts a game, which saves it; the first choice each time when it resumes one, to the end). `serve`
is started with --no-browser, its seat links are fetched, and it is stopped with
Ctrl-C (SIGINT), all bounded in time.
"""
import importlib.util
import json
import os
import re
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from test_authoring_guide import _steps

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "play.md"
ENV = dict(os.environ, PYTHONPATH=str(ROOT))


def _commands():
    steps = _steps(PAGE.read_text())
    assert steps and all(kind == "run" for kind, _, _ in steps)
    return [command for _, command, _ in steps]


def _links(line):
    return re.findall(r"http://127\.0\.0\.1:\d+/(?:seat|replay)/\S+", line)


def test_the_page_shows_play_resume_and_serve():
    commands = _commands()
    assert any(" serve " in c for c in commands)
    assert any("--resume" in c for c in commands)
    assert any("--replay" in c for c in commands)
    assert any(c.startswith("davit play") and "--resume" not in c for c in commands)
    # a picture of each bundled game's table, each shown on the page
    from interpreter.load.files import bundled_ids
    for rid in bundled_ids():
        assert (ROOT / "docs" / "tables" / f"{rid}.png").stat().st_size > 10_000, rid
        assert f"](tables/{rid}.png)" in PAGE.read_text(), rid


def _play(command, cwd):
    argv = command.split()
    resume = "--resume" in argv
    answers = "1\n" * 3000 if resume else "1\nquit\n"
    done = subprocess.run([sys.executable, "-m", "interpreter", *argv[1:]], cwd=cwd, env=ENV, input=answers,
                          capture_output=True, text=True, timeout=300, check=False)
    assert "Traceback" not in done.stderr
    if resume:
        assert done.returncode == 0, done.stderr
        assert "Game over" in done.stdout
    else:
        assert done.returncode == 130, done.stderr
        saved = re.search(r"saved in (\S+)", done.stderr)
        assert saved and (cwd / saved.group(1)).is_file()


def _serve(command, cwd):
    argv = command.split()
    if "--no-browser" not in argv:
        argv.append("--no-browser")   # a test never opens a browser window
    proc = subprocess.Popen([sys.executable, "-m", "interpreter", *argv[1:]], cwd=cwd, env=ENV, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    timer = threading.Timer(120, proc.kill)   # whatever happens, the server does not outlive the test
    timer.start()
    try:
        links = []
        for line in proc.stdout:
            links += _links(line)
            if line.startswith("Press Ctrl-C"):
                break
        assert links, proc.stderr.read() if proc.poll() is not None else "no seat link printed"
        if "--replay" in argv:
            assert len(links) == 1 and "/replay/" in links[0]
        else:
            agents = argv[argv.index("--agents") + 1] if "--agents" in argv else "human,random"
            assert len(links) == agents.split(",").count("human")
        for link in links:
            with urllib.request.urlopen(f"{link}/state", timeout=10) as r:
                state = json.loads(r.read())
            assert state["zones"] and state["players"]
            if "--replay" in argv:
                assert state["last"] >= 1 and state["step"] == 0
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{links[0]}x/state", timeout=10)
        assert refused.value.code == 403
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 0
    finally:
        timer.cancel()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()


@pytest.mark.slow
def test_every_command_of_the_page_works(tmp_path):
    ran = 0
    for command in _commands():
        argv = command.split()
        assert argv[0] == "davit"
        if argv[1] not in ("serve", "play"):
            done = subprocess.run([sys.executable, "-m", "interpreter", *argv[1:]], cwd=tmp_path, env=ENV,
                                  capture_output=True, text=True, timeout=300, check=False)
            assert done.returncode == 0, done.stderr
        elif argv[1] == "serve":
            if importlib.util.find_spec("starlette") is None or importlib.util.find_spec("uvicorn") is None:
                continue   # the web extra is not installed here; .ci/run installs it
            _serve(command, tmp_path)
        else:
            _play(command, tmp_path)
        ran += 1
    assert ran >= 2
