"""Why a refused action names nothing: the seat, action, choice or value it names that exists nowhere.

Worked out only for a refused action (:func:`refusal`), so that a client or a scenario can tell a typo
(``unknown``) from a rule's refusal; a game that plays on never comes here.
"""
from __future__ import annotations

import difflib

from ..machine.values import PlayerRef, ThingRef, ZoneRef, display
from ..machine.waits import CHOOSE, PASS
from .decisions import UNKNOWN, Action, Refused, Unknown, _domain


def refusal(g, action: Action, reason: str) -> Refused:
    """The :class:`Refused` value for ``action``, refused for ``reason``: of kind :data:`UNKNOWN` when it
    names something that exists nowhere in this game (worked out only for refused actions)."""
    missing = names_nothing(g, action)
    return Refused(action, reason) if missing is None else Refused(action, reason, UNKNOWN, missing)


def names_nothing(g, action: Action) -> Unknown | None:
    """The seat, action, choice or value ``action`` names that does not exist in the game, if any."""
    players = g.table.players
    seat = action.player
    if type(seat) is not int or not 0 <= seat < len(players):
        return Unknown("seat", display(seat), tuple(str(s) for s in range(len(players))))
    adef = g.ruleset.actions.get(action.name)
    if adef is None and action.name not in (PASS, CHOOSE):
        return Unknown("action", str(action.name), tuple(g.ruleset.actions))
    params = [name for name, _ in adef.params] if adef is not None else ["option"] if action.name == CHOOSE else []
    local = {"player": players[seat]}
    for key, value in action.args:
        if key not in params:
            return Unknown("choice", str(key), tuple(params))
        values = _possible(g, adef, key, local)
        for item in value if isinstance(value, list) else [value]:
            missing = _names_nothing(g, item, values)
            if missing is not None:
                return missing
        local[key] = value
    return None


def unreadable(g, data) -> Unknown:
    """What an action's JSON form names that does not exist (or that it is no action at all)."""
    table = g.table
    if not isinstance(data, dict):
        return Unknown("action", display(data))
    seat = data.get("player")
    if type(seat) is not int or not 0 <= seat < len(table.players):
        return Unknown("seat", display(seat), tuple(str(s) for s in range(len(table.players))))
    args = data.get("args") or {}
    for value in args.values() if isinstance(args, dict) else ():
        for item in value if isinstance(value, list) else [value]:
            if not isinstance(item, dict):
                continue
            if "thing" in item and item["thing"] not in table.things:
                return Unknown("thing", display(item["thing"]), tuple(table.things))
            if "zone" in item and item["zone"] not in table.zones:
                return Unknown("zone", display(item["zone"]), tuple(table.zones))
            if "player" in item and (type(item["player"]) is not int
                                     or not 0 <= item["player"] < len(table.players)):
                return Unknown("player", display(item["player"]))
    return Unknown("action", display(data.get("action")), tuple(g.ruleset.actions))


def _possible(g, adef, key, local) -> list:
    """The values offered now for choice ``key`` (a choose decision's options), [] if they cannot be told."""
    if adef is None:
        pending = g.state.pending
        return list(pending["options"]) if pending is not None and pending["kind"] == "choice" else []
    try:
        return _domain(g, dict(adef.params)[key], dict(local), adef.location)
    except Exception:  # noqa: BLE001 - an earlier choice that names nothing real: no domain to compare with
        return []


def _names_nothing(g, item, values) -> Unknown | None:
    """``item`` names nothing when it is text or a plain value where the game offers only things, zones or
    players and no thing or zone has that id (with nothing offered now, only when it is close to one)."""
    if isinstance(item, (ThingRef, ZoneRef, PlayerRef, dict, list)):
        return None
    table = g.table
    if isinstance(item, str) and (item in table.things or item in table.zones):
        return None
    if values:
        if not all(isinstance(v, (ThingRef, ZoneRef, PlayerRef)) for v in values):
            return None   # plain values are possible here: a rule decides which
        kinds = {_what(v) for v in values}
        what = kinds.pop() if len(kinds) == 1 else "thing or zone"
        known = [_known_name(v) for v in values] + _all_named(g, what) + list(table.things) + list(table.zones)
        return Unknown(what, display(item), tuple(dict.fromkeys(known)))
    if not isinstance(item, str):
        return None
    everything = {**{t: "thing" for t in table.things}, **{z: _what(ref) for z, ref in table.zones.items()}}
    close = difflib.get_close_matches(item, list(everything), n=1, cutoff=0.7)
    if not close:
        return None   # nothing is offered now and nothing is called anything like it: a rule may decide
    what = everything[close[0]]
    return Unknown(what, item, tuple(dict.fromkeys(close + _all_named(g, what))))


def _what(value) -> str:
    if isinstance(value, PlayerRef):
        return "player"
    if isinstance(value, ThingRef):
        return "thing"
    return "space" if getattr(value.defn, "kind", "zone") == "space" else "zone"


def _known_name(value) -> str:
    return f"{{player: {value.seat}}}" if isinstance(value, PlayerRef) else value.id


def _all_named(g, what) -> list:
    if what == "thing":
        return list(g.table.things)
    if what in ("zone", "space"):
        return [z for z, ref in g.table.zones.items() if _what(ref) == what]
    return []
