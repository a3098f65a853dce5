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
from ..machine.waits import PASS
from ..play import decisions
from ..play.decisions import Action
from ..play.playout import to_move


def weights(sample, seat, legal, priors) -> list[float]:
    """Each action's prior weight (1 for an action the ruleset gives none; never below 0); ``legal``:
    :class:`Action` objects or (name, args) pairs of ``seat``."""
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
        append(_weight(sample, fn, local))
    return out


def _weight(sample, fn, local: dict) -> float:
    """A prior's weight for one action: its value, 1 where it fails, never below 0 (a NaN weighs 0 too)."""
    try:
        w = float(fn(sample, local))
    except (GameError, TypeError, ValueError):
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


def decide_by_prior(sample, priors, rand) -> bool:
    """One rollout decision of a game not over: :func:`pick` on ``to_move(sample)``'s actions, carried
    out; False when no seat has a legal action. A turn (the common case) is weighed on the wait's own
    list of candidates, pairs or :class:`Action` objects as the game makes them."""
    state = sample.state
    pending = state.pending
    if pending is None or pending["kind"] != "turn":
        seat, legal = to_move(sample)
        if seat is None:
            return False
        sample.carry_out_legal(pick(sample, legal, priors, rand))
        return True
    seat = pending["player"]
    sample.work = 0
    found = decisions.candidates(sample, pending, seat)
    passes = pending["pass"]
    if not found and not passes:
        return False
    player = sample.table.players[seat]
    prior = priors.get
    out: list[float] = []
    append = out.append
    for c in found:
        name, args = (c.name, c.args) if c.__class__ is Action else c
        fn = prior(name)
        if fn is None:
            append(1.0)
            continue
        local = dict(args)
        local["p"] = local["player"] = player
        append(_weight(sample, fn, local))
    if passes:
        fn = prior(PASS)
        append(1.0 if fn is None else _weight(sample, fn, {"p": player, "player": player}))
    index = _draw(out, rand)
    if index < len(found):
        taken = found[index]
        sample.carry_out_legal(taken if taken.__class__ is Action else Action(seat, taken[0], taken[1], None, sample))
    else:
        sample.carry_out_legal(Action(seat, PASS, (), "end turn"))
    return True
