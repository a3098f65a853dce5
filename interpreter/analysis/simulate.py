"""Many games at once: per-seat statistics, the same for any number of workers.

Game ``i`` of a run always gets seed ``rng.derive(seed, i)`` and its own
agents, and results are gathered in game order, so ``--workers`` changes only
the speed, never the numbers.
"""
from __future__ import annotations

import math
import multiprocessing
import sys
import time

from ..agents import make_agents, play_out
from ..machine import rng
from ..play.game import Game
from ..rules.loading import load_ruleset

CHUNK = 50


def _play_chunk(job):
    ref, variant, players, agents_spec, seeds = job
    ruleset = load_ruleset(ref, variant)
    out = []
    for game_seed in seeds:
        game = Game(ruleset, players, seed=game_seed, record=False)
        agents = make_agents(agents_spec, players, game_seed)
        decisions = play_out(game, agents)
        scores = game.scores
        out.append(([scores[s] for s in range(players)], game.winners, decisions))
    return out


def simulate(ref, games: int, players: int, seed: int = 0, workers: int = 1, variant: str | None = None,
             agents: str = "random", progress: bool = False) -> dict:
    seeds = [rng.derive(seed, i) for i in range(games)]
    jobs = [(str(ref), variant, players, agents, seeds[i:i + CHUNK]) for i in range(0, games, CHUNK)]
    start = time.perf_counter()
    results = []
    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(total=games, unit="game", file=sys.stderr, leave=False)
    if workers > 1 and len(jobs) > 1:
        ctx = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
        with ctx.Pool(workers) as pool:
            for chunk in pool.imap(_play_chunk, jobs):
                results.extend(chunk)
                if bar:
                    bar.update(len(chunk))
    else:
        for job in jobs:
            chunk = _play_chunk(job)
            results.extend(chunk)
            if bar:
                bar.update(len(chunk))
    if bar:
        bar.close()
    elapsed = time.perf_counter() - start
    summary = summarize(results, players, elapsed)
    benchmark = load_ruleset(ref, variant).benchmark
    if benchmark and "value" in benchmark:
        above = sum(1 for scores, _, _ in results if max(scores) > benchmark["value"])
        summary["benchmark"] = {"value": benchmark["value"], "label": benchmark.get("label", ""),
                                "share_above": round(above / len(results), 4) if results else 0.0}
    return summary


def summarize(results, players: int, elapsed: float) -> dict:
    n = len(results)
    wins = [0] * players
    totals = [[] for _ in range(players)]
    lengths = []
    for scores, winners, decisions in results:
        for s in range(players):
            totals[s].append(scores[s])
        for w in winners:
            wins[w] += 1
        lengths.append(decisions)
    means = [sum(t) / n if n else 0.0 for t in totals]
    spreads = [math.sqrt(sum((x - m) ** 2 for x in t) / n) if n else 0.0 for t, m in zip(totals, means)]
    return {
        "games": n,
        "players": players,
        "wins": wins,
        "win_rate": [w / n if n else 0.0 for w in wins],
        "mean_scores": [round(m, 4) for m in means],
        "score_stdev": [round(s, 4) for s in spreads],
        "mean_length": round(sum(lengths) / n, 4) if n else 0.0,
        "seconds": round(elapsed, 3),
        "games_per_second": round(n / elapsed, 1) if elapsed > 0 else None,
    }
