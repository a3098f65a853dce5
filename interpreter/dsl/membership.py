"""What generated code calls (:mod:`interpreter.dsl.expressions`): ``in``, chained comparisons, and the
walk of ``things(kind)`` by a built-in that takes a collection."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..load.limits import MAX_WORK
from ..machine import budget
from ..machine.values import ThingRef, ZoneRef
from .primitives import collection_of

if TYPE_CHECKING:
    from ..machine.host import GameHost


def member(g: GameHost, item, collection) -> bool:
    """``item in collection``; a zone contains the things that are in it now."""
    cls = collection.__class__
    if cls is list:   # a search through the list: work for this decision's budget (charge() inlined: it is hot)
        g.work += len(collection)
        if g.work > MAX_WORK:
            raise budget.over_budget(None)
        return item in collection
    if cls is ZoneRef:
        return isinstance(item, ThingRef) and g.state.where.get(item.id) == collection.id
    return item in collection


def compare_chain(g: GameHost, first, rest) -> bool:
    """``a < b in c``: a chain with ``in``; ``rest`` holds (operator, thunk) pairs."""
    a = first
    for op, thunk in rest:
        b = thunk()
        ok = member(g, a, b) if op == "in" else (not member(g, a, b)) if op == "not in" else _PLAIN[op](a, b)
        if not ok:
            return False
        a = b
    return True


_PLAIN = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
          "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


def things_walked(g: GameHost, walk, loc, kind=None):
    """``collection_of(g, things(g, loc, kind), walk)`` in one call, for ``filter(things("pawn"), ...)`` and
    its kin written out as a comprehension over it: the same work charged and checked at the same two
    places (the things made, then the collection walked; both at once where neither can run out), and no
    copy of the table's list, which the comprehension only walks and nothing changes while a game is played."""
    found = g.table.thing_list if kind is None else g.table.things_by_kind.get(kind, ())
    size = len(found)
    work = g.work + size + size
    if work <= MAX_WORK:   # neither check can fail: both charges at once
        g.work = work
        return found
    g.work += size
    if g.work > MAX_WORK:
        raise budget.over_budget(loc)
    g.work += size
    raise budget.over_budget(walk)


def comprehension_walked(g: GameHost, value, loc):
    """What a comprehension ``[e for t in xs]`` walks: a zone's things, as ``for t in zone:`` and the collection
    built-ins walk them (a new list: its body may move things), anything else as ``budget.each`` takes it.
    A zone stopped the game with Python's "object of type 'ZoneRef' has no len()", after the checker, which
    types the items of a zone as things, had let it through."""
    if value.__class__ is ZoneRef:
        return collection_of(g, value, loc)
    g.work += len(value)   # (budget.each written out: lists are nearly all a comprehension walks)
    if g.work > MAX_WORK:
        raise budget.over_budget(loc)
    return value


def items_walked(g: GameHost, value, loc):
    """``collection_of(g, value, loc)`` for a comprehension that only walks the items and changes nothing
    while it does (``filter(z, t -> t.face_up)``): a zone's things looked up one by one as the
    walk reaches them, with no list of them made first (nothing can move a thing before the walk ends);
    its length charged as ``collection_of`` charges it; anything else as ``collection_of`` answers it."""
    if value.__class__ is ZoneRef:
        ids = g.state.zones[value.id]
        if not ids:   # the commonest: nothing charged (the budget still checked), nothing walked
            if g.work > MAX_WORK:
                raise budget.over_budget(loc)
            return ()
        work = g.work = g.work + len(ids)
        if work > MAX_WORK:
            raise budget.over_budget(loc)
        return map(g.table.things.__getitem__, ids)
    if value.__class__ is list:   # walked as it is (collection_of written out: a list is the other common case)
        g.work += len(value)
        if g.work > MAX_WORK:
            raise budget.over_budget(loc)
        return value
    return collection_of(g, value, loc)
