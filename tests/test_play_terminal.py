"""A person at the terminal: the question is shown, forced choices pass, help/undo/save/quit, --resume."""
import json
import re

import pytest
from cli_runner import feed
from cli_runner import run as _run

from interpreter.agents import RandomAgent
from interpreter.agents.human import HumanAgent, Quit, Undo, action_label
from interpreter.cli.terminal import _undo_refusal
from interpreter.play.game import Game
from interpreter.play.saves import load_save
from interpreter.rules.loading import load_ruleset


def _until(ruleset_id, players, wanted, seed=1, limit=3000):
    """A game played by random bots until ``wanted(game, seat, actions)`` holds."""
    game = Game(load_ruleset(ruleset_id, None), players, seed=seed)
    bot = RandomAgent(seed)
    for _ in range(limit):
        if game.is_over:
            break
        seat = game.deciding_players[0]
        actions = game.legal_actions(seat)
        if wanted(game, seat, actions):
            return game, seat, actions
        game.apply(bot.choose(game, seat, actions))
    pytest.fail("the situation the test needs never came up")


def _agent(answers):
    out, answers = [], iter(answers)
    return HumanAgent(input_fn=lambda prompt: next(answers), output=out.append), out


def _is_choice(game, seat, actions):
    pending = game.view(seat)["pending"]
    return pending["kind"] == "choice" and len(actions) > 1


def test_a_choice_shows_its_question_and_readable_choices():
    game, seat, actions = _until("sos-titanic", 1, _is_choice)
    agent, out = _agent(["2"])
    assert agent.choose(game, seat, actions) == actions[1]
    prompt = game.view(seat)["pending"]["prompt"]
    assert f"{game.player_name(seat)}, {prompt}:" in out
    numbered = [line for line in out if line.startswith("  1. ")]
    assert numbered and not numbered[-1][5:].startswith("[")


def test_action_label_reads_a_list_as_words():
    assert action_label("[place, 1st class 13, deck 5]") == "place — 1st class 13 — deck 5"
    assert action_label("end turn") == "end turn"


def test_a_single_choice_is_taken_with_a_note_and_no_question():
    game, seat, actions = _until("sos-titanic", 1, lambda g, s, a: len(a) == 1)
    agent, out = _agent([])   # asking would raise StopIteration
    assert agent.choose(game, seat, actions) == actions[0]
    assert out[-1].endswith("(the only choice)")


def test_help_undo_quit_and_save_at_the_prompt(tmp_path):
    game, seat, actions = _until("tutorial", 2, lambda g, s, a: len(a) > 1)
    agent, out = _agent(["help", "nonsense", "save", f"save {tmp_path / 'g.json'}", "1"])
    assert agent.choose(game, seat, actions) == actions[0]
    text = "\n".join(out)
    assert "undo" in text and "save FILE" in text and "Please type a number" in text
    saved = load_save(game.ruleset, json.loads((tmp_path / "g.json").read_text()))   # played again
    assert saved.state == game.state and saved.legal_actions(seat) == actions
    with pytest.raises(Undo):
        _agent(["undo"])[0].choose(game, seat, actions)
    with pytest.raises(Quit):
        _agent(["quit"])[0].choose(game, seat, actions)


def test_undo_is_refused_once_something_random_or_hidden_came_to_light():
    game, seat, _ = _until("der-mythos", 2, lambda g, s, a: len(a) > 1)
    assert _undo_refusal(game.clone(), game, seat) is None
    before = game.clone()
    bot = RandomAgent(2)
    while not any(e.get("e") in ("random", "shuffle", "flip", "reveal") for e in game.log[len(before.log):]):
        assert not game.is_over, "the game never drew or rolled anything"
        s = game.deciding_players[0]
        game.apply(bot.choose(game, s, game.legal_actions(s)))
    assert _undo_refusal(before, game, seat)


def test_undo_ctrl_c_saves_and_resume_plays_to_the_end(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)
    feed(monkeypatch, ["1", "undo", "2", KeyboardInterrupt()])
    rc = _run(["play", "tutorial", "--agents", "human,random", "--seed", "1"])
    captured = capsys.readouterr()
    assert rc == 130
    assert "Undone" in captured.out
    saved = list(tmp_path.glob("*.json"))
    assert len(saved) == 1 and saved[0].name in captured.err and "--resume" in captured.err
    feed(monkeypatch, ["1"] * 500)
    rc = _run(["play", "tutorial", "--agents", "human,random", "--resume", str(saved[0])])
    out = capsys.readouterr().out
    assert rc == 0
    lines = [line for line in out.splitlines() if line.strip()]
    assert lines[-1].startswith("Game over.")
    # what the last decisions did is told before the result, not the last list of choices
    assert len(lines) > 2 and not re.match(r"\s+\d+\. ", lines[-2]) and "]>" not in lines[-2]


def test_quit_saves_and_says_where(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)
    feed(monkeypatch, ["quit"])
    rc = _run(["play", "der-mythos", "--agents", "human,random", "--seed", "1"])
    err = capsys.readouterr().err
    assert rc == 130
    (saved,) = tmp_path.glob("*.json")
    assert saved.name in err


def test_the_number_of_players_follows_agents(capsys):
    rc = _run(["play", "der-mythos", "--agents", "first,random,random", "--json"])
    assert rc == 0
    assert json.loads(capsys.readouterr().out)["players"] == 3
    rc = _run(["play", "der-mythos", "--agents", "first", "--json", "--players", "2"])
    assert json.loads(capsys.readouterr().out)["players"] == 2


def test_resume_of_a_missing_or_foreign_file_is_one_line(capsys, tmp_path):
    assert _run(["play", "tutorial", "--resume", str(tmp_path / "none.json")]) == 1
    assert "cannot read the saved game" in capsys.readouterr().err
    other = tmp_path / "other.json"
    other.write_text(json.dumps(Game(load_ruleset("der-mythos", None), 2).to_json()))
    assert _run(["play", "tutorial", "--resume", str(other)]) == 1
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "der-mythos" in err


def test_the_table_is_shown_once_then_only_what_changed():
    game, seat, actions = _until("tutorial", 2, lambda g, s, a: len(a) > 1)
    agent, out = _agent(["1"])
    agent.choose(game, seat, actions)
    first = len(out)
    assert any(line.startswith("  ") and "(you)" in line for line in out)
    game.apply(actions[0])
    bot = RandomAgent(1)
    while seat not in game.deciding_players or len(game.legal_actions(seat)) < 2:
        s = game.deciding_players[0]
        game.apply(bot.choose(game, s, game.legal_actions(s)))
    agent.input = lambda prompt: "1"
    agent.choose(game, seat, game.legal_actions(seat))
    again = out[first:]
    assert "Changed on the table (type table for all of it):" in again
    table_lines = [line for line in out[:first] if line.startswith("  ") and ":" in line and ". " not in line[:5]]
    unchanged = [line for line in table_lines if line in again]
    assert len(unchanged) < len(table_lines)
