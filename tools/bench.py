#!/usr/bin/env python3
"""Benchmark: games per second with random agents, and the cost of clone(), per ruleset.

Not part of the tests (speed is measured here, never asserted). Usage:

    python tools/bench.py [--games 300] [--rulesets der-mythos,tutorial]

Prints one line per ruleset and player count: games/s with the event log
recorded and without it, decisions per game, microseconds per clone() and
per to_json() at the middle of a game.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter import Game, load_ruleset  # noqa: E402
from interpreter.agents import make_agents, play_out  # noqa: E402
from interpreter.load.files import bundled_ids  # noqa: E402


def games_per_second(rs, players, games, record):
    start = time.perf_counter()
    decisions = 0
    for seed in range(games):
        game = Game(rs, players, seed=seed, record=record)
        decisions += play_out(game, make_agents("random", players, seed))
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions / games


def mid_game(rs, players):
    game = Game(rs, players, seed=99)
    agents = make_agents("random", players, 99)
    total = play_out(game.clone(), agents)
    agents = make_agents("random", players, 99)
    play_out(game, agents, max_decisions=max(1, total // 2))
    return game


def per_call(fn, repeat=2000):
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat * 1e6


def reference_rate(players, games):
    """Games per second of the hand-written Der Mythos in tools/reference (the yardstick)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from reference.der_mythos import play
    start = time.perf_counter()
    for seed in range(games):
        play(players, seed)
    return games / (time.perf_counter() - start)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rulesets", default=",".join(bundled_ids()))
    args = parser.parse_args()
    print(f"{'ruleset':<16}{'players':>8}{'games/s':>10}{'no log':>10}{'decisions':>11}{'clone µs':>10}"
          f"{'json µs':>9}")
    for rid in args.rulesets.split(","):
        rs = load_ruleset(rid)
        for players in sorted({rs.min_players, rs.max_players}):
            rate, length = games_per_second(rs, players, args.games, True)
            rate_quiet, _ = games_per_second(rs, players, args.games, False)
            game = mid_game(rs, players)
            clone_us = per_call(game.clone)
            json_us = per_call(game.to_json, 500)
            print(f"{rid:<16}{players:>8}{rate:>10.0f}{rate_quiet:>10.0f}{length:>11.1f}{clone_us:>10.1f}"
                  f"{json_us:>9.1f}")
            if rid == "der-mythos":
                ref = reference_rate(players, args.games * 20)
                print(f"{'  hand-written':<16}{players:>8}{ref:>10.0f}  (interpreter without log is "
                      f"{ref / rate_quiet:.0f}× slower)")


if __name__ == "__main__":
    main()
