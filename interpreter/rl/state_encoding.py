"""The observation encoding read straight from a game's state: what ``ObservationEncoder.encode(view)`` gives
for ``game.view(seat)``, cell for cell, without building the view.

A learner asks for an observation at every step, and building the view (a
dict per zone and per thing, every value JSON-encoded) then reading it again
was half of an environment step. Here the same visibility rules
(:mod:`interpreter.play.visibility`, the ones ``view`` applies) decide what the
seat sees, and only that is read: a hidden thing gives only what its hidden
entry (``views.hidden_entry``) shows, its back and its public attributes,
worked out once per table. ``tests/test_rl_learning.py`` checks at every step
of random games of every ruleset, for every seat, that the two encodings are
equal; the hidden-swap tests check that neither changes when hidden things
trade places.
"""
from __future__ import annotations

import numpy as np

from ..machine.values import encode
from ..play import decisions
from ..play.views import hidden_entry
from ..play.visibility import face_shown_to, zone_open_to
from .observation import KINDS, _NUMBERS, _hashable

_PLAIN = frozenset((int, float, bool, str, type(None)))


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
        self.decision_kind = {kind: i for i, kind in enumerate(KINDS)}

    def value(self, v) -> float:
        """The scalar of a state value, as the view would encode it."""
        return self.encoder.scalar(v if v.__class__ in _PLAIN else encode(v))

    def encode(self, g, seat: int, partial=(), out=None):
        e, st = self.encoder, g.state
        buf = {}
        at = e.offsets
        buf[at["you"] + seat] = 1.0
        buf[at["over"]] = float(bool(st.over))
        value = self.value
        base = at["globals"]
        for name, v in st.vars.items():
            i = e.global_index.get(name)
            if i is not None:
                buf[base + i] = value(v)
        width = 1 + 2 * len(e.pvars)
        scales = e.pvar_scale
        for s, counters in enumerate(st.pvars):
            row = at["players"] + s * width
            buf[row] = float(bool(st.out[s]))
            for j, (name, visibility) in enumerate(self.visibility):
                if name in counters and (visibility == "everyone" or (visibility == "owner" and seat == s)):
                    v, scale = counters[name], scales[j]
                    if scale is not None and v.__class__ in _NUMBERS:
                        buf[row + 1 + 2 * j] = (v - scale[0]) * scale[1]
                    else:
                        buf[row + 1 + 2 * j] = value(v)
                    buf[row + 2 + 2 * j] = 1.0
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
        self._zones(g, seat, buf)
        for token in partial:
            buf[at["partial"] + token] = buf.get(at["partial"] + token, 0.0) + e.per_token
        tensor = np.zeros(e.size, np.float32) if out is None else out
        if out is not None:
            tensor[:] = 0.0
        if buf:
            tensor[np.fromiter(buf.keys(), np.intp, len(buf))] = np.fromiter(buf.values(), np.float32, len(buf))
        return tensor

    def _zones(self, g, seat, buf):
        e, st = self.encoder, g.state
        zone_base, thing_base = e.offsets["zones"], e.offsets["things"]
        zw, tw = e.zone_width, e.thing_width
        per_thing, per_zone = e.per_thing, e.per_zone
        props_at = 2 + len(e.kinds) + len(e.public_index)
        slots, value, face_up_slot = e.thing_prop_slots, self.value, self.face_up_slot
        every_prop = st.props
        for zid, items in st.zones.items():
            if zid == "box":
                continue
            extra = st.zprops.get(zid)
            if not items and not extra:
                continue
            zi = e.zone_index[zid]
            row = zone_base + zi * zw
            buf[row] = len(items) * per_thing
            open_zone = zone_open_to(g, seat, zid)
            for position, tid in enumerate(items):
                props = every_prop[tid]
                if not open_zone and not face_shown_to(props, seat):
                    for cell in self.hidden_cells[tid]:
                        buf[row + cell] = buf.get(row + cell, 0.0) + per_thing
                    continue
                trow = thing_base + e.thing_index[tid] * tw
                buf[trow] = 1.0
                buf[trow + 1] = (zi + 1) * per_zone
                buf[trow + 2] = position * per_thing
                face_up = float(bool(props.get("face_up")))
                buf[trow + 3] = face_up
                for slot, v in self.static_cells[tid]:
                    buf[trow + slot] = v
                if face_up_slot is not None:
                    buf[trow + face_up_slot] = face_up
                for k, v in props.items():   # a property overrides a static attribute of its name, as in the view
                    slot = slots.get(k)
                    if slot is not None and k != "face_up" and k != "known_to":
                        buf[trow + slot] = value(v) if v is not None else 0.0
            if extra:
                for j, name in enumerate(e.zone_props):
                    v = extra.get(name)
                    if v is not None:
                        buf[row + props_at + j] = value(v)
