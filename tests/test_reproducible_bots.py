"""A seeded game of search bots is the same game on an idle machine and on a busy one.

The plain ``ismcts`` thinks a number of iterations a move (the ruleset's
``heuristics.iterations`` or the default), never a time, so designers who
compare variants with it compare the same games wherever they run them. Each
game here is played alone, then again while two busy processes load the
machine; the two must be the same game: the same event log and final state.
Nothing is timed: the assertion is the games' equality.
"""
import hashlib
import json
import subprocess
import sys

import pytest

from interpreter import Game, load_ruleset
from interpreter.agents import make_agents, play_out

pytestmark = pytest.mark.slow   # see tests/conftest.py: the fast tier leaves it out

# (ruleset, players, agents, seed, decisions or None for the whole game)
GAMES = [
    ("tutorial", 4, "ismcts", 5, 12),            # the default budget (200 iterations a move)
    ("collapsible-d", 4, "ismcts", 5, 4),        # the slowest default (150 iterations): the old 1.2 s cap bit here
    ("der-mythos", 4, "ismcts:30", 5, None),     # an explicit budget, a whole game
    ("der-mythos", 4, "mcts", 5, 4),             # the other search bot at its default budget
]

BUSY = "import time\nend = time.time() + 120\nwhile time.time() < end:\n    pass\n"   # bounded, killed afterwards


class Counting:
    """Wraps a bot to keep how many iterations each of its searches ran."""

    def __init__(self, agent, runs):
        self.agent, self.runs = agent, runs

    def choose(self, game, seat, actions):
        action = self.agent.choose(game, seat, actions)
        if len(actions) > 1:
            self.runs.append(self.agent.last_iterations)
        return action


def play(rid, players, spec, seed, decisions):
    runs = []
    game = Game(load_ruleset(rid), players, seed=seed)
    play_out(game, [Counting(a, runs) for a in make_agents(spec, players, seed)], max_decisions=decisions)
    state = hashlib.sha256(json.dumps(game.state.to_json(), sort_keys=True, default=str).encode()).hexdigest()
    return (game.log_hash(), state, game.is_over), runs


def test_seeded_bot_games_are_the_same_alone_and_beside_busy_processes():
    alone = [play(*case) for case in GAMES]
    busy = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(2)]
    try:
        loaded = [play(*case) for case in GAMES]
    finally:
        for proc in busy:
            proc.kill()
            proc.wait()
    for case, (game, runs), (game_loaded, runs_loaded) in zip(GAMES, alone, loaded):
        assert game == game_loaded, case
        assert runs == runs_loaded, case
    # every search ran its whole budget, loaded or not: the plain bot's is the ruleset's iterations
    budgets = [200, 150, 30, 200]
    for (rid, *_), (_, runs), budget in zip(GAMES, loaded, budgets):
        assert runs and set(runs) == {budget}, rid
    assert alone[2][0][2]   # the whole game was played to its end
