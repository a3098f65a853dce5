"""Readable text for events and views (what a person at the terminal reads)."""
from __future__ import annotations

from ..play.visibility import redact
from .status import grouped, status


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
    display = g.ruleset.display
    if kind == "phase":
        values = (e.get("vars") or {}).items()
        if display is not None:   # only the counters the ruleset shows, in its words
            words = {c.name: c.label for c in display.counters}
            values = [(words[k], v) for k, v in values if k in words and v not in ("", None)]
        extra = ", ".join(f"{k} {v}" for k, v in values)
        return f"— {e['name']}" + (f" ({extra})" if extra else "")
    if kind == "decide":
        if e.get("hidden"):
            return f"{name(e['player'])} commits a secret choice"
        label = str(e.get("label") or e["action"]["action"])
        if label.startswith("[") and label.endswith("]"):   # a choice among lists reads 'a — b', as in the menu
            label = " — ".join(part.strip() for part in label[1:-1].split(","))
        return f"{name(e['player'])}: {label}"
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
        label = e["name"]
        if display is not None:   # a counter the ruleset does not show is bookkeeping: not narrated
            shown = next((c for c in display.player if c.name == label), None)
            if shown is None or shown.owner_only:   # a log line is read by everyone
                return None
            label = shown.label
            return f"{name(e['player'])} {label}: {_said(e.get('old'))} → {_said(e.get('new'))}"
        return f"{name(e['player'])} {label}: {e.get('old')} → {e.get('new')}"
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
    if kind == "end" and e.get("team"):
        # co-operative: one score for the team; a verdict only where the rules set a goal
        verdict = "" if "won" not in e else (" The team wins." if e["won"] else " The team loses.")
        return f"Game over. The team scored {e.get('team_score', (e['scores'] or [0])[0])}.{verdict}"
    if kind == "end":
        scores = ", ".join(f"{name(i)} {s}" for i, s in enumerate(e["scores"]))
        if e.get("draw"):
            return f"Game over. Scores: {scores}. A draw: nobody wins."
        won = ", ".join(name(s) for s in e["winners"]) or "nobody"
        return f"Game over. Scores: {scores}. Winner: {won}."
    if kind == "peek":
        if e.get("hidden"):
            return None
        things = e["things"] if "things" in e else [e["thing"]]
        return f"{name(e['player'])} looks at " + (", ".join(_thing(g, t) for t in things) or "nothing")
    return None


def _said(value):
    return ("yes" if value else "no") if isinstance(value, bool) else value


def narrate(g, seat=None, since: int = 0) -> list[str]:
    """The log from ``since`` as text lines, as ``seat`` may read it."""
    lines = []
    for e in g.log[since:]:
        text = event_text(g, redact(e, seat))
        if text:
            lines.append(text)
    return lines


def describe_view(g, view: dict, since: int = 0) -> list[str]:
    """A short summary for a human seat: new events, then its status (:func:`status.status`)."""
    lines = []
    for e in view["log"][since:]:
        text = event_text(g, e)
        if text:
            lines.append(text)
    lines.append("")
    shown = status(g, view)
    public = ", ".join(f"{k} {v}" for k, v in shown["vars"])
    if public:
        lines.append(f"[{public}]")
    for p in shown["players"]:
        values = ", ".join(f"{k} {v}" for k, v in p["values"])
        you = " (you)" if p["you"] else ""
        out = " — out" if p["out"] else ""
        lines.append(f"  {p['name']}{you}" + (f": {values}" if values or not shown["declared"] else "") + out)
    for z in shown["zones"]:
        line = _zone_line(z, shown["declared"])
        if line:
            lines.append(line)
    return lines


def _zone_line(z: dict, declared: bool) -> str | None:
    """A zone of the status as one line (None: not worth a line)."""
    label = f"  {z['name']}" + (" (yours)" if z["mine"] and not z["owner_only"] else "")
    known = [t for t in z["things"] if t is not None]
    if declared:   # the ruleset chose this zone: say what is there, even nothing
        if z["count_only"] or (z["count"] and not known):
            return f"{label}: {z['count']}" + (" face down" if z["hidden"] and not z["count_only"] else "")
        shown = grouped([t or f"a face-down {back or 'thing'}" for t, back in zip(z["things"], z["backs"])])
        if any(" — " in t for t in shown):   # cards with their text: one to a line
            return f"{label}:" + "".join(f"\n      {t}" for t in shown)
        return f"{label}: {', '.join(_first(shown, len(shown)))}" if shown else f"{label}: empty"
    if not z["count"]:
        return None
    if not z["mine"] and not known:
        return f"  {z['name']}: {z['count']} hidden" if z["owner"] is None else None
    if z["owner"] is not None and not z["mine"] and z["count"] > 6:
        return None
    return f"{label}: {', '.join(_first([t or '?' for t in z['things']], z['count']))}"


def _first(shown: list, total: int) -> list:
    return shown[:12] + [f"… {total - 12} more"] if len(shown) > 12 else shown
