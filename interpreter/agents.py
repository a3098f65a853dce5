"""Agents that pick actions: random, first, greedy and a human at the terminal.

An agent is called with the game, its seat and its legal actions. Bots read
only what :meth:`Game.view` shows their seat, except the greedy agent, which
looks one action ahead on a clone (as any one-ply search does). Each agent
has its own random stream, so bots never disturb the game's chance.
"""
from __future__ import annotations

import random

from . import rng
from .narrate import describe_view


class RandomAgent:
    name = "random"

    def __init__(self, seed: int = 0):
        self.random = random.Random(seed)

    def choose(self, game, seat, actions):
        return actions[self.random.randrange(len(actions))]


class FirstAgent:
    """Always the first legal action: deterministic, for scenarios and tests."""
    name = "first"

    def __init__(self, seed: int = 0):
        pass

    def choose(self, game, seat, actions):
        return actions[0]


class GreedyAgent:
    """The action with the best immediate gain in the mover's score (ties broken at random).

    Ends its own turn only when nothing else gains more; works for any ruleset
    because it only uses ``clone``, ``apply`` and ``scores``. In co-operative
    rulesets the team score is everyone's score, so the same rule applies.
    """
    name = "greedy"

    def __init__(self, seed: int = 0):
        self.random = random.Random(seed)

    def choose(self, game, seat, actions):
        if len(actions) == 1:
            return actions[0]
        before = game.scores.get(seat, 0)
        best, best_gain = [], None
        for action in actions:
            trial = game.clone()
            trial.record = False
            trial.apply(action)
            gain = trial.scores.get(seat, 0) - before
            if best_gain is None or gain > best_gain:
                best, best_gain = [action], gain
            elif gain == best_gain:
                best.append(action)
        return best[self.random.randrange(len(best))]


class HumanAgent:
    """A person at the terminal: shows the seat's own view and numbered legal actions."""
    name = "human"

    def __init__(self, seed: int = 0, input_fn=None, output=print):
        self.input = input_fn or (lambda prompt: __import__("builtins").input(prompt))
        self.output = output
        self.seen = {}

    def choose(self, game, seat, actions):
        view = game.view(seat)
        start = self.seen.get(seat, 0)
        for line in describe_view(game, view, since=start):
            self.output(line)
        self.seen[seat] = len(view["log"])
        self.output(f"{game.player_name(seat)}, choose:")
        for i, action in enumerate(actions, 1):
            self.output(f"  {i}. {action}")
        while True:
            answer = self.input(f"[1-{len(actions)}]> ").strip()
            if answer.isdigit() and 1 <= int(answer) <= len(actions):
                return actions[int(answer) - 1]
            self.output(f"Please type a number from 1 to {len(actions)}.")


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
