"""Roll-and-move helpers: where a piece can end a move of exactly n steps.

Registered in the same registry as primitives.py (imported automatically).
They read the board through ``g.board.arcs``, so one-way edges, edges added
during play and removed spaces are respected exactly as ``neighbours`` does.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import GameError
from ..load.limits import MAX_WORK
from ..machine.budget import over_budget
from .primitives import primitive

if TYPE_CHECKING:
    from ..machine.host import GameHost


def _kinds(kind, loc):
    if kind is None:
        return None
    if isinstance(kind, str):
        return {kind}
    if isinstance(kind, list) and all(isinstance(k, str) for k in kind):
        return set(kind)
    raise GameError("walk_ends(): kind must be a text or a list of texts", loc)


def _walks(g: GameHost, loc, start, steps, kind, no_reverse, enter, stop):
    """Every (end, length) a walk from start can finish on; see walk_ends."""
    if not isinstance(steps, int) or isinstance(steps, bool) or steps < 0:
        raise GameError(f"walk_ends(): steps must be a whole number from 0, got {steps!r}", loc)
    board = g.board
    origin = board.space_id(start)
    if origin not in board.graph:
        raise GameError(f"walk_ends(): '{origin}' is not a board space", loc)
    if g.state.zprops.get(origin, {}).get("removed"):
        return []
    kinds = _kinds(kind, loc)
    zones = g.table.zones
    allowed: dict[str, bool] = {}   # enter(space) and stop(space), asked once per space
    stops: dict[str, bool] = {}

    ends: dict[str, None] = {}
    seen = set()
    todo: list[tuple[str, str | None, int]] = [(origin, None, steps)]
    while todo:
        step = todo.pop()
        if step in seen:
            continue
        seen.add(step)
        node, prev, left = step
        if left == 0:
            ends[node] = None
            continue
        arcs = board.arcs(g, node)
        g.work += 1 + len(arcs)   # a walk of a billion steps round a loop of spaces is a lot of work
        if g.work > MAX_WORK:   # (charge() inlined: once per step of every walk)
            raise over_budget(loc)
        for nxt, k in arcs:
            if (kinds is not None and k not in kinds) or (no_reverse and nxt == prev):
                continue
            entered = allowed.get(nxt)
            if entered is None:
                entered = allowed[nxt] = True if enter is None else bool(enter(zones[nxt]))
            if not entered:
                continue
            stopped = stops.get(nxt)
            if stopped is None:
                stopped = stops[nxt] = False if stop is None else bool(stop(zones[nxt]))
            if stopped:
                ends[nxt] = None
                continue
            todo.append((nxt, node, left - 1))
    order = board.order
    return [zones[n] for n in sorted(ends, key=lambda n: order.get(n, len(order)))]


@primitive()
def walk_ends(g: GameHost, loc, start, steps, kind=None, enter=None, stop=None, *, no_reverse=True):
    """walk_ends(space, n, kind, enter, stop): the spaces where a walk of exactly n steps can end.

    The walk follows edges in their direction (only edges of `kind`, a text
    or a list of texts, when given), skips removed spaces, never steps
    straight back to the space it just left (unless `no_reverse=false`),
    only enters spaces for which `enter(space)` holds, and ends early on a
    space for which `stop(space)` holds (that space is then one of the ends).
    `enter` and `stop` are lambdas, so they are given by position (the DSL
    accepts a lambda only as a positional argument); `none` skips one.
    """
    return _walks(g, loc, start, steps, kind, no_reverse, enter, stop)

