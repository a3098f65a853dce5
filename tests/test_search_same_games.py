"""The search bots play the same seeded games whether the fast paths are on or off.

The search bots ask the board the same questions again and again (distances,
neighbours, reachable spaces) on samples of one position, and the board keeps
its answers per way it stands (``rules/board.py``); with the fast paths off
(``DAVIT_FAST_PATHS=off``) every question walks the graph again and the rules
run on the VM. A kept answer that outlived a change of the board (a space
flooded, a link added) would steer a search differently, so seeded games of
both search bots on boards that change as they are played must agree move
for move. Each mode runs in a process of its own (the switch is read once).
"""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PLAY = """
import sys
from interpreter import Game, load_ruleset
from interpreter.agents import make_agents, play_out
rid, n, bots, decisions = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
game = Game(load_ruleset(rid), n, seed=3)
made = play_out(game, make_agents(bots, n, 5), max_decisions=decisions)
print(made, game.log_hash())
"""


def _play(mode, *args):
    env = {**os.environ, "DAVIT_FAST_PATHS": mode, "DAVIT_NO_CACHE": "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", PLAY, *map(str, args)], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


@pytest.mark.slow
@pytest.mark.parametrize("rid, players, bots, decisions", [
    ("titanic", 3, "ismcts:6,mcts:6", 30),          # the ship floods: spaces are removed, links added
    ("collapsible-d", 3, "ismcts:6,mcts:6", 30),    # distances and neighbours on a board that stays
])
def test_search_bots_play_the_same_game_with_the_fast_paths_off(rid, players, bots, decisions):
    on = _play("on", rid, players, bots, decisions)
    off = _play("off", rid, players, bots, decisions)
    assert int(on[0]) == decisions, "the game ended before the board had changed much: a weaker test"
    assert on == off
