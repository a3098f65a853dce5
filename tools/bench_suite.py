#!/usr/bin/env python3
"""Benchmark: the CPU time of the test suite, of this checkout and optionally of an older one.

Not part of the tests (speed is measured here, never asserted). Each checkout's
suite runs once, in turn (never two at once: the machine is shared), as
``python -m pytest -q -p no:cacheprovider`` in a fresh process with an empty
findings cache. CPU time is user + system of pytest and of every process it
waited for (CLI runs, workers, browsers): less sensitive to the load of a
shared machine than wall time. Usage:

    python tools/bench_suite.py                                 # this checkout's whole suite
    python tools/bench_suite.py --baseline /tmp/old             # old, then new, per file
    python tools/bench_suite.py --baseline /tmp/old --common    # also only the tests both have
    python tools/bench_suite.py tests/test_unit_rng.py          # only these paths (or node ids)

Prints the whole-suite figures, the CPU time per test file (largest first) and
the slowest tests by CPU time. With ``--common`` both suites run again limited
to the node ids present in both, since a suite that grew is not the same suite.
Per-test figures come from the ``tools/suite_cpu.py`` plugin, so they work on
a checkout older than this tool.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOOLS = Path(__file__).resolve().parent


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _env(checkout: Path, extra: dict) -> dict:
    env = {**os.environ, **extra}
    env["PYTHONPATH"] = os.pathsep.join([str(TOOLS), str(checkout)])
    env.pop("PYTEST_ADDOPTS", None)
    return env


def collect(python: str, checkout: Path, selection: list[str]) -> list[str]:
    """The node ids the checkout's suite (or the selection) collects."""
    done = subprocess.run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--collect-only", *selection],
                          cwd=checkout, env=_env(checkout, {}), capture_output=True, text=True, check=False)
    return [line for line in done.stdout.splitlines() if "::" in line]


def run_suite(python: str, checkout: Path, selection: list[str]) -> dict:
    """Run pytest once; its CPU time (self and children), wall time, load average and per-test CPU."""
    with tempfile.TemporaryDirectory(prefix="davit-suite-") as scratch:
        out = Path(scratch) / "cpu.json"
        env = _env(checkout, {"DAVIT_SUITE_CPU": str(out), "DAVIT_CACHE_DIR": str(Path(scratch) / "cache")})
        load = os.getloadavg()[0]
        before, start = _children_cpu(), time.perf_counter()
        done = subprocess.run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "suite_cpu", *selection],
                              cwd=checkout, env=env, capture_output=True, text=True, check=False)
        cpu, wall = _children_cpu() - before, time.perf_counter() - start
        lines = done.stdout.strip().splitlines() or [""]
        summary = lines[-1]
        for line in lines:     # a suite that fails is not measured as if it passed: say what failed
            if line.startswith(("FAILED ", "ERROR ")):
                print(f"{checkout}: {line}", file=sys.stderr)
        if done.returncode != 0:   # and keep pytest's report, so that a failure seen only here can be read
            handle, name = tempfile.mkstemp(prefix="davit-suite-failures-", suffix=".txt")
            os.close(handle)
            kept = Path(name)
            kept.write_text(done.stdout + done.stderr)
            print(f"{checkout}: pytest's output is in {kept}", file=sys.stderr)
        tests = json.loads(out.read_text())["tests"] if out.is_file() else {}
    return {"cpu": cpu, "wall": wall, "load": (load, os.getloadavg()[0]), "summary": summary,
            "tests": tests, "ok": done.returncode == 0}


def per_file(tests: dict) -> dict:
    files: dict = {}
    for nodeid, cpu in tests.items():
        name = nodeid.split("::", 1)[0]
        files[name] = files.get(name, 0.0) + cpu
    return files


def _ratio(new: float, old: float | None) -> str:
    return f"{new / old:.2f}×" if old else "-"


def report(label: str, runs: dict) -> None:
    print(f"== {label}")
    for name, run in runs.items():
        print(f"{name:>4}: {run['cpu']:8.1f} s CPU  {run['wall']:8.1f} s wall  load {run['load'][0]:.2f} → "
              f"{run['load'][1]:.2f}  {len(run['tests'])} tests  {run['summary']}")
    if len(runs) == 2:
        print(f"new/old CPU: {_ratio(runs['new']['cpu'], runs['old']['cpu'])}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="*", help="test paths or node ids (default: the whole suite)")
    parser.add_argument("--baseline", type=Path, help="an older checkout, run before this one")
    parser.add_argument("--common", action="store_true", help="also run only the node ids both checkouts have")
    parser.add_argument("--top", type=int, default=20, help="how many files and tests to list")
    parser.add_argument("--python", default=sys.executable, help="the interpreter to run pytest with")
    args = parser.parse_args()
    checkouts = {"new": ROOT}
    if args.baseline:
        checkouts = {"old": args.baseline.resolve(), "new": ROOT}
    runs = {name: run_suite(args.python, path, args.paths) for name, path in checkouts.items()}
    report("whole suite" if not args.paths else "selection", runs)
    files = {name: per_file(run["tests"]) for name, run in runs.items()}
    print(f"\n{'CPU s per test file':<48}" + "".join(f"{name:>9}" for name in checkouts)
          + ("  new/old" if args.baseline else ""))
    for name in sorted(files["new"], key=files["new"].get, reverse=True)[:args.top]:
        old = files.get("old", {}).get(name)
        cells = (([f"{old:9.1f}" if old is not None else f"{'-':>9}"] if args.baseline else [])
                 + [f"{files['new'][name]:9.1f}"])
        print(f"{name:<48}" + "".join(cells) + (f"  {_ratio(files['new'][name], old):>7}" if args.baseline else ""))
    print(f"\n{'slowest tests (CPU s)':<100}" + "".join(f"{name:>9}" for name in checkouts))
    slow = runs["new"]["tests"]
    for nodeid in sorted(slow, key=slow.get, reverse=True)[:args.top]:
        old = runs.get("old", {}).get("tests", {}).get(nodeid)
        cells = (([f"{old:9.2f}" if old is not None else f"{'-':>9}"] if args.baseline else [])
                 + [f"{slow[nodeid]:9.2f}"])
        print(f"{nodeid[:100]:<100}" + "".join(cells))
    if args.common and args.baseline:
        ids = {name: collect(args.python, path, args.paths) for name, path in checkouts.items()}
        common = [i for i in ids["new"] if i in set(ids["old"])]
        print(f"\n{len(common)} node ids in both ({len(ids['old'])} old, {len(ids['new'])} new)")
        both = {name: run_suite(args.python, path, common) for name, path in checkouts.items()}
        report("only the tests both checkouts have", both)
        runs.update({f"{k} common": v for k, v in both.items()})
    return 0 if all(run["ok"] for run in runs.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
