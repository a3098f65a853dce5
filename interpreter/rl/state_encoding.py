"""The observation encoding read straight from a game's state: what ``ObservationEncoder.encode(view)`` gives
for ``game.view(seat)``, cell for cell, without building the view.

A learner asks for an observation at every step, and building the view (a
dict per zone and per thing, every value JSON-encoded) then reading it again
was half of an environment step. Here the same visibility rules
(:mod:`interpreter.play.visibility`, the ones ``view`` applies: whether a zone is
open to the seat, worked out once per table, and ``face_shown_to`` inlined) decide what the
seat sees, and only that is read: a hidden thing gives only what its hidden
entry (``views.hidden_entry``) shows, its back and its public attributes,
worked out once per table. ``tests/test_rl_learning.py`` checks at every step
of random games of every ruleset, for every seat, that the two encodings are
equal; the hidden-swap tests check that neither changes when hidden things
trade places.
"""
from __future__ import annotations

from collections import Counter
from itertools import accumulate, chain, repeat

import numpy as np

from ..machine.values import PlayerRef, ThingRef, ZoneRef, encode
from ..play import decisions
from ..play.views import hidden_entry
from ..play.visibility import zone_open_to
from .observation import KINDS, ObservationEncoder, _hashable

_SEEN = ()   # a zone's contents met once (see StateEncoder._zones)
ZONES_KEPT = 20_000
ROWS_KEPT = 50_000   # zones remembered (a few MB at most); past that the memory starts again
_PLAIN = frozenset((int, float, bool, str, type(None)))
_IMMUTABLE = _PLAIN | {PlayerRef, ThingRef, ZoneRef}


def state_encoder(encoder: ObservationEncoder) -> StateEncoder:
    """The :class:`StateEncoder` of ``encoder``, made once and kept with it."""
    found = encoder.__dict__.get("from_state")
    if found is None:
        found = encoder.__dict__["from_state"] = StateEncoder(encoder, encoder.table, encoder.ruleset)
    return found


def _snapshot_safe(props_list, extra) -> bool:
    """Whether a shallow copy of these properties stays what they are now: no list or map in them, which
    the rules could change in place."""
    return all(v.__class__ in _IMMUTABLE for props in props_list for v in props.values()) and \
        (not extra or all(v.__class__ in _IMMUTABLE for v in extra.values()))


class StateEncoder:
    """Encodes ``(game, seat)`` as its :class:`ObservationEncoder` encodes the seat's view."""

    def __init__(self, encoder, table, ruleset):
        self.encoder = encoder
        e = encoder
        self.visibility = [(name, ruleset.player_vars[name].visibility) for name in e.pvars]
        kinds = len(e.kinds)
        # per thing: the zone-row cells its hidden entry counts in (hidden, its back, its public values) ...
        self.hidden_cells = {}
        # ... and, seen, its static entry's values that land in a declared property's slot
        self.static_cells = {}
        for t in table.thing_list:
            entry = hidden_entry(t)
            cells = [1]
            back = e.kind_index.get(entry["back"])
            if back is not None:
                cells.append(2 + back)
            for key, value in entry.items():
                i = e.public_index.get((entry["back"], key, repr(_hashable(value))))
                if i is not None:
                    cells.append(2 + kinds + i)
            self.hidden_cells[t.id] = cells
            static = {"id": t.id, "name": t.name, "kind": t.kind}
            static.update({k: encode(v) for k, v in t.attrs.items()})
            self.static_cells[t.id] = [(e.thing_prop_slots[k], e.scalar(v)) for k, v in static.items()
                                       if k in e.thing_prop_slots and v is not None]
        self.face_up_slot = e.thing_prop_slots.get("face_up")
        # things whose hidden entries count in the same cells share a class: a zone of hidden things is kept by
        # the classes of its things (a hand of face-down cards of one back, whichever cards they are)
        classes: dict = {}
        self.hidden_class = {tid: classes.setdefault(tuple(cells), len(classes))
                             for tid, cells in self.hidden_cells.items()}
        self.hidden_zones: dict = {}   # (zone, its things' classes) -> its cells
        # n things' share of a count, added up one by one as the view's encoding does (the same float to the bit)
        self.sums = list(accumulate(repeat(e.per_thing, len(table.thing_list)), initial=0.0))
        self.decision_kind = {kind: i for i, kind in enumerate(KINDS)}
        self.shown: dict = {}        # (observer, seat) -> seat's row, the counters the observer sees in it
        self.open_zones: dict = {}   # seat -> zone id -> whether the seat sees everything in it
        self.kept: dict = {}         # (seat, zone, its things) -> (their properties, the zone's, its cells)
        self.rows: dict = {}         # (thing, zone, properties) -> the cells of its row but its place
        self.values: dict = {}       # a value -> its scalar
        self.seat_bound = False      # whether the last zone's cells were the seat's own (seat_free)
        self.trows = {tid: e.offsets["things"] + i * e.thing_width for tid, i in e.thing_index.items()}

    def value(self, v) -> float:
        """The scalar of a state value, as the view would encode it (kept by value: values that compare equal
        encode alike, and a reference's encoding builds a dict); a number at once, as quick as the lookup."""
        kind = v.__class__
        if kind is int or kind is float or kind is bool or v is None:
            return self.encoder.scalar(v)
        try:
            found = self.values.get(v)
        except TypeError:   # a list or a map
            return self.encoder.scalar(encode(v))
        if found is None:
            if len(self.values) >= ROWS_KEPT:
                self.values.clear()
            found = self.values[v] = self.encoder.scalar(v if v.__class__ in _PLAIN else encode(v))
        return found

    def encode(self, g, seat: int, partial=(), out=None):
        e = self.encoder
        buf: dict = {}
        self.head(g, seat, buf)
        self._zones(g, seat, buf)
        self.partial(partial, buf)
        tensor = np.zeros(e.size, np.float32) if out is None else out
        if out is not None:
            tensor[:] = 0.0
        if buf:
            tensor[np.fromiter(buf.keys(), np.intp, len(buf))] = np.fromiter(buf.values(), np.float32, len(buf))
        return tensor

    def head(self, g, seat: int, buf: dict) -> None:
        """The cells before the zones (you, over, globals, players, phase, pending) into ``buf``."""
        st = g.state
        self.globals(st.vars, buf)
        for s, counters in enumerate(st.pvars):
            self.player(seat, s, counters, st.out[s], buf)
        self.flow(st, seat, buf)

    def globals(self, variables: dict, buf: dict) -> None:
        """The cells of the global variables."""
        e, value = self.encoder, self.value
        index, base = e.global_index, e.offsets["globals"]
        for name, v in variables.items():
            i = index.get(name)
            if i is not None:
                buf[base + i] = value(v)

    def player(self, seat: int, s: int, counters: dict, out, buf: dict) -> None:
        """The cells of seat ``s``'s row as ``seat`` sees it: out, and each counter ``seat`` may see."""
        shown = self.shown.get((seat, s))
        if shown is None:   # the row and which counters a seat sees of another are declared: worked out once
            e = self.encoder
            row = e.offsets["players"] + s * (1 + 2 * len(e.pvars))
            shown = self.shown[seat, s] = (row, [(row + 1 + 2 * j, j, name, e.pvar_scale[j])
                                                 for j, (name, visibility) in enumerate(self.visibility)
                                                 if visibility == "everyone" or (visibility == "owner" and seat == s)])
        row, counters_shown = shown
        buf[row] = float(bool(out))
        for at, j, name, scale in counters_shown:
            if name in counters:
                v = counters[name]
                kind = v.__class__
                if scale is not None and (kind is int or kind is float):   # a number on its declared range
                    buf[at] = (v - scale[0]) * scale[1]
                else:
                    buf[at] = self.encoder.counter(j, v if kind in _PLAIN else encode(v))
                buf[at + 1] = 1.0

    def flow(self, st, seat: int, buf: dict) -> None:
        """The cells of who is asked, whether the game is over, the phases and the pending decision."""
        e = self.encoder
        at = e.offsets
        buf[at["you"] + seat] = 1.0
        buf[at["over"]] = float(bool(st.over))
        for name in st.phase:
            i = e.phase_index.get(name)
            if i is not None:
                buf[at["phase"] + i] = 1.0
        pending = st.pending
        if pending is not None:
            row = at["pending"]
            buf[row + self.decision_kind[pending["kind"]]] = 1.0
            buf[row + len(KINDS)] = float(seat in decisions.deciding(pending))
            if pending["kind"] == "simultaneous":
                for s in pending["commits"]:
                    buf[row + len(KINDS) + 1 + int(s)] = 1.0
            i = e.decision_index.get(pending.get("name")) if pending.get("name") else None
            if i is not None:
                buf[row + len(KINDS) + 1 + e.players + i] = 1.0

    def partial(self, partial, buf: dict) -> None:
        """The cells of the ids the seat has chosen so far for the action it spells, into ``buf``."""
        e = self.encoder
        at = e.offsets["partial"]
        for token in partial:
            buf[at + token] = buf.get(at + token, 0.0) + e.per_token

    def _zones(self, g, seat, buf):
        for zid, items in g.state.zones.items():
            cells = self.zone(g, seat, zid, items)
            if cells:
                buf.update(cells)

    def zone(self, g, seat, zid, items) -> dict | None:
        """The cells of zone ``zid`` (holding ``items``) and of the things in it that ``seat`` sees; None for
        the box and an empty zone without properties (nothing to write). Do not change the dict returned."""
        if zid == "box":
            return None
        st = g.state
        extra = st.zprops.get(zid)
        if not items and not extra:
            return None
        # a zone's cells follow from its things in order, their properties and its own: kept, and checked
        # with comparisons that run in C (reading a big board's things one by one was most of an encoding).
        # Values that compare equal encode alike (a truth value as the number it equals), so a hit is exact
        now = list(map(st.props.__getitem__, items))
        open_zone = self._open(g, seat, zid)
        if not open_zone and not extra:
            for props in now:
                if props.get("face_up") or props.get("known_to"):
                    break
            else:   # nothing in it seen by anyone: its cells follow from what the things' backs show, in order
                backs = (zid, tuple(map(self.hidden_class.__getitem__, items)))
                cells = self.hidden_zones.get(backs)
                if cells is None:
                    cells = self._zone_cells(zid, items, now, extra, open_zone, seat)
                    if len(self.hidden_zones) >= ZONES_KEPT:
                        self.hidden_zones.clear()
                    self.hidden_zones[backs] = cells
                self.seat_bound = False
                return cells
        if len(items) < 2 and not extra:   # a thing alone: its kept row (below) is as quick
            return self._zone_cells(zid, items, now, extra, open_zone, seat)
        kept = self.kept
        key = (-1 if open_zone else seat, zid, tuple(items))   # a zone open to a seat shows every such seat alike
        found = kept.get(key)
        if found is not None and found is not _SEEN and found[0] == now and found[1] == extra:
            self.seat_bound = found[3]
            return found[2]
        cells = self._zone_cells(zid, items, now, extra, open_zone, seat)
        if len(kept) >= ZONES_KEPT:
            kept.clear()
        if found is None:
            # seen once: the copies wait until it comes back (a hand of cards seldom holds the same cards
            # again, and copying each new one cost more than keeping saved)
            kept[key] = _SEEN
        elif _snapshot_safe(now, extra):
            kept[key] = ([dict(p) for p in now], dict(extra) if extra else extra, cells, self.seat_bound)
        return cells

    def seat_free(self, g, seat, zid) -> tuple | None:
        """After :meth:`zone` for ``seat``: the key under which its cells serve every seat alike (whether the
        zone is open to the seat, and the zone), or None when they were the seat's own (a hidden thing in it
        shown to some seats only)."""
        return None if self.seat_bound else (self._open(g, seat, zid), zid)

    def _open(self, g, seat, zid) -> bool:
        open_zones = self.open_zones.get(seat)
        if open_zones is None:   # a zone's visibility and owner are the table's: the same for every state
            open_zones = self.open_zones[seat] = {}
        found = open_zones.get(zid)
        if found is None:
            found = open_zones[zid] = zone_open_to(g, seat, zid)
        return found

    def _zone_cells(self, zid, items, props_list, extra, open_zone, seat) -> dict:
        """The cells of a zone's row and of the rows of the things in it that ``seat`` sees."""
        e = self.encoder
        zi = e.zone_index[zid]
        row = e.offsets["zones"] + zi * e.zone_width
        per_thing, rows, trows = e.per_thing, self.rows, self.trows
        cells = {row: len(items) * per_thing}
        hidden = []
        bound = False   # whether another seat to whom the zone is as open could see other cells
        for position, (tid, props) in enumerate(zip(items, props_list)):
            if not open_zone:
                known = props.get("known_to")
                if known:
                    bound = True
                if not (props.get("face_up") or (known and seat in known)):
                    hidden.append(tid)
                    continue
            # a seen thing's row but its place, kept by its zone and properties: a zone seldom met twice (a hand
            # of cards, a pile after a draw) still holds things met before; the place is written apart
            key: tuple | None
            try:
                key = (tid, zi, tuple(props.items()))
                row_cells = rows.get(key)
            except TypeError:   # a list or map among the properties: not kept
                key = row_cells = None
            if row_cells is None:
                row_cells = self._thing_row(tid, zi, props)
                if key is not None:
                    if len(rows) >= ROWS_KEPT:
                        rows.clear()
                    rows[key] = row_cells
            cells.update(row_cells)
            cells[trows[tid] + 2] = position * per_thing
        if hidden:   # each cell counts the hidden things it holds, its value the sum the view's encoding adds up
            sums, of = self.sums, self.hidden_cells
            counts: dict
            if len(hidden) > 4:   # counted in C (making a Counter costs more than a loop over a few)
                counts = Counter(chain.from_iterable(map(of.__getitem__, hidden)))
            else:
                counts = {}
                for tid in hidden:
                    for cell in of[tid]:
                        counts[cell] = counts.get(cell, 0) + 1
            for cell, n in counts.items():
                cells[row + cell] = sums[n]
        if extra:
            props_at = 2 + len(e.kinds) + len(e.public_index)
            for j, name in enumerate(e.zone_props):
                if extra.get(name) is not None:
                    cells[row + props_at + j] = self.value(extra[name])
        self.seat_bound = bound
        return cells

    def _thing_row(self, tid, zi, props) -> dict:
        """The cells of a seen thing's row but its place in the zone: seen, its zone, face up, its declared
        properties."""
        e = self.encoder
        trow = self.trows[tid]
        face_up = float(bool(props.get("face_up")))
        cells = {trow: 1.0, trow + 1: (zi + 1) * e.per_zone, trow + 3: face_up}
        for slot, v in self.static_cells[tid]:
            cells[trow + slot] = v
        if self.face_up_slot is not None:   # the view's entry holds the truth value: encoded as a value
            cells[trow + self.face_up_slot] = e.scalar(bool(face_up))
        slots = e.thing_prop_slots
        for k, v in props.items():   # a property overrides a static attribute of its name, as in the view
            slot = slots.get(k)
            if slot is not None and k != "face_up" and k != "known_to":
                cells[trow + slot] = self.value(v) if v is not None else 0.0
        return cells
