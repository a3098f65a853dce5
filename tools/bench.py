#!/usr/bin/env python3
"""Benchmark: games and decisions per second, the cost of clone(), and the yardstick.

Speed is measured here, never asserted in tests. One line per ruleset and
player count (the smallest and the largest), random agents, no event log:

    python tools/bench.py [--rounds 5] [--seconds 1] [--rulesets der-mythos,tutorial]
    python tools/bench.py --search ismcts:100 [--rulesets ...]   # a search bot's iterations per second
    python tools/bench.py --views [--rulesets ...]               # what seats see: views per second
    python tools/bench.py --log [--rulesets ...]                 # games with the event log on

With ``--baseline DIR`` (another checkout, e.g. ``git worktree add /tmp/old
HEAD~3``) the same work runs on the old and the new engine, each in its own
worker process, interleaved round by round, so that the noise of a shared
machine falls on both alike; the table then shows both and their ratio. In a
round every engine plays the same seeded games (as many as the new engine
plays in ``--seconds`` in a first, warming run), so a round's ratio compares
the same work, not games of different lengths; ``new/old`` is the median of
the rounds' ratios.
Rates are CPU time (``time.process_time``) of the worker, medians over the
rounds. The hand-written Der Mythos in ``tools/reference/`` runs in the same
rounds as the yardstick (``ref/new``), and so do two ceilings: the same game
under davit's contract as issue 11 wrote it (``ref/ceil``, see
``tools/reference/der_mythos_state_machine.py``), and with no more work than
that contract asks for (``tools/reference/der_mythos_fast.py``): ``fast/new``
is how far davit is from it, ``ref/fast`` what the contract itself costs.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
WORKER = r'''
import importlib, json, sys, time, copy
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
from interpreter import Game, load_ruleset
from interpreter.agents import make_agents, play_out
rulesets = {}

def ruleset(rid):
    if rid not in rulesets:
        rulesets[rid] = load_ruleset(rid)
    return rulesets[rid]

def games(rid, players, seconds, record=False, first=0, count=None):
    # seeds first, first + 1, ...: for `seconds` of CPU (and at least one game), or exactly `count` games
    rs = ruleset(rid)
    start = time.process_time()
    n = decisions = events = 0
    while (n < count) if count is not None else (time.process_time() - start < seconds or n == 0):
        game = Game(rs, players, seed=first + n, record=record)
        decisions += play_out(game, make_agents("random", players, first + n))
        events += len(game.log)
        n += 1
    elapsed = time.process_time() - start
    return {"games": n / elapsed, "decisions": decisions / elapsed, "events": events / elapsed, "played": n}

def mid_game(rid, players):
    rs = ruleset(rid)
    game = Game(rs, players, seed=99)
    total = play_out(game.clone(), make_agents("random", players, 99))
    play_out(game, make_agents("random", players, 99), max_decisions=max(1, total // 2))
    return game

def per_call(fn, seconds=0.3):
    start = time.process_time()
    n = 0
    while time.process_time() - start < seconds:
        fn()
        n += 1
    return (time.process_time() - start) / n * 1e6

def clones(rid, players):
    game = mid_game(rid, players)
    return {"clone_us": per_call(game.clone), "deepcopy_us": per_call(lambda: copy.deepcopy(game.state))}

def reference(players, seconds, which="hand"):
    # the hand-written game ("hand"); the same game under davit's contract as issue 11's ceiling wrote it
    # ("ceiling"), and with only the work that contract asks for ("fast", issue 28's fairer ceiling)
    module = {"hand": "der_mythos", "ceiling": "der_mythos_state_machine", "fast": "der_mythos_fast"}[which]
    play = importlib.import_module("reference." + module).play
    start = time.process_time()
    n = 0
    while time.process_time() - start < seconds:
        play(players, n)
        n += 1
    return {"games": n / (time.process_time() - start)}

def per_second(seconds, step):
    # units per CPU second: step() does some and says how many, again for at least `seconds` (and once)
    start = time.process_time()
    done = 0
    while time.process_time() - start < seconds or done == 0:
        done += step()
    return done / (time.process_time() - start)

def search(rid, players, seconds, agent):
    # a search bot's iterations per CPU second, thinking about the same mid-game position again and again
    game = mid_game(rid, players)
    seat = game.deciding_players[0]
    bot = make_agents(agent, players, 7)[seat]

    def think():
        bot.choose(game, seat, game.legal_actions(seat))
        return bot.last_iterations
    return {"iterations": per_second(seconds, think)}

def views(rid, players, seconds, log):
    # what seats see: every seat's view and a spectator's in turn, of the same mid-game position; without the
    # log (log=False) as the learning environments ask for it, with it as the web table and the terminal do
    game = mid_game(rid, players)
    if not log:
        game.log = []
    seats = [*range(players), None]

    def look():
        for seat in seats:
            game.view(seat)
        return len(seats)
    return {"views": per_second(seconds, look)}

def encodings(rid, players, seconds):
    # the learning environments' observation: each seat's view (without the log) encoded as numbers
    from interpreter.rl.observation import ObservationEncoder
    from interpreter.rl.session import Session
    game = mid_game(rid, players)
    game.log = []
    encoder = ObservationEncoder(ruleset(rid), players, Session(ruleset(rid), players).catalogue)
    seen = [game.view(seat) for seat in range(players)]

    def encode():
        for view in seen:
            encoder.encode(view)
        return len(seen)
    return {"encodings": per_second(seconds, encode)}

for line in sys.stdin:
    job = json.loads(line)
    kind = job.pop("kind")
    out = {"games": games, "clones": clones, "reference": reference, "search": search, "views": views,
           "encodings": encodings}[kind](**job)
    print(json.dumps(out), flush=True)
'''


class Engine:
    """One worker process running one checkout's interpreter."""

    def __init__(self, root: Path):
        self.proc = subprocess.Popen([sys.executable, "-c", WORKER, str(root), str(HERE)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)

    def ask(self, **job) -> dict:
        self.proc.stdin.write(json.dumps(job) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit("a benchmark worker died")
        return json.loads(line)

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def start_engines(args) -> dict:
    """A worker for this checkout ("new"), and one for ``--baseline`` ("old") if given, old first."""
    engines = {"new": Engine(HERE.parent)}
    if args.baseline:
        engines = {"old": Engine(args.baseline.resolve()), **engines}
    return engines


def player_counts(rid: str) -> list[int]:
    sys.path.insert(0, str(HERE.parent))
    from interpreter import load_ruleset
    rs = load_ruleset(rid)
    return sorted({rs.min_players, rs.max_players})


def median(rows, key):
    return statistics.median(r[key] for r in rows)


def paired_ratio(rows, key):
    """new/old: the median of each round's ratio. A round's engines played the same games, so its ratio is
    the ratio of their times for that work, while rounds differ by which games they played (a round of
    long games has lower rates on both): the ratio of the two medians would mix rounds of different games."""
    return statistics.median(new[key] / old[key] for old, new in zip(rows["old"], rows["new"]))


def main():
    sys.path.insert(0, str(HERE.parent))
    from interpreter.load.files import bundled_ids

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds per measurement (median)")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per engine per round")
    parser.add_argument("--rulesets", default=",".join(bundled_ids()), help="comma-separated ruleset ids")
    parser.add_argument("--baseline", type=Path, help="another checkout to measure in the same rounds")
    parser.add_argument("--no-reference", action="store_true", help="skip the hand-written yardstick")
    parser.add_argument("--log", action="store_true", help="play with the event log on, as davit play, the web "
                        "table and the tests do (davit simulate and the bots play without it)")
    parser.add_argument("--search", metavar="BOT", help="measure this search bot's iterations per CPU second "
                        "instead (e.g. ismcts:100), at each ruleset's largest player count")
    parser.add_argument("--views", action="store_true", help="measure views per CPU second instead (every seat's "
                        "and a spectator's, mid-game, without and with the log), and the learning environments' "
                        "encodings of them (with the rl extra), at each ruleset's largest player count")
    args = parser.parse_args()
    if args.search:
        return rate_table(args, "iter/s", [dict(kind="search", agent=args.search)], "iterations")
    if args.views:
        rate_table(args, "views/s", [dict(kind="views", log=False), dict(kind="views", log=True)], "views",
                   ["no log", "log"])
        if importlib.util.find_spec("numpy") is not None:   # the `rl` extra: what a learning agent observes
            rate_table(args, "encodings/s", [dict(kind="encodings")], "encodings")
        return

    engines = start_engines(args)
    ref = None if args.no_reference else Engine(HERE.parent)
    head = f"{'ruleset':<19}{'p':>3}"
    for name in engines:
        head += f"{name + ' games/s':>15}{'decisions/s':>13}"
    if args.baseline:
        head += f"{'new/old':>9}"
    head += f"{'clone µs':>10}{'deepcopy':>10}{'ref/new':>9}{'fast/new':>9}{'ref/ceil':>9}{'ref/fast':>9}"
    if args.log:
        head += f"{'events/s':>10}"
    print(head)
    for rid in args.rulesets.split(","):
        for players in player_counts(rid):
            rows = {name: [] for name in engines}
            refs, ceilings, fast = [], [], []
            # how many games fill about --seconds (a first, warming run); then every engine plays the same
            # seeds in a round, so that old and new do the same work and game lengths do not count as speed
            count = {name: engine.ask(kind="games", rid=rid, players=players, seconds=args.seconds,
                                      record=args.log)["played"] for name, engine in engines.items()}["new"]
            for round_ in range(args.rounds):
                order = list(engines.items())
                for name, engine in order if round_ % 2 == 0 else reversed(order):
                    rows[name].append(engine.ask(kind="games", rid=rid, players=players, seconds=args.seconds,
                                                 record=args.log, first=(round_ + 1) * 100_000, count=count))
                if ref is not None and rid == "der-mythos":
                    refs.append(ref.ask(kind="reference", players=players, seconds=args.seconds))
                    ceilings.append(ref.ask(kind="reference", players=players, seconds=args.seconds, which="ceiling"))
                    fast.append(ref.ask(kind="reference", players=players, seconds=args.seconds, which="fast"))
            clone = engines["new"].ask(kind="clones", rid=rid, players=players)
            line = f"{rid:<19}{players:>3}"
            for name in engines:
                line += f"{median(rows[name], 'games'):>15.1f}{median(rows[name], 'decisions'):>13.0f}"
            if args.baseline:
                line += f"{paired_ratio(rows, 'games'):>8.2f}×"
            line += f"{clone['clone_us']:>10.1f}{clone['deepcopy_us']:>10.1f}"
            if refs:
                davit = median(rows['new'], 'games')
                line += f"{median(refs, 'games') / davit:>8.1f}×{median(fast, 'games') / davit:>8.1f}×"
                line += f"{median(refs, 'games') / median(ceilings, 'games'):>8.1f}×"
                line += f"{median(refs, 'games') / median(fast, 'games'):>8.1f}×"
            if args.log:   # the new engine's events logged per second: the log was on
                line += f"{'':>9}" * 4 * (not refs) + f"{median(rows['new'], 'events'):>10.0f}"
            print(line, flush=True)
    for engine in [*engines.values(), *([ref] if ref else [])]:
        engine.close()


def rate_table(args, unit: str, jobs: list, key: str, labels=("",)):
    """A rate per CPU second (``key`` of each job's answer) on a mid-game position at each ruleset's
    largest player count, old and new interleaved; one group of columns per job."""
    engines = start_engines(args)
    head = f"{'ruleset':<19}{'p':>3}"
    for label in labels:
        head += "".join(f"{(label + ' ' if label else '') + name + ' ' + unit:>{len(label) + 16}}" for name in engines)
        head += f"{'new/old':>9}" if args.baseline else ""
    print(head)
    for rid in args.rulesets.split(","):
        players = player_counts(rid)[-1]
        line = f"{rid:<19}{players:>3}"
        for label, job in zip(labels, jobs):
            rows = {name: [] for name in engines}
            for _ in range(args.rounds):
                for name, engine in engines.items():
                    rows[name].append(engine.ask(rid=rid, players=players, seconds=args.seconds, **job))
            line += "".join(f"{median(rows[name], key):>{len(label) + 16}.0f}" for name in engines)
            if args.baseline:
                line += f"{median(rows['new'], key) / median(rows['old'], key):>8.2f}×"
        print(line, flush=True)
    for engine in engines.values():
        engine.close()


if __name__ == "__main__":
    main()
