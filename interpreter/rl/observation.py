"""A fixed-size numeric encoding of what one seat sees, built from ``game.view(seat)`` only.

Its layout comes from the ruleset's declarations, so it is the same for every
state of a (ruleset, player count). Pieces, in order:

``you``        one-hot seat of the observer
``over``       1 once the game is over
``globals``    each declared global variable (and flow loop variable)
``players``    per seat: out, and per declared player counter: its value and whether it is visible
``phase``      the phases the game is in (names declared in the flow)
``pending``    decision kind (choice/turn/simultaneous), whether the observer decides, who committed,
               the decision's declared name
``zones``      per zone: thing count, hidden thing count, hidden things per kind and per public
               attribute value, each declared zone property
``things``     per thing: seen, zone, position in the zone, face up, each declared property
``partial``    the action ids the observer has chosen so far for the action it is spelling

Every value is normalised into [-1, 1] (most into [0, 1]), so a network needs
no scaling of its own (docs/rl.md lists the range of each field):

* flags (truth values, one-hots) are 0 or 1;
* counts of things (a zone's things, its hidden things by back or public
  value) and positions in a zone are divided by the number of things of the
  table, a zone index + 1 by the number of zones, an id's count in the partial
  action by the longest spelling of an action;
* a player counter declared with both ``min`` and ``max`` is
  ``(v - min) / (max - min)`` (the engine keeps it in that range);
* any other value (globals, thing and zone properties, a counter without both
  bounds) by its type: a number ``x`` is ``x / (1 + |x|)``, in (-1, 1) and
  order-preserving; a truth value as the number it equals (false 0, true
  1/2: values that compare equal encode alike); a player, zone or thing its index + 1
  divided by the number of seats, zones or things; a text a stable hash in
  [0, 1) (CRC-32); a list or a map ``n / (1 + n)`` of its length ``n``; none 0.

A hidden thing contributes only what the view shows of it: its back (by
default its kind) and its public attributes, in its zone's counts.
"""
from __future__ import annotations

import zlib
from collections import defaultdict

import numpy as np

KINDS = ("choice", "turn", "simultaneous")


def _walk(data):
    if isinstance(data, dict):
        yield data
        for value in data.values():
            yield from _walk(value)
    elif isinstance(data, list):
        for value in data:
            yield from _walk(value)


def _flow_names(flow):
    """Phase names, decision names and loop variables declared in the flow."""
    phases, decisions, loop_vars = set(), set(), set()
    for node in _walk(flow):
        if isinstance(node.get("phase"), str):
            phases.add(str(node["phase"]))
        for key in ("turn", "simultaneous"):
            if isinstance(node.get(key), dict) and node[key].get("name"):
                decisions.add(str(node[key]["name"]))
        for key in ("as", "each_player"):
            if isinstance(node.get(key), str):
                loop_vars.add(str(node[key]))
    return sorted(phases), sorted(decisions), sorted(loop_vars)


def _hashable(value):
    return tuple(value) if isinstance(value, list) else value


class ObservationEncoder:
    def __init__(self, ruleset, players: int, catalogue):
        table = ruleset.table(players)
        self.players = players
        self.zone_ids = [z.id for z in table.zone_list]
        self.zone_index = {zid: i for i, zid in enumerate(self.zone_ids)}
        self.thing_index = {t.id: i for i, t in enumerate(table.thing_list)}
        self.kinds = sorted(table.things_by_kind)
        self.kind_index = {k: i for i, k in enumerate(self.kinds)}
        public = sorted({(t.kind, k, repr(_hashable(t.attrs[k]))) for t in table.thing_list
                         for k in t.public if k in t.attrs})
        self.public_index = {key: i for i, key in enumerate(public)}
        phases, decisions, loop_vars = _flow_names(ruleset.data.get("flow"))
        self.phase_index = {p: i for i, p in enumerate(phases)}
        self.decision_index = {d: i for i, d in enumerate(decisions)}
        names = [n for n in ruleset.globals if not n.startswith("%")]
        names += [n for n in loop_vars if n not in names]
        self.global_index = {n: i for i, n in enumerate(names)}
        self.pvars = list(ruleset.player_vars)
        self.thing_props = list(ruleset.thing_props)
        self.thing_prop_slots = {name: 4 + j for j, name in enumerate(self.thing_props)}   # in a thing's row
        self.zone_props = list(ruleset.zone_props)
        self.zone_width = 2 + len(self.kinds) + len(public) + len(self.zone_props)
        self.thing_width = 4 + len(self.thing_props)
        self.pieces = [
            ("you", (players,)), ("over", (1,)), ("globals", (len(names),)),
            ("players", (players, 1 + 2 * len(self.pvars))), ("phase", (len(phases),)),
            ("pending", (len(KINDS) + 1 + players + len(decisions),)),
            ("zones", (len(self.zone_ids), self.zone_width)), ("things", (len(self.thing_index), self.thing_width)),
            ("partial", (catalogue.size,)),
        ]
        self.offsets, at = {}, 0
        for name, shape in self.pieces:
            self.offsets[name] = at
            at += int(np.prod(shape))
        self.size = at
        # the divisors of the normalisation (module docstring); a table without things or zones divides by 1
        self.per_thing = 1.0 / max(1, len(self.thing_index))
        self.per_zone = 1.0 / max(1, len(self.zone_ids))
        self.per_seat = 1.0 / players
        self.per_token = 1.0 / max(1, catalogue.max_length)
        # a player counter with both bounds declared is scaled linearly onto [0, 1]: (min, 1 / (max - min))
        self.pvar_scale = [_linear(ruleset.player_vars[name]) for name in self.pvars]
        self.low, self.high = self._range()
        self.ruleset, self.table = ruleset, table

    def _range(self):
        """The bounds of each cell (for the observation space): 0..1, or -1..1 where a number may be negative."""
        low, high = np.zeros(self.size, np.float32), np.ones(self.size, np.float32)
        parts = self.split(low)
        parts["globals"][:] = -1.0
        for j, scale in enumerate(self.pvar_scale):
            if scale is None:
                parts["players"][:, 1 + 2 * j] = -1.0
        if self.zone_props:
            parts["zones"][:, self.zone_width - len(self.zone_props):] = -1.0
        parts["things"][:, 4:] = -1.0
        return low, high

    def split(self, tensor) -> dict:
        """Named, reshaped views of the pieces of a flat tensor."""
        out, at = {}, 0
        for name, shape in self.pieces:
            n = int(np.prod(shape))
            out[name] = tensor[at:at + n].reshape(shape)
            at += n
        return out

    def encode(self, view: dict, partial=(), out=None):
        """Fill ``out`` (or a new float32 array) with the encoding of a seat's ``view``."""
        # the cells written, by index: most of an encoding is zeros (the spaces and things of a big board), and
        # turning a whole list of floats into an array cost more than the rest of the encoding
        buf = defaultdict(float)
        at = self.offsets
        seat = view["you"]
        if seat is not None:
            buf[at["you"] + seat] = 1.0
        buf[at["over"]] = float(bool(view["over"]))
        scalar = self.scalar
        base = at["globals"]
        for name, value in view["vars"].items():
            i = self.global_index.get(name)
            if i is not None:
                buf[base + i] = scalar(value)
        width = 1 + 2 * len(self.pvars)
        for p in view["players"]:
            row = at["players"] + p["seat"] * width
            buf[row] = float(bool(p["out"]))
            shown = p["vars"]
            for j, name in enumerate(self.pvars):
                if name in shown:
                    buf[row + 1 + 2 * j] = self.counter(j, shown[name])
                    buf[row + 2 + 2 * j] = 1.0
        for name in view["phase"]:
            if name in self.phase_index:
                buf[at["phase"] + self.phase_index[name]] = 1.0
        pending = view["pending"]
        if pending is not None:
            row = at["pending"]
            buf[row + KINDS.index(pending["kind"])] = 1.0
            buf[row + len(KINDS)] = float(seat in pending["deciding"])
            for s in pending.get("committed", ()):
                buf[row + len(KINDS) + 1 + s] = 1.0
            if pending.get("name") in self.decision_index:
                buf[row + len(KINDS) + 1 + self.players + self.decision_index[pending["name"]]] = 1.0
        self._zones(view["zones"], buf)
        for token in partial:
            buf[at["partial"] + token] += self.per_token
        if out is None:
            tensor = np.zeros(self.size, np.float32)
        else:
            tensor = out
            tensor[:] = 0.0
        if buf:
            tensor[np.fromiter(buf.keys(), np.intp, len(buf))] = np.fromiter(buf.values(), np.float32, len(buf))
        return tensor

    def _zones(self, zones: dict, buf):
        kinds, publics, scalar = len(self.kinds), self.public_index, self.scalar
        zone_base, thing_base = self.offsets["zones"], self.offsets["things"]
        zw, tw = self.zone_width, self.thing_width
        props_at = 2 + kinds + len(publics)
        prop_slots = self.thing_prop_slots
        per_thing, per_zone = self.per_thing, self.per_zone
        for zid, zone in zones.items():
            if not zone["count"] and "props" not in zone:   # an empty zone adds nothing: most of a board
                continue
            zi = self.zone_index[zid]
            row = zone_base + zi * zw
            buf[row] = zone["count"] * per_thing
            for position, entry in enumerate(zone["things"]):
                if entry.get("hidden"):
                    buf[row + 1] += per_thing
                    back = self.kind_index.get(entry["back"])   # a back is a kind unless the ruleset names it
                    if back is not None:
                        buf[row + 2 + back] += per_thing
                    for key, value in entry.items():
                        i = publics.get((entry["back"], key, repr(_hashable(value))))
                        if i is not None:
                            buf[row + 2 + kinds + i] += per_thing
                    continue
                trow = thing_base + self.thing_index[entry["id"]] * tw
                buf[trow] = 1.0
                buf[trow + 1] = (zi + 1) * per_zone
                buf[trow + 2] = position * per_thing
                buf[trow + 3] = float(bool(entry.get("face_up")))
                for name, value in entry.items():   # an entry has fewer keys than a ruleset may declare properties
                    at = prop_slots.get(name)
                    if at is not None and value is not None:
                        buf[trow + at] = scalar(value)
            props = zone.get("props")
            if props:
                for j, name in enumerate(self.zone_props):
                    value = props.get(name)
                    if value is not None:
                        buf[row + props_at + j] = scalar(value)

    def counter(self, j: int, value) -> float:
        """The ``j``-th player counter's value (JSON-encoded) in the encoding: linear on its declared range."""
        scale = self.pvar_scale[j]
        if scale is not None and value.__class__ in _NUMBERS:
            return (value - scale[0]) * scale[1]
        return self.scalar(value)

    def scalar(self, value) -> float:
        """One number in [-1, 1] for a JSON-encoded value (see the module docstring)."""
        kind = value.__class__
        if kind is int or kind is float:
            return value / (1.0 + abs(value))
        if value is None:
            return 0.0
        if kind is bool:   # as the number it equals (True == 1): values that compare equal encode alike
            return 0.5 if value else 0.0
        if kind is str:
            return zlib.crc32(value.encode()) / 2 ** 32
        if kind is list:
            return len(value) / (1.0 + len(value))
        if kind is dict:
            if "player" in value:
                return (value["player"] + 1) * self.per_seat
            if "zone" in value:
                return (self.zone_index.get(value["zone"], -1) + 1) * self.per_zone
            if "thing" in value:
                return (self.thing_index.get(value["thing"], -1) + 1) * self.per_thing
            if "map" in value:
                return len(value["map"]) / (1.0 + len(value["map"]))
        return 0.0


_NUMBERS = (int, float)


def _linear(spec):
    """(min, 1 / (max - min)) for a counter declared with both bounds (max above min), else None."""
    low, high = getattr(spec, "min", None), getattr(spec, "max", None)
    if isinstance(low, (int, float)) and isinstance(high, (int, float)) and high > low:
        return (low, 1.0 / (high - low))
    return None
