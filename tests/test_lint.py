"""The repository is clean under the ruff rules pyproject.toml selects ([tool.ruff.lint]): lint is a contract.

ruff is in the `test` extra, so CI (.ci/run: `pip install '.[test,...]' && pytest`)
runs this as it runs every other test. A finding fails the test with ruff's own
report: file:line:col, the rule and what to change.
"""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _ruff() -> list[str]:
    found = shutil.which("ruff")
    return [found] if found else [sys.executable, "-m", "ruff"]


@pytest.mark.slow   # a process
def test_ruff_finds_nothing():
    done = subprocess.run([*_ruff(), "check", "--no-cache", "--output-format", "concise", "."], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"ruff check found problems:\n{done.stdout}{done.stderr}"


@pytest.mark.slow   # a process
def test_the_rules_are_the_selected_ones():
    """The check runs with the repository's selection, not ruff's defaults (a few pyflakes and pycodestyle rules)."""
    done = subprocess.run([*_ruff(), "check", "--show-settings", "pyproject.toml"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    for rule in ("unused-import (F401)", "unsorted-imports (I001)", "mutable-argument-default (B006)",
                 "non-pep604-annotation-union (UP007)", "line-too-long (E501)"):
        assert rule in done.stdout, f"{rule} is not among the rules ruff checks"
