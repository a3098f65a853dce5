"""Playing the games of a run: one game, a chunk of games, and the local backends.

Game ``i`` of a run always gets seed ``rng.derive(seed, i)`` and its own
agents, so which process (or machine) plays it never changes its result: a
backend only decides where chunks run. A game keeps its event log only when
the rule coverage is asked for (see :mod:`interpreter.analysis.coverage`,
which reads it); the length and the end reason come from the game itself.
"""
from __future__ import annotations

import multiprocessing
import signal
import sys
import threading
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from ..agents import make_agents
from ..agents.search_tally import search_troubles
from ..errors import DavitError, RunawayGameError
from ..load.limits import LENGTH_DRAW_REASON, LENGTH_LIMIT_REASON, WORK_LIMIT_REASON
from ..machine import rng
from ..play.game import Game
from ..rules.loading import load_ruleset
from ..rules.metrics import needs_log, read_metrics
from .coverage import game_coverage
from .dynamics import Trace, game_dynamics, play_traced

CHUNK = 50          # games per task for processes on this machine
CAP_REASON = "length cap"
STEP_LIMIT_REASON = "step limit"


@dataclass(frozen=True)
class RunSpec:
    """What every game of one run (one ruleset and variant) shares."""
    ref: str
    variant: str | None
    players: int
    agents: str = "random"
    max_length: int | None = None   # decisions; a game still running then is cut off (capped)
    coverage: bool = False
    trace: bool = False             # keep one row per decision (options, scores) for --decisions


def game_seeds(seed: int, start: int, stop: int) -> list[tuple[int, int]]:
    """(index, seed) of games ``start`` … ``stop - 1`` of a run with master seed ``seed``."""
    return [(i, rng.derive(seed, i)) for i in range(start, stop)]


class _Offered:
    """Wraps an agent to count which actions it was offered (the agent still decides alone)."""

    def __init__(self, agent, counts: Counter):
        self.agent, self.counts, self.name = agent, counts, agent.name

    def choose(self, game, seat, actions):
        self.counts.update({a.name for a in actions})
        return self.agent.choose(game, seat, actions)


def play_game(ruleset, spec: RunSpec, index: int, seed: int) -> dict:
    """One game as a plain record: scores, winners, length in decisions, how it ended."""
    # the event log is kept only for the rule coverage and metrics that count events: without it the games
    # are the same, and faster
    game = Game(ruleset, spec.players, seed=seed, record=spec.coverage or needs_log(ruleset))
    agents = bots = make_agents(spec.agents, spec.players, seed)
    offered: Counter = Counter()
    if spec.coverage:
        agents = [_Offered(a, offered) for a in bots]
    reason = None
    trace = Trace(game)
    try:
        play_traced(game, agents, trace, spec.max_length)
    except RunawayGameError:
        reason = STEP_LIMIT_REASON  # the ruleset's limits.max_steps: a length cap of the engine's own
    if reason is None:
        reason = (game.end_reason or "end") if game.is_over else CAP_REASON
    scores = game.scores
    record: dict = {"game": index, "seed": seed, "scores": [scores[s] for s in range(spec.players)],
              "winners": list(game.winners), "draw": game.is_draw, "length": game.decisions,
              "end_reason": str(reason), "capped": reason in (CAP_REASON, STEP_LIMIT_REASON, LENGTH_LIMIT_REASON,
                                                                      LENGTH_DRAW_REASON, WORK_LIMIT_REASON)}
    record["dynamics"] = game_dynamics(trace, record["winners"])
    if spec.trace:
        record["trace"] = trace.rows()
    if ruleset.metrics:
        record["metrics"] = read_metrics(ruleset, game)
        if trace.by_round:   # metrics with every: as each round began
            record["metrics_by_round"] = trace.by_round
    if spec.coverage:
        record["coverage"] = game_coverage(game.log, offered)
    troubles = search_troubles(bots)
    if troubles is not None:   # only then: the records of games whose bots met none are as they were
        record["search_troubles"] = troubles
    return record


def play_chunk(spec: RunSpec, games: list[tuple[int, int]], ruleset=None) -> list[dict]:
    """Records of the given (index, seed) games, in that order."""
    ruleset = ruleset if ruleset is not None else load_ruleset(spec.ref, spec.variant)
    return [play_game(ruleset, spec, index, seed) for index, seed in games]


def _task(job):
    key, spec, games = job
    return key, play_chunk(spec, games)


def _ignore_sigint():
    # Ctrl-C is the parent's business: it stops handing out work and keeps what finished
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _pool_deaf_to_sigint(ctx, size: int, jobs) -> tuple:
    """A pool whose workers ignore Ctrl-C from their first instruction on, with ``jobs`` handed to it:
    (pool, {future: job}).

    The initializer alone leaves a gap: a forked worker keeps the parent's
    handler until it has run, and a Ctrl-C in that gap prints the worker's
    traceback. Forked while the parent ignores SIGINT (a pool starts its
    workers at the first job), a worker ignores it from birth; the parent's
    handler comes back as soon as the jobs are handed out.
    """
    pool = ProcessPoolExecutor(size, mp_context=ctx, initializer=_ignore_sigint)
    if threading.current_thread() is not threading.main_thread():
        return pool, {pool.submit(_task, job): job for job in jobs}
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        return pool, {pool.submit(_task, job): job for job in jobs}
    finally:
        signal.signal(signal.SIGINT, previous)


class WorkerLostError(DavitError):
    """Games whose worker process died (killed, out of memory) each time they were played."""
    code = "worker-lost"

    def __init__(self, message: str, missing: list[int]):
        super().__init__(message)
        self.missing = missing


def run_local(jobs, workers: int, on_done) -> None:
    """Run ``(key, spec, games)`` jobs here, on ``workers`` processes; ``on_done(key, records)`` as each ends.

    A worker that dies (``kill -9``, the kernel's out-of-memory killer) breaks
    the pool at once, and every job it had not finished is lost with it. Those
    are played again on a new pool (the same seeds give the same games); jobs
    lost a second time are played once more, each alone in its own process,
    so that only a job that kills its worker every time is given up, and
    :class:`WorkerLostError` names its games. A KeyboardInterrupt stops the
    pool at once and propagates; what was handed to ``on_done`` before either
    stays with the caller.
    """
    if workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            on_done(*_task(job))
        return
    ctx = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    todo = _run_pool(ctx, list(jobs), workers, on_done)
    if todo:   # a worker died: once is a kill from outside, or the memory of the machine
        todo = _run_pool(ctx, todo, workers, on_done)
    gone = [job for job in todo if _run_pool(ctx, [job], 1, on_done)]
    if gone:
        missing = sorted(index for _, _, games in gone for index, _ in games)
        raise WorkerLostError(f"a worker process died (killed, or out of memory) each of the 3 times games "
                              f"{spans(missing)} were played; they are missing from the result", missing)


def _run_pool(ctx, jobs, workers: int, on_done) -> list:
    """Run ``jobs`` on a new pool; the jobs lost with a worker that died."""
    pool, futures = _pool_deaf_to_sigint(ctx, min(workers, len(jobs)), jobs)
    lost = []
    try:
        for future in as_completed(futures):
            try:
                key, records = future.result()
            except BrokenProcessPool:
                lost.append(futures[future])
                continue
            on_done(key, records)
    except BaseException:
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            process.terminate()   # the executor has no terminate(): its workers would finish every job first
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
    return sorted(lost, key=lambda job: job[0])


def spans(indices: list[int]) -> str:
    """``[0, 1, 2, 7]`` as ``0–2, 7``."""
    spans, start = [], None
    for i, index in enumerate(indices):
        if start is None:
            start = index
        if i + 1 == len(indices) or indices[i + 1] != index + 1:
            spans.append(str(start) if start == index else f"{start}–{index}")
            start = None
    return ", ".join(spans)


class LocalSession:
    """This machine's processes, with the same ``run``/``close`` as :class:`.ray_backend.RaySession`."""

    def __init__(self, workers: int):
        self.workers = workers

    def run(self, jobs, on_done) -> None:
        run_local(jobs, self.workers, on_done)

    def close(self) -> None:
        pass
