"""Readable text for events and views (what a person at the terminal reads)."""
from __future__ import annotations

from ..play.visibility import redact


def _thing(g, tid):
    t = g.table.things.get(tid) if tid else None
    return t.name if t else "a hidden card"


def _zone(g, zid):
    z = g.table.zones.get(zid)
    return z.name if z else str(zid)


def event_text(g, e: dict) -> str | None:
    kind = e.get("e")
    name = g.player_name
    if kind == "start":
        seed = f", seed {e['seed']}" if "seed" in e else ""   # a seat's view never holds the seed
        return f"{g.ruleset.name}: {e['players']} players{seed}" + \
            (f", variant {e['variant']}" if e.get("variant") else "")
    if kind == "phase":
        extra = ", ".join(f"{k} {v}" for k, v in (e.get("vars") or {}).items())
        return f"— {e['name']}" + (f" ({extra})" if extra else "")
    if kind == "decide":
        if e.get("hidden"):
            return f"{name(e['player'])} commits a secret choice"
        return f"{name(e['player'])}: {e.get('label') or e['action']['action']}"
    if kind == "reveal":
        return "Revealed: " + "; ".join(f"{name(a['player'])} {label}"
                                          for a, label in zip(e.get("actions", []), e.get("labels", [])))
    if kind == "move":
        if e.get("hidden"):
            return None
        return f"{_thing(g, e.get('thing'))}: {_zone(g, e['from'])} → {_zone(g, e['to'])}"
    if kind == "flip":
        return f"{_thing(g, e['thing'])} is turned {'face up' if e['face_up'] else 'face down'}"
    if kind == "score":
        sign = "+" if e["delta"] >= 0 else ""
        why = f" ({e['reason']})" if e.get("reason") else ""
        return f"{name(e['player'])} {sign}{e['delta']}{why} → {e['total']}"
    if kind == "set":
        if e.get("hidden"):
            return None
        return f"{name(e['player'])} {e['name']}: {e.get('old')} → {e.get('new')}"
    if kind == "log":
        return None if e.get("hidden") else e["text"]
    if kind == "eliminate":
        return f"{name(e['player'])} is eliminated" + (f" ({e['reason']})" if e.get("reason") else "")
    if kind == "random":
        return None
    if kind == "shuffle":
        return f"{_zone(g, e['zone'])} is shuffled"
    if kind == "board":
        if "space" in e:
            return f"{_zone(g, e['space'])} is {'removed from' if e['removed'] else 'back on'} the board"
        return None
    if kind == "end":
        scores = ", ".join(f"{name(i)} {s}" for i, s in enumerate(e["scores"]))
        won = ", ".join(name(s) for s in e["winners"]) or "nobody"
        return f"Game over. Scores: {scores}. Winner: {won}."
    if kind == "peek":
        return None if e.get("hidden") else f"{name(e['player'])} looks at {_thing(g, e['thing'])}"
    return None


def narrate(g, seat=None, since: int = 0) -> list[str]:
    """The log from ``since`` as text lines, as ``seat`` may read it."""
    lines = []
    for e in g.log[since:]:
        text = event_text(g, redact(e, seat))
        if text:
            lines.append(text)
    return lines


def describe_view(g, view: dict, since: int = 0) -> list[str]:
    """A short summary for a human seat: new events, public state, own hand."""
    lines = []
    for e in view["log"][since:]:
        text = event_text(g, e)
        if text:
            lines.append(text)
    lines.append("")
    public = ", ".join(f"{k} {v}" for k, v in view["vars"].items() if isinstance(v, (int, str)))
    if public:
        lines.append(f"[{public}]")
    for p in view["players"]:
        values = ", ".join(f"{k} {v}" for k, v in p["vars"].items())
        you = " (you)" if p["seat"] == view["you"] else ""
        out = " — out" if p["out"] else ""
        lines.append(f"  {p['name']}{you}: {values}{out}")
    for zid, z in view["zones"].items():
        if not z["things"]:
            continue
        mine = z["owner"] is not None and z["owner"] == view["you"]
        shown = [_shown_thing(t) for t in z["things"]]
        if not mine and all(s is None for s in shown):
            if z["owner"] is None:
                lines.append(f"  {z['name']}: {len(shown)} hidden")
            continue
        shown = [s or "?" for s in shown]
        if z["owner"] is not None and not mine and len(shown) > 6:
            continue
        label = f"  {z['name']}" + (" (yours)" if mine else "")
        if len(shown) > 12:
            shown = shown[:12] + [f"… {len(z['things']) - 12} more"]
        lines.append(f"{label}: {', '.join(shown)}")
    return lines


def _shown_thing(t: dict) -> str | None:
    """A thing of a view as words; a face-down one by what its back shows (None: nothing at all)."""
    if not t.get("hidden"):
        return t.get("name", t["kind"])
    public = ", ".join(f"{k} {v}" for k, v in t.items() if k not in ("hidden", "back"))
    return f"a face-down {t.get('back', 'thing')} ({public})" if public else None
