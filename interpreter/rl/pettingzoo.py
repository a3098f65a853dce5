"""Any ruleset as a PettingZoo AEC environment: ``env(ruleset, players, variant=None)``.

Agents are ``player_0`` … ``player_{n-1}`` (the seats). Each step the agent in
``agent_selection`` chooses one action id of the fixed catalogue
(:mod:`interpreter.rl.catalogue`); observations are dicts with the seat's
encoded view (:mod:`interpreter.rl.observation`) and an ``action_mask``.
Rewards come once, at the end (docs/rl.md); the ruleset's ``limits.max_steps``
(or ``max_cycles`` environment steps, if given) truncates the game.
"""
from __future__ import annotations

import random

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import conversions

from ..rules.loading import load_ruleset
from .observation import ObservationEncoder
from .session import Session


class DavitEnv(AECEnv):
    metadata = {"name": "davit_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, ruleset, players: int, variant: str | None = None, reward: str = "win",
                 max_cycles: int | None = None, render_mode: str | None = None, seed: int | None = None):
        super().__init__()
        self.ruleset = load_ruleset(ruleset, variant) if isinstance(ruleset, str) else ruleset
        self.num_players = players
        self.reward_mode = reward
        self.max_cycles = max_cycles
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"davit_{self.ruleset.id}_v0",
                             is_parallelizable=_only_simultaneous(self.ruleset))
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self._seat_of = {a: s for s, a in enumerate(self.possible_agents)}
        self._session = Session(self.ruleset, players, seed=0, reward=reward)
        self.catalogue = self._session.catalogue
        self.encoder = ObservationEncoder(self.ruleset, players, self.catalogue)
        obs_space = spaces.Dict({
            # every field normalised (observation.py): 0..1, or -1..1 where a number may be negative
            "observation": spaces.Box(self.encoder.low, self.encoder.high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.catalogue.size,), np.int8),
        })
        act_space = spaces.Discrete(self.catalogue.size)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        # Python's generator, not numpy's: a numpy draw cost more than a whole step of a small game. Seeded
        # with an int it gives the same numbers on every machine (a seed is a promise)
        self._seed_stream = random.Random(seed)
        self._seeded = seed is not None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    @property
    def game(self):
        """The engine :class:`Game` being played (for inspection; step the environment, not the game)."""
        return self._session.game

    def reset(self, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self._seed_stream = random.Random(seed)
        game_seed = self._seed_stream.getrandbits(31)
        self._session.reset(game_seed)
        self._begin()

    def reset_to(self, game) -> None:
        """Reset the environment to a clone of ``game``, a davit :class:`Game` of this ruleset and player
        count, as ``reset`` does to a new game: what each agent observes at that position, and play on from
        it. The seeds of later ``reset`` calls are not touched."""
        if game.ruleset is not self.ruleset or game.num_players != self.num_players:
            raise ValueError(f"the game is of {game.ruleset.id} for {game.num_players} players, not of this "
                             f"environment's {self.ruleset.id} for {self.num_players}")
        self._session.reset(game.seed, start=game)
        self._begin()
        if game.is_over:
            self.terminations = dict.fromkeys(self.agents, True)

    def _begin(self):
        """A new episode's bookkeeping, once the session holds its game."""
        self._cycles = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self._select()

    def _select(self):
        seat = self._session.acting()
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
        elif self.agents and self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]
        elif not hasattr(self, "agent_selection") or self.agent_selection is None:
            # PettingZoo: None when no agent is left
            self.agent_selection = self.agents[0] if self.agents else None  # type: ignore[assignment]

    def observe(self, agent):
        seat = self._seat_of[agent]
        session = self._session
        return {"observation": session.observation(seat, self.encoder).copy(),
                "action_mask": session.legal_mask(seat).copy()}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        session = self._session
        session.step(int(action))
        self._cycles += 1
        # the rewards are all 0 before a live step (paid only at the end, and cleared by the dead steps that
        # follow it): clearing and adding them up is needed only when the game ends
        if session.game.is_over:
            for a, r in zip(self.possible_agents, session.returns()):
                self.rewards[a] = r
                self.terminations[a] = True
            self._accumulate_rewards()
        elif session.truncated or (self.max_cycles is not None and self._cycles >= self.max_cycles):
            self.truncations = dict.fromkeys(self.agents, True)
        self._select()

    def render(self):
        """A line of text (``render_mode="ansi"``): the phase and who is to act, or the result."""
        session = self._session
        if session.over:
            return f"over: scores {session.game.scores}, winners {session.game.winners}"
        seat = session.acting()
        names = [self.catalogue.names[t] for t in session.prefix]
        phase = session.view(None)["phase"]
        # not over
        return f"phase {phase}, {self.possible_agents[seat]} to act, spelt so far {names}"  # type: ignore[index]

    def close(self):
        pass


def _only_simultaneous(ruleset) -> bool:
    """Whether every decision the flow declares is simultaneous and spelt in one id (then the parallel API fits).

    A static reading of the declarations: the flow has no ``turn`` step, no
    rule calls ``choose(``, and no action has more than one parameter.
    """
    from .observation import _walk
    flow = ruleset.data.get("flow")
    kinds = {key for node in _walk(flow) for key in ("turn", "simultaneous") if key in node}
    text = repr(ruleset.data)
    single_token = all(len(a.params) <= 1 for a in ruleset.actions.values())
    return kinds == {"simultaneous"} and "choose(" not in text and single_token


def env(ruleset, players: int, variant: str | None = None, **kwargs) -> DavitEnv:
    """A PettingZoo AEC environment for ``ruleset`` (an id, a folder or a loaded Ruleset) and ``players`` seats."""
    return DavitEnv(ruleset, players, variant, **kwargs)


def parallel_env(ruleset, players: int, variant: str | None = None, **kwargs):
    """The parallel API, for rulesets whose every decision is simultaneous (else a ValueError says so)."""
    aec = DavitEnv(ruleset, players, variant, **kwargs)
    if not aec.metadata["is_parallelizable"]:
        raise ValueError(f"ruleset {aec.ruleset.id} has turns or choices, not only simultaneous decisions; "
                         "use env() (the AEC API)")
    return conversions.aec_to_parallel_wrapper(aec)
