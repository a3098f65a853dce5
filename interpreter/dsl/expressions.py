"""Compile DSL expressions into closures ``fn(game, locals)`` (a part of :class:`Compiler`).

Each node kind becomes one closure; names are resolved and calls checked here,
so a playout never looks a name up by string.
"""
from __future__ import annotations

import operator

from ..errors import DavitError, DslError, GameError, did_you_mean
from ..machine import vm
from ..machine.values import ThingRef, ZoneRef
from . import ast
from .primitives import BUILTIN_VALUES, PRIMITIVES

BINOPS = {
    "+": operator.add, "-": operator.sub, "*": operator.mul,
    "/": operator.truediv, "//": operator.floordiv, "%": operator.mod,
}


def _member(g, item, collection) -> bool:
    """``item in collection``; a zone contains the things that are in it now."""
    if isinstance(collection, ZoneRef):
        return isinstance(item, ThingRef) and g.state.where.get(item.id) == collection.id
    return item in collection


_COMPARE = {
    "==": lambda g, a, b: a == b, "!=": lambda g, a, b: a != b,
    "<": lambda g, a, b: a < b, "<=": lambda g, a, b: a <= b,
    ">": lambda g, a, b: a > b, ">=": lambda g, a, b: a >= b,
    "in": _member, "not in": lambda g, a, b: not _member(g, a, b),
}


class ExpressionCompiler:
    """Mixin: expressions, names, comprehensions, lambdas and calls."""

    def _expr(self, n, sn, scope, pure):
        if isinstance(n, ast.Const):
            value = n.value
            return lambda g, L: value
        if isinstance(n, ast.Name):
            return self._name(n, sn, scope)
        if isinstance(n, ast.Attr):
            obj = self._expr(n.obj, sn, scope, pure)
            name = n.name
            loc = sn.loc(n)
            self.env.used_names.add(name)
            return lambda g, L: g.get_attr(obj(g, L), name, loc)
        if isinstance(n, ast.Index):
            obj = self._expr(n.obj, sn, scope, pure)
            index = self._expr(n.index, sn, scope, pure)
            return lambda g, L: obj(g, L)[index(g, L)]
        if isinstance(n, ast.BinOp):
            left = self._expr(n.left, sn, scope, pure)
            right = self._expr(n.right, sn, scope, pure)
            op = BINOPS[n.op]
            return lambda g, L: op(left(g, L), right(g, L))
        if isinstance(n, ast.Neg):
            operand = self._expr(n.operand, sn, scope, pure)
            return lambda g, L: -operand(g, L)
        if isinstance(n, ast.Not):
            operand = self._expr(n.operand, sn, scope, pure)
            return lambda g, L: not operand(g, L)
        if isinstance(n, ast.BoolOp):
            left = self._expr(n.left, sn, scope, pure)
            right = self._expr(n.right, sn, scope, pure)
            if n.op == "and":
                return lambda g, L: left(g, L) and right(g, L)
            return lambda g, L: left(g, L) or right(g, L)
        if isinstance(n, ast.Compare):
            first = self._expr(n.first, sn, scope, pure)
            rest = [(_COMPARE[op], self._expr(e, sn, scope, pure)) for op, e in n.rest]
            if len(rest) == 1:
                op, second = rest[0]
                return lambda g, L: op(g, first(g, L), second(g, L))

            def chain(g, L):
                a = first(g, L)
                for op, e in rest:
                    b = e(g, L)
                    if not op(g, a, b):
                        return False
                    a = b
                return True
            return chain
        if isinstance(n, ast.IfExp):
            cond = self._expr(n.cond, sn, scope, pure)
            then = self._expr(n.then, sn, scope, pure)
            other = self._expr(n.other, sn, scope, pure)
            return lambda g, L: then(g, L) if cond(g, L) else other(g, L)
        if isinstance(n, ast.ListLit):
            items = [self._expr(i, sn, scope, pure) for i in n.items]
            return lambda g, L: [i(g, L) for i in items]
        if isinstance(n, ast.Comprehension):
            return self._comprehension(n, sn, scope, pure)
        if isinstance(n, ast.Lambda):
            raise self._error("a lambda (x -> ...) may only be an argument of a call", sn, n)
        if isinstance(n, ast.Call):
            return self._call(n, sn, scope, pure)
        raise self._error(f"unsupported expression {type(n).__name__}", sn, n)

    def _name(self, n: ast.Name, sn, scope):
        name = n.id
        if name in scope:
            def local(g, L):
                try:
                    return L[name]
                except KeyError:
                    raise GameError(f"'{name}' is used before it is given a value", sn.loc(n)) from None
            return local
        self.env.used_names.add(name)
        if name in self.env.globals:
            return lambda g, L: g.state.vars[name]
        if name in self.env.constants:
            return lambda g, L: g.table.constants[name]
        if name in BUILTIN_VALUES:
            fn = BUILTIN_VALUES[name]
            return lambda g, L: fn(g)
        if name in self.env.zones:
            return lambda g, L: g.table.zones[name]
        if name in PRIMITIVES or name in self.env.functions:
            raise self._error(f"'{name}' is a function; call it with ( )", sn, n)
        raise self._error(f"unknown name '{name}'", sn, n, did_you_mean(name, self.env.all_names(scope)),
                          code="unknown-name")

    def _comprehension(self, n: ast.Comprehension, sn, scope, pure):
        source = self._expr(n.source, sn, scope, pure)
        elt = self._expr(n.elt, sn, scope, pure)
        cond = self._expr(n.cond, sn, scope, pure) if n.cond is not None else None
        var = n.var

        def comp(g, L):
            out = []
            saved = L.get(var, _MISSING)
            try:
                for item in source(g, L):
                    L[var] = item
                    if cond is None or cond(g, L):
                        out.append(elt(g, L))
            finally:
                _restore(L, var, saved)
            return out
        return comp

    def _lambda(self, n: ast.Lambda, sn, scope, pure):
        body = self._expr(n.body, sn, scope, pure)
        param = n.param

        def make(g, L):
            def fn(value):
                saved = L.get(param, _MISSING)
                L[param] = value
                try:
                    return body(g, L)
                finally:
                    _restore(L, param, saved)
            return fn
        return make

    def _check_arity(self, name, low, high, call, sn):
        given = len(call.args)
        if given < low or (high is not None and given > high):
            if low == high:
                want = f"{low}"
            elif high is None:
                want = f"at least {low}"
            else:
                want = f"{low} to {high}"
            raise self._error(f"{name}() takes {want} argument{'' if want.split()[-1] == '1' else 's'}, "
                              f"{given} given", sn, call, code="arity")

    def _call(self, n: ast.Call, sn, scope, pure):
        if not isinstance(n.func, ast.Name):
            raise self._error("only named functions can be called", sn, n)
        name = n.func.id
        loc = sn.loc(n)
        if name in ("choose", "resolve"):
            raise self._error(f"{name}(...) must be a statement of its own or the right side of an assignment",
                              sn, n)
        info = self.env.functions.get(name)
        if info is not None:
            if info.suspends:
                raise self._error(f"function '{name}' asks a player; call it as a statement of its own "
                                  "or the right side of an assignment", sn, n)
            self._check_arity(name, len(info.params), len(info.params), n, sn)
            if n.kwargs:
                raise self._error(f"function '{name}' takes no named arguments", sn, n)
            if pure and info.changes_game:
                raise self._error(f"function '{name}' changes the game and cannot be used in a condition", sn, n,
                                  code="effect-in-condition")
            info.used = True
            args = [self._expr(a, sn, scope, pure) for a in n.args]
            code_id = info.code_id
            params = info.params

            def call_function(g, L):
                values = [a(g, L) for a in args]
                fast = info.fast
                if fast is None:
                    return vm.call_sync(g, g.codes[code_id], values)
                try:
                    return fast(g, dict(zip(params, values)))
                except DavitError:
                    raise
                except Exception as exc:  # report it where the function's value is written
                    raise GameError(f"{type(exc).__name__} in function '{name}': {exc}",
                                    info.value_location) from None
            return call_function
        prim = PRIMITIVES.get(name)
        if prim is None:
            raise self._error(f"unknown function '{name}'", sn, n.func,
                              did_you_mean(name, set(PRIMITIVES) | set(self.env.functions)), code="unknown-name")
        if prim.effect and pure:
            raise self._error(f"{name}() changes the game and cannot be used in a condition", sn, n,
                              code="effect-in-condition")
        self._check_arity(name, prim.min_args, prim.max_args, n, sn)
        for key, _ in n.kwargs:
            if key not in prim.kwargs:
                raise self._error(f"{name}() has no argument named '{key}'", sn, n,
                                  did_you_mean(key, prim.kwargs), code="arity")
        args = []
        for a in n.args:
            if isinstance(a, ast.Lambda):
                args.append(self._lambda(a, sn, scope, pure))
            else:
                args.append(self._expr(a, sn, scope, pure))
        kwargs = [(k, self._lambda(v, sn, scope, pure) if isinstance(v, ast.Lambda) else self._expr(v, sn, scope, pure))
                  for k, v in n.kwargs]
        if name in ("thing", "zone", "space") and n.args and isinstance(n.args[0], ast.Const) \
                and isinstance(n.args[0].value, str) and not (name == "zone" and len(n.args) > 1):
            known = self.env.thing_ids if name == "thing" else self.env.zone_ids
            wanted = n.args[0].value
            if known and wanted not in known:
                raise DslError(f"no {'thing' if name == 'thing' else 'zone or space'} has the id '{wanted}'",
                               sn.loc(n.args[0]), did_you_mean(wanted, known), code="unknown-reference")
        fn = prim.fn
        if not kwargs:
            if len(args) == 1:
                a0 = args[0]
                return lambda g, L: fn(g, loc, a0(g, L))
            if len(args) == 2:
                a0, a1 = args
                return lambda g, L: fn(g, loc, a0(g, L), a1(g, L))
            return lambda g, L: fn(g, loc, *[a(g, L) for a in args])
        return lambda g, L: fn(g, loc, *[a(g, L) for a in args], **{k: v(g, L) for k, v in kwargs})


_MISSING = object()


def _restore(L, name, saved):
    """Put back the outer value of a name a comprehension or lambda borrowed."""
    if saved is _MISSING:
        L.pop(name, None)
    else:
        L[name] = saved
