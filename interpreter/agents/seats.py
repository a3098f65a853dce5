"""Agents for every seat by name, and playing a game out with them.

A name is a bot (``random``), or a search bot with its budget after a colon:
``ismcts:200`` (200 iterations a move) or ``ismcts:1.5s`` (1.5 seconds a move).
"""
from __future__ import annotations

from ..machine import fast_paths, rng
from ..play.playout import nobody_can_act, play_by_index
from .bots import FirstAgent, GreedyAgent, RandomAgent
from .human import HumanAgent
from .ismcts import ISMCTSAgent, MCTSAgent

AGENTS: dict[str, type] = {"random": RandomAgent, "first": FirstAgent, "greedy": GreedyAgent, "human": HumanAgent,
          "mcts": MCTSAgent, "ismcts": ISMCTSAgent}
BUDGETED = ("mcts", "ismcts")
# a budget's bounds: a search of more would not end a game in a day (about a thousand iterations a second)
MAX_ITERATIONS = 1_000_000
MAX_SECONDS = 3600.0
PICK_BY_INDEX = (RandomAgent, FirstAgent)   # their choice is pick(len(actions)): see play_out


def agent_factory(name: str):
    """A function seed -> agent for one name, or ValueError with the names there are."""
    base, _, budget = name.partition(":")
    if base not in AGENTS:
        raise ValueError(f"unknown agent '{name}' (agents: {', '.join(AGENTS)}; "
                         f"search bots take a budget: ismcts:200 or ismcts:1.5s)")
    if not budget:
        return AGENTS[base]
    if base not in BUDGETED:
        raise ValueError(f"agent '{base}' takes no budget (only {', '.join(BUDGETED)} do): '{name}'")
    try:
        if budget.endswith("s"):
            seconds = float(budget[:-1])
            if not 0 < seconds <= MAX_SECONDS:   # (nan and inf fail this too)
                raise ValueError
            return lambda seed: AGENTS[base](seed, seconds=seconds)
        iterations = int(budget)
        if not 1 <= iterations <= MAX_ITERATIONS:
            raise ValueError
    except ValueError:
        raise ValueError(f"agent '{name}': the budget must be a whole number of iterations from 1 to "
                         f"{MAX_ITERATIONS:,} (ismcts:200) or seconds a move, at most {MAX_SECONDS:g} "
                         f"(ismcts:1.5s)") from None
    return lambda seed: AGENTS[base](seed, iterations=iterations)


def agent_names(spec: str | list | None) -> list:
    """The names of ``"random,human"`` (a list as it is; none: random). An empty name is a ValueError:
    dropping one would move every later agent to another seat."""
    names = [n.strip() for n in spec.split(",")] if isinstance(spec, str) else list(spec or ["random"])
    if not all(names):
        raise ValueError(f"expected agent names joined by ',', got an empty name in {spec!r}")
    return names


def make_agents(spec: str | list | None, players: int, seed: int) -> list:
    """Agents for every seat from ``"random,human"`` or ``"ismcts:200,random"`` (the last name repeats)."""
    names = agent_names(spec)
    if len(names) > players:   # the extra ones would be left out without a word
        raise ValueError(f"{len(names)} agents named for {players} players (one per seat; the last one repeats "
                         "for the seats after it)")
    factories = [agent_factory(n) for n in names]
    factories = factories + [factories[-1]] * (players - len(factories))
    return [factories[i](rng.derive(seed, 1000 + i)) for i in range(players)]


def play_out(game, agents, max_decisions: int | None = None, fused: bool = True) -> int:
    """Let the agents play until the game ends; returns the number of decisions made.

    When every agent is a built-in bot that picks by index alone (``random``,
    ``first``; not a subclass, which may choose otherwise), the game is played
    by the fused loop of :mod:`interpreter.play.playout`, which plays the same
    game faster; ``fused=False`` keeps to the public API.
    """
    if fused and fast_paths.on() and all(map(PICK_BY_INDEX.__contains__, map(type, agents))):
        return play_by_index(game, [agent.pick for agent in agents], max_decisions)
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
        else:
            raise nobody_can_act(game)
    return made
