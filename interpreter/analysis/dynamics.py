"""Game-dynamics measures: how a game plays, not only who wins (docs/analysis.md defines each one).

While a game is played, :class:`Trace` notes at every decision how many
options the deciding seat had and every seat's score just before it; the
bots decide exactly as without it (the index-picking bots keep their fused
loop, see :func:`play_traced`). After the game, :func:`game_dynamics` turns
the trace into a few numbers per game, and :func:`dynamics_summary` gives
each measure over all games with a 95% interval.

The measures follow Browne's thesis (*Automatic Generation and Evaluation of
Recombination Games*, 2008) and Ludii's metrics (``other.concepts`` and the
``metrics`` package of the Ludii player): duration, decision moves,
branching factor, balance, advantage by seat, drawishness, lead changes,
decisiveness and drama. Scores stand in for Ludii's state evaluation: the
leader is the seat with the strictly highest score.
"""
from __future__ import annotations

import random

from ..agents import play_out
from ..agents.seats import PICK_BY_INDEX
from ..play.playout import play_by_index
from ..rules.metrics import round_watch
from . import stats

BOOTSTRAP = 400   # resamples of the games for the balance interval (a fixed seed: the same run, the same interval)


class Trace:
    """Options and scores at each decision of one game."""

    def __init__(self, game):
        self.game = game
        self.options: list[int] = []
        self.scores: list[tuple] = []
        self.seats: list[int] = []
        self.watch = round_watch(getattr(game, "ruleset", None))   # metrics read as each round begins
        self.by_round: dict = {}

    def note(self, count: int, seat: int = -1) -> None:
        if self.watch is not None:
            self.watch(self.game, self.by_round)
        scores = self.game.scores
        self.options.append(count)
        self.seats.append(seat)
        self.scores.append(tuple(scores[s] for s in sorted(scores)))

    def picker(self, pick, seat: int):
        def traced(count):
            self.note(count, seat)
            return pick(count)
        return traced

    def rows(self) -> list[list]:
        """One ``[seat, options, scores before]`` per decision (``--decisions``)."""
        return [[seat, options, list(scores)] for seat, options, scores in zip(self.seats, self.options, self.scores)]


class _Traced:
    """An agent that lets the trace look before it decides (it decides alone)."""

    def __init__(self, agent, trace: Trace):
        self.agent, self.trace, self.name = agent, trace, agent.name

    def choose(self, game, seat, actions):
        self.trace.note(len(actions), seat)
        return self.agent.choose(game, seat, actions)


def play_traced(game, agents, trace: Trace, max_decisions=None) -> None:
    """Play ``game`` out as :func:`interpreter.agents.play_out` would, noting each decision in ``trace``."""
    if all(type(agent) in PICK_BY_INDEX for agent in agents):
        play_by_index(game, [trace.picker(agent.pick, seat) for seat, agent in enumerate(agents)], max_decisions)
    else:
        play_out(game, [_Traced(agent, trace) for agent in agents], max_decisions)


def _sole_leader(scores) -> int | None:
    best = max(scores)
    leaders = [s for s, v in enumerate(scores) if v == best]
    return leaders[0] if len(leaders) == 1 else None


def game_dynamics(trace: Trace, winners: list[int]) -> dict:
    """One game's measures: options per decision, decision share, lead changes, decisiveness and drama."""
    options = trace.options
    n = len(options)
    final = trace.game.scores
    path = trace.scores + [tuple(final[s] for s in sorted(final))]
    changes, leader = 0, None
    for scores in path:
        now = _sole_leader(scores) if scores else None
        if now is not None:
            changes += leader is not None and now != leader
            leader = now
    out = {"branching": sum(options) / n if n else 0.0,
           "decision_moves": sum(1 for c in options if c > 1) / n if n else 0.0,
           "lead_changes": changes, "decisiveness": None, "drama": None}
    if len(winners) == 1 and path and len(path[0]) > 1:
        w = winners[0]
        leads = [_sole_leader(scores) == w for scores in path]
        if leads[-1]:   # the winner leads on score at the end: when did it take the lead for good?
            k = len(leads)
            while k > 0 and leads[k - 1]:
                k -= 1
            out["decisiveness"] = 1 - k / (len(path) - 1) if len(path) > 1 else 1.0
            behind = [max(scores) - scores[w] for scores in path if max(scores) > scores[w]]
            out["drama"] = sum(behind) / len(behind) if behind else 0.0
    return out


def _mean(values) -> dict:
    mean, _ = stats.mean_sd(values)
    low, high = stats.mean_interval(values)
    return {"mean": mean, "ci": [low, high], "games": len(values)}


def _balance(winners_of_games: list, players: int) -> float:
    n = len(winners_of_games)
    wins = [0] * players
    for winners in winners_of_games:
        for w in winners:
            wins[w] += 1
    rates = [w / n for w in wins]
    return 1 - (max(rates) - min(rates))


# the measures that are a mean over the games, each game's value (None: the game has none); `rivals` only for
# those that need seats playing against each other
PER_GAME = {
    "duration": (False, lambda r: r["length"]),
    "decision_moves": (False, lambda r: r["dynamics"]["decision_moves"]),
    "branching_factor": (False, lambda r: r["dynamics"]["branching"]),
    "lead_changes": (True, lambda r: r["dynamics"]["lead_changes"]),
    "decisiveness": (True, lambda r: r["dynamics"]["decisiveness"]),
    "drama": (True, lambda r: r["dynamics"]["drama"]),
}


def per_game(name: str, records) -> list:
    """The values of mean measure ``name`` (``PER_GAME``) in the games that have one."""
    read = PER_GAME[name][1]
    return [v for r in records if (v := read(r)) is not None]


def measure_mean(name: str, records, players: int) -> float:
    """The mean of measure ``name`` over ``records``, as :func:`dynamics_summary` gives it, without the rest."""
    if name == "drawishness":
        return sum(1 for r in records if r.get("draw")) / len(records) if records else 0.0
    if name == "balance":
        return _balance([r["winners"] for r in records], players)
    return stats.mean_sd(per_game(name, records))[0]


def dynamics_summary(records, players: int, rivals: bool) -> dict:
    """Each measure over the games of a run, with its 95% interval (see docs/analysis.md)."""
    n = len(records)
    if not n or not all("dynamics" in r for r in records):
        return {}
    draws = sum(1 for r in records if r.get("draw"))
    out: dict = {name: _mean(per_game(name, records)) for name, (needs_rivals, _) in PER_GAME.items()
                 if not needs_rivals}
    out["drawishness"] = {"mean": draws / n, "ci": list(stats.wilson(draws, n)), "games": n}
    if rivals:
        winners = [r["winners"] for r in records]
        rng = random.Random(0)
        resampled = sorted(_balance([winners[rng.randrange(n)] for _ in range(n)], players)
                           for _ in range(BOOTSTRAP))
        out["balance"] = {"mean": _balance(winners, players), "ci": list(stats.percentile_interval(resampled)),
                          "games": n}
        wins = [sum(1 for ws in winners if s in ws) for s in range(players)]
        fair = sum(wins) / (players * n)
        out["seat_advantage"] = [{"mean": w / n - fair, "ci": [lo - fair, hi - fair], "games": n}
                                 for w, (lo, hi) in ((w, stats.wilson(w, n)) for w in wins)]
        out.update((name, _mean(per_game(name, records))) for name, (needs_rivals, _) in PER_GAME.items()
                   if needs_rivals)
    return out
