#!/usr/bin/env python3
"""Benchmark: instructions executed to play seeded games, old and new, counted by callgrind.

Not part of the tests (speed is measured here, never asserted). A shared
machine moves a CPU-time rate by a sixth between runs; the number of
instructions a process executes does not move with the load. For each
(ruleset, players, games) it runs, under ``valgrind --tool=callgrind``, a
process that loads the ruleset and plays seeds ``0..games-1`` between random
bots with the log off, as ``davit simulate`` does, and the same process
playing no game; the difference is the games' count. With ``--search BOT``
the process instead thinks ``--decisions`` times with that search bot about
one position halfway through a game (the iterations are a budget, so the
count is the search's work). ``PYTHONHASHSEED`` is fixed (the hash seed moves
a count by about 0.5%) and each checkout plays one game first, so that its
compiled rule code is in the cache and the count is the games' alone: each count has a cache
folder of its own (``DAVIT_CACHE_DIR``), so that no checkout reads the entries of code it ran before,
and both processes create one game before the seeds, so that both read that code.
Usage (valgrind must be installed; a count takes about a minute)::

    git worktree add --detach /tmp/old <commit>
    python tools/bench_instructions.py --baseline /tmp/old
    python tools/bench_instructions.py --baseline /tmp/old --only der-mythos:4:150,collapsible-d:6:10
    python tools/bench_instructions.py --baseline /tmp/old --search ismcts:100 --only collapsible-d:4
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# each big game at its largest player count, Der Mythos (the yardstick of the hand-written game) at 2 and 4
DEFAULT = "der-mythos:4:150,der-mythos:2:150,collapsible-d:6:10,titanic:5:20,titanic-board-game:6:6," \
          "sos-titanic:5:30,tutorial:4:300"
DEFAULT_SEARCH = "collapsible-d:4,der-mythos:4,titanic:5"

PLAY = """
import sys
from interpreter import Game, load_ruleset
from interpreter.agents import make_agents, play_out
rid, n, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rs = load_ruleset(rid)
Game(rs, n, seed=0, record=False)   # its setup runs rule code: the compiled code is read here, with or without games
decisions = 0
for s in range(games):
    decisions += play_out(Game(rs, n, seed=s, record=False), make_agents("random", n, s))
print("decisions", decisions)
"""

SEARCH = """
import sys
from interpreter import Game, load_ruleset
from interpreter.agents import make_agents, play_out
rid, n, times, bot_spec = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
game = Game(load_ruleset(rid), n, seed=99)
total = play_out(game.clone(), make_agents("random", n, 99))
play_out(game, make_agents("random", n, 99), max_decisions=max(1, total // 2))
seat = game.deciding_players[0]
bot = make_agents(bot_spec, n, 7)[seat]
for _ in range(times):
    bot.choose(game, seat, game.legal_actions(seat))
"""


def instructions(checkout: Path, script: str, args: list[str], env: dict) -> tuple[int, int | None]:
    """The instructions callgrind counts for ``script`` run by ``checkout``'s davit with ``args`` in
    ``env``, and the decisions the games took (None when the script plays none: a search)."""
    env = {**env, "PYTHONHASHSEED": "0"}
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", script, *args]
    done = subprocess.run(command, cwd=checkout, env=env, capture_output=True, text=True, check=False)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        sys.exit(f"bench_instructions: {' '.join(args)} failed in {checkout}:\n{done.stderr[-2000:]}")
    decisions = re.search(r"^decisions (\d+)$", done.stdout, re.MULTILINE)
    return int(found.group(1)), int(decisions.group(1)) if decisions else None


def count(checkout: Path, script: str, args: list[str]) -> tuple[int, int | None]:
    """``args`` (whose third item is how many games or decisions) counted, minus the same process doing
    none; and how many decisions the games took."""
    with tempfile.TemporaryDirectory() as cache:
        # a cache of its own, holding only this code: a checkout's own cache keeps the entries of code it
        # ran before (up to hundreds), and reading them was counted as the games' (about 1% apart)
        env = {**os.environ, "PYTHONPATH": str(checkout), "DAVIT_CACHE_DIR": cache}
        subprocess.run([sys.executable, "-c", script, args[0], args[1], "1", *args[3:]], cwd=checkout, env=env,
                       capture_output=True, check=False)   # the warm-up: its compiled code into the cache
        total, decisions = instructions(checkout, script, args, env)
        return total - instructions(checkout, script, [*args[:2], "0", *args[3:]], env)[0], decisions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", type=Path, required=True, help="a checkout of the old code")
    parser.add_argument("--only", default=None,
                        help=f"ruleset:players:games,... (default {DEFAULT}; with --search ruleset:players,..., "
                             f"default {DEFAULT_SEARCH})")
    parser.add_argument("--search", default=None, help="a search bot (ismcts:100): count its thinking instead")
    parser.add_argument("--decisions", type=int, default=4, help="with --search: how many times it thinks")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("bench_instructions: valgrind is not installed", file=sys.stderr)
        return 2
    if not (args.baseline / "interpreter").is_dir():
        print(f"bench_instructions: {args.baseline} is not a davit checkout", file=sys.stderr)
        return 2
    for spec in (args.only or (DEFAULT_SEARCH if args.search else DEFAULT)).split(","):
        parts = spec.split(":")
        if args.search:
            run = [parts[0], parts[1], str(args.decisions), args.search]
            script, label = SEARCH, f"{args.search} ×{args.decisions}"
        else:
            run, script, label = parts[:3], PLAY, f"{parts[2]} games"
        (old, old_decisions), (new, new_decisions) = count(args.baseline, script, run), count(ROOT, script, run)
        line = (f"{parts[0]:20} {parts[1]:>2}  {label:16} old {old / 1e9:7.3f} × 10⁹  new {new / 1e9:7.3f} × 10⁹"
                f"  old/new {old / new:5.3f}×")
        if old_decisions != new_decisions and old_decisions and new_decisions:
            # the same seeds played other games (the rules changed between the checkouts): the totals
            # compare games of different lengths, the counts per decision compare the engines
            line += (f"  per decision {old / old_decisions / new * new_decisions:5.3f}× (the games differ: "
                     f"{old_decisions} and {new_decisions} decisions)")
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
