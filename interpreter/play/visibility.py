"""Who may see what: the visibility rules and the redaction of events.

Visibility is declared once per zone and enforced here for views, logs and
replays alike:

* ``everyone`` — every thing in the zone is open information;
* ``owner``    — face-up things are public, face-down ones only their zone's owner sees;
* ``nobody``   — face-up things are public, face-down ones nobody sees.

A player also sees a face-down thing they were allowed to ``peek`` at.
"""
from __future__ import annotations

from ..machine.values import ThingRef

# what an event may name that a seat outside its ``only`` list must not read
SECRET_FIELDS = ("thing", "things", "action", "label", "old", "new", "actions", "labels", "result", "text")
# what no seat (nor a spectator) may read in any event: with the seed and the decisions anyone
# could play the game again and see every shuffle
NEVER_SHOWN = ("only", "seed")


def can_see(g, seat, thing_id: str, zone_id: str | None = None) -> bool:
    """True if the player in ``seat`` (None: a spectator) may see this thing's face."""
    zone_id = zone_id or g.state.where[thing_id]
    return zone_open_to(g, seat, zone_id) or face_shown_to(g.state.props[thing_id], seat)


def zone_open_to(g, seat, zone_id: str) -> bool:
    """True if ``seat`` sees the face of everything in the zone, face up or down: an open zone, or its own."""
    zone = g.table.zones[zone_id]
    visibility = zone.defn.visibility
    return visibility == "everyone" or (visibility == "owner" and seat is not None and zone.owner == seat)


def face_shown_to(props: dict, seat) -> bool:
    """True if ``seat`` sees the face of a thing with these properties in a zone not open to it:
    it lies face up, or the seat was let see it."""
    return bool(props.get("face_up")) or (seat is not None and seat in props.get("known_to", ()))


def watchers(g, thing_id: str, *zone_ids) -> list | None:
    """Seats that see ``thing_id`` in any of the zones, or None if everyone does (a spectator too).

    What ``can_see`` says seat by seat, worked out once per zone (it runs for every move
    the log records): in a zone open to all, or face up, everyone sees the thing;
    elsewhere the zone's owner (where only the owner sees) and the seats let see it.
    """
    props = g.state.props[thing_id]
    face_up = props.get("face_up")
    seen: set[int] = set()
    hidden_somewhere = False
    for zid in zone_ids:
        zone = g.table.zones[zid]
        visibility = zone.defn.visibility
        if visibility == "everyone" or face_up:
            seen.update(range(len(g.table.players)))
            continue
        hidden_somewhere = True
        if visibility == "owner" and zone.owner is not None:
            seen.add(zone.owner)
        seen.update(props.get("known_to", ()))
    if not hidden_somewhere:
        return None
    return [s for s in range(len(g.table.players)) if s in seen]


def seers_of(g, values) -> list | None:
    """Seats that may see every thing among ``values`` (lists looked into), or None if everyone may."""
    seen = None
    for value in values:
        for item in value if isinstance(value, (list, tuple)) else [value]:
            if not isinstance(item, ThingRef):
                continue
            who = watchers(g, item.id, g.state.where[item.id])
            if who is not None:
                seen = set(who) if seen is None else seen & set(who)
    return None if seen is None else sorted(seen)


def redact(event: dict, seat) -> dict:
    """The event as ``seat`` may read it."""
    only = event.get("only")
    if only is None or (seat is not None and seat in only):
        return {k: v for k, v in event.items() if k not in NEVER_SHOWN}
    shown = {k: v for k, v in event.items() if k not in SECRET_FIELDS and k not in NEVER_SHOWN}
    shown["hidden"] = True
    return shown
