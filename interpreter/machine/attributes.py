"""Readers for ``obj.name``, one per attribute name, made when a ruleset is compiled.

The generic ``Game.get_attr`` asks what kind of object it was given and then
searches every place an attribute can live. A rule's ``t.kind`` or
``p.score`` names its attribute in the source, so the compiler asks
:func:`reader` for a function specialised to that name: it checks the
object's class once, looks in the same places in the same order (dynamic
properties, then printed attributes, then declared defaults, then the
built-in ones), and answers the common built-ins (a thing's ``id``, ``kind`` and ``name``, a player's
``seat``) without a further call. Anything unusual goes to ``get_attr``, so
both always agree.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .values import PlayerRef, ThingRef, ZoneRef

if TYPE_CHECKING:
    from .host import GameHost

# The one table of what every thing, zone or player answers itself, with the type the static checker gives
# it (dsl/vocabulary.py); play/runtime.py's *_builtin answer exactly these names (tests/test_attribute_table.py),
# dsl/fast_reads.py writes reads of them out, dsl/state_free.py tells the fixed ones from the moving ones.
# Where a name lives otherwise (props, then printed attributes, then declared defaults, then these: a
# property declared with a built-in's name, like a die's `holder`, replaces that built-in) is read in one
# place: ``reader`` below, which ``get_attr`` also uses.
THING_BUILTIN_TYPES = {"id": "text", "kind": "text", "name": "text", "zone": "zone", "owner": "player",
                       "holder": "player", "position": "number", "face_up": "bool"}
ZONE_BUILTIN_TYPES = {"count": "number", "things": ("list", "thing"), "empty": "bool", "top": "thing",
                      "bottom": "thing", "id": "text", "name": "text", "owner": "player", "capacity": "number",
                      "full": "bool", "free": "number", "seats": ("list", "any"), "removed": "bool"}
PLAYER_BUILTIN_TYPES = {"seat": "number", "name": "text", "out": "bool", "next": "player"}
THING_BUILTINS = frozenset(THING_BUILTIN_TYPES)
ZONE_BUILTINS = frozenset(ZONE_BUILTIN_TYPES)
PLAYER_BUILTINS = frozenset(PLAYER_BUILTIN_TYPES)
THING_FIELDS = ("id", "kind", "name")   # kept on the ThingRef itself
ENGINE_PROPS = frozenset({"known_to"})  # kept in a thing's props by the engine itself (who was shown it)

_readers: dict = {}
MAX_READERS = 4096   # names come from rule texts, but a primitive may be given a name made while playing


def reader(name: str):
    """``read(g, obj, loc)``: the value of ``obj.<name>``, as ``g.get_attr(obj, name, loc)`` gives it."""
    found = _readers.get(name)
    if found is None:
        found = _make(name)
        if len(_readers) < MAX_READERS:
            _readers[name] = found
    return found


def _make(name: str):
    field_of_thing = name in THING_FIELDS
    zone_builtin_name = name in ZONE_BUILTINS
    seat = name == "seat"

    def read(g: GameHost, o, loc):
        cls = o.__class__
        if cls is ThingRef:
            props = g.state.props[o.id]
            if name in props:
                return props[name]
            attrs = o.attrs
            if name in attrs:
                return attrs[name]
            defaults = g.ruleset.thing_props   # before the built-ins: a declared property replaces one of its name
            if name in defaults:
                return defaults[name]
            if field_of_thing:
                return getattr(o, name)
            return g.thing_builtin(o, name, loc)
        if cls is PlayerRef:
            pv = g.state.pvars[o.seat]
            if name in pv:
                return pv[name]
            zone = g.table.seat_zones.get((name, o.seat))
            if zone is not None:
                return zone
            if seat:
                return o.seat
            return g.player_builtin(o, name, loc)
        if cls is ZoneRef:
            zp = g.state.zprops.get(o.id)
            if zp and name in zp:
                return zp[name]
            attrs = o.attrs
            if name in attrs:
                return attrs[name]
            if zone_builtin_name:   # a declared property replaces the built-in of its name (zone_builtin
                defaults = g.ruleset.zone_props   # looks at the other declared names last)
                if name in defaults:
                    return defaults[name]
            return g.zone_builtin(o, name, loc)
        return g.get_attr(o, name, loc)

    return read
