"""Any ruleset as an OpenSpiel game: ``game(ruleset, players, variant=None, seed=0)``.

Moves are sequential: in a simultaneous decision the seats choose one after
the other and a commitment stays hidden from the others, so the game is
declared with imperfect information whenever anything can be hidden. Chance
is *sampled*: shuffles and rolls come from the engine's seeded random stream,
and each new initial state gets the next seed derived from the game's
``seed`` parameter (``SAMPLED_STOCHASTIC``; there are no explicit chance
nodes — see docs/rl.md for why). Actions, observations and rewards are the
ones of the PettingZoo environment (:mod:`interpreter.rl.catalogue`,
:mod:`interpreter.rl.observation`).
"""
from __future__ import annotations

import json

import numpy as np
import pyspiel

from ..dsl.primitives import PRIMITIVES
from ..machine import rng
from ..play.game import Game
from ..rules.loading import load_ruleset
from .observation import ObservationEncoder, _walk
from .session import Session, catalogue_for

_RANDOM_CALLS = ("shuffle_zone", "random_pick")
INT_MAX = 2 ** 31 - 1


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


def hides_information(ruleset) -> bool:
    """Whether anything can be hidden from a seat: hidden zones or counters, face-down things, simultaneous
    decisions (commitments are private) or random draws (the stream's future is unknown)."""
    # the box holds what is out of play; the view never shows it to anyone
    if any(z.visibility != "everyone" or z.face != "up" for z in ruleset.zones.values() if z.id != "box"):
        return True
    if any(v.visibility != "everyone" for v in ruleset.player_vars.values()):
        return True
    if any("simultaneous" in node for node in _walk(ruleset.data.get("flow"))):
        return True
    text = repr(ruleset.data)
    return any(word in text for word in ('"down"', "'down'", "flip(", "peek(")) or uses_chance(ruleset)


def _game_type(ruleset) -> pyspiel.GameType:
    name = ruleset.id + (f"_{ruleset.variant}" if ruleset.variant else "")
    return pyspiel.GameType(
        short_name=f"davit_{name}".replace("-", "_"),
        long_name=f"davit: {ruleset.name}" + (f" ({ruleset.variant})" if ruleset.variant else ""),
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC if uses_chance(ruleset)
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if hides_information(ruleset)
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=(pyspiel.GameType.Utility.IDENTICAL if ruleset.team_var is not None
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=ruleset.max_players,
        min_num_players=ruleset.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": ruleset.min_players, "seed": 0},
    )


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
    """One ruleset for one player count; ``params``: ``players`` and ``seed``."""

    def __init__(self, ruleset, params: dict | None = None):
        params = dict(params or {})
        players = int(params.get("players", ruleset.min_players))
        self.seed = int(params.get("seed", 0))
        catalogue = catalogue_for(ruleset, players)
        info = pyspiel.GameInfo(
            num_distinct_actions=catalogue.size, max_chance_outcomes=0, num_players=players,
            min_utility=utility_range(ruleset)[0], max_utility=utility_range(ruleset)[1],
            utility_sum=None,
            # every decision takes at least one step of the rules VM, and limits.max_steps bounds those
            max_game_length=min(INT_MAX, ruleset.max_steps * catalogue.max_length))
        super().__init__(_game_type(ruleset), info, {"players": players, "seed": self.seed})
        self.ruleset = ruleset
        self.players = players
        self.encoder = ObservationEncoder(ruleset, players, catalogue)
        self.episodes = 0     # initial states that have been played from
        self._starts: dict = {}

    def new_initial_state(self):
        """A new game. Its seed is derived from the ``seed`` parameter and the number of initial states played
        from so far: each played episode gets new shuffles, and the many initial states OpenSpiel makes only
        to clone into or to measure tensors share one set-up game."""
        return DavitState(self, rng.derive(self.seed, self.episodes))

    def start(self, seed: int) -> Session:
        """A session for a new game with ``seed``, cloned from a cached set-up game."""
        if seed not in self._starts:
            if len(self._starts) >= 2:
                self._starts.pop(next(iter(self._starts)))
            self._starts[seed] = Game(self.ruleset, self.players, seed=seed, record=True)
        return Session(self.ruleset, self.players, seed, record=True, start=self._starts[seed])

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return DavitObserver(self.encoder, perfect_recall)


class DavitState(pyspiel.State):
    def __init__(self, game, seed: int):
        super().__init__(game)
        self.seed = seed
        self.played = False
        # OpenSpiel clones a Python state by asking the game for a new initial state and deep-copying the
        # attributes into it (a Session deep-copies as a cheap clone); setting the game up is the slow part,
        # so it waits until the state is first used.
        self._session = None

    @property
    def session(self) -> Session:
        if self._session is None:
            self._session = self.get_game().start(self.seed)
        return self._session

    def current_player(self):
        seat = self.session.acting()
        return pyspiel.PlayerId.TERMINAL if seat is None else seat

    def _legal_actions(self, player):
        return self.session.legal_tokens(player)

    def _apply_action(self, action):
        if not self.played:
            self.played = True
            self.get_game().episodes += 1
        self.session.step(action)

    def _action_to_string(self, player, action):
        return self.session.catalogue.names[action]

    def is_terminal(self):
        return self.session.over

    def returns(self):
        return self.session.returns()

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
        view = session.game.view(player) if self.perfect_recall else dict(session.view(player))
        if session.acting() == player:
            view["partial"] = [session.catalogue.names[t] for t in session.prefix]
        return json.dumps(view, sort_keys=True, default=str)


def game(ruleset, players: int, variant: str | None = None, seed: int = 0) -> DavitGame:
    """An OpenSpiel game for ``ruleset`` (an id, a folder or a loaded Ruleset) and ``players`` seats."""
    rs = load_ruleset(ruleset, variant) if isinstance(ruleset, str) else ruleset
    if not rs.min_players <= players <= rs.max_players:
        raise ValueError(f"{rs.id} is for {rs.min_players}–{rs.max_players} players, not {players}")
    return DavitGame(rs, {"players": players, "seed": seed})


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
