"""The three instructions that make the game wait for players.

* :class:`Choose` — ``x = choose(player, options)`` in the middle of an effect;
* :class:`Offer` — a player's turn: actions from the ruleset's list, repeated
  until the player passes, no action is legal or a condition holds;
  :class:`CountedOffer` also ends it after a number of actions
  (``turn: {max_actions: n}``); with :class:`Stages` the turn's actions come
  in ordered stages (``turn: {stages: [...]}``);
* :class:`Simultaneous` — several players each commit one action in secret;
  the effects run, in seat order, once everyone has committed.

Each sets ``state.pending`` and leaves the frame where it is; what happens
next (enumerating legal actions, checking and committing one) is play's
business (:mod:`interpreter.play.decisions`), reached through the game.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import GameError
from ..load.limits import MAX_CHOICES
from .budget import too_many_choices
from .values import PlayerRef, ZoneRef, display
from .vm import LOCALS, PC, Instr

if TYPE_CHECKING:
    from ..errors import Location
    from .host import Fn, GameHost

PASS = "pass"  # the action that ends a turn
CHOOSE = "choose"   # the action that answers a choose(...) inside a rule (no ruleset action has this id)


class Choose(Instr):
    """``x = choose(player, options, prompt)``: wait for the player to pick one option."""

    __slots__ = ("player", "options", "prompt", "var", "label")

    def __init__(self, player: Fn, options: Fn, prompt: Fn | None, var: str | None, loc: Location | None,
                 label: Fn | None = None):
        self.player = player
        self.options = options
        self.prompt = prompt
        self.var = var
        self.loc = loc
        self.label = label  # a lambda maker: how each option is shown to people

    def run(self, g: GameHost, frame, stack):
        local = frame[LOCALS]
        who = self.player(g, local)
        if not isinstance(who, PlayerRef):
            raise GameError("choose() needs a player as its first argument", self.loc)
        options = self.options(g, local)
        options = g.zone_things(options) if options.__class__ is ZoneRef else list(options)
        if not options:
            raise GameError("choose() was given no options", self.loc)
        if len(options) > MAX_CHOICES:
            raise too_many_choices("choose()", len(options), self.loc)
        if stack is not g.state.stack:
            raise GameError("choose() cannot be used inside a value or condition", self.loc)
        if len(options) == 1:  # a forced choice needs no one's attention
            if self.var:
                local[self.var] = options[0]
            frame[PC] += 1
            return
        prompt = self.prompt(g, local) if self.prompt else "choose"
        g.state.pending = {"kind": "choice", "player": who.seat, "options": options,
                           "prompt": str(prompt), "var": self.var}
        if self.label is not None:
            show = self.label(g, local)
            g.state.pending["labels"] = [str(show(o)) for o in options]


class Stages:
    """A turn's ordered stages: only the actions of the stage the turn is in are offered, and taking one
    of the stage's ``ends`` moves the turn on to the next stage, never back.

    The stage the turn is in lives in the flow frame's locals under ``slot`` (a saved or cloned game
    keeps it), set when the turn starts (``first``: an expression naming the stage to start in, else
    the first) and removed on every way out of the turn.
    """

    __slots__ = ("ends", "first", "loc", "names", "offered", "slot")

    def __init__(self, names: tuple, offered: tuple, ends: tuple, first: Fn | None, slot: str,
                 loc: Location | None):
        self.names = names        # the stages' names, in order
        self.offered = offered    # per stage: the turn's actions offered in it, in the turn's order
        self.ends = ends          # per stage: the actions that end it
        self.first = first
        self.slot = slot
        self.loc = loc

    def enter(self, g: GameHost, local, pending: dict) -> None:
        """Narrow ``pending`` to the actions of the stage the turn is in (the first at the turn's start)."""
        k = local.get(self.slot)
        if k is None:
            k = local[self.slot] = self._start(g, local)
        pending["actions"] = list(self.offered[k])
        pending["staged"] = self.slot
        if self.ends[k]:
            pending["ends"] = list(self.ends[k])

    def _start(self, g: GameHost, local) -> int:
        if self.first is None:
            return 0
        name = self.first(g, local)
        if name not in self.names:
            raise GameError(f"the turn has no stage '{display(name)}' to start in (its stages: "
                            f"{', '.join(self.names)})", self.loc)
        return self.names.index(name)


def turn_taken(local, pending: dict, name: str) -> bool:
    """The turn's own bookkeeping when its player takes action ``name``: one fewer of a counted turn's
    actions, the next stage after a stage's last action. True when the action ends the turn (a pass)."""
    counted, staged = pending.get("counted"), pending.get("staged")
    if name == PASS:
        if counted is not None:
            del local[counted]
        if staged is not None:
            del local[staged]
        return True
    if counted is not None and name not in pending.get("free", ()):
        local[counted] -= 1
    if staged is not None and name in pending.get("ends", ()):
        local[staged] += 1
    return False


class Offer(Instr):
    """A turn: offer the listed actions to one player until they pass or none is legal."""

    __slots__ = ("player", "actions", "allow_pass", "until", "name", "stages")

    def __init__(self, player: Fn, actions, allow_pass: bool, until: Fn | None, name: str, loc: Location | None,
                 stages: Stages | None = None):
        self.player = player
        self.actions = actions
        self.allow_pass = allow_pass
        self.until = until
        self.name = name
        self.loc = loc
        self.stages = stages

    def not_a_player(self, who) -> GameError:
        return GameError(f"turn '{self.name}' needs a player, got {display(who)}", self.loc)

    def run(self, g: GameHost, frame, stack):
        if g.settle(stack):
            return
        local = frame[LOCALS]
        who = self.player(g, local)
        if who.__class__ is not PlayerRef:   # (tested here: a turn is offered at nearly every decision)
            raise self.not_a_player(who)
        st = g.state
        seat = who.seat
        # (end_turn() is rare: looked for before it is popped, an operator rather than a method's call)
        if ("%end_turn" in st.vars and st.vars.pop("%end_turn")) or st.out[seat] or \
                (self.until is not None and self.until(g, local)):
            self._leave(frame)
            return
        pending = {"kind": "turn", "player": seat, "actions": list(self.actions),
                   "pass": self.allow_pass, "name": self.name}
        if self.stages is not None:
            self.stages.enter(g, local, pending)
        if not g.any_legal(pending, seat):
            _no_moves(g, seat, self.name)
            self._leave(frame)
            return
        st.pending = pending

    def _leave(self, frame) -> None:
        """Out of the turn: the next turn at this step starts in its first stage."""
        if self.stages is not None:
            frame[LOCALS].pop(self.stages.slot, None)
        frame[PC] += 1


def _no_moves(g: GameHost, seat: int, name) -> None:
    """Say that a turn ends because its player has nothing legal to do (else it would end in silence)."""
    if g.record:
        g.emit({"e": "log", "text": f"{g.player_name(seat)} can do nothing more: the turn ends"})


class CountedOffer(Offer):
    """A turn that also ends after ``count`` actions (worked out when the turn starts; ``free`` ones aside).

    The actions still to take live in the flow frame's locals under ``slot``
    (so a saved or cloned game keeps them); the pending turn names that slot
    (``counted``) and committing a counted action lowers it
    (:func:`interpreter.play.decisions.commit`). Every way out of the turn
    removes the slot, so the next turn at this step starts afresh.
    """

    __slots__ = ("count", "count_loc", "free", "slot")

    def __init__(self, player, actions, allow_pass, until, name, loc, count, slot, free, count_loc):
        super().__init__(player, actions, allow_pass, until, name, loc)
        self.count = count
        self.slot = slot
        self.free = free
        self.count_loc = count_loc

    def run(self, g: GameHost, frame, stack):
        if g.settle(stack):
            return
        local = frame[LOCALS]
        who = self.player(g, local)
        if who.__class__ is not PlayerRef:   # (tested here: a turn is offered at nearly every decision)
            raise self.not_a_player(who)
        left = local.get(self.slot)
        if left is None:   # the turn starts
            left = local[self.slot] = self._count(g, local)
        if g.state.vars.pop("%end_turn", False) or g.state.out[who.seat] or left <= 0 or \
                (self.until is not None and self.until(g, local)):
            del local[self.slot]
            frame[PC] += 1
            return
        pending = {"kind": "turn", "player": who.seat, "actions": list(self.actions),
                   "pass": self.allow_pass, "name": self.name, "counted": self.slot}
        if self.free:
            pending["free"] = list(self.free)
        if not g.any_legal(pending, who.seat):
            _no_moves(g, who.seat, self.name)
            del local[self.slot]
            frame[PC] += 1
            return
        g.state.pending = pending

    def _count(self, g: GameHost, local) -> int:
        value = self.count(g, local)
        if type(value) is not int or value < 1:
            raise GameError(f"turn '{self.name}': max_actions must be a whole number of at least 1, "
                            f"got {display(value)}", self.count_loc)
        return value


class Simultaneous(Instr):
    """Each listed player commits one action in secret; effects run in seat order after all commit."""

    __slots__ = ("players", "actions", "name")

    def __init__(self, players, actions, name, loc):
        self.players = players
        self.actions = actions
        self.name = name
        self.loc = loc

    def run(self, g: GameHost, frame, stack):
        if g.settle(stack):
            return
        out = g.state.out
        listed = []   # (loops, not comprehensions: a step of every round of some games)
        for p in self.players(g, frame[LOCALS]):
            if not out[p.seat]:
                listed.append(p.seat)
        pending = {"kind": "simultaneous", "players": listed, "actions": list(self.actions),
                   "commits": {}, "name": self.name}
        seats = []
        for s in listed:
            if g.any_legal(pending, s):
                seats.append(s)
        if not seats:
            frame[PC] += 1
            return
        pending["players"] = seats
        g.state.pending = pending
