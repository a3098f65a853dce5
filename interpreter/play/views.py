"""What one player may see of a game: ``view(seat)``.

The rules of who sees what are in :mod:`interpreter.play.visibility`. A hidden
thing shows only its back (what its definition declares as ``back:``, by
default its kind: things of one kind share a back) and the attributes its
definition marks ``public`` — never its id, name, kind or other attributes,
which could give it away.
"""
from __future__ import annotations

from ..machine.values import encode
from . import decisions
from .visibility import can_see, redact


def back_of(g, thing) -> str:
    """What everyone sees of ``thing`` face down: its declared ``back``, else its kind."""
    return thing.back


def thing_view(g, seat, tid: str, zid: str) -> dict:
    t = g.table.things[tid]
    face_up = bool(g.state.props[tid].get("face_up"))
    if can_see(g, seat, tid, zid):
        entry = {"id": tid, "name": t.name, "kind": t.kind, "face_up": face_up}
        entry.update({k: encode(v) for k, v in t.attrs.items()})
        entry.update({k: encode(v) for k, v in g.state.props[tid].items() if k not in ("face_up", "known_to")})
        return entry
    entry = {"hidden": True, "back": back_of(g, t)}
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
