"""How generated code calls a ruleset function; small ``value:`` functions written out at their calls.

:func:`function_caller` is the call of a function that does not wait (its
``fast`` form once it exists, :func:`bind_call_sites`); where the function
keeps its answers on the table, the call looks the answer up first and calls
only on a miss (:func:`called`). Small ``value:`` functions whose arguments
are plain variables are not called at all:

A rule such as ``filter(things("piece"), t -> mine(player, t) and placed(t))``
calls ``mine`` once per piece, every time the actions are listed: in a
large game that is hundreds of thousands of calls, each costing more than
the two attribute reads inside. Where the call's arguments are bare
variables or literals (so that using one twice costs nothing and changes
nothing), the function's expression is generated in place of the call.

Only a function that can be written out without changing what the game
does or charges qualifies: a ``value:`` function (a ``do:`` function's call
is charged as work), small, that changes nothing, asks nobody, calls no
ruleset function (no recursion; a function that calls one is charged a unit
per call) and whose answers are not kept on the table (``state_free``:
those are cheaper looked up; one that reads only its arguments but is too
small to keep is written out). Its body is generated exactly as its own
compile generates it: its parameters as its only locals, none of the
caller's names in view, each node's line mapped to the function's own
``file:line:col``. Turned off with the other fast paths (the layout is None).

One more is written out: the first call a ``value:`` function makes, where it
is the first thing the function works out, of a function that qualifies but for
calling ruleset functions (``here(p) = pawn_of(p).zone`` in ``on_board(here(p))``):
the unit such a function charges first thing is charged among its caller's first
lines, right after the caller's own (:func:`.first_walk.call_charges`).

A function that may call itself (``FunctionInfo.recursive``) is never written
out, and its calls are counted (:func:`counted`), in both modes alike: past
:data:`MAX_RECURSION` calls of such functions inside one another the rules
"recurse too deeply" at the call. Python's own limit would stop them too, but
at a depth that depends on how many Python frames a call takes, which the
fast paths change: the same rules would play on in one mode and fail in the
other.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..machine import budget, execute
from . import ast
from .read_memo import earlier_answer, keep_answer
from .state_free import KEPT_ARGUMENTS, keeps_answers, kept_anywhere

if TYPE_CHECKING:
    from ..machine.host import GameHost

MAX_RECURSION = 64       # calls of functions that may call themselves, one inside another (counted)
_DEPTH = "_recursion"    # where a game keeps how many such calls are under way (in its __dict__)
MAX_INLINED_NODES = 24   # larger bodies are called: the call is a small part of their cost
PROVEN_REFERENCES = frozenset({"_TR", "_ZR", "_PR"})   # the generated names of the reference classes


class _NoAnswer:
    """What a call site's lookup of a kept answer gives when none is kept (no value of the rules is this)."""


NO_ANSWER = _NoAnswer()


def inlined_call(gen, n, name: str, info) -> str | None:
    """Python source for the call ``n`` of ruleset function ``name`` with its body written out, or None. The
    first call a ``value:`` function makes, of a function that charges a unit of its own, is written out too, its
    unit charged among the caller's first lines (:func:`.first_walk.call_charges`)."""
    if gen.env.layout is None:
        return None
    charges = None
    if not inlinable(gen.env, name, info):
        first = gen.first_call
        if first is None or first[0] is not n or not inlinable(gen.env, name, info, charged=True):
            return None
        charges = first[2]
    args = []
    for a in n.args:
        plain = isinstance(a, ast.Const) or (isinstance(a, ast.Name) and (a.id in gen.lexical or a.id in gen.scope))
        if not plain:
            return None
        args.append(gen.expr(a))   # the caller's node: a local read before it is set is reported there
    saved = gen.sn, gen.scope, gen.lexical
    gen.sn = gen.sn.__class__(info.source, f"function {name}")   # a compiler.Snippet, for the function's text
    gen.scope, gen.lexical = set(), dict(zip(info.params, args))
    body = info.body[0].value
    try:
        if charges is not None:   # the unit its own code charges first thing, at its own place
            gen.first_call = None
            charges.extend(budget.charged(1, gen.bind(gen.sn.loc(body), "_l")))
        code = gen.expr(body)
    finally:
        gen.sn, gen.scope, gen.lexical = saved
    if gen.settled is not None and gen.settled[0] is body:   # the call is the body: `mine(p, t) and ...`
        gen.settled = (n, *gen.settled[1:])   # (read_memo.settled)
    return code


def inlinable(env, name, info, charged: bool = False) -> bool:
    """Whether calls of ruleset function ``name`` are written out in place (decided once); ``charged``: whether
    it would be but for the unit of work it charges, for it calls a ruleset function
    (:func:`.first_walk.call_charges`)."""
    if info.inlinable is None:
        info.inlinable = _decide(env, name, info)
        info.charged_inline = not info.inlinable and _decide(env, name, info, calls=True)
    return info.charged_inline if charged else info.inlinable


def _decide(env, name, info, calls: bool = False) -> bool:
    if not info.value or info.recursive or info.suspends or info.changes_game or info.source is None \
            or len(info.body) != 1 or not isinstance(info.body[0], ast.Return) or info.body[0].value is None:
        return False
    nodes = list(ast.walk(info.body[0].value))
    if len(nodes) > MAX_INLINED_NODES:
        return False
    for node in nodes:
        if isinstance(node, (ast.Lambda, ast.Comprehension)):
            return False
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in env.functions \
                and not calls:
            return False
    # a function whose answers are kept (state_free.kept_if_fixed) is cheaper looked up
    return not kept_anywhere(name, env)


def called(gen, name: str, info, bound: str, nodes, args: list[str]) -> str:
    """The source of the call of ruleset function ``name`` (bound as ``bound``) with arguments ``nodes``, written
    as ``args``: where its answers are kept on the table, looked up in place, the function called on a miss.

    A kept function is a wrapper (``state_free.remembered``) that looks its answer up before it works one
    out, under ``(wrapper, *args)``, for arguments of the classes answers are kept for (``KEPT_ARGUMENTS``:
    texts, whole numbers, references), which can all be hashed. Its Python frame costs more than the
    lookup, so the call site looks the answer up itself, under the same key (``bound`` is the wrapper once
    the function is compiled, :func:`bind_call_sites`; before that, nothing is kept under it) after the
    same test of each argument's class (none for a literal text or number, nor for a thing, zone or player
    its source proves), and calls ``bound`` only on a miss or an argument of another class: the wrapper
    then does what it did before. A hit charges no work, as the wrapper charges none for arguments it may
    keep an answer for (``state_free.uncharged``). Where Python refuses ``:=`` (a comprehension's iterable)
    an answer found is taken only if it is true (``or``): a false one is found again by the wrapper. Not for
    a function with no arguments (a list, never kept, is its commonest answer).

    A second call with the same arguments (literals, Python names nothing rebinds) where the first is
    certain to have been evaluated (:func:`.read_memo.earlier_answer`) takes the first one's answer if that
    lookup found it (an answer once kept stays kept), and else looks it up again: an answer worked out was
    kept only if the store had room, and the second call charges again if it was not."""
    def call_of(values):
        return "".join([bound, "(g", *(", " + v for v in values), ")"])

    plain = call_of(args)
    if gen.env.layout is None or not info.value or not info.params \
            or len(args) != len(info.params) or not keeps_answers(name, gen.env):
        return plain
    known = gen.bind(KEPT_ARGUMENTS, "_k")
    items, values, tests, evaluated = [], [], [], False
    same: list = []   # what tells this call from another: each literal (with its class) or name
    for node, code in zip(nodes, args):
        if isinstance(node, ast.Const):
            if node.value.__class__ not in KEPT_ARGUMENTS:
                return plain   # true, 1.5, none: never kept, the wrapper answers
            items.append(code)
            values.append(code)
            same.append((node.value.__class__, node.value))
            continue
        if code.isidentifier():   # a Python name nothing rebinds (lexical): read again at no cost
            value, proven = code, gen.proven.get(code)
        else:   # worked out once, where the key is built (in the arguments' order)
            value, proven, evaluated = gen.fresh("_x"), gen.proven_codes.get(code), True
            code = f"({value} := {code})"
        items.append(code)
        values.append(value)
        same.append(value)
        if proven not in PROVEN_REFERENCES:
            tests.append(f"{value}.__class__ in {known}")
    if gen.iterable:   # no `:=`: an answer found is taken if true, else the wrapper answers (found again)
        if evaluated:
            return plain
        kept = gen.container("g.table.kept_answers")
        return f"({' and '.join([*tests, f'{kept}.get((' + ', '.join([bound, *items]) + '))'])} or {call_of(values)})"
    # the same function with the same arguments, looked up before wherever this is evaluated (read_memo)
    call_key = (bound, tuple(same)) if not evaluated else None
    earlier = earlier_answer(gen, call_key) if call_key is not None else None
    answer, key = gen.fresh("_r"), "(" + ", ".join([bound, *items]) + ")"
    if tests and evaluated:   # every argument worked out, in order, before any is tested
        whole = gen.fresh("_w")
        tests.insert(0, f"({whole} := {key})")
        key = whole
    # the store is read once per site (a function with several reads it once, at its top: Generator.container)
    kept, missing = gen.container("g.table.kept_answers"), gen.bind(NO_ANSWER, "_k")
    if call_key is not None and earlier is None and tests:   # set whatever the tests say: a later site reads it
        found = f"{kept}.get({key}, {missing}) if {' and '.join(tests)} else {missing}"
        look = f"({answer} := ({found})) is not {missing}"
        tests = []
    else:
        look = f"({answer} := {kept}.get({key}, {missing})) is not {missing}"
    code = f"({answer} if {' and '.join([*tests, look])} else {call_of(values)})"
    if earlier is not None:   # found then, found now; else looked up again (kept since, or not)
        return f"({earlier} if {earlier} is not {missing} else {code})"
    if call_key is not None:
        keep_answer(gen, call_key, answer)
    return code


def function_caller(info):
    """How generated code calls a ruleset function that does not wait for a decision.

    A ``value:`` function is itself a Python function ``fast(g, *args)``; a
    ``do:`` function runs its code on the VM for its value. Call sites are
    compiled before every function is, so each site starts with this caller
    and is given ``fast`` itself once it exists (:func:`bind_call_sites`).
    """
    code_id = info.code_id

    def on_the_vm(g: GameHost, *values):
        return execute.call_sync(g, g.codes[code_id], list(values))
    vm = counted(on_the_vm) if info.recursive else on_the_vm

    def call(g: GameHost, *values):
        fast = info.fast   # (counted itself where the function may call itself: bind_call_sites)
        if fast is None:
            return vm(g, *values)
        return fast(g, *values)
    return call


def counted(fn):
    """``fn`` (a call of a function that may call itself), counting how many are under way: one more than
    :data:`MAX_RECURSION` is a ``RecursionError``, which the rules report at the call (``linetable``)."""
    if getattr(fn, "__davit_counted__", False):
        return fn

    def call(g: GameHost, *values):
        kept = g.__dict__
        depth = kept.get(_DEPTH, 0)
        if depth >= MAX_RECURSION:
            raise RecursionError("rules recurse too deeply")
        kept[_DEPTH] = depth + 1
        try:
            return fn(g, *values)
        finally:
            kept[_DEPTH] = depth
    call.__davit_counted__ = True   # type: ignore[attr-defined]
    return call


def bind_call_sites(info) -> None:
    """Point every compiled call of ``info`` straight at its ``fast`` function (counted where it may call
    itself)."""
    if info.recursive and info.fast is not None:
        info.fast = counted(info.fast)
    for namespace, name in info.__dict__.pop("call_sites", ()):
        namespace[name] = info.fast
