#!/usr/bin/env python3
"""Benchmark: what one move of a search bot costs, in CPU seconds, per ruleset. Prints a table.

    python tools/bench_moves.py [--agent ismcts] [--rulesets der-mythos,tutorial] [--rounds 3]
                                [--baseline DIR]

For each ruleset at its smallest and largest player count, the bot (default:
the plain ``ismcts`` at its default budget) chooses a move at the same seeded
positions, 5, 25 and 60 decisions into two games of random bots; the table
shows its CPU seconds a move (``time.process_time``: the mean over the
positions, the median over the rounds, and the slowest move), and how many
iterations it ran. With ``--baseline DIR`` (another checkout, e.g. ``git
worktree add /tmp/old f22afd6``) the old and the new code run in two worker
processes, alternating in every round (old first, then new first), so that a
shared machine's noise falls on both alike, and the table adds their ratio.
Speed is measured here, never asserted in tests.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
WORKER = r'''
import json, sys, time
sys.path.insert(0, sys.argv[1])
from interpreter import Game, load_ruleset
from interpreter.agents import make_agents, play_out
positions = {}
def position(rid, players, seed, at):
    key = (rid, players, seed, at)
    if key not in positions:
        game = Game(load_ruleset(rid), players, seed=seed, record=False)
        play_out(game, make_agents("random", players, seed), max_decisions=at)
        positions[key] = game
    return positions[key]
for line in sys.stdin:
    job = json.loads(line)
    moves = []
    for seed, at in job["positions"]:
        game = position(job["rid"], job["players"], seed, at)
        if game.is_over:
            continue
        seat = game.deciding_players[0]
        actions = game.legal_actions(seat)
        if len(actions) < 2:
            continue
        bot = make_agents(job["agent"], job["players"], 7)[seat]
        start = time.process_time()
        bot.choose(game, seat, actions)
        moves.append([time.process_time() - start, bot.last_iterations])
    print(json.dumps(moves), flush=True)
'''
POSITIONS = [[seed, at] for seed in (1, 2) for at in (5, 25, 60)]


def player_counts(rid: str) -> list[int]:
    sys.path.insert(0, str(HERE.parent))
    from interpreter import load_ruleset
    rs = load_ruleset(rid)
    return sorted({rs.min_players, rs.max_players})


def summary(rounds: list) -> tuple:
    """(median over rounds of the mean CPU s a move, median of the mean iterations, slowest move)."""
    rounds = [r for r in rounds if r]
    if not rounds:
        return 0.0, 0.0, 0.0
    cpu = statistics.median(sum(m[0] for m in r) / len(r) for r in rounds)
    iterations = statistics.median(sum(m[1] for m in r) / len(r) for r in rounds)
    return cpu, iterations, max(m[0] for r in rounds for m in r)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agent", default="ismcts", help="the bot measured (default: ismcts at its default budget)")
    ap.add_argument("--rulesets", help="comma-separated ids (default: all bundled)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds per ruleset and player count (default 3)")
    ap.add_argument("--baseline", type=Path, help="another checkout to measure in the same rounds")
    args = ap.parse_args(argv)
    if args.rulesets:
        rids = [r.strip() for r in args.rulesets.split(",") if r.strip()]
    else:
        sys.path.insert(0, str(HERE.parent))
        from interpreter.load.files import bundled_ids
        rids = list(bundled_ids())
    roots = {"new": HERE.parent}
    if args.baseline:
        roots = {"old": args.baseline.resolve(), **roots}
    workers = {name: subprocess.Popen([sys.executable, "-c", WORKER, str(root)], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True) for name, root in roots.items()}
    head = f"{'ruleset':<20}{'p':>3}" + "".join(f"{name + ' CPU s':>12}{'iter':>7}{'max':>7}" for name in workers)
    print(head + (f"{'new/old':>9}" if args.baseline else ""), flush=True)
    for rid in rids:
        for players in player_counts(rid):
            rows = {name: [] for name in workers}
            for r in range(args.rounds):
                for name in (list(workers) if r % 2 == 0 else list(workers)[::-1]):
                    proc = workers[name]
                    proc.stdin.write(json.dumps({"rid": rid, "players": players, "agent": args.agent,
                                                 "positions": POSITIONS}) + "\n")
                    proc.stdin.flush()
                    line = proc.stdout.readline()
                    if not line:
                        raise SystemExit("a benchmark worker died")
                    rows[name].append(json.loads(line))
            shown = {name: summary(rows[name]) for name in workers}
            line = f"{rid:<20}{players:>3}" + "".join(f"{c:>12.2f}{i:>7.0f}{m:>7.2f}" for c, i, m in shown.values())
            if args.baseline and shown["old"][0] > 0:
                line += f"{shown['new'][0] / shown['old'][0]:>8.2f}×"
            print(line, flush=True)
    for proc in workers.values():
        proc.stdin.close()
        proc.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
