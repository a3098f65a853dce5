"""The board's built-ins: its spaces, their neighbours and distances, and changing the board in play.

Registered in the same registry as primitives.py (imported automatically).
The board itself (``g.board``, rules/board.py) answers the questions; these
are the DSL's doors to it.
"""
from __future__ import annotations

from operator import methodcaller
from typing import TYPE_CHECKING

from ..machine.values import ZoneRef
from .primitives import primitive

if TYPE_CHECKING:
    from ..machine.host import GameHost

_REMOVED = methodcaller("get", "removed")   # a zone's properties -> whether it is off the board


@primitive()
def neighbours(g: GameHost, loc, where, kind=None):
    """neighbours(space) or neighbours(space, "stair"): the spaces one edge away (following arrows)."""
    return g.board.neighbours(g, where, kind)


@primitive()
def reachable(g: GameHost, loc, start, steps=None, kind=None):
    """reachable(space, n): the spaces within n edges (all reachable spaces without n)."""
    return g.board.reachable(g, start, steps, kind)


@primitive()
def path(g: GameHost, loc, start, goal):
    """path(a, b): the spaces of a shortest path from a to b (empty if none)."""
    return g.board.path(g, start, goal)


@primitive()
def distance(g: GameHost, loc, start, goal):
    """distance(a, b): the number of edges on a shortest path, or none."""
    return g.board.distance(g, start, goal)


@primitive()
def spaces(g: GameHost, loc, predicate=None):
    """spaces() or spaces(s -> cond): the board spaces still on the board, in declaration order."""
    zprops = g.state.zprops
    if not any(map(_REMOVED, zprops.values())):   # no zone removed (nearly always): every space, no test each
        found = list(g.table.space_list)
    else:
        found = [s for s in g.table.space_list if not (s.id in zprops and zprops[s.id].get("removed"))]
    return found if predicate is None else [s for s in found if predicate(s)]


@primitive()
def on_board(g: GameHost, loc, where):
    """on_board(z): true if z is a board space still on the board (as ``z in spaces()``, without the list)."""
    if not isinstance(where, ZoneRef) or where.id not in g.board.order:   # (the graph's spaces, a dict)
        return False
    return not g.state.zprops.get(where.id, {}).get("removed")


@primitive()
def can_enter(g: GameHost, loc, what, where):
    """can_enter(thing, zone): true if the zone's capacity and admission rule let the thing in now."""
    return g.can_enter(what, where, loc) is None


@primitive()
def refusal(g: GameHost, loc, what, where):
    """refusal(thing, zone): why the zone would refuse the thing now (text), or none."""
    return g.can_enter(what, where, loc)


@primitive(effect=True)
def remove_space(g: GameHost, loc, where):
    """remove_space(space): take a space off the board (its edges go with it)."""
    g.board.set_removed(g, where, True)


@primitive(effect=True)
def restore_space(g: GameHost, loc, where):
    """restore_space(space): put a removed space back."""
    g.board.set_removed(g, where, False)


@primitive(effect=True)
def connect(g: GameHost, loc, a, b, kind="link", *, one_way=False):
    """connect(a, b, "kind", one_way=false): add an edge during play."""
    g.board.connect(g, a, b, kind, one_way)
