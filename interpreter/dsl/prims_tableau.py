"""Primitives for ordered zones laid out as a tableau: runs at the end of a zone.

A zone's things are in order, first to last. In a tableau the last thing is
the one that can be reached, and the reachable part is the unbroken stretch of
face-up things at the end (a run). These helpers read such runs without a
loop in the rules. They name no game.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import GameError
from ..machine.attributes import reader
from ..machine.values import ThingRef, ZoneRef, type_name
from .primitives import primitive

if TYPE_CHECKING:
    from ..machine.host import GameHost


def _zone_ids(g: GameHost, zone_, loc, what):
    if not isinstance(zone_, ZoneRef):
        raise GameError(f"{what}() needs a zone, got {type_name(zone_)}", loc)
    return g.state.zones[zone_.id]


@primitive()
def run_from(g: GameHost, loc, zone_, start):
    """run_from(zone, thing): that thing and every thing after it in the zone, in order ([] if it is not there)."""
    ids = _zone_ids(g, zone_, loc, "run_from")
    if not isinstance(start, ThingRef) or start.id not in ids:
        return []
    things = g.table.things
    return [things[t] for t in ids[ids.index(start.id):]]


@primitive()
def face_up_tail(g: GameHost, loc, zones):
    """face_up_tail(zone): the unbroken face-up things at the end of the zone, in order ([] if the last is face down).

    Given a list of zones, the tails of all of them, one after the other.
    """
    if isinstance(zones, list):
        out = []
        for z in zones:
            out.extend(_tail(g, z, loc))
        return out
    return _tail(g, zones, loc)


def _tail(g: GameHost, zone_, loc):
    ids = _zone_ids(g, zone_, loc, "face_up_tail")
    props = g.state.props
    i = len(ids)
    while i > 0 and props[ids[i - 1]].get("face_up", False):
        i -= 1
    things = g.table.things
    return [things[t] for t in ids[i:]]


@primitive()
def stack_targets(g: GameHost, loc, thing_, zones, attr, step, same=None):
    """stack_targets(thing, zones, "value", 1, ["suit"]): the zones whose last thing is face up and continues a
    sequence with the thing.

    A zone qualifies when its last thing's ``attr`` equals the thing's plus
    ``step`` and it agrees with the thing on every attribute named in ``same``.
    Empty zones never qualify. With step 1 the thing may go below a card one
    higher (a descending line); with step -1 on top of one lower (an ascending pile).
    """
    if not isinstance(thing_, ThingRef):
        raise GameError(f"stack_targets() needs a thing, got {type_name(thing_)}", loc)
    read = reader(attr)   # asked of every zone's last thing: the reader made for the name, not get_attr's search
    want = read(g, thing_, loc) + step
    keys = [(name, read_key, read_key(g, thing_, loc)) for name, read_key in ((n, reader(n)) for n in same or [])]
    props = g.state.props
    held = g.state.zones
    things = g.table.things
    found = []
    for z in zones if isinstance(zones, list) else [zones]:
        # _zone_ids and the reader's first two places (the thing's properties, then its printed attributes)
        # written out: asked of every zone of every candidate move (a rule's "where can this card go")
        if z.__class__ is not ZoneRef:
            _zone_ids(g, z, loc, "stack_targets")   # its error
        ids = held[z.id]
        if not ids:
            continue
        last_props = props[ids[-1]]
        if not last_props.get("face_up", False):
            continue
        last = things[ids[-1]]
        if attr in last_props:
            value = last_props[attr]
        else:
            value = last.attrs[attr] if attr in last.attrs else read(g, last, loc)
        if value == want and all(_read(g, last, last_props, name, read_key, loc) == v for name, read_key, v in keys):
            found.append(z)
    return found


def _read(g: GameHost, thing_: ThingRef, props: dict, name: str, read, loc):
    """``read(g, thing_, loc)`` (the reader of ``name``), its first two places looked in here: ``props`` are the
    thing's."""
    if name in props:
        return props[name]
    attrs = thing_.attrs
    if name in attrs:
        return attrs[name]
    return read(g, thing_, loc)
