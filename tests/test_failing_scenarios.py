"""`tests/failing-scenarios/`: each scenario there would have passed vacuously before; now `davit test`
fails it with a located message. (They fail when run, so `davit validate` cannot list them all.)"""
from __future__ import annotations

import re

import pytest
from cli_runner import REPO, davit, run

FOLDER = "tests/failing-scenarios"

CASES = {
    "run-ends-first": ["7:10: step 1: the game ended (after 8 decisions) before `round == 99` held"],
    "expect-false-text": ["7:13: expectation failed: false ("],
    "expect-false-list": ['7:14: `steps[0].expect[0]` needs a DSL condition in quotes, but YAML read false '
                          'as a boolean: write "false" in quotes'],
    "unused-pin": ["7:3: pin 'shuffle dekc' was never used: a pin that is not drawn tests nothing"],
    "expect-shows-values": ["7:13: expectation failed: round + 1 == 5 ((round + 1) is 2;",
                            "8:13: expectation failed: count(players) == 3 (count(players) is 2;"],
    "refuse-misspelt-action": ["7:33: step 1: the ruleset has no action 'wlak', so the refusal tests nothing "
                               "(did you mean 'walk'?)"],
    "empty-steps": ["3:1: the scenario has no steps and no expect: it tests nothing"],
    "refuse-names-nothing": ["7:50: step 1: refused only because 'davvit' names no space (did you mean 'davit'?) "
                             "— the step tests nothing"],
}


def test_every_fixture_has_an_expectation():
    assert sorted(p.stem for p in (REPO / FOLDER).glob("*.yaml")) == sorted(CASES)


@pytest.fixture
def at_repo(monkeypatch):
    monkeypatch.chdir(REPO)
    monkeypatch.delenv("DAVIT_DEBUG", raising=False)


@pytest.mark.parametrize("name", sorted(CASES))
def test_fails_with_a_located_message(name, at_repo, capfd):
    """In-process, as `davit test` runs it (a traceback would be an exception out of main()); the real
    process is the next test."""
    path = f"{FOLDER}/{name}.yaml"
    assert run(["test", path]) == 1
    out, err = capfd.readouterr()
    assert "Traceback" not in err
    lines = out.splitlines()
    assert lines[0] == f"FAIL {path} ({name})"
    failures = [line.strip() for line in lines[1:-1]]
    assert len(failures) == len(CASES[name]), out
    for line, expected in zip(failures, CASES[name]):
        assert line.startswith(f"{path}:{expected}"), line
    assert lines[-1] == "0 passed, 1 failed"


@pytest.mark.slow
def test_a_failing_scenario_fails_alike_in_a_real_process(at_repo, capfd):
    path = f"{FOLDER}/expect-shows-values.yaml"
    assert run(["test", path]) == 1
    out, _ = capfd.readouterr()
    proc = davit("test", path)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert proc.stdout == out


@pytest.mark.parametrize("path", sorted((REPO / FOLDER).glob("*.yaml")), ids=lambda p: p.stem)
def test_fixture_files_name_their_schema(path):
    first = path.read_text().split("\n", 1)[0]
    m = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first)
    assert m and (path.parent / m.group(1)).resolve().name == "scenario.schema.json"
    assert (path.parent / m.group(1)).is_file()
