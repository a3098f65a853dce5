"""Agents for every seat by name, and playing a game out with them."""
from __future__ import annotations

from ..machine import rng
from .bots import FirstAgent, GreedyAgent, RandomAgent
from .human import HumanAgent

AGENTS = {"random": RandomAgent, "first": FirstAgent, "greedy": GreedyAgent, "human": HumanAgent}


def make_agents(spec: str | list | None, players: int, seed: int) -> list:
    """Agents for every seat from ``"random,human"`` (the last name repeats)."""
    names = spec.split(",") if isinstance(spec, str) else list(spec or ["random"])
    names = [n.strip() for n in names if n.strip()] or ["random"]
    for n in names:
        if n not in AGENTS:
            raise ValueError(f"unknown agent '{n}' (agents: {', '.join(AGENTS)})")
    names = names + [names[-1]] * (players - len(names))
    return [AGENTS[names[i]](rng.derive(seed, 1000 + i)) for i in range(players)]


def play_out(game, agents, max_decisions: int | None = None) -> int:
    """Let the agents play until the game ends; returns the number of decisions made."""
    made = 0
    while not game.is_over:
        for seat in game.deciding_players:
            actions = game.legal_actions(seat)
            if not actions:
                continue
            result = game.apply(agents[seat].choose(game, seat, actions))
            if not result:
                raise RuntimeError(f"agent chose an illegal action: {result.reason}")
            made += 1
            if max_decisions is not None and made >= max_decisions:
                return made
            break
    return made
