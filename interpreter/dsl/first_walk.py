"""What a ``value:`` function works out first, and the walk it starts with written out among its first lines.

``dice_of(t) = filter(things("die"), d -> d.holder == t.id)`` and ``pawns_on(s) = filter(s, t ->
t.kind == "pawn")`` start by walking their source: :func:`.membership.things_walked` or
:func:`.membership.items_walked` charges its length and hands the comprehension what to walk, a Python
call at every call of the function. Where that walk is the first thing the function's expression works
out (:func:`first_event`), it is written out in the function's first lines instead, after the function's
own charge (:func:`call_charges`): the same items walked, the same work charged and checked at
the same places, in the same order; a source that is no zone, and a budget that runs out, go to the
helper itself, which answers or fails exactly as it did. Only with the fast paths on (the layout).

The first lines themselves are made here (:func:`call_charges`): the function's own unit of work, and that
of a first call :mod:`.inline_calls` writes out in place.
"""
from __future__ import annotations

from ..machine import budget
from ..machine.budget import MAX_WORK
from . import ast
from .lambda_forms import INLINED, LOOPS
from .membership import items_walked, things_walked
from .primitives import PRIMITIVES

PLAIN_CALLS_NOT = frozenset({"thing", "things", "spaces"})   # built-ins some of whose calls have forms of their own


def call_charges(gen, body) -> list[str]:
    """The lines a ``value:`` function with expression ``body`` starts with: a call that makes calls is work, one
    unit (a function that calls itself twice must not run for ever; one that calls none costs what its caller
    is charged for). Where the first thing ``body`` works out (:func:`first_event`) is a call, with plain
    arguments, of a function that would be written out in place but for the unit it charges (``here(p)`` in
    ``on_board(here(p))``: it calls ``pawn_of``), that call is written out (:func:`.inline_calls.inlined_call`)
    and its unit charged next in these lines, failing at that function's own place: its call charged it first
    thing, before anything else of ``body`` was worked out. Where it is a walk, the walk may be written out
    after them (:func:`hoisted_walk`). The list grows while ``body`` is written."""
    env = gen.env
    lines = budget.charged(1, "_loc") if any(
        isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id in env.functions
        for c in ast.walk(body)) else []
    first = first_event(env, body) if env.layout is not None else None
    if first is not None:
        call = first if isinstance(first, ast.Call) and _called(first) in env.functions else None
        gen.first_call = (call, walked_source(env, first), lines)
    return lines


def first_event(env, node):
    """The first thing expression ``node`` works out that is worth knowing, or None where that is not plain: a
    call of a ruleset function, a comprehension, or a built-in's walk with a lambda (``filter(s, t -> ...)``),
    reached through the left side of a comparison or an operator, a condition, an operand, or the first
    argument of a built-in written as a plain call (no lambda, no narration, no form of its own)."""
    while True:
        if isinstance(node, ast.Compare):
            node = node.first
        elif isinstance(node, (ast.BinOp, ast.BoolOp)):
            node = node.left
        elif isinstance(node, (ast.Not, ast.Neg)):
            node = node.operand
        elif isinstance(node, ast.IfExp):
            node = node.cond
        elif isinstance(node, ast.Comprehension):
            return node
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.kwargs:
            name = node.func.id
            if name in env.functions or _lambda_walk(node):
                return node
            prim = PRIMITIVES.get(name)
            if prim is None or prim.narration or name in PLAIN_CALLS_NOT or not node.args \
                    or any(isinstance(a, ast.Lambda) for a in node.args):
                return None
            node = node.args[0]
        else:
            return None


def _lambda_walk(node) -> bool:
    """Whether call ``node`` is a built-in's walk written out as a comprehension over its first argument."""
    return node.func.id in INLINED and node.func.id not in LOOPS and len(node.args) == 2 \
        and isinstance(node.args[1], ast.Lambda)


def _called(call: ast.Call) -> str | None:
    """The name a call calls (the grammar calls only names: a parsed call's ``func`` is always one)."""
    return call.func.id if isinstance(call.func, ast.Name) else None


def walked_source(env, event):
    """The source node the first event ``event`` (:func:`first_event`) walks first, or None."""
    if isinstance(event, ast.Comprehension):
        return event.source
    if isinstance(event, ast.Call) and _called(event) not in env.functions and _lambda_walk(event):
        return event.args[0]
    return None


def hoisted_walk(gen, node, walker: str, loc: str) -> str | None:
    """The Python name the first walk of a ``value:`` function (its source ``node``, walked by ``walker`` with
    its length charged at ``loc``) is worked out in among the function's first lines, or None: not that walk,
    or not one written out (``things(kind)`` of a literal kind, or a parameter walked by ``items_walked``)."""
    first = gen.first_call
    if first is None or first[1] is not node:
        return None
    lines, name = first[2], gen.fresh("_i")
    if isinstance(node, ast.Call) and _called(node) == "things":
        if node.args and not (isinstance(node.args[0], ast.Const) and node.args[0].value.__class__ is str):
            return None
        kind = node.args[0].value if node.args else None
        found = "g.table.thing_list" if kind is None else f"g.table.things_by_kind.get({kind!r}, ())"
        work, call_loc = gen.fresh("_w"), gen.bind(gen.sn.loc(node), "_l")
        lines += [f"{name} = {found}", f"{work} = g.work + {gen.bind(len)}({name}) * 2",
                  f"if {work} <= {MAX_WORK!r}:", f"    g.work = {work}",
                  "else:", f"    {gen.bind(things_walked)}(g, {loc}, {call_loc}, {kind!r})"]
    elif isinstance(node, ast.Name) and node.id in gen.lexical and walker == gen.bind(items_walked):
        x = gen.lexical[node.id]
        lines += [f"if {x}.__class__ is _ZR:", f"    {name} = g.state.zones[{x}.id]", f"    if {name}:",
                  f"        g.work += {gen.bind(len)}({name})", f"        if g.work > {MAX_WORK!r}:",
                  f"            _charge(g, 0, {loc})",
                  f"        {name} = {gen.bind(map)}(g.table.things.__getitem__, {name})",
                  f"    elif g.work > {MAX_WORK!r}:", f"        _charge(g, 0, {loc})",
                  "else:", f"    {name} = {walker}(g, {x}, {loc})"]
    else:
        return None
    gen.first_call = None
    return name
