"""The type annotations hold: mypy, with the configuration committed in pyproject.toml, finds no error in interpreter/.

The runtime contract (interpreter/machine/host.py's GameHost, the attributes
RuleRuntime and the YAML value classes declare) is only worth something if it
is checked: a method renamed on the game, or a reader that reaches for a
field the state does not have, fails here with mypy's own words.

mypy is in the ``test`` extra, so CI always runs this. Its cache goes to the
system's temporary folder (one per checkout), never into the repository.
"""
import hashlib
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def mypy(*paths):
    """Run mypy with the committed configuration (on ``paths``, or on what it names: interpreter/)."""
    checkout = hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]
    cache = Path(tempfile.gettempdir()) / f"davit-mypy-cache-{checkout}"
    return subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                           "--cache-dir", str(cache), "--no-error-summary", "--hide-error-context", *map(str, paths)],
                          cwd=ROOT, capture_output=True, text=True, check=False)


@pytest.mark.slow
def test_mypy_finds_no_error_in_the_interpreter():
    done = mypy()
    # exit 1: errors found; 2: mypy itself failed (a bad configuration): both are failures, with the output
    assert done.returncode == 0, f"mypy (exit {done.returncode}):\n{done.stdout}{done.stderr}"


def test_the_configuration_checks_the_whole_interpreter():
    """The test above means something only if mypy reads every module, at the strictness the issue asks for."""
    import tomllib
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["files"] == ["interpreter"]
    for option in ("warn_unused_ignores", "warn_redundant_casts", "no_implicit_optional", "check_untyped_defs"):
        assert config.get(option) is True, option
    assert "ignore_missing_imports" not in config, "only per module, for the third-party ones without types"


@pytest.mark.slow
def test_the_check_sees_a_broken_contract_and_an_unannotated_mistake(tmp_path):
    """The configuration reads functions without annotations, and a game that lacks part of GameHost is refused."""
    snippet = tmp_path / "broken.py"
    snippet.write_text(
        "from interpreter.machine.budget import charge\n"
        "class HalfAGame:\n"
        "    work = 0\n"
        "def unannotated():\n"
        "    return 1 + 'one'\n"
        "charge(HalfAGame(), 1)\n", encoding="utf-8")
    done = mypy(snippet)
    assert done.returncode == 1, done.stdout + done.stderr
    assert 'incompatible type "HalfAGame"; expected "GameHost"' in done.stdout, done.stdout
    assert "Unsupported operand types for +" in done.stdout, done.stdout


def test_the_generated_code_reaches_only_what_the_contract_names():
    """Python written out as text (machine/execute.py, dsl/expressions.py, ...) is not read by mypy: every
    ``g.name`` (and ``g.state.name``, ``g.table.name``) in the texts of machine/, dsl/ and rules/ must be a
    member of GameHost (of HostState, HostTable), so the contract covers the generated code too."""
    import ast
    import re

    from interpreter.machine.host import GameHost, HostState, HostTable

    def members(protocol) -> set:
        return set(dir(protocol)) | set(protocol.__annotations__)

    inner = {"state": members(HostState), "table": members(HostTable)}
    found, outside = set(), []
    for stage in ("machine", "dsl", "rules"):
        for path in sorted((ROOT / "interpreter" / stage).glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
                    continue
                for name, sub in re.findall(r"\bg\.(\w+)(?:\.(\w+))?", node.value):
                    found.add(name)
                    if name not in members(GameHost) or (sub and name in inner and sub not in inner[name]):
                        outside.append(f"{path.relative_to(ROOT)}: g.{name}{'.' + sub if sub else ''}")
    assert {"state", "set_var", "set_attr"} <= found, "the texts of the generated code were not found"
    assert not outside, "\n".join(outside)
