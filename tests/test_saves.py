"""Saves that cannot lie (issue 29): a save is the fingerprint, seed, agents and decisions; loading plays
them again, and anything that does not replay is refused in one located line, exit 1, never a traceback."""
import copy
import json

import pytest
from cli_runner import run as _run

from interpreter.agents import RandomAgent
from interpreter.play.game import Game
from interpreter.play.saves import HOT_SEAT_WARNING, load_save, save_data
from interpreter.rules.loading import load_ruleset


def _played(rid="der-mythos", players=2, seed=3, decisions=12):
    game = Game(load_ruleset(rid), players, seed=seed)
    bot = RandomAgent(7)
    for _ in range(decisions):
        seat = game.deciding_players[0]
        game.apply(bot.choose(game, seat, game.legal_actions(seat)))
    return game


@pytest.fixture(scope="module")
def saved():
    game = _played()
    return json.loads(json.dumps(save_data(game, ["random", "random"]))), game


def test_a_save_is_played_again_to_the_same_position(saved):
    data, game = saved
    assert data["seed"] == 3 and data["agents"] == ["random", "random"] and len(data["decisions"]) == 12
    again = load_save(game.ruleset, data)
    assert again.state == game.state and again.log == game.log
    # an older save (the whole state and log) is played again from its log too
    assert load_save(game.ruleset, json.loads(json.dumps(game.to_json()))).state == game.state


def _seat_taking_another_seats_decision(data):
    move = next(m for m in data["decisions"] if m["player"] == 0)
    move["player"] = 1


def _deck_card_into_hand(data):
    zones = data["state"]["zones"]
    zones["hand@0"].append(zones["ship"].pop())


def _illegal_decision(data):
    data["decisions"][5]["args"] = {"card": "no-such-card@0"}


def _unknown_action(data):
    data["decisions"][2]["action"] = "win-at-once"


def _changed_seed(data):
    data["seed"] += 1


TAMPERED = {
    "deck card in a hand": (_deck_card_into_hand, "state:"),
    "seat 1 takes seat 0's decision": (_seat_taking_another_seats_decision, "decision "),
    "players 3.7": (lambda d: d.update(players=3.7), "players: must be a whole number"),
    "players 9": (lambda d: d.update(players=9), "players:"),
    "seed a string": (lambda d: d.update(seed="7"), "seed: must be a whole number"),
    "illegal decision": (_illegal_decision, "decision 6:"),
    "unknown action": (_unknown_action, "decision 3:"),
    "changed seed": (_changed_seed, ""),
    "unknown fingerprint": (lambda d: d.update(fingerprint="0123456789abcdef"), "fingerprint:"),
    "decisions not a list": (lambda d: d.update(decisions={"a": 1}), "decisions:"),
    "a decision not a mapping": (lambda d: d["decisions"].insert(0, [1, 2]), "decision 1:"),
    "agents wrong": (lambda d: d.update(agents=["robot", "random"]), "agents:"),
    "variant a number": (lambda d: d.update(variant=3), "variant:"),
    "too many decisions": (lambda d: d["decisions"].extend(d["decisions"] * 50), "decision "),
}


def _refused(path, capsys, words=""):
    assert _run(["play", "der-mythos", "--resume", str(path), "--quiet"]) == 1
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "internal error" not in err and "Traceback" not in err, err
    assert str(path) in err and words in err, err
    return err


@pytest.mark.parametrize("name", list(TAMPERED))
def test_a_tampered_save_is_refused_in_one_located_line(name, saved, tmp_path, capsys):
    data = copy.deepcopy(saved[0])
    tamper, words = TAMPERED[name]
    tamper(data)
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data))
    _refused(path, capsys, words)


def test_a_truncated_save_is_refused_at_its_line_and_column(saved, tmp_path, capsys):
    path = tmp_path / "cut.json"
    text = json.dumps(saved[0], indent=1)
    path.write_text(text[:len(text) // 2])
    err = _refused(path, capsys)
    assert f"{path}:" in err and "not a saved game" in err


def test_a_deeply_nested_save_is_refused(tmp_path, capsys):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000)
    assert "nested too deeply" in _refused(path, capsys)


def test_an_untampered_save_resumes_to_the_end(saved, tmp_path, capsys):
    path = tmp_path / "good.json"
    path.write_text(json.dumps(saved[0]))
    assert _run(["play", "der-mythos", "--resume", str(path), "--quiet"]) == 0


def test_a_hot_seat_save_warns_that_it_holds_every_seats_cards():
    game = _played(decisions=2)
    assert save_data(game, ["human", "human"])["warning"] == HOT_SEAT_WARNING
    assert "warning" not in save_data(game, ["human", "random"])


def test_a_key_a_save_does_not_have_is_refused(saved, tmp_path, capsys):
    # `"sed": 4` beside no state played the file's game with seed 0 and said nothing (exit 0)
    data = {k: v for k, v in copy.deepcopy(saved[0]).items() if k != "state"}
    data["sed"] = 4
    path = tmp_path / "typo.json"
    path.write_text(json.dumps(data))
    assert "'sed' is not a key of a saved game" in _refused(path, capsys)


def test_a_key_given_twice_in_a_save_is_refused(saved, tmp_path, capsys):
    # JSON kept the last of the two: the game played was another than the first key said, without a word
    data = {k: v for k, v in copy.deepcopy(saved[0]).items() if k != "state"}
    text = json.dumps(data).replace('"seed": 3', '"seed": 3, "seed": 4')
    path = tmp_path / "twice.json"
    path.write_text(text)
    assert "the key 'seed' is given twice" in _refused(path, capsys)


def test_a_first_format_save_still_resumes(saved, tmp_path, capsys):
    path = tmp_path / "old.json"
    path.write_text(json.dumps(saved[1].to_json()))
    assert _run(["play", "der-mythos", "--resume", str(path), "--quiet"]) == 0, capsys.readouterr().err


def test_a_seed_beside_resume_is_refused(saved, tmp_path, capsys):
    # the save's own seed was used and --seed 99 dropped without a word
    path = tmp_path / "good.json"
    path.write_text(json.dumps(saved[0]))
    assert _run(["play", "der-mythos", "--resume", str(path), "--seed", "99", "--quiet"]) == 1
    err = capsys.readouterr().err.strip()
    assert err == "davit: --seed does not go with --resume: a saved game goes on from its own seed", err
