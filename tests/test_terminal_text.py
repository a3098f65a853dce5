"""A ruleset's names, labels and log lines reach the terminal with control characters escaped (issue 30).

A name holding ``\\x1b]0;title\\x07`` would set the window's title, one holding
``\\x1b[2J`` would clear the screen. davit's output passes through one helper,
:func:`interpreter.errors.printable`.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.errors import printable

REPO = Path(__file__).resolve().parent.parent
TITLE, CLEAR = "\x1b]0;title\x07", "\x1b[2J"

RULESET = r"""id: esc
name: "Game \x1b]0;title\x07 of \x1b[2J doom"
players: {min: 1, max: 2, names: ["Ann \x1b[2J"]}
variables:
  done: {initial: 0}
zones:
  - id: pile
    name: "pile \x1b]0;title\x07"
actions:
  - id: wait
    label: "wait \x1b[2J here"
    do: |
      done = 1
      log("waited \x1b]0;title\x07")
flow:
  - do: |
      log("hello \x1b]0;title\x07 and \x1b[2J")
  - turn:
      name: "turn \x1b[2J"
      player: player(0)
      actions: [wait]
end:
  when: done == 1
"""

def test_printable_escapes_control_characters_and_only_them():
    assert printable(f"a{TITLE}b{CLEAR}c") == "a\\x1b]0;title\\x07b\\x1b[2Jc"
    assert printable("line\n\ttab é ✓ \\ back") == "line\n\ttab é ✓ \\ back"
    assert printable("\r\x00\x7f\x9b\u202e") == "\\x0d\\x00\\x7f\\x9b\\u202e"
    once = printable(f"{TITLE}{CLEAR}\x9b")
    assert printable(once) == once                     # nothing left to escape


def davit(*args, cwd, stdin=subprocess.DEVNULL):
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "interpreter", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120, stdin=stdin)


@pytest.fixture
def folder(tmp_path):
    rs = tmp_path / "esc"
    rs.mkdir()
    (rs / "ruleset.yaml").write_text(RULESET, encoding="utf-8")
    return rs


def no_raw_controls(done):
    for text in (done.stdout, done.stderr):
        assert "\x1b" not in text and "\x07" not in text, text
    return done.stdout + done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("command", [["validate"], ["explain"], ["play", "--players", "1"],
                                     ["play", "--players", "1", "--agents", "human"], ["draw"],
                                     ["play", "--players", "1", "--variant", f"no{CLEAR}such"]])
def test_the_terminal_never_gets_a_rulesets_control_characters(folder, command):
    if command == ["validate"]:   # two zones of one name: the error quotes it
        text = (folder / "ruleset.yaml").read_text(encoding="utf-8")
        (folder / "ruleset.yaml").write_text(text.replace("zones:\n", "zones:\n  - id: heap\n    name: \"pile "
                                                          "\\x1b]0;title\\x07\"\n"), encoding="utf-8")
    args = [command[0], str(folder), *command[1:]]
    stdin = subprocess.PIPE if "human" in command else subprocess.DEVNULL
    if "human" in command:
        done = subprocess.run([sys.executable, "-m", "interpreter", *args], cwd=folder.parent, capture_output=True,
                              text=True, timeout=120, input="1\n1\n1\n",
                              env={**os.environ, "PYTHONPATH": str(REPO)})
    else:
        done = davit(*args, cwd=folder.parent, stdin=stdin)
    text = no_raw_controls(done)
    assert "Traceback" not in text
    if command != ["draw"]:                              # (draw drops them from its DOT text itself)
        assert "\\x1b" in text                           # what the names hold is shown, escaped


@pytest.mark.slow
def test_json_output_stays_json_with_the_characters_intact(folder):
    done = davit("validate", str(folder), "--format", "json", cwd=folder.parent)
    no_raw_controls(done)
    assert isinstance(json.loads(done.stdout), list)


def test_validate_text_form_escapes_messages():
    from interpreter.authoring.validate import Finding
    finding = Finding(f"f{CLEAR}.yaml", 1, 2, "error", "load", f"name {TITLE}", f"hint {CLEAR}")
    assert "\x1b" not in finding.text() and "\x07" not in finding.text()
    assert finding.to_json()["message"] == f"name {TITLE}"   # data keeps the text as it is
