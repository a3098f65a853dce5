"""Each seat's observation kept from step to step and re-encoded only where the game changed.

A learner asks for an observation at every step, and most of a big board's
encoding is its zones and their things (a bundled board game: 124 zones, 237 things),
of which a step changes a few. Encoding them all again cost more than the
step itself, and so did comparing them all with a copy (a step of the engine
leaves little of them in the processor's caches). The engine says instead
which zones changed: ``Game.changed`` (:class:`interpreter.play.runtime.RuleRuntime`),
a set the runtime adds a zone id to whenever a thing enters or leaves the
zone, the zone is shuffled, a property of a thing in it or of the zone is
set, a thing in it is flipped or peeked at. A :class:`Following` puts its own
set there, keeps per seat the last encoding, and re-encodes only the zones
named since the seat last looked (through :meth:`StateEncoder.zone`, the same
cells as an encoding from scratch); a new game, a state put in place from
outside or another listener makes every zone be encoded again. The rest of
the observation (who is asked, variables, counters, phase, the pending
decision, the partial action) is small: variables and counters are kept
with their cells and compared by value, the others written afresh.

Only the engine's own methods are seen: a state changed by hand (a test
swapping two things in ``game.state.zones``) is not, so put such a state in
place as a new game (``env.reset_to(game)``, ``Session(..., start=game)``).

A zone's cells depend only on its things, their properties, its own
properties and whether the seat sees into it, so a zone the engine did not
name keeps exactly the cells it had: the result is cell for cell the
encoding from scratch (``tests/test_rl_incremental.py`` checks it at every
step of seeded games, for every seat, hidden information included). A seat
learns nothing more: what it is shown is the same; only how much work is
done differs.
"""
from __future__ import annotations

from itertools import repeat
from typing import Any

import numpy as np

from ..play.state import copy_data
from .state_encoding import StateEncoder

_NEVER = object()   # a value nothing equals: the first look encodes the counters
# variables and a seat's counters are kept with their cells when there are this many or more: comparing
# and copying a few costs more than encoding them again (Kuhn poker's change at every step)
FEW = 8


class Following:
    """The observations of one game's seats, as the game goes on. Keep one per session; a copy of the game
    needs its own."""

    def __init__(self, encoder: StateEncoder):
        self.encoder = encoder
        self.seats: dict[int, _Seat] = {}
        # the game followed, its state, the set put in it
        self.game: Any = None
        self.state: Any = None
        self.changes: set | None = None
        # (whether open to the seat, zone) -> its cells, for a zone not changed since some seat encoded it and
        # whose cells serve every seat it is as open to (StateEncoder.seat_free): the next seat to look takes them
        self.shared: dict = {}

    def encode(self, g, seat: int, partial=()):
        """The seat's encoding of ``g`` as :meth:`StateEncoder.encode` gives it. The array is this object's:
        the next call for the seat changes it in place, so copy it to keep it."""
        if g is not self.game or g.state is not self.state or g.changed is not self.changes:
            # another game, a state put in place, or our set replaced: nothing is known of what changed
            self.game, self.state = g, g.state
            self.changes = g.changed = set()
            self.shared.clear()
            for track in self.seats.values():
                track.everything = True
        elif self.changes:
            shared = self.shared
            for track in self.seats.values():
                track.pending |= self.changes
            if shared:
                for zid in self.changes:
                    shared.pop((True, zid), None)
                    shared.pop((False, zid), None)
            self.changes.clear()
        found = self.seats.get(seat)
        track = found if found is not None else self.seats.setdefault(seat, _Seat(self.encoder))
        return track.update(g, seat, partial, self.shared)


class _Seat:
    """One seat's last encoding, the cells each zone wrote in it and the zones changed since."""

    def __init__(self, encoder: StateEncoder):
        self.encoder = encoder
        self.everything = True      # every zone to encode (a new game)
        self.pending: set = set()   # the zones changed since the last look
        self.written: dict = {}     # zone -> the cells it wrote
        self.vars: Any = _NEVER     # the global variables ...
        self.vars_cells: dict = {}  # ... and their cells
        self.rows: list = []        # per seat: (its counters, whether out, the row's cells)
        self.spelling = False       # whether the tensor holds a partial action
        e = encoder.encoder
        self.zones_at, self.partial_at = e.offsets["zones"], e.offsets["partial"]
        self.tensor = np.zeros(e.size, np.float32)

    def update(self, g, seat: int, partial, shared: dict):
        st, encoder, written = g.state, self.encoder, self.written
        zones = st.zones
        if self.everything:
            self.everything = False
            self.pending.clear()
            dirty = zones.keys()
            # every cell of the zones and things cleared, then written again
            self.tensor[self.zones_at:self.partial_at] = 0.0
            written.clear()
            buf: dict = {}
        else:
            dirty = self.pending
            # one write: the old cells of each changed zone cleared, then its new ones (a thing that moved is
            # written by its new zone), then the cells before the zones and the partial action
            buf = {}
            for zid in dirty:
                old = written.get(zid)
                if old:
                    buf.update(zip(old, repeat(0.0)))
        is_open = encoder.open_zones.get(seat)
        if is_open is None:
            is_open = {}
        for zid in dirty:
            cells = shared.get((is_open.get(zid), zid))
            if cells is None:
                cells = encoder.zone(g, seat, zid, zones[zid])
                if cells:
                    free = encoder.seat_free(g, seat, zid)
                    if free is not None:
                        shared[free] = cells
            if cells:
                buf.update(cells)
                written[zid] = cells   # never changed once made (StateEncoder.zone): kept as it is
            else:
                written.pop(zid, None)
        self.pending = set()
        tensor = self.tensor
        if buf:
            tensor[np.fromiter(buf.keys(), np.intp, len(buf))] = np.fromiter(buf.values(), np.float32, len(buf))
        # the cells before the zones, written whole from a list (a few dozen): variables and counters kept with
        # their cells (a step changes few), the rest worked out afresh
        head: dict = {}
        variables = st.vars
        if len(variables) < FEW:
            encoder.globals(variables, head)
        else:
            if variables != self.vars:
                self.vars = copy_data(variables)
                self.vars_cells = {}
                encoder.globals(variables, self.vars_cells)
            head.update(self.vars_cells)
        rows, out = self.rows, st.out
        for s, counters in enumerate(st.pvars):
            if len(counters) < FEW:
                encoder.player(seat, s, counters, out[s], head)
                continue
            if s >= len(rows):
                rows.extend([(_NEVER, None, None)] * (s + 1 - len(rows)))
            row = rows[s]
            if counters != row[0] or out[s] != row[1]:
                shown: dict = {}
                encoder.player(seat, s, counters, out[s], shown)
                row = rows[s] = (copy_data(counters), out[s], shown)
            head.update(row[2])
        encoder.flow(st, seat, head)
        line = [0.0] * self.zones_at
        for i, v in head.items():
            line[i] = v
        tensor[:self.zones_at] = line
        # the partial action: most steps have none, and then neither had the last most often
        if partial or self.spelling:
            tensor[self.partial_at:] = 0.0
            spelt: dict = {}
            encoder.partial(partial, spelt)
            for i, v in spelt.items():
                tensor[i] = v
            self.spelling = bool(partial)
        return tensor
