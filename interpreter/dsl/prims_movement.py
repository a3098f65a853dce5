"""Roll-and-move helpers: where a piece can end a move of exactly n steps.

Registered in the same registry as primitives.py (imported automatically).
They read the board through ``Board.walk_steps`` (kept lists made from
``Board.arcs``), so one-way edges, edges added during play and removed spaces
are respected exactly as ``neighbours`` does.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import GameError
from ..load.limits import MAX_WORK
from ..machine.budget import over_budget
from ..machine.values import ZoneRef
from .primitives import primitive

if TYPE_CHECKING:
    from ..machine.host import GameHost

_NO_PROPS: dict = {}   # read only: a space with no property set

_KINDS: dict = {}   # a kind, or the tuple of a list of kinds -> their frozenset: one object (and hash) a set


def _kinds(kind, loc):
    """The edge kinds a walk follows, a frozenset (None: any), the same object for the same kinds."""
    if kind is None:
        return None
    key = kind if isinstance(kind, str) else tuple(kind) if isinstance(kind, list) else None
    try:
        found = _KINDS.get(key)   # (only texts and tuples of texts are kept: a hit is a good kind)
    except TypeError:   # a list holding a list or a dict: refused below
        found = None
    if found is not None:
        return found
    if isinstance(kind, str):
        found = frozenset((kind,))
    elif isinstance(kind, list) and all(isinstance(k, str) for k in kind):
        found = frozenset(kind)
    else:
        raise GameError("walk_ends(): kind must be a text or a list of texts", loc)
    if len(_KINDS) > 256:   # kinds made by the rules as they play: start again rather than grow
        _KINDS.clear()
    _KINDS[key] = found
    return found


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
    # A depth-first search over (space, space before, steps left). The arcs of a space are read from the
    # board's kept steps (Board.walk_steps), looked up again whenever the board changed since, so that a
    # rule's enter or stop that changes the board is followed as if each step read the board afresh;
    # enter and stop are asked once a space, in the order the spaces are first met.
    if steps.__class__ is not int and (not isinstance(steps, int) or isinstance(steps, bool)) or steps < 0:
        raise GameError(f"walk_ends(): steps must be a whole number from 0, got {steps!r}", loc)
    board = g.board
    origin = start.id if start.__class__ is ZoneRef else board.space_id(start)
    if origin not in board.order:   # (the graph's spaces)
        raise GameError(f"walk_ends(): '{origin}' is not a board space", loc)
    st = g.state
    if st.zprops.get(origin, _NO_PROPS).get("removed"):
        return []
    kinds = _kinds(kind, loc)
    zones = g.table.zones
    if steps == 0:
        return [zones[origin]]
    table = board.walk_steps(g, kinds)
    board_key = st.board_key   # how the board stands: the kept steps are right while this stays
    fates: dict[str, int] = {}   # space -> 0: not entered, 1: entered, 2: entered and stopped in (asked once)
    ends: dict[str, None] = {}
    seen = set()
    todo: list[tuple[str, str | None, int]] = [(origin, None, steps)]
    while todo:
        step = todo.pop()
        if step in seen:
            continue
        seen.add(step)
        node, prev, left = step
        if st.board_key is not board_key:   # a rule changed the board mid-walk: its steps as it now stands
            table = board.walk_steps(g, kinds)
            board_key = st.board_key
        found = table.get(node)
        if found is None:
            found = board.walk_step(g, table, node, kinds)
        g.work += found[0]   # a walk of a billion steps round a loop of spaces is a lot of work
        if g.work > MAX_WORK:   # (charge() inlined: once per step of every walk)
            raise over_budget(loc)
        left -= 1
        for nxt in found[1]:
            if nxt == prev and no_reverse:
                continue
            fate = fates.get(nxt)
            if fate is None:
                space = zones[nxt]
                if enter is None or enter(space):
                    fate = 2 if stop is not None and stop(space) else 1
                else:
                    fate = 0
                fates[nxt] = fate
            if fate == 1 and left:
                todo.append((nxt, node, left))
            elif fate:   # stopped in, or entered with no step left: an end (states with none left do nothing)
                ends[nxt] = None
    if len(ends) > 1:
        return [zones[n] for n in sorted(ends, key=board.order.__getitem__)]   # (every end is a space)
    return [zones[n] for n in ends]
