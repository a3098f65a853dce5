"""Explicit chance for the OpenSpiel adapter: every shuffle, roll and random pick becomes a chance node.

The engine draws inside the rules, from the seeded stream kept in the state.
A :class:`ChanceGame` is a :class:`Game` that never touches that stream: a
draw either takes the outcome it was told (``forced``, per draw name, in
order, as pins are) or stops the rules with :class:`ChanceNeeded`, which
names the draw and what it could give. :class:`ChanceSession` turns that
into chance nodes: it keeps the game before the decision (or before the
set-up) and the outcomes chosen so far, and when the next outcome is chosen
it plays the decision again from the kept game with one more outcome told.
A decision with k draws is thus played k + 1 times; the games of the gallery
draw once or twice per decision.

Outcomes and their exact probabilities:

* a **shuffle** of n things is dealt position by position, top first: the
  first position is any of the n things (1/n each), the next any of the n - 1
  left, and so on; the last thing needs no chance node. A shuffle of a deck
  of 52 is 51 chance nodes, never a list of 52! orders; a shuffle of one
  thing or none, and a pick from one item, is no chance node at all.
* a **roll** or **random pick** among n items is one node; equal items
  (``roll([1, 1, 2])``) are one outcome of their summed probability.

An outcome's id is its position among the items offered (the remaining
things of a shuffle in zone order, the first of equal items of a pick), so
ids stay below the largest number of items a draw offers.
"""
from __future__ import annotations

import json
from typing import Any

from ..errors import DavitError, GameError, RunawayGameError
from ..machine.values import ThingRef, ZoneRef, display, encode, type_name
from ..play.game import Game
from ..play.visibility import watchers
from .session import Session


class ChanceNeeded(DavitError):
    """The rules reached a draw that no outcome was given for (not an error: the adapter's chance node)."""
    code = "rl-chance"

    def __init__(self, kind: str, key: str, items: list):
        super().__init__(f"a chance outcome is needed for '{key}'")
        self.kind, self.key, self.items = kind, key, items


class ChanceGame(Game):
    """A game whose draws are told (``forced``: draw name -> outcomes in order) or stop it (ChanceNeeded)."""

    forced: dict = {}

    def __init__(self, ruleset, players: int, forced: dict | None = None, **kwargs):
        self.forced = _copy(forced)
        super().__init__(ruleset, players, **kwargs)

    def clone(self) -> ChanceGame:
        other = super().clone()
        other.__class__ = ChanceGame
        other.forced = {}   # type: ignore[attr-defined]  # a ChanceGame now (the line above)
        return other        # type: ignore[return-value]

    def shuffle_zone(self, zone, name, loc) -> None:
        if not isinstance(zone, ZoneRef):
            raise GameError(f"shuffle() needs a zone, got {type_name(zone)}", loc)
        key = f"shuffle {name or zone.id}"
        told = self.forced.get(key)
        if len(self.state.zones[zone.id]) > 1:   # an empty zone or a single thing has one order: no chance
            if not told:
                raise ChanceNeeded("shuffle", key, list(self.state.zones[zone.id]))
            self.state.zones[zone.id] = list(told.pop(0))
        self.emit({"e": "shuffle", "zone": zone.id, "name": key})

    def random_pick(self, items, name, loc):
        key = f"{name}"
        told = self.forced.get(key)
        if len(items) == 1:   # one item: no chance
            item = items[0]
        elif not told:
            raise ChanceNeeded("pick", key, list(items))
        else:
            item = items[told.pop(0)]
        if self.record:   # the event the engine logs for a draw from its stream, hidden as it hides it
            event = {"e": "random", "name": key, "result": encode(item)}
            if isinstance(item, ThingRef):
                seers = watchers(self, item.id, self.state.where[item.id])
                if seers is not None:
                    event["only"] = seers
            self.emit(event)
        return item


def _copy(forced) -> dict:
    return {key: [list(o) if isinstance(o, list) else o for o in told] for key, told in (forced or {}).items()}


def _key(item) -> str:
    return json.dumps(encode(item), sort_keys=True, default=str)


class Pending:
    """A chance node: the draw the rules wait for, the game to replay from and the outcomes told so far."""

    def __init__(self, base, action, forced: dict, need: ChanceNeeded):
        self.base, self.action, self.forced, self.need = base, action, forced, need
        self.dealt: list = []     # a shuffle's positions dealt so far

    def outcomes(self) -> list[tuple[int, float]]:
        need = self.need
        if need.kind == "shuffle":
            left = self.left()
            return [(i, 1.0 / len(left)) for i in range(len(left))]
        counts: dict = {}
        first: dict = {}
        for i, item in enumerate(need.items):
            k = _key(item)
            first.setdefault(k, i)
            counts[k] = counts.get(k, 0) + 1
        return [(first[k], counts[k] / len(need.items)) for k in first]

    def left(self) -> list:
        dealt = set(self.dealt)
        return [t for t in self.need.items if t not in dealt]

    def label(self, outcome: int) -> str:
        need = self.need
        if need.kind == "shuffle":
            return f"{need.key}: position {len(self.dealt) + 1} is {self.left()[outcome]}"
        item = need.items[outcome]
        return f"{need.key}: {item.id if isinstance(item, ThingRef) else display(item)}"

    def told(self, outcome: int) -> dict | None:
        """The outcomes to replay with once ``outcome`` is chosen; None while a shuffle is still being dealt."""
        forced = _copy(self.forced)
        if self.need.kind == "shuffle":
            self.dealt.append(self.left()[outcome])
            if len(self.left()) > 1:
                return None
            order: list | int = self.dealt + self.left()
        else:
            order = outcome
        forced.setdefault(self.need.key, []).append(order)
        return forced


class ChanceSession(Session):
    """A :class:`Session` whose draws are chance nodes (``chance`` is the pending one, or None)."""

    chance: Pending | None
    seed: int
    game: Any   # a ChanceGame once set up (None while reset starts one)

    def reset(self, seed: int, start=None) -> None:
        self.memo = {}
        self.prefix = []
        self.truncated = False
        self._seen = {}
        self._spelt = {}
        self.chance = None
        self.seed = seed
        self.game = None
        self._play(None, None, {})

    @classmethod
    def at(cls, game: Game, record: bool = True) -> ChanceSession:
        """A session at the position of ``game`` (a clone of it; no draw may be pending there) whose later
        draws are chance nodes."""
        session: Any = Session(game.ruleset, game.num_players, game.seed, record=record, start=game)
        session.__class__ = cls   # a ChanceSession from here on, its game a ChanceGame
        session.chance, session.seed = None, game.seed
        session.game.__class__, session.game.forced = ChanceGame, {}
        return session

    def clone(self) -> ChanceSession:
        other: Any = super().clone()   # a ChanceSession: Session.clone copies the class
        if self.chance is not None:
            chance = Pending(self.chance.base, self.chance.action, self.chance.forced, self.chance.need)
            chance.dealt = list(self.chance.dealt)
            other.chance = chance
        return other

    def _play(self, base, action, forced: dict) -> None:
        """Set up (``base`` None) or play ``action`` from ``base`` with the outcomes ``forced``; a draw
        without an outcome makes the session wait at a chance node."""
        try:
            if base is None:
                game = ChanceGame(self.ruleset, self.players, forced, seed=self.seed, record=self.record)
            else:
                game = base.clone()
                game.forced = _copy(forced)
                if not game.apply(action):
                    raise GameError(f"the engine refused a legal action: {action}")
        except ChanceNeeded as need:
            self.chance = Pending(base, action, forced, need)
            if self.game is None:
                self.game = _unstarted(self.ruleset, self.players, self.seed)
            return
        self.chance = None
        self.game = game
        self._seen = {}

    @property
    def over(self) -> bool:
        return self.chance is None and super().over

    def acting(self) -> int | None:
        return None if self.chance is not None else super().acting()

    def legal_tokens(self, seat: int | None = None) -> list[int]:
        return [] if self.chance is not None else super().legal_tokens(seat)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.chance.outcomes()   # type: ignore[union-attr]  # asked only at a chance node

    def apply_chance(self, outcome: int) -> None:
        chance: Any = self.chance   # a Pending: asked only at a chance node
        if outcome not in dict(chance.outcomes()):
            raise ValueError(f"{outcome} is not a chance outcome now")
        forced = chance.told(outcome)
        if forced is not None:
            try:
                self._play(chance.base, chance.action, forced)
            except RunawayGameError:
                self.chance = None
                self.truncated = True   # the ruleset's limits.max_steps: the game is cut short

    def _act(self, action) -> None:
        self._play(self.game, action, {})


def _unstarted(ruleset, players: int, seed: int) -> ChanceGame:
    """A game as it stands before its set-up has run: what the views show while the set-up's draws wait."""
    probe = Game.__new__(Game)
    probe.ruleset, probe.table = ruleset, ruleset.table(players)
    game = ChanceGame.__new__(ChanceGame)
    Game.__init__(game, ruleset, players, seed=seed, record=True, _state=probe._initial_state(seed, None))
    return game
