"""Any ruleset as an OpenSpiel game: ``game(ruleset, players, variant=None, seed=0, chance="explicit")``.

Moves are sequential: in a simultaneous decision the seats choose one after
the other and a commitment stays hidden from the others, so the game is
declared with imperfect information whenever anything can be hidden. Chance
is *explicit* by default: every shuffle, roll and random pick is a chance
node with its exact outcome probabilities (:mod:`interpreter.rl.chance`;
``EXPLICIT_STOCHASTIC``), so a clone holds no random stream that would tell
a searching bot the future. ``chance="sampled"`` keeps the engine's seeded
stream instead (``SAMPLED_STOCHASTIC``; each new initial state gets the next
seed derived from the ``seed`` parameter). The bounds and the utility type
are the real ones where they can be known (:mod:`interpreter.rl.bounds`).
Actions, observations and rewards are the ones of the PettingZoo environment
(:mod:`interpreter.rl.catalogue`, :mod:`interpreter.rl.observation`).
"""
from __future__ import annotations

import itertools
import json
import random
from typing import Any

import numpy as np
import pyspiel

from ..dsl.primitives import PRIMITIVES
from ..machine import rng
from ..play.determinize import determinize
from ..play.game import Game
from ..rules.loading import load_ruleset
from . import bounds as tree_bounds
from .chance import ChanceSession
from .observation import ObservationEncoder, _walk
from .session import Replay, Session, catalogue_for

_RANDOM_CALLS = ("shuffle_zone", "random_pick")
INT_MAX = 2 ** 31 - 1
CHANCE_MODES = ("explicit", "sampled")
CHILDREN_KEPT = 100_000   # transitions a small game remembers (see DavitGame.children)
Utility = pyspiel.GameType.Utility


def _random_primitives() -> set[str]:
    """DSL primitives that draw from the random stream (read from their code, so new ones are found)."""
    out = set()
    for name, prim in PRIMITIVES.items():
        code = getattr(prim.fn, "__code__", None)
        if code is not None and any(call in code.co_names for call in _RANDOM_CALLS):
            out.add(name)
    return out


def uses_chance(ruleset) -> bool:
    """Whether any rule of the ruleset calls a primitive that draws from the random stream."""
    text = repr(ruleset.data)
    return any(f"{name}(" in text for name in _random_primitives())


def hides_information(ruleset, explicit: bool = False) -> bool:
    """Whether anything can be hidden from a seat: hidden zones or counters, face-down things, simultaneous
    decisions (commitments are private) or, with sampled chance, random draws (the stream in the state
    holds the future no seat may know). With explicit chance every draw is a chance node everyone sees
    happen; what it deals into a hidden place is hidden by that place."""
    # the box holds what is out of play; the view never shows it to anyone
    if any(z.visibility != "everyone" or z.face != "up" for z in ruleset.zones.values() if z.id != "box"):
        return True
    if any(v.visibility != "everyone" for v in ruleset.player_vars.values()):
        return True
    if any("simultaneous" in node for node in _walk(ruleset.data.get("flow"))):
        return True
    text = repr(ruleset.data)
    hides = any(word in text for word in ('"down"', "'down'", "flip(", "peek("))
    return hides or (not explicit and uses_chance(ruleset))


def _game_type(ruleset, explicit: bool = True, utility=None) -> pyspiel.GameType:
    name = ruleset.id + (f"_{ruleset.variant}" if ruleset.variant else "")
    modes = pyspiel.GameType.ChanceMode
    chance_mode = (modes.DETERMINISTIC if not uses_chance(ruleset)
                   else modes.EXPLICIT_STOCHASTIC if explicit else modes.SAMPLED_STOCHASTIC)
    return pyspiel.GameType(
        short_name=f"davit_{name}".replace("-", "_"),
        long_name=f"davit: {ruleset.name}" + (f" ({ruleset.variant})" if ruleset.variant else ""),
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance_mode,
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if hides_information(ruleset, explicit)
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=utility if utility is not None else utility_kind(ruleset, ruleset.min_players)[0],
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=ruleset.max_players,
        min_num_players=ruleset.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": ruleset.min_players, "seed": 0, "chance": "explicit"},
    )


def utility_kind(ruleset, players: int, found=None) -> tuple:
    """(utility type, utility sum or None). Co-operative: IDENTICAL. Zero- or constant-sum when the walk of
    the whole tree (``found``) saw one sum only, or when the payoffs are ``outcome`` for two seats with
    win + loss = 2 × draw and a tie for the best rank is a draw (or nobody is named winner): then every
    end pays (win, loss), (loss, win) or (draw, draw). Otherwise GENERAL_SUM."""
    if ruleset.team_var is not None:
        return Utility.IDENTICAL, None
    if found is not None and len(found.sums) == 1:
        (total,) = found.sums
    else:
        spec = ruleset.payoffs
        if not (spec[0] == "outcome" and players == 2 and (ruleset.tie_is_draw or not ruleset.has_winners)):
            return Utility.GENERAL_SUM, None
        win, draw, loss = spec[1:]
        if win + loss != 2 * draw:
            return Utility.GENERAL_SUM, None
        total = 2 * draw
    return (Utility.ZERO_SUM, 0.0) if total == 0 else (Utility.CONSTANT_SUM, float(total))


def chance_outcomes_bound(ruleset, players: int) -> int:
    """The most outcomes a chance node can offer, without walking the tree: a shuffle or a pick of things
    offers at most every thing of the table; a roll or a pick of values at most the longest list a constant
    holds, or one per player. A draw that offers more stops the game with an error (see DavitState)."""
    table = ruleset.table(players)
    longest = [len(v) for v in _lists(ruleset.data.get("constants"))]
    return max([len(table.thing_list), players, len(table.zones)] + longest)


def _lists(value):
    if isinstance(value, list):
        yield value
        for item in value:
            yield from _lists(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _lists(item)


def utility_range(ruleset) -> tuple[float, float]:
    """The smallest and largest return (the ruleset's ``scoring.payoffs``; scores: the score counter's bounds)."""
    spec = ruleset.payoffs
    if spec[0] == "outcome":
        return float(min(spec[1:])), float(max(spec[1:]))
    counter = ruleset.player_vars.get(ruleset.score_counter)
    low = getattr(counter, "min", None) if ruleset.team_var is None else None
    high = getattr(counter, "max", None) if ruleset.team_var is None else None
    return (float(low) if low is not None else -float(INT_MAX), float(high) if high is not None else float(INT_MAX))


class DavitGame(pyspiel.Game):
    """One ruleset for one player count; ``params``: ``players``, ``seed`` and ``chance`` (explicit or sampled)."""

    def __init__(self, ruleset, params: dict | None = None):
        params = dict(params or {})
        players = int(params.get("players", ruleset.min_players))
        self.seed = int(params.get("seed", 0))
        chance = str(params.get("chance", "explicit"))
        if chance not in CHANCE_MODES:
            raise ValueError(f"chance must be one of {', '.join(CHANCE_MODES)}, not {chance!r}")
        self.explicit = chance == "explicit"
        catalogue = catalogue_for(ruleset, players)
        # the whole tree, when it is small enough to walk: exact bounds and the sum of the returns
        self.bounds = tree_bounds.explore(ruleset, players) if self.explicit else None
        found = self.bounds
        self.utility_type, self.declared_sum = utility_kind(ruleset, players, found)
        low, high = (found.min_return, found.max_return) if found is not None else utility_range(ruleset)
        if found is not None:
            length, outcomes = found.max_length, found.max_chance_outcomes
        else:
            # the game ends after limits.max_decisions decisions, each spelt in at most max_length ids
            length = min(INT_MAX, ruleset.max_decisions * catalogue.max_length)
            outcomes = chance_outcomes_bound(ruleset, players) if self.explicit and uses_chance(ruleset) else 0
        self.max_outcomes = outcomes
        info = pyspiel.GameInfo(
            num_distinct_actions=catalogue.size, max_chance_outcomes=outcomes, num_players=players,
            min_utility=low, max_utility=high, utility_sum=self.declared_sum, max_game_length=length)
        super().__init__(_game_type(ruleset, self.explicit, self.utility_type), info,
                         {"players": players, "seed": self.seed, "chance": chance})
        self.ruleset = ruleset
        self.players = players
        self.encoder = ObservationEncoder(ruleset, players, catalogue)
        self.episodes = 0     # initial states that have been played from
        self._starts: dict = {}
        # (seed, history, action) -> the session it leads to, for a tree small enough to walk: a solver walking
        # it again (CFR's iterations) replays nothing. Sessions in states are frozen (never changed), so states
        # share them. A big game's episodes rarely meet twice: no memory is spent on them.
        self.children: dict | None = {} if self.bounds is not None else None

    def new_initial_state(self):
        """A new game. With explicit chance every game starts alike (at the set-up's first chance node, if
        it draws). With sampled chance its seed is derived from the ``seed`` parameter and the number of
        initial states played from so far: each played episode gets new shuffles, and the many initial
        states OpenSpiel makes only to clone into or to measure tensors share one set-up game."""
        return DavitState(self, self.seed if self.explicit else rng.derive(self.seed, self.episodes))

    def start(self, seed: int) -> Session:
        """A session for a new game with ``seed``, cloned from a cached set-up game."""
        if seed not in self._starts:
            if len(self._starts) >= 2:
                self._starts.pop(next(iter(self._starts)))
            self._starts[seed] = (ChanceSession(self.ruleset, self.players, seed, record=True) if self.explicit
                                  else Game(self.ruleset, self.players, seed=seed, record=True))
        if self.explicit:
            return self._starts[seed].clone()
        return Session(self.ruleset, self.players, seed, record=True, start=self._starts[seed])

    def state_at(self, game: Game) -> DavitState:
        """A state at the position of ``game``, a davit :class:`Game` of this ruleset and player count, where no
        draw is pending: what each seat observes there (to compare two positions, for instance) and play from it.

        The state holds a clone of ``game`` (with explicit chance, one whose later draws are chance nodes). No
        history of this game's actions leads to it, so it cannot be serialised, and the transitions from it are
        not remembered with the real game's."""
        if game.ruleset is not self.ruleset or game.num_players != self.players:
            raise ValueError(f"the game is of {game.ruleset.id} for {game.num_players} players, not of this "
                             f"game's {self.ruleset.id} for {self.players}")
        state = DavitState(self, ("position", next(_POSITIONS)))
        session = (ChanceSession.at(game) if self.explicit
                   else Session(self.ruleset, self.players, game.seed, record=True, start=game))
        session.frozen, session.history = True, None
        state._session = session
        return state

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return DavitObserver(self.encoder, perfect_recall)


class DavitState(pyspiel.State):
    def __init__(self, game, seed: int | tuple):   # a seed, or ("position", n) for a state_at(game)
        super().__init__(game)
        self.seed = seed
        self.played = False
        # OpenSpiel clones a Python state by asking the game for a new initial state and deep-copying the
        # attributes into it: the session is frozen (an action makes a new one), so a copy shares it.
        # Setting the game up is the slow part, so it waits until the state is first used.
        self._session: Any = None   # a Session, or a Replay read back from a pickle, or None: not yet made

    @property
    def session(self) -> Session:
        if self._session is None or isinstance(self._session, Replay):
            replay, game = self._session, self.get_game()
            if replay is not None and replay.fingerprint not in (None, game.ruleset.fingerprint):
                # a name registered first by another ruleset of the same id (another folder or version)
                raise ValueError(f"this state was saved with other rules than {game.ruleset.id}'s loaded now")
            self._session = game.start(self.seed)
            self._session.frozen = True
            self._session.history = []
            for action in (replay.history if replay is not None else ()):   # a state read back from a pickle
                self._session = self._after(self._session, action)
        return self._session

    def current_player(self):
        # a state's session is frozen: what it answers is kept with it (solvers ask each state many times)
        memo = self.session.memo
        player = memo.get("player")
        if player is None:
            session = self.session
            if getattr(session, "chance", None) is not None:
                player = pyspiel.PlayerId.CHANCE
            else:
                seat = session.acting()
                player = pyspiel.PlayerId.TERMINAL if seat is None else seat
            memo["player"] = player
        return player

    def chance_outcomes(self):
        """The outcomes of the draw the rules wait for, with their exact probabilities."""
        session: Any = self.session   # a ChanceSession: only a game with explicit chance has chance nodes
        outcomes = session.chance_outcomes()
        bound = self.get_game().max_outcomes
        if outcomes and max(o for o, _ in outcomes) >= bound:
            raise ValueError(f"a random draw ({session.chance.need.key}) offers {len(outcomes)} outcomes, "
                             f"more than the {bound} the game declared (max_chance_outcomes)")
        return outcomes

    def _legal_actions(self, player):
        memo = self.session.memo
        key = ("legal", player)
        legal = memo.get(key)
        if legal is None:
            if player == pyspiel.PlayerId.CHANCE or getattr(self.session, "chance", None) is not None:
                legal = [o for o, _ in self.session.chance_outcomes()] if player < 0 else []  # type: ignore[attr-defined]
            else:
                legal = self.session.legal_tokens(player)
            memo[key] = legal
        return list(legal)

    def _apply_action(self, action):
        game = self.get_game()
        if not self.played:
            self.played = True
            game.episodes += 1
        self._session = self._after(self.session, action)

    def _after(self, session, action):
        """The frozen session ``action`` leads to from ``session`` (remembered for a small game's tree)."""
        cache = self.get_game().children
        if session.history is None:   # a state made at a game's position (DavitGame.state_at): not remembered
            cache = None
        key = (self.seed, tuple(session.history), action) if cache is not None else None
        after = cache.get(key) if cache is not None else None
        if after is None:
            after = session.clone()
            if getattr(after, "chance", None) is not None:
                after.apply_chance(action)
            else:
                after.step(action)
            after.frozen = True
            after.history = None if session.history is None else session.history + [action]
            if cache is not None:
                if len(cache) >= CHILDREN_KEPT:
                    cache.clear()
                cache[key] = after
        return after

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            chance = getattr(self.session, "chance", None)
            return chance.label(action) if chance is not None else f"chance outcome {action}"
        return self.session.catalogue.names[action]

    def is_terminal(self):
        memo = self.session.memo
        over = memo.get("over")
        if over is None:
            over = memo["over"] = self.session.over
        return over

    def returns(self):
        memo = self.session.memo
        returns = memo.get("returns")
        if returns is None:
            returns = self.session.returns()
            game = self.get_game()
            if game.declared_sum is not None and self.session.game.is_over \
                    and abs(sum(returns) - game.declared_sum) > 1e-9:
                raise ValueError(f"the game was declared {game.utility_type} (returns summing to "
                                 f"{game.declared_sum}) but ended with returns {returns}")
            memo["returns"] = returns
        return list(returns)

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state ``player_id`` cannot tell from this one (davit's determinizer: hidden things dealt anew,
        others' hidden counters and uncommitted choices forgotten), keeping the seat's own log, for
        OpenSpiel's IS-MCTS. With explicit chance the future draws are chance nodes, not a stream."""
        session = self.session
        if getattr(session, "chance", None) is not None or session.over:
            raise ValueError("resample_from_infostate needs a state where a player decides")
        draw = probability_sampler() if callable(probability_sampler) else random.random()
        game = session.game
        sample = determinize(game, player_id, random.Random(int(draw * 2 ** 53)))
        sample.record = True
        sample.log = list(game.view(player_id)["log"])   # what the seat has read, nothing more
        other = self.clone()
        copy = session.clone()
        copy.game = sample
        copy._seen, copy._spelt = {}, {}
        copy.frozen = True
        copy.history = list(session.history)  # type: ignore[arg-type]  # a frozen session knows its history
        other._session = copy
        other.seed = ("resampled", draw, self.seed)   # its own transitions, apart from the real game's
        return other

    def __str__(self):
        """The spectator's view (no seat's secrets), for debugging."""
        view = self.session.view(None)
        return json.dumps(view, sort_keys=True, default=str)


class DavitObserver:
    """OpenSpiel's observer: ``tensor`` is the encoding of the seat's view; strings are the view as JSON.

    The information-state string adds the seat's redacted event log (perfect
    recall); the information-state tensor is the same encoding as the
    observation tensor (the current view, not the history).
    """

    def __init__(self, encoder: ObservationEncoder, perfect_recall: bool):
        self.encoder = encoder
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(encoder.size, np.float32)
        self.dict = encoder.split(self.tensor)

    def set_from(self, state, player):
        self.tensor[:] = state.session.observation(player, self.encoder)

    def string_from(self, state, player):
        session = state.session
        strings = session.__dict__.setdefault("_strings", {})
        key = (player, self.perfect_recall)
        if key not in strings:
            strings[key] = self._string(session, player)
        return strings[key]

    def _string(self, session, player):
        view = session.game.view(player) if self.perfect_recall else session.view(player, legal=True)
        if session.acting() == player:
            view["partial"] = [session.catalogue.names[t] for t in session.prefix]
        return json.dumps(view, sort_keys=True, default=str)


def game(ruleset, players: int, variant: str | None = None, seed: int = 0, chance: str = "explicit") -> DavitGame:
    """An OpenSpiel game for ``ruleset`` (an id, a folder or a loaded Ruleset) and ``players`` seats;
    ``chance``: ``explicit`` (chance nodes) or ``sampled`` (the engine's seeded stream)."""
    rs = load_ruleset(ruleset, variant) if isinstance(ruleset, str) else ruleset
    if not rs.min_players <= players <= rs.max_players:
        raise ValueError(f"{rs.id} is for {rs.min_players}–{rs.max_players} players, not {players}")
    register(rs)   # so that OpenSpiel can read a serialised state back (it loads the game by its name)
    return DavitGame(rs, {"players": players, "seed": seed, "chance": chance})


def register(ruleset, variant: str | None = None) -> str:
    """Register the ruleset with OpenSpiel; returns the short name for ``pyspiel.load_game(name, params)``."""
    rs = load_ruleset(ruleset, variant) if isinstance(ruleset, str) else ruleset
    game_type = _game_type(rs)
    if game_type.short_name not in pyspiel.registered_names():
        # OpenSpiel keeps a class safely until the process ends (a closure makes it crash at exit)
        factory = type(f"DavitGame_{game_type.short_name}", (DavitGame,),
                       {"__init__": lambda self, params=None: DavitGame.__init__(self, rs, params)})
        _REGISTERED.append(factory)
        pyspiel.register_game(game_type, factory)
    return game_type.short_name


_REGISTERED: list = []
_POSITIONS = itertools.count()   # the seeds of states made at a game's position: each its own
