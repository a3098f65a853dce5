"""Many games at once: runs of one or more variants, the same for any number of workers or machines.

Game ``i`` of a run always gets seed ``rng.derive(seed, i)`` and its own
agents, whatever the variant, and results are put back in game order, so
``--workers`` and ``--backend`` change only the speed, never the numbers;
every variant of a comparison plays the same seeds with the same bots.

A run goes in rounds. Without a precision goal the run is one round; with
``until_ci`` a round is :data:`ROUND` games per variant and the run stops
after the first round at which every win-rate interval is at most that wide
(or at the game cap) — rounds are fixed in size, so where a run stops does
not depend on the backend either. Ctrl-C stops handing out work and keeps
every game that finished.
"""
from __future__ import annotations

import sys
import time

from ..rules.loading import load_ruleset
from .paired import compare_runs
from .runner import CHUNK, LocalSession, RunSpec, WorkerLostError, game_seeds
from .summary import summarize

ROUND = 500          # games per variant between two looks at the precision goal
RAY_CHUNK = 100      # games per Ray task: a task ships a few kB and should run for a second or more
BACKENDS = ("local", "ray")


class Run:
    """The records of every variant of a run, and how the run went."""

    def __init__(self, specs: list[RunSpec]):
        self.specs = specs
        self.records: list[dict] = [{} for _ in specs]   # per variant: game index -> record
        self.interrupted = False
        self.stopped_by = "games"
        self.missing: list[int] = []   # games lost with a worker process that died each time they were played
        self.seconds = 0.0

    def games(self, v: int) -> list[dict]:
        """The finished games of variant ``v`` that every variant finished, in game order."""
        common = set(self.records[0])
        for recs in self.records[1:]:
            common &= set(recs)
        return [self.records[v][i] for i in sorted(common)]


def play(specs: list[RunSpec], games: int, seed: int = 0, workers: int = 1, until_ci: float | None = None,
         backend: str = "local", address: str | None = None, progress: bool = False) -> Run:
    """Play ``games`` games (the cap, with ``until_ci``) of every spec on the same seeds."""
    run = Run(specs)
    chunk = RAY_CHUNK if backend == "ray" else CHUNK
    session = _open(backend, workers, address)
    bar = _progress_bar(games * len(specs)) if progress else None
    start = time.perf_counter()
    done = 0
    try:
        while done < games:
            stop = min(games, done + ROUND) if until_ci else games
            jobs = [((v, lo), spec, game_seeds(seed, lo, min(stop, lo + chunk)))
                    for lo in range(done, stop, chunk) for v, spec in enumerate(specs)]
            session.run(jobs, _collect(run, bar))
            done = stop
            if until_ci and all(summarize(run.games(v), s.players)["widest_win_rate_ci"] <= until_ci
                                for v, s in enumerate(specs)):
                run.stopped_by = "precision"
                break
    except KeyboardInterrupt:
        run.interrupted = True
        run.stopped_by = "interrupted"
    except WorkerLostError as exc:
        # what finished is kept, as on Ctrl-C, and the run says which games are missing
        print(f"davit: {exc}", file=sys.stderr)
        run.interrupted = True
        run.stopped_by = "interrupted"
        run.missing = exc.missing
    finally:
        if bar is not None:
            bar.close()
        session.close()
    run.seconds = time.perf_counter() - start
    return run


def _open(backend: str, workers: int, address: str | None):
    if backend == "ray":
        from .ray_backend import RaySession
        return RaySession(address, workers)
    return LocalSession(workers)


def _collect(run: Run, bar):
    def on_done(key, records):
        v, _ = key
        for record in records:
            run.records[v][record["game"]] = record
        if bar is not None:
            bar.update(len(records))
    return on_done


def _progress_bar(total: int):
    from tqdm import tqdm
    return tqdm(total=total, unit="game", file=sys.stderr, leave=False,
                bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} games [{elapsed}, ETA {remaining}, {rate_fmt}]")


def _timing(summary: dict, run: Run) -> dict:
    total = summary["games"] * len(run.specs)
    summary["seconds"] = round(run.seconds, 3)
    summary["games_per_second"] = round(total / run.seconds, 1) if run.seconds > 0 else None
    summary["interrupted"] = run.interrupted
    summary["stopped_by"] = run.stopped_by
    if run.missing:
        summary["missing_games"] = run.missing
    return summary


def _benchmark(ruleset, records) -> dict | None:
    benchmark = ruleset.benchmark
    if not benchmark or "value" not in benchmark:
        return None
    above = sum(1 for r in records if max(r["scores"]) > benchmark["value"])
    return {"value": benchmark["value"], "label": benchmark.get("label", ""),
            "share_above": round(above / len(records), 4) if records else 0.0}


def simulate(ref, games: int, players: int, seed: int = 0, workers: int = 1, variant: str | None = None,
             agents: str = "random", progress: bool = False, *, coverage: bool = False, until_ci: float | None = None,
             max_length: int | None = None, backend: str = "local", address: str | None = None,
             keep_records: bool = False, trace: bool = False) -> dict:
    """One variant's figures (see :func:`summary.summarize`), with coverage and records when asked."""
    spec = RunSpec(str(ref), variant, players, agents, max_length, coverage, trace)
    run = play([spec], games, seed, workers, until_ci, backend, address, progress)
    records = run.games(0)
    ruleset = load_ruleset(ref, variant)
    summary = _timing(summarize(records, players, ruleset.team_var is None), run)
    benchmark = _benchmark(ruleset, records)
    if benchmark:
        summary["benchmark"] = benchmark
    if coverage:
        from .coverage import coverage_summary
        summary["coverage"] = coverage_summary(ruleset, records)
    if keep_records:
        summary["records"] = records
    return summary


def compare(ref, variants: list[str | None], games: int, players: int, seed: int = 0, workers: int = 1,
            agents: str = "random", progress: bool = False, *, coverage: bool = False,
            until_ci: float | None = None, max_length: int | None = None, backend: str = "local",
            address: str | None = None, keep_records: bool = False, trace: bool = False) -> dict:
    """Every variant on the same seeds and bots; each later one is tested against the first."""
    specs = [RunSpec(str(ref), v, players, agents, max_length, coverage, trace) for v in variants]
    run = play(specs, games, seed, workers, until_ci, backend, address, progress)
    records = [run.games(v) for v in range(len(specs))]
    base_rs = load_ruleset(ref, variants[0])
    rivals = base_rs.team_var is None
    summaries = [summarize(recs, players, rivals) for recs in records]
    out: dict[str, list] = {"variants": [], "comparisons": []}
    for v, (variant, summary) in enumerate(zip(variants, summaries)):
        entry = {"variant": variant, **summary}
        ruleset = load_ruleset(ref, variant)
        benchmark = _benchmark(ruleset, records[v])
        if benchmark:
            entry["benchmark"] = benchmark
        if coverage:
            from .coverage import coverage_summary
            entry["coverage"] = coverage_summary(ruleset, records[v])
        if keep_records:
            entry["records"] = records[v]
        out["variants"].append(entry)
    for v in range(1, len(variants)):   # paired game by game (see paired.py); metrics both sides declare
        theirs = {m.name for m in load_ruleset(ref, variants[v]).metrics}
        metrics = [m.name for m in base_rs.metrics if m.name in theirs]
        out["comparisons"].append({"base": variants[0], "variant": variants[v],
                                   **compare_runs(records[0], records[v], players, players > 1 and rivals, metrics)})
    return _timing(out | {"games": summaries[0]["games"], "players": players}, run)
