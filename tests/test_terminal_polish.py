"""The terminal, polished (issue 29.5): identical choices shown once, `help N`, hot seat hands the screen over,
a resumed game keeps its agents, and an unseeded game prints its random seed."""
import json

from cli_runner import feed
from cli_runner import run as _run

from interpreter.agents.human import HumanAgent, describe_option, merged
from interpreter.play.decisions import Action
from interpreter.play.game import Game
from interpreter.rules.loading import load_ruleset


def test_identical_choices_are_shown_once():
    same = [Action(0, "assign", (("die", 1),), text="assign the blue die to Mrs F"),
            Action(0, "assign", (("die", 2),), text="assign the blue die to Mrs F"),
            Action(0, "pass", (), text="end turn")]
    options = merged(same)
    assert [label for label, _ in options] == ["assign the blue die to Mrs F", "end turn"]
    assert options[0][1] is same[0]


def test_help_n_describes_a_choice():
    game = Game(load_ruleset("titanic"), 2, seed=1)
    seat = game.deciding_players[0]
    actions = game.legal_actions(seat)
    options = merged(actions)
    defn = game.ruleset.actions[options[0][1].name]
    assert defn.description and defn.description in describe_option(game, options, "1")
    assert "number from 1" in describe_option(game, options, "999")
    out, answers = [], iter(["help 1", "1"])
    agent = HumanAgent(input_fn=lambda prompt: next(answers), output=out.append)
    assert agent.choose(game, seat, actions) == options[0][1]
    assert any(defn.description in line for line in out)


def test_hot_seat_hands_the_screen_over_and_its_save_warns(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)
    prompts = feed(monkeypatch, ["1"] * 8 + [KeyboardInterrupt()])
    assert _run(["play", "titanic", "--agents", "human,human", "--seed", "2"]) == 130
    captured = capsys.readouterr()
    handed = [i for i, p in enumerate(prompts) if p.startswith("Pass the terminal to")]
    assert handed and "\n" * 20 in captured.out   # the last hand pushed off the screen, then a wait
    assert "every seat's cards" in captured.err
    (saved,) = tmp_path.glob("*.json")
    assert json.loads(saved.read_text())["agents"] == ["human", "human"]


def test_resume_keeps_the_agents_and_an_unseeded_game_prints_its_seed(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)
    feed(monkeypatch, ["quit"])
    assert _run(["play", "der-mythos", "--agents", "human,first"]) == 130
    err = capsys.readouterr().err
    assert "play this game again with --seed" in err
    (saved,) = tmp_path.glob("*.json")
    data = json.loads(saved.read_text())
    assert data["agents"] == ["human", "first"] and f"--seed {data['seed']}" in err
    prompts = feed(monkeypatch, ["1"] * 500)
    assert _run(["play", "der-mythos", "--resume", str(saved)]) == 0
    assert any(p.startswith("[1-") for p in prompts)   # a person was asked again: the human seat stayed human
    assert "Game over" in capsys.readouterr().out


def test_a_turn_that_ends_for_want_of_moves_says_so():
    from interpreter.agents import RandomAgent
    from interpreter.observe.narrate import event_text
    game, bot = Game(load_ruleset("tutorial"), 2, seed=1), RandomAgent(1)
    while not game.is_over:
        seat = game.deciding_players[0]
        game.apply(bot.choose(game, seat, game.legal_actions(seat)))
    said = [event_text(game, e) for e in game.log if e.get("e") == "log"]
    assert any(text and text.endswith("can do nothing more: the turn ends") for text in said)
