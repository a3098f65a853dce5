"""How generated code calls a ruleset function; small ``value:`` functions written out at their calls.

:func:`function_caller` is the call of a function that does not wait (its
``fast`` form once it exists, :func:`bind_call_sites`). Small ``value:``
functions whose arguments are plain variables are not called at all:

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
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..machine import execute
from . import ast
from .state_free import answers_kept

if TYPE_CHECKING:
    from ..machine.host import GameHost

MAX_INLINED_NODES = 24   # larger bodies are called: the call is a small part of their cost


def inlined_call(gen, n, name: str, info) -> str | None:
    """Python source for the call ``n`` of ruleset function ``name`` with its body written out, or None."""
    if gen.env.layout is None or not inlinable(gen.env, name, info):
        return None
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
        code = gen.expr(body)
    finally:
        gen.sn, gen.scope, gen.lexical = saved
    if gen.settled is not None and gen.settled[0] is body:   # the call is the body: `mine(p, t) and ...`
        gen.settled = (n, *gen.settled[1:])   # (read_memo.settled)
    return code


def inlinable(env, name, info) -> bool:
    """Whether calls of ruleset function ``name`` are written out in place (decided once)."""
    if info.inlinable is None:
        info.inlinable = _decide(env, name, info)
    return info.inlinable


def _decide(env, name, info) -> bool:
    if not info.value or info.suspends or info.changes_game or info.source is None or len(info.body) != 1 \
            or not isinstance(info.body[0], ast.Return) or info.body[0].value is None:
        return False
    nodes = list(ast.walk(info.body[0].value))
    if len(nodes) > MAX_INLINED_NODES:
        return False
    for node in nodes:
        if isinstance(node, (ast.Lambda, ast.Comprehension)):
            return False
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in env.functions:
            return False
    # a function whose answers are kept (state_free.kept_if_fixed) is cheaper looked up
    return not answers_kept(name, env)


def function_caller(info):
    """How generated code calls a ruleset function that does not wait for a decision.

    A ``value:`` function is itself a Python function ``fast(g, *args)``; a
    ``do:`` function runs its code on the VM for its value. Call sites are
    compiled before every function is, so each site starts with this caller
    and is given ``fast`` itself once it exists (:func:`bind_call_sites`).
    """
    code_id = info.code_id

    def call(g: GameHost, *values):
        fast = info.fast
        if fast is None:
            return execute.call_sync(g, g.codes[code_id], list(values))
        return fast(g, *values)
    return call


def bind_call_sites(info) -> None:
    """Point every compiled call of ``info`` straight at its ``fast`` function."""
    for namespace, name in info.__dict__.pop("call_sites", ()):
        namespace[name] = info.fast
