#!/usr/bin/env python3
"""Benchmark: CPU time of the designer's everyday commands (`davit --help`, `list`, `validate`, `test`, `simulate`).

Not part of the tests (speed is measured here, never asserted). Each command
runs in a fresh process several times; the CPU time (user + system of the
child) is printed as min / median. `validate rulesets` is measured warm (its
findings cache filled by an earlier run, in a private cache folder) and cold
(`--no-cache`: every ruleset, variant and scenario checked afresh). Usage:

    python tools/bench_cli.py [--runs 7] [--only validate]
    python tools/bench_cli.py --baseline /path/to/old/checkout   # old against new

Runs the davit of this checkout (`python -m interpreter` from the repository
root). With `--baseline DIR` each command runs in the other checkout too,
alternating old and new run by run, so that the load of a shared machine falls
on both alike; `new/old` is the ratio of the medians.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = [["--help"], ["list"], ["validate", "rulesets"], ["validate", "rulesets", "--no-cache"],
            ["test", "tutorial"], ["simulate", "der-mythos", "--games", "1"],
            ["simulate", "collapsible-d", "--games", "1"]]


def cpu_seconds(python: str, checkout: Path, args: list[str], cache: str) -> float:
    env = {**os.environ, "PYTHONPATH": str(checkout), "DAVIT_CACHE_DIR": cache}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([python, "-m", "interpreter", *args], cwd=checkout, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, env=env, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="runs per command (per checkout)")
    parser.add_argument("--python", default=sys.executable, help="the interpreter to run davit with")
    parser.add_argument("--only", help="run only commands whose text contains this")
    parser.add_argument("--baseline", type=Path, help="another checkout to measure in turn with this one")
    args = parser.parse_args()
    checkouts = {"new": ROOT}
    if args.baseline:
        checkouts = {"old": args.baseline.resolve(), "new": ROOT}
    caches = {name: tempfile.mkdtemp(prefix=f"davit-bench-{name}-") for name in checkouts}
    header = f"{'command':<38}" + "".join(f"{name + ' min':>10}{name + ' median':>13}" for name in checkouts)
    print(header + ("    new/old" if args.baseline else ""))
    for command in COMMANDS:
        text = "davit " + " ".join(command)
        if args.only and args.only not in text:
            continue
        times: dict = {name: [] for name in checkouts}
        for name, checkout in checkouts.items():   # one untimed run each: fills the warm cache, loads the disk
            cpu_seconds(args.python, checkout, command, caches[name])
        for _ in range(args.runs):
            for name, checkout in checkouts.items():
                times[name].append(cpu_seconds(args.python, checkout, command, caches[name]))
        row = f"{text:<38}"
        for name in checkouts:
            row += f"{min(times[name]):9.2f}s{statistics.median(times[name]):12.2f}s"
        if args.baseline:
            row += f"{statistics.median(times['new']) / statistics.median(times['old']):10.2f}×"
        print(row, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
