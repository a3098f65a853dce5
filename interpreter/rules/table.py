"""A ruleset laid out for a number of players: every thing, zone and player ref.

Per-player zones (``hand@2``) and per-player things (``card-5@2``) only
exist once the player count is known; a :class:`Table` is made once per
(ruleset, player count) and shared by every game with that count.
"""
from __future__ import annotations

import re
from itertools import product

from ..errors import RulesetError
from ..machine.values import PlayerRef, ThingRef, ZoneRef, resolve_constant


def instance_ids(defn: dict, seats) -> list[tuple[str, dict, int | None]]:
    """(id, attrs, owner) for each copy a thing definition makes."""
    base_attrs = dict(defn.get("attrs") or {})
    each = defn.get("each") or {}
    combos = [dict(zip(each, values)) for values in product(*each.values())] if each else [{}]
    count = int(defn.get("count", 1))
    owners = list(seats) if defn.get("per_player") else [None]
    out = []
    for owner in owners:
        for combo in combos:
            for k in range(1, count + 1):
                tid = defn["id"]
                if combo:
                    tid += "-" + "-".join(str(v) for v in combo.values())
                if count > 1:
                    tid += f".{k}"
                if owner is not None:
                    tid += f"@{owner}"
                attrs = dict(base_attrs)
                attrs.update(combo)
                out.append((tid, attrs, owner))
    return out


class Table:
    __slots__ = ("ruleset", "num_players", "players", "player_names", "seat_zones", "things", "thing_list",
                 "things_by_kind", "zones", "zone_list", "constants", "start_zone", "space_list", "view_parts",
                 "kept_answers", "initial_held")

    def __init__(self, ruleset, num_players: int):
        self.ruleset = ruleset
        self.num_players = num_players
        self.players = [PlayerRef(i) for i in range(num_players)]
        names = list(ruleset.player_names)
        self.player_names = [names[i] if i < len(names) else f"player {i + 1}" for i in range(num_players)]
        self.zones: dict[str, ZoneRef] = {}
        self.seat_zones: dict[tuple, ZoneRef] = {}   # (zone id, seat) -> that seat's copy of a per-player zone
        for zdef in ruleset.zones.values():
            if zdef.per_player:
                for seat in range(num_players):
                    zid = f"{zdef.id}@{seat}"
                    name = f"{self.player_names[seat]}'s {zdef.name}"
                    self.zones[zid] = self.seat_zones[zdef.id, seat] = ZoneRef(zid, zdef, seat, zdef.attrs, name)
            else:
                self.zones[zdef.id] = ZoneRef(zdef.id, zdef, None, zdef.attrs, zdef.name)
        self.zone_list = list(self.zones.values())
        self.things: dict[str, ThingRef] = {}
        self.start_zone: dict[str, str] = {}
        for tdef in ruleset.things:
            for tid, attrs, owner in instance_ids(tdef, range(num_players)):
                name = _thing_name(tdef, attrs, owner, self.player_names)
                kind = tdef.get("kind", tdef["id"])
                ref = ThingRef(tid, kind, attrs, frozenset(tdef.get("public", ())), owner, name, tdef["id"],
                               str(tdef.get("back", kind)))
                if tid in self.things:
                    raise RulesetError(f"two things get the id '{tid}'", tdef.get("_loc"))
                self.things[tid] = ref
                start = tdef.get("start")
                if start is None:
                    zid = "box"
                elif start in ruleset.zones and ruleset.zones[start].per_player:
                    if owner is None:
                        raise RulesetError(f"thing '{tdef['id']}' starts in per-player zone '{start}' "
                                           "but belongs to no player", tdef.get("_loc"))
                    zid = f"{start}@{owner}"
                else:
                    zid = start
                self.start_zone[tid] = zid
        self.thing_list = list(self.things.values())
        self.things_by_kind: dict = {}
        for ref in self.thing_list:
            self.things_by_kind.setdefault(ref.kind, []).append(ref)
        self.space_list = [self.zones[s] for s in ruleset.board.spaces] if ruleset.board else []
        self.constants = {name: resolve_constant(value, num_players) for name, value in ruleset.constants.items()}
        self.view_parts: dict = {}   # thing id -> what views show of it that never changes (play/views.py)
        self.kept_answers: dict = {}  # answers of functions that read only their arguments (dsl/state_free.py)
        self.initial_held = None      # (held, total, ...): a new game's position and its size (play/game.py)


_HOLE = re.compile(r"\{(\w+)\}")


def _thing_name(tdef: dict, attrs: dict, owner, player_names) -> str:
    template = tdef.get("name")
    fields = dict(attrs)
    fields["owner"] = player_names[owner] if owner is not None else ""
    if template:
        # only {attr} and {owner} holes: never str.format, whose {x.attr} and {x:>999999999}
        # would let a ruleset's text reach Python objects or ask for a huge string
        return _HOLE.sub(lambda m: str(fields[m.group(1)]) if m.group(1) in fields else m.group(0), str(template))
    base = tdef.get("kind", tdef["id"])
    extra = " ".join(str(v) for k, v in attrs.items() if k in (tdef.get("each") or {}))
    name = f"{base} {extra}".strip()
    return f"{fields['owner']}'s {name}" if owner is not None else name
