"""A light static type check of DSL snippets, run before they are compiled.

Types are coarse on purpose: ``number``, ``text``, ``bool``, ``none``,
``player``, ``thing``, ``zone``, ``("list", elem)``, ``map`` and ``any``
(unknown, never an error). The checker catches what designers actually get
wrong: comparing a number with a card, arithmetic on a card, an attribute
that no thing / player / zone of the ruleset has. It never guesses: whenever
a type is not certain it is ``any`` and nothing is reported.
"""
from __future__ import annotations

from ..errors import DslError, did_you_mean
from ..machine.values import resolve_constant
from . import ast

ANY = "any"
NUMBER, TEXT, BOOL, NONE = "number", "text", "bool", "none"
PLAYER, THING, ZONE, MAP = "player", "thing", "zone", "map"
REFS = (PLAYER, THING, ZONE)


class ThingOf(str):
    """The type of a thing whose kind is known: equal to ``THING`` everywhere, and it knows its kind.

    ``things("card")``, ``thing("card-5.1")`` and what is drawn from them have it, so an
    attribute that no thing of that kind has is reported even when another kind has it.
    """

    __slots__ = ("kind",)

    def __new__(cls, kind: str):
        obj = super().__new__(cls, THING)
        obj.kind = kind
        return obj

THING_BUILTINS = {"id": TEXT, "kind": TEXT, "name": TEXT, "zone": ZONE, "owner": PLAYER, "holder": PLAYER,
                  "position": NUMBER, "face_up": BOOL}
ZONE_BUILTINS = {"count": NUMBER, "things": ("list", THING), "empty": BOOL, "top": THING, "bottom": THING,
                 "id": TEXT, "name": TEXT, "owner": PLAYER, "capacity": NUMBER, "full": BOOL, "free": NUMBER,
                 "seats": ("list", ANY), "removed": BOOL}
PLAYER_BUILTINS = {"seat": NUMBER, "name": TEXT, "out": BOOL, "next": PLAYER}

# built-ins whose lambda is applied to the items of their first argument (elsewhere a lambda's
# parameter is unknown: e.g. a movement helper's lambdas take spaces, not the pawn's zone's things)
_LAMBDA_OVER_ELEMENTS = {"count", "min", "max", "any", "all", "filter", "sorted", "first", "last", "lowest",
                         "highest", "sum"}
_ELEMENT_OF_ARG = {"filter", "sorted", "lowest", "highest", "list"}
_RETURNS = {
    "count": NUMBER, "sum": NUMBER, "any": BOOL, "all": BOOL, "range": ("list", NUMBER), "abs": NUMBER,
    "text": TEXT, "zone": ZONE, "space": ZONE, "thing": THING, "things": ("list", THING), "player": PLAYER,
    "top": THING, "bottom": THING, "next_player": PLAYER, "turn_order": ("list", PLAYER),
    "neighbours": ("list", ZONE), "spaces": ("list", ZONE), "can_enter": BOOL, "refusal": TEXT, "reachable": ("list", ZONE), "path": ("list", ZONE), "distance": NUMBER,
}


def value_type(value):
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, (int, float)):
        return NUMBER
    if isinstance(value, str):
        return TEXT
    if value is None:
        return ANY  # an unset variable: unknown until assigned
    if isinstance(value, list):
        kinds = {value_type(v) for v in value}
        return ("list", kinds.pop() if len(kinds) == 1 else ANY)
    if isinstance(value, dict):
        return MAP
    return ANY


def join(a, b):
    """The type of a value that is either an ``a`` or a ``b``."""
    if a != b:
        return ANY
    if isinstance(a, ThingOf) or isinstance(b, ThingOf):
        same = isinstance(a, ThingOf) and isinstance(b, ThingOf) and a.kind == b.kind
        return a if same else THING
    if isinstance(a, tuple) and isinstance(b, tuple):
        return ("list", join(a[1], b[1]))
    return a


def join_all(types):
    out = None
    for t in types:
        out = t if out is None else join(out, t)
    return ANY if out is None else out


def fits(t, want) -> bool:
    """May a value of static type ``t`` stand where ``want`` is needed? Unknown types always may."""
    if t == ANY or want == ANY or t == want:
        return True
    if isinstance(t, tuple) and isinstance(want, tuple):
        return fits(t[1], want[1])
    return False


def article(t) -> str:
    text = describe(t)
    if isinstance(t, tuple) or t in (BOOL, MAP):
        return f"a {text}" if t != BOOL else "a true/false value"
    return f"{'an' if text[0] in 'aeiou' else 'a'} {text}" if t != TEXT else "text"


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


class _Nowhere:
    """The snippet of a silent check: its reports are dropped, so they need no place."""

    what = ""

    def loc(self, node):
        return None


def declaration_errors(data) -> list:
    """Declared ranges that contradict themselves: players min > max, an initial value outside min..max."""
    from ..errors import RulesetError
    out = []
    players = data.get("players") or {}
    if isinstance(players, dict) and _num(players.get("min")) and _num(players.get("max")) \
            and players["min"] > players["max"]:
        out.append(RulesetError(f"players: min {players['min']} is above max {players['max']}",
                                players.loc_of("min"), "swap them, or raise max", code="range"))
    sections = [("variable", data.get("variables") or {}),
                ("player variable", ((data.get("player") or {}).get("vars") or {}))]
    for what, table in sections:
        for name, spec in table.items() if isinstance(table, dict) else ():
            if not isinstance(spec, dict):
                continue
            low, high, initial = spec.get("min"), spec.get("max"), spec.get("initial", 0 if what != "variable" else None)
            where = spec.loc_of("initial") if "initial" in spec else spec.loc
            if _num(low) and _num(high) and low > high:
                out.append(RulesetError(f"{what} '{name}': min {low} is above max {high}", spec.loc_of("min"),
                                        "swap them", code="range"))
            elif _num(initial) and ((_num(low) and initial < low) or (_num(high) and initial > high)):
                out.append(RulesetError(f"{what} '{name}' starts at {initial}, outside its range "
                                        f"{low if _num(low) else '…'}..{high if _num(high) else '…'}", where,
                                        "change `initial`, `min` or `max`", code="range"))
    return out


def _num(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def element(t):
    if isinstance(t, tuple) and t[0] == "list":
        return t[1]
    if t == ZONE:
        return THING
    return ANY


def describe(t) -> str:
    if isinstance(t, ThingOf):
        return f"'{t.kind}' card or piece"
    if isinstance(t, tuple):
        return f"list of {describe(t[1])}" if t[1] != ANY else "list"
    return {THING: "card or piece", ZONE: "zone", PLAYER: "player", NUMBER: "number", TEXT: "text",
            BOOL: "true/false", MAP: "table"}.get(t, t)


class Vocabulary:
    """What the ruleset declares: attribute names and their types, for the checker."""

    def __init__(self, env, rs):
        self.thing_attrs: dict = dict(THING_BUILTINS)
        self.kind_attrs: dict = {}    # kind -> its own attributes (with the builtins and props)
        self.def_kinds: dict = {}     # thing definition id -> kind
        for tdef in rs.things:
            kind = str(tdef.get("kind", tdef.get("id")))
            self.def_kinds[str(tdef.get("id"))] = kind
            own = self.kind_attrs.setdefault(kind, dict(THING_BUILTINS))
            for name, value in (tdef.get("attrs") or {}).items():
                self._add(self.thing_attrs, name, value_type(value))
                self._add(own, name, value_type(value))
            for name, values in (tdef.get("each") or {}).items():
                t = value_type(values[0]) if values else ANY
                self._add(self.thing_attrs, name, t)
                self._add(own, name, t)
        for name, value in rs.thing_props.items():
            self._add(self.thing_attrs, name, value_type(value))
            for own in self.kind_attrs.values():
                self._add(own, name, value_type(value))
        self.zone_attrs: dict = dict(ZONE_BUILTINS)
        for zdef in rs.zones.values():
            for name, value in zdef.attrs.items():
                self._add(self.zone_attrs, name, value_type(value))
        for name, value in rs.zone_props.items():
            self._add(self.zone_attrs, name, value_type(value))
        self.player_attrs: dict = dict(PLAYER_BUILTINS)
        for name, spec in rs.player_vars.items():
            self.player_attrs[name] = value_type(spec.initial)
        for zid, zdef in rs.zones.items():
            if zdef.per_player:
                self.player_attrs[zid] = ZONE
        self.globals = {name: value_type(v) for name, v in rs.globals.items()}
        self.constants = {}
        for name, raw in rs.constants.items():
            self.constants[name] = value_type(resolve_constant(raw, rs.min_players))
        self.functions = dict(getattr(env, "functions", {}) or {})   # name -> FunctionInfo (with its body)
        self.function_types: dict = {}

    def kind_of_id(self, thing_id: str):
        """The kind of the thing with this literal id (its definition's id, then `-`, `.` or `@` parts)."""
        best = None
        for def_id in self.def_kinds:
            if thing_id == def_id or (thing_id.startswith(def_id) and thing_id[len(def_id)] in "-.@"):
                if best is None or len(def_id) > len(best):
                    best = def_id
        return self.def_kinds.get(best) if best is not None else None

    @staticmethod
    def _add(table, name, t):
        old = table.get(name)
        table[name] = t if old is None or old == t else ANY


class TypeChecker:
    def __init__(self, vocab: Vocabulary, errors: list):
        self.vocab = vocab
        self.errors = errors
        self._returns = None  # while inferring a function's type: the types its `return`s give

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

    def report(self, message, snippet, node, hint=None, code="type"):
        self.errors.append(DslError(message, snippet.loc(node), hint, code=code))

    # -- statements -----------------------------------------------------------

    def block(self, body, snippet, local_types: dict):
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
                    self._arith(s.op, self._type(s.target, sn, types), t, sn, s)
            elif isinstance(s, ast.ExprStmt):
                self._type(s.expr, sn, types)
            elif isinstance(s, ast.If):
                for cond, body in s.branches:
                    self._condition(self._type(cond, sn, types), "an `if`", sn, cond)
                    self._stmts(body, sn, types)
                self._stmts(s.orelse, sn, types)
            elif isinstance(s, ast.For):
                types[s.var] = element(self._type(s.source, sn, types))
                self._stmts(s.body, sn, types)
            elif isinstance(s, ast.While):
                self._condition(self._type(s.cond, sn, types), "a `while`", sn, s.cond)
                self._stmts(s.body, sn, types)
            elif isinstance(s, ast.Return):
                t = self._type(s.value, sn, types) if s.value is not None else None
                if self._returns is not None:
                    self._returns.append(t)

    def _condition(self, t, what, sn, node):
        if not fits(t, BOOL):
            self.report(f"the condition of {what} must be true or false, but this is {article(t)}", sn, node,
                        _FIX_HINTS[BOOL], code="type")

    def _assignable(self, what, held, t, sn, node):
        if not fits(t, held) and t != NONE:
            self.report(f"{what} holds {article(held)}; this assigns {article(t)}", sn, node,
                        "assign a value of the same type, or change the variable's `initial`", code="type")

    # -- expressions -----------------------------------------------------------

    def expr(self, n, sn, types):
        """The type of a whole snippet expression; also checks it fits where it stands (``sn.what``)."""
        t = self._type(n, sn, types)
        want = expected_type(getattr(sn, "what", ""))
        if want is not None and not fits(t, want):
            self.report(f"the {sn.what} must be {article(want)}, but this is {article(t)}", sn, n,
                        _FIX_HINTS.get(want), code="type")
        return t

    def _type(self, n, sn, types):
        if isinstance(n, ast.Const):
            return value_type(n.value) if n.value is not None else NONE
        if isinstance(n, ast.Name):
            if n.id in types:
                return types[n.id]
            if n.id in self.vocab.globals:
                return self.vocab.globals[n.id]
            if n.id in self.vocab.constants:
                return self.vocab.constants[n.id]
            if n.id in ("players", "all_players", "winners"):
                return ("list", PLAYER)
            if n.id == "num_players":
                return NUMBER
            if n.id == "game_over":
                return BOOL
            return ANY
        if isinstance(n, ast.Attr):
            return self._attr(self._type(n.obj, sn, types), n, sn)
        if isinstance(n, ast.Index):
            obj = self._type(n.obj, sn, types)
            self._type(n.index, sn, types)
            return element(obj) if isinstance(obj, tuple) else ANY
        if isinstance(n, ast.BinOp):
            return self._arith(n.op, self._type(n.left, sn, types), self._type(n.right, sn, types), sn, n)
        if isinstance(n, ast.Neg):
            t = self._type(n.operand, sn, types)
            if t in REFS or t == TEXT:
                self.report(f"cannot negate a {describe(t)}", sn, n)
            return NUMBER
        if isinstance(n, ast.Not):
            self._type(n.operand, sn, types)
            return BOOL
        if isinstance(n, ast.BoolOp):
            left = self._type(n.left, sn, types)
            right = self._type(n.right, sn, types)
            return join(left, right)
        if isinstance(n, ast.Compare):
            left = self._type(n.first, sn, types)
            for op, other in n.rest:
                right = self._type(other, sn, types)
                self._compare(op, left, right, sn, n)
                left = right
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
                self.report(f"a {describe(obj)} has no attribute '{name}'", sn, n, code="unknown-attribute")
            return ANY
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

    def _arith(self, op, left, right, sn, n):
        for side in (left, right):
            if side in REFS or side == BOOL and op != "+":
                self.report(f"'{op}' needs numbers, not a {describe(side)}", sn, n)
                return ANY
        if op == "+" and (isinstance(left, tuple) or isinstance(right, tuple)):
            return left if isinstance(left, tuple) else right
        if op == "+" and TEXT in (left, right):
            if {left, right} - {TEXT, ANY}:
                self.report(f"cannot add {article(left)} and {article(right)}", sn, n,
                            "text(x) turns a number into text; to compare, use ==")
                return ANY  # reported once: the value's use is not a second error
            return TEXT
        if TEXT in (left, right):
            self.report(f"'{op}' needs numbers, not text", sn, n)
            return ANY
        return NUMBER

    def _compare(self, op, left, right, sn, n):
        if ANY in (left, right) or NONE in (left, right):
            return
        if op in ("in", "not in"):
            if right in (NUMBER, BOOL) or right in (PLAYER, THING):
                self.report(f"'{op}' needs a list or a zone on its right, not a {describe(right)}", sn, n)
            return
        if left == right or (isinstance(left, tuple) and isinstance(right, tuple)):
            if op not in ("==", "!=") and left in (PLAYER, ZONE):
                self.report(f"'{op}' cannot order {describe(left)}s", sn, n)
            return
        self.report(f"comparing a {describe(left)} with a {describe(right)} is always "
                    f"{'false' if op == '==' else 'an error' if op != '!=' else 'true'}", sn, n)

    def _call(self, n, sn, types):
        name = n.func.id if isinstance(n.func, ast.Name) else None
        arg_types = []
        first = ANY
        for i, a in enumerate(n.args):
            if isinstance(a, ast.Lambda):
                inner = dict(types)
                inner[a.param] = element(first) if name in _LAMBDA_OVER_ELEMENTS else ANY
                self._type(a.body, sn, inner)
                arg_types.append(ANY)
            else:
                t = self._type(a, sn, types)
                arg_types.append(t)
                if i == 0:
                    first = t
        for _, v in n.kwargs:
            if isinstance(v, ast.Lambda):
                inner = dict(types)
                inner[v.param] = element(first) if name in _LAMBDA_OVER_ELEMENTS else ANY
                self._type(v.body, sn, inner)
            else:
                self._type(v, sn, types)
        literal = n.args[0].value if n.args and isinstance(n.args[0], ast.Const) \
            and isinstance(n.args[0].value, str) else None
        if name == "things" and literal is not None and literal in self.vocab.kind_attrs:
            return ("list", ThingOf(literal))
        if name == "thing" and literal is not None:
            kind = self.vocab.kind_of_id(literal if len(n.args) == 1 else literal + "@0")
            return ThingOf(kind) if kind is not None else THING
        if name in self.vocab.functions:
            return self.function_type(name)
        if name in _RETURNS:
            return _RETURNS[name]
        if name in _ELEMENT_OF_ARG:
            return ("list", element(first))
        if name in ("first", "last", "pick_random", "roll"):
            return element(first)
        if name in ("min", "max"):
            return element(first) if len(n.args) == 1 else ANY
        return ANY
