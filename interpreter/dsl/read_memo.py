"""A read repeated within one expression that changes nothing: worked out once and kept in a name.

Rules often ask the same attribute of the same variable more than once in one
expression (``may_enter(p, s)`` asks ``s.effect`` in three branches, a filter
asks ``t.bearer`` of each piece four times). Each read written out
(:mod:`.fast_reads`) is a class test and two or three lookups. Where the
expression can change nothing (a condition, or one that calls no effect nor any
function that changes the game or asks a player), every read of ``x.name``
during one evaluation gives the same value, so a read that is certain to come
after a first one (one that *dominates* it) takes the first one's value, kept
by ``:=`` in a fresh name.

Which reads dominate which follows Python's order of evaluation: the operands
of an operator, a call's arguments, a list's items and an index come one after
the other; a condition before both its branches, the left side of ``and``
and ``or`` before the right. What is evaluated only sometimes (a branch, the
right side of ``and``, a lambda's body, a comprehension's body, a narration's
arguments, the later links of a chained comparison) may use the values kept
before it, and what it keeps is forgotten after it (:func:`branch`), except
where it is certain to have run: ``a and b and c`` reads ``c`` only after
both ``a`` and ``b`` held, a branch or a comprehension's item only after its
condition did (:func:`settled`).

Only a bare variable's read is kept (a lambda parameter, a comprehension
variable, a ``value:`` function's argument: Python names nothing rebinds
within the evaluation), and never of a built-in that makes a new list at each
read (a zone's ``things``): what is left is answered by a stored or printed
value, a declared default or a built-in's answer from the state or the table
(a thing's ``owner``, ``zone``, a zone's ``count``), the same object every
time while nothing changes, or by an error that the first read raises in its
own place. The
work charged does not change: reading an attribute charges none. Off with the
other fast paths (no layout), and in statements (:mod:`.direct`, action
enumerators), where what a statement changes is read by the next.
"""
from __future__ import annotations

import re
from contextlib import contextmanager

from ..machine.attributes import THING_FIELDS

KEEP, END = "\x04", "\x02"   # the mark of a kept read: KEEP name END (repr() never lets these through raw)
# built-ins whose reads are never kept: each read of a zone's things or seats makes a new list (kept, two
# reads would give one list); a player's next is worked out afresh; the rest are fields, as cheap as a name
NOT_KEPT = frozenset({"things", "seats", "next", "seat", *THING_FIELDS})
# of those, the ones never kept: a new list, or worked out afresh, at each read. The others are fields, kept
# lazily in a comprehension where the receiver's class is not proven: then each read is a chain of class tests
# (``x.id if x.__class__ is _TR else (x.id if x.__class__ is _ZR else ...)``), the kept name one test
NEW_EACH_READ = frozenset({"things", "seats", "next"})
PROPS = "\x00props"   # the key of a thing's properties (no attribute has this name)
LOCAL = "\x00local"   # the key of a rule's local's value
ANSWER = "\x00answer"   # the key of a kept answer's name (earlier_answer)
_KEPT = re.compile("\x04(_m[0-9]+)\x02")


def start(gen, node, constant=None) -> None:
    """Let ``gen`` keep repeated reads while it writes expression ``node``, if that changes nothing; with
    ``constant`` (the Python names the function it writes receives), also the reads inside its comprehensions
    of those names and of the rule's locals, once each (:func:`lazily`). Where ``node`` may change something
    (``move(t, first(spaces(s -> s.start == t.start)))``), with ``constant``, only within each outermost
    comprehension that changes nothing, as if it were the whole expression (:func:`comprehension_body`)."""
    if gen.env.layout is None:
        return
    if gen.pure or gen._changes_nothing(node):
        gen.memo = {}
        if constant is not None:
            gen.lazy, gen.constant = {}, frozenset(constant)
    elif constant is not None and not gen.looping:
        gen.lazy, gen.constant, gen.lazy_scope = {}, frozenset(constant), 0


@contextmanager
def comprehension_body(gen, node):
    """Around the body ``node`` of a comprehension (or of a lambda written out as one), :func:`branch`; in an
    expression that may change something (:func:`start`), where this comprehension is the outermost (the
    function evaluates it once at most: no other comprehension, lambda or function of its own around it) and
    ``node`` changes nothing, its reads kept as in an expression that changes nothing: nothing changes from
    its first item to its last, and what it keeps lazily is kept under names of its own (``lazy_scope``),
    which start as not yet worked out at the function's top and are worked out within it, after whatever
    the expression changed before it."""
    if gen.memo is not None or gen.lazy_scope is None or gen.looping != 1 or gen.nested or gen.iterable \
            or not gen._changes_nothing(node):
        with branch(gen):
            yield
        return
    gen.lazy_scope += 1
    gen.memo = {}
    try:
        yield
    finally:
        gen.memo = None


def kept(gen, name: str, x: str, write, local=None) -> str:
    """The source of the read ``<x>.<name>`` (``x`` the rule's local ``local``, if it is one): the name a
    dominating read kept it in, or ``write()`` (the read written out), kept in a fresh name where later reads
    may use it."""
    memo = gen.memo
    if memo is None:
        return write()
    if not _memorable(name) and not _thing_property(gen, name, x):
        # a field: kept only lazily, where the receiver's class is not proven (NEW_EACH_READ)
        if name in NEW_EACH_READ or not x.isidentifier() and local is None or gen.proven.get(x) is not None:
            return write()
        lazy = lazily(gen, name, ("L", local) if local is not None else x, write)
        return lazy if lazy is not None else write()
    found = memo.get((x, name)) if x.isidentifier() else None
    if found is not None:
        gen.memo_used.add(found)
        return found
    lazy = lazily(gen, name, ("L", local) if local is not None else x, write)
    if lazy is not None or not x.isidentifier():
        return lazy if lazy is not None else write()
    code = write()
    if gen.iterable:   # Python refuses `:=` in a comprehension's iterable
        return code
    var = memo[(x, name)] = gen.fresh("_m")
    return f"({KEEP}{var}{END}{code})"


def lazily(gen, name: str, receiver, write) -> str | None:
    """The source of the read ``.name`` of ``receiver`` (a Python name the function receives, or ``("L", local)``)
    inside a comprehension's body, which reads it for every item: worked out where it is first evaluated and
    kept in a name of the whole function (set to :data:`NOT_YET` at its top: :func:`lazy_lines`), which every
    later evaluation of it reads; or None where that cannot be. Nothing rebinds the receiver and nothing changes
    while the function runs (the reads are kept only where the expression changes nothing), so the first
    evaluation answers for all, and fails, if it fails, where the first read failed. Not inside a lambda or a
    function of its own (``gen.nested``: its ``:=`` would bind there), nor in a comprehension's iterable."""
    if gen.lazy is None or not gen.looping or gen.nested or gen.iterable \
            or not (isinstance(receiver, tuple) or receiver in gen.constant):
        return None
    key = (gen.lazy_scope, receiver, name)
    var = gen.lazy.get(key)
    if var is None:
        var = gen.lazy[key] = gen.fresh("_m")
    not_yet = gen.bind(NOT_YET, "_k")
    return f"({var} if {var} is not {not_yet} else ({var} := {write()}))"


def lazy_lines(gen, body: list[str]) -> list[str]:
    """``body`` after the lines that start each lazily kept read (:func:`lazily`) as not yet worked out."""
    return [f"{var} = {gen.bind(NOT_YET, '_k')}" for var in (gen.lazy or {}).values()] + body


class _NotYet:
    """What a lazily kept read holds before it is first worked out (no value of the rules is this object)."""


NOT_YET = _NotYet()


def props_of(gen, x: str, twice: bool) -> tuple[str, str]:
    """The source of thing ``x``'s properties (``g.state.props[x.id]``, a dict only a change replaces) as first
    evaluated in a read, and as used again after that in the same read (``twice``: the read uses it again):
    kept as a read is, so that every later read of another property of ``x`` looks up no id."""
    plain = f"{gen.container('g.state.props')}[{x}.id]"
    memo = gen.memo
    if memo is None or not x.isidentifier():
        return plain, plain
    found = memo.get((x, PROPS))
    if found is None:
        if gen.iterable:   # (no `:=` here)
            return plain, plain
        found = memo[(x, PROPS)] = gen.fresh("_m")
        first = f"({KEEP}{found}{END}{plain})"
    else:
        first = found
        gen.memo_used.add(found)
    if twice:
        gen.memo_used.add(found)
    return first, found


def held_local(gen, local: str | None) -> str | None:
    """The name a dominating read kept the rule's local ``local`` in (``(_w3 := L['b'])``, its first class
    test: evaluated whenever that read is), or None. No expression sets a local: its value holds throughout."""
    if local is None or gen.memo is None:
        return None
    return gen.memo.get((local, LOCAL))


def keep_local(gen, local: str | None, name: str) -> None:
    """Offer ``name``, which the read being written binds to the rule's local ``local``, to later reads."""
    if local is not None and gen.memo is not None and not gen.iterable:
        gen.memo[(local, LOCAL)] = name


def earlier_answer(gen, call: tuple) -> str | None:
    """The name a dominating call site put its lookup of the kept answer of ``call`` in (``call``: the site's
    bound function and its arguments, literals or Python names nothing rebinds), or None. That name holds
    the answer if the lookup found it (found once, it is found ever after: nothing is taken out of the
    store) and the store itself if not (``inline_calls.called``)."""
    if gen.memo is None:
        return None
    return gen.memo.get((ANSWER, call))


def keep_answer(gen, call: tuple, name: str) -> None:
    """Offer ``name``, which the call site being written sets to its lookup of ``call``'s answer, to later sites."""
    if gen.memo is not None and not gen.iterable:
        gen.memo[(ANSWER, call)] = name


def finish(gen, body: list[str]) -> list[str]:
    """``body`` (a function's lines) with each kept read's mark turned into ``name :=`` where a later read uses
    the name, and dropped where none does (the store would cost more than it saves)."""
    if KEEP not in "".join(body):
        return body
    used = gen.memo_used
    return [_KEPT.sub(lambda m: m.group(1) + " := " if m.group(1) in used else "", line) for line in body]


def _memorable(name: str) -> bool:
    """Whether ``.name`` is worth keeping and every read of it gives the same object while nothing changes:
    not a new list (a zone's ``things`` and ``seats``), nor a field the object holds itself (its ``id``,
    ``kind``, ``name``, a player's ``seat``: one lookup, as cheap as the kept name)."""
    return name not in NOT_KEPT


def _thing_property(gen, name: str, x: str) -> bool:
    """Whether ``<x>.name`` reads a declared property of a thing ``x`` its source proves one (a player's ``seat``
    is a field; a thing's ``seat``, declared by the ruleset, a dict's lookup): kept as any property is."""
    return name not in NEW_EACH_READ and name not in THING_FIELDS and gen.proven.get(x) == "_TR" \
        and name in gen.env.layout.thing_props


@contextmanager
def branch(gen, start=None):
    """Around what is evaluated only sometimes: it may use the reads kept before it (``start``, where more
    are certain there: see :func:`settled`); what it keeps is forgotten after it."""
    saved = gen.memo
    if saved is not None:
        gen.memo = dict(saved if start is None else start)
    try:
        yield
    finally:
        gen.memo = saved


def settle(gen, node, op: str) -> None:
    """Note, after writing ``node`` (``a and b``, ``a or b``), the reads kept by the time its right side is
    written: all are certain where evaluation goes on only when ``node`` came out true (for ``and``: both
    sides were evaluated and held) or false (for ``or``)."""
    gen.settled = (node, op, gen.memo)


def settled(gen, node, op: str):
    """The reads certain where evaluation goes on after ``node`` came out as ``op`` needs (true for ``and``,
    false for ``or``; see :func:`settle`), or None: only those kept before ``node``."""
    found = gen.settled
    return found[2] if found is not None and found[0] is node and found[1] == op else None
