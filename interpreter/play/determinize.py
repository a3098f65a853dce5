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
  which hidden thing really sits where. A zone's admission rule (``admit``) is
  public knowledge and holds in the sample too: a thing dealt to a slot whose
  zone would refuse it is swapped with the first other one of its group that
  both places admit (so a secret end-game card slot receives an end-game card,
  never a look-alike that could not lie there).
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
from itertools import compress
from operator import ne

from ..errors import GameError
from ..machine.values import ThingRef
from .position import counted
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


class DealPlan:
    """What :func:`determinize` deals in one position for one seat, worked out once for many samples.

    ``groups``: per group of hidden things of one look (two or more, in a fixed order), its slots, its
    ids sorted, the shuffle's steps (index, bound, bits), the indexes of its slots in a zone with an
    admission rule, the slots as runs (zone, first index, end index, first slot) of neighbouring
    places in one zone, written with one slice each, and each slot's zone. ``olds``: every group's ids in
    slot order, one group after the other. ``sites``: the
    state's slots (variables, counters, the rules' locals, the pending decision) whose value holds a
    reference to one of those things, the only ones a deal can change. ``forget``: the counters of other
    seats the seat may not see, (seat, name, declared initial value). All depend on the position and the
    seat only, never on which hidden thing is where.
    """
    __slots__ = ("forget", "groups", "olds", "sites")

    def __init__(self, groups: list, sites: list, forget: list):
        self.groups = groups
        self.olds = [tid for group in groups for _, _, tid in group[0]]
        self.sites = sites
        self.forget = forget


def deal_plan(game, seat: int) -> DealPlan:
    """:class:`DealPlan` of ``game`` for ``seat``: a bot that samples one position many times works it
    out once and passes it on to :func:`determinize`."""
    groups = hidden_groups(game, seat)
    plan = []
    for key in sorted(groups, key=repr):
        slots = groups[key]
        if len(slots) >= 2:
            steps = [(i, i + 1, (i + 1).bit_length()) for i in range(len(slots) - 1, 0, -1)]
            gated = [i for i, (zid, _, _) in enumerate(slots) if game.table.zones[zid].defn.admit is not None]
            homes = [zid for zid, _, _ in slots]
            plan.append((slots, sorted(tid for _, _, tid in slots), steps, gated, _runs(slots), homes))
    dealt = {tid for _, ordered, *_ in plan for tid in ordered}
    forget = [(other, name, spec.initial) for other in range(len(game.state.pvars))
              for name, spec in game.ruleset.player_vars.items()
              if spec.visibility == "nobody" or (spec.visibility == "owner" and other != seat)]
    return DealPlan(plan, _ref_sites(game.state, dealt) if dealt else [], forget)


def _runs(slots: list) -> list:
    """``slots`` (zone by zone, in index order) as runs of neighbouring places in one zone:
    (zone, first index, end index, the run's first slot)."""
    runs: list = []
    for at, (zid, index, _) in enumerate(slots):
        if runs and runs[-1][0] == zid and runs[-1][2] == index:
            runs[-1][2] = index + 1
        else:
            runs.append([zid, index, index + 1, at])
    return [tuple(run) for run in runs]


def determinize(game, seat: int, rand: random.Random, plan: DealPlan | None = None):
    """A clone of ``game`` that ``seat`` cannot tell from the real one (see the module text); ``plan`` is
    :func:`deal_plan` of this game and seat, when the caller has it."""
    if plan is None:
        plan = deal_plan(game, seat)
    sample = game.clone()
    sample.record = False
    sample.log = []   # it holds events the seat may not read
    st = sample.state
    news: list[str] = []   # the thing dealt to each slot of plan.olds
    getrandbits = rand.getrandbits
    zones, where = st.zones, st.where
    for slots, ordered, steps, gated, runs, homes in plan.groups:
        ids = ordered[:]
        # random.Random.shuffle, step for step (the same draws from the same stream), without its calls
        for i, n, k in steps:
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            ids[i], ids[j] = ids[j], ids[i]
        if gated:
            _admit(sample, slots, ids, gated)
        # each slot takes its new thing (one that stays writes itself again); where too, before the next
        # group's admission rules may read it
        for zid, lo, end, at in runs:
            zones[zid][lo:end] = ids[at:at + end - lo]
        where.update(zip(ids, homes))
        news += ids
    if news:
        olds = plan.olds
        st.deal_props(olds, news)   # each slot keeps its properties: they go to the thing dealt there
        if plan.sites:
            mapping = dict(compress(zip(olds, news), map(ne, olds, news)))   # the things that moved
            if mapping:
                _relabel(sample, mapping, plan.sites)
    _forget_hidden_counters(st, plan.forget)
    st.rng = rand.getrandbits(63)
    st.pins = {}
    pending = st.pending
    if pending is not None and pending.get("kind") == "simultaneous" and pending.get("commits"):
        pending["commits"] = {s: c for s, c in pending["commits"].items() if s == str(seat)}
    sample.offered_cache = None
    return sample


def _admit(sample, slots: list, ids: list, gated: list) -> None:
    """Make the deal ``ids`` (one per slot) one the zones' admission rules allow, in place: a thing a gated
    slot's zone refuses is swapped with the first other thing of the group that this zone admits and whose
    own slot admits the refused one. The rules are the ruleset's public ones; the deal stays a function of
    the seat's information and the stream. Where no swap fits, the deal is left as it is."""
    table = sample.table
    zones = [table.zones[zid] for zid, _, _ in slots]
    gates = set(gated)
    answers: dict = {}

    def admits(i: int, tid: str) -> bool:
        if i not in gates:
            return True
        key = (i, tid)
        if key not in answers:
            zone = zones[i]
            try:
                answers[key] = bool(zone.defn.admit(sample, {"thing": table.things[tid], "zone": zone}))
            except GameError:
                answers[key] = False
        return answers[key]

    for i in gated:
        if admits(i, ids[i]):
            continue
        for j in range(len(ids)):
            if j != i and admits(i, ids[j]) and admits(j, ids[i]):
                ids[i], ids[j] = ids[j], ids[i]
                break


def _ref_sites(st, dealt: set) -> list:
    """The slots of state ``st`` whose value holds a reference to a thing in ``dealt``: (where, key), where
    is "vars", a seat (its counters), ("frame", index) (a frame's locals) or "pending"."""
    sites = []
    for where, table in [("vars", st.vars), *enumerate(st.pvars),
                         *((("frame", i), frame[2]) for i, frame in enumerate(st.stack)),
                         *([("pending", st.pending)] if st.pending is not None else [])]:
        for key, value in table.items():
            if value.__class__ not in _PLAIN and _refers_to(value, dealt):
                sites.append((where, key))
    return sites


def _refers_to(value, ids: set) -> bool:
    if isinstance(value, ThingRef):
        return value.id in ids
    if isinstance(value, (list, tuple)):
        return any(_refers_to(v, ids) for v in value)
    if isinstance(value, dict):
        return any(_refers_to(v, ids) for v in value.values())
    return False


def _relabel(sample, mapping: dict, sites: list) -> None:
    """Thing ``mapping[old]`` now lies where ``old`` did (the zones and the properties say so already): it
    takes over every reference to ``old`` in the state (in ``sites``, the only slots that hold one: the
    clone's own dicts, State.clone copied them and the lists and dicts inside)."""
    st, things = sample.state, sample.table.things
    for where, key in sites:
        if where == "vars":
            table = st.vars
        elif where == "pending":
            table = st.pending
        elif where.__class__ is int:
            table = st.pvars[where]
        else:
            table = st.stack[where[1]][2]
        table[key] = _swap_refs(table[key], mapping, things)   # an existing key: the dict's order stays


_PLAIN = frozenset({int, float, str, bool, type(None)})


def _swap_refs(value, mapping: dict, things: dict):
    if value.__class__ is ThingRef:
        new = mapping.get(value.id)
        return value if new is None else things[new]
    if isinstance(value, list):
        return [_swap_refs(v, mapping, things) for v in value]
    if isinstance(value, tuple):
        return tuple(_swap_refs(v, mapping, things) for v in value)
    if isinstance(value, dict):
        return {k: _swap_refs(v, mapping, things) for k, v in value.items()}
    return value


def _forget_hidden_counters(st, forget: list) -> None:
    """Set the counters in ``forget`` (:class:`DealPlan`) back to their declared initial value."""
    pvars, held = st.pvars, st.held
    for other, name, initial in forget:
        pvars[other][name] = value = copy_data(initial)
        if held is not None and ((other, name) in held or counted(value)):
            st.held = held = None   # the position's size changed: counted afresh at the sample's first decision
