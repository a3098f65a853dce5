"""Compile DSL expressions and simple statements to Python functions ``fn(game, locals)``.

Each snippet becomes Python source generated from its syntax tree, one method
per node kind (the way Jinja2 compiles templates), then ``compile()``d once
when the ruleset is built. The source is built only from the compiler's own
pieces, never from a ruleset's text:

* every literal goes through ``repr`` (strings, numbers) or is bound as an
  object under a generated name (anything else);
* the names in the source are the compiler's own (``g``, ``L``, ``_b3``,
  ``_v1``): a rule's local ``x`` is read as ``L['x']`` (its name a ``repr``'d
  string), a lambda parameter becomes ``_v1``, a primitive ``_b2``;
* the generated code runs with no builtins at all.

Every node starts a line of its own; a line table (:mod:`interpreter.machine.linetable`)
maps it back to the YAML, so an error inside generated code is reported at
the rule's ``file:line:col``.
"""
from __future__ import annotations

from contextlib import nullcontext
from typing import TYPE_CHECKING, Any

from ..errors import DavitError, DslError, did_you_mean
from ..machine import budget, linetable
from ..machine.values import PlayerRef, ThingRef, ZoneRef
from . import ast
from .assignments import assignment
from .fast_reads import (
    bare_read,
    kept_read,
    proven_class,
    proven_kind,
    proven_list,
    proven_read,
    reader_for,
    receiver_reader,
    static_truth,
    zone_field,
    zone_identity,
)
from .first_walk import call_charges, hoisted_walk
from .inline_calls import bind_call_sites as bind_call_sites  # (rules/build.py binds them)
from .inline_calls import called, function_caller, inlined_call
from .lambda_forms import INLINED, inlined_lambda, partial_call
from .literal_ids import check_ids, literal_thing
from .membership import compare_chain, comprehension_walked, items_walked, member, things_walked
from .operators import BOOLEAN, COMPARE, binop
from .primitives import BUILTIN_VALUES, PRIMITIVES, collection_of
from .prop_index import selected
from .read_memo import branch, comprehension_body, held_local, lazy_lines, settle, settled
from .read_memo import finish as finish_memo
from .read_memo import kept as kept_in_memo
from .read_memo import start as start_memo

MARK, END = "\x01", "\x02"   # a node's line marker; repr() never lets these through raw
# starts the stand-in of a held container (Generator.container: the state's dicts, the table's zones, the same
# objects for the whole of any call: only a new game, a clone or a load makes new ones); repr() escapes it too
HELD = "\x03"


class Generator:
    """Python source for the nodes of one snippet, with the objects it refers to."""

    def __init__(self, compiler, snippet, scope, pure):
        self.c = compiler
        self.env = compiler.env
        self.sn = snippet
        self.scope = scope
        self.pure = pure
        self.names = {"_member": member, "_chain": compare_chain, "_DavitError": DavitError,
                      "_Exception": Exception, "_located": linetable.located_error,
                      "_TR": ThingRef, "_ZR": ZoneRef, "_PR": PlayerRef,
                      "_each": budget.each, "_sized": budget.sized, "_times": budget.times, "_charge": budget.charge}
        self.ids, self.first_call = {}, None   # (first_call: first_walk.call_charges)
        self.lines = []          # node index -> (Location, local name or None)
        self.lexical = {}        # lambda parameters and comprehension variables -> Python names
        self.counter = 0
        self.call_sites = []     # (bound name, FunctionInfo) of ruleset functions called
        self.iterable = 0        # > 0 while writing a comprehension's iterable (no `:=` there)
        self.proven = {}         # comprehension variable -> the class its source proves each item has, or None
        self.kinds = {}          # comprehension variable -> the kind its source proves each item has (things("pawn"))
        self.proven_codes = {}   # the source of a call that answers one class alone (thing("pawn", p)) -> that class
        self.walk = None         # the place a things() call being written is walked at (see walked)
        self.held = None         # container -> [stand-in, weight of its uses] while containers are held, else None
        self.looping = 0         # > 0 while writing what runs once per item (a comprehension's, a lambda's body)
        self.memo = None         # (variable, name) -> the name a read is kept in (see read_memo), or None: off
        self.memo_used = set()   # those names some later read uses
        self.settled = None      # the last `and`/`or` written, with the reads certain after it (read_memo.settle)
        self.lazy, self.nested, self.constant, self.lazy_scope = None, 0, frozenset[str](), None   # (read_memo)

    # -- names and lines ------------------------------------------------------

    def bind(self, obj, prefix="_b") -> str:
        key = id(obj)
        if key not in self.ids:
            self.counter += 1
            name = f"{prefix}{self.counter}"
            self.names[name] = obj
            self.ids[key] = name
        return self.ids[key]

    def fresh(self, prefix="_v") -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def node(self, n, code: str, local=None) -> str:
        """``code`` for node ``n``, on a line of its own that the line table maps to ``n``."""
        self.lines.append(((self.sn, n.pos), local))   # the location is worked out only if an error needs it
        return f"({MARK}{len(self.lines) - 1}{END}{code})"

    def hold_containers(self, looping: bool = False) -> None:
        """Let the one function this generator writes read each container once (see :meth:`container`), all
        of whose body runs within one call; ``looping``: the body runs once per candidate. A fast path: off
        with the others (no layout)."""
        if self.env.layout is not None:
            self.held = {}
            self.looping = int(looping)

    def container(self, text: str) -> str:
        """The source reading container ``text`` (``g.state.props`` and kin): itself, or, while this generator holds
        containers (``held``, set by the maker of a function whose body it writes), a stand-in that
        :meth:`function` turns into a local read once at the top where it is read more than once."""
        if self.held is None:
            return text
        entry = self.held.get(text)
        if entry is None:
            entry = self.held[text] = [f"{HELD}{len(self.held)}{END}", 0]
        entry[1] += 2 if self.looping else 1
        return entry[0]

    def literal(self, value) -> str:
        if value is None or isinstance(value, (bool, int, str)):
            return repr(value)
        if isinstance(value, float) and value == value and value not in (float("inf"), float("-inf")):
            return repr(value)
        return self.bind(value, "_k")

    # -- building functions ----------------------------------------------------

    def function(self, body: list[str], default_loc, params: str = "g, L", wrapped: bool = True):
        """``def _f(<params>): <body>`` as a function, compiled by Python when it is first called.

        Unwrapped, an error inside is left to the generated caller, which locates it at its own node."""
        name = linetable.new_file_name()
        self.names["_loc"] = default_loc
        if self.held:
            body = self._hold(body, self.held)
        body = finish_memo(self, body)
        if not wrapped:
            lines = [f"def _f({params}):"] + ["    " + b for b in body]
        else:
            lines = [f"def _f({params}):", "    try:"] + ["        " + b for b in body] + [
                "    except _DavitError as _e:",
                "        if _e.location is None:",
                "            _e.location = _loc",
                "        raise",
                "    except _Exception as _e:",
                "        raise _located(_e, _loc) from None"]
        text = "\n".join(lines).replace(MARK, "\n" + MARK)
        table = {}
        out = []
        for number, line in enumerate(text.split("\n"), 1):
            if line.startswith(MARK):
                index, _, line = line[1:].partition(END)
                table[number] = self.lines[int(index)]
            out.append(line)
        source = "\n".join(out)
        linetable.register(name, table, source)
        namespace = dict(self.names, __builtins__={})
        fn = linetable.lazy_function(name, namespace)
        for bound, info in self.call_sites:
            if info.fast is not None:
                namespace[bound] = info.fast
            else:
                info.__dict__.setdefault("call_sites", []).append((namespace, bound))
        return fn

    def _hold(self, body: list[str], held: dict) -> list[str]:
        """``body`` (a function's lines) with each held container's stand-in replaced: by a local read once
        at the top where it is read more than once (or inside a loop), else by the container itself."""
        text, taken = "\n".join(body), []
        for container, (stand_in, weight) in held.items():
            if stand_in in text:
                name = self.fresh("_h") if weight >= 2 else container
                taken += [f"{name} = {container}"] if weight >= 2 else []
                body = [line.replace(stand_in, name) for line in body]
        return taken + body

    # -- expressions ----------------------------------------------------------

    def expr(self, n) -> str:
        method = getattr(self, "x_" + type(n).__name__, None)
        if method is None:
            raise self.c._error(f"unsupported expression {type(n).__name__}", self.sn, n)
        return method(n)

    def x_Const(self, n):
        return self.node(n, self.literal(n.value))

    def x_Name(self, n):
        name = n.id
        if name in self.lexical:
            return self.lexical[name]
        if name in self.scope:
            return self.node(n, f"L[{name!r}]", local=name)
        self.env.used_names.add(name)
        if name in self.env.globals:
            return self.node(n, f"{self.container('g.state.vars')}[{name!r}]")
        if name in self.env.constants:
            return self.node(n, f"g.table.constants[{name!r}]")
        if name in BUILTIN_VALUES:   # num_players is fixed for the table: read, not called
            read = "g.table.num_players" if name == "num_players" else f"{self.bind(BUILTIN_VALUES[name])}(g)"
            return self.node(n, read)
        if name in self.env.zones:
            return self.node(n, f"{self.container('g.table.zones')}[{name!r}]")
        if name in PRIMITIVES or name in self.env.functions:
            raise self.c._error(f"'{name}' is a function; call it with ( )", self.sn, n)
        raise self.c._error(f"unknown name '{name}'", self.sn, n, did_you_mean(name, self.env.all_names(self.scope)),
                            code="unknown-name")

    def x_Attr(self, n):
        self.env.used_names.add(n.name)
        obj = self.expr(n.obj)
        if isinstance(n.obj, ast.Name) and (n.obj.id in self.lexical or n.obj.id in self.scope):
            # a bare variable: read where the declarations say, without a call (see fast_reads), once (read_memo);
            # a rule's local as the name a read before kept it in, if one did
            local = n.obj.id if n.obj.id not in self.lexical else None
            obj = held_local(self, local) or obj
            code = self.node(n, kept_in_memo(self, n.name, obj, lambda: bare_read(
                self, self.env.layout, n.name, obj, lambda x: self.reader_call(n.name, x, n), self.receiver_type(n),
                local), local))
            if n.name == "zone" and zone_field(self, obj):   # a thing's zone: a zone, read with no class test
                self.proven_codes[code] = "_ZR"
            return code
        # any other receiver (``thing("pawn", p).zone``) is worked out once: kept in a name as a local is, or,
        # inside a comprehension's iterable, given to a reader that reads as the written-out read does
        proven = self.proven_codes.get(obj)
        if proven is not None:   # no class test: written out with the receiver in place, if the read uses it once
            read = proven_read(self, self.env.layout, n.name, obj, proven, lambda x: self.reader_call(n.name, x, n))
            if read is not None:
                return self.node(n, read)
        kept = kept_read(self, self.env.layout, n.name, obj, lambda x: self.reader_call(n.name, x, n),
                         self.receiver_type(n))
        if kept is not None:
            return self.node(n, kept)
        where = self.bind(self.sn.loc(n), "_l")
        return self.node(n, f"{self.bind(self.receiver_reader(n.name), '_r')}(g, {obj}, {where})")

    def receiver_type(self, n):
        """The static type the checker gave the receiver of ``.name`` node ``n`` (a hint), or None."""
        seen = self.c.checker.receivers.get(id(n)) if self.c.checker is not None else None
        return seen[1] if seen is not None and seen[0] is n else None

    def reader_call(self, name, obj: str, n) -> str:
        """The call of the reader of ``.name`` on the object ``obj`` (Python source), located at node ``n``."""
        return f"{self.bind(reader_for(self.env.layout, name), '_r')}(g, {obj}, {self.bind(self.sn.loc(n), '_l')})"

    def receiver_reader(self, name: str):
        """``read(g, obj, loc)`` for ``.name`` on any receiver (see :func:`.fast_reads.receiver_reader`)."""
        return receiver_reader(lambda: Generator(self.c, self.sn, set(), True), self.env.layout, name)

    def x_Index(self, n):
        return self.node(n, f"{self.expr(n.obj)}[{self.expr(n.index)}]")

    def x_BinOp(self, n):
        return binop(self, n, checked=True)

    def x_Neg(self, n):
        return self.node(n, f"-{self.expr(n.operand)}")

    def x_Not(self, n):
        return self.node(n, f"not {self.expr(n.operand)}")

    def x_BoolOp(self, n):
        truth = static_truth(self, n.left)   # `t.kind == "pawn"` of an item of things("pawn"): known, not read
        if truth is not None and truth == (n.op == "or"):   # false and b, true or b
            return self.node(n, self.literal(truth))
        left = None if truth is not None else self.expr(n.left)   # true and b, false or b: b alone
        with branch(self, settled(self, n.left, n.op)):   # (a and b) and c: c is read after both held
            right = self.expr(n.right)
            code = self.node(n, right if left is None else f"{left} {BOOLEAN[n.op]} {right}")
            settle(self, n, n.op)
        return code

    def x_Compare(self, n):
        if static_truth(self, n) is not None:   # (see x_BoolOp)
            return self.node(n, self.literal(static_truth(self, n)))
        first = self.expr(n.first)
        if all(op in COMPARE for op, _ in n.rest):
            second = f" {zone_identity(self, n) or COMPARE[n.rest[0][0]]} {self.expr(n.rest[0][1])}"
            with branch(self):   # a link after the first is evaluated only if those before it hold
                return self.node(n, first + second + "".join(f" {COMPARE[op]} {self.expr(e)}" for op, e in n.rest[1:]))
        if len(n.rest) == 1:
            op, e = n.rest[0]
            test = f"_member(g, {first}, {self.expr(e)})"
            return self.node(n, test if op == "in" else f"not {test}")
        ops = {"in": "'in'", "not in": "'not in'", **{k: repr(k) for k in COMPARE}}
        with branch(self):
            self.nested += 1   # (lambdas of their own)
            rest = ", ".join(f"({ops[op]}, lambda: {self.expr(e)})" for op, e in n.rest)
            self.nested -= 1
        return self.node(n, f"_chain(g, {first}, ({rest},))")

    def x_IfExp(self, n):
        cond = self.expr(n.cond)   # evaluated first: written first, so that both branches may use what it reads
        with branch(self, settled(self, n.cond, "and")):
            then = self.expr(n.then)
        with branch(self, settled(self, n.cond, "or")):
            return self.node(n, f"{then} if {cond} else {self.expr(n.other)}")

    def x_ListLit(self, n):
        return self.node(n, "[" + "".join(f"{self.expr(i)}, " for i in n.items) + "]")

    def x_Comprehension(self, n):
        walker = "_each" if proven_list(self, n.source) else self.bind(comprehension_walked)
        source = self.walked(n.source, walker, self.sn.loc(n))
        var = self.fresh()
        self.proven[var] = proven_class(self, n.source, collection=False)
        self.kinds[var] = proven_kind(self, n.source)
        outer = self.lexical
        self.lexical = {**outer, n.var: var}
        self.looping += 1
        try:
            with comprehension_body(self, n):
                cond = self.expr(n.cond) if n.cond is not None else None   # evaluated before the item
                with branch(self, settled(self, n.cond, "and")):
                    elt = self.expr(n.elt)
        finally:
            self.lexical = outer
            self.looping -= 1
        return self.node(n, f"[{elt} for {var} in {source}]" if cond is None
                         else selected(self, var, elt, source, cond, self.kinds[var]))

    def walked(self, n, walker: str, where) -> str:
        """``walker(g, <n>, where)``, the source of a comprehension walking ``n`` (``walker`` charges its
        length at ``where``); ``things(kind)`` made and walked in one call (:func:`.membership.things_walked`)."""
        loc = self.bind(where, "_l")
        if self.first_call is not None and (hoisted := hoisted_walk(self, n, walker, loc)) is not None:
            return hoisted   # a value: function's first walk, written out among its first lines (first_walk)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "things" \
                and n.func.id not in self.env.functions and len(n.args) <= 1 and not n.kwargs:
            self.walk = loc   # taken by x_Call for this node alone
            return self.iterable_of(n)
        return f"{walker}(g, {self.iterable_of(n)}, {loc})"

    def iterable_of(self, n) -> str:   # ``n`` as a comprehension's iterable
        self.iterable += 1
        try:
            return self.expr(n)
        finally:
            self.iterable -= 1

    def x_Lambda(self, n):
        raise self.c._error("a lambda (x -> ...) may only be an argument of a call", self.sn, n)

    def lambda_(self, n) -> str:
        var = self.fresh()
        outer = self.lexical
        self.lexical = {**outer, n.param: var}
        self.looping, self.nested = self.looping + 1, self.nested + 1
        try:
            with branch(self):
                made = partial_call(self, n)   # `s -> may_enter(p, s)`: no Python frame of its own per call
                return self.node(n, made if made is not None else f"lambda {var}: {self.expr(n.body)}")
        finally:
            self.lexical = outer
            self.looping, self.nested = self.looping - 1, self.nested - 1

    def argument(self, a) -> str:
        return self.lambda_(a) if isinstance(a, ast.Lambda) else self.expr(a)

    def x_Call(self, n):
        c, sn = self.c, self.sn
        walk, self.walk = self.walk, None   # set by walked() for this call alone, never for its arguments
        if not isinstance(n.func, ast.Name):
            raise c._error("only named functions can be called", sn, n)
        name = n.func.id
        if name in ("choose", "resolve"):
            raise c._error(f"{name}(...) must be a statement of its own or the right side of an assignment", sn, n)
        info = self.env.functions.get(name)
        if info is not None:
            inner = self._ruleset_function(n, name, info)
            code = self.node(n, inner)
            if inner in self.proven_codes:   # a function written out in place (inline_calls) as such a call
                self.proven_codes[code] = self.proven_codes[inner]
            return code
        prim = PRIMITIVES.get(name)
        if prim is None:
            raise c._error(f"unknown function '{name}'", sn, n.func,
                           did_you_mean(name, set(PRIMITIVES) | set(self.env.functions)), code="unknown-name")
        if prim.effect and self.pure:
            raise c._error(f"{name}() changes the game and cannot be used in a condition", sn, n,
                           code="effect-in-condition")
        c._check_arity(name, prim.min_args, prim.max_args, n, sn)
        keywords = {}
        for key, _ in n.kwargs:
            if key not in prim.kwargs:
                raise c._error(f"{name}() has no argument named '{key}'", sn, n, did_you_mean(key, prim.kwargs),
                               code="arity")
            keywords[key] = next(k for k in prim.kwargs if k == key and k.isidentifier())  # the registry's own name
        check_ids(self, n, name)
        literal = literal_thing(self, n) if name == "thing" else None   # thing("pawn", p): no id text built
        if literal is not None:
            code = self.node(n, literal)
            self.proven_codes[code] = "_TR"   # the built-in answers a thing or raises
            return code
        if name in INLINED and len(n.args) == 2 and isinstance(n.args[1], ast.Lambda) and not n.kwargs:
            # a list: no class test; a walk that changes nothing: a zone's things with no list made of them
            walker = "_each" if proven_list(self, n.args[0]) else self.bind(
                items_walked if self._changes_nothing(n.args[1]) else collection_of)
            source = self.walked(n.args[0], walker, sn.loc(n))
            return self.node(n, inlined_lambda(self, n.args[1], source, name,
                                               proven_class(self, n.args[0], collection=True),
                                               proven_kind(self, n.args[0])))
        if name == "spaces" and len(n.args) == 1 and isinstance(n.args[0], ast.Lambda) and not n.kwargs:
            # spaces(s -> cond): the spaces still on the board (the built-in without its predicate), filtered
            source = f"{self.bind(prim.fn)}(g, {self.bind(sn.loc(n), '_l')})"
            return self.node(n, inlined_lambda(self, n.args[0], source, "filter", "_ZR"))
        # things(kind) made and walked at once (see walked): the walk's place comes first
        head = [self.bind(prim.fn), "g"] if walk is None else [self.bind(things_walked), "g", walk]
        with branch(self) if prim.narration else nullcontext():   # a narration's arguments: maybe never (below)
            args = head + [self.bind(sn.loc(n), "_l")] + [self.argument(a) for a in n.args]
            args += [f"{keywords[k]}={self.argument(v)}" for k, v in n.kwargs]
        call = f"{args[0]}({', '.join(args[1:])})"
        if prim.narration and self._changes_nothing((n.args, n.kwargs)):
            # nobody reads the log (davit simulate, the bots): its line and the values it shows are not worked out
            call = f"({call} if g.record else None)"
        return self.node(n, call)

    def _changes_nothing(self, nodes) -> bool:
        """Whether evaluating ``nodes`` can change nothing: no effect, no function that changes the game or
        asks a player, no call the compiler does not know (then leaving it out changes no game)."""
        for node in ast.walk(nodes):
            if isinstance(node, ast.Call):
                name = node.func.id if isinstance(node.func, ast.Name) else None
                info = self.env.functions.get(name)
                if info is not None:
                    if info.changes_game or info.suspends:
                        return False
                elif name not in PRIMITIVES or PRIMITIVES[name].effect:
                    return False
        return True

    def _ruleset_function(self, n, name, info, parts: bool = False):
        """The source of the call ``n`` of ruleset function ``name``; ``parts``: (its bound name, its arguments'
        sources) for a function that is not written out in place (lambda_forms.partial_call asks)."""
        c, sn = self.c, self.sn
        if info.suspends:
            raise c._error(f"function '{name}' asks a player; call it as a statement of its own "
                           "or the right side of an assignment", sn, n)
        c._check_arity(name, len(info.params), len(info.params), n, sn)
        if n.kwargs:
            raise c._error(f"function '{name}' takes no named arguments", sn, n)
        if self.pure and info.changes_game:
            raise c._error(f"function '{name}' changes the game and cannot be used in a condition", sn, n,
                           code="effect-in-condition")
        info.used = True
        self.env.used_functions.add(name)
        inlined = None if parts else inlined_call(self, n, name, info)
        if inlined is not None:
            return inlined
        if "caller" not in info.__dict__:
            info.caller = function_caller(info)
        bound = self.bind(info.caller, "_f")
        self.call_sites.append((bound, info))
        args = [self.expr(a) for a in n.args]
        return (bound, args) if parts else called(self, name, info, bound, n.args, args)

    # -- assignments ------------------------------------------------------------

    def assignment(self, s: ast.Assign) -> list[str]:
        return assignment(self, s)


class ExpressionCompiler:
    """Mixin for :class:`Compiler`: expressions and simple statements as compiled Python functions."""

    env: Any   # compiler.Env, set by Compiler (compiler.py imports this module), which defines ``_error``

    if TYPE_CHECKING:
        def _error(self, message, snippet, node, hint=None, code=None) -> DslError: ...

    def _generator(self, sn, scope, pure) -> Generator:
        return Generator(self, sn, scope, pure)

    def _expr(self, n, sn, scope, pure):
        """``fn(g, L)`` returning the value of expression ``n``."""
        gen = self._generator(sn, scope, pure)
        gen.hold_containers()
        start_memo(gen, n, ())
        return gen.function(lazy_lines(gen, [f"return {gen.expr(n)}"]), sn.loc(n))

    def _assignment(self, s, sn, scope, pure):
        gen = self._generator(sn, scope, pure)
        return gen.function(gen.assignment(s), sn.loc(s))

    def _value_function(self, n, sn, params):
        """A ``value:`` function as ``fast(g, *args)``: its parameters are Python arguments, no locals dict."""
        gen = self._generator(sn, set(), False)
        gen.hold_containers()
        names = [gen.fresh("_a") for _ in params]
        gen.lexical = dict(zip(params, names))
        start_memo(gen, n, names)
        charges = call_charges(gen, n)   # (before the body is written: it may write a charged call out)
        body = lazy_lines(gen, [f"return {gen.expr(n)}"])
        body[:0] = charges
        return gen.function(body, sn.loc(n), ", ".join(["g", *names]))

    def _lambda(self, n, sn, scope, pure):
        """``maker(g, L)`` returning the one-argument function that lambda ``n`` is."""
        gen = self._generator(sn, scope, pure)
        return gen.function([f"return {gen.lambda_(n)}"], sn.loc(n))
