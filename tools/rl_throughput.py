"""Environment steps per second of the PettingZoo environment, per bundled ruleset (random legal actions).

    python tools/rl_throughput.py [--seconds 10] [ruleset ...]

A step is one action id (one token of an action, see docs/rl.md); each step
also builds the acting seat's observation, as a learner would. Numbers go to
docs/rl.md by hand; tests never assert speed.
"""
import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from interpreter import load_ruleset  # noqa: E402
from interpreter.load.files import bundled_ids  # noqa: E402
from interpreter.rl import pettingzoo as davit_pz  # noqa: E402


def measure(rid: str, players: int, seconds: float) -> tuple[float, float, int]:
    env = davit_pz.env(rid, players)
    pick = np.random.default_rng(0)
    steps = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=episodes)
        episodes += 1
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(pick.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    elapsed = time.perf_counter() - start
    return steps / elapsed, episodes / elapsed, env.catalogue.size


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="*", default=bundled_ids())
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    print("| ruleset | players | action ids | steps/s | games/s |")
    print("| --- | --- | --- | --- | --- |")
    for rid in args.rulesets:
        players = max(2, load_ruleset(rid).min_players)
        steps, games, size = measure(rid, players, args.seconds)
        print(f"| `{rid}` | {players} | {size} | {steps:,.0f} | {games:.2f} |", flush=True)


if __name__ == "__main__":
    main()
