#!/usr/bin/env python3
"""Benchmark: the CPU time of a cold ``davit validate rulesets``, old and new interleaved.

Not part of the tests (speed is measured here, never asserted). "Cold" is a
new process with an empty cache folder (``DAVIT_CACHE_DIR`` set to a fresh
temporary folder each run): no findings, no schema marks, no compiled code
and no parser tables kept, as on a first run after installing davit. Each
round runs the baseline checkout and this one, one after the other, so that
the load of a shared machine falls on both alike; the table shows every
run's CPU time (user + system of the child), the medians and new/old.

Python's own bytecode cache of davit's modules is on, in a private folder per
checkout, so that the figures are davit's and not the compilation of its
modules (a warm-up run of each checkout fills it first). Usage:

    git worktree add --detach /tmp/base-validate <commit>
    python tools/bench_validate.py --baseline /tmp/base-validate [--rounds 7] [--path rulesets]
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


def cold_validate(python: str, checkout: Path, target: str, scratch: Path, name: str) -> float:
    """CPU seconds of one ``davit validate`` of ``target`` by ``checkout`` with an empty cache folder."""
    cache = Path(tempfile.mkdtemp(prefix="cache-", dir=scratch))
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "DAVIT_NO_CACHE")}
    env.update(PYTHONPATH=str(checkout), DAVIT_CACHE_DIR=str(cache), PYTHONPYCACHEPREFIX=str(scratch / f"pyc-{name}"))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([python, "-m", "interpreter", "validate", target], cwd=checkout, env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    shutil.rmtree(cache, ignore_errors=True)
    if done.returncode != 0:
        raise SystemExit(f"{checkout}: davit validate {target} failed: {done.stderr.strip()[-400:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", type=Path, help="another checkout (git worktree add --detach /tmp/base <commit>)")
    parser.add_argument("--rounds", type=int, default=7, help="runs of each checkout (interleaved)")
    parser.add_argument("--path", default="rulesets", help="what to validate, relative to each checkout")
    parser.add_argument("--python", default=sys.executable, help="the interpreter to run davit with")
    args = parser.parse_args()
    checkouts = {"new": ROOT}
    if args.baseline:
        checkouts = {"old": args.baseline.resolve(), **checkouts}
    scratch = Path(tempfile.mkdtemp(prefix="davit-bench-validate-"))
    runs: dict = {name: [] for name in checkouts}
    try:
        for name, checkout in checkouts.items():   # fills each checkout's bytecode cache: not measured
            cold_validate(args.python, checkout, args.path, scratch, name)
        for number in range(1, args.rounds + 1):
            line = f"round {number:>2}:"
            # alternate which goes first, so that neither always runs right after the other's heavy end
            order = list(checkouts.items()) if number % 2 else list(reversed(checkouts.items()))
            for name, checkout in order:
                runs[name].append(cold_validate(args.python, checkout, args.path, scratch, name))
            line += "".join(f"  {name} {runs[name][-1]:.2f} s" for name in checkouts)
            print(line, flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    medians = {name: statistics.median(times) for name, times in runs.items()}
    print(f"cold davit validate {args.path}, CPU seconds (median of {args.rounds}): "
          + ", ".join(f"{name} {m:.2f}" for name, m in medians.items()))
    if "old" in medians:
        ratios = [o / n for o, n in zip(runs["old"], runs["new"])]
        print(f"old/new: {medians['old'] / medians['new']:.2f}× of the medians; per round "
              f"{min(ratios):.2f}–{max(ratios):.2f}× (median {statistics.median(ratios):.2f}×)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
