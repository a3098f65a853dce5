"""The fused playout loop plays the very games the public API plays.

``play_out`` hands games between bots that pick by index (random, first) to
:func:`interpreter.play.playout.play_by_index`. For every bundled ruleset and
variant, at its smallest and largest player count, a seeded game is played
both ways, and with the log on and off: the logs, the final states, the
scores and the number of decisions must agree.
"""
import hashlib
import json

import pytest
from bundled_cases import player_counts

from interpreter import Game, load_ruleset
from interpreter.agents import make_agents, play_out
from interpreter.agents.bots import RandomAgent
from interpreter.errors import GameError, SaveError

SEED = 7


def _extremes():
    # a variant's games are slow: the fast tier plays each ruleset's base game
    return [pytest.param(rid, variant, p, marks=() if variant is None else pytest.mark.slow)
            for (rid, variant), (low, high) in player_counts().items() for p in sorted({low, high})]


def _played(rid, variant, players, agents, fused, record=True, max_decisions=None):
    game = Game(load_ruleset(rid, variant=variant), players, seed=SEED, record=record)
    made = play_out(game, make_agents(agents, players, SEED), max_decisions=max_decisions, fused=fused)
    state = hashlib.sha256(json.dumps(game.state.to_json(), sort_keys=True, default=str).encode()).hexdigest()
    return {"log": game.log_hash() if record else None, "state": state, "made": made, "over": game.is_over,
            "scores": game.scores, "winners": game.winners, "decisions": game.decisions}


@pytest.mark.parametrize("rid,variant,players", _extremes(), ids=lambda v: str(v))
def test_fused_and_public_paths_play_the_same_game(rid, variant, players):
    public = _played(rid, variant, players, "random", fused=False)
    fused = _played(rid, variant, players, "random", fused=True)
    assert fused == public
    assert public["decisions"] > 0
    # the log off changes nothing but the log
    quiet = _played(rid, variant, players, "random", fused=True, record=False)
    assert {**quiet, "log": public["log"]} == public


@pytest.mark.parametrize("rid", ["der-mythos", "titanic-board-game"])
def test_fused_path_stops_where_asked_and_with_first_agents(rid):
    players = load_ruleset(rid).min_players
    for agents in ("first", "random"):
        public = _played(rid, None, players, agents, fused=False, max_decisions=5)
        fused = _played(rid, None, players, agents, fused=True, max_decisions=5)
        assert fused == public and fused["made"] == 5 and not fused["over"]


def test_agents_that_need_the_actions_keep_the_public_path():
    class Counting(RandomAgent):
        """A random bot that looks at its actions: the fused loop must not play its seat."""
        seen = 0

        def choose(self, game, seat, actions):
            Counting.seen += len(actions)
            return super().choose(game, seat, actions)

    game = Game(load_ruleset("tutorial"), 2, seed=SEED)
    play_out(game, [Counting(1), RandomAgent(2)])
    assert game.is_over and Counting.seen > 0


def _waiting_for_nobody():
    """A tutorial game whose pending turn offers no action at all (no rule makes one: only damage)."""
    game = Game(load_ruleset("tutorial"), 2, seed=SEED)
    data = game.to_json()
    data["state"]["pending"]["map"]["actions"] = []
    data["state"]["pending"]["map"]["pass"] = False
    return game, data


def test_a_saved_game_waiting_for_a_decision_nobody_can_take_is_refused():
    _, data = _waiting_for_nobody()
    with pytest.raises(SaveError, match="waits for a decision that no one can take"):
        Game.from_json(load_ruleset("tutorial"), data)


@pytest.mark.parametrize("fused", [True, False])
def test_bots_facing_a_decision_nobody_can_take_stop_with_an_error(fused):
    # playing on would loop for ever
    game, _ = _waiting_for_nobody()
    game.state.pending["actions"] = []
    game.state.pending["pass"] = False
    game.offered_cache = None
    with pytest.raises(GameError, match="no one has a legal action"):
        play_out(game, make_agents("random", 2, SEED), fused=fused)


def test_a_choice_sent_as_json_is_labelled_as_its_option():
    # the answer to a choose(...) prompt, decoded from JSON, reads as the option offered, not "choose …"
    from interpreter.play.decisions import describe
    rs = load_ruleset("collapsible-d")
    game = Game(rs, 3, seed=1)
    agents = make_agents("first", 3, 1)
    for _ in range(400):
        if game.is_over or game.state.pending["kind"] == "choice":
            break
        play_out(game, agents, max_decisions=1)
    assert game.state.pending["kind"] == "choice"
    seat = game.deciding_players[0]
    for action in game.legal_actions(seat):
        decoded = game.action_from_json(action.to_json())
        assert describe(game, decoded) == action.label and not action.label.startswith("choose ")
    taken = game.legal_actions(seat)[0]
    assert game.apply(taken.to_json())
    decided = [e for e in game.log if e["e"] == "decide"][-1]
    assert decided["label"] == taken.label
