"""The tables that ``davit simulate`` and ``davit compare`` print for people."""
from __future__ import annotations

from ..analysis.coverage import coverage_lines
from ..analysis.stats import METHODS

INTERVALS = (f"95% intervals: {METHODS['proportion_interval']} for rates, "
             f"{METHODS['mean_interval']} for means.")
TIES = "A tie counts as a win for every tied player"


def pct(rate: float) -> str:
    return f"{rate:.1%}"


def pct_ci(rate: float, ci) -> str:
    return f"{rate:.1%} [{ci[0] * 100:.1f}, {ci[1] * 100:.1f}]"


def num_ci(value: float, ci) -> str:
    return f"{value:.2f} [{ci[0]:.2f}, {ci[1]:.2f}]"


def points_ci(value: float, ci) -> str:
    return f"{value * 100:+.1f} pts [{ci[0] * 100:+.1f}, {ci[1] * 100:+.1f}]"


def _cap_text(result) -> str:
    cap = result.get("max_length")
    return f"{cap} decisions" if cap else "no --max-length; the ruleset's step limit only"


def _stop_text(result) -> list[str]:
    if result["stopped_by"] == "interrupted":
        return [f"interrupted: partial result over the {result['games']} games that finished"]
    return []


def _rivals(rs, players: int) -> bool:
    """Whether seats play against each other: only then do ties and a first seat advantage mean anything."""
    return players > 1 and rs.team_var is None


def simulate_lines(rs, result: dict, names) -> list[str]:
    players = result["players"]
    lines = _stop_text(result)
    lines.append(f"{rs.name}{f' ({rs.variant})' if rs.variant else ''}: {result['games']} games, {players} players, "
                 f"seed {result['seed']}, agents {result['agents']}")
    lines.append(f"{'seat':<16}{'mean score [95% CI]':>26}{'stdev':>9}{'win rate [95% CI]':>26}")
    for s in range(players):
        lines.append(f"{names[s]:<16}{num_ci(result['mean_scores'][s], result['mean_score_ci'][s]):>26}"
                     f"{result['score_stdev'][s]:>9.2f}{pct_ci(result['win_rate'][s], result['win_rate_ci'][s]):>26}")
    if _rivals(rs, players):
        lines.append(f"ties: {pct_ci(result['tie_rate'], result['tie_rate_ci'])} of games. {TIES}, "
                     f"so the win rates add up to {pct(result['win_rate_sum'])}.")
    elif players > 1:
        lines.append("co-operative: every seat wins or loses with the team")
    if result.get("draw_rate"):
        lines.append(f"draws: {pct_ci(result['draw_rate'], result['draw_rate_ci'])} of games (a draw is a win for "
                     "nobody)")
    if result["no_winner_rate"]:
        lines.append(f"no winner: {pct_ci(result['no_winner_rate'], result['no_winner_rate_ci'])} of games")
    if _rivals(rs, players):
        lines.append(f"first seat advantage: "
                     f"{points_ci(result['first_seat_advantage'], result['first_seat_advantage_ci'])}"
                     " (the first seat's win rate minus the average seat's)")
    q = result["length_quantiles"]
    lines.append(f"game length: mean {num_ci(result['mean_length'], result['length_ci'])} decisions; "
                 f"median {q['median']:g}, 10–90%: {q['p10']:g}–{q['p90']:g}, "
                 f"range {result['length_range'][0]}–{result['length_range'][1]}")
    lines.append(f"games cut off at a length cap: {pct_ci(result['capped_rate'], result['capped_rate_ci'])} "
                 f"({_cap_text(result)})")
    lines.append("how games ended: " + end_reasons_text(result))
    if "benchmark" in result:
        bench = result["benchmark"]
        lines.append(f"{bench['share_above']:.1%} of games beat {bench['value']}"
                     + (f" ({bench['label']})" if bench["label"] else ""))
    if result["stopped_by"] == "precision":
        lines.append(f"stopped when every win-rate interval was at most the asked width, after {result['games']} games")
    lines.append(INTERVALS)
    lines.append(f"{result['games_per_second']} games per second ({result['seconds']} s)")
    if "coverage" in result:
        lines.append("")
        lines += coverage_lines(result["coverage"])
    return lines


def _verdict(row) -> str:
    p = row["p"]
    shown = "p<0.001" if p < 0.001 else f"p={p:.3f}"
    return f"{'DIFFERS' if row['differs'] else 'same'} ({shown})"


def compare_lines(rs, result: dict, names) -> list[str]:
    runs = result["variants"]
    players = result["players"]
    labels = [r["variant"] or "base" for r in runs]
    width = max(24, *(len(label) + 2 for label in labels))
    lines = _stop_text(result)
    lines.append(f"{rs.name}: {' vs '.join(labels)}: {result['games']} games each on the same seeds, "
                 f"{players} players, seed {result['seed']}, agents {result['agents']}")
    others = result["comparisons"]
    head = f"{'figure':<26}" + "".join(f"{label:>{width}}" for label in labels)
    titles = [f"vs {labels[0]} → {c['variant']} (95%)" for c in others]
    vwidth = max([28] + [len(t) for t in titles])
    head += "".join(f"   {title:<{vwidth}}" for title in titles) + "  test"
    lines.append(head)
    verdicts = [{row["figure"]: row for row in c["figures"]} for c in others]

    def row(title, cells, figure=None):
        text = f"{title:<26}" + "".join(f"{cell:>{width}}" for cell in cells)
        if figure is not None:
            text += "".join(f"   {_verdict(v[figure]):<{vwidth}}" for v in verdicts)
            text += "  " + ("z-test" if "proportion" in verdicts[0][figure]["test"] else "Welch t")
        lines.append(text)

    for s in range(players):
        row(f"win rate {names[s]}", [pct_ci(r["win_rate"][s], r["win_rate_ci"][s]) for r in runs], f"win_rate[{s}]")
    if _rivals(rs, players):
        row("tie rate", [pct_ci(r["tie_rate"], r["tie_rate_ci"]) for r in runs], "tie_rate")
    if verdicts and all("draw_rate" in v for v in verdicts):   # games that can be drawn
        row("draw rate", [pct_ci(r["draw_rate"], r["draw_rate_ci"]) for r in runs], "draw_rate")
    for s in range(players):
        row(f"mean score {names[s]}", [num_ci(r["mean_scores"][s], r["mean_score_ci"][s]) for r in runs],
            f"mean_score[{s}]")
    row("game length (mean)", [num_ci(r["mean_length"], r["length_ci"]) for r in runs], "length")
    row("game length median, 10–90%", [f"{r['length_quantiles']['median']:g}, {r['length_quantiles']['p10']:g}–"
                                       f"{r['length_quantiles']['p90']:g}" for r in runs])
    if _rivals(rs, players):
        row("first seat advantage", [points_ci(r["first_seat_advantage"], r["first_seat_advantage_ci"])
                                     for r in runs], "first_seat_win_rate")
    row("cut off at a length cap", [pct_ci(r["capped_rate"], r["capped_rate_ci"]) for r in runs], "capped_rate")
    if _rivals(rs, players):
        sums = ", ".join(f"{label}: {pct(r['win_rate_sum'])}" for label, r in zip(labels, runs))
        lines.append(f"{TIES}, so win rates can add up to more than 100% ({sums}).")
        lines.append("First seat advantage: the first seat's win rate minus the average seat's; "
                     "its verdict tests the first seat's win rate.")
    lines.append(f"Length cap: {_cap_text(result)}.")
    lines.append(INTERVALS)
    lines.append(f"Tests: z-test = {METHODS['proportion_test']}, Welch t = {METHODS['mean_test']}; each figure is "
                 "tested on its own at 95%, so among many figures about 1 in 20 reads DIFFERS by chance alone.")
    if result["stopped_by"] == "precision":
        lines.append(f"Stopped when every win-rate interval was at most the asked width, after {result['games']} games.")
    lines.append(f"{result['games_per_second']} games per second ({result['seconds']} s)")
    for r, label in zip(runs, labels):
        if "coverage" in r:
            lines.append("")
            lines.append(f"[{label}]")
            lines += coverage_lines(r["coverage"])
    return lines


def end_reasons_text(result) -> str:
    """``end 80%, the round limit 20%``: the share of each end reason (the ruleset's end_game(reason=...))."""
    reasons = result.get("end_reasons") or {}
    total = sum(reasons.values()) or 1
    named = {"end": "the end condition or the flow's end"}
    return ", ".join(f"{named.get(r, r)} {n / total:.0%}" for r, n in sorted(reasons.items(), key=lambda kv: -kv[1]))
