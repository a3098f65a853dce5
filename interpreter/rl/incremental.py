"""Each seat's observation kept from step to step and re-encoded only where the state changed.

A learner asks for an observation at every step, and most of a big board's
encoding is its zones and their things (``titanic``: 124 zones, 237 things),
of which a step changes one or two. Encoding them all again cost more than
the step itself. A :class:`Following` keeps, per seat, the last encoding and
a copy of what it was made from: each zone's things in order, each thing's
properties and each zone's own. At the next call it compares those with the
state (comparisons that run in C, a few µs for the whole table), re-encodes
only the zones where something differs (through
:meth:`StateEncoder.zone`, the same cells as an encoding from scratch), and
writes the rest of the observation (who is asked, variables, counters,
phase, the pending decision, the partial action) afresh, as it is small.

A zone's cells depend only on its things, their properties, its own
properties and whether the seat sees into it, so a zone found equal keeps
exactly the cells it had: the result is cell for cell the encoding from
scratch (``tests/test_rl_incremental.py`` checks it at every step of seeded
games, for every seat, hidden information included). A seat learns nothing
more: what it is shown is the same; only how much work is done differs.
"""
from __future__ import annotations

from itertools import compress
from operator import ne

import numpy as np

from ..play.state import copy_data
from .state_encoding import StateEncoder

_NEVER = object()   # a snapshot no value equals: the first call encodes every zone


class Following:
    """The observations of one game's seats (a new game of the same table may follow: only changes are
    re-encoded). Keep one per game being stepped; a copy of the game needs its own."""

    def __init__(self, encoder: StateEncoder):
        self.encoder = encoder
        self.seats: dict[int, _Seat] = {}

    def encode(self, g, seat: int, partial=()):
        """The seat's encoding of ``g`` as :meth:`StateEncoder.encode` gives it. The array is this object's:
        the next call for the seat changes it in place, so copy it to keep it."""
        track = self.seats.get(seat)
        if track is None or not track.fits(g.state):
            track = self.seats[seat] = _Seat(self.encoder, g.state)
        return track.update(g, seat, partial)


class _Seat:
    """One seat's last encoding and the copy of the state it was made from."""

    def __init__(self, encoder: StateEncoder, st):
        self.encoder = encoder
        self.zone_ids = tuple(st.zones)
        self.thing_ids = tuple(st.props)
        self.position = {zid: i for i, zid in enumerate(self.zone_ids)}
        n = len(self.zone_ids)
        self.items: list = [_NEVER] * n                 # each zone's things, in order
        self.zprops: dict = {"": _NEVER}                # the zones' own properties (at first equal to none)
        self.vars, self.vars_cells = _NEVER, {}         # the global variables and their cells
        self.rows: list = []                            # per seat: (its counters, whether out, the row's cells)
        self.props: list = [_NEVER] * len(self.thing_ids)   # each thing's properties
        self.written: list = [()] * n                   # the cells each zone wrote
        self.state = None                               # the state last checked to fit (its keys never change)
        e = encoder.encoder
        self.zones_at, self.partial_at = e.offsets["zones"], e.offsets["partial"]
        self.tensor = np.zeros(e.size, np.float32)

    def fits(self, st) -> bool:
        """Whether ``st`` has the zones and things, in the same order, of the state the copies were taken of."""
        if st is not self.state:
            if tuple(st.zones) != self.zone_ids or tuple(st.props) != self.thing_ids:
                return False
            self.state = st
        return True

    def update(self, g, seat: int, partial):
        st, encoder, tensor = g.state, self.encoder, self.tensor
        zones, props, zid_of = st.zones, st.props, self.zone_ids
        dirty = set(compress(range(len(zid_of)), map(ne, zones.values(), self.items)))
        if st.zprops != self.zprops:   # most steps change no zone's own properties: one comparison
            now, before, position = st.zprops, self.zprops, self.position
            for zid in [zid for zid in now.keys() | before.keys() if now.get(zid) != before.get(zid)]:
                if zid in now:
                    before[zid] = copy_data(now[zid])
                else:
                    del before[zid]
                if zid in position:
                    dirty.add(position[zid])
        changed = list(compress(range(len(self.thing_ids)), map(ne, props.values(), self.props)))
        if changed:
            where, position, tids, kept = st.where, self.position, self.thing_ids, self.props
            for ti in changed:
                tid = tids[ti]
                kept[ti] = copy_data(props[tid])   # a list inside (known_to) may change in place: copied
                dirty.add(position[where[tid]])
        if dirty:
            # every old cell of a changed zone is cleared first: a thing that moved is written by its new zone
            cleared = [i for zi in dirty for i in self.written[zi]]
            if cleared:
                tensor[np.fromiter(cleared, np.intp, len(cleared))] = 0.0
            buf: dict = {}
            for zi in dirty:
                zid = zid_of[zi]
                items = zones[zid]
                self.items[zi] = items[:]
                cells = encoder.zone(g, seat, zid, items)
                if cells:
                    buf.update(cells)
                    self.written[zi] = tuple(cells)
                else:
                    self.written[zi] = ()
            if buf:
                tensor[np.fromiter(buf.keys(), np.intp, len(buf))] = np.fromiter(buf.values(), np.float32, len(buf))
        # the cells before the zones: variables and counters kept by their values (a step changes few), the
        # rest written afresh, as the partial action
        buf = {}
        if st.vars != self.vars:
            self.vars = copy_data(st.vars)
            self.vars_cells = {}
            encoder.globals(st.vars, self.vars_cells)
        buf.update(self.vars_cells)
        rows, out = self.rows, st.out
        for s, counters in enumerate(st.pvars):
            if s >= len(rows):
                rows.append((_NEVER, None, None))
            if counters != rows[s][0] or out[s] != rows[s][1]:
                cells: dict = {}
                encoder.player(seat, s, counters, out[s], cells)
                rows[s] = (copy_data(counters), out[s], cells)
            buf.update(rows[s][2])
        encoder.flow(st, seat, buf)
        encoder.partial(partial, buf)
        tensor[:self.zones_at] = 0.0
        tensor[self.partial_at:] = 0.0
        tensor[np.fromiter(buf.keys(), np.intp, len(buf))] = np.fromiter(buf.values(), np.float32, len(buf))
        return tensor
