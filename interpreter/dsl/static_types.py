"""The static types of the DSL checker and how they combine.

Types are coarse on purpose: ``number``, ``text``, ``bool``, ``none``,
``player``, ``thing`` (``ThingOf(kind)`` when the kind is known), ``zone``,
``("list", elem)``, ``map`` and ``any`` (unknown, never an error).
"""
from __future__ import annotations

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
    kind: str

    def __new__(cls, kind: str):
        obj = super().__new__(cls, THING)
        obj.kind = kind
        return obj

    def __reduce__(self):   # copied and pickled with its kind
        return ThingOf, (self.kind,)


class MapOf(str):
    """The type of a table whose items are known (a constant's): equal to ``MAP`` everywhere.

    ``value`` is the type every item has (``any`` when they differ), ``keys`` the keys it has; a
    constant never changes, so ``table.x`` for another key is certain to fail.
    """

    __slots__ = ("keys", "value")
    keys: frozenset
    value: str

    def __new__(cls, value, keys):
        obj = super().__new__(cls, MAP)
        obj.value = value
        obj.keys = frozenset(keys)
        return obj

    def __reduce__(self):
        return MapOf, (self.value, self.keys)


def constant_type(value):
    """The type of a constant's value, for every player count (a ``by_players`` table's rows, ``otherwise``
    and a ``{value: …}`` alike): tables as ``MapOf``, lists by the one type all their items have."""
    if isinstance(value, dict) and "by_players" in value and isinstance(value["by_players"], dict):
        rows = list(value["by_players"].values()) + ([value["otherwise"]] if "otherwise" in value else [])
        return join_all(constant_type(v) for v in rows if v is not None)
    if isinstance(value, dict) and "value" in value:
        return constant_type(value["value"])
    if isinstance(value, dict):
        return MapOf(join_all(constant_type(v) for v in value.values()), (str(k) for k in value))
    if isinstance(value, list):
        return ("list", join_all(constant_type(v) for v in value))
    return value_type(value)

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
    if isinstance(a, MapOf) and isinstance(b, MapOf):
        return MapOf(join(a.value, b.value), a.keys | b.keys)
    if isinstance(a, MapOf) or isinstance(b, MapOf):
        return MAP
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

