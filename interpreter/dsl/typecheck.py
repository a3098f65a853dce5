"""A light static type check of DSL snippets, run before they are compiled.

Types are coarse on purpose: ``number``, ``text``, ``bool``, ``none``,
``player``, ``thing``, ``zone``, ``("list", elem)``, ``map`` and ``any``
(unknown, never an error). The checker catches what designers actually get
wrong: comparing a number with a card, arithmetic on a card, an attribute
that no thing / player / zone of the ruleset has. It never guesses: whenever
a type is not certain it is ``any`` and nothing is reported.
"""
from __future__ import annotations

import json

from ..errors import DslError, did_you_mean
from . import ast
from .static_types import (
    ANY,
    BOOL,
    MAP,
    NONE,
    NUMBER,
    PLAYER,
    REFS,
    TEXT,
    THING,
    ZONE,
    MapOf,
    ThingOf,
    article,
    describe,
    element,
    fits,
    join,
    join_all,
    value_type,
)
from .vocabulary import Vocabulary, declaration_errors  # noqa: F401  (imported from here by the rules stage)

# built-ins whose lambda is applied to the items of their first argument (elsewhere a lambda's
# parameter is unknown: e.g. a movement helper's lambdas take spaces, not the pawn's zone's things)
_LAMBDA_OVER_ELEMENTS = {"count", "min", "max", "any", "all", "filter", "sorted", "first", "last", "lowest",
                         "highest", "sum"}
# built-ins' arguments that must be numbers: name -> (position, parameter name)
_NUMBER_ARGS = {"score": ((1, "amount"),), "range": ((0, "start"), (1, "stop")), "abs": ((0, "number"),),
                "draw": ((2, "n"),), "combinations": ((1, "k"),), "matches": ((2, "count"),),
                "reachable": ((1, "steps"),), "walk_ends": ((1, "steps"),), "stack_targets": ((3, "step"),)}
# built-ins whose lambdas are given board spaces: spaces(s -> …), walk_ends(…, enter, stop)
_LAMBDA_OVER_SPACES = {"spaces", "walk_ends"}
_ELEMENT_OF_ARG = {"filter", "sorted", "lowest", "highest", "list"}
_RETURNS = {
    "count": NUMBER, "sum": NUMBER, "any": BOOL, "all": BOOL, "range": ("list", NUMBER), "abs": NUMBER,
    "text": TEXT, "zone": ZONE, "space": ZONE, "thing": THING, "things": ("list", THING), "player": PLAYER,
    "top": THING, "bottom": THING, "next_player": PLAYER, "turn_order": ("list", PLAYER),
    "neighbours": ("list", ZONE), "spaces": ("list", ZONE), "can_enter": BOOL, "refusal": TEXT,
    "reachable": ("list", ZONE), "path": ("list", ZONE), "distance": NUMBER,
}


# Where a snippet stands (the compiler's ``what``) -> the type it must have.
def expected_type(what: str):
    if what in ("end condition", "win_if", "expectation", "flow while", "flow until", "flow if", "turn until") \
            or what.endswith(" condition") or what.endswith(" admit") \
            or (what.startswith("trigger ") and what.endswith(" when")) or what.endswith(" run"):
        return BOOL
    if what == "repeat count" or what.endswith(" cost"):
        return NUMBER
    return None


_FIX_HINTS = {
    BOOL: "write a comparison such as `count(pile) == 0` or `x > 2`",
    NUMBER: "give a number, or a constant whose value is a number",
}


def _shown(value) -> str:
    """A constant's value in an error, when it is short: ` ("2")`."""
    if isinstance(value, dict) and "value" in value and "by_players" not in value:
        value = value["value"]
    if isinstance(value, (dict, list)) or value is None:
        return ""
    text = json.dumps(value, ensure_ascii=False)
    return f" ({text})" if len(text) <= 40 else ""


class _Nowhere:
    """The snippet of a silent check: its reports are dropped, so they need no place."""

    what = ""

    def loc(self, node):
        return None


class TypeChecker:
    def __init__(self, vocab: Vocabulary, errors: list):
        self.vocab = vocab
        self.errors = errors
        self._returns: list | None = None  # while inferring a function's type: the types its `return`s give
        self._constants_read: dict = {}  # id(Name node) -> the constant it reads, in the snippet being checked
        # id(Attr node) -> (node, the type of its receiver), in the snippet being checked: which class test the
        # compiler writes first (dsl/fast_reads.py); a hint only, since a "thing" may still be none at run time
        self.receivers: dict = {}
        self._in_loop_pass = False

    def function_type(self, name: str):
        """What a ruleset function returns: its `value`'s type, or the one type every `return` of a `do`
        gives when the body ends with a `return`; unknown otherwise (and while it is being worked out)."""
        known = self.vocab.function_types
        if name in known:
            return known[name]
        info = self.vocab.functions.get(name)
        if info is None or not info.body:
            return ANY
        known[name] = ANY  # a recursive call is unknown
        silent = TypeChecker(self.vocab, [])  # the function's own mistakes are reported where it is compiled
        silent._returns = []
        silent._stmts(info.body, _Nowhere(), {p: ANY for p in info.params})
        last = info.body[-1]
        ends = isinstance(last, ast.Return) and last.value is not None
        result = join_all(silent._returns) if ends and None not in silent._returns else ANY
        known[name] = result
        return result

    def report(self, message, snippet, node, hint=None, code="type", culprits=()):
        """One error at ``node``; or, when one of ``culprits`` (``(node, wanted type)``) is a constant, at the
        constant's value, naming the use: the value is what was written wrong (`rounds: "six"`), in this
        file or in another (a variant's)."""
        where = snippet.loc(node)
        for culprit, want in culprits:
            name = self._constants_read.get(id(culprit)) if culprit is not None else None
            at = self.vocab.constant_locs.get(name) if name is not None else None
            use = (snippet.loc(culprit) or where) if at is not None else None
            if use is None:
                continue
            value = _shown(self.vocab.raw_constants.get(name))
            self.errors.append(DslError(
                f"constant '{name}' is {article(self.vocab.constants[name])}{value} but {use} uses it as "
                f"{article(want)} ({message})", at, "give the constant a value of that type", code=code))
            return
        self.errors.append(DslError(message, where, hint, code=code))

    # -- statements -----------------------------------------------------------

    def block(self, body, snippet, local_types: dict):
        self._constants_read = {}   # the nodes of one snippet at a time: ids are not reused while it lives
        self.receivers = {}
        types = dict(local_types)
        self._stmts(body, snippet, types)

    def _stmts(self, body, sn, types):
        for s in body:
            if isinstance(s, ast.Assign):
                t = self._type(s.value, sn, types)
                if isinstance(s.target, ast.Name):
                    name = s.target.id
                    if s.op is None and name not in self.vocab.globals:
                        old = types.get(name)
                        types[name] = t if old is None else join(old, t)
                    elif s.op is None and name not in types:
                        self._assignable(f"variable '{name}'", self.vocab.globals.get(name, ANY), t, sn, s)
                else:
                    held = self._type(s.target, sn, types)
                    if s.op is None and isinstance(s.target, ast.Attr):
                        self._assignable(f"'{s.target.name}'", held, t, sn, s)
                if s.op is not None:
                    self._arith(s.op, self._type(s.target, sn, types), t, sn, s, (s.target, s.value))
            elif isinstance(s, ast.ExprStmt):
                self._type(s.expr, sn, types)
            elif isinstance(s, ast.If):
                for cond, body in s.branches:
                    self._condition(self._type(cond, sn, types), "an `if`", sn, cond)
                    self._stmts(body, sn, types)
                self._stmts(s.orelse, sn, types)
            elif isinstance(s, ast.For):
                types[s.var] = element(self._type(s.source, sn, types))
                self._loop_types(s.body, sn, types)
                self._stmts(s.body, sn, types)
            elif isinstance(s, ast.While):
                self._loop_types(s.body, sn, types)
                self._condition(self._type(s.cond, sn, types), "a `while`", sn, s.cond)
                self._stmts(s.body, sn, types)
            elif isinstance(s, ast.Return):
                t = self._type(s.value, sn, types) if s.value is not None else None
                if self._returns is not None:
                    self._returns.append(t)

    def _loop_types(self, body, sn, types):
        """A loop's body may run again with what its end assigned: its locals' types joined over one silent
        pass first, so `x = top(deck)` … `x = "stop"` inside a loop leaves `x` unknown at its top too."""
        if self._in_loop_pass:   # one silent pass per loop, not one per loop around it: no 2^depth
            return
        errors, returns = self.errors, self._returns
        self.errors, self._returns, self._in_loop_pass = [], None, True
        try:
            self._stmts(body, sn, types)
        finally:
            self.errors, self._returns, self._in_loop_pass = errors, returns, False

    def _condition(self, t, what, sn, node):
        if not fits(t, BOOL):
            self.report(f"the condition of {what} must be true or false, but this is {article(t)}", sn, node,
                        _FIX_HINTS[BOOL], code="type", culprits=[(node, BOOL)])

    def _assignable(self, what, held, t, sn, node):
        if not fits(t, held) and t != NONE:
            self.report(f"{what} holds {article(held)}; this assigns {article(t)}", sn, node,
                        "assign a value of the same type, or change the variable's `initial`", code="type",
                        culprits=[(node.value, held)])

    # -- expressions -----------------------------------------------------------

    def expr(self, n, sn, types):
        """The type of a whole snippet expression; also checks it fits where it stands (``sn.what``)."""
        self._constants_read = {}
        self.receivers = {}
        t = self._type(n, sn, types)
        want = expected_type(getattr(sn, "what", ""))
        if want is not None and not fits(t, want):
            self.report(f"the {sn.what} must be {article(want)}, but this is {article(t)}", sn, n,
                        _FIX_HINTS.get(want), code="type", culprits=[(n, want)])
        return t

    def _type(self, n, sn, types):
        if n.__class__ is ast.Call:   # the commonest node, tested last below: by class first
            return self._call(n, sn, types)
        if isinstance(n, ast.Const):
            return value_type(n.value) if n.value is not None else NONE
        if isinstance(n, ast.Name):
            if n.id in types:
                return types[n.id]
            if n.id in self.vocab.globals:
                return self.vocab.globals[n.id]
            if n.id in self.vocab.constants:
                self._constants_read[id(n)] = n.id
                return self.vocab.constants[n.id]
            if n.id in ("players", "all_players", "winners"):
                return ("list", PLAYER)
            if n.id == "num_players":
                return NUMBER
            if n.id == "game_over":
                return BOOL
            if n.id in self.vocab.zone_names:
                return ZONE
            return ANY
        if isinstance(n, ast.Attr):
            obj = self._type(n.obj, sn, types)
            seen = self.receivers.get(id(n))   # a loop's body is checked twice: one type in both, or none
            self.receivers[id(n)] = (n, obj if seen is None or seen[1] == obj else ANY)
            return self._attr(obj, n, sn)
        if isinstance(n, ast.Index):
            obj = self._type(n.obj, sn, types)
            self._type(n.index, sn, types)
            if isinstance(obj, MapOf):
                return obj.value
            return element(obj) if isinstance(obj, tuple) else ANY
        if isinstance(n, ast.BinOp):
            return self._arith(n.op, self._type(n.left, sn, types), self._type(n.right, sn, types), sn, n,
                               (n.left, n.right))
        if isinstance(n, ast.Neg):
            t = self._type(n.operand, sn, types)
            if t in REFS or t == TEXT:
                self.report(f"cannot negate {article(t)}", sn, n, culprits=[(n.operand, NUMBER)])
            return NUMBER
        if isinstance(n, ast.Not):
            self._type(n.operand, sn, types)
            return BOOL
        if isinstance(n, ast.BoolOp):
            left = self._type(n.left, sn, types)
            right = self._type(n.right, sn, types)
            return join(left, right)
        if isinstance(n, ast.Compare):
            left, first = self._type(n.first, sn, types), n.first
            for op, other in n.rest:
                right = self._type(other, sn, types)
                self._compare(op, left, right, sn, n, (first, other))
                left, first = right, other
            return BOOL
        if isinstance(n, ast.IfExp):
            self._type(n.cond, sn, types)
            a, b = self._type(n.then, sn, types), self._type(n.other, sn, types)
            return join(a, b)
        if isinstance(n, ast.ListLit):
            return ("list", join_all(self._type(i, sn, types) for i in n.items))
        if isinstance(n, ast.Comprehension):
            inner = dict(types)
            inner[n.var] = element(self._type(n.source, sn, types))
            if n.cond is not None:
                self._type(n.cond, sn, inner)
            return ("list", self._type(n.elt, sn, inner))
        if isinstance(n, ast.Call):
            return self._call(n, sn, types)
        return ANY

    def _attr(self, obj, n, sn):
        name = n.name
        table, what = {THING: (self.vocab.thing_attrs, "card or piece"), ZONE: (self.vocab.zone_attrs, "zone"),
                       PLAYER: (self.vocab.player_attrs, "player")}.get(obj, (None, None))
        if table is None:
            if obj in (NUMBER, TEXT, BOOL, NONE) or isinstance(obj, tuple):
                self.report(f"{article(obj)} has no attribute '{name}'", sn, n, code="unknown-attribute")
                return ANY
            if isinstance(obj, MapOf):
                if name in obj.keys:
                    return obj.value
                self.report(f"this table has no key '{name}'", sn, n, did_you_mean(name, obj.keys),
                            code="unknown-attribute")
                return ANY
            # unknown: still nothing may have an attribute that nothing of the ruleset declares
            every = self.vocab.any_attrs
            if obj == ANY and name not in every:
                self.report(f"no card, piece, zone or player of this ruleset has an attribute '{name}'", sn, n,
                            did_you_mean(name, every), code="unknown-attribute")
            return every.get(name, ANY) if obj == ANY else ANY
        if name not in table:
            self.report(f"no {what} in this ruleset has an attribute '{name}'", sn, n,
                        did_you_mean(name, table), code="unknown-attribute")
            return ANY
        own = self.vocab.kind_attrs.get(obj.kind) if isinstance(obj, ThingOf) else None
        if own is not None:
            if name not in own:
                self.report(f"a '{obj.kind}' has no attribute '{name}' (other kinds of things have it)", sn, n,
                            did_you_mean(name, own), code="unknown-attribute")
                return ANY
            return own[name]
        return table[name]

    def _arith(self, op, left, right, sn, n, nodes=(None, None)):
        def blame(side):   # the operand that is not a number (or text, for `+` with text)
            other = right if side is left else left
            return [(nodes[0] if side is left else nodes[1], TEXT if op == "+" and other == TEXT else NUMBER)]
        for side in (left, right):
            if side in REFS or side in (MAP, NONE) or side == BOOL and op != "+" \
                    or isinstance(side, tuple) and op not in ("+", "*"):   # [0] * 3 repeats a list
                self.report(f"'{op}' needs numbers, not {article(side)}", sn, n, culprits=blame(side))
                return ANY
        if op == "+" and isinstance(left, tuple) and isinstance(right, tuple):
            return ("list", join(left[1], right[1]))   # [card] + ["stop"]: a list of either
        if op in ("+", "*") and (isinstance(left, tuple) or isinstance(right, tuple)):
            return left if isinstance(left, tuple) else right
        if op == "+" and TEXT in (left, right):
            if {left, right} - {TEXT, ANY}:
                odd = left if left not in (TEXT, ANY) else right
                self.report(f"cannot add {article(left)} and {article(right)}", sn, n,
                            "text(x) turns a number into text; to compare, use ==",
                            culprits=blame(left if left == TEXT else right) + blame(odd))
                return ANY  # reported once: the value's use is not a second error
            return TEXT
        if TEXT in (left, right):
            self.report(f"'{op}' needs numbers, not text", sn, n, culprits=blame(left if left == TEXT else right))
            return ANY
        return NUMBER

    def _compare(self, op, left, right, sn, n, nodes=(None, None)):
        if ANY in (left, right) or NONE in (left, right):
            return
        culprits = [(nodes[0], right), (nodes[1], left)]
        if op in ("in", "not in"):
            if right in (NUMBER, BOOL) or right in (PLAYER, THING):
                self.report(f"'{op}' needs a list or a zone on its right, not {article(right)}", sn, n,
                            culprits=[(nodes[1], ("list", left))])
            elif isinstance(right, tuple) and right[1] not in (ANY, NONE) and left != right[1] \
                    and not (isinstance(left, tuple) and isinstance(right[1], tuple)):
                self.report(f"looking for {article(left)} in {article(right)} is always "
                            f"{'false' if op == 'in' else 'true'}", sn, n,
                            culprits=[(nodes[0], right[1]), (nodes[1], ("list", left))])
            return
        if left == right or (isinstance(left, tuple) and isinstance(right, tuple)):
            if op not in ("==", "!=") and left in (PLAYER, ZONE):
                self.report(f"'{op}' cannot order {describe(left)}s", sn, n)
            return
        self.report(f"comparing {article(left)} with {article(right)} is always "
                    f"{'false' if op == '==' else 'an error' if op != '!=' else 'true'}", sn, n, culprits=culprits)

    def _call(self, n, sn, types):
        name = n.func.id if isinstance(n.func, ast.Name) else None
        arg_types = []
        first = ANY
        for i, a in enumerate(n.args):
            if isinstance(a, ast.Lambda):
                inner = dict(types)
                inner[a.param] = element(first) if name in _LAMBDA_OVER_ELEMENTS \
                    else ZONE if name in _LAMBDA_OVER_SPACES and name not in self.vocab.functions else ANY
                self._type(a.body, sn, inner)
                arg_types.append(ANY)
            else:
                t = self._type(a, sn, types)
                arg_types.append(t)
                if i == 0:
                    first = t
        given: dict[int | str, tuple] = dict(zip(range(len(n.args)), zip(n.args, arg_types)))
        for key, v in n.kwargs:
            if isinstance(v, ast.Lambda):
                inner = dict(types)
                over = arg_types[1] if name == "choose" and len(arg_types) > 1 else first   # label=o -> …
                inner[v.param] = element(over) if name in _LAMBDA_OVER_ELEMENTS or name == "choose" else ANY
                self._type(v.body, sn, inner)
            else:
                given[key] = (v, self._type(v, sn, types))
        if name is not None and name not in self.vocab.functions:
            for position, param in _NUMBER_ARGS.get(name, ()):
                arg, t = given.get(position) or given.get(param) or (None, ANY)
                if not fits(t, NUMBER) and t != NONE:
                    self.report(f"{name}() needs a number as its {param}, but this is {article(t)}", sn, arg,
                                _FIX_HINTS[NUMBER], culprits=[(arg, NUMBER)])
        literal = n.args[0].value if n.args and isinstance(n.args[0], ast.Const) \
            and isinstance(n.args[0].value, str) else None
        if name == "things" and literal is not None and literal in self.vocab.kind_attrs:
            return ("list", ThingOf(literal))
        if name == "thing" and literal is not None:
            kind = self.vocab.kind_of_id(literal if len(n.args) == 1 else literal + "@0")
            return ThingOf(kind) if kind is not None else THING
        if name is not None and name in self.vocab.functions:
            return self.function_type(name)
        if name in _RETURNS:
            return _RETURNS[name]
        if name in _ELEMENT_OF_ARG:
            return ("list", element(first))
        if name == "choose" and len(arg_types) > 1 and name not in self.vocab.functions:
            return element(arg_types[1])   # one of the options
        if name in ("first", "last", "pick_random", "roll"):
            return element(first)
        if name in ("min", "max"):
            return element(first) if len(n.args) == 1 else ANY
        return ANY
