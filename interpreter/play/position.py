"""The size of the whole position, capped where it grows: ``limits.MAX_POSITION`` items.

The caps of :mod:`interpreter.machine.budget` bound one value: a list of
100,000 items, a text of 100,000 characters. A ruleset could still keep a
list of 100,000 lists in a variable, or add a list of 99,999 items to one
variable at every decision, and fill memory decision by decision. So what
the position holds is counted, as copies (a list kept twice counts twice,
as ``clone`` and ``to_json`` would copy it twice): each item of a list or
table one, each text ``len // CHARS_PER_ITEM`` (short texts, numbers and
references nothing: their number is fixed by the ruleset's declarations),
each board link added in play four. Lists and tables inside each other more
than ``limits.MAX_DEPTH`` deep are refused (copying and saving walk them).

It is counted where it grows, not on every read: a store of a list, table or
long text into a variable, counter or property measures that value (walking
it, charged to the work budget) and keeps its size by slot in
``state.held``, so replacing it with another gives its items back; a store of a plain
value costs nothing (a list it replaces stays counted until the count is
near the cap, when the position is counted afresh). An assignment into an item
(``x[i] = v``) cannot tell which slot holds the list, so it marks the count
unknown (``held`` None) and the position is counted afresh at the end of
the decision, as after a change from outside (a determinized or loaded state).

The local variables of rules that wait for a decision (a ``choose`` inside a
loop) are kept in the position too: :func:`check_locals` measures them at
the end of each decision, each list only once while it stays in a local
(a value no rule changes in place is not walked again).
"""
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ..errors import GameError
from ..load.limits import MAX_DEPTH, MAX_POSITION, MAX_WORK
from ..machine.budget import over_budget

CHARS_PER_ITEM = 64
CONTAINERS = frozenset((list, dict, tuple))
NO_SIZES: Mapping[str, tuple] = MappingProxyType({})   # no local measured yet
LINK_ITEMS = 4


def _too_big(total: int, loc) -> GameError:
    return GameError(f"the position would hold more than {MAX_POSITION:,} items (of lists, tables and long texts "
                     f"in variables, counters, properties and waiting rules' locals: {total:,})", loc,
                     hint="keep fewer or shorter lists; a list that grows at every turn needs a bound")


def counted(value) -> bool:
    """Whether ``value`` holds items the position counts: a list, table or long text."""
    kind = type(value)
    return kind is list or kind is dict or kind is tuple or (kind is str and len(value) >= CHARS_PER_ITEM)


def measure_charged(g, value, loc) -> int:
    """:func:`measure`, the walk charged to the work budget."""
    size = measure(value, loc)
    g.work += size
    if g.work > MAX_WORK:
        raise over_budget(loc)
    return size


def measure(value, loc, limit: int = MAX_POSITION) -> int:
    """The items ``value`` holds, as copies; past ``limit`` or ``MAX_DEPTH`` a located error."""
    kind = type(value)
    if kind is str:
        return len(value) // CHARS_PER_ITEM
    if kind is not list and kind is not dict and kind is not tuple:
        return 0
    size = 0
    todo = [(value, 1)]
    while todo:
        item, depth = todo.pop()
        if depth > MAX_DEPTH:
            raise GameError(f"lists or tables nested more than {MAX_DEPTH} deep cannot be kept", loc)
        items = item.values() if type(item) is dict else item
        size += len(items)
        for inner in items:
            kind = type(inner)
            if kind is list or kind is dict or kind is tuple:
                todo.append((inner, depth + 1))
            elif kind is str and len(inner) >= CHARS_PER_ITEM:
                size += len(inner) // CHARS_PER_ITEM
        if size > limit:
            raise _too_big(size, loc)
    return size


def hold(g, key, value, loc) -> None:
    """Account for ``value``, a list, table or long text, about to be stored in slot ``key``.

    The slot's old list gives its items back. A plain value stored over a list does not (that would
    cost a look-up on every store of a number): its items stay counted until the count is near the
    cap, when the position is counted afresh, exactly, before anything is refused.
    """
    st = g.state
    if st.held is None:
        recount(g, loc)
    size = measure_charged(g, value, loc)
    for exact in (False, True):
        if exact:
            recount(g, loc)
        held = st.held
        old = held.pop(key, 0)
        total = st.held_total - old + size
        if total <= MAX_POSITION:
            if size:
                held[key] = size
            st.held_total = total
            return
        if old:
            held[key] = old
    raise _too_big(total, loc)


def grow(g, items: int, loc) -> None:
    """Account for ``items`` more that nothing gives back (a board link)."""
    st = g.state
    if st.held is None:
        recount(g, loc)
    if st.held_total + items > MAX_POSITION:
        raise _too_big(st.held_total + items, loc)
    st.held_total += items


def recount(g, loc=None) -> dict:
    """Count the whole position afresh (``state.held``, which it returns), refusing it past ``MAX_POSITION``."""
    st = g.state
    held: dict = {}
    total = 0

    def add(key, value):
        nonlocal total
        if counted(value):
            size = measure(value, loc, MAX_POSITION - total)
            if size:
                held[key] = size
                total += size

    for name, value in st.vars.items():
        add(name, value)
    for seat, pv in enumerate(st.pvars):
        for name, value in pv.items():
            add((seat, name), value)
    for tid, props in st.props.items():
        for name, value in props.items():
            if name != "known_to":   # a few seats, kept by the engine
                add((tid, name), value)
    for zid, props in st.zprops.items():
        for name, value in props.items():
            add(("z", zid, name), value)
    for link in st.links:
        total += LINK_ITEMS + len(link[2]) // CHARS_PER_ITEM
    if total > MAX_POSITION:
        raise _too_big(total, loc)
    st.held = held
    st.held_total = total
    return held


def check_locals(g) -> None:
    """Refuse a position whose held items and waiting rules' local lists and tables pass ``MAX_POSITION``.

    Each list is measured once while it stays in a local: ``g.local_sizes`` keeps it (alive, so that its
    id stays its own) with its size, and a decision whose locals hold only lists seen before walks none.
    The engine's own slots (``%``: a loop's items and place) are skipped: their items were charged to the
    work budget when the loop began, and a loop's list never grows.
    """
    known = g.local_sizes
    total = g.state.held_total
    for frame in g.state.stack:
        for name, value in frame[2].items():
            if type(value) in CONTAINERS and name[0] != "%":
                seen = known.get(id(value))
                if seen is None or seen[0] is not value:
                    return _measure_locals(g)
                total += seen[1]
    if total > MAX_POSITION:
        _measure_locals(g)


def _measure_locals(g) -> None:
    known = g.local_sizes
    sizes = {}
    total = g.state.held_total
    for frame in g.state.stack:
        for name, value in frame[2].items():
            if type(value) in CONTAINERS and name[0] != "%":
                key = id(value)
                seen = known.get(key)
                size = seen[1] if seen is not None and seen[0] is value else \
                    measure(value, g.codes[frame[0]].location)
                sizes[key] = (value, size)
                total += size
                if total > MAX_POSITION:
                    raise _too_big(total, g.codes[frame[0]].location)
    g.local_sizes = sizes
