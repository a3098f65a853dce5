"""The dynamic game state: plain data, cheap to clone, JSON round-trippable.

Everything that changes during a game lives here and nowhere else: variables,
per-player counters, which thing is in which zone, dynamic properties, the
flow's position (the VM frame stack), the pending decision and the random
stream. The static rules live in the compiled :class:`Ruleset`.
"""
from __future__ import annotations

from itertools import chain, compress
from operator import ne

from ..machine import values


def copy_data(value):
    """Copy JSON-like data with references shared (they are immutable)."""
    # a call only for what holds more: most items are plain (numbers, texts, references)
    if isinstance(value, list):
        return [copy_data(v) if isinstance(v, (list, dict)) else v for v in value]
    if isinstance(value, dict):
        return {k: copy_data(v) if isinstance(v, (list, dict)) else v for k, v in value.items()}
    return value


_FLAT: set = set()   # classes met among the players' counters that are neither lists nor dicts (nor subclasses)


def _copy_pvars(pvars: list[dict]) -> list[dict]:
    """``copy_dict`` of each seat's counters: when none holds a list or a dict (told by the classes of all
    the seats' values together, each class looked at once) a flat copy each, without a test per counter."""
    kinds = set(map(type, chain.from_iterable(map(dict.values, pvars))))
    if not kinds <= _FLAT:
        for kind in kinds - _FLAT:
            if issubclass(kind, (list, dict)):
                return [copy_dict(p) for p in pvars]
            _FLAT.add(kind)
    return list(map(dict.copy, pvars))


def _copy_props(props: dict) -> dict:
    """Copy one thing's properties; lists inside (``known_to``, ...) must not be shared."""
    copy = dict(props)
    for key, value in props.items():
        if isinstance(value, (list, dict)):
            copy[key] = copy_data(value)
    return copy



def copy_dict(d: dict) -> dict:
    """``copy_data`` of a dict whose values are mostly plain: one copy, then only lists and dicts inside."""
    copy = d.copy()
    for key, value in d.items():
        if isinstance(value, (list, dict)):
            copy[key] = copy_data(value)
    return copy


def _holding_containers(table: dict) -> set:
    """The keys of ``table`` (things or zones) whose properties hold a list or a dict."""
    return {key for key, props in table.items() if any(isinstance(v, (list, dict)) for v in props.values())}


def _share(table: dict, deep) -> dict:
    """A copy of a property table sharing each entry, except those in ``deep``, which are copied."""
    copy = table.copy()
    for key in deep:
        copy[key] = _copy_props(copy[key])
    return copy


class State:
    """The position of one game.

    Things' and zones' dynamic properties are copied on write: a clone
    shares each property dict with the state it came from until either
    changes it, through :meth:`own_props` or :meth:`own_zprops`. A dict holding a list or a dict (e.g.
    ``known_to``) is copied at once instead, because a rule may change such a
    list in place; ``props_deep`` names those things (None: not known, look).
    """

    __slots__ = ("vars", "pvars", "out", "zones", "where", "props", "zprops", "links", "stack",
                 "pending", "rng", "pins", "steps", "over", "phase", "props_own", "props_deep", "zprops_own",
                 "zprops_deep", "added_arcs", "board_key", "held", "held_total", "index")

    def __init__(self):
        self.vars: dict = {}
        self.pvars: list[dict] = []
        self.out: list[bool] = []          # eliminated seats
        self.zones: dict[str, list[str]] = {}
        self.where: dict[str, str] = {}    # thing id -> zone id
        self.props: dict[str, dict] = {}   # thing id -> dynamic properties (face_up, known_to, ...)
        self.zprops: dict[str, dict] = {}  # zone id -> dynamic properties (removed, ...)
        self.links: list[list] = []        # board edges added during play: [a, b, kind, one_way]
        self.stack: list[list] = []        # VM frames, laid out as machine.vm.CODE/PC/LOCALS/RET
        self.pending: dict | None = None   # the decision the game waits for
        self.rng: int = 0
        self.pins: dict[str, list] = {}    # pinned chance outcomes, by draw name
        self.steps: int = 0
        self.over: bool = False
        self.phase: list[str] = []
        self.props_own: set = set()        # things whose props dict no clone shares (changed in place)
        self.props_deep: set | None = None  # things whose props hold a list or dict; None: not known
        self.zprops_own: set = set()       # zones whose props dict no clone shares
        self.zprops_deep: set | None = None  # zones whose props hold a list or dict; None: not known
        self.added_arcs: dict | None = None  # links by space (rules/board.py); None: not worked out yet
        self.board_key: tuple | None = None  # (removed spaces, links): how the board stands; None: not worked out
        self.held: dict | None = None      # items held by slot (play/position.py); None: not counted yet
        self.held_total: int = 0           # their sum, with the board's links
        # things by a property's value (dsl/prop_index.py): property -> (kind, default) -> value -> things;
        # a property's lists dropped when any thing's property of that name is written
        self.index: dict = {}

    def own_props(self, tid: str) -> dict:
        """Thing ``tid``'s properties, to change: copied first if a clone may share them."""
        props = self.props[tid]
        if tid not in self.props_own:
            deep = self.props_deep   # a thing not among them holds no list or dict: one flat copy does
            props = self.props[tid] = props.copy() if deep is not None and tid not in deep else _copy_props(props)
            self.props_own.add(tid)
        return props

    def own_zprops(self, zid: str) -> dict:
        """Zone ``zid``'s properties, to change: copied first (or made) if a clone may share them."""
        props = self.zprops.get(zid)
        if props is not None and zid in self.zprops_own:
            return props
        props = self.zprops[zid] = _copy_props(props) if props is not None else {}
        self.zprops_own.add(zid)
        return props

    def mark_deep(self, tid: str) -> None:
        """Thing ``tid``'s properties now hold a list or a dict."""
        if self.props_deep is not None:
            self.props_deep.add(tid)

    def move_props(self, mapping: dict) -> None:
        """Give thing ``mapping[old]`` the property dict of ``old``; whether it is owned or deep moves with it."""
        self.deal_props(list(mapping), list(mapping.values()))

    def deal_props(self, olds: list, news: list) -> None:
        """:meth:`move_props` of the mapping ``olds[i] -> news[i]``, where a thing may map to itself (a
        search's sample deals all its hidden things so: the pairs that stay need not be picked out first)."""
        props = self.props
        moved = list(map(props.__getitem__, olds))
        own, deep, held = self.props_own, self.props_deep, self.held
        # sizes kept by (thing, property) move with the properties; most kept sizes are variables' (text keys)
        held = held if held and any(key.__class__ is tuple for key in held) else None
        if own or deep or held:   # (in a sample mostly all empty: then no mapping is needed)
            mapping = dict(compress(zip(olds, news), map(ne, olds, news)))
            target = mapping.__getitem__
            for marked in (own, deep):
                if marked:
                    moving = set(map(target, marked.intersection(mapping)))
                    marked.difference_update(mapping.values())
                    marked |= moving
            if held:   # the total stays
                keys = [key for key in held if key.__class__ is tuple and len(key) == 2 and key[0] in mapping]
                sizes = [held.pop(key) for key in keys]
                for (old, name), size in zip(keys, sizes):
                    held[(mapping[old], name)] = size
        props.update(zip(news, moved))   # a thing that stays takes its own dict again
        self.index.clear()   # (whose values moved is not looked at: the lists are made again when walked)

    def clone(self) -> State:
        other = State.__new__(State)
        other.vars = copy_dict(self.vars)
        other.pvars = _copy_pvars(self.pvars)
        other.out = list(self.out)
        other.zones = dict(zip(self.zones, map(list.copy, self.zones.values())))
        other.where = dict(self.where)
        # shared until written (own_props, own_zprops); the ones holding lists or dicts are copied now
        if self.props_deep is None:
            self.props_deep = _holding_containers(self.props)
        if self.zprops_deep is None:
            self.zprops_deep = _holding_containers(self.zprops)
        deep, deep_zones = self.props_deep, self.zprops_deep
        other.props = _share(self.props, deep)
        self.props_own, other.props_own, other.props_deep = set(deep), set(deep), set(deep)
        other.zprops = _share(self.zprops, deep_zones)
        self.zprops_own, other.zprops_own, other.zprops_deep = set(deep_zones), set(deep_zones), set(deep_zones)
        other.links = self.links.copy()   # each link shared: made anew, never changed in place (rules/board.py)
        other.added_arcs = self.added_arcs   # shared: replaced, never changed, when a link is added
        other.board_key = self.board_key     # a tuple: dropped, never changed, when the board changes
        other.stack = [[f[0], f[1], copy_dict(f[2]), f[3]] for f in self.stack]
        other.pending = copy_dict(self.pending) if self.pending is not None else None
        other.rng = self.rng
        other.pins = {k: v[:] for k, v in self.pins.items()}
        other.steps = self.steps
        other.over = self.over
        other.phase = list(self.phase)
        other.held = None if self.held is None else self.held.copy()
        other.held_total = self.held_total
        other.index = {}   # made again when walked (a search's samples mostly change their things' properties)
        return other

    def to_json(self) -> dict:
        enc = values.encode
        return {
            "vars": {k: enc(v) for k, v in self.vars.items()},
            "pvars": [{k: enc(v) for k, v in p.items()} for p in self.pvars],
            "out": list(self.out),
            "zones": {k: list(v) for k, v in self.zones.items()},
            "props": {k: {pk: enc(pv) for pk, pv in v.items()} for k, v in self.props.items() if v},
            "zprops": {k: {pk: enc(pv) for pk, pv in v.items()} for k, v in self.zprops.items() if v},
            "links": [list(link) for link in self.links],
            "stack": [[f[0], f[1], {k: enc(v) for k, v in f[2].items()}, f[3]] for f in self.stack],
            "pending": enc(self.pending),
            "rng": str(self.rng),
            "pins": {k: list(v) for k, v in self.pins.items()},
            "steps": self.steps,
            "over": self.over,
            "phase": list(self.phase),
        }

    @classmethod
    def from_json(cls, data: dict, table) -> State:
        dec = lambda v: values.decode(v, table)  # noqa: E731
        st = cls()
        st.vars = {k: dec(v) for k, v in data["vars"].items()}
        st.pvars = [{k: dec(v) for k, v in p.items()} for p in data["pvars"]]
        st.out = [bool(x) for x in data["out"]]
        st.zones = {k: [str(t) for t in v] for k, v in data["zones"].items()}
        st.where = {t: z for z, ts in st.zones.items() for t in ts}
        st.props = {k: {pk: dec(pv) for pk, pv in v.items()} for k, v in data["props"].items()}
        st.zprops = {k: {pk: dec(pv) for pk, pv in v.items()} for k, v in data["zprops"].items()}
        st.links = [list(link) for link in data["links"]]
        st.stack = [[f[0], int(f[1]), {k: dec(v) for k, v in f[2].items()}, f[3]] for f in data["stack"]]
        st.pending = dec(data["pending"])
        st.rng = int(data["rng"])
        st.pins = {k: list(v) for k, v in data["pins"].items()}
        st.steps = int(data["steps"])
        st.over = bool(data["over"])
        st.phase = [str(p) for p in data["phase"]]
        return st

    def __eq__(self, other) -> bool:
        return isinstance(other, State) and self.to_json() == other.to_json()

    __hash__ = None   # type: ignore[assignment]  # equal by value and changed in place: not hashable
