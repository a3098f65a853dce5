"""A full game state sampled from what one seat may see: the determinizer of the search bots.

A bot that searches ahead needs a whole state to play on, but its seat sees
only part of the real one. :func:`determinize` returns a clone of the game in
which everything the seat cannot see has been replaced by a guess that agrees
with everything it can see:

* **hidden things** (``visibility.can_see`` false) are grouped by what the seat
  sees of them: their back (:func:`views.back_of`: the kind, unless the
  ruleset declares a back several kinds share) and the attributes their
  definition marks ``public`` (what :func:`views.hidden_entry` shows), and their owner (a
  per-player thing's back shows its colour). Each group's ids are sorted,
  shuffled with the caller's random stream and dealt back to the group's
  hidden slots, whatever zone a slot is in (a slot is a position in a zone:
  a card in a deck may be dealt into another player's hand). The sample is
  thus a function of the seat's information and the stream only, never of
  which hidden thing really sits where. Zone admission rules are not
  consulted: a zone that admits only some hidden things of one look could
  receive another in a sample.
* **Identities move, places stay.** Dynamic properties (``state.props``) stay
  with the slot: they are the table's bookkeeping of that place (the letter a
  face-down token lies on, who peeked at the top card). A reference to a
  hidden thing anywhere in the state (variables, the flow's locals, the
  pending decision) is relabelled in the same way, so "the card just drawn"
  still means the card in that slot. A ruleset that wrote a secret fact about
  a face-down thing into one of its properties would let the search read it;
  write such facts as static attributes (hidden with the thing) instead.
* **other seats' hidden counters** (player variables with visibility ``owner``
  or ``nobody``) are reset to their declared initial value;
* **the random stream** is reseeded from the caller's stream and pinned chance
  outcomes are dropped, so future dice and shuffles are not the real ones;
* **simultaneous choices** other seats have committed are dropped: in the
  sample they choose again;
* **the log** is emptied (it holds events the seat may not read) and the clone
  does not record.

What is not used yet: the seat's memory. A thing the seat once saw (a card
revealed, then turned down) is dealt like any other hidden thing; so is a
thing another seat was shown. The sample is consistent with the seat's view
now, not with everything it has been shown.

The function only reads and writes a :class:`State`; it knows no game.
"""
from __future__ import annotations

import random

from ..machine.values import ThingRef
from .state import copy_data
from .views import back_of
from .visibility import can_see


def hidden_groups(game, seat: int) -> dict:
    """The things ``seat`` cannot see, grouped by what it sees of them: {look: [(zone, index, id)]}.

    Slots are listed zone by zone in the state's zone order, so the grouping
    does not depend on which hidden thing is where.
    """
    st, table = game.state, game.table
    groups: dict = {}
    for zid, items in st.zones.items():
        zdef = table.zones[zid].defn
        if zdef.visibility == "everyone":
            continue
        for index, tid in enumerate(items):
            if can_see(game, seat, tid, zid):
                continue
            t = table.things[tid]
            # what the seat sees of it: its back (the kind unless the ruleset declares a shared back), whose
            # it is (a per-player thing's own colour), and its public attributes -- never its hidden kind
            key = (back_of(game, t), t.owner, tuple(sorted((k, repr(t.attrs[k])) for k in t.public if k in t.attrs)))
            groups.setdefault(key, []).append((zid, index, tid))
    return groups


def deal_plan(game, seat: int) -> list:
    """What :func:`determinize` deals: per group of hidden things of one look (two or more, in a fixed
    order), its slots and its ids sorted. It depends on the position and the seat only, so a bot that
    samples one position many times works it out once and passes it on."""
    groups = hidden_groups(game, seat)
    plan = []
    for key in sorted(groups, key=repr):
        slots = groups[key]
        if len(slots) >= 2:
            plan.append((slots, sorted(tid for _, _, tid in slots)))
    return plan


def determinize(game, seat: int, rand: random.Random, plan: list | None = None):
    """A clone of ``game`` that ``seat`` cannot tell from the real one (see the module text); ``plan`` is
    :func:`deal_plan` of this game and seat, when the caller has it."""
    sample = game.clone()
    sample.record = False
    sample.log = []
    st = sample.state
    mapping: dict[str, str] = {}
    zones, where = st.zones, st.where
    for slots, ordered in (deal_plan(game, seat) if plan is None else plan):
        ids = ordered[:]
        rand.shuffle(ids)
        for (zid, index, old), new in zip(slots, ids):
            if old != new:
                mapping[old] = new
                zones[zid][index] = new
                where[new] = zid
    if mapping:
        _relabel(sample, mapping)
    _forget_hidden_counters(sample, seat)
    st.rng = rand.getrandbits(63)
    st.pins = {}
    pending = st.pending
    if pending is not None and pending.get("kind") == "simultaneous" and pending.get("commits"):
        pending["commits"] = {s: c for s, c in pending["commits"].items() if s == str(seat)}
    sample.offered_cache = None
    return sample


def _relabel(sample, mapping: dict) -> None:
    """Thing ``mapping[old]`` now lies where ``old`` did (the zones say so already): it takes over the
    slot's properties and every reference to ``old`` in the state."""
    st, things = sample.state, sample.table.things
    st.move_props(mapping)
    refs = {things[old]: things[new] for old, new in mapping.items()}
    # the clone's own dicts (State.clone copied them, and the lists and dicts inside): changed in place,
    # and only where a value is not plain, which most are
    _swap_in(st.vars, refs)
    for pvars in st.pvars:
        _swap_in(pvars, refs)
    for frame in st.stack:
        _swap_in(frame[2], refs)
    if st.pending is not None:
        _swap_in(st.pending, refs)


_PLAIN = frozenset({int, float, str, bool, type(None)})


def _swap_in(table: dict, refs: dict) -> None:
    for key, value in table.items():
        if value.__class__ not in _PLAIN:
            table[key] = _swap_refs(value, refs)   # an existing key: the dict's order stays


def _swap_refs(value, refs: dict):
    if isinstance(value, ThingRef):
        return refs.get(value, value)
    if isinstance(value, list):
        return [_swap_refs(v, refs) for v in value]
    if isinstance(value, tuple):
        return tuple(_swap_refs(v, refs) for v in value)
    if isinstance(value, dict):
        return {k: _swap_refs(v, refs) for k, v in value.items()}
    return value


def _forget_hidden_counters(sample, seat: int) -> None:
    specs = sample.ruleset.player_vars
    for other, pvars in enumerate(sample.state.pvars):
        for name, spec in specs.items():
            vis = spec.visibility
            if vis == "nobody" or (vis == "owner" and other != seat):
                pvars[name] = copy_data(spec.initial)
