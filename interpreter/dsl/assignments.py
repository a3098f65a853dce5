"""Assignment statements as generated code: locals, global variables, declared properties, list items.

A part of :class:`interpreter.dsl.expressions.Generator`, kept apart: what a
rule may set (declared counters, variables and properties, never a constant,
a built-in or a property no rule of the ruleset sets) and how each is set.
"""
from __future__ import annotations

from ..errors import DslError, did_you_mean
from ..machine import attributes
from . import ast
from .fast_reads import declared_write
from .operators import arith
from .primitives import BUILTIN_VALUES, PRIMITIVES


def assignment(gen, s: ast.Assign) -> list[str]:
    """The lines of ``target = value`` (or ``+=`` and kin), written by the generator ``gen``."""
    c, sn, env = gen.c, gen.sn, gen.env
    if gen.pure:
        raise c._error("assignments are not allowed in a condition", sn, s)
    op = s.op or None   # `+=` and kin: the operator, written by arith from its own table
    target = s.target
    if isinstance(target, ast.Name):
        name = target.id
        if name in env.globals:
            env.used_names.add(name)
            value = gen.expr(s.value)
            if op is not None:
                value = arith(gen, s.op, f"g.state.vars[{name!r}]", value, target, s.value, s)
            return [f"g.set_var({name!r}, {value})"]
        if name in env.constants:
            raise c._error(f"'{name}' is a constant and cannot be changed", sn, target)
        if name in BUILTIN_VALUES or name in PRIMITIVES:
            raise c._error(f"'{name}' is a built-in name and cannot be assigned", sn, target)
        value = gen.expr(s.value)
        if op is None:
            return [f"L[{name!r}] = {value}"]
        if name not in gen.scope:
            raise c._error(f"unknown name '{name}'", sn, target)
        old = gen.node(target, f"L[{name!r}]", local=name)
        return [f"L[{name!r}] = {arith(gen, s.op, old, value, target, s.value, s)}"]
    if isinstance(target, ast.Attr):
        attr = target.name
        loc = sn.loc(target)
        settable = env.player_attrs | env.thing_props | env.zone_props
        if attr not in settable:
            raise DslError(f"'{attr}' is not a declared counter, variable or property; only those can be set",
                           loc, did_you_mean(attr, settable))
        if attr in env.fixed_thing_props or attr in env.fixed_zone_props:
            # no rule of the ruleset sets it, so its reads are compiled as the printed value (rules/layout.py)
            raise DslError(f"'{attr}' is set by no rule of this ruleset, so its printed values are fixed; "
                           "it cannot be set here", loc)
        env.used_names.add(attr)
        where = gen.bind(loc, "_l")
        value = gen.expr(s.value)
        if op is not None:
            old = f"{gen.bind(attributes.reader(attr), '_r')}(g, {gen.expr(target.obj)}, {where})"
            value = arith(gen, s.op, old, value, target, s.value, s)
        # a declared thing property or player variable and nothing else: set without set_attr's search
        written = declared_write(gen, gen.expr(target.obj), attr, s.value if op is None else None, value, where)
        if written is not None:
            return written
        return [f"g.set_attr({gen.expr(target.obj)}, {attr!r}, {value}, {where})"]
    if isinstance(target, ast.Index):
        base = target.obj
        while isinstance(base, ast.Index):
            base = base.obj
        if isinstance(base, ast.Name) and base.id in env.constants and base.id not in gen.scope:
            raise c._error(f"'{base.id}' is a constant and cannot be changed", sn, target)
        obj, index, value = gen.expr(target.obj), gen.expr(target.index), gen.expr(s.value)
        where = gen.bind(sn.loc(target), "_l")   # through the game: the position's size (play/position.py)
        if op is None:
            return [f"g.set_item({obj}, {index}, {value}, {where})"]
        return ["_t = " + obj, "_i = " + index,
                f"g.set_item(_t, _i, {arith(gen, s.op, '_t[_i]', value, target, s.value, s)}, {where})"]
    raise c._error("cannot assign to this", sn, target)
