"""Runtime values of the DSL: references to players, things and zones.

Numbers, strings, booleans, ``none`` and lists are plain Python values. The
references are tiny interned objects made once per game table, so comparing
them is cheap and the state itself only ever stores ids. Equal references are nearly always the
same object, so ``==`` asks identity first; no class derives from them, so the
class is compared, not tested with ``isinstance``.
"""
from __future__ import annotations


class PlayerRef:
    __slots__ = ("seat",)

    def __init__(self, seat: int):
        self.seat = seat

    def __eq__(self, other):
        return other is self or (other.__class__ is PlayerRef and other.seat == self.seat)

    def __hash__(self):
        return hash(("p", self.seat))

    def __repr__(self):
        return f"player({self.seat})"


class ThingRef:
    """A card, piece or token; ``attrs`` are its static attributes."""

    __slots__ = ("id", "kind", "attrs", "public", "owner", "name", "def_id", "back")

    def __init__(self, id: str, kind: str, attrs: dict, public: frozenset, owner: int | None, name: str,
                 def_id: str = "", back: str | None = None):
        self.id = id
        self.def_id = def_id or id
        self.kind = kind
        self.back = back or kind   # what everyone sees of it face down
        self.attrs = attrs
        self.public = public
        self.owner = owner
        self.name = name

    def __eq__(self, other):
        return other is self or (other.__class__ is ThingRef and other.id == self.id)

    def __hash__(self):
        return hash(("t", self.id))

    def __lt__(self, other):
        return self.id < other.id

    def __repr__(self):
        return f"thing({self.id!r})"


class ZoneRef:
    """A place things can be: a deck, a hand, a board space, a container."""

    __slots__ = ("id", "defn", "owner", "attrs", "name")

    def __init__(self, id: str, defn, owner: int | None, attrs: dict, name: str):
        self.id = id
        self.defn = defn
        self.owner = owner
        self.attrs = attrs
        self.name = name

    def __eq__(self, other):
        return other is self or (other.__class__ is ZoneRef and other.id == self.id)

    def __hash__(self):
        return hash(("z", self.id))

    def __lt__(self, other):
        return self.id < other.id

    def __repr__(self):
        return f"zone({self.id!r})"


REF_TYPES = (PlayerRef, ThingRef, ZoneRef)


def type_name(value) -> str:
    """The DSL's name for the type of a value (used in error messages)."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "text"
    if value is None:
        return "none"
    if isinstance(value, list):
        return "list"
    if isinstance(value, PlayerRef):
        return "player"
    if isinstance(value, ThingRef):
        return value.kind
    if isinstance(value, ZoneRef):
        return "zone"
    return type(value).__name__


def encode(value):
    """A value as JSON data (references become ``{"player": n}`` etc.)."""
    if isinstance(value, PlayerRef):
        return {"player": value.seat}
    if isinstance(value, ThingRef):
        return {"thing": value.id}
    if isinstance(value, ZoneRef):
        return {"zone": value.id}
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {"map": {k: encode(v) for k, v in value.items()}}
    return value


def decode(data, table):
    """Inverse of :func:`encode`, resolving ids through the game ``table``."""
    if isinstance(data, list):
        return [decode(v, table) for v in data]
    if isinstance(data, dict):
        if len(data) != 1:   # one key says what the value is: another beside it was read past
            raise KeyError(f"unknown value {data!r}")
        if "player" in data:
            return table.players[data["player"]]
        if "thing" in data:
            return table.things[data["thing"]]
        if "zone" in data:
            return table.zones[data["zone"]]
        if "map" in data:
            return {k: decode(v, table) for k, v in data["map"].items()}
        raise KeyError(f"unknown value {data!r}")
    return data


def display(value) -> str:
    """A short human text for a value (narration, prompts)."""
    if isinstance(value, PlayerRef):
        return f"player {value.seat + 1}"
    if isinstance(value, (ThingRef, ZoneRef)):
        return value.name
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, list):
        return "[" + ", ".join(display(v) for v in value) + "]"
    return str(value)


def resolve_constant(value, num_players: int):
    """A constant's value for this player count (``by_players`` tables pick a row)."""
    if isinstance(value, dict) and "by_players" in value:
        table = value["by_players"]
        if num_players in table:
            return table[num_players]
        if str(num_players) in table:
            return table[str(num_players)]
        return value.get("otherwise")
    if isinstance(value, dict) and "value" in value:
        return value["value"]
    return value
