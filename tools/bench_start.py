#!/usr/bin/env python3
"""Benchmark: the CPU time of a cold start, with the on-disk code cache off, empty and warm.

Not part of the tests (speed is measured here, never asserted). Each command
runs in a fresh process three ways, one after the other in every round so
that the load of a shared machine falls on all three alike:

    off    no code cache (its folder cannot be made): every function compiled by Python
    empty  an empty code cache: compiles everything once and writes the file
    warm   the code cache the earlier rounds filled: the compiled code is read back

Only the code cache differs: each way has the parser's tables already kept
(the other caches in davit's folder), as any but the very first start has.

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


def without_code(python: str, base: dict, root: Path, block: bool) -> Path:
    """A cache folder with the parser's tables kept and no compiled code (``block``: none can be kept)."""
    root.mkdir(parents=True, exist_ok=True)
    # lark's file is bound to its path (the path is part of what it hashes): made in place, not copied
    subprocess.run([python, "-c", "from interpreter.dsl import parser; parser._lark()"], cwd=ROOT, check=True,
                   env={**base, "DAVIT_CACHE_DIR": str(root)})
    if block:
        (root / "code").write_text("a file where the code cache's folder would be: it is off\n")
    return root


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
            for old in (warm, scratch / "off"):
                shutil.rmtree(old, ignore_errors=True)
            env = {"warm": {**base, "DAVIT_CACHE_DIR": str(warm)}}
            cpu_seconds(args.python, command, env["warm"])   # untimed: fills the warm cache and Python's own
            off = without_code(args.python, base, scratch / "off", block=True)
            env["off"] = {**base, "DAVIT_CACHE_DIR": str(off)}
            times: dict = {way: [] for way in WAYS}
            for round_ in range(args.rounds):
                empty = without_code(args.python, base, scratch / f"empty{round_}", block=False)
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
