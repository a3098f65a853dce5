"""A game in progress: the Python API (``legal_actions``, ``apply``, ``view``, ``clone``).

:class:`Game` pairs the immutable compiled :class:`Ruleset` with a
:class:`State` and the event log. It is also the runtime the compiled DSL
closures talk to (attribute access, moving things, the random stream), so the
rules never touch the state except through these few methods.
"""
from __future__ import annotations

import hashlib
import json

from . import decisions, rng, vm
from .decisions import Action, Applied, Refused
from .errors import GameError, SaveError
from .state import State, copy_data
from .table import Table
from .values import PlayerRef, ThingRef, ZoneRef, decode, display, encode, type_name
from .views import watchers


class Game:
    """One game of a ruleset.

    Example (``my-game`` stands for any ruleset id or folder)::

        from interpreter import load_ruleset, Game
        game = Game(load_ruleset("my-game"), players=3, seed=7)
        while not game.is_over:
            game.apply(game.legal_actions()[0])
        print(game.scores, game.winners)
    """

    def __init__(self, ruleset, players: int, seed: int = 0, pins: dict | None = None, record: bool = True,
                 _state: State | None = None):
        if not ruleset.min_players <= players <= ruleset.max_players:
            raise GameError(f"{ruleset.id} is for {ruleset.min_players}–{ruleset.max_players} players, not {players}")
        self.ruleset = ruleset
        self.table: Table = ruleset.table(players)
        self.board = ruleset.board
        self.codes = ruleset.codes
        self.log: list = []
        self.record = record
        self.retval = None
        self.seed = seed
        self._legal_cache = None
        self._version = 0
        if _state is not None:
            self.state = _state
            return
        self.state = self._initial_state(seed, pins)
        self.emit({"e": "start", "ruleset": ruleset.id, "variant": ruleset.variant, "players": players,
                   "seed": seed})
        self._advance()

    # -- setting up ---------------------------------------------------------------

    def _initial_state(self, seed, pins) -> State:
        rs, table = self.ruleset, self.table
        st = State()
        st.rng = rng.seed_state(seed)
        st.pins = {str(k): list(v) for k, v in (pins or {}).items()}
        st.vars = {name: copy_data(value) for name, value in rs.globals.items()}
        st.pvars = [{name: copy_data(c.initial) for name, c in rs.player_vars.items()} for _ in table.players]
        st.out = [False] * len(table.players)
        st.zones = {zid: [] for zid in table.zones}
        for tid, zid in table.start_zone.items():
            st.zones[zid].append(tid)
            st.where[tid] = zid
            st.props[tid] = {}
        for tid, zid in table.start_zone.items():
            zdef = table.zones[zid].defn
            st.props[tid]["face_up"] = zdef.face == "up"
        st.stack = [[rs.flow_code, 0, {}, None]]
        if rs.setup_code:
            st.stack.append([rs.setup_code, 0, {}, None])
        return st

    # -- the public API -----------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.state.over

    @property
    def num_players(self) -> int:
        return len(self.table.players)

    @property
    def deciding_players(self) -> list[int]:
        return decisions.deciding(self.state.pending) if not self.state.over else []

    def legal_actions(self, player: int | None = None) -> list[Action]:
        key = (self._version, player)
        if self._legal_cache is not None and self._legal_cache[0] == key:
            return list(self._legal_cache[1])
        actions = decisions.legal_actions(self, player)
        self._legal_cache = (key, actions)
        return list(actions)

    def apply(self, action) -> Applied | Refused:
        """Carry out ``action`` (an :class:`Action` or its JSON form); illegal actions are refused as values."""
        try:
            action = action if isinstance(action, Action) else self.action_from_json(action)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            return Refused(action, f"not an action: {type(exc).__name__} {exc}")
        cached = self._legal_cache
        offered = cached is not None and cached[0][0] == self._version and any(a is action for a in cached[1])
        # an action taken from the current legal_actions() list is known to be legal
        reason = None if offered else decisions.check(self, action)
        if reason is not None:
            return Refused(action, reason)
        self._legal_cache = None
        self._version += 1
        decisions.commit(self, action)
        self._advance()
        return Applied(action)

    def clone(self) -> "Game":
        other = Game.__new__(Game)
        other.ruleset = self.ruleset
        other.table = self.table
        other.board = self.board
        other.codes = self.codes
        other.log = list(self.log)
        other.record = self.record
        other.retval = None
        other.seed = self.seed
        other._legal_cache = None
        other._version = 0
        other.state = self.state.clone()
        return other

    def to_json(self) -> dict:
        return {"davit": 1, "ruleset": self.ruleset.id, "variant": self.ruleset.variant,
                "fingerprint": self.ruleset.fingerprint, "players": self.num_players, "seed": self.seed,
                "state": self.state.to_json(), "log": self.log}

    @classmethod
    def from_json(cls, ruleset, data: dict) -> "Game":
        try:
            if data.get("ruleset") != ruleset.id or data.get("variant") != ruleset.variant:
                raise SaveError(f"saved game is for ruleset {data.get('ruleset')!r} "
                                f"(variant {data.get('variant')!r}), not {ruleset.id!r}")
            if data.get("fingerprint") != ruleset.fingerprint:
                raise SaveError(f"saved game was made with a different version of ruleset {ruleset.id!r}")
            players = int(data["players"])
            if not ruleset.min_players <= players <= ruleset.max_players:
                raise SaveError(f"saved game has {players} players; {ruleset.id} is for "
                                f"{ruleset.min_players}–{ruleset.max_players}")
            table = ruleset.table(players)
            state = State.from_json(data["state"], table)
            _check_consistent(ruleset, table, state)
        except SaveError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise SaveError(f"saved game is damaged: {type(exc).__name__} {exc}") from None
        game = cls(ruleset, int(data["players"]), int(data.get("seed", 0)), _state=state)
        game.log = list(data.get("log", []))
        return game

    def action_from_json(self, data) -> Action:
        if isinstance(data, Action):
            return data
        args = tuple((k, decode(v, self.table)) for k, v in (data.get("args") or {}).items())
        return Action(int(data["player"]), str(data["action"]), args)

    @property
    def scores(self) -> dict:
        """Each seat's score; in a co-operative ruleset every seat has the team's score."""
        if self.ruleset.team_var is not None:
            team = self.state.vars.get(self.ruleset.team_var) or 0
            return {p.seat: team for p in self.table.players}
        return {p.seat: self.state.pvars[p.seat].get(self.ruleset.score_counter, 0) for p in self.table.players}

    @property
    def winners(self) -> list[int]:
        return list(self.state.vars.get("%winners", [])) if self.state.over else []

    def view(self, player: int | None) -> dict:
        from .views import view
        return view(self, player)

    def narrate(self, player: int | None = None) -> list[str]:
        from .narrate import narrate
        return narrate(self, player)

    def log_hash(self) -> str:
        return hashlib.sha256(json.dumps(self.log, sort_keys=True, default=str).encode()).hexdigest()

    def player_name(self, seat: int) -> str:
        return self.table.player_names[seat]

    # -- running ------------------------------------------------------------------

    def _advance(self) -> None:
        st = self.state
        while not st.over and st.pending is None:
            if not st.stack:
                self.finish()
                return
            vm.run(self, st.stack)
            if not st.stack and st.pending is None and not st.over:
                self.finish()

    def resettle(self) -> None:
        """Look at the game again after a change from outside the rules (a scenario's `set`).

        The decision the game waits for is raised afresh, so triggers and the
        end condition see the change first. A simultaneous decision that has
        commitments already is left as it is.
        """
        st = self.state
        if st.over:
            return
        pending = st.pending
        if pending is not None and not (pending["kind"] == "simultaneous" and pending["commits"]):
            st.pending = None
        self._legal_cache = None
        self._version += 1
        self._advance()

    def settle(self, stack) -> bool:
        """Fire state triggers and check the end; True if frames were pushed (or the game ended)."""
        rs = self.ruleset
        for trig in rs.triggers:
            if trig.source is None:
                if trig.when(self, {}):
                    stack.append([trig.code_id, 0, {}, None])
                    return True
                continue
            for item in trig.items(self):
                local = {trig.var: item}
                if trig.when(self, local):
                    stack.append([trig.code_id, 0, local, None])
                    return True
        if rs.end_when is not None and rs.end_when(self, {}):
            self.finish()
            return True
        return False

    def finish(self, reason: str | None = None) -> None:
        st = self.state
        if st.over:
            return
        st.pending = None
        st.stack = []
        rs = self.ruleset
        if rs.final_code is not None:
            vm.call_sync(self, self.codes[rs.final_code], [])
        ranking = []
        if rs.team_var is not None:
            won = rs.win_if is None or bool(rs.win_if(self, {}))
            winners = [p.seat for p in self.table.players] if won else []
            st.vars["%winners"] = winners
            st.over = True
            self.emit({"e": "end", "scores": [self.scores[p.seat] for p in self.table.players], "winners": winners,
                       "reason": reason, "team": True})
            return
        for p in self.table.players:
            if st.out[p.seat]:
                continue
            local = {"p": p, "player": p}
            ranking.append((tuple(fn(self, local) for fn in rs.rank_fns), p.seat))
        winners = []
        if ranking and rs.has_winners:
            best = max(r for r, _ in ranking)
            winners = sorted(s for r, s in ranking if r == best)
        st.vars["%winners"] = winners
        st.over = True
        self.emit({"e": "end", "scores": [self.scores[p.seat] for p in self.table.players], "winners": winners,
                   "reason": reason})

    def end_game(self, reason=None) -> None:
        self.finish(reason)

    # -- events -------------------------------------------------------------------

    def emit(self, event: dict) -> None:
        if self.record:
            self.log.append(event)

    # -- the runtime used by compiled rules ---------------------------------------

    def set_var(self, name, value) -> None:
        self.state.vars[name] = value

    def get_attr(self, obj, name, loc):
        if isinstance(obj, ThingRef):
            props = self.state.props[obj.id]
            if name in props:
                return props[name]
            if name in obj.attrs:
                return obj.attrs[name]
            return self._thing_builtin(obj, name, loc)
        if isinstance(obj, PlayerRef):
            pv = self.state.pvars[obj.seat]
            if name in pv:
                return pv[name]
            zid = f"{name}@{obj.seat}"
            if zid in self.table.zones:
                return self.table.zones[zid]
            return self._player_builtin(obj, name, loc)
        if isinstance(obj, ZoneRef):
            zp = self.state.zprops.get(obj.id)
            if zp and name in zp:
                return zp[name]
            if name in obj.attrs:
                return obj.attrs[name]
            return self._zone_builtin(obj, name, loc)
        if obj is None:
            raise GameError(f"cannot read '.{name}' of none", loc)
        if isinstance(obj, dict) and name in obj:
            return obj[name]
        raise GameError(f"a {type_name(obj)} has no attribute '{name}'", loc)

    def _thing_builtin(self, t: ThingRef, name, loc):
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

    def _player_builtin(self, p: PlayerRef, name, loc):
        if name == "seat":
            return p.seat
        if name == "name":
            return self.table.player_names[p.seat]
        if name == "out":
            return self.state.out[p.seat]
        if name == "next":
            return self.next_player(p)
        raise GameError(f"a player has no attribute '{name}'", loc)

    def _zone_builtin(self, z: ZoneRef, name, loc):
        items = self.state.zones[z.id]
        if name == "count":
            return len(items)
        if name == "things":
            return [self.table.things[t] for t in items]
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
        if name == "removed":
            return False
        if name in self.ruleset.zone_props:
            return self.ruleset.zone_props[name]
        raise GameError(f"zone '{z.id}' has no attribute '{name}'", loc)

    def set_attr(self, obj, name, value, loc) -> None:
        if isinstance(obj, PlayerRef):
            spec = self.ruleset.player_vars.get(name)
            if spec is None:
                raise GameError(f"players have no counter or variable '{name}'", loc)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                if (spec.min is not None and value < spec.min) or (spec.max is not None and value > spec.max):
                    raise GameError(f"{self.player_name(obj.seat)}'s {name} would be {value}, outside "
                                    f"{spec.min}..{spec.max}", loc)
            old = self.state.pvars[obj.seat].get(name)
            self.state.pvars[obj.seat][name] = value
            if old != value:
                event = {"e": "set", "player": obj.seat, "name": name, "old": encode(old), "new": encode(value)}
                if spec.visibility != "everyone":
                    event["only"] = [obj.seat] if spec.visibility == "owner" else []
                self.emit(event)
            return
        if isinstance(obj, ThingRef):
            if name not in self.ruleset.thing_props:
                raise GameError(f"'{name}' is not a declared thing property", loc)
            self.state.props[obj.id][name] = value
            return
        if isinstance(obj, ZoneRef):
            if name not in self.ruleset.zone_props:
                raise GameError(f"'{name}' is not a declared zone property", loc)
            self.set_zone_prop(obj.id, name, value)
            return
        raise GameError(f"cannot set '{name}' on a {type_name(obj)}", loc)

    def set_zone_prop(self, zid, name, value) -> None:
        self.state.zprops.setdefault(zid, {})[name] = value

    def find_zone(self, zid, player, loc) -> ZoneRef:
        if isinstance(zid, ZoneRef):
            return zid
        key = f"{zid}@{player.seat}" if isinstance(player, PlayerRef) else str(zid)
        zone = self.table.zones.get(key)
        if zone is None:
            raise GameError(f"no zone '{key}'", loc)
        return zone

    def zone_things(self, zone) -> list:
        if isinstance(zone, ZoneRef):
            things = self.table.things
            return [things[t] for t in self.state.zones[zone.id]]
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
        if not isinstance(thing, ThingRef):
            raise GameError(f"move() needs a thing, got {type_name(thing)}", loc)
        if not isinstance(zone, ZoneRef):
            raise GameError(f"move() needs a zone to move to, got {type_name(zone)}", loc)
        why = self.can_enter(thing, zone, loc)
        if why is not None:
            raise GameError(f"cannot move {thing.name} into {zone.name}: {why}", loc)
        st = self.state
        src = st.where[thing.id]
        was_seen = watchers(self, thing.id, src) if self.record else None
        st.zones[src].remove(thing.id)
        dest = st.zones[zone.id]
        if at == "top":
            dest.insert(0, thing.id)
        elif isinstance(at, int) and not isinstance(at, bool):
            dest.insert(max(0, at - 1), thing.id)
        else:
            dest.append(thing.id)
        st.where[thing.id] = zone.id
        props = st.props[thing.id]
        props["face_up"] = (zone.defn.face == "up") if face is None else (face == "up")
        props.pop("known_to", None)
        if self.record:
            event = {"e": "move", "thing": thing.id, "from": src, "to": zone.id}
            now_seen = watchers(self, thing.id, zone.id)
            if was_seen is not None and now_seen is not None:
                event["only"] = sorted(set(was_seen) | set(now_seen))
            self.log.append(event)

    def set_face(self, thing, up, loc) -> None:
        if not isinstance(thing, ThingRef):
            raise GameError(f"expected a thing, got {type_name(thing)}", loc)
        props = self.state.props[thing.id]
        new = (not props.get("face_up", False)) if up is None else bool(up)
        if props.get("face_up", False) != new:
            props["face_up"] = new
            self.emit({"e": "flip", "thing": thing.id, "face_up": new})

    def let_see(self, who, thing, loc) -> None:
        if not isinstance(who, PlayerRef) or not isinstance(thing, ThingRef):
            raise GameError("peek(player, thing) needs a player and a thing", loc)
        known = self.state.props[thing.id].setdefault("known_to", [])
        if who.seat not in known:
            known.append(who.seat)
        self.emit({"e": "peek", "player": who.seat, "thing": thing.id, "only": [who.seat]})

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
        event = {"e": "random", "name": key, "result": encode(item)}
        if isinstance(item, ThingRef):
            seers = watchers(self, item.id, st.where[item.id])
            if seers is not None:
                event["only"] = seers
        self.emit(event)
        return item

    def add_score(self, who, amount, reason, loc) -> None:
        if not isinstance(who, PlayerRef):
            raise GameError(f"score() needs a player, got {type_name(who)}", loc)
        counter = self.ruleset.score_counter
        pv = self.state.pvars[who.seat]
        saved = self.record
        self.record = False
        try:
            self.set_attr(who, counter, pv.get(counter, 0) + amount, loc)
        finally:
            self.record = saved
        self.emit({"e": "score", "player": who.seat, "delta": amount, "total": pv[counter],
                   "reason": None if reason is None else str(reason)})

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


def _check_consistent(ruleset, table, state) -> None:
    """Refuse a saved state that this ruleset could never have produced."""
    n = len(table.players)
    if len(state.pvars) != n or len(state.out) != n:
        raise SaveError(f"saved game is damaged: player data for {len(state.pvars)} players, expected {n}")
    if set(state.zones) != set(table.zones):
        odd = sorted(set(state.zones) ^ set(table.zones))[:3]
        raise SaveError(f"saved game is damaged: its zones do not match the ruleset ({', '.join(odd)})")
    seen = [t for items in state.zones.values() for t in items]
    if len(seen) != len(set(seen)) or set(seen) != set(table.things):
        raise SaveError("saved game is damaged: every card and piece must be in exactly one zone")
    for frame in state.stack:
        code = ruleset.codes.get(frame[0])
        if code is None or not 0 <= frame[1] <= len(code.instrs):
            raise SaveError(f"saved game is damaged: it stands at an unknown point of the rules ({frame[0]}:{frame[1]})")
    pending = state.pending
    if pending is not None:
        seats = pending.get("players", [pending.get("player")])
        if pending.get("kind") not in ("choice", "turn", "simultaneous") or \
                not all(isinstance(s, int) and 0 <= s < n for s in seats):
            raise SaveError("saved game is damaged: its pending decision makes no sense")
        if not state.stack:
            raise SaveError("saved game is damaged: a decision is pending but the rules are not running")

