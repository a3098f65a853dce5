#!/usr/bin/env python3
"""Benchmark: CPU time of the designer's everyday commands (`davit --help`, `list`, `validate rulesets`).

Not part of the tests (speed is measured here, never asserted). Each command
runs in a fresh process several times; the CPU time (user + system of the
child) is printed as min / median. Usage:

    python tools/bench_cli.py [--runs 5] [--python python3]

Runs the davit of this checkout (`python -m interpreter` from the repository root).
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = [["--help"], ["list"], ["validate", "rulesets"], ["test", "tutorial"]]


def cpu_seconds(python: str, args: list[str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([python, "-m", "interpreter", *args], cwd=ROOT, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, env={**os.environ, "PYTHONPATH": str(ROOT)}, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per command")
    parser.add_argument("--python", default=sys.executable, help="the interpreter to run davit with")
    parser.add_argument("--only", help="run only commands whose text contains this")
    args = parser.parse_args()
    for command in COMMANDS:
        text = "davit " + " ".join(command)
        if args.only and args.only not in text:
            continue
        times = sorted(cpu_seconds(args.python, command) for _ in range(args.runs))
        print(f"{text:<28} CPU min {times[0]:6.2f} s   median {statistics.median(times):6.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
