#!/usr/bin/env python3
"""Benchmark: how well the search bots play, and how long a move takes. Prints a Markdown table.

    python tools/bench_bots.py [--rulesets der-mythos,tutorial] [--games 200] [--agent ismcts]
                               [--players min,max] [--seed 0]

For each ruleset at its smallest and largest player count, one seat is played
by the bot (``--agent``, default ``ismcts`` at its default budget) and every
other seat by ``random``; the bot's seat moves round the table from game to
game. Each ruleset has its own yardstick (the issue's "done when"):

* competitive rulesets: the bot's share of the wins (a tie shares the win)
  against twice a fair share, ``2 / players``;
* Collapsible D: the bot's passengers rescued per game, against 3;
* Titanic: The Board Game: the share of games in which the bot reaches a
  lifeboat (before the round cap), against 90%;
* SOS Titanic (co-operative): a whole team of the bot against a team of
  ``greedy`` bots; the bot's mean team score must be higher and the two 95%
  intervals must not overlap.

Intervals are 95%: Wilson for shares of games, Student t for means. The time
columns are wall-clock seconds per bot move on this machine (the default
budget stops at 1.8 s). Game-specific measures live here, in a tool, never in
the engine.
"""
from __future__ import annotations

import argparse
import sys
import time
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
    """Wraps an agent to time its moves."""

    def __init__(self, agent, times):
        self.agent, self.times, self.name = agent, times, agent.name

    def choose(self, game, seat, actions):
        start = time.perf_counter()
        action = self.agent.choose(game, seat, actions)
        if len(actions) > 1:
            self.times.append(time.perf_counter() - start)
        return action


def play(rs, players, spec_for_seat, games, seed, bot_seats):
    """Play ``games`` games; returns [(game, bot seats)] and the bot's move times."""
    results, times = [], []
    for i in range(games):
        seats = bot_seats(i)
        names = [spec_for_seat(s in seats) for s in range(players)]
        agents = make_agents(names, players, seed + i)
        agents = [Timed(a, times) if s in seats else a for s, a in enumerate(agents)]
        game = Game(rs, players, seed=seed + i, record=False)
        play_out(game, agents)
        results.append((game, seats))
    return results, times


def fmt_interval(value, low, high, share):
    if share:
        low, high = max(0.0, low), min(1.0, high)
        return f"{value:.0%} ({low:.0%}–{high:.0%})"
    return f"{value:.2f} ({low:.2f}–{high:.2f})"


def times_text(times):
    if not times:
        return "–", "–"
    return f"{max(times):.2f}", f"{sum(times) / len(times):.2f}"


def competitive_row(rid, rs, players, agent, games, seed):
    results, times = play(rs, players, lambda bot: agent if bot else "random", games, seed,
                          lambda i: {i % players})
    shares = []
    for game, seats in results:
        (seat,) = seats
        winners = game.winners
        shares.append(1 / len(winners) if seat in winners else 0.0)
    mean = sum(shares) / len(shares)
    if rid in MEASURES:
        label, measure, kind, target = MEASURES[rid]
        values = [measure(game, next(iter(seats))) for game, seats in results]
        if kind == "share":
            value = sum(values) / len(values)
            low, high = wilson(sum(values), len(values))
        else:
            value = sum(values) / len(values)
            low, high = mean_interval(values)
        shown = fmt_interval(value, low, high, kind == "share")
        target_text = f"≥ {target:.0%}" if kind == "share" else f"≥ {target:g}"
        met = value >= target
    else:
        label, target = "share of wins", 2 / players
        low, high = mean_interval(shares)
        shown = fmt_interval(mean, low, high, True)
        target_text = f"≥ {target:.0%} (2 × 1/{players})"
        met = mean >= target
    return [rid, str(players), agent, str(games), label, shown, target_text, "yes" if met else "no",
            *times_text(times)]


def team_rows(rid, rs, players, agent, games, seed):
    rows, intervals = [], {}
    for name in (agent, "greedy"):
        results, times = play(rs, players, lambda bot, name=name: name, games, seed,
                              lambda i: set(range(players)))
        scores = [game.scores[0] for game, _ in results]
        mean = sum(scores) / len(scores)
        low, high = mean_interval(scores)
        intervals[name] = (mean, low, high)
        rows.append([rid, str(players), f"team of {name}", str(games), "team score",
                     fmt_interval(mean, low, high, False), "", "", *times_text(times)])
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
    args = ap.parse_args(argv)
    print("| ruleset | players | bot | games | measure | value (95% interval) | target | met | "
          "max s/move | mean s/move |")
    print("|---|---|---|---|---|---|---|---|---|---|")
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
                rid, rs, n, args.agent, games, args.seed)
            for row in rows:
                print("| " + " | ".join(row) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
