"""What one player may see: visibility rules, per-player views, redacted events.

Visibility is declared once per zone and enforced here for views, logs and
replays alike:

* ``everyone`` — every thing in the zone is open information;
* ``owner``    — face-up things are public, face-down ones only their zone's owner sees;
* ``nobody``   — face-up things are public, face-down ones nobody sees.

A player also sees a face-down thing they were allowed to ``peek`` at. A hidden
thing shows only its kind and the attributes its definition marks ``public``
— never its id, which could give it away.
"""
from __future__ import annotations

from . import decisions
from .values import encode

SECRET_FIELDS = ("thing", "action", "label", "old", "new", "actions", "labels", "result")


def can_see(g, seat, thing_id: str, zone_id: str | None = None) -> bool:
    """True if the player in ``seat`` (None: a spectator) may see this thing's face."""
    st = g.state
    zone_id = zone_id or st.where[thing_id]
    zdef = g.table.zones[zone_id].defn
    if zdef.visibility == "everyone":
        return True
    props = st.props[thing_id]
    if props.get("face_up"):
        return True
    if seat is None:
        return False
    if zdef.visibility == "owner" and g.table.zones[zone_id].owner == seat:
        return True
    return seat in props.get("known_to", ())


def watchers(g, thing_id: str, *zone_ids) -> list | None:
    """Seats that see ``thing_id`` in any of the zones, or None if everyone does."""
    zones = g.table.zones
    if all(zones[z].defn.visibility == "everyone" for z in zone_ids):
        return None
    seats = [s for s in range(len(g.table.players)) if any(can_see(g, s, thing_id, z) for z in zone_ids)]
    if len(seats) == len(g.table.players) and all(can_see(g, None, thing_id, z) for z in zone_ids):
        return None
    return seats


def redact(event: dict, seat) -> dict:
    """The event as ``seat`` may read it."""
    only = event.get("only")
    if only is None or (seat is not None and seat in only):
        return {k: v for k, v in event.items() if k != "only"}
    shown = {k: v for k, v in event.items() if k not in SECRET_FIELDS and k != "only"}
    shown["hidden"] = True
    return shown


def thing_view(g, seat, tid: str, zid: str) -> dict:
    t = g.table.things[tid]
    face_up = bool(g.state.props[tid].get("face_up"))
    if can_see(g, seat, tid, zid):
        entry = {"id": tid, "name": t.name, "kind": t.kind, "face_up": face_up}
        entry.update({k: encode(v) for k, v in t.attrs.items()})
        entry.update({k: encode(v) for k, v in g.state.props[tid].items() if k not in ("face_up", "known_to")})
        return entry
    entry = {"hidden": True, "kind": t.kind}
    entry.update({k: encode(t.attrs[k]) for k in t.public if k in t.attrs})
    return entry


def view(g, seat) -> dict:
    """Everything ``seat`` may know, as JSON data (``seat=None``: a spectator)."""
    rs, st, table = g.ruleset, g.state, g.table
    players = []
    for p in table.players:
        shown = {}
        for name, value in st.pvars[p.seat].items():
            spec = rs.player_vars.get(name)
            vis = spec.visibility if spec else "everyone"
            if vis == "everyone" or (vis == "owner" and seat == p.seat):
                shown[name] = encode(value)
        players.append({"seat": p.seat, "name": table.player_names[p.seat], "out": st.out[p.seat], "vars": shown})
    zones = {}
    for zid, items in st.zones.items():
        if zid == "box":
            continue
        zone = table.zones[zid]
        zones[zid] = {"name": zone.name, "owner": zone.owner, "count": len(items),
                      "things": [thing_view(g, seat, t, zid) for t in items]}
        extra = st.zprops.get(zid)
        if extra:
            zones[zid]["props"] = {k: encode(v) for k, v in extra.items()}
    pending = st.pending
    waiting = decisions.deciding(pending)
    shown_pending = None
    if pending is not None:
        shown_pending = {"kind": pending["kind"], "deciding": waiting}
        if pending["kind"] == "choice":
            shown_pending["prompt"] = pending["prompt"]
        if pending["kind"] == "simultaneous":
            shown_pending["committed"] = sorted(int(s) for s in pending["commits"])
        if pending.get("name"):
            shown_pending["name"] = pending["name"]
    return {
        "ruleset": rs.id, "variant": rs.variant, "you": seat,
        "vars": {k: encode(v) for k, v in st.vars.items() if not k.startswith("%")},
        "phase": list(st.phase), "players": players, "zones": zones, "pending": shown_pending,
        "legal_actions": [a.to_json() | {"label": str(a)} for a in g.legal_actions(seat)] if seat in waiting else [],
        "over": st.over, "winners": g.winners,
        "log": [redact(e, seat) for e in g.log],
    }
