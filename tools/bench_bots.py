#!/usr/bin/env python3
"""Benchmark: how well the search bots play, and how long a move takes. Prints a Markdown table.

    python tools/bench_bots.py [--rulesets der-mythos,tutorial] [--games 200] [--agent ismcts]
                               [--players min,max] [--seed 0] [--workers 1]

For each ruleset at its smallest and largest player count, one seat is played
by the bot (``--agent``, default ``ismcts`` at its default budget) and every
other seat by ``random``; the bot's seat moves round the table from game to
game. Each ruleset has its own yardstick (the issue's "done when"):

* competitive rulesets: the bot's share of the wins against twice a fair
  share, ``2 / players``. A tie of k winners gives each 1/k of a win, so the
  shares of all seats add up to one game and a fair share is 1/players (the
  reading docs/agents.md states); the column "wins or ties" counts a shared
  win as a whole one, for comparison;
* Collapsible D: the bot's passengers rescued per game, against 3;
* Titanic: The Board Game: the share of games in which the bot reaches a
  lifeboat (before the round cap), against 90%;
* SOS Titanic (co-operative): a whole team of the bot against a team of
  ``greedy`` bots; the bot's mean team score must be higher and the two 95%
  intervals must not overlap.

Intervals are 95%: Wilson for shares of games (a shared win counts its
fraction), Student t for means. ``--workers N`` plays N games at a time in
separate processes (the wall-clock times then include the machine's sharing).
The time columns are seconds per bot move on this machine: wall-clock (what a
player waits) and CPU (``time.process_time``, what the search costs, much
less disturbed by other work). The default budget is a number of iterations,
never a time, so a busy machine makes a move slower, never different.
Game-specific measures live here, in a tool, never in the engine.
"""
from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from functools import cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter import Game, load_ruleset  # noqa: E402
from interpreter.agents import make_agents, play_out  # noqa: E402
from interpreter.analysis.stats import mean_interval, wilson  # noqa: E402
from interpreter.load.files import bundled_ids  # noqa: E402

SLOW = {"collapsible-d": 50, "titanic": 50}   # games by default where a game takes seconds


def saved_passengers(game, seat):
    return game.state.pvars[seat].get("saved", 0)


def reached_lifeboat(game, seat):
    return 1 if game.state.pvars[seat].get("place", 0) > 0 else 0


# ruleset -> (what is measured, per-game value of the bot's seat, kind, target)
MEASURES = {
    "collapsible-d": ("passengers rescued / game", saved_passengers, "mean", 3.0),
    "titanic-board-game": ("reaches a lifeboat", reached_lifeboat, "share", 0.9),
}


class Timed:
    """Wraps an agent to time its moves: (wall-clock, CPU) seconds each."""

    def __init__(self, agent, times):
        self.agent, self.times, self.name = agent, times, agent.name

    def choose(self, game, seat, actions):
        start, cpu = time.perf_counter(), time.process_time()
        action = self.agent.choose(game, seat, actions)
        if len(actions) > 1:
            self.times.append((time.perf_counter() - start, time.process_time() - cpu))
        return action


@cache
def _ruleset(rid):
    return load_ruleset(rid)


def play_one(rid, players, names, seed, seats):
    """One game; what the table needs of it: winners, team score, the bot seats' measure, move times."""
    rs = _ruleset(rid)
    times = []
    agents = make_agents(names, players, seed)
    agents = [Timed(a, times) if s in seats else a for s, a in enumerate(agents)]
    game = Game(rs, players, seed=seed, record=False)
    play_out(game, agents)
    measure = MEASURES.get(rid)
    values = [measure[1](game, s) for s in sorted(seats)] if measure else []
    return {"winners": list(game.winners), "seats": sorted(seats), "score0": game.scores.get(0, 0),
            "values": values, "times": times}


def play(rid, players, spec_for_seat, games, seed, bot_seats, workers=1):
    """Play ``games`` games; returns the per-game results (see play_one) and the bot's move times."""
    jobs = []
    for i in range(games):
        seats = frozenset(bot_seats(i))
        jobs.append((rid, players, [spec_for_seat(s in seats) for s in range(players)], seed + i, seats))
    results = []
    with ProcessPoolExecutor(workers) if workers > 1 else nullcontext() as pool:
        done = pool.map(play_one, *zip(*jobs)) if pool else (play_one(*job) for job in jobs)
        for r in done:   # progress on stderr, game by game
            results.append(r)
            print(f"  {rid} {players}p game {len(results)}/{games}: winners {r['winners']} bot {r['seats']} "
                  f"{r['values']} team {r['score0']} s/move (wall max mean, CPU max mean) "
                  f"{' '.join(times_text(r['times']))}",
                  file=sys.stderr, flush=True)
    return results, [t for r in results for t in r["times"]]


def fmt_interval(value, low, high, share):
    if share:
        low, high = max(0.0, low), min(1.0, high)
        return f"{value:.0%} ({low:.0%}–{high:.0%})"
    return f"{value:.2f} ({low:.2f}–{high:.2f})"


def times_text(times):
    """Max and mean wall-clock seconds a move, then max and mean CPU seconds."""
    if not times:
        return "–", "–", "–", "–"
    out = []
    for k in (0, 1):
        column = [t[k] for t in times]
        out += [f"{max(column):.2f}", f"{sum(column) / len(column):.2f}"]
    return tuple(out)


def competitive_row(rid, rs, players, agent, games, seed, workers=1):
    results, times = play(rid, players, lambda bot: agent if bot else "random", games, seed,
                          lambda i: {i % players}, workers)
    shares, whole = [], 0
    for r in results:
        (seat,) = r["seats"]
        winners = r["winners"]
        shares.append(1 / len(winners) if seat in winners else 0.0)
        whole += seat in winners
    low, high = wilson(whole, len(results))
    ties_text = fmt_interval(whole / len(results), low, high, True)
    if rid in MEASURES:
        label, _, kind, target = MEASURES[rid]
        values = [r["values"][0] for r in results]
        value = sum(values) / len(values)
        low, high = wilson(sum(values), len(values)) if kind == "share" else mean_interval(values)
        shown = fmt_interval(value, low, high, kind == "share")
        target_text = f"≥ {target:.0%}" if kind == "share" else f"≥ {target:g}"
        met = value >= target
    else:
        label, target = "share of wins (ties shared)", 2 / players
        mean = sum(shares) / len(shares)
        low, high = wilson(sum(shares), len(shares))
        shown = fmt_interval(mean, low, high, True)
        target_text = f"≥ {target:.0%} (2 × 1/{players})"
        met = mean >= target
    return [rid, str(players), agent, str(games), label, shown, target_text, "yes" if met else "no",
            ties_text, *times_text(times)]


def team_rows(rid, rs, players, agent, games, seed, workers=1):
    rows, intervals = [], {}
    for name in (agent, "greedy"):
        results, times = play(rid, players, lambda bot, name=name: name, games, seed,
                              lambda i: set(range(players)), workers)
        scores = [r["score0"] for r in results]
        mean = sum(scores) / len(scores)
        low, high = mean_interval(scores)
        intervals[name] = (mean, low, high)
        rows.append([rid, str(players), f"team of {name}", str(games), "team score",
                     fmt_interval(mean, low, high, False), "", "", "", *times_text(times)])
    mine, theirs = intervals[agent], intervals["greedy"]
    met = mine[0] > theirs[0] and mine[1] > theirs[2]
    rows[0][6] = "above greedy, intervals apart"
    rows[0][7] = "yes" if met else "no"
    rows[1][4] = "team score (yardstick)"
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rulesets", default=",".join(bundled_ids()), help="comma-separated ids (default: all bundled)")
    ap.add_argument("--games", type=int, help="games per row (default 200; 50 for the slowest rulesets)")
    ap.add_argument("--agent", default="ismcts", help="the bot measured (default: ismcts at its default budget)")
    ap.add_argument("--players", default="min,max", help="player counts: 'min,max' (default) or numbers, e.g. 2,4")
    ap.add_argument("--seed", type=int, default=0, help="the first game's seed (default: 0)")
    ap.add_argument("--workers", type=int, default=1, help="games played at a time in separate processes (default 1)")
    args = ap.parse_args(argv)
    print("| ruleset | players | bot | games | measure | value (95% interval) | target | met | "
          "wins or ties | max s/move | mean s/move | max CPU s/move | mean CPU s/move |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for rid in [r.strip() for r in args.rulesets.split(",") if r.strip()]:
        rs = load_ruleset(rid)
        counts = []
        for word in args.players.split(","):
            n = rs.min_players if word == "min" else rs.max_players if word == "max" else int(word)
            if rs.min_players <= n <= rs.max_players and n not in counts:
                counts.append(n)
        games = args.games or SLOW.get(rid, 200)
        for n in counts:
            rows = (team_rows if rs.team_var is not None else lambda *a: [competitive_row(*a)])(
                rid, rs, n, args.agent, games, args.seed, args.workers)
            for row in rows:
                print("| " + " | ".join(row) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
