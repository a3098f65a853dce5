"""The ruleset's rollout priors (``heuristics.priors``): each legal action's weight, and a rollout's step by them.

A search bot's rollout (:mod:`interpreter.agents.ismcts`) plays each decision at random, weighted by
the priors. :func:`decide_by_prior` is that step on the wait's own list of candidates, as
:func:`interpreter.play.playout.decide_by_index` plays a uniform one: the same weights, drawn from the
same stream, for the same action as :func:`pick` on :func:`~interpreter.play.playout.to_move`'s list,
without an :class:`Action` for every candidate (only the one taken is made) nor a copy of the list
with the pass appended.
"""
from __future__ import annotations

from ..errors import GameError
from ..play.playout import action_of, candidates_to_move


def weights(sample, seat, legal, priors, tally=None) -> list[float]:
    """Each action's prior weight (1 for an action the ruleset gives none; never below 0); ``legal``:
    :class:`Action` objects or (name, args) pairs of ``seat``. A prior that raises weighs 1, noted in
    ``tally`` (a :class:`~interpreter.agents.search_tally.SearchTally`) when given."""
    players = sample.table.players
    prior = priors.get
    out: list[float] = []
    append = out.append
    for a in legal:
        name, args, player = (a.name, a.args, players[a.player]) if a.__class__ is not tuple else \
            (a[0], a[1], players[seat])
        fn = prior(name)
        if fn is None:
            append(1.0)
            continue
        local = dict(args)
        local["p"] = local["player"] = player
        append(_weight(sample, fn, local, tally, name))
    return out


def _weight(sample, fn, local: dict, tally, name) -> float:
    """A prior's weight for one action: its value, 1 where it fails, never below 0 (a NaN weighs 0 too)."""
    if tally is not None:
        tally.weighed += 1
    try:
        w = float(fn(sample, local))
    except (GameError, TypeError, ValueError) as error:
        if tally is not None:
            tally.prior_raised(error, sample.ruleset.prior_locs.get(name))
        return 1.0
    return w if w > 0.0 else 0.0


def pick(sample, legal, priors, rand):
    """An action of ``legal`` drawn in proportion to its weight (uniformly when they add up to nothing)."""
    return legal[_draw(weights(sample, None, legal, priors), rand)]


def _draw(found: list[float], rand) -> int:
    """The index drawn in proportion to the weights ``found`` (uniformly when they add up to nothing)."""
    total = sum(found)
    if total <= 0:
        return rand.randrange(len(found))
    x = rand.random() * total
    for i, w in enumerate(found):
        x -= w
        if x < 0:
            return i
    return len(found) - 1


def decide_by_prior(sample, priors, rand, tally=None) -> bool:
    """One rollout decision of a game not over: an action of :func:`candidates_to_move` drawn by its weight,
    carried out; False when no seat has a legal action. A turn (the common case) is weighed on the wait's own
    list of candidates, and an :class:`Action` made of the one taken only."""
    seat, legal = candidates_to_move(sample)
    if seat is None:
        return False
    sample.carry_out_legal(action_of(sample, seat, legal[_draw(weights(sample, seat, legal, priors, tally), rand)]))
    return True
