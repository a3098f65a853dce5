"""The per-decision path's shortcuts keep the games they shortcut.

The random bot draws its index as ``random.Random.randrange`` would, from
the same stream; a simultaneous step's early commitments skip measuring the
waiting rules' locals again, which a clone, a saved game and a game played
through the public API must not notice; a player's number set without the
log is set as the general path sets it, bounds included.
"""
import random

import pytest

from interpreter import Game, load_ruleset
from interpreter.agents import RandomAgent, make_agents, play_out
from interpreter.errors import GameError
from interpreter.machine.values import PlayerRef
from interpreter.play.decisions import Action


@pytest.mark.parametrize("seed", [0, 1, 17, 2024])
def test_random_pick_is_randrange_from_the_same_stream(seed):
    agent, twin = RandomAgent(seed), random.Random(seed)
    counts = [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 33, 100, 255, 256, 257, 1000] * 20
    assert [agent.pick(c) for c in counts] == [twin.randrange(c) for c in counts]
    assert agent.random.getstate() == twin.getstate()


def test_random_pick_of_nothing_is_refused():
    with pytest.raises(ValueError):
        RandomAgent(3).pick(0)


def _final(game):
    return game.state.to_json(), game.log_hash(), game.scores


@pytest.mark.parametrize("players", [2, 4])
def test_clones_and_saves_inside_a_simultaneous_step_play_on_alike(players):
    """Taken after some seats have committed (the locals were measured at the step's start, by the game the
    clone came from), a clone and a reloaded save play on to the same end as the game itself."""
    rs = load_ruleset("der-mythos")
    game = Game(rs, players, seed=11)
    agents = make_agents("random", players, 11)
    clones = []
    while not game.is_over:
        pending = game.state.pending
        if pending["kind"] == "simultaneous" and pending["commits"] and len(clones) < 4:
            bots = [RandomAgent(0) for _ in range(players)]
            for bot, agent in zip(bots, agents):
                bot.random.setstate(agent.random.getstate())
            clones.append((game.clone(), Game.from_json(rs, game.to_json()), bots))
        play_out(game, agents, max_decisions=1, fused=False)
    assert len(clones) == 4
    for clone, loaded, bots in clones:
        state = [b.random.getstate() for b in bots]
        play_out(clone, bots)
        for bot, s in zip(bots, state):
            bot.random.setstate(s)
        play_out(loaded, bots, fused=False)
        assert clone.state.to_json() == loaded.state.to_json() == game.state.to_json()
        assert clone.scores == loaded.scores == game.scores


def test_a_number_set_without_the_log_keeps_its_bounds():
    rs = load_ruleset("der-mythos")
    for record in (True, False):
        game = Game(rs, 2, seed=0, record=record)
        seat = PlayerRef(0)
        game.set_attr(seat, "score", 250, None)
        assert game.state.pvars[0]["score"] == 250
        with pytest.raises(GameError, match="outside"):
            game.set_attr(seat, "score", 251, None)
        with pytest.raises(GameError, match="no counter"):
            game.set_attr(seat, "no_such_counter", 1, None)
        with pytest.raises(GameError, match="digits"):
            game.set_attr(seat, "score", 10 ** 400, None)
        assert game.state.pvars[0]["score"] == 250


def test_a_score_added_without_the_log_keeps_its_bounds():
    """add_score's own bounds (the counter's, kept once a game) set what set_attr sets and refuse what it refuses,
    a clone working them out afresh."""
    rs = load_ruleset("der-mythos")
    for record in (True, False):
        game = Game(rs, 2, seed=0, record=record)
        seat = PlayerRef(1)
        game.add_score(seat, 240, None, None)
        game.add_score(seat, 10, None, None)   # 250, the counter's max
        assert game.state.pvars[1]["score"] == 250
        with pytest.raises(GameError, match="outside"):
            game.add_score(seat, 1, None, None)
        clone = game.clone()
        clone.add_score(seat, -500, None, None)   # -250, the counter's min
        assert clone.state.pvars[1]["score"] == -250
        with pytest.raises(GameError, match="outside"):
            clone.add_score(seat, -1, None, None)
        with pytest.raises(GameError, match="needs a player"):
            clone.add_score(1, 1, None, None)
        assert game.state.pvars[1]["score"] == 250 and clone.state.pvars[1]["score"] == -250


@pytest.mark.parametrize("rid, players", [("der-mythos", 4), ("tutorial", 3)])
def test_the_playout_loop_takes_pairs_or_objects_alike(rid, players):
    """A game asked for its actions as objects (legal_actions, a search's steps) lists them as such from then
    on; the playout loop takes either, and both play the game the plain loop plays."""
    rs = load_ruleset(rid)
    plain = Game(rs, players, seed=5, record=False)
    play_out(plain, make_agents("random", players, 5))
    asked = Game(rs, players, seed=5, record=False)
    agents = make_agents("random", players, 5)
    listed_as_objects = 0
    while not asked.is_over:
        seat = asked.deciding_players[0]
        first = asked.legal_actions(seat)
        again = asked.legal_actions(seat)   # the same objects (a pass is made anew each time, as it always was)
        assert again == first and all(a is b for a, b in zip(first, again) if a.name != "pass")
        pending = asked.state.pending
        if pending["kind"] != "choice":
            kept = asked.offered_cache[1].get(seat)
            listed_as_objects += kept is not None and all(type(a) is Action for a in kept)
        play_out(asked, agents, max_decisions=1)
    assert listed_as_objects > 0
    assert asked.state.to_json() == plain.state.to_json() and asked.scores == plain.scores
