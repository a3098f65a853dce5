#!/usr/bin/env python3
"""Benchmark: the CPU time of a cold start, with the on-disk code cache off, empty and warm.

Not part of the tests (speed is measured here, never asserted). Each command
runs in a fresh process three ways, one after the other in every round so
that the load of a shared machine falls on all three alike:

    off    DAVIT_NO_CACHE=1: every function compiled by Python, as before the cache
    empty  an empty cache folder: compiles everything once and writes the file
    warm   the folder the earlier rounds filled: the compiled code is read back

Python's own bytecode cache of davit's modules is on (in a private folder,
whatever PYTHONDONTWRITEBYTECODE says), as on an installed davit, so that the
figures are davit's start and not the compilation of its modules. The CPU
time is user + system of the child; the table shows medians and warm/off.
Usage:

    python tools/bench_start.py [--rounds 7] [--only titanic]
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = [["simulate", "der-mythos", "--games", "1", "--players", "4"],
            ["simulate", "titanic", "--games", "1", "--players", "4"],
            ["simulate", "collapsible-d", "--games", "1", "--players", "4"],
            ["simulate", "collapsible-d", "--games", "20", "--players", "4"],
            ["test", "tutorial"],
            ["validate", "rulesets", "--no-cache"]]   # every scenario runs rules; the findings are not kept
WAYS = ("off", "empty", "warm")


def cpu_seconds(python: str, args: list[str], env: dict) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([python, "-m", "interpreter", *args], cwd=ROOT, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, env=env, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"davit {' '.join(args)} failed: {done.stderr.strip()[-400:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=7, help="runs of each command each way")
    parser.add_argument("--python", default=sys.executable, help="the interpreter to run davit with")
    parser.add_argument("--only", help="run only commands whose text contains this")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="davit-bench-start-"))
    base = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "DAVIT_NO_CACHE")}
    base.update(PYTHONPATH=str(ROOT), PYTHONPYCACHEPREFIX=str(scratch / "pyc"))
    print(f"{'command':<50}{'off':>8}{'empty':>8}{'warm':>8}{'warm/off':>10}")
    try:
        for command in COMMANDS:
            text = "davit " + " ".join(command)
            if args.only and args.only not in text:
                continue
            warm = scratch / "warm"
            shutil.rmtree(warm, ignore_errors=True)
            env = {"off": {**base, "DAVIT_CACHE_DIR": str(scratch / "off"), "DAVIT_NO_CACHE": "1"},
                   "warm": {**base, "DAVIT_CACHE_DIR": str(warm)}}
            cpu_seconds(args.python, command, env["warm"])   # untimed: fills the warm cache and Python's own
            times: dict = {way: [] for way in WAYS}
            for round_ in range(args.rounds):
                empty = scratch / f"empty{round_}"
                env["empty"] = {**base, "DAVIT_CACHE_DIR": str(empty)}
                for way in WAYS:
                    times[way].append(cpu_seconds(args.python, command, env[way]))
                shutil.rmtree(empty, ignore_errors=True)
            medians = {way: statistics.median(times[way]) for way in WAYS}
            print(f"{text:<50}" + "".join(f"{medians[way]:7.3f}s" for way in WAYS)
                  + f"{medians['warm'] / medians['off']:9.2f}×", flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
