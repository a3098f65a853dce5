"""One variant against its base, figure by figure: the difference, its interval, a p-value, one correction.

Every variant of a comparison plays the same seeds with the same bots, so
game ``i`` of the variant is game ``i`` of the base with the rule changed:
the games are **paired** (common random numbers). Each figure is then a
per-game value on both sides (did seat 0 win? how long was the game?) and
is compared game by game:

* a rate by McNemar's exact test on the games whose outcome changed, with
  Newcombe's interval of the paired difference;
* a mean (a score, the length, a declared metric) by the paired t-test on
  the per-game differences.

When the games are not paired (their seeds differ), the old two-sample
tests are used instead: the two-proportion z-test and Welch's t-test.

All the p-values of one comparison are corrected together (Holm), so the
chance that any figure reads "differs" when the variant changes nothing is
at most 5%. A figure whose test could not reach 5% even on its own (fewer
than six games changed, or no game changed at all) is shown but not
counted in the correction (Tarone's rule for discrete tests): it cannot
make a false "differs", and counting it would only weaken the others.
"""
from __future__ import annotations

from collections.abc import Sequence

from . import stats

ALPHA = 0.05


def _seat_won(s):
    return lambda r: s in r["winners"]


def figures_of(players: int, rivals: bool, metrics: list[str], any_draw: bool, any_no_winner: bool) -> list:
    """(name, kind, per-game reader) of every figure compared; kind is ``rate`` or ``mean``."""
    out = []
    for s in range(players if rivals else 1):   # a team wins or loses together: one win rate says it all
        out.append((f"win_rate[{s}]", "rate", _seat_won(s)))
    if rivals:
        out.append(("tie_rate", "rate", lambda r: len(r["winners"]) > 1))
    if any_draw:
        out.append(("draw_rate", "rate", lambda r: bool(r.get("draw"))))
    if rivals and any_no_winner:
        out.append(("no_winner_rate", "rate", lambda r: not r["winners"] and not r.get("draw")))
    for s in range(players if rivals else 1):   # a team shares one score
        out.append((f"mean_score[{s}]", "mean", lambda r, s=s: r["scores"][s]))
    out.append(("length", "mean", lambda r: r["length"]))
    out.append(("capped_rate", "rate", lambda r: bool(r["capped"])))
    for name in metrics:
        out.append((f"metric[{name}]", "mean", lambda r, name=name: (r.get("metrics") or {}).get(name)))
    return out


def is_paired(base_records, other_records) -> bool:
    return len(base_records) == len(other_records) and all(
        a["seed"] == b["seed"] for a, b in zip(base_records, other_records))


def _rate_row(name, reader, base_records, other_records, paired) -> dict:
    base = [bool(reader(r)) for r in base_records]
    other = [bool(reader(r)) for r in other_records]
    n1, n2 = len(base), len(other)
    row = {"figure": name, "kind": "rate", "base": sum(base) / n1 if n1 else 0.0,
           "variant": sum(other) / n2 if n2 else 0.0}
    row["difference"] = row["variant"] - row["base"]
    if paired:
        both = sum(a and b for a, b in zip(base, other))
        base_only = sum(a and not b for a, b in zip(base, other))
        variant_only = sum(b and not a for a, b in zip(base, other))
        low, high = stats.paired_rate_interval(both, base_only, variant_only, n1 - both - base_only - variant_only)
        p = stats.mcnemar_exact(base_only, variant_only)
        # the smallest p the exact test could give with this many changed games
        row |= {"changed": [base_only, variant_only], "test": stats.METHODS["paired_proportion_test"],
                "testable": min(1.0, 2 * 0.5 ** (base_only + variant_only)) < ALPHA}
    else:
        p = stats.two_proportion_test(sum(other), n2, sum(base), n1)
        low, high = stats.rate_difference_interval(sum(base), n1, sum(other), n2)
        row |= {"test": stats.METHODS["proportion_test"], "testable": True}
    return row | {"difference_ci": [low, high], "p": p, "paired": paired}


def _mean_row(name, reader, base_records, other_records, paired) -> dict | None:
    pairs: list = [(reader(a), reader(b)) for a, b in zip(base_records, other_records)] if paired else []
    if paired:
        pairs = [(a, b) for a, b in pairs if a is not None and b is not None]
        base = [a for a, _ in pairs]
        other = [b for _, b in pairs]
    else:
        base = [v for v in map(reader, base_records) if v is not None]
        other = [v for v in map(reader, other_records) if v is not None]
    if not base and not other:
        return None
    row = {"figure": name, "kind": "mean", "base": stats.mean_sd(base)[0], "variant": stats.mean_sd(other)[0],
           "games": len(base) if paired else [len(base), len(other)]}
    if paired:
        differences = [b - a for a, b in pairs]
        mean, (low, high), p = stats.paired_t(differences)
        changed = sum(1 for d in differences if d != 0)
        row |= {"difference": mean, "difference_ci": [low, high], "p": p, "changed": changed,
                "test": stats.METHODS["paired_mean_test"], "testable": changed > 0 and len(differences) > 1}
    else:
        mean = row["variant"] - row["base"]
        p = stats.welch_test(other, base)
        low, high = stats.welch_interval(other, base)
        row |= {"difference": mean, "difference_ci": [low, high], "p": p, "test": stats.METHODS["mean_test"],
                "testable": len(base) > 1 and len(other) > 1}
    return row | {"paired": paired}


def compare_runs(base_records, other_records, players: int, rivals: bool = True,
                 metrics: Sequence[str] = ()) -> dict:
    """Every figure of ``other`` against ``base``: difference, interval, p, Holm-corrected p and verdict."""
    paired = is_paired(base_records, other_records)
    every = list(base_records) + list(other_records)
    figures = figures_of(players, rivals, list(metrics), any(r.get("draw") for r in every),
                         any(not r["winners"] and not r.get("draw") for r in every))
    rows = []
    for name, kind, reader in figures:
        if kind == "rate":
            rows.append(_rate_row(name, reader, base_records, other_records, paired))
        else:
            row = _mean_row(name, reader, base_records, other_records, paired)
            if row is not None:
                rows.append(row)
    tested = [row for row in rows if row["testable"]]
    for row, adjusted in zip(tested, stats.holm([row["p"] for row in tested])):
        row["p_holm"] = adjusted
    for row in rows:
        row.setdefault("p_holm", 1.0)
        row["differs"] = row["p_holm"] < ALPHA
    identical = sum(1 for a, b in zip(base_records, other_records) if _same_game(a, b)) if paired else None
    return {"paired": paired, "correction": stats.METHODS["correction"], "family": len(tested),
            "identical_games": identical, "figures": rows}


def _same_game(a: dict, b: dict) -> bool:
    """Whether a game ended exactly as its pair did: scores, winners, length, end and the metrics both read."""
    ma, mb = a.get("metrics") or {}, b.get("metrics") or {}
    return (all(a.get(k) == b.get(k) for k in ("scores", "winners", "draw", "length", "end_reason"))
            and all(ma[name] == mb[name] for name in ma.keys() & mb.keys()))
