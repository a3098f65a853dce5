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
from dataclasses import dataclass

from ..agents import make_agents, play_out
from ..errors import RunawayGameError
from ..load.limits import LENGTH_DRAW_REASON, LENGTH_LIMIT_REASON, WORK_LIMIT_REASON
from ..machine import rng
from ..play.game import Game
from ..rules.loading import load_ruleset
from .coverage import game_coverage

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
    # the event log is kept only for the rule coverage: without it the games are the same, and faster
    game = Game(ruleset, spec.players, seed=seed, record=spec.coverage)
    agents = make_agents(spec.agents, spec.players, seed)
    offered = Counter()
    if spec.coverage:
        agents = [_Offered(a, offered) for a in agents]
    reason = None
    try:
        play_out(game, agents, max_decisions=spec.max_length)
    except RunawayGameError:
        reason = STEP_LIMIT_REASON  # the ruleset's limits.max_steps: a length cap of the engine's own
    if reason is None:
        reason = (game.end_reason or "end") if game.is_over else CAP_REASON
    scores = game.scores
    record = {"game": index, "seed": seed, "scores": [scores[s] for s in range(spec.players)],
              "winners": list(game.winners), "length": game.decisions,
              "end_reason": str(reason), "capped": reason in (CAP_REASON, STEP_LIMIT_REASON, LENGTH_LIMIT_REASON,
                                                                      LENGTH_DRAW_REASON, WORK_LIMIT_REASON)}
    if spec.coverage:
        record["coverage"] = game_coverage(game.log, offered)
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


def _pool_deaf_to_sigint(ctx, size: int):
    """A pool whose workers ignore Ctrl-C from their first instruction on.

    The initializer alone leaves a gap: a forked worker keeps the parent's
    handler until it has run, and a Ctrl-C in that gap prints the worker's
    traceback. Forked while the parent ignores SIGINT, a worker ignores it from
    birth; the parent's handler comes back as soon as the pool exists.
    """
    if threading.current_thread() is not threading.main_thread():
        return ctx.Pool(size, initializer=_ignore_sigint)
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        return ctx.Pool(size, initializer=_ignore_sigint)
    finally:
        signal.signal(signal.SIGINT, previous)


def run_local(jobs, workers: int, on_done) -> None:
    """Run ``(key, spec, games)`` jobs here, on ``workers`` processes; ``on_done(key, records)`` as each ends.

    A KeyboardInterrupt stops the pool at once and propagates; what was
    handed to ``on_done`` before it stays with the caller.
    """
    if workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            on_done(*_task(job))
        return
    ctx = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    pool = _pool_deaf_to_sigint(ctx, min(workers, len(jobs)))
    try:
        for key, records in pool.imap_unordered(_task, jobs):
            on_done(key, records)
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()


class LocalSession:
    """This machine's processes, with the same ``run``/``close`` as :class:`.ray_backend.RaySession`."""

    def __init__(self, workers: int):
        self.workers = workers

    def run(self, jobs, on_done) -> None:
        run_local(jobs, self.workers, on_done)

    def close(self) -> None:
        pass
