"""Scenario fields that failed without a place, or were read past: each is refused at the scenario's line,
by `davit validate` (check_scenario) and by `davit test` (run_scenario) alike."""
import pytest

from interpreter.authoring.scenario import check_scenario, run_scenario

PASS = "steps:\n  - act: {player: 0, action: pass}\n"


def _both(tmp_path, head: str) -> tuple[list, list]:
    path = tmp_path / "s.yaml"
    path.write_text("scenario: s\nruleset: tutorial\nseed: 1\n" + head + PASS)
    result = run_scenario(path)
    assert not result.ok
    return [str(e) for e in check_scenario(path)], result.messages


@pytest.mark.parametrize("players,said", [("9", "not 9"), ("2.0", "not 2.0")])
def test_a_player_count_the_ruleset_does_not_allow_is_refused_at_its_line(tmp_path, players, said):
    # 9: validate said ok and the run failed with 'tutorial is for 2–4 players, not 9', naming no file;
    # 2.0 passed as 2 (the schema's integer takes 2.0)
    found, failures = _both(tmp_path, f"players: {players}\n")
    for text in (found[0], failures[0]):
        assert text.endswith(f"s.yaml:4:10: players: tutorial is for 2–4 players, {said}"), text


def test_an_unknown_variant_is_refused_at_its_line(tmp_path):
    found, failures = _both(tmp_path, "players: 2\nvariant: nope\n")
    for text in (found[0], failures[0]):
        assert "s.yaml:5:10: ruleset 'tutorial' has no variant 'nope' (variants: bigger-boat)" in text, text


def test_an_empty_variant_id_between_pluses_is_refused_at_its_line(tmp_path):
    # 'bigger-boat+' played bigger-boat alone and passed, as if the second id had not been written
    found, failures = _both(tmp_path, "players: 2\nvariant: bigger-boat+\n")
    for text in (found[0], failures[0]):
        assert "s.yaml:5:10: expected variant ids joined by '+', got an empty id in 'bigger-boat+'" in text, text


def test_a_seat_written_as_a_fraction_is_a_located_failure_not_an_internal_error(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("scenario: s\nruleset: tutorial\nplayers: 2\nsteps:\n  - act: {player: 0.0, action: pass}\n")
    result = run_scenario(path)   # raised ValueError: the seat ('player') must be a whole number, got 0.0
    assert not result.ok and "s.yaml:5:19: step 1: there is no seat 0.0" in result.messages[0]


@pytest.mark.parametrize("step,col", [("act: {player: 0, action: pass, args: {x: 1}}", 42),
                                      ("refuse: {player: 0, action: pass, args: {x: 1}, reason: x}", 45)])
def test_args_given_to_pass_are_refused(tmp_path, step, col):
    # they were dropped: the act passed (and the refusal failed only because the pass was accepted)
    path = tmp_path / "s.yaml"
    path.write_text(f"scenario: s\nruleset: tutorial\nplayers: 2\nsteps:\n  - {step}\n")
    said = f"s.yaml:5:{col}: step 1: pass takes no args"
    assert any(said in str(e) for e in check_scenario(path)), check_scenario(path)
    result = run_scenario(path)
    assert not result.ok and said in result.messages[0], result.messages
