"""The figures of one run (one ruleset and variant), each with its 95% interval.

Win rates count a shared win as a win for every tied player (so they can
add up to more than 100%); the tie rate says how often that happened. A
draw (declared, or a tie under ``scoring.tie: draw``) is a win for nobody;
the draw rate says how often games were drawn.
"""
from __future__ import annotations

from collections import Counter

from ..agents.search_tally import merged
from . import stats
from .dynamics import dynamics_summary


def _proportion(successes: int, n: int) -> dict:
    low, high = stats.wilson(successes, n)
    return {"count": successes, "rate": successes / n if n else 0.0, "ci": [low, high]}


def _mean(values) -> dict:
    mean, sd = stats.mean_sd(values)
    low, high = stats.mean_interval(values)
    return {"mean": mean, "stdev": sd, "ci": [low, high]}


def summarize(records, players: int, rivals: bool = True) -> dict:
    """Every figure of a run from its game records (see :func:`runner.play_game`)."""
    n = len(records)
    wins = [0] * players
    sole = [0] * players
    scores: list[list] = [[] for _ in range(players)]
    lengths = []
    ties = no_winner = draws = capped = 0
    reasons: Counter = Counter()
    for r in records:
        for s in range(players):
            scores[s].append(r["scores"][s])
        for w in r["winners"]:
            wins[w] += 1
        if len(r["winners"]) == 1:
            sole[r["winners"][0]] += 1
        ties += len(r["winners"]) > 1
        drawn = bool(r.get("draw"))   # a draw is a win for nobody, counted apart from other ends without one
        draws += drawn
        no_winner += not r["winners"] and not drawn
        capped += r["capped"]
        lengths.append(r["length"])
        reasons[r["end_reason"]] += 1
    win = [_proportion(w, n) for w in wins]
    score = [_mean(v) for v in scores]
    fair = sum(wins) / (players * n) if n else 0.0
    first = win[0]
    return {
        "games": n,
        "players": players,
        "wins": wins,
        "win_rate": [w["rate"] for w in win],
        "win_rate_ci": [w["ci"] for w in win],
        "win_rate_sum": sum(w["rate"] for w in win),
        "sole_wins": sole,
        "tie_rate": ties / n if n else 0.0,
        "tie_rate_ci": list(stats.wilson(ties, n)),
        "ties": ties,
        "no_winner_rate": no_winner / n if n else 0.0,
        "no_winner_rate_ci": list(stats.wilson(no_winner, n)),
        "draws": draws,
        "draw_rate": draws / n if n else 0.0,
        "draw_rate_ci": list(stats.wilson(draws, n)),
        "mean_scores": [s["mean"] for s in score],
        "mean_score_ci": [s["ci"] for s in score],
        "score_stdev": [s["stdev"] for s in score],
        "score_quantiles": [dict(zip(("p10", "p25", "median", "p75", "p90"), stats.quantiles(v))) for v in scores],
        "score_range": [[min(v), max(v)] if v else [0, 0] for v in scores],
        "mean_length": _mean(lengths)["mean"],
        "length_ci": _mean(lengths)["ci"],
        "length_quantiles": dict(zip(("p10", "p25", "median", "p75", "p90"), stats.quantiles(lengths))),
        "length_range": [min(lengths), max(lengths)] if lengths else [0, 0],
        # how much more often the first seat wins than the average seat; the interval is the
        # first seat's Wilson interval shifted by that average (taken as fixed)
        "first_seat_advantage": first["rate"] - fair,
        "first_seat_advantage_ci": [first["ci"][0] - fair, first["ci"][1] - fair],
        "capped": capped,
        "capped_rate": capped / n if n else 0.0,
        "capped_rate_ci": list(stats.wilson(capped, n)),
        "end_reasons": dict(sorted(reasons.items())),
        "widest_win_rate_ci": max((w["ci"][1] - w["ci"][0] for w in win), default=1.0),
        **({"metrics": metrics_summary(records)} if any("metrics" in r for r in records) else {}),
        **({"dynamics": dynamics_summary(records, players, rivals and players > 1)}
           if records and all("dynamics" in r for r in records) else {}),
        **({"search_troubles": troubles} if (troubles := troubles_summary(records)) else {}),
    }


def troubles_summary(records) -> dict | None:
    """What the search bots got past on their own (``agents.search_tally``) over a run's games, with the
    number of games they met it in; None where they met none."""
    met = [r["search_troubles"] for r in records if "search_troubles" in r]
    total = merged(met)
    return None if total is None else {**total, "games": len(met)}


def metrics_summary(records) -> dict:
    """Each declared metric (``metrics:`` of the ruleset): mean, interval, spread, and in how many games it had
    a value."""
    names = list(dict.fromkeys(name for r in records for name in r.get("metrics") or {}))
    out = {}
    for name in names:
        values = [v for r in records if (v := (r.get("metrics") or {}).get(name)) is not None]
        m = _mean(values)
        out[name] = {"mean": m["mean"], "ci": _metric_interval(values), "stdev": m["stdev"], "games": len(values),
                     "quantiles": dict(zip(("p10", "median", "p90"), stats.quantiles(values, (0.1, 0.5, 0.9)))),
                     "range": [min(values), max(values)] if values else None}
    for name, by_round in _by_round(records).items():
        out.setdefault(name, {})["by_round"] = by_round
    return out


def _metric_interval(values) -> list:
    """A metric that is 0 or 1 in every game (a condition) is a share of games: Wilson's interval, which stays
    within 0-1, as for every rate; any other metric, the Student t interval of its mean."""
    if values and all(v in (0, 1) for v in values):
        return list(stats.wilson(round(sum(values)), len(values)))
    return _mean(values)["ci"]


def _by_round(records) -> dict:
    """``every: round`` metrics: per round, the mean with its interval over the games that reached it."""
    seen: dict = {}
    for r in records:
        for name, rounds in (r.get("metrics_by_round") or {}).items():
            for at, value in rounds.items():
                if value is not None:
                    seen.setdefault(name, {}).setdefault(at, []).append(value)
    return {name: {str(at): {"mean": _mean(v)["mean"], "ci": _metric_interval(v), "games": len(v)}
                   for at, v in sorted(rounds.items())} for name, rounds in seen.items()}
