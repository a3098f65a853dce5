"""A game in progress: the Python API (``legal_actions``, ``apply``, ``view``, ``clone``).

:class:`Game` pairs the immutable compiled :class:`Ruleset` with a
:class:`State` and the event log, runs the flow until a decision is needed
and ends the game. What the compiled rules may do to it (attributes, moves,
chance) is in :mod:`interpreter.play.runtime`, which it inherits.
"""
from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING

from ..errors import GameError, RunawayGameError, SaveError
from ..load.limits import LENGTH_DRAW_REASON, LENGTH_LIMIT_REASON, MAX_GAME_WORK, WORK_LIMIT_REASON
from ..machine import execute, rng
from ..machine.values import decode
from ..rules.layout import fixed_set_in_state
from ..rules.table import Table
from . import decisions, outcome, views
from .decisions import Action, Applied, Refused
from .position import NO_SIZES, check_locals, recount
from .runtime import RuleRuntime
from .state import State, copy_data, copy_dict
from .unknown_names import refusal, unreadable

if TYPE_CHECKING:
    from ..machine.host import GameHost


# what an action sent as JSON holds (Action.to_json, and the label legal_actions lists it with)
ACTION_KEYS = frozenset({"player", "action", "args", "label"})


class Game(RuleRuntime):
    """One game of a ruleset.

    Example (``my-game`` stands for any ruleset id or folder)::

        from interpreter import load_ruleset, Game
        game = Game(load_ruleset("my-game"), players=3, seed=7)
        while not game.is_over:
            game.apply(game.legal_actions()[0])
        print(game.scores, game.winners)
    """

    work = 0   # items the rules touched for the decision under way (machine/budget.py); not part of the state
    spent = 0  # items touched by setup and every decision carried out: the game ends past limits.MAX_GAME_WORK
    local_sizes = NO_SIZES   # {id: (list, items)} of the waiting rules' locals, measured (play/position.py)
    redacted_logs = None   # (log, {seat: the log as that seat reads it}), kept by views.view; not part of the state
    locals_checked = None   # the pending decision whose waiting rules' locals this game last measured
    # whether its legal actions are asked for as Action objects (the public API, a search's steps): then
    # they are listed as such at once (decisions.candidates); a bots' playout takes (name, args) pairs
    offer_actions = False

    def __init__(self, ruleset, players: int, seed: int = 0, pins: dict | None = None, record: bool = True,
                 _state: State | None = None):
        if not ruleset.min_players <= players <= ruleset.max_players:
            raise GameError(f"{ruleset.id} is for {ruleset.min_players}–{ruleset.max_players} players, not {players}")
        self.ruleset = ruleset
        self.table: Table = ruleset.table(players)
        self.board = ruleset.board
        self.codes = ruleset.codes
        self.log: list = []
        self.record = record
        self.retval = None
        self.seed = seed
        self.offered_cache = None    # (pending, {seat: [candidate]}, {seat: [Action]}): see decisions.candidates
        self.committed = None        # (pending, {seat: Action}): see decisions.commit
        self.end_reason: str | None = None   # once over: why, as the end event says (None: the end condition or flow)
        self.decisions = 0           # decisions applied: the game ends by length at ruleset.max_decisions
        # the class's defaults of what the engine reads at every move and decision, as the game's own
        # attributes: Python finds an instance's attribute faster than its class's (the same values; clone too)
        self.work = self.spent = 0
        self.changed = self.score_bounds = self.locals_checked = self.item_loc = None
        self.local_sizes = NO_SIZES
        self.offer_actions = False
        if _state is not None:
            self.state = _state
            return
        start = self.table.initial_held   # every new game of a table starts with the same position
        self.state = self._initial_state(seed, pins, start)
        if start is None:
            held = recount(self)
            st = self.state   # kept as it is before the setup runs, for the table's next games to copy
            flat = not any(isinstance(v, (list, dict)) for d in (st.vars, *st.pvars) for v in d.values())
            self.table.initial_held = (held.copy(), st.held_total, copy_dict(st.vars),
                                       [copy_dict(p) for p in st.pvars],
                                       dict(zip(st.zones, map(list.copy, st.zones.values()))),
                                       {tid: props.copy() for tid, props in st.props.items()}, flat)
        else:
            self.state.held, self.state.held_total = start[0].copy(), start[1]
        if record:
            self.emit({"e": "start", "ruleset": ruleset.id, "variant": ruleset.variant, "players": players,
                       "seed": seed})
        self._advance()
        self._count_position()
        self.spent = self.work

    # -- setting up ---------------------------------------------------------------

    def _initial_state(self, seed, pins, start=None) -> State:
        """The position before the setup runs; ``start``: the table's ``initial_held``, whose copy of the
        first game's position (the same for every game of the table) is copied, not worked out again."""
        rs, table = self.ruleset, self.table
        st = State()
        st.rng = rng.seed_state(seed)
        st.pins = {str(k): list(v) for k, v in pins.items()} if pins else {}
        st.out = [False] * len(table.players)
        st.where = dict(table.start_zone)
        if start is not None:
            if start[6]:   # no list or table in a variable or counter: copy_dict's copies, without its walks
                st.vars, st.pvars = start[2].copy(), list(map(dict.copy, start[3]))
            else:
                st.vars = copy_dict(start[2])
                st.pvars = [copy_dict(p) for p in start[3]]
            st.zones = dict(zip(start[4], map(list.copy, start[4].values())))
            st.props = dict(zip(start[5], map(dict.copy, start[5].values())))   # (no Python per thing)
        else:
            st.vars = {name: copy_data(value) for name, value in rs.globals.items()}
            st.pvars = [{name: copy_data(c.initial) for name, c in rs.player_vars.items()} for _ in table.players]
            zones = st.zones = {zid: [] for zid in table.zones}
            for tid, zid in table.start_zone.items():
                zones[zid].append(tid)
            refs = table.zones
            st.props = {tid: {"face_up": refs[zid].defn.face == "up"} for tid, zid in table.start_zone.items()}
        st.props_own = set(st.props)   # made here for this game alone: changed in place until a clone shares them
        st.stack = [[rs.flow_code, 0, {}, None]]
        if rs.setup_code:
            st.stack.append([rs.setup_code, 0, {}, None])
        return st

    # -- the public API -----------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.state.over

    @property
    def num_players(self) -> int:
        return len(self.table.players)

    @property
    def deciding_players(self) -> list[int]:
        return decisions.deciding(self.state.pending) if not self.state.over else []

    def legal_actions(self, player: int | None = None) -> list[Action]:
        self.work = 0
        return decisions.legal_actions(self, player)

    def apply(self, action) -> Applied | Refused:
        """Carry out ``action`` (an :class:`Action` or its JSON form); illegal actions are refused as values."""
        # an action taken from the current legal_actions() list is known to be legal
        offered = isinstance(action, Action) and decisions.was_offered(self, action)
        if not offered:
            bad = decisions.malformed(action)   # of any shape, nested or huge: refused before it is read
            if bad is not None:
                return Refused(action, bad, decisions.UNKNOWN, decisions.Unknown("action", "(malformed)"))
        try:
            action = action if isinstance(action, Action) else self.action_from_json(action)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            return Refused(action, f"not an action: {type(exc).__name__} {exc}", decisions.UNKNOWN,
                           unreadable(self, action))
        self.work = 0
        reason = None if offered else decisions.check(self, action)
        if reason is not None:
            return refusal(self, action, reason)
        self.carry_out_legal(action)
        return Applied(action)

    def carry_out_legal(self, action: Action) -> None:
        """Carry out an action known to be legal, unchecked (``apply`` checks first; so does the playout loop)."""
        self.work = 0   # its effects get the decision's whole budget, whatever finding or checking it cost
        decisions.commit(self, action)
        self.decisions += 1
        st = self.state
        if st.pending is None:   # else a simultaneous step waits for more commitments: nothing to run
            self._advance()
        if st.held is None:   # the whole position's size (play/position.py): not counted yet, or changed in place
            self._count_position()
        elif st.stack and st.pending is not self.locals_checked:
            check_locals(self)
            # a simultaneous step's commitments before the last run no rule: the same decision still
            # waits, with the same locals, measured at its start (a clone or a loaded game measures anew)
            self.locals_checked = st.pending
        spent = self.spent = self.spent + self.work
        if st.over:
            return
        if spent > MAX_GAME_WORK:
            # each decision may do a lot (limits.MAX_WORK); many such decisions would take hours
            self.finish(WORK_LIMIT_REASON, draw=self.ruleset.draw_at_length_limit)
        elif self.decisions >= self.ruleset.max_decisions:
            # every game is finite: a game that can go on forever (moves that undo each other)
            # ends here, ranked as the ruleset ranks any other end, or a draw if it says so
            self.finish_by_length()

    def clone(self) -> Game:
        other = Game.__new__(Game)
        other.ruleset = self.ruleset
        other.table = self.table
        other.board = self.board
        other.codes = self.codes
        other.log = list(self.log)
        other.record = self.record
        other.retval = None
        other.seed = self.seed
        other.offered_cache = None
        other.committed = None
        other.end_reason = self.end_reason
        other.decisions = self.decisions
        other.work, other.spent = 0, self.spent   # (the class's defaults as its own, as __init__ sets them)
        other.changed = other.score_bounds = other.locals_checked = other.item_loc = None
        other.local_sizes = NO_SIZES
        other.offer_actions = False
        other.state = self.state.clone()
        return other

    def to_json(self) -> dict:
        return {"davit": 1, "ruleset": self.ruleset.id, "variant": self.ruleset.variant,
                "fingerprint": self.ruleset.fingerprint, "players": self.num_players, "seed": self.seed,
                "decisions": self.decisions, "work": self.spent, "state": self.state.to_json(), "log": self.log}

    @classmethod
    def from_json(cls, ruleset, data: dict) -> Game:
        try:
            if data.get("ruleset") != ruleset.id or data.get("variant") != ruleset.variant:
                raise SaveError(f"saved game is for ruleset {data.get('ruleset')!r} "
                                f"(variant {data.get('variant')!r}), not {ruleset.id!r}")
            if data.get("fingerprint") != ruleset.fingerprint:
                raise SaveError(f"saved game was made with a different version of ruleset {ruleset.id!r}")
            players = int(data["players"])
            if not ruleset.min_players <= players <= ruleset.max_players:
                raise SaveError(f"saved game has {players} players; {ruleset.id} is for "
                                f"{ruleset.min_players}–{ruleset.max_players}")
            table = ruleset.table(players)
            state = State.from_json(data["state"], table)
            _check_consistent(ruleset, table, state)
        except SaveError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise SaveError(f"saved game is damaged: {type(exc).__name__} {exc}") from None
        game = cls(ruleset, int(data["players"]), int(data.get("seed", 0)), _state=state)
        game.log = list(data.get("log", []))
        if state.over and game.log and game.log[-1].get("e") == "end":
            game.end_reason = game.log[-1].get("reason")
        decided = data.get("decisions", 0)
        if type(decided) is not int or decided < 0:
            raise SaveError("saved game is damaged: its number of decisions is not a whole number")
        game.decisions = decided
        spent = data.get("work", 0)
        if type(spent) is not int or spent < 0:
            raise SaveError("saved game is damaged: the work its rules did is not a whole number")
        game.spent = spent
        # a decision no seat can take would leave every player (and every bot loop) waiting for ever
        if not state.over and state.pending is not None and not game.legal_actions():
            raise SaveError("saved game is damaged: it waits for a decision that no one can take")
        return game

    def action_from_json(self, data) -> Action:
        if isinstance(data, Action):
            return data
        bad = decisions.malformed(data)
        if bad is not None:
            raise ValueError(bad)
        player, name = data["player"], data["action"]
        extra = sorted(set(data) - ACTION_KEYS, key=str)
        if extra:   # (read past, it made the action seem to say what it did not)
            raise ValueError(f"an action has player, action, args and a label, not {', '.join(map(str, extra))}")
        # strict: a seat is a JSON integer (not true, not 0.5, not "1"), an action a name
        if type(player) is not int:
            raise ValueError(f"the seat ('player') must be a whole number, got {player!r}")
        if not isinstance(name, str):
            raise ValueError(f"the action must be a name, got {name!r}")
        args = tuple((k, decode(v, self.table)) for k, v in (data.get("args") or {}).items())
        return Action(player, name, args)

    @property
    def scores(self) -> dict:
        """Each seat's score; in a co-operative ruleset every seat has the team's score."""
        if self.ruleset.team_var is not None:
            team = self.state.vars.get(self.ruleset.team_var) or 0
            return {p.seat: team for p in self.table.players}
        return {p.seat: self.state.pvars[p.seat].get(self.ruleset.score_counter, 0) for p in self.table.players}

    @property
    def winners(self) -> list[int]:
        return list(self.state.vars.get("%winners", [])) if self.state.over else []

    @property
    def is_draw(self) -> bool:
        """True once the game has ended in a draw: declared (``end.outcome``, ``end_game(draw=true)``, the
        length limit) or a tie for the best rank under ``scoring.tie: draw``. Nobody wins a draw."""
        return outcome.is_draw(self)

    @property
    def ranking(self) -> list[int]:
        """Each seat's rank once over (1 is best; ties share a rank: ``[1, 1, 3]``); ``[]`` before."""
        return outcome.ranks(self)

    @property
    def payoffs(self) -> list[float]:
        """Each seat's payoff once over, as ``scoring.payoffs`` declares (by default +1 a win, 0 a draw,
        -1 a loss); zeros before. What the reinforcement-learning adapters give as returns."""
        return outcome.payoffs(self)

    def view(self, player: int | None) -> dict:
        return views.view(self, player)

    def log_hash(self) -> str:
        return hashlib.sha256(json.dumps(self.log, sort_keys=True, default=str).encode()).hexdigest()

    def player_name(self, seat: int) -> str:
        return self.table.player_names[seat]

    # -- running ------------------------------------------------------------------

    def _advance(self) -> None:
        st = self.state
        before = st.steps
        while not st.over and st.pending is None:
            if not st.stack:
                self.finish()
                return
            try:
                execute.run(self, st.stack)
            except RunawayGameError:
                # limits.max_steps bounds the rules' work over the whole game: spent mostly before this
                # decision, it is the game's length that ran out (it ends); spent here, a loop (an error).
                # A function stopped by its own budget spent none of the game's (its steps are not counted
                # there): a loop too, not the game's length, which ended it quietly as a length limit
                if st.steps - before > self.ruleset.max_steps // 10 or st.steps < self.ruleset.max_steps:
                    raise
                self.finish_by_length()
                return
            if not st.stack and st.pending is None and not st.over:
                self.finish()

    def _count_position(self) -> None:
        """The whole position's size (play/position.py), at the end of a decision."""
        if self.state.held is None:   # not counted yet, or changed in place
            recount(self, self.item_loc)
            self.local_sizes = NO_SIZES
        if self.state.stack:
            check_locals(self)
            self.locals_checked = self.state.pending

    def resettle(self) -> None:
        """Look at the game again after a change from outside the rules (a scenario's `set`).

        The decision the game waits for is raised afresh, so triggers and the
        end condition see the change first. A simultaneous decision that has
        commitments already is left as it is.
        """
        st = self.state
        if st.over:
            return
        pending = st.pending
        if pending is not None and not (pending["kind"] == "simultaneous" and pending["commits"]):
            st.pending = None
        self.offered_cache = None
        self.work = 0
        st.held = None   # changed from outside: counted afresh
        self._advance()

    if TYPE_CHECKING:
        def any_legal(self, pending, seat: int) -> bool:
            """Whether ``seat`` has a legal action in ``pending`` (the waits ask before they wait)."""
    else:
        # that question answered by the list of them itself, enumerated once per decision (an empty one is
        # false): the function as the method, without a method calling it at every wait
        any_legal = decisions.candidates

    def settle(self, stack) -> bool:
        """Fire state triggers and check the end; True if frames were pushed (or the game ended)."""
        rs = self.ruleset
        scan = rs.settle_scan   # the same look generated as one function (dsl/trigger_scan.py), or None
        if scan is not None:
            fired = scan(self)
        elif not rs.triggers and rs.end_when is None:   # nothing to look at (most games): no call at all
            return False
        else:
            fired = self.first_to_fire()
        if fired is None:
            return False
        trigger, item = fired
        if trigger is None:
            self.finish(draw=rs.end_is_draw)
        else:
            self._fire(trigger, {} if trigger.source is None else {trigger.var: item}, stack)
        return True

    def first_to_fire(self):
        """The generic look: ``(trigger, item)`` of the first state trigger that fires (``item`` None for one not
        over items), else ``(None, None)`` if the end condition holds, else None."""
        rs = self.ruleset
        for trig in rs.triggers:
            when = trig.when
            if trig.source is None:
                if when(self, {}):
                    return trig, None
                continue
            var = trig.var
            local: dict = {}   # one dict for every item: a condition only reads its locals
            for item in trig.items(self):
                local[var] = item
                if when(self, local):
                    return trig, item
        if rs.end_when is not None and rs.end_when(self, {}):
            return None, None
        return None

    def _fire(self, trigger, local, stack) -> None:
        if self.record:   # which rules fired: coverage reports read it
            self.emit({"e": "trigger", "id": trigger.id})
        stack.append([trigger.code_id, 0, local, None])

    def finish_by_length(self) -> None:
        """The end at the game's length bound: ranked, or a draw (nobody wins) if the ruleset declares it."""
        if self.ruleset.draw_at_length_limit:
            self.finish(LENGTH_DRAW_REASON, draw=True)
        else:
            self.finish(LENGTH_LIMIT_REASON)

    def finish(self, reason: str | None = None, draw: bool = False) -> None:
        st = self.state
        if st.over:
            return
        st.pending = None
        st.stack = []
        self.end_reason = reason
        rs = self.ruleset
        if rs.final_code is not None:
            execute.call_sync(self, self.codes[rs.final_code], [])
        ranking = []
        if rs.team_var is not None:
            won = not draw and (rs.win_if is None or bool(rs.win_if(self, {})))
            winners = [p.seat for p in self.table.players] if won else []
            st.vars["%winners"] = winners
            if draw:
                st.vars["%draw"] = outcome.DECLARED
            st.over = True
            if not self.record:
                return
            team = self.scores
            scores = [team[p.seat] for p in self.table.players]
            event = {"e": "end", "scores": scores, "winners": winners, "reason": reason, "team": True,
                     "team_score": scores[0] if scores else 0}
            if rs.win_if is not None or draw:   # a goal to reach: the team won or lost; else only its score
                event["won"] = won
            if draw:
                event["draw"] = True
            self.emit(event)
            return
        for p in self.table.players:
            if st.out[p.seat]:
                continue
            local = {"p": p, "player": p}
            ranking.append((tuple([fn(self, local) for fn in rs.rank_fns]), p.seat))
        winners = []
        drawn = outcome.DECLARED if draw else None
        if ranking and rs.has_winners and not draw:
            best = max(r for r, _ in ranking)
            winners = sorted(s for r, s in ranking if r == best)
            if rs.tie_is_draw and len(winners) > 1:   # scoring.tie: draw
                winners, drawn = [], outcome.TIE
        st.vars["%winners"] = winners
        if drawn:
            st.vars["%draw"] = drawn
        st.over = True
        if not self.record:   # no event for nobody (simulate, the bots)
            return
        by_seat = self.scores
        event = {"e": "end", "scores": [by_seat[p.seat] for p in self.table.players], "winners": winners,
                 "reason": reason}
        if drawn:
            event["draw"] = True
        self.emit(event)

    def end_game(self, reason=None, draw: bool = False) -> None:
        self.finish(reason, draw=bool(draw))

    # -- events -------------------------------------------------------------------

    def emit(self, event: dict) -> None:
        if self.record:
            self.log.append(event)

def _check_consistent(ruleset, table, state) -> None:
    """Refuse a saved state that this ruleset could never have produced."""
    n = len(table.players)
    if len(state.pvars) != n or len(state.out) != n:
        raise SaveError(f"saved game is damaged: player data for {len(state.pvars)} players, expected {n}")
    if set(state.zones) != set(table.zones):
        odd = sorted(set(state.zones) ^ set(table.zones))[:3]
        raise SaveError(f"saved game is damaged: its zones do not match the ruleset ({', '.join(odd)})")
    seen = [t for items in state.zones.values() for t in items]
    if len(seen) != len(set(seen)) or set(seen) != set(table.things):
        raise SaveError("saved game is damaged: every card and piece must be in exactly one zone")
    for frame in state.stack:
        code = ruleset.codes.get(frame[0])
        if code is None or not 0 <= frame[1] <= len(code.instrs):
            raise SaveError("saved game is damaged: it stands at an unknown point of the rules "
                            f"({frame[0]}:{frame[1]})")
    env = ruleset.env   # a value for a property no rule sets: no game reaches it, and the rules read the printed one
    wrong = fixed_set_in_state((env.fixed_thing_props, env.fixed_zone_props), state.props, state.zprops)
    if wrong is not None:
        raise SaveError(f"saved game is damaged: {wrong}")
    pending = state.pending
    if pending is not None:
        seats = pending.get("players", [pending.get("player")])
        if pending.get("kind") not in ("choice", "turn", "simultaneous") or \
                not all(isinstance(s, int) and 0 <= s < n for s in seats):
            raise SaveError("saved game is damaged: its pending decision makes no sense")
        if not state.stack:
            raise SaveError("saved game is damaged: a decision is pending but the rules are not running")


if TYPE_CHECKING:
    def _keeps_the_contract(game: Game) -> GameHost:
        """A Game is what the machine and the compiled rules expect of a game: mypy checks it here."""
        return game
