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
from ..machine import fast_paths
from ..machine.budget import over_budget
from ..machine.values import ZoneRef
from .primitives import primitive

if TYPE_CHECKING:
    from ..machine.host import GameHost

_NO_PROPS: dict = {}   # read only: a space with no property set

_GROWN = ("walks that added to the shapes",)   # the key of their count in a table of kept steps
_MAX_GROWN = 2048   # past this many, a table's walk shapes grow no more

# the table of kept steps (Board.walk_steps) the last walk read: [board_key, kinds, board, table]. Right while
# the state's board_key is that object (then the board stands as it did), even when the board has dropped
# the table since (its bound on kept answers): the table holds only what is true of the board as it stands.
_LAST: list = [object(), None, None, None]

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
    # The walks of one question (board standing, kinds, origin, steps, no_reverse, which lambdas) differ only
    # by what enter and stop answer: the first walk notes what it did (its work charges and its questions of
    # enter and stop, in order) as a tree branching on the answers, and a walk that finds its answers in
    # the tree replays it: the same questions in the same order, the same work charged at the same points,
    # no search. An answer the tree has not seen, or a rule that changes the board, walks on from there.
    if steps.__class__ is not int and (not isinstance(steps, int) or isinstance(steps, bool)) or steps < 0:
        raise GameError(f"walk_ends(): steps must be a whole number from 0, got {steps!r}", loc)
    board = g.board
    origin = start.id if start.__class__ is ZoneRef else board.space_id(start)
    if origin not in board.order:   # (the graph's spaces)
        raise GameError(f"walk_ends(): '{origin}' is not a board space", loc)
    st = g.state
    if st.zprops.get(origin, _NO_PROPS).get("removed"):
        return []
    if kind.__class__ is list:   # (_kinds' answer kept for a list, looked up here first: one call less)
        try:
            kinds = _KINDS[tuple(kind)]
        except (KeyError, TypeError):   # (not kept yet, or a list holding a list: _kinds refuses it)
            kinds = _kinds(kind, loc)
    else:
        kinds = _kinds(kind, loc)
    if steps == 0:
        return [g.table.zones[origin]]
    last = _LAST
    if last[0] is st.board_key and last[1] is kinds and last[2] is board:   # the table of the walk before
        table = last[3]
    else:
        table = board.walk_steps(g, kinds)   # (also holds the shapes of the walks on it, under their questions)
        last[:] = st.board_key, kinds, board, table
    # (a shape holds the table's zones; no_reverse may be any value the rules give: only its truth counts)
    key = (origin, steps, not no_reverse, enter is None, stop is None, g.table)
    shape = table.get(key)
    if shape is None:
        keep = (table, key, None, None) if fast_paths.on() and table.get(_GROWN, 0) < _MAX_GROWN else None
        return _walk(g, loc, table, st.board_key, kinds, origin, steps, enter, stop, no_reverse, {}, keep)
    board_key = st.board_key
    while True:
        if shape.work:   # steps taken since the last question (none: more questions from the same space)
            if st.board_key is not board_key:   # a rule changed the board: the steps on from here are new
                break
            work = g.work + shape.work
            if work <= MAX_WORK:
                g.work = work
            else:   # past the budget on one of these steps: charged one by one, to stop on that one
                for work in shape.charges:
                    g.work += work
                    if g.work > MAX_WORK:
                        raise over_budget(loc)
        space = shape.space
        if space is None:
            return list(shape.next)
        if enter is None or enter(space):
            fate = 2 if stop is not None and stop(space) else 1
        else:
            fate = 0
        following = shape.next[fate]
        if following is None:   # an answer not seen here before: the walk goes on by searching
            return _walk(g, loc, table, board_key, kinds, origin, steps, enter, stop, no_reverse,
                         _answers(shape, fate),
                         (table, key, shape, fate) if table.get(_GROWN, 0) < _MAX_GROWN else None)
        shape = following
    return _walk(g, loc, table, board_key, kinds, origin, steps, enter, stop, no_reverse,
                 _answers(shape.up, shape.fate) if shape.up is not None else {}, None)


class _Shape:
    """What walks did up to a question of enter and stop, and what came of each answer: the work charged
    since the question before (each step's, and their sum), the space asked about, and the shape after
    each fate of it (0: not entered, 1: entered, 2: entered and stopped in; None: not seen yet), or, at
    the end of a walk (``space`` None), the ends in ``next``."""
    __slots__ = ("work", "charges", "space", "next", "up", "fate")

    def __init__(self, charges: list, space, following, up: _Shape | None, fate):
        self.work = sum(charges)
        self.charges = charges   # (each shape has a list of its own)
        self.space = space   # a zone
        self.next = following
        self.up = up   # the shape before, and the fate of its space that led here: the answers so far
        self.fate = fate


def _answers(shape: _Shape, fate) -> dict:
    """The fates given on the way to ``shape`` and at it (``fate``): {space id: fate}."""
    known = {shape.space.id: fate}
    while shape.up is not None:
        known[shape.up.space.id] = shape.fate
        shape = shape.up
    return known


def _walk(g: GameHost, loc, table: dict, board_key, kinds, origin, steps, enter, stop, no_reverse, known: dict,
          keep):
    """walk_ends' depth-first search over (space, space before, steps left): its ends' zones.

    ``table``: the board's kept steps (Board.walk_steps) as it stood at ``board_key``. ``known``: the
    fates of the spaces a replay of a kept shape asked about, charged up to then: the search retraces
    those steps without charging or asking again, then goes on. ``keep``: (the table, the walk's
    question, the shape and the fate of its space the walk adds after: None, None to add the first
    shape), or None.
    """
    # The arcs of a space are read from the board's kept steps (Board.walk_steps), looked up again whenever
    # the board changed since, so that a rule's enter or stop that changes the board is followed as if each
    # step read the board afresh; enter and stop are asked once a space, in the order the spaces are first met.
    board, st, zones = g.board, g.state, g.table.zones
    retrace = len(known)   # questions still to retrace (the board may have changed at the last: read after)
    adding = None if known else keep   # where the shape is added to: from the end of the retraced steps
    if keep is not None:
        up, fate_up = keep[2], keep[3]   # the shape that the next question comes after, and its answer
        charges: list = []   # the work charged since
        first = True   # (the first shape a walk adds counts the walk: _add)
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
        if st.board_key is not board_key and not retrace:   # a rule changed the board mid-walk: its steps
            table = board.walk_steps(g, kinds)              # as it now stands (and a shape not to keep)
            board_key = st.board_key
            keep = adding = None
        found = table.get(node)
        if found is None:
            found = board.walk_step(g, table, node, kinds)
        if adding is not None:
            charges.append(found[0])
        if not retrace:
            g.work += found[0]   # a walk of a billion steps round a loop of spaces is a lot of work
            if g.work > MAX_WORK:   # (charge() inlined: once per step of every walk)
                raise over_budget(loc)
        left -= 1
        for nxt in found[1]:
            if nxt == prev and no_reverse:
                continue
            fate = fates.get(nxt)
            if fate is None:
                if retrace:
                    fate = fates[nxt] = known[nxt]
                    retrace -= 1
                    if not retrace:   # the last question a replay asked: the walk goes on from here
                        adding = keep
                else:
                    space = zones[nxt]
                    if enter is None or enter(space):
                        fate = 2 if stop is not None and stop(space) else 1
                    else:
                        fate = 0
                    fates[nxt] = fate
                    if adding is not None:   # (a walk cut short by an error leaves a shape that ends here)
                        shape = _Shape(charges, space, [None, None, None], up, fate_up)
                        if first:
                            _add(adding, up, fate_up, shape)
                            first = False
                        else:
                            up.next[fate_up] = shape
                        up, fate_up, charges = shape, fate, []
            if fate == 1 and left:
                todo.append((nxt, node, left))
            elif fate:   # stopped in, or entered with no step left: an end (states with none left do nothing)
                ends[nxt] = None
    found = [zones[n] for n in (sorted(ends, key=board.order.__getitem__) if len(ends) > 1 else ends)]
    if adding is not None and st.board_key is board_key:
        shape = _Shape(charges, None, tuple(found), up, fate_up)
        if first:
            _add(adding, up, fate_up, shape)
        else:
            up.next[fate_up] = shape
    return found


def _add(keep, up: _Shape | None, fate, shape: _Shape) -> None:
    """``shape``, the first a walk adds, added after ``up``'s ``fate``, or kept as the first shape of the
    walk's question.

    The walks that add to the shapes of a table are counted, and past a bound no walk adds more: what
    the board keeps stays bounded however the answers vary (Board.walk_steps' tables are bounded)."""
    table, key = keep[0], keep[1]
    if up is None:
        table[key] = shape
    else:
        up.next[fate] = shape
    table[_GROWN] = table.get(_GROWN, 0) + 1
