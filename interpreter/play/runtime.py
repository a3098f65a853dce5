"""What the compiled rules may do to a game: read and set attributes, move things, draw chance.

:class:`RuleRuntime` is the one door between the DSL's closures and the
:class:`State`: every primitive and every compiled expression goes through
these methods, so the rules never touch the state's containers directly.
:class:`interpreter.play.game.Game` inherits it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import GameError
from ..load.limits import MAX_ITEMS, MAX_POSITION, MAX_TEXT
from ..machine import attributes, rng
from ..machine.budget import MAX_SMALL_INT, too_big
from ..machine.values import REF_TYPES, PlayerRef, ThingRef, ZoneRef, display, encode, type_name
from .position import CHARS_PER_ITEM, CONTAINERS, LINK_ITEMS, counted, grow, hold, measure_charged
from .visibility import seers_of, watchers

if TYPE_CHECKING:
    from ..errors import Location
    from ..machine.vm import Code
    from ..rules.board import Board
    from ..rules.model import Ruleset
    from ..rules.table import Table
    from .state import State


SMALL_INT_LOW, SMALL_INT_HIGH = -MAX_SMALL_INT, MAX_SMALL_INT   # the whole numbers the state may keep


def checked_size(value, loc=None):
    """``value`` if the state may keep it; a located error for a huge number, text or list.

    Values the rules store (variables, attributes, properties) pass here, so a
    ruleset cannot fill memory by doubling a text or squaring a number into
    the game's state.
    """
    error = too_big(value, loc, "kept")
    if error is not None:
        raise error
    return value


class RuleRuntime:
    """Mixed into :class:`Game`, which sets the attributes declared here and defines ``emit``.

    Together with the flow in :class:`Game` it is what :class:`interpreter.machine.host.GameHost`
    describes: the one contract between the compiled rules and a game.
    """

    state: State
    table: Table
    ruleset: Ruleset
    board: Board   # every built ruleset has one (empty without `board:`)
    codes: dict[str, Code]
    record: bool       # whether events are kept (a bot's playouts keep none)
    log: list
    item_loc: Location | None = None   # where the last assignment into an item was (the position is counted again)
    # the zones whose things, their properties or the zone's own changed, for whoever set it (the RL
    # environment's observations, interpreter/rl/incremental.py, then encode only those); None: nobody asks
    changed: set | None = None
    score_bounds: tuple | None = None   # add_score's (counter, lowest, highest) without a log: see _score_bounds

    if TYPE_CHECKING:   # defined by Game (play/game.py)
        def emit(self, event: dict) -> None: ...
        def player_name(self, seat: int) -> str: ...

    def seers_of(self, values) -> list | None:
        """Seats that may see every thing named among ``values`` (None: everyone); events naming them say so."""
        return seers_of(self, values)

    def set_var(self, name, value) -> None:
        kind = type(value)   # checked_size() written out: too_big() refuses only a number, a text or a list
        if kind is int:   # nothing to hold
            if not SMALL_INT_LOW < value < SMALL_INT_HIGH:
                checked_size(value)
        elif kind is str:
            if len(value) >= CHARS_PER_ITEM:   # counted (play/position.py)
                if len(value) > MAX_TEXT:
                    checked_size(value)
                hold(self, name, value, None)
        elif kind in CONTAINERS:
            if kind is list and len(value) > MAX_ITEMS:
                checked_size(value)
            hold(self, name, value, None)
        self.state.vars[name] = value   # (any other value: too_big() refuses none)

    def hold_link(self, link) -> None:
        """Count a board link about to be added to the position."""
        items = LINK_ITEMS + len(link[2]) // CHARS_PER_ITEM
        st = self.state
        if st.held is not None and st.held_total + items <= MAX_POSITION:   # (grow() written out: it fits)
            st.held_total += items
        else:
            grow(self, items, None)

    def set_item(self, obj, index, value, loc) -> None:
        """``obj[index] = value`` (a rule's assignment into an item of a list or table)."""
        vkind = type(value)
        if vkind is bool or value is None or (vkind is int and SMALL_INT_LOW < value < SMALL_INT_HIGH):
            grows = False   # (a flag or a small number: checked_size() refuses none, counted() counts none)
        else:
            checked_size(value, loc)
            grows = counted(value)
            if grows:
                measure_charged(self, value, loc)   # its depth and size; which slot holds ``obj`` is not known
        kind = type(obj)
        if not grows and type(index) is int and kind is list and -len(obj) <= index < len(obj) \
                and not counted(obj[index]):
            obj[index] = value   # a plain value for a plain value: the position's size is the same
            return
        obj[index] = value
        self.state.held = None   # counted afresh at the decision's end
        self.item_loc = loc

    def get_attr(self, obj, name, loc):
        if obj.__class__ in REF_TYPES:   # where a thing's, zone's or player's attribute lives: one place
            return attributes.reader(name)(self, obj, loc)
        if obj is None:
            raise GameError(f"cannot read '.{name}' of none", loc)
        if isinstance(obj, dict) and name in obj:
            return obj[name]
        raise GameError(f"a {type_name(obj)} has no attribute '{name}'", loc)

    def thing_builtin(self, t: ThingRef, name, loc):
        if name == "id":
            return t.id
        if name == "kind":
            return t.kind
        if name == "name":
            return t.name
        if name == "zone":
            return self.table.zones[self.state.where[t.id]]
        if name == "owner":
            return self.table.players[t.owner] if t.owner is not None else None
        if name == "holder":
            return self._zone_owner(self.state.where[t.id])
        if name == "position":
            return self.state.zones[self.state.where[t.id]].index(t.id) + 1
        if name == "face_up":
            return self.state.props[t.id].get("face_up", False)
        if name in self.ruleset.thing_props:
            return self.ruleset.thing_props[name]
        raise GameError(f"a {t.kind} has no attribute '{name}'", loc)

    def _zone_owner(self, zid):
        owner = self.table.zones[zid].owner
        return self.table.players[owner] if owner is not None else None

    def player_builtin(self, p: PlayerRef, name, loc):
        if name == "seat":
            return p.seat
        if name == "name":
            return self.table.player_names[p.seat]
        if name == "out":
            return self.state.out[p.seat]
        if name == "next":
            return self.next_player(p)
        raise GameError(f"a player has no attribute '{name}'", loc)

    def zone_builtin(self, z: ZoneRef, name, loc):
        # asked first: the two names the general reader brings here most (a space's `removed` never set,
        # a zone's things); the inlined reads (dsl/fast_reads.py) take `count`, `empty`, `top` before
        if name == "removed":
            return False
        items = self.state.zones[z.id]
        if name == "things":
            return [self.table.things[t] for t in items]
        if name == "count":
            return len(items)
        if name == "empty":
            return not items
        if name == "top":
            return self.table.things[items[0]] if items else None
        if name == "bottom":
            return self.table.things[items[-1]] if items else None
        if name == "id":
            return z.id
        if name == "name":
            return z.name
        if name == "owner":
            return self.table.players[z.owner] if z.owner is not None else None
        if name == "capacity":
            return z.defn.capacity
        if name == "full":
            return z.defn.capacity is not None and len(items) >= z.defn.capacity
        if name == "free":
            return None if z.defn.capacity is None else max(0, z.defn.capacity - len(items))
        if name == "seats":
            return list(z.defn.seats or ())
        if name in self.ruleset.zone_props:
            return self.ruleset.zone_props[name]
        raise GameError(f"zone '{z.id}' has no attribute '{name}'", loc)

    def set_attr(self, obj, name, value, loc) -> None:
        if obj.__class__ is PlayerRef and value.__class__ is int and not self.record \
                and SMALL_INT_LOW < value < SMALL_INT_HIGH:
            # a player's number within its bounds, nobody keeping the log (a score, a counter): set at once,
            # as the general path below would (nothing to hold, no event)
            spec = self.ruleset.player_vars.get(name)
            if spec is not None and (spec.min is None or value >= spec.min) and (spec.max is None or value <= spec.max):
                self.state.pvars[obj.seat][name] = value
                return
        if obj.__class__ is ZoneRef:
            kind = value.__class__
            if kind is not str and kind is not list and (kind is not int or SMALL_INT_LOW < value < SMALL_INT_HIGH) \
                    and name in self.ruleset.zone_props:
                # (a zone's flag, number, reference: the commonest; checked_size() refuses none of them)
                self.set_zone_prop(obj.id, name, value)
                return
        checked_size(value, loc)
        if isinstance(obj, PlayerRef):
            spec = self.ruleset.player_vars.get(name)
            if spec is None:
                raise GameError(f"players have no counter or variable '{name}'", loc)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                if (spec.min is not None and value < spec.min) or (spec.max is not None and value > spec.max):
                    raise GameError(f"{self.player_name(obj.seat)}'s {name} would be {value}, outside "
                                    f"{spec.min}..{spec.max}", loc)
            old = self.state.pvars[obj.seat].get(name)
            kind = type(value)
            if kind in CONTAINERS or (kind is str and len(value) >= CHARS_PER_ITEM):
                hold(self, (obj.seat, name), value, loc)
            self.state.pvars[obj.seat][name] = value
            if old != value and self.record:
                event = {"e": "set", "player": obj.seat, "name": name, "old": encode(old), "new": encode(value)}
                if spec.visibility != "everyone":
                    event["only"] = [obj.seat] if spec.visibility == "owner" else []
                self.emit(event)
            return
        if isinstance(obj, ThingRef):
            if name not in self.ruleset.thing_props:
                raise GameError(f"'{name}' is not a declared thing property", loc)
            kind = type(value)
            if kind in CONTAINERS or (kind is str and len(value) >= CHARS_PER_ITEM):
                hold(self, (obj.id, name), value, loc)
            self.state.own_props(obj.id)[name] = value
            if self.state.index:   # the things by this property's value (dsl/prop_index.py) are made again
                self.state.index.pop(name, None)
            if isinstance(value, (list, dict)):
                self.state.mark_deep(obj.id)
            if self.changed is not None:
                self.changed.add(self.state.where[obj.id])
            return
        if isinstance(obj, ZoneRef):
            if name not in self.ruleset.zone_props:
                raise GameError(f"'{name}' is not a declared zone property", loc)
            self.set_zone_prop(obj.id, name, value)
            return
        raise GameError(f"cannot set '{name}' on a {type_name(obj)}", loc)

    def set_thing_prop(self, obj, name, value, loc) -> None:
        """``obj.name = value`` where ``name`` is a declared thing property (the compiler knows): a small
        number, a flag, none or a short text set on a thing at once, as :meth:`set_attr` would set it
        (nothing to check, hold or mark); anything else through :meth:`set_attr`."""
        kind = value.__class__
        if obj.__class__ is ThingRef and (kind is bool or value is None or kind is float
                                          or (kind is int and SMALL_INT_LOW < value < SMALL_INT_HIGH)
                                          or (kind is str and len(value) < CHARS_PER_ITEM)):
            st, tid = self.state, obj.id
            props = st.props[tid]
            if tid not in st.props_own:   # (st.own_props written out: no call when already its own)
                props = st.own_props(tid)
            props[name] = value
            if st.index:
                st.index.pop(name, None)
            if self.changed is not None:
                self.changed.add(st.where[tid])
        else:
            self.set_attr(obj, name, value, loc)

    def set_zone_prop(self, zid, name, value) -> None:
        kind = type(value)
        # (a flag or a small number, the commonest, is neither too big nor counted; a reference neither)
        plain = kind is bool or value is None or (kind is int and SMALL_INT_LOW < value < SMALL_INT_HIGH)
        if not plain:
            if kind is int or kind is str or kind is list:   # what too_big() may refuse
                checked_size(value)
            if counted(value):
                hold(self, ("z", zid, name), value, None)
        st = self.state
        props = st.zprops.get(zid)
        if props is None or zid not in st.zprops_own:   # (st.own_zprops written out: no call when its own)
            props = st.own_zprops(zid)
        props[name] = value
        if self.changed is not None:
            self.changed.add(zid)
        if name == "removed":   # the board changed: its breadth-first trees are looked up afresh
            st.board_key = None
        if not plain and isinstance(value, (list, dict)) and st.zprops_deep is not None:
            st.zprops_deep.add(zid)

    def find_zone(self, zid, player, loc) -> ZoneRef:
        if isinstance(zid, ZoneRef):
            return zid
        key = f"{zid}@{player.seat}" if isinstance(player, PlayerRef) else str(zid)
        zone = self.table.zones.get(key)
        if zone is None:
            raise GameError(f"no zone '{key}'", loc)
        return zone

    def zone_things(self, zone) -> list:
        if zone.__class__ is ZoneRef:   # (a map over the ids: no comprehension's function and frame)
            return list(map(self.table.things.__getitem__, self.state.zones[zone.id]))
        if isinstance(zone, list):
            return zone
        raise GameError(f"expected a zone, got {type_name(zone)}")

    def can_enter(self, thing: ThingRef, zone: ZoneRef, loc=None) -> str | None:
        """Why ``thing`` may not enter ``zone`` (capacity, admission rule), or None."""
        zdef = zone.defn
        items = self.state.zones[zone.id]
        if zdef.capacity is not None and len(items) >= zdef.capacity and thing.id not in items:
            return f"{zone.name} is full ({zdef.capacity})"
        if self.state.zprops.get(zone.id, {}).get("removed"):
            return f"{zone.name} is no longer on the board"
        if zdef.admit is not None and not zdef.admit(self, {"thing": thing, "zone": zone}):
            return zdef.admit_reason or f"{zone.name} does not admit {thing.name}"
        return None

    def move_thing(self, thing, zone, at, face, loc) -> None:
        if thing.__class__ is not ThingRef:
            raise GameError(f"move() needs a thing, got {type_name(thing)}", loc)
        if zone.__class__ is not ZoneRef:
            raise GameError(f"move() needs a zone to move to, got {type_name(zone)}", loc)
        st = self.state
        zdef = zone.defn
        zid = zone.id
        zprops = st.zprops
        if zdef.capacity is not None or zdef.admit is not None or (zid in zprops and zprops[zid].get("removed")):
            # a zone that may refuse (a capacity, an admission rule) or does (a space no longer on the board)
            why = self.can_enter(thing, zone, loc)
            if why is not None:
                raise GameError(f"cannot move {thing.name} into {zone.name}: {why}", loc)
        if self.record:
            self._move_logged(thing.id, zid, at, (zdef.face == "up") if face is None else (face == "up"))
            return
        tid = thing.id
        where = st.where
        src = where[tid]
        zones = st.zones
        zones[src].remove(tid)
        if at == "bottom":   # the default, asked first
            zones[zid].append(tid)
        elif at == "top":
            zones[zid].insert(0, tid)
        elif at.__class__ is int:   # a position from the top (a flag is no position)
            zones[zid].insert(max(0, at - 1), tid)
        else:
            zones[zid].append(tid)
        where[tid] = zid
        if self.changed is not None:
            self.changed.update((src, zid))
        props = st.props[tid]
        up = (zdef.face == "up") if face is None else (face == "up")
        if props.get("face_up") is not up or "known_to" in props:   # copied on write only when it changes
            if tid not in st.props_own:   # (st.own_props written out: no call when already its own)
                props = st.own_props(tid)
            props["face_up"] = up
            if "known_to" in props:
                del props["known_to"]

    def _move_logged(self, tid, zid, at, up) -> None:
        """:meth:`move_thing`'s move once it may be made, with its event for the log."""
        st = self.state
        src = st.where[tid]
        was_seen = watchers(self, tid, src)   # who saw it where it was: the event tells them and who sees it now
        zones = st.zones
        zones[src].remove(tid)
        if at == "top":
            zones[zid].insert(0, tid)
        elif at.__class__ is int:
            zones[zid].insert(max(0, at - 1), tid)
        else:
            zones[zid].append(tid)
        st.where[tid] = zid
        if self.changed is not None:
            self.changed.update((src, zid))
        props = st.props[tid]
        if props.get("face_up") is not up or "known_to" in props:
            props = st.own_props(tid)
            props["face_up"] = up
            props.pop("known_to", None)
        event: dict[str, Any] = {"e": "move", "thing": tid, "from": src, "to": zid}
        now_seen = watchers(self, tid, zid)
        if was_seen is not None and now_seen is not None:
            event["only"] = sorted(set(was_seen) | set(now_seen))
        self.log.append(event)

    def set_face(self, thing, up, loc) -> None:
        if thing.__class__ is not ThingRef:
            raise GameError(f"expected a thing, got {type_name(thing)}", loc)
        st = self.state
        tid = thing.id
        props = st.props[tid]
        old = props.get("face_up", False)
        if up.__class__ is bool:   # reveal's and hide's true and false, flip's "up": taken as they are
            new = up
        else:
            new = (not old) if up is None else bool(up)
        if old != new:
            if tid not in st.props_own:   # (st.own_props written out)
                props = st.own_props(tid)
            props["face_up"] = new
            if self.changed is not None:
                self.changed.add(st.where[tid])
            if self.record:   # no event built for nobody (simulate, the bots)
                self.emit({"e": "flip", "thing": tid, "face_up": new})

    def let_see(self, who, thing, loc) -> None:
        """``peek``: the player sees ``thing`` (a thing, or a list of things) from now on. One event per peek,
        whatever the list holds: how many things a rule lets a player look at may hang on what is hidden
        (the cards of a pile that fit a place), and the others count the events they cannot read."""
        things = thing if isinstance(thing, list) else [thing]
        if not isinstance(who, PlayerRef) or not all(isinstance(t, ThingRef) for t in things):
            raise GameError("peek(player, thing) needs a player and a thing", loc)
        for t in things:
            known = self.state.own_props(t.id).setdefault("known_to", [])
            self.state.mark_deep(t.id)
            if who.seat not in known:
                known.append(who.seat)
            if self.changed is not None:
                self.changed.add(self.state.where[t.id])
        event = {"e": "peek", "player": who.seat, "only": [who.seat]}
        if isinstance(thing, list):
            event["things"] = [t.id for t in things]
        else:
            event["thing"] = thing.id
        self.emit(event)

    def shuffle_zone(self, zone, name, loc) -> None:
        if not isinstance(zone, ZoneRef):
            raise GameError(f"shuffle() needs a zone, got {type_name(zone)}", loc)
        st = self.state
        items = st.zones[zone.id]
        key = f"shuffle {name or zone.id}"
        pinned = st.pins.get(key)
        if pinned:
            order = pinned.pop(0)
            if sorted(order) != sorted(items):
                raise GameError(f"pinned outcome for '{key}' does not list exactly the things in {zone.name}", loc)
            st.zones[zone.id] = list(order)
        else:
            st.rng, shuffled = rng.shuffled(st.rng, items)
            st.zones[zone.id] = shuffled
        if self.changed is not None:
            self.changed.add(zone.id)
        if self.record:   # no event built for nobody
            self.emit({"e": "shuffle", "zone": zone.id, "name": key})

    def random_pick(self, items, name, loc):
        st = self.state
        key = f"{name}"
        pinned = st.pins.get(key)
        if pinned:
            wanted = pinned.pop(0)
            for item in items:
                if item == wanted or display(item) == str(wanted) or getattr(item, "id", None) == wanted \
                        or (isinstance(item, PlayerRef) and self.player_name(item.seat) == str(wanted)):
                    self.emit({"e": "random", "name": key, "result": encode(item), "pinned": True})
                    return item
            raise GameError(f"pinned outcome {wanted!r} for '{key}' is not one of the possible results", loc)
        st.rng, index = rng.below(st.rng, len(items))
        item = items[index]
        if self.record:
            event = {"e": "random", "name": key, "result": encode(item)}
            if isinstance(item, ThingRef):
                seers = watchers(self, item.id, st.where[item.id])
                if seers is not None:
                    event["only"] = seers
            self.emit(event)
        return item

    def add_score(self, who, amount, reason, loc) -> None:
        if who.__class__ is not PlayerRef:   # (no class derives from PlayerRef: isinstance's call saved)
            raise GameError(f"score() needs a player, got {type_name(who)}", loc)
        pv = self.state.pvars[who.seat]
        if not self.record:   # no event to keep: nothing to silence, no event built
            counter, lowest, highest = self.score_bounds or self._score_bounds()
            value = pv.get(counter, 0) + amount
            if value.__class__ is int and lowest <= value <= highest:
                pv[counter] = value   # set_attr's own way for a player's number within its bounds, without the call
                return
            self.set_attr(who, counter, value, loc)
            return
        counter = self.ruleset.score_counter
        self.record = False   # the score event below says it, not set_attr's own
        try:
            self.set_attr(who, counter, pv.get(counter, 0) + amount, loc)
        finally:
            self.record = True
        self.emit({"e": "score", "player": who.seat, "delta": amount, "total": pv[counter],
                   "reason": None if reason is None else str(reason)})

    def _score_bounds(self) -> tuple:
        """``(counter, lowest, highest)``: the score counter and the whole numbers :meth:`set_attr` sets it to at
        once (within the state's small numbers and the counter's declared bounds), kept for the game's life."""
        counter = self.ruleset.score_counter
        spec = self.ruleset.player_vars.get(counter)
        lowest, highest = SMALL_INT_LOW + 1, SMALL_INT_HIGH - 1
        if spec is None or any(b is not None and b.__class__ is not int for b in (spec.min, spec.max)):
            lowest, highest = 1, 0   # (no counter, or a bound not a whole number): every value through set_attr
        else:
            lowest = lowest if spec.min is None else max(lowest, spec.min)
            highest = highest if spec.max is None else min(highest, spec.max)
        self.score_bounds = (counter, lowest, highest)
        return self.score_bounds

    def eliminate(self, who, reason, loc) -> None:
        if not isinstance(who, PlayerRef):
            raise GameError(f"eliminate() needs a player, got {type_name(who)}", loc)
        if not self.state.out[who.seat]:
            self.state.out[who.seat] = True
            self.emit({"e": "eliminate", "player": who.seat, "reason": reason})

    def next_player(self, p) -> PlayerRef:
        n = len(self.table.players)
        seat = p.seat
        for _ in range(n):
            seat = (seat + 1) % n
            if not self.state.out[seat]:
                return self.table.players[seat]
        return p

    def turn_order(self, start) -> list:
        n = len(self.table.players)
        first = start.seat if isinstance(start, PlayerRef) else int(start)
        return [self.table.players[(first + i) % n] for i in range(n) if not self.state.out[(first + i) % n]]
