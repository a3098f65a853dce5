"""The compiled, immutable ruleset and its parts.

A :class:`Ruleset` is built once from YAML (see :mod:`interpreter.rules.build`) and
shared by every game; defaults are filled in when it is built, so the engine
never checks for a missing section while playing.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..dsl.trigger_scan import as_items
from ..errors import Location

if TYPE_CHECKING:
    from ..machine.host import Fn, GameHost


@dataclass(frozen=True)
class VarSpec:
    """A per-player counter or variable: initial value, bounds, who sees it."""
    name: str
    initial: object = 0
    min: float | None = None
    max: float | None = None
    visibility: str = "everyone"   # everyone | owner | nobody
    description: str = ""


@dataclass
class ActionDef:
    """An action of the ruleset, compiled."""

    id: str
    label: str
    params: list = field(default_factory=list)     # [(name, domain_fn)]
    condition: object = None                        # fn(g, L) -> bool
    reason: str = ""
    costs: list = field(default_factory=list)       # [(counter, amount_fn)]
    code_id: str | None = None
    label_fn: object = None                          # fn(g, L) -> str
    location: Location | None = None
    description: str = ""
    reasons: list = field(default_factory=list)     # [(condition fn, reason)] when `if` is a list
    independent: frozenset = frozenset()             # indexes of params whose domain reads no earlier choice
    param_types: tuple = ()                          # each param's static type (dsl/static_types.py), `any` unknown
    enumerator: object = None   # fn(g, seat, found, append, Action), generated (dsl/enumerators.py); None: generic


@dataclass(frozen=True)
class ZoneDef:
    id: str
    name: str
    per_player: bool = False
    visibility: str = "everyone"   # everyone | owner | nobody: who sees the things inside
    face: str = "up"               # the side things land on when moved in
    capacity: int | None = None
    seats: tuple | None = None     # ordered seat values (containers)
    admit: object = None           # fn(g, {"thing", "zone"}) -> bool
    admit_reason: str = ""
    attrs: dict = field(default_factory=dict)
    kind: str = "zone"             # zone | space
    description: str = ""
    location: Location | None = None


@dataclass(frozen=True)
class Trigger:
    id: str
    when: Fn                       # fn(g, L) -> bool
    code_id: str
    var: str | None = None
    source: Any = None             # fn(g, L) -> list, when the trigger is per item
    location: Location | None = None

    def items(self, g: GameHost):
        return as_items(g, self.source(g, {}))


class Ruleset:
    """Everything static about a game; see the attributes set by :func:`build.build_ruleset`."""

    def __init__(self):
        self.id = ""
        self.name = ""
        self.description = ""
        self.variant: str | None = None
        self.variants: dict = {}          # variant id -> file path
        self.min_players = 1
        self.max_players = 1
        self.player_names: list = []
        self.constants: dict = {}
        self.globals: dict = {}
        self.player_vars: dict = {}       # name -> VarSpec
        self.score_counter = "score"
        self.zones: dict = {}             # id -> ZoneDef
        self.things: list = []            # raw thing definitions (dicts)
        self.thing_props: dict = {}
        self.zone_props: dict = {}
        self.board = None
        self.functions: dict = {}
        self.actions: dict = {}           # id -> ActionDef
        self.codes: dict = {}             # code id -> vm.Code
        self.flow_code = "flow"
        self.setup_code: str | None = None
        self.final_code: str | None = None
        self.triggers: list = []
        self.end_when = None
        self.settle_scan = None           # fn(g): the triggers and then end_when, generated (dsl/trigger_scan.py)
        self.rank_fns: list = []
        self.has_winners = True
        self.end_is_draw = False          # end.outcome: draw: the end condition ends the game in a draw
        self.tie_is_draw = False          # scoring.tie: draw: a tie for the best rank is a draw, not a shared win
        self.payoffs = ("outcome", 1.0, 0.0, -1.0)  # scoring.payoffs: ("outcome", win, draw, loss) or ("scores",)
        self.team_var: str | None = None  # co-operative: this variable is everyone's score
        self.win_if = None                # co-operative: everyone wins if this holds at the end
        self.benchmark: dict | None = None  # a reference score (value, label) for simulate
        self.metrics: list = []           # metrics: what analysis reads after a game (rules/metrics.py)
        self.evaluate = None              # heuristics: a position's worth for player `p` (search bots)
        self.evaluate_loc = None          # where heuristics.evaluate is written
        self.evaluate_scale: float | None = None  # heuristics: how large a telling difference is
        self.priors: dict = {}            # heuristics: action id -> weight fn (rollouts' bias)
        self.prior_locs: dict = {}        # heuristics: action id -> where its prior is written
        self.display = None               # rules.display.Display: what a seat's status shows (None: everything)
        self.search: dict = {}            # heuristics: the search bots' default iterations, seconds, depth
        self.max_steps = 1_000_000
        self.max_decisions = 10_000       # the game ends by length after this many decisions
        self._fingerprint = None
        self.draw_at_length_limit = False  # limits.at_length_limit: draw (nobody wins) instead of rank
        self.provenance: list = []        # (location, reason) of reconstructed values
        self.warnings: list = []          # findings that do not stop the ruleset from loading
        self.files: list = []
        self.data: dict = {}              # the merged YAML, for explain/diff tools
        self.vocabulary = None            # the type checker's view of the declared names (set by the builder)
        self.root = None                  # folder of the ruleset
        self.code_bundle = None           # machine.code_cache.Bundle: its compiled code on disk (set by loading)

    # Loading freezes a ruleset once it is built (rules/loading.py): it is cached and shared by every game,
    # worker and bot of the process, so a change would reach games that never asked for it. A variant
    # builds a new ruleset; a test or tool that wants another limit asks for a changed copy.
    _frozen = False
    _LAZY = frozenset({"_fingerprint"})   # worked out on first read: caching, not a change

    def __setattr__(self, name, value):
        if self._frozen and name not in self._LAZY:
            raise AttributeError(f"a built ruleset does not change ('{name}'): use ruleset.changed({name}=...)")
        object.__setattr__(self, name, value)

    def freeze(self) -> Ruleset:
        object.__setattr__(self, "_frozen", True)
        return self

    def changed(self, **values) -> Ruleset:
        """A frozen copy with ``values`` set (``rs.changed(max_decisions=300)``); this one stays as it is."""
        import copy
        other = copy.copy(self)
        object.__setattr__(other, "_frozen", False)
        for name, value in values.items():
            if not hasattr(self, name):
                raise AttributeError(f"a ruleset has no '{name}'")
            setattr(other, name, value)
        if "triggers" in values or "end_when" in values:   # the generated scan reads the old ones
            object.__setattr__(other, "settle_scan", None)
        return other.freeze()

    @property
    def fingerprint(self) -> str:
        """A short hash of the merged rules and the variant: a saved game names the rules it was played
        by. Worked out when first read: building and checking a ruleset do not need it."""
        if self._fingerprint is None:
            import hashlib
            import json

            from ..load.yaml_reader import plain
            text = json.dumps([plain(self.data), self.variant], sort_keys=True, default=str)
            self._fingerprint = hashlib.sha256(text.encode()).hexdigest()[:16]
        return self._fingerprint

    @fingerprint.setter
    def fingerprint(self, value: str) -> None:
        self._fingerprint = value

    # B019 warns that the cache keeps `self` alive: a loaded ruleset is cached and lives as long anyway
    @lru_cache(maxsize=16)  # noqa: B019
    def table(self, num_players: int):
        from .table import Table
        return Table(self, num_players)

    def __repr__(self):
        variant = f" variant {self.variant}" if self.variant else ""
        return f"<Ruleset {self.id}{variant}>"
