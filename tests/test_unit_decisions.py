"""Unit tests for interpreter.play.decisions: actions, turns, choices, simultaneous play, refusals."""

import pytest
from ruleset_builder import load

from interpreter import Action, Applied, Game, Refused
from interpreter.errors import GameError

TURNS = {
    "player": {"vars": {"score": 0, "coins": {"initial": 2, "min": 0}}},
    "zones": [{"id": "hand", "per_player": True, "visibility": "owner"}, {"id": "table"}],
    "things": [{"id": "card", "per_player": True, "each": {"value": [1, 2, 3]}, "start": "hand"}],
    "actions": [
        {"id": "play", "label": "play {card.value}", "choose": {"card": "player.hand"},
         "if": "card.value != 2", "reason": "twos cannot be played", "do": "move(card, table)"},
        {"id": "buy", "cost": {"coins": 3}, "do": "score(player, 5)"},
        {"id": "cheap", "cost": {"coins": 1}, "do": "score(player, 1)"},
    ],
    "flow": [{"each_player": "current",
              "steps": [{"turn": {"player": "current", "actions": ["play", "buy", "cheap"]}}]}],
}


@pytest.fixture
def game(tmp_path):
    return Game(load(tmp_path, TURNS), 2)


def card(game, tid):
    return game.table.things[tid]


# --- enumeration -----------------------------------------------------------------------------

def test_legal_actions_of_the_deciding_player(game):
    assert game.deciding_players == [0]
    actions = game.legal_actions(0)
    assert [(a.name, a.arg("card").id if a.arg("card") else None) for a in actions] == [
        ("play", "card-1@0"), ("play", "card-3@0"), ("cheap", None), ("pass", None)]
    assert [str(a) for a in actions] == ["play 1", "play 3", "cheap", "end turn"]
    assert all(a.player == 0 for a in actions)


def test_no_legal_actions_for_a_waiting_player(game):
    assert game.legal_actions(1) == []
    assert game.legal_actions() == game.legal_actions(0)


def test_legal_actions_returns_a_fresh_list(game):
    first = game.legal_actions(0)
    first.clear()
    assert len(game.legal_actions(0)) == 4


# --- applying -----------------------------------------------------------------------------------

def test_apply_a_legal_action(game):
    action = game.legal_actions(0)[0]
    result = game.apply(action)
    assert isinstance(result, Applied) and result and result.ok
    assert result.action == action
    assert game.state.where["card-1@0"] == "table"
    # the turn goes on until the player passes
    assert game.deciding_players == [0]
    assert [a.name for a in game.legal_actions(0)] == ["play", "cheap", "pass"]


def test_cost_is_paid(game):
    game.apply(Action(0, "cheap"))
    assert game.state.pvars[0]["coins"] == 1
    assert game.scores[0] == 1


def test_pass_ends_the_turn(game):
    assert game.apply(Action(0, "pass"))
    assert game.deciding_players == [1]
    assert game.apply(Action(1, "pass"))
    assert game.is_over


def test_action_in_json_form(game):
    result = game.apply({"player": 0, "action": "play", "args": {"card": {"thing": "card-3@0"}}})
    assert result
    assert game.state.where["card-3@0"] == "table"


def test_action_helpers():
    a = Action(1, "play", (("card", "x"), ("n", 2)), "label")
    assert a.arg("n") == 2 and a.arg("missing", 7) == 7
    assert a.to_json() == {"player": 1, "action": "play", "args": {"card": "x", "n": 2}}
    assert str(a) == "label" and str(Action(0, "go")) == "go"


# --- refusals: values with a reason, never exceptions ---------------------------------------------

def refused(game, action) -> str:
    before = game.state.clone()
    result = game.apply(action)
    assert isinstance(result, Refused), result
    assert not result and result.ok is False
    assert game.state == before, "a refused action must not change the game"
    return result.reason


def test_refused_not_your_decision(game):
    assert refused(game, Action(1, "pass")) == "it is not player 2's decision (waiting for player 1)"


def test_refused_cannot_pay(game):
    assert refused(game, Action(0, "buy")) == "it costs 3 coins and player 1 has 2"


def test_refused_condition_gives_the_rule_reason(game):
    assert refused(game, Action(0, "play", (("card", card(game, "card-2@0")),))) == "twos cannot be played"


def test_refused_choice_out_of_domain(game):
    reason = refused(game, Action(0, "play", (("card", card(game, "card-1@1")),)))
    assert reason == "player 2's card 1 is not a possible choice for 'card'"


def test_refused_missing_and_unknown_choices(game):
    assert refused(game, Action(0, "play")) == "missing choice 'card'"
    reason = refused(game, Action(0, "play", (("card", card(game, "card-1@0")), ("extra", 1))))
    assert reason == "unknown choices: extra"


def test_refused_action_not_offered(game):
    assert refused(game, Action(0, "fly")) == "action 'fly' is not offered now (offered: play, buy, cheap)"


@pytest.mark.parametrize("junk", ["hello", None, 42, {"player": "x", "action": "pass"}, {"player": 0},
                                  {"player": 0, "action": "play", "args": {"card": {"thing": "nope"}}},
                                  {"player": 0, "action": "play", "args": {"card": {"what": 1}}}])
def test_refused_not_an_action(game, junk):
    assert refused(game, junk).startswith("not an action")


def test_refused_argument_naming_a_missing_seat(game):
    assert refused(game, {"player": 0, "action": "play", "args": {"card": {"player": 99}}})


def test_refused_player_seat_out_of_range(game):
    assert "decision" in refused(game, Action(99, "pass"))


def test_refused_after_the_game_is_over(game):
    game.apply(Action(0, "pass"))
    game.apply(Action(1, "pass"))
    assert game.is_over
    assert game.legal_actions() == []
    assert refused(game, Action(0, "pass")) == "the game is over"


def test_turn_with_nothing_legal_is_skipped(tmp_path):
    rs = load(tmp_path, {
        "player": {"vars": {"coins": 0}},
        "actions": [{"id": "buy", "cost": {"coins": 1}, "do": "pass"}],
        "flow": [{"turn": {"player": "player(0)", "actions": ["buy"]}}]})
    game = Game(rs, 1)
    assert game.is_over


def test_turn_until_ends_after_the_condition_holds(tmp_path):
    rs = load(tmp_path, {
        "actions": [{"id": "inc", "do": "score(player, 1)"}],
        "flow": [{"turn": {"player": "player(0)", "actions": ["inc"], "pass": False,
                           "until": "player(0).score >= 2"}}]})
    game = Game(rs, 1)
    assert [a.name for a in game.legal_actions(0)] == ["inc"]  # passing is not allowed
    assert refused(game, Action(0, "pass")) == "passing is not allowed here"
    game.apply(Action(0, "inc"))
    assert not game.is_over
    game.apply(Action(0, "inc"))
    assert game.is_over and game.scores == {0: 2}


# --- choices raised in the middle of an effect ---------------------------------------------------

CHOICE = {
    "variables": {"got": None},
    "flow": [{"do": "got = 0\nx = choose(player(1), [10, 20, 30], prompt='how many?')\ngot = x"}],
}


def test_choice_pending_and_answered(tmp_path):
    game = Game(load(tmp_path, CHOICE), 2)
    assert game.deciding_players == [1]
    assert game.state.pending["prompt"] == "how many?"
    options = game.legal_actions(1)
    assert [(a.name, a.arg("option")) for a in options] == [("choose", 10), ("choose", 20), ("choose", 30)]
    assert game.apply(options[1])
    assert game.is_over and game.state.vars["got"] == 20


def test_choice_refuses_other_options_and_players(tmp_path):
    game = Game(load(tmp_path, CHOICE), 2)
    assert refused(game, Action(1, "choose", (("option", 40),))) == "not one of the offered options"
    assert refused(game, Action(1, "play", (("option", 10),))) == "not one of the offered options"
    assert "not player 1's decision" in refused(game, Action(0, "choose", (("option", 10),)))


def test_forced_choice_does_not_wait(tmp_path):
    spec = {"variables": {"got": None}, "flow": [{"do": "x = choose(player(0), [7])\ngot = x"}]}
    game = Game(load(tmp_path, spec), 1)
    assert game.is_over and game.state.vars["got"] == 7


def test_choice_with_no_options_is_a_game_error(tmp_path):
    rs = load(tmp_path, {"flow": [{"do": "x = choose(player(0), [])"}]})
    with pytest.raises(GameError) as info:
        Game(rs, 1)
    assert "no options" in info.value.message


def test_choose_needs_a_player(tmp_path):
    rs = load(tmp_path, {"flow": [{"do": "x = choose(3, [1, 2])"}]})
    with pytest.raises(GameError) as info:
        Game(rs, 1)
    assert "needs a player" in info.value.message


# --- simultaneous commitments -------------------------------------------------------------------

SIMULTANEOUS = {
    "variables": {"order": []},
    "actions": [{"id": "bid", "choose": {"n": "[1, 2, 3]"},
                 "do": "order = order + [player.seat]\nscore(player, n)"}],
    "flow": [{"simultaneous": {"name": "bidding", "actions": ["bid"]}}],
}


def test_simultaneous_waits_for_everyone_then_runs_in_seat_order(tmp_path):
    game = Game(load(tmp_path, SIMULTANEOUS), 3)
    assert game.deciding_players == [0, 1, 2]
    assert game.apply(Action(2, "bid", (("n", 3),)))
    assert game.deciding_players == [0, 1]
    assert game.scores == {0: 0, 1: 0, 2: 0}  # nothing happens before all have committed
    assert game.apply(Action(0, "bid", (("n", 1),)))
    assert game.apply(Action(1, "bid", (("n", 2),)))
    assert game.is_over
    assert game.state.vars["order"] == [0, 1, 2]
    assert game.scores == {0: 1, 1: 2, 2: 3}
    reveal = [e for e in game.log if e["e"] == "reveal"]
    assert len(reveal) == 1 and [a["player"] for a in reveal[0]["actions"]] == [0, 1, 2]


def test_simultaneous_refuses_a_second_commitment(tmp_path):
    game = Game(load(tmp_path, SIMULTANEOUS), 2)
    game.apply(Action(0, "bid", (("n", 1),)))
    assert "not player 1's decision" in refused(game, Action(0, "bid", (("n", 2),)))
    assert game.legal_actions(0) == []
    assert [a.arg("n") for a in game.legal_actions(1)] == [1, 2, 3]


def test_simultaneous_commitment_is_logged_for_its_player_only(tmp_path):
    game = Game(load(tmp_path, SIMULTANEOUS), 2)
    game.apply(Action(0, "bid", (("n", 3),)))
    decide = [e for e in game.log if e["e"] == "decide"]
    assert decide[-1]["only"] == [0]


@pytest.mark.parametrize("seat", [True, 0.5, "0", None, [0]])
def test_action_json_needs_a_whole_number_for_the_seat(seat):
    from interpreter import load_ruleset
    game = Game(load_ruleset("der-mythos"), 2, seed=1)
    good = game.legal_actions(0)[0].to_json()
    before = game.to_json()
    refused = game.apply(dict(good, player=seat))
    assert not refused and "seat" in refused.reason
    assert game.to_json() == before, "a refused action changes nothing"
    assert game.apply(good)


def test_action_json_needs_a_name_for_the_action():
    from interpreter import load_ruleset
    game = Game(load_ruleset("der-mythos"), 2, seed=1)
    good = game.legal_actions(0)[0].to_json()
    refused = game.apply(dict(good, action=["play"]))
    assert not refused and "name" in refused.reason
