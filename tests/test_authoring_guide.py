"""Run every command and write every file of docs/authoring.md, in order, so the guide cannot go stale."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "authoring.md"


def _steps(text):
    """("file", path, content) and ("run", command, exit_code) in document order."""
    steps = []
    for block in re.finditer(r"(<!-- file: (?P<path>\S+) -->\s*)?```(?P<lang>\w*)\n(?P<body>.*?)```", text, re.S):
        lang, body = block.group("lang"), block.group("body")
        if block.group("path"):
            steps.append(("file", block.group("path"), body))
        elif lang == "sh":
            for line in body.splitlines():
                if line.startswith("$ "):
                    command, _, note = line[2:].partition("#")
                    m = re.search(r"exit (\d+)", note)
                    steps.append(("run", command.strip(), int(m.group(1)) if m else 0))
    return steps


def test_the_guide_has_commands():
    kinds = [s[0] for s in _steps(GUIDE.read_text())]
    assert kinds.count("run") >= 10 and kinds.count("file") >= 3


@pytest.mark.slow
def test_every_command_of_the_guide_works(tmp_path):
    _run_page(GUIDE, tmp_path)
    assert (tmp_path / "my-ship.svg").is_file()


@pytest.mark.slow
def test_every_command_of_the_variants_page_works(tmp_path):
    page = ROOT / "docs" / "variants.md"
    kinds = [s[0] for s in _steps(page.read_text())]
    assert kinds.count("run") >= 5 and kinds.count("file") >= 2
    _run_page(page, tmp_path)


def _run_page(page, tmp_path):
    """Write every file and run every command of ``page`` in order, in ``tmp_path``."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for step in _steps(page.read_text()):
        if step[0] == "file":
            target = tmp_path / step[1]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(step[2])
            # the `$schema` line the guide shows must lead to the right schema inside the copy
            first = step[2].split("\n", 1)[0]
            m = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first)
            assert m, f"{step[1]}: first line is {first!r}"
            schema = target.parent / m.group(1)
            assert schema.is_file(), f"{step[1]}: {m.group(1)} does not resolve in the copy"
            assert schema.name == f"{target.parent.name.rstrip('s')}.schema.json"
            continue
        command, expected = step[1], step[2]
        argv = command.split()
        assert argv[0] == "davit"
        done = subprocess.run([sys.executable, "-m", "interpreter", *argv[1:]], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == expected, f"`{command}` exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
        assert "Traceback" not in done.stderr
        if command.startswith("davit validate") and expected == 1:
            shown = re.search(r"```text\n(.*?)\n```", page.read_text(), re.S).group(1)
            assert shown in done.stdout, f"the guide shows an error davit does not print:\n{done.stdout}"
