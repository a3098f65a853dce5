"""Running davit in tests: in-process (`run`) or as a real process (`davit`, to see stderr and tracebacks)."""
import builtins
import io
import os
import subprocess
import sys
from pathlib import Path

from interpreter.cli import main

REPO = Path(__file__).resolve().parent.parent


def run(argv) -> int:
    """main() in-process; it returns the exit code, usage errors included."""
    return main(argv)


def davit(*args, stdin=subprocess.DEVNULL, timeout=60):
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("DAVIT_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "interpreter", *args], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=timeout, stdin=stdin)


def feed(monkeypatch, answers) -> list:
    """Answer the terminal's questions with ``answers`` (an exception is raised where it stands, as a
    Ctrl-C would be); returns the prompts asked, filled in as they are."""
    answers = iter(answers)
    prompts: list = []

    def fake_input(prompt=""):
        prompts.append(prompt)
        answer = next(answers)
        if isinstance(answer, BaseException):
            raise answer
        return answer
    monkeypatch.setattr(builtins, "input", fake_input)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    return prompts
