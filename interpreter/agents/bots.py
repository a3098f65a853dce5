"""Bots that pick actions: random, first and greedy (omniscient).

An agent is called with the game, its seat and its legal actions. The random
and first bots use nothing but the legal actions. The greedy bot is
**omniscient**: it looks one action ahead on a clone of the real state, so it
sees hidden cards and the dice to come; it is a yardstick, not a fair
opponent. The fair search bots (``mcts``, ``ismcts``) are in
:mod:`interpreter.agents.ismcts`. Each agent has its own random stream, so
bots never disturb the game's chance.
"""
from __future__ import annotations

import random
from _random import Random as _SeededByC


def seeded(seed) -> random.Random:
    """``random.Random(seed)``: for a whole number, its state set as that sets it (the C generator's ``seed``,
    which ``Random.__init__`` and ``Random.seed`` reach through two Python calls), without those calls:
    every game seeds a bot per seat. Any other seed takes the general way."""
    if seed.__class__ is not int:
        return random.Random(seed)
    stream = random.Random.__new__(random.Random)   # (its C state is set by the seed below)
    _SeededByC.seed(stream, seed)
    stream.gauss_next = None   # type: ignore[attr-defined]  # (as Random.seed leaves it; typeshed omits it)
    return stream


def randbelow(stream: random.Random):
    """``stream.randrange`` of a count, as a function: the same draws, without its three calls a number
    (:meth:`RandomAgent.pick` on that stream)."""
    agent = RandomAgent.__new__(RandomAgent)
    agent.random = stream
    return agent.pick


class RandomAgent:
    name = "random"

    def __init__(self, seed: int = 0):
        self.random = seeded(seed)

    def choose(self, game, seat, actions):
        return actions[self.pick(len(actions))]

    def pick(self, count: int) -> int:
        """The index of the action taken among ``count`` legal ones (see :mod:`interpreter.play.playout`).

        ``self.random.randrange(count)`` drawn as it draws (``_randbelow``: ``count.bit_length()`` random
        bits until they fall below ``count``), without its three calls a number: the same stream, the
        same picks (tests/test_reproducible_bots.py compares them)."""
        if count < 1:
            return self.random.randrange(count)   # its own error
        bits = self.random.getrandbits
        k = count.bit_length()
        r = bits(k)
        while r >= count:
            r = bits(k)
        return r


class FirstAgent:
    """Always the first legal action: deterministic, for scenarios and tests."""
    name = "first"

    def __init__(self, seed: int = 0):
        pass

    def choose(self, game, seat, actions):
        return actions[0]

    def pick(self, count: int) -> int:
        return 0


class GreedyAgent:
    """Omniscient: the action with the best immediate gain in the mover's score on the real state.

    It tries every action on a clone of the real game, hidden cards and
    future dice included, so it plays with knowledge its seat does not have.
    Ties are broken at random. Ends its own turn only when nothing else gains more; works for any ruleset
    because it only uses ``clone``, ``apply`` and ``scores``. In co-operative
    rulesets the team score is everyone's score, so the same rule applies.
    """
    name = "greedy"

    def __init__(self, seed: int = 0):
        self.random = random.Random(seed)

    def choose(self, game, seat, actions):
        if len(actions) == 1:
            return actions[0]
        before = game.scores.get(seat, 0)
        best, best_gain = [], None
        for action in actions:
            trial = game.clone()
            trial.record = False
            trial.apply(action)
            gain = trial.scores.get(seat, 0) - before
            if best_gain is None or gain > best_gain:
                best, best_gain = [action], gain
            elif gain == best_gain:
                best.append(action)
        return best[self.random.randrange(len(best))]
