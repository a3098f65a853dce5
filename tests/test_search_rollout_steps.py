"""The search bots' rollout steps (interpreter/agents/priors.py, ismcts.py) take the actions the plain steps take.

A rollout weighs a turn's candidates by the ruleset's priors on the wait's own list, and draws a uniform
pick bit by bit as ``random.randrange`` draws it; both must take the very action, and leave the random
stream where, the step through :func:`to_move` and :func:`pick` (or ``randrange``) would.
"""
import random

import pytest

from interpreter import Game, load_ruleset
from interpreter.agents import make_agents, play_out
from interpreter.agents.bots import randbelow
from interpreter.agents.priors import decide_by_prior, pick
from interpreter.play.playout import to_move


def _positions(rid, players, count):
    game = Game(load_ruleset(rid), players, seed=11)
    agents = make_agents("random", players, 11)
    for _ in range(count):
        if game.is_over:
            return
        yield game
        play_out(game, agents, max_decisions=1)


@pytest.mark.parametrize("rid, players", [("collapsible-d", 4), ("titanic", 3), ("titanic-board-game", 3)])
def test_a_rollout_step_by_the_priors_takes_the_action_pick_takes(rid, players):
    priors = load_ruleset(rid).priors
    assert priors
    steps = 0
    for game in _positions(rid, players, 40):
        for offered_first in (False, True):   # the wait's list as pairs, and as Action objects
            one, other = game.clone(), game.clone()
            if offered_first:
                to_move(one)
            seat, legal = to_move(other)
            if seat is None:
                continue
            a, b = random.Random(steps), random.Random(steps)
            assert decide_by_prior(one, priors, a)
            other.carry_out_legal(pick(other, legal, priors, b))
            assert one.state.to_json() == other.state.to_json()
            assert a.random() == b.random()
            steps += 1
    assert steps > 20


@pytest.mark.parametrize("count", [1, 2, 3, 5, 8, 9, 1000, 2 ** 40 + 3])
def test_randbelow_draws_as_randrange(count):
    a, b = random.Random(count), random.Random(count)
    below = randbelow(a)
    assert [below(count) for _ in range(200)] == [b.randrange(count) for _ in range(200)]
    assert a.random() == b.random()


def test_randbelow_of_nothing_is_refused_as_randrange_refuses_it():
    with pytest.raises(ValueError):
        randbelow(random.Random(0))(0)
