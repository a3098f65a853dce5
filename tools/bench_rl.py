#!/usr/bin/env python3
"""Benchmark: the PettingZoo environment against davit's own random playouts of the same games.

    python tools/bench_rl.py [--rounds 5] [--seconds 1] [ruleset ...]

For each ruleset (by default every bundled one, at its smallest player count
of at least two) the rounds alternate: for ``--seconds`` of CPU time davit
plays random games natively (``Game`` and ``play_out`` with ``random``
agents, the fused loop of ``interpreter/play/playout.py``), then for as long
the AEC environment plays random games as a learner would (``env.last()``
builds the acting seat's observation and mask at every step, a legal id is
drawn from the mask). Interleaving puts the noise of a shared machine on both
alike. The table shows medians over the rounds: games per second of each,
environment steps (action ids) per second, and the ratio env/native of games
per second, the same games played either way (issue 32 asks for at least
0.5). Rates are CPU time (``time.process_time``). Speed is measured here,
never asserted in tests.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from interpreter import Game, load_ruleset  # noqa: E402
from interpreter.agents import make_agents, play_out  # noqa: E402
from interpreter.load.files import bundled_ids  # noqa: E402
from interpreter.rl import pettingzoo as davit_pz  # noqa: E402


def native(rs, players: int, seconds: float, seed: int) -> dict:
    """Random games played by davit itself, no event log."""
    start = time.process_time()
    games = decisions = 0
    while time.process_time() - start < seconds or games == 0:
        game = Game(rs, players, seed=seed + games)
        decisions += play_out(game, make_agents("random", players, seed + games))
        games += 1
    elapsed = time.process_time() - start
    return {"games": games / elapsed, "steps": decisions / elapsed}


def environment(env, seconds: float, seed: int) -> dict:
    """Random games through the AEC environment, the acting seat's observation built at every step."""
    pick = random.Random(seed)   # the learner's cheapest draw from the mask: numpy's choice costs more than a step
    start = time.process_time()
    games = steps = 0
    while time.process_time() - start < seconds or games == 0:
        env.reset(seed=seed + games)
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[int(pick.random() * len(legal))]))
            steps += 1
        games += 1
    elapsed = time.process_time() - start
    return {"games": games / elapsed, "steps": steps / elapsed}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="*", default=bundled_ids())
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds of each side in each round")
    args = parser.parse_args()
    print("| ruleset | players | native games/s | env games/s | native decisions/s | env steps/s | env/native |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for rid in args.rulesets:
        rs = load_ruleset(rid)
        players = max(2, rs.min_players) if rs.max_players >= 2 else rs.min_players
        env = davit_pz.env(rs, players)
        ours, theirs = [], []
        for round_ in range(args.rounds):
            seed = 1000 * round_
            ours.append(native(rs, players, args.seconds, seed))
            theirs.append(environment(env, args.seconds, seed))
        med = {side: {k: statistics.median(r[k] for r in rows) for k in ("games", "steps")}
               for side, rows in (("native", ours), ("env", theirs))}
        ratio = statistics.median(t["games"] / o["games"] for o, t in zip(ours, theirs))
        print(f"| `{rid}` | {players} | {med['native']['games']:,.1f} | {med['env']['games']:,.1f} "
              f"| {med['native']['steps']:,.0f} | {med['env']['steps']:,.0f} | {ratio:.2f} |", flush=True)


if __name__ == "__main__":
    main()
