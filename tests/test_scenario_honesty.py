"""Scenarios cannot pass without testing anything, and a failure says what was compared."""
from __future__ import annotations

import textwrap

import pytest
from cli_runner import REPO, run


def _scenario(tmp_path, body: str, name="s"):
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"scenario: {name}\nruleset: {REPO / 'rulesets' / 'tutorial'}\nplayers: 2\n"
                    + textwrap.dedent(body))
    return path


def _test(path, capsys, *extra):
    rc = run(["test", str(path), *extra])
    return rc, capsys.readouterr().out


def test_a_run_that_ends_with_the_game_fails(tmp_path, capsys):
    path = _scenario(tmp_path, "steps:\n  - run: round == 99\n")
    rc, out = _test(path, capsys)
    assert rc == 1
    assert "s.yaml:5:10: step 1: the game ended (after" in out
    assert "before `round == 99` held" in out


def test_a_run_whose_condition_holds_passes(tmp_path, capsys):
    path = _scenario(tmp_path, "steps:\n  - run: round == 2\n  - expect: round == 2\n")
    rc, out = _test(path, capsys)
    assert rc == 0, out


@pytest.mark.parametrize("expect", ['"1"', "count(players)", "players"])
def test_an_expectation_that_is_not_true_or_false_fails(tmp_path, capsys, expect):
    path = _scenario(tmp_path, f"steps:\n  - expect: {expect}\n")
    rc, out = _test(path, capsys)
    assert rc == 1
    assert "must be a true/false value" in out


def test_a_failed_expectation_shows_its_parts_and_the_run_goes_on(tmp_path, capsys):
    path = _scenario(tmp_path, """\
        steps:
          - expect: round + 1 == 5
          - expect: count(players) == 3 and round == 1
        """)
    rc, out = _test(path, capsys)
    assert rc == 1
    assert "s.yaml:5:13: expectation failed: round + 1 == 5 ((round + 1) is 2;" in out
    assert "s.yaml:6:13: expectation failed: count(players) == 3 and round == 1 (" in out
    assert "count(players) is 2" in out


def test_an_unused_pin_fails(tmp_path, capsys):
    path = _scenario(tmp_path, """\
        pins:
          "shuffle nowhere": [[a, b]]
        steps:
          - expect: round == 1
        """)
    rc, out = _test(path, capsys)
    assert rc == 1
    assert "s.yaml:5:3: pin 'shuffle nowhere' was never used" in out


@pytest.mark.parametrize("refuse, words", [
    ("{player: 0, action: wlak, reason: x}", "the ruleset has no action 'wlak'"),
    ("{player: 0, action: walk, args: {too: hold_fore}, reason: x}", "action 'walk' has no choice 'too'"),
    ("{player: 2, action: walk, reason: x}", "there is no seat 2 in a 2-player game"),
])
def test_a_refusal_of_nothing_real_fails(tmp_path, capsys, refuse, words):
    path = _scenario(tmp_path, f"steps:\n  - refuse: {refuse}\n")
    rc, out = _test(path, capsys)
    assert rc == 1
    assert words in out
    assert run(["validate", str(path)]) == 1
    assert words in capsys.readouterr().out


def test_a_refusal_without_reason_is_a_warning(tmp_path, capsys):
    path = _scenario(tmp_path, "steps:\n  - refuse: {player: 1, action: pass}\n")
    assert run(["validate", str(path)]) == 0
    assert "warning[refuse-without-reason]" in capsys.readouterr().out
    assert run(["validate", "--strict", str(path)]) == 1


def test_an_empty_scenario_fails(tmp_path, capsys):
    path = _scenario(tmp_path, "steps: []\n")
    rc, out = _test(path, capsys)
    assert rc == 1
    assert "it tests nothing" in out


def test_every_scenario_runs_and_every_failure_is_reported(tmp_path, capsys):
    folder = tmp_path / "scenarios"
    folder.mkdir()
    _scenario(folder, "steps:\n  - expect: round == 7\n", "a-first")
    _scenario(folder, "steps:\n  - expect: round == 1\n", "b-second")
    _scenario(folder, "steps:\n  - expect: round == 8\n", "c-third")
    rc, out = _test(tmp_path, capsys)
    assert rc == 1
    assert out.count("FAIL") == 2 and "PASS" in out
    assert out.rstrip().endswith("1 passed, 2 failed")


def test_filters_by_keyword_and_variant(capsys):
    funnels = sorted(p.stem for p in (REPO / "rulesets" / "der-mythos" / "scenarios").glob("*funnel*.yaml"))
    assert len(funnels) >= 2, "the keyword must pick some scenarios and leave others"
    rc, out = _test(REPO / "rulesets" / "der-mythos", capsys, "-k", "funnel")
    assert rc == 0
    assert all(f"({name})" in out for name in funnels) and "five-times-second-class" not in out
    assert out.rstrip().endswith(f"{len(funnels)} passed, 0 failed")
    rc, out = _test(REPO / "rulesets" / "der-mythos", capsys, "--variant", "more-players")
    assert rc == 0
    assert "more-players-limit" in out and "five-times-second-class" not in out
    rc, out = _test(REPO / "rulesets" / "der-mythos", capsys, "--variant", "none", "-k", "five")
    assert "five-times-second-class" in out and "1 passed" in out
