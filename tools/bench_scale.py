#!/usr/bin/env python3
"""Benchmark: how games per second grow with workers, here and on Ray (see docs/scale.md).

Not part of the tests (speed is measured here, never asserted). Usage:

    python tools/bench_scale.py [--ruleset der-mythos] [--players 4] [--games 1000] [--workers 1,2]
                                [--backends local,ray] [--address ADDR]

Prints one line per backend and worker count: games per second while
playing, and the wall time including starting the pool or Ray.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter.analysis.simulate import simulate  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="der-mythos")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--backends", default="local,ray")
    parser.add_argument("--address")
    args = parser.parse_args()
    print(f"{args.ruleset}, {args.players} players, {args.games} games, random bots")
    print(f"{'backend':<8}{'workers':>8}{'games/s':>10}{'wall s':>9}")
    for backend in args.backends.split(","):
        for workers in (int(w) for w in args.workers.split(",")):
            start = time.perf_counter()
            result = simulate(args.ruleset, args.games, args.players, workers=workers, backend=backend,
                              address=args.address if backend == "ray" else None)
            wall = time.perf_counter() - start
            print(f"{backend:<8}{workers:>8}{result['games_per_second']:>10}{wall:>9.1f}")


if __name__ == "__main__":
    main()
