"""Ruleset functions whose value depends on their arguments alone: their answers are kept.

Rules often name a place by building its id, ``room(lvl, c, s) =
space("r" + text(lvl) + text(c) + s)``, and ask for it many times a move.
Such a function reads nothing of the position: only its arguments, the
ruleset's constants, the player count and the table's fixed pieces (spaces,
zones, things and players by id). Its answer for given arguments is the
same in every game of that table, so :func:`remembered` keeps it on the
table (which all games of one ruleset and player count share).

:func:`depends_on_arguments_alone` decides it from the syntax tree, by a
whitelist. A comprehension, a lambda, a membership test (``in`` looks into
a zone's things), a game variable, a primitive not in
:data:`TABLE_ONLY_PRIMITIVES` or a call of a function that is not itself so
makes the answer "no". An attribute read is allowed where the ruleset's
declarations prove that no object can hold that name anywhere but in its
printed attributes or its fixed built-ins (a thing's ``id``, ``kind``,
``name`` and ``owner``, a player's ``seat`` and ``name``). Only answers that
whoever receives them cannot change are kept (numbers, text, references),
and only for arguments that cannot share a key by mere equality (``true``,
``1`` and ``1.0`` are equal in Python: only texts, whole numbers and references are kept).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..machine.attributes import ENGINE_PROPS, THING_BUILTINS, ZONE_BUILTINS
from ..machine.values import PlayerRef, ThingRef, ZoneRef
from . import ast

if TYPE_CHECKING:
    from ..machine.host import GameHost

# primitives that read their arguments and the table's fixed pieces, never the position
TABLE_ONLY_PRIMITIVES = frozenset({"abs", "text", "space", "zone", "thing", "player", "things", "lookup", "range"})
# built-in values fixed for a table
TABLE_ONLY_VALUES = frozenset({"num_players", "all_players"})
# the board's questions: they read the arguments, the table and the board as it stands (its removed spaces and
# added links), nothing else of the position; and those of them that answer a list of spaces
BOARD_PRIMITIVES = frozenset({"neighbours", "reachable", "path", "distance", "spaces", "on_board"})
BOARD_LISTS = frozenset({"neighbours", "reachable", "path", "spaces"})
# primitives over a collection, which read the position only when it is a zone (its things)
LIST_PRIMITIVES = frozenset({"first", "any", "all", "filter", "count", "min", "max", "sum"})
ORDERING = frozenset({"==", "!=", "<", "<=", ">", ">="})
KEPT_ARGUMENTS = frozenset({str, int, PlayerRef, ThingRef, ZoneRef})
KEPT_AT_ANY_SIZE = KEPT_ARGUMENTS - {str}   # a text only when short (MAX_KEPT_TEXT)
KEPT_ANSWERS = frozenset({str, int, float, bool, type(None), PlayerRef, ThingRef, ZoneRef})
# built-in attributes fixed for ever, of whatever object answers them (runtime.py's *_builtin)
FIXED_BUILTINS = frozenset({"id", "kind", "name", "owner", "seat"})
# built-in attributes that read the position: where a thing lies, a zone's contents, who is out
MOVING_BUILTINS = (THING_BUILTINS | ZONE_BUILTINS | ENGINE_PROPS | {"out", "next"}) - FIXED_BUILTINS
MAX_KEPT = 65536   # answers kept per table, all functions together: memory stays bounded
MAX_KEPT_TEXT = 256   # nor is a text longer than this kept, as an argument or an answer (texts reach 100,000)


def depends_on_arguments_alone(name: str, env) -> bool:
    """Whether ruleset function ``name`` is one expression that reads only its arguments and the table."""
    return _function(name, env, set(), False)


def depends_on_arguments_and_board(name: str, env) -> bool:
    """Whether ruleset function ``name`` is one expression that reads only its arguments, the table and the
    board as it stands (its removed spaces and added links): ``distance(s, first(reachable(s), a -> a.gate >
    0))``. The board's questions (:data:`BOARD_PRIMITIVES`) are allowed, and so are lambdas and the list
    primitives (:data:`LIST_PRIMITIVES`) over a list the expression proves is one (a board question's or a
    list literal, never a zone, whose things move)."""
    return _function(name, env, set(), True)


def _function(name, env, visiting, board: bool) -> bool:
    info = env.functions.get(name)
    if info is None or name in visiting or len(info.body) != 1 or not isinstance(info.body[0], ast.Return) \
            or info.body[0].value is None or info.suspends or info.changes_game:
        return False
    visiting.add(name)
    try:
        return _expression(info.body[0].value, env, set(info.params), visiting, board)
    finally:
        visiting.discard(name)


def _expression(n, env, params, visiting, board=False) -> bool:
    def free(node):
        return _expression(node, env, params, visiting, board)

    if board and isinstance(n, ast.Lambda):
        return _expression(n.body, env, params | {n.param}, visiting, board)

    if isinstance(n, ast.Const):
        return True
    if isinstance(n, ast.Name):
        return n.id in params or (n.id not in env.globals and (
            n.id in env.constants or n.id in env.zones or n.id in TABLE_ONLY_VALUES))
    if isinstance(n, (ast.BinOp, ast.BoolOp)):
        return free(n.left) and free(n.right)
    if isinstance(n, (ast.Neg, ast.Not)):
        return free(n.operand)
    if isinstance(n, ast.IfExp):
        return free(n.cond) and free(n.then) and free(n.other)
    if isinstance(n, ast.ListLit):
        return all(free(item) for item in n.items)
    if isinstance(n, ast.Attr):
        return fixed_attribute(n.name, env.layout) and free(n.obj)
    if isinstance(n, ast.Index):
        return free(n.obj) and free(n.index)
    if isinstance(n, ast.Compare):
        return free(n.first) and all(op in ORDERING and free(e) for op, e in n.rest)
    if isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
        name = n.func.id
        if name in env.functions:
            called = _function(name, env, visiting, board)
        else:
            called = name in TABLE_ONLY_PRIMITIVES or board and (name in BOARD_PRIMITIVES or (
                name in LIST_PRIMITIVES and bool(n.args) and _a_list(n.args[0])))
        return called and all(free(a) for a in n.args) and all(free(v) for _, v in n.kwargs)
    return False


def _a_list(n) -> bool:
    """Whether expression ``n`` is a list, never a zone (a list primitive walks a zone's things)."""
    return isinstance(n, ast.ListLit) or isinstance(n, ast.Call) and isinstance(n.func, ast.Name) \
        and n.func.id in BOARD_LISTS


def fixed_attribute(name: str, layout) -> bool:
    """Whether ``x.name`` reads only what never changes, whatever object ``x`` is: no declared property that a
    rule sets, counter or per-player zone has that name, nor does a built-in that reads the position. A
    declared property no rule sets (rules/layout.py's fixed properties: a space's printed gate, else its
    default) is read from the printed attributes alone, as fast_reads.py reads it."""
    if layout is None or name in MOVING_BUILTINS:
        return False
    if name in layout.thing_props and name not in layout.fixed_thing_props \
            or name in layout.zone_props and name not in layout.fixed_zone_props \
            or name in layout.player_vars or name in layout.seat_zones:
        return False
    return name in FIXED_BUILTINS or name in layout.thing_attrs or name in layout.zone_attrs \
        or name in layout.thing_props or name in layout.zone_props


def kept_if_fixed(fast, name: str, env):
    """``fast``, the compiled ``value:`` function ``name``, keeping its answers if it reads only its arguments
    (on the table) or its arguments and the board (with the board as it stands), and working one out costs
    more than looking it up."""
    if not worth_keeping(env.functions[name].body[0].value):
        return fast
    if depends_on_arguments_alone(name, env):
        return remembered(fast, len(env.functions[name].params))
    if depends_on_arguments_and_board(name, env):
        return remembered_per_board(fast)
    return fast


def keeps_answers(name: str, env) -> bool:
    """Whether ruleset function ``name``, compiled as a ``value:`` function, keeps its answers on the table (as
    :func:`kept_if_fixed` decides); decided once per function, for its call sites (``inline_calls``), which
    look them up there."""
    info = env.functions[name]
    if info.keeps_answers is None:
        info.keeps_answers = depends_on_arguments_alone(name, env) and worth_keeping(info.body[0].value)
    return info.keeps_answers


def kept_anywhere(name: str, env) -> bool:
    """Whether :func:`kept_if_fixed` keeps the answers of ``value:`` function ``name`` on the table
    (:func:`keeps_answers`) or with the board as it stands (:func:`remembered_per_board`)."""
    info = env.functions.get(name)
    if info is None or len(info.body) != 1 or not isinstance(info.body[0], ast.Return) or info.body[0].value is None:
        return False
    return keeps_answers(name, env) or (worth_keeping(info.body[0].value)
                                        and depends_on_arguments_and_board(name, env))


def worth_keeping(expression) -> bool:
    """Whether ``expression`` does two or more calls or operations (``space("r" + text(c))``). Looking up a
    kept answer costs about half a microsecond (a call, a key, its hash): about what one call, or a
    comparison and some reads, costs (``thing("pawn", p)``, ``t.id == who``), so those are worked out
    afresh. A list is never kept, so a function that is one list is not either."""
    if isinstance(expression, ast.ListLit):
        return False
    work = sum(isinstance(n, (ast.Call, ast.BinOp)) for n in ast.walk(expression))
    return work >= 2


def remembered(fast, arity: int = -1):
    """``fast(g, *args)``, keeping its answers on ``g.table`` for arguments and answers that allow it; for
    one, two or three arguments (``arity``, the commonest) a function that takes exactly that many, so that
    no tuple of arguments is built and walked. An answer is kept under ``(call, *args)``, ``call`` being the
    function this returns, and only for arguments of :data:`KEPT_ARGUMENTS`, which no other class equals (a
    number ``1`` and ``true`` are equal in Python, but ``true`` is never kept nor looked up): so an answer is
    looked up only for such arguments, which can all be hashed, and one found needs no other test. A call
    site may look an answer up itself, under the same key (``inline_calls.called``)."""
    def call(g: GameHost, *args):
        if not all(map(_keepable, args)):
            return fast(g, *args)
        kept = g.table.kept_answers
        key = (call, *args)
        answer = kept.get(key, kept)
        if answer is kept:
            answer = _kept(kept, key, uncharged(g, fast, args))
        return answer

    # for one to three arguments the class is tested first and the length of a text only on a miss: a long
    # text is never kept (equal texts are equally long), so looking one up finds nothing
    def call1(g: GameHost, a):
        if a.__class__ in KEPT_ARGUMENTS:
            kept = g.table.kept_answers
            key = (call1, a)
            answer = kept.get(key, kept)
            if answer is not kept:
                return answer
            if _keepable(a):
                return _kept(kept, key, uncharged(g, fast, (a,)))
        return fast(g, a)

    def call2(g: GameHost, a, b):
        if a.__class__ in KEPT_ARGUMENTS and b.__class__ in KEPT_ARGUMENTS:
            kept = g.table.kept_answers
            key = (call2, a, b)
            answer = kept.get(key, kept)
            if answer is not kept:
                return answer
            if _keepable(a) and _keepable(b):
                return _kept(kept, key, uncharged(g, fast, (a, b)))
        return fast(g, a, b)

    def call3(g: GameHost, a, b, c):
        if a.__class__ in KEPT_ARGUMENTS and b.__class__ in KEPT_ARGUMENTS and c.__class__ in KEPT_ARGUMENTS:
            kept = g.table.kept_answers
            key = (call3, a, b, c)
            answer = kept.get(key, kept)
            if answer is not kept:
                return answer
            if _keepable(a) and _keepable(b) and _keepable(c):
                return _kept(kept, key, uncharged(g, fast, (a, b, c)))
        return fast(g, a, b, c)

    made = {1: call1, 2: call2, 3: call3}.get(arity, call)
    made.__wrapped__ = fast   # type: ignore[attr-defined]  # functools' name for the function it wraps
    return made


def remembered_per_board(fast):
    """``fast(g, *args)``, keeping its answers with the board as it stands (:meth:`Board.kept_answers`: the
    answers of one standing, dropped with its other kept answers when the board's bound is reached), for
    arguments and answers that allow it, under ``(call, table, *classes of args, *args)``: one board serves
    every table of its ruleset, and an answer may read the table's constants. Worked out uncharged
    (:func:`uncharged`), as the table's kept answers are."""
    def call(g: GameHost, *args):
        if not all(map(_keepable, args)):
            return fast(g, *args)
        board = g.board
        kept = board.kept_answers(g)
        key = (call, g.table, *[a.__class__ for a in args], *args)
        answer = kept.get(key, kept)
        if answer is kept:
            answer = uncharged(g, fast, args)
            if answer.__class__ in KEPT_ANSWERS and not (answer.__class__ is str and len(answer) > MAX_KEPT_TEXT):
                board.keep_answer(kept, key, answer)
        return answer

    call.__wrapped__ = fast   # type: ignore[attr-defined]  # functools' name for the function it wraps
    return call


def uncharged(g: GameHost, fast, args: tuple):
    """``fast(g, *args)`` worked out with a work count of its own, the decision's left as it was.

    A kept answer found charges no work; so that the work of a decision does not depend on what was kept
    before it (by earlier games of the table, or not dropped yet by the board), an answer worked out for
    arguments it may be kept for charges none either: a budget then runs out at the same point whatever ran
    before. The budget still bounds the function itself, from zero. The functions kept are loop-free but
    for lambdas over the board's lists (no comprehension, no recursion: :func:`_expression`), so what goes
    uncounted is bounded by the ruleset's size."""
    saved = g.work
    g.work = 0
    try:
        return fast(g, *args)
    finally:
        g.work = saved


def _keepable(arg) -> bool:
    """Whether an answer may be kept for an argument ``arg``: one of KEPT_ARGUMENTS, a text only when short."""
    return arg.__class__ in KEPT_AT_ANY_SIZE or (arg.__class__ is str and len(arg) <= MAX_KEPT_TEXT)


def _kept(kept: dict, key: tuple, answer):
    """``answer``, worked out afresh for ``key``, kept if whoever receives it cannot change it and the store
    has room."""
    if answer.__class__ in KEPT_ANSWERS and len(kept) < MAX_KEPT \
            and not (answer.__class__ is str and len(answer) > MAX_KEPT_TEXT):
        kept[key] = answer
    return answer
