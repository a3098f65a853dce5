"""Run every `$ davit ...` command of docs/analysis.md and docs/scale.md, in order, in an empty folder."""
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_authoring_guide import _steps

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "docs" / "analysis.md", ROOT / "docs" / "scale.md"]
# the optional extras a command needs, by the option that needs them
NEEDS = {"--backend ray": "ray", ".parquet": "pyarrow", "davit tune": "optuna"}


def test_the_pages_have_commands():
    for page in PAGES:
        assert [s for s in _steps(page.read_text()) if s[0] == "run"], f"{page.name} shows no command"


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_command_of_the_page_works(page, tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    ran = 0
    for kind, command, expected in _steps(page.read_text()):
        assert kind == "run"
        missing = [lib for option, lib in NEEDS.items() if option in command and importlib.util.find_spec(lib) is None]
        if missing:
            continue   # the optional extra is not installed here; .ci/run installs every one
        argv = command.split()
        assert argv[0] == "davit"
        done = subprocess.run([sys.executable, "-m", "interpreter", *argv[1:]], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == expected, f"`{command}` exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
        assert "Traceback" not in done.stderr
        for name in ("games.csv", "games.jsonl", "report.html"):
            if name in command:
                assert (tmp_path / name).stat().st_size > 0
        ran += 1
    assert ran
