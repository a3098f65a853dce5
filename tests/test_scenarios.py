"""Every scenario file of every bundled ruleset passes (the rulebook examples)."""
import pytest

from interpreter.authoring.scenario import find_scenarios, run_scenario
from interpreter.load.files import bundled_rulesets_dir

SCENARIOS = find_scenarios([bundled_rulesets_dir()])


def test_there_are_scenarios():
    assert len(SCENARIOS) >= 6


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_scenario(path):
    result = run_scenario(path)
    assert result.ok, "\n".join(result.messages)


def test_a_wrong_expectation_fails_with_its_location(tmp_path):
    ruleset = bundled_rulesets_dir() / "der-mythos"
    scenario = tmp_path / "wrong.yaml"
    scenario.write_text(
        f"scenario: wrong\nruleset: {ruleset}\nplayers: 2\nsteps:\n"
        "  - act: {player: 0, action: play, args: {card: passenger-1@0}}\n"
        "  - act: {player: 1, action: play, args: {card: passenger-2@1}}\n"
        "  - expect: player(0).score == 6\n")
    result = run_scenario(scenario)
    assert not result.ok
    assert ":7:13: expectation failed: player(0).score == 6" in result.messages[0]


def test_an_expected_refusal_that_is_accepted_fails(tmp_path):
    ruleset = bundled_rulesets_dir() / "der-mythos"
    scenario = tmp_path / "accepted.yaml"
    scenario.write_text(
        f"scenario: accepted\nruleset: {ruleset}\nplayers: 2\nsteps:\n"
        "  - refuse: {player: 0, action: play, args: {card: passenger-1@0}}\n")
    result = run_scenario(scenario)
    assert not result.ok and "should have been refused" in result.messages[0]
