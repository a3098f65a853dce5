"""The table as a page draws it, for one seat: things on spaces, cards in zones, and what a click does.

Built from ``game.view(seat)`` and the seat's status only (:func:`interpreter.observe.status.status`),
so a card the seat may not see is its back and its public attributes, nothing
more. No thing id reaches the page: each visible thing gets a key that holds
only within one answer (``k0``, ``k1`` …); an action names the keys and zone
ids it is about, so clicking that thing or space is that action.
"""
from __future__ import annotations

from ..agents.human import action_label
from ..authoring.draw.scene import text_colour
from ..authoring.draw.style import COLOUR_KEYS, NAMED_COLOURS

# a thing's entries that are not printed on its card
NOT_PRINTED = {"id", "name", "kind", "face_up", "hidden", "back", "owner"}
MAX_PRINTED = 6


def thing_colour(t: dict, owner, seat_colours: list) -> str | None:
    """A visible thing's colour: its owner's, else a colour attribute naming a colour (pieces coloured
    by class or team), else a colour word its name begins with; None: none of these."""
    if owner is not None:
        return seat_colours[owner]
    for key in COLOUR_KEYS:
        colour = NAMED_COLOURS.get(str(t.get(key, "")).strip().lower())
        if colour:
            return colour
    return NAMED_COLOURS.get(str(t.get("name", "")).split(" ")[0].lower())


def table_view(game, view: dict, shown: dict, seat, seat_colours: list) -> dict:
    """``{"spaces": {zone: [thing]}, "zones": [zone], "actions": [action]}`` for the page of ``seat``."""
    rs = game.ruleset
    display = rs.display
    keys: dict = {}   # thing id -> key of this answer
    things_of = game.table.things

    def thing(t: dict, show) -> dict:
        if "id" not in t:   # face down where the seat may not look: its back and public attributes only
            return {"back": str(t.get("back", "thing")), "attrs": _printed(t, show)}
        key = keys.setdefault(t["id"], f"k{len(keys)}")
        owner = things_of[t["id"]].owner
        colour = thing_colour(t, owner, seat_colours)
        return {"key": key, "name": str(t.get("name", t.get("kind", "thing"))), "kind": str(t.get("kind", "")),
                "owner": owner, "colour": colour, "ink": text_colour(colour) if colour else "#222222",
                "letter": _letter(str(t.get("name", t.get("kind", "?")))),
                "attrs": _printed(t, show)}

    entries = {e.zone: e for e in display.zones} if display is not None else {}
    on_board = {zid for zid, e in entries.items() if e.at is not None} if rs.board.graph else set()
    spaces = {}
    for zid, z in view["zones"].items():
        if z["count"] and (game.table.zones[zid].defn.kind == "space" or zid in on_board):
            spaces[zid] = [thing(t, ()) for t in z["things"]]
    zones = []
    for z in shown["zones"]:
        zid = z["id"]
        defn = game.table.zones[zid].defn
        if defn.kind == "space" or zid in on_board:
            continue
        entry = entries.get(defn.id)
        show = entry.show if entry is not None else ()
        things = view["zones"][zid]["things"]
        if z["count"] != len(things):   # the display shows only the seat's own things
            things = [t for t in things if "id" in t and things_of[t["id"]].owner == seat][: z["count"]]
        zones.append({"id": zid, "name": z["name"], "owner": z["owner"], "mine": z["mine"], "count": z["count"],
                      "capacity": defn.capacity, "count_only": z["count_only"],
                      "things": [] if z["count_only"] else [thing(t, show) for t in things]})
    actions = []
    for i, a in enumerate(view["legal_actions"]):
        targets: list = []
        _targets(a.get("args"), keys, view["zones"], targets)
        actions.append({"index": i, "label": action_label(a["label"]), "targets": targets})
    return {"spaces": spaces, "zones": zones, "actions": actions}


TITLES = {"the", "a", "an", "mr", "mrs", "miss", "ms", "dr", "mr.", "mrs.", "dr."}


def _letter(name: str) -> str:
    """The letter a piece is drawn with: its name's first, past titles and a leading colour word
    (``red pawn``: P, ``Mrs Smith``: S)."""
    words = name.split()
    kept = [w for w in words[:-1] if w.lower() not in TITLES and w.lower() not in NAMED_COLOURS] + words[-1:]
    return (kept[0][0] if kept and kept[0] else "?").upper()


def _printed(t: dict, show) -> list:
    """[(words, value)] printed on a card: the display's ``show`` list, else its plain attributes."""
    if show:
        out = []
        for attr, words in show:
            v = t.get(attr)
            if v is None or v is False or v == "":
                continue
            out.append([words or attr.replace("_", " "), "" if v is True else _text(v)])
        return out
    out = [[k.replace("_", " "), _text(v)] for k, v in t.items()
           if k not in NOT_PRINTED and not k.startswith("_") and isinstance(v, (str, int, float, bool))]
    return out[:MAX_PRINTED]


def _text(v) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def _targets(value, keys: dict, zones: dict, out: list) -> None:
    """The things (by key) and zones an action's arguments name; a thing the seat cannot see is left out."""
    if isinstance(value, dict):
        if set(value) == {"thing"} and isinstance(value["thing"], str):
            if value["thing"] in keys:
                out.append(keys[value["thing"]])
            return
        if set(value) == {"zone"} and isinstance(value["zone"], str):
            if value["zone"] in zones:
                out.append(value["zone"])
            return
        for v in value.values():
            _targets(v, keys, zones, out)
    elif isinstance(value, list):
        for v in value:
            _targets(v, keys, zones, out)
