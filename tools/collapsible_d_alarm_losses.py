"""How often each Collapsible D passenger is lost before their alarm time, over seeded games.

Run: python3 tools/collapsible_d_alarm_losses.py --games 200 --players 3 --agents random

Prints the Markdown table shown in docs/rulesets/collapsible-d.md (tests/test_collapsible-d.py
plays the same games again and compares). Game i has the seed `davit simulate --seed S` gives
its game i, and the same bots. A passenger reached by the water while still unaware was lost
before the Alarm phase of their alarm time could alert them (an alert happens on the alarm turn
itself, so "unaware" and "before the alarm" are the same thing).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))   # run as a script: this checkout's engine

from interpreter import Game, load_ruleset  # noqa: E402
from interpreter.agents import make_agents, play_out  # noqa: E402
from interpreter.analysis.runner import game_seeds  # noqa: E402

CLOCK = ["11:40", "11:50", "00:00", "00:10", "00:20", "00:30", "00:40", "00:50",
         "01:00", "01:10", "01:20", "01:30", "01:40", "01:50", "02:00", "02:10"]


def _prop(game, tid, name):
    return game.state.props.get(tid, {}).get(name, game.ruleset.thing_props[name])


def tally(games: int, players: int, agents: str, seed: int = 0, variant: str | None = None) -> dict:
    """{passenger id: [dealt, lost unaware, lost alerted, rescued]} over the games."""
    rs = load_ruleset("collapsible-d", variant)
    passengers = [t["id"] for t in rs.data["things"] if t.get("kind") == "passenger"]
    counts = {tid: [0, 0, 0, 0] for tid in passengers}
    for _, game_seed in game_seeds(seed, 0, games):
        game = Game(rs, players, seed=game_seed, record=False)
        play_out(game, make_agents(agents, players, game_seed))
        for tid in passengers:
            if _prop(game, tid, "seat") < 0:
                continue
            row = counts[tid]
            row[0] += 1
            if game.state.where[tid] == "lost":
                row[1 if not _prop(game, tid, "alerted") else 2] += 1
            elif _prop(game, tid, "saved"):
                row[3] += 1
    return counts


def table(counts: dict, rs=None) -> str:
    """The tally as a Markdown table, passengers in start order."""
    rs = rs or load_ruleset("collapsible-d")
    cards = {t["id"]: t for t in rs.data["things"] if t.get("kind") == "passenger"}
    lines = ["| start | passenger | alarm | dealt | lost before the alarm | lost after it | rescued | still aboard |",
             "| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    for tid in sorted(counts, key=lambda t: cards[t]["attrs"]["start"]):
        a = cards[tid]["attrs"]
        dealt, before, after, saved = counts[tid]
        share = f"{before} ({100 * before / dealt:.0f}%)" if dealt else "—"
        lines.append(f"| {a['start']} | {cards[tid]['name']} | {CLOCK[a['alarm'] - 1]} | {dealt} | {share} "
                     f"| {after} | {saved} | {dealt - before - after - saved} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--agents", default="random")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--variant")
    args = ap.parse_args(argv)
    print(table(tally(args.games, args.players, args.agents, args.seed, args.variant)), end="")


if __name__ == "__main__":
    main()
