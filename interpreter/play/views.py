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
from .visibility import face_shown_to, redact, zone_open_to


def back_of(g, thing) -> str:
    """What everyone sees of ``thing`` face down: its declared ``back``, else its kind."""
    return thing.back


def _entry(g, tid: str, visible: bool) -> dict:
    """What a seat sees of thing ``tid``: all of it if ``visible``, else its hidden entry."""
    t = g.table.things[tid]
    parts = g.table.view_parts.get(tid)
    if parts is None:
        parts = g.table.view_parts[tid] = _static_parts(t)
    if not visible:
        hidden = parts[1]
        return dict(hidden) if hidden is not None else hidden_entry(t)
    props = g.state.props[tid]
    entry = {"id": tid, "name": t.name, "kind": t.kind, "face_up": bool(props.get("face_up"))}
    attrs = parts[0]
    entry.update(attrs if attrs is not None else {k: encode(v) for k, v in t.attrs.items()})
    for k, v in props.items():
        if k != "face_up" and k != "known_to":
            entry[k] = v if v.__class__ in _AS_THEY_ARE else encode(v)
    return entry


# values that are JSON as they are (encode would hand them back): no call for the commonest properties
_AS_THEY_ARE = frozenset((str, int, bool, float, type(None)))


def hidden_entry(t) -> dict:
    """What everyone sees of thing ``t`` lying face down where they may not look: its back, its public attributes."""
    entry = {"hidden": True, "back": back_of(None, t)}
    entry.update({k: encode(v) for k, v in t.attrs.items() if k in t.public})   # in declaration order, not a set's
    return entry


def _static_parts(t) -> tuple:
    """(encoded attributes, hidden entry) of a thing, worked out once per table. A part holding a
    list or map is None instead, made afresh for each view: no two views share a mutable value."""
    attrs = {k: encode(v) for k, v in t.attrs.items()}
    hidden = hidden_entry(t)
    return (attrs if _plain(attrs) else None, hidden if _plain(hidden) else None)


def _plain(entry: dict) -> bool:
    return not any(isinstance(v, (list, dict)) for v in entry.values())


def view(g, seat, legal: bool = True) -> dict:
    """Everything ``seat`` may know, as JSON data (``seat=None``: a spectator). ``legal=False`` leaves the
    seat's legal actions out (an empty list): labelling them is most of a view's cost, and the RL encoder
    never reads them."""
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
        if not items:   # most spaces of a board, most of the time
            things = []
        elif zone_open_to(g, seat, zid):
            things = [_entry(g, t, True) for t in items]
        else:
            props = st.props
            things = [_entry(g, t, face_shown_to(props[t], seat)) for t in items]
        zones[zid] = {"name": zone.name, "owner": zone.owner, "count": len(items), "things": things}
        extra = st.zprops.get(zid)
        if extra:
            zones[zid]["props"] = {k: v if v.__class__ in _AS_THEY_ARE else encode(v) for k, v in extra.items()}
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
        "legal_actions": ([a.to_json() | {"label": str(a)} for a in g.legal_actions(seat)]
                          if legal and seat in waiting else []),
        "over": st.over, "winners": g.winners, "draw": g.is_draw,
        "log": _log_seen_by(g, seat),
    }


def _log_seen_by(g, seat) -> list:
    """The event log as ``seat`` may read it. The log only grows, so each event is redacted once per seat
    and kept (a view is asked for at every step of a game at a table; redacting it all again made that
    quadratic); the events are shared between views, and no reader changes them."""
    kept = g.redacted_logs
    if kept is None or kept[0] is not g.log:   # a new game, a clone or a loaded one: a log of its own
        kept = g.redacted_logs = (g.log, {})
    shown = kept[1].setdefault(seat, [])
    log = g.log
    if len(shown) > len(log):   # never by playing; if the list was cut short in place, start again
        shown.clear()
    if len(shown) < len(log):
        shown.extend(redact(e, seat) for e in log[len(shown):])
    return list(shown)
