"""Every kind of finding `davit validate` reports, at its exact file:line:col with its code."""
import json
from pathlib import Path

import pytest

from interpreter.cli import main

HERE = Path(__file__).parent / "findings"

# fixture -> (severity, code, line, column, message fragment)
EXPECTED = {
    "unreachable-space": ("warning", "unreachable", 8, 7, "space 'hold' cannot be reached"),
    "container-access": ("error", "unknown-reference", 13, 21, "did you mean 'davit'?"),
    "count-mismatch": ("error", "count", 7, 11, "declares size 12 but deck starts with 10"),
    "type-number-vs-card": ("error", "type", 11, 9, "comparing a card or piece with a number"),
    "unknown-attribute": ("error", "unknown-attribute", 12, 26, "did you mean 'value'?"),
    "wrong-arity": ("error", "arity", 11, 11, "count() takes 1 to 2 arguments, 3 given"),
    "unused-definitions": ("warning", "unused", 6, 3, "constant 'spare' is never used"),
    "unknown-thing-id": ("error", "unknown-reference", 10, 18, "no thing has the id 'card.3'"),
    "did-you-mean-zone": ("error", "unknown-reference", 7, 33, "did you mean 'discard'?"),
    "variant-error": ("error", "unknown-name", 6, 17, "unknown name 'pionts'"),
}


def _run(capsys, *args):
    rc = main(["validate", *args])
    return rc, capsys.readouterr().out


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_finding_is_located_and_coded(name, capsys, monkeypatch):
    monkeypatch.chdir(HERE.parent.parent)
    severity, code, line, col, fragment = EXPECTED[name]
    rc, out = _run(capsys, f"tests/findings/{name}")
    path = f"tests/findings/{name}/" + ("variants/broken.yaml" if name == "variant-error" else "ruleset.yaml")
    prefix = f"{path}:{line}:{col}: {severity}[{code}]: "
    lines = [text for text in out.splitlines() if text.startswith(prefix)]
    assert lines, f"expected a line starting {prefix!r}, got:\n{out}"
    assert fragment in lines[0]
    assert rc == (1 if severity == "error" else 0)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_json_matches_text(name, capsys, monkeypatch):
    monkeypatch.chdir(HERE.parent.parent)
    _, text = _run(capsys, f"tests/findings/{name}")
    _, raw = _run(capsys, f"tests/findings/{name}", "--format", "json")
    findings = json.loads(raw)
    rebuilt = []
    for f in findings:
        hint = f" ({f['hint']})" if f["hint"] else ""
        rebuilt.append(f"{f['file']}:{f['line']}:{f['column']}: {f['severity']}[{f['code']}]: {f['message']}{hint}")
    assert rebuilt == [line for line in text.splitlines() if line != "ok: no problems found"]


def test_all_unused_definitions_are_reported(capsys, monkeypatch):
    monkeypatch.chdir(HERE.parent.parent)
    _, out = _run(capsys, "tests/findings/unused-definitions")
    assert "zone 'attic' is never used" in out
    assert "function 'helper' is never called" in out
    assert "action 'draw_card' is never offered by the flow" in out
    assert "'rounds'" not in out, "a used constant is not reported"


def test_strict_makes_warnings_fail(capsys, monkeypatch):
    monkeypatch.chdir(HERE.parent.parent)
    rc, _ = _run(capsys, "tests/findings/unreachable-space")
    assert rc == 0
    rc, _ = _run(capsys, "tests/findings/unreachable-space", "--strict")
    assert rc == 1


def test_provenance_lists_reconstructed_values(capsys, monkeypatch):
    monkeypatch.chdir(HERE.parent.parent)
    rc, out = _run(capsys, "tests/findings/reconstructed-values")
    assert "reconstructed" not in out
    rc, out = _run(capsys, "tests/findings/reconstructed-values", "--provenance")
    assert rc == 0
    assert ("tests/findings/reconstructed-values/ruleset.yaml:7:20: warning[reconstructed]: "
            "reconstructed: the rulebook never says how many rounds") in out


def test_count_mismatch_reports_both_counts(capsys, monkeypatch):
    monkeypatch.chdir(HERE.parent.parent)
    _, out = _run(capsys, "tests/findings/count-mismatch")
    assert "count-mismatch/ruleset.yaml:12:5: error[count]: thing 'coin' declares 10 copies but makes 12" in out


def test_findings_are_sorted_by_file_and_line(capsys, monkeypatch):
    monkeypatch.chdir(HERE.parent.parent)
    _, raw = _run(capsys, "tests/findings", "--format", "json")
    findings = json.loads(raw)
    keys = [(f["file"], f["line"], f["column"]) for f in findings]
    assert keys == sorted(keys)
    assert len({f["file"] for f in findings}) >= len(EXPECTED) - 1


def test_flow_step_kinds_are_explained(tmp_path, capsys):
    folder = tmp_path / "flowkinds"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(
        "id: flowkinds\nplayers: {min: 1, max: 1}\nflow:\n"
        "  - {phase: a, do: pass}\n  - {rpeat: 3}\n  - {do: pass, as: r}\n  - {phase: b}\n")
    rc, out = _run(capsys, str(folder))
    assert rc == 1
    assert ":4:5: error[schema]: flow[0]: has more than one of do, phase; use exactly one" in out
    assert ":5:6: error[schema]: flow[1]: unknown key 'rpeat' (did you mean 'repeat'?)" in out
    assert ":6:16: error[schema]: flow[2]: 'as' does not go with 'do'" in out
    assert ":7:6: error[schema]: flow[3]: 'phase' needs 'steps'" in out
    assert "is a required property" not in out and "is not one of" not in out
