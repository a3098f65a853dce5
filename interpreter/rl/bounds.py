"""A game's real bounds, found by walking its whole tree when the tree is small.

OpenSpiel's solvers read a game's bounds from its ``GameInfo``: the longest
game, the most outcomes of a chance node, the smallest and largest return,
and whether the returns always sum to the same number (zero- or constant-sum,
which exploitability and CFR's game values need). Declarations give some of
them (the score counter's ``min`` and ``max``, the ``outcome`` payoffs);
:func:`explore` finds all of them exactly for a game small enough to walk:
every decision and every chance outcome from the start (with the explicit
chance of :mod:`interpreter.rl.chance`), positions that recur reached once.

It does not start when Knuth's estimate of the number of histories (the
product of the branching along a few random descents, an unbiased estimate
of the number of leaves) is above ``budget``: a big game costs a few random
descents, not a walk cut short. It gives up (returns None) when the walk
passes ``budget`` positions, when a position can come back (a cycle: then
only the ruleset's length limit bounds the game) or when the rules stop with
an error; the adapter then falls back on the declarations.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import lru_cache

from ..errors import DavitError
from .chance import ChanceSession

BUDGET = 12_000       # positions walked at most
ESTIMATE_SAMPLES = 8  # random descents for Knuth's estimate of the number of histories


@dataclass(frozen=True)
class Bounds:
    max_length: int           # the most action ids (tokens) a game takes, over every history
    max_chance_nodes: int     # the most chance nodes on one history
    max_chance_outcomes: int  # the most outcomes one chance node offers
    min_return: float
    max_return: float
    sums: frozenset           # every sum of the returns at an end
    positions: int            # positions walked


class _Stop(Exception):
    pass


def _position(session) -> str:
    """What the future of a session depends on: the state (not its step counter), the spelt prefix and the
    pending chance node."""
    state = dict(session.game.state.to_json())
    state.pop("steps", None)
    chance = session.chance
    pending = None if chance is None else (chance.need.key, chance.dealt, repr(chance.forced),
                                           repr(chance.action), chance.base is None)
    return json.dumps([state, session.prefix, pending, session.game.decisions], sort_keys=True, default=str)


@lru_cache(maxsize=64)
def explore(ruleset, players: int, budget: int = BUDGET) -> Bounds | None:
    """The bounds of ``ruleset`` for ``players`` seats, or None when its tree is too big to walk (see above)."""
    try:
        if _estimate(ruleset, players, budget) > budget:
            return None
    except DavitError:
        return None
    seen: dict = {}
    on_path: set = set()

    def walk(session):
        key = _position(session)
        if key in seen:
            return seen[key]
        if key in on_path:
            raise _Stop("a position can come back")
        if len(seen) >= budget:
            raise _Stop("too many positions")
        on_path.add(key)
        if session.over:
            returns = tuple(session.returns()) if not session.truncated else None
            if returns is None:
                raise _Stop("a game was cut short")
            result = (0, 0, 0, min(returns), max(returns), frozenset([round(sum(returns), 9)]))
        else:
            children = []
            if session.chance is not None:
                moves = [o for o, _ in session.chance_outcomes()]
                for outcome in moves:
                    child = session.clone()
                    child.apply_chance(outcome)
                    children.append(walk(child))
                length = max(c[0] for c in children)
                chance_nodes = 1 + max(c[1] for c in children)
                widest = max([len(moves)] + [c[2] for c in children])
            else:
                for token in session.legal_tokens():
                    child = session.clone()
                    child.step(token)
                    children.append(walk(child))
                length = 1 + max(c[0] for c in children)
                chance_nodes = max(c[1] for c in children)
                widest = max(c[2] for c in children)
            result = (length, chance_nodes, widest, min(c[3] for c in children), max(c[4] for c in children),
                      frozenset().union(*(c[5] for c in children)))
        on_path.discard(key)
        seen[key] = result
        return result

    try:
        found = walk(ChanceSession(ruleset, players, seed=0, record=False))
    except (_Stop, DavitError, RecursionError):
        return None
    return Bounds(*found, positions=len(seen))  # type: ignore[misc]  # found holds the fields before positions


def _estimate(ruleset, players: int, budget: int) -> float:
    """Knuth's estimate of the number of histories: the mean over random descents of the product of the
    number of choices met (each descent stops once its product passes ``budget``)."""
    rand = random.Random(0)
    total = 0.0
    for _ in range(ESTIMATE_SAMPLES):
        session = ChanceSession(ruleset, players, seed=0, record=False)
        product = 1.0
        while not session.over and product <= budget:
            if session.chance is not None:
                outcomes = session.chance_outcomes()
                product *= len(outcomes)
                session.apply_chance(rand.choice(outcomes)[0])
            else:
                tokens = session.legal_tokens()
                product *= len(tokens)
                session.step(rand.choice(tokens))
        total += product
    return total / ESTIMATE_SAMPLES
