"""A seat's status: what it reads of the table between decisions, at the terminal and on the web page.

:func:`status` is the one place that decides it. It reads only ``view`` (the
game as the seat may see it, :func:`interpreter.play.views.view`) and the
static names of the ruleset, so nothing hidden can reach the status: a card
the seat may not see is shown by its back, whatever the ``display:`` section
asks for. With a ``display:`` section (:mod:`interpreter.rules.display`)
only what it lists is shown, in its words; without one, every variable and
zone, as davit always did. A counter given as an expression is worked out from
the game itself, not the view: it is read by every seat, as a global variable is
(see :mod:`interpreter.rules.display` for what that asks of its author).
"""
from __future__ import annotations

from ..machine.values import encode
from ..rules.display import shown_values


def status(g, view: dict) -> dict:
    """The status of ``view``'s seat::

        {"declared": bool,                      # the ruleset has a display section
         "vars": [(words, text)],               # global counters
         "players": [{"seat", "name", "you", "out", "values": [(words, text)]}],
         "zones": [{"id", "name", "owner", "mine", "count", "things": [text or None], "backs": [back or None],
                    "hidden": n, "count_only": bool, "owner_only": bool}]}

    ``things`` is what may be read of each thing, in order (a face-down thing by
    its back and public attributes; None: nothing at all, ``hidden`` counts
    those), ``backs`` the back of each face-down one.
    """
    display = g.ruleset.display
    seat = view["you"]
    visible = {t["id"] for z in view["zones"].values() for t in z["things"] if "id" in t}
    if display is None:
        return {"declared": False,
                "vars": [(k, str(v)) for k, v in view["vars"].items() if isinstance(v, (int, str))],
                "players": [_player(p, seat, [(k, str(v)) for k, v in p["vars"].items()])
                            for p in view["players"]],
                "zones": [_zone(g, zid, z, seat, z["name"]) for zid, z in view["zones"].items()]}
    worked_out = shown_values(g)   # the counters given as expressions: read by every seat, like a global variable
    values = [(c.label, _text(g, encode(worked_out[c.name]) if c.value is not None else view["vars"][c.name], visible))
              for c in display.counters if c.value is not None or c.name in view["vars"]]
    players = []
    for p in view["players"]:
        mine = p["seat"] == seat
        shown = [(c.label, _text(g, p["vars"][c.name], visible)) for c in display.player
                 if c.name in p["vars"] and (mine or not c.owner_only)]
        players.append(_player(p, seat, shown))
    zones = []
    for entry in display.zones:
        for zid, z in _chosen(g, view, entry):
            if entry.owner_only and z["owner"] != seat:
                continue
            zone_shown = _zone(g, zid, z, seat, _label(g, entry, z), entry)
            if zone_shown["count"] or not (entry.hide_empty or entry.zone is None):
                zones.append(zone_shown)
    return {"declared": True, "vars": values, "players": players, "zones": zones}


def _chosen(g, view, entry):
    """The (zone id, zone of the view) an entry of the display section stands for."""
    zones = view["zones"]
    if entry.zone is None:   # every board space that holds something
        return [(zid, z) for zid, z in zones.items() if z["count"] and g.table.zones[zid].defn.kind == "space"]
    if g.ruleset.zones[entry.zone].per_player:
        return [(zid, zones[zid]) for zid in (f"{entry.zone}@{s}" for s in range(g.num_players)) if zid in zones]
    return [(entry.zone, zones[entry.zone])] if entry.zone in zones else []


def _label(g, entry, z) -> str:
    if entry.label is None:
        return z["name"]
    owner = g.table.player_names[z["owner"]] if z["owner"] is not None else ""
    return entry.label.replace("{owner}", owner)


def _player(p, seat, values) -> dict:
    return {"seat": p["seat"], "name": p["name"], "you": p["seat"] == seat, "out": p["out"], "values": values}


def _zone(g, zid, z, seat, name, entry=None) -> dict:
    show = entry.show if entry else ()
    if entry and entry.own_things:   # only what the seat can see is its own
        z = dict(z, things=[t for t in z["things"] if "id" in t and _owner(g, t, entry.own_things) == seat])
        z["count"] = len(z["things"])
    if any(a == "description" for a, _ in show):
        z = dict(z, things=[_described(g, t) for t in z["things"]])
    texts = [thing_text(t, show) for t in z["things"]]
    props = z.get("props") or {}
    if entry and entry.props:
        extra = [words if v is True else f"{words} {_text(g, v, set())}" for p, words in entry.props
                 if (v := props.get(p, g.ruleset.zone_props.get(p))) not in (False, None, 0, "")]
        if extra:
            name = f"{name} ({', '.join(extra)})"
    return {"id": zid, "name": name, "owner": z["owner"], "mine": z["owner"] is not None and z["owner"] == seat,
            "count": z["count"], "things": texts, "backs": [t.get("back") for t in z["things"]],
            "hidden": sum(t is None for t in texts), "count_only": bool(entry and entry.count_only),
            "owner_only": bool(entry and entry.owner_only)}


def _described(g, t: dict) -> dict:
    """A visible thing of the view with its definition's ``description`` (the card's text)."""
    if "id" not in t or "description" in t:
        return t
    text = g.ruleset.display.texts.get(g.table.things[t["id"]].def_id)
    return dict(t, description=text) if text else t


def _owner(g, t: dict, how):
    """The seat a visible thing of the view belongs to: its owner, or the seat in property ``how``."""
    if how is True:
        return g.table.things[t["id"]].owner
    value = t.get(how)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def thing_text(t: dict, show=()) -> str | None:
    """A thing of a view as words: its name and the attributes ``show`` asks for; a face-down
    one by what its back shows (None: nothing at all). Only attributes the view holds are read,
    so a face-down thing shows no more than its public attributes."""
    extra = []
    for a, words in show:
        v = t.get(a)
        if v is None or v == "" or v is False:
            continue
        extra.append((words or a.replace("_", " ")) if v is True else str(v) if words is None else f"{words} {v}")
    if t.get("hidden"):
        if not show:
            public = ", ".join(f"{k} {v}" for k, v in t.items() if k not in ("hidden", "back"))
            return f"a face-down {t.get('back', 'thing')} ({public})" if public else None
        return f"a face-down {t.get('back', 'thing')} ({'; '.join(extra)})" if extra else None
    text = t.get("name", t.get("kind", "thing"))
    return f"{text} — {'; '.join(extra)}" if extra else text


def _text(g, v, visible: set) -> str:
    """A value as words: yes/no, names for players, zones and things (a thing the seat cannot see
    stays 'a hidden card')."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, dict):
        if "player" in v:
            return g.player_name(v["player"])
        if "zone" in v:
            z = g.table.zones.get(v["zone"])
            return z.name if z else str(v["zone"])
        if "thing" in v:
            t = g.table.things.get(v["thing"])
            return t.name if t and v["thing"] in visible else "a hidden card"
    if isinstance(v, list):
        return ", ".join(_text(g, x, visible) for x in v) or "none"
    return "—" if v is None else str(v)


def grouped(labels: list) -> list:
    """Neighbours with the same label as one entry: ``28 × a face-down card``."""
    out: list = []
    for label in labels:
        if out and out[-1][0] == label:
            out[-1][1] += 1
        else:
            out.append([label, 1])
    return [label if n == 1 else f"{n} × {label}" for label, n in out]
