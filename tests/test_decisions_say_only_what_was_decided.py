"""A decision says what was decided and nothing more: choices a pass or a choice does not take are refused.

``pass`` takes no choices and a choice takes only its ``option``; anything more was read past, so a saved
game, a web table's move or ``game.apply`` could carry a decision that said more than was decided (a
scenario refused it; the engine did not).
"""
import json

import pytest

from interpreter import Game, load_ruleset
from interpreter.agents import make_agents, play_out
from interpreter.errors import SaveError
from interpreter.play.decisions import Action
from interpreter.play.saves import load_save, parse_save, save_data


def _waiting(rid, players, kind, seeds=range(40)):
    """A game of ``rid`` waiting for a decision of ``kind`` (a turn that may pass, or a choice)."""
    rs = load_ruleset(rid)
    for seed in seeds:
        game = Game(rs, players, seed=seed)
        agents = make_agents("random", players, seed)
        while not game.is_over:
            pending = game.state.pending
            if pending["kind"] == kind and (kind != "turn" or pending["pass"]):
                return game
            play_out(game, agents, max_decisions=1)
    raise AssertionError(f"no {kind} in {rid}")


def test_ending_the_turn_takes_no_choices():
    game = _waiting("tutorial", 2, "turn")
    seat = game.deciding_players[0]
    before = game.state.to_json()
    for sent in ({"player": seat, "action": "pass", "args": {"x": 1}}, Action(seat, "pass", (("x", 1),))):
        refused = game.apply(sent)
        assert not refused and "ending the turn takes no choices, not x" in refused.reason
        assert game.state.to_json() == before   # nothing of it was carried out
    assert game.apply({"player": seat, "action": "pass"})


def test_a_choice_takes_only_its_option():
    game = _waiting("collapsible-d", 4, "choice")
    seat = game.deciding_players[0]
    (offered, *_) = game.legal_actions(seat)
    before = game.state.to_json()
    extra = Action(seat, offered.name, (*offered.args, ("also", 1)))
    refused = game.apply(extra)
    assert not refused and "a choice takes only its option, not also" in refused.reason
    assert game.state.to_json() == before
    assert game.apply(Action(seat, offered.name, offered.args))


def test_an_action_sent_as_json_has_no_key_besides_its_own():
    game = _waiting("tutorial", 2, "turn")
    seat = game.deciding_players[0]
    (offered, *_) = [a for a in game.legal_actions(seat) if a.args]
    sent = offered.to_json()
    before = game.state.to_json()
    refused = game.apply({**sent, "zzz": 1})
    assert not refused and "an action has player, action, args and a label, not zzz" in refused.reason
    name, value = next(iter(sent["args"].items()))
    refused = game.apply({**sent, "args": {name: {**value, "zzz": 1}}})   # a value's encoding: one key
    assert not refused and "unknown value" in refused.reason
    assert game.state.to_json() == before
    assert game.apply(sent)


def test_a_saved_decision_with_a_key_besides_its_own_is_refused_at_its_number():
    game = Game(load_ruleset("tutorial"), 2, seed=1)
    play_out(game, make_agents("random", 2, 1), max_decisions=3)
    data = save_data(game)
    assert data["decisions"][0]["args"]
    load_save(game.ruleset, data)   # as saved: it replays
    first = data["decisions"][0]
    for changed in ({**first, "zzz": 1},
                    {**first, "args": {k: {**v, "zzz": 1} if isinstance(v, dict) else v
                                       for k, v in first["args"].items()}}):
        bad = {**data, "decisions": [changed, *data["decisions"][1:]]}
        with pytest.raises(SaveError, match="decision 1: ") as info:
            load_save(game.ruleset, bad, "f.json")
        assert "zzz" in str(info.value) or "unknown value" in str(info.value)


def test_a_save_with_a_key_it_does_not_have_or_one_given_twice_is_refused_by_the_reader_itself():
    # the command line refused them; a save read from Python (or by the web table) read past them
    game = _waiting("tutorial", 2, "turn")
    data = save_data(game)
    with pytest.raises(SaveError, match="'sed' is not a key of a saved game"):
        load_save(game.ruleset, {**data, "sed": 4}, "f.json")
    text = json.dumps(data).replace(f'"seed": {data["seed"]}', f'"seed": {data["seed"]}, "seed": 4', 1)
    with pytest.raises(SaveError, match="the key 'seed' is given twice"):
        parse_save("f.json", text)
