"""davit validate keeps a ruleset folder's findings until one of its files changes (authoring/findings_cache.py)."""
import os
import shutil
import subprocess
import sys

import pytest
from cli_runner import REPO

SOURCE = REPO / "rulesets" / "tutorial"


def validate(folder, cache, *extra):
    env = {**os.environ, "PYTHONPATH": str(REPO), "DAVIT_CACHE_DIR": str(cache)}
    code = ("import sys, runpy; sys.argv = ['davit', 'validate', *sys.argv[1:]]\n"
            "try:\n    runpy.run_module('interpreter', run_name='__main__')\n"
            "except SystemExit as e:\n    code = e.code\n"
            "heavy = [m for m in ('lark', 'networkx', 'jsonschema') if m in sys.modules]\n"
            "print('HEAVY', heavy)\nsys.exit(code)\n")
    done = subprocess.run([sys.executable, "-c", code, str(folder), *extra], cwd=folder.parent, env=env,
                          capture_output=True, text=True, timeout=120)
    lines = done.stdout.splitlines()
    return done.returncode, [line for line in lines if not line.startswith("HEAVY")], lines[-1]


@pytest.fixture
def ruleset(tmp_path):
    folder = tmp_path / "tutorial"
    shutil.copytree(SOURCE, folder)
    return folder


@pytest.mark.slow
def test_a_second_run_reuses_the_findings_without_loading_the_compiler(ruleset, tmp_path):
    cache = tmp_path / "cache"
    first = validate(ruleset, cache)
    assert first[0] == 0 and first[1] == ["ok: no problems found"]
    assert first[2] != "HEAVY []", "the first run builds the ruleset"
    assert list((cache / "findings").glob("*.json")), "the findings were stored"
    second = validate(ruleset, cache)
    assert second[:2] == first[:2]
    assert second[2] == "HEAVY []", "a cached answer needs neither lark, networkx nor jsonschema"


@pytest.mark.slow
def test_an_edited_file_is_validated_again(ruleset, tmp_path):
    cache = tmp_path / "cache"
    assert validate(ruleset, cache)[0] == 0
    text = (ruleset / "ruleset.yaml").read_text()
    (ruleset / "ruleset.yaml").write_text(text.replace("flow:", "flow_typo:", 1))
    code, lines, _ = validate(ruleset, cache)
    assert code == 1 and any("flow_typo" in line for line in lines)
    (ruleset / "ruleset.yaml").write_text(text)
    assert validate(ruleset, cache)[:2] == (0, ["ok: no problems found"])


@pytest.mark.slow
def test_a_damaged_entry_is_ignored_and_no_cache_skips_the_store(ruleset, tmp_path):
    cache = tmp_path / "cache"
    validate(ruleset, cache)
    for entry in (cache / "findings").glob("*.json"):
        entry.write_text("[{\"not\": \"a finding\"}]")
    code, lines, heavy = validate(ruleset, cache)
    assert (code, lines) == (0, ["ok: no problems found"]) and heavy != "HEAVY []"
    other = tmp_path / "other-cache"
    assert validate(ruleset, other, "--no-cache")[:2] == (0, ["ok: no problems found"])
    assert not list((other / "findings").glob("*.json"))
