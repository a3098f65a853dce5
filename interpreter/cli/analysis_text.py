"""The tables that ``davit simulate`` and ``davit compare`` print for people."""
from __future__ import annotations

from ..agents.search_tally import trouble_lines
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


def search_trouble_lines(runs, labels=None) -> list[str]:
    """Warnings for each run (a simulation, a variant, a point) whose search bots got past an evaluation or
    a rule that raised (``agents.search_tally``)."""
    lines = []
    for i, run in enumerate(runs):
        troubles = run.get("search_troubles")
        for text in trouble_lines(troubles, troubles["games"] if troubles else None):
            lines.append(text if labels is None else text.replace("warning: ", f"warning: {labels[i]}: ", 1))
    return lines


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
    lines += search_trouble_lines([result])
    lines += metric_lines(result)
    lines += dynamics_lines(result)
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


SHORT_TESTS = {METHODS["paired_proportion_test"]: "McNemar", METHODS["paired_mean_test"]: "paired t",
               METHODS["proportion_test"]: "z-test", METHODS["mean_test"]: "Welch t"}
WEAK_BOTS = {"random", "first"}


def dynamics_lines(result) -> list[str]:
    """How the game plays (docs/analysis.md defines each measure)."""
    d = result.get("dynamics") or {}
    if not d:
        return []

    def mean(key, fmt="{:.2f}"):
        m = d[key]
        return f"{fmt.format(m['mean'])} [{fmt.format(m['ci'][0])}, {fmt.format(m['ci'][1])}]"

    lines = [(f"dynamics: branching factor {mean('branching_factor')} options a decision; decision moves "
             f"{mean('decision_moves', '{:.1%}')} of decisions have a choice")]
    if "balance" in d:
        seats = ", ".join(f"{a['mean'] * 100:+.1f}" for a in d["seat_advantage"])
        lines.append(f"  balance {mean('balance')} (1 = every seat wins as often); advantage by seat: {seats} pts")
        tail = (f"  lead changes {mean('lead_changes')} a game" +
                (f"; decisiveness {mean('decisiveness')}, drama {mean('drama')} points (over the "
                 f"{d['decisiveness']['games']} games won on score)" if d["decisiveness"]["games"] else ""))
        lines.append(tail)
    if "skill_depth" in d:
        k = d["skill_depth"]
        lines.append(f"  skill depth: {k['strong']} against {k['weak']} wins {k['mean'] * 100:+.1f} pts "
                     f"[{k['ci'][0] * 100:+.1f}, {k['ci'][1] * 100:+.1f}] more often than the average seat "
                     f"({k['games']} more games, the stronger bot in each seat in turn)")
    return lines


def metric_lines(result) -> list[str]:
    """The ruleset's own metrics: mean with interval, median and 10–90% range, games with a value."""
    metrics = result.get("metrics") or {}
    if not metrics:
        return []
    lines = [f"{'metric':<24}{'mean [95% CI]':>26}{'median, 10–90%':>20}  games"]
    for name, m in metrics.items():
        q = m["quantiles"]
        spread = f"{q['median']:g}, {q['p10']:g}–{q['p90']:g}" if m["games"] else "-"
        lines.append(f"{name:<24}{num_ci(m['mean'], m['ci']) if m['games'] else '-':>26}{spread:>20}  "
                     f"{m['games']} of {result['games']}")
        if m.get("by_round"):
            lines.append(f"  {name} as each round began: " +
                         ", ".join(f"{at}: {r['mean']:.2f}" for at, r in m["by_round"].items()))
    return lines


def _verdict(row) -> str:
    if not row.get("testable", True):
        changed = row.get("changed")
        none = not (sum(changed) if isinstance(changed, list) else changed)
        return "same (no game changed)" if none else "same (too few changed)"
    p = row["p_holm"]
    shown = "p<0.001" if p < 0.001 else f"p={p:.3f}"
    return f"{'DIFFERS' if row['differs'] else 'same'} ({shown})"


def _figure_title(figure: str, names, rivals: bool) -> str:
    if figure.startswith("win_rate["):
        return f"win rate {names[int(figure[9:-1])]}" if rivals else "team win rate"
    if figure.startswith("mean_score["):
        return f"mean score {names[int(figure[11:-1])]}" if rivals else "team score"
    if figure.startswith("metric["):
        return figure[7:-1]
    return {"tie_rate": "tie rate", "draw_rate": "draw rate", "no_winner_rate": "no winner", "length": "game length",
            "capped_rate": "cut off at a length cap"}.get(figure, figure)


def _difference(row) -> str:
    if row["kind"] == "rate":   # (+ 0.0 turns a -0.0 from rounding into 0.0)
        d, low, high = (round(x * 100, 1) + 0.0 for x in (row["difference"], *row["difference_ci"]))
        return f"{d:+.1f} pts [{low:+.1f}, {high:+.1f}]"
    d, low, high = (round(x, 2) + 0.0 for x in (row["difference"], *row["difference_ci"]))
    return f"{d:+.2f} [{low:+.2f}, {high:+.2f}]"


def _effect(row, names, rivals: bool) -> str:
    """One figure's difference in words, the size first: ``red wins 7.9 points [5.1, 10.6] more often``."""
    figure, d = row["figure"], row["difference"]
    low, high = row["difference_ci"] if d >= 0 else [-row["difference_ci"][1], -row["difference_ci"][0]]
    if row["kind"] == "rate":
        size = f"{abs(d) * 100:.1f} points [{low * 100:.1f}, {high * 100:.1f}]"
    else:
        size = f"{abs(d):.2f} [{low:.2f}, {high:.2f}]"
    more = d > 0
    if figure.startswith("win_rate["):
        who = names[int(figure[9:-1])] if rivals else "the team"
        return f"{who} wins {size} {'more' if more else 'less'} often"
    if figure.startswith("mean_score["):
        who = names[int(figure[11:-1])] if rivals else "the team"
        return f"{who} scores {size} points {'more' if more else 'less'}"
    if figure == "length":
        return f"games last {size} decisions {'longer' if more else 'shorter'}"
    if figure.startswith("metric["):
        return f"{figure[7:-1]} is {size} {'higher' if more else 'lower'}"
    what = {"tie_rate": "ties", "draw_rate": "draws", "no_winner_rate": "games without a winner",
            "capped_rate": "games cut off"}.get(figure, figure)
    return f"{what} come {size} {'more' if more else 'less'} often"


def verdict_line(comparison, names, rivals: bool) -> str:
    """The effect sizes of the figures that differ, then what did not."""
    rows = comparison["figures"]
    found = [_effect(row, names, rivals) for row in rows if row["differs"]]
    if not comparison["family"]:
        return "no difference found: no figure changed in enough games to be tested"
    if not found:
        return f"no difference found in any figure ({_correction(comparison)})"
    rest = "everything else: no difference found" if len(found) < len(rows) else ""
    return "; ".join(found + ([rest] if rest else []))


def _correction(comparison) -> str:
    return f"Holm-corrected at 5% over the {comparison['family']} figures tested"


def _warnings(comparison, result, label) -> list[str]:
    """Say when the bots, not the rules, made the figures equal."""
    games, identical = result["games"], comparison.get("identical_games")
    weak = set(result.get("bots") or []) <= WEAK_BOTS
    stronger = "try a stronger bot (--agents ismcts:200) or check with --coverage that the changed rule is reached"
    if identical is not None and games and identical == games:
        return [(f"warning: every one of the {games} games of {label} ended exactly as its base game (same scores, "
                f"winners and length): with these bots the change never came into play; {stronger}.")]
    if weak and not any(row["differs"] for row in comparison["figures"]):
        return [(f"warning: with {', '.join(sorted(set(result['bots'])))} bots no figure tells {label} from the base: "
                f"such bots may never use what the variant changes; {stronger} before concluding it changes nothing.")]
    return []


def compare_lines(rs, result: dict, names) -> list[str]:
    runs = result["variants"]
    players = result["players"]
    rivals = _rivals(rs, players)
    labels = [r["variant"] or "base" for r in runs]
    width = max(24, *(len(label) + 2 for label in labels))
    lines = _stop_text(result)
    lines.append(f"{rs.name}: {' vs '.join(labels)}: {result['games']} games each on the same seeds, "
                 f"{players} players, seed {result['seed']}, agents {result['agents']}")
    lines.append(f"{'figure':<26}" + "".join(f"{label:>{width}}" for label in labels))

    def row(title, cells):
        lines.append(f"{title:<26}" + "".join(f"{cell:>{width}}" for cell in cells))

    for s in range(players):
        row(f"win rate {names[s]}", [pct_ci(r["win_rate"][s], r["win_rate_ci"][s]) for r in runs])
    if rivals:
        row("tie rate", [pct_ci(r["tie_rate"], r["tie_rate_ci"]) for r in runs])
    if any(r.get("draws") for r in runs):   # games that can be drawn
        row("draw rate", [pct_ci(r["draw_rate"], r["draw_rate_ci"]) for r in runs])
    for s in range(players):
        row(f"mean score {names[s]}", [num_ci(r["mean_scores"][s], r["mean_score_ci"][s]) for r in runs])
    row("game length (mean)", [num_ci(r["mean_length"], r["length_ci"]) for r in runs])
    row("game length median, 10–90%", [f"{r['length_quantiles']['median']:g}, {r['length_quantiles']['p10']:g}–"
                                       f"{r['length_quantiles']['p90']:g}" for r in runs])
    if rivals:
        row("first seat advantage", [points_ci(r["first_seat_advantage"], r["first_seat_advantage_ci"])
                                     for r in runs])
    row("cut off at a length cap", [pct_ci(r["capped_rate"], r["capped_rate_ci"]) for r in runs])
    for name in dict.fromkeys(n for r in runs for n in r.get("metrics") or {}):
        row(name, [num_ci(r["metrics"][name]["mean"], r["metrics"][name]["ci"]) if name in r.get("metrics", {})
                   else "-" for r in runs])
    lines += search_trouble_lines(runs, labels)
    for comparison in result["comparisons"]:
        label = comparison["variant"] or "base"
        lines.append("")
        lines += _warnings(comparison, result, label)
        changed = ("" if comparison.get("identical_games") is None else
                   f" ({result['games'] - comparison['identical_games']} of {result['games']} games ended otherwise)")
        lines.append(f"{labels[0]} → {label}{changed}: {verdict_line(comparison, names, rivals)}")
        lines.append(f"{'difference ' + label + ' − ' + labels[0]:<36}{'[95% CI]':>30}{'p':>9}   "
                     f"{'verdict (Holm)':<24}test")
        for r in comparison["figures"]:
            p = "p<0.001" if r["p"] < 0.001 else f"{r['p']:.3f}"
            lines.append(f"{_figure_title(r['figure'], names, rivals):<36}{_difference(r):>30}{p:>9}   "
                         f"{_verdict(r):<24}{SHORT_TESTS.get(r['test'], r['test'])}")
    lines.append("")
    if rivals:
        sums = ", ".join(f"{label}: {pct(r['win_rate_sum'])}" for label, r in zip(labels, runs))
        lines.append(f"{TIES}, so win rates can add up to more than 100% ({sums}).")
        lines.append("First seat advantage: the first seat's win rate minus the average seat's (its difference is "
                     "the first seat's win rate's).")
    lines.append(f"Length cap: {_cap_text(result)}.")
    lines.append(INTERVALS)
    lines += _tests_text(result["comparisons"])
    if result["stopped_by"] == "precision":
        lines.append("Stopped when every win-rate interval was at most the asked width, "
                     f"after {result['games']} games.")
    lines.append(f"{result['games_per_second']} games per second ({result['seconds']} s)")
    for r, label in zip(runs, labels):
        if "coverage" in r:
            lines.append("")
            lines.append(f"[{label}]")
            lines += coverage_lines(r["coverage"])
    return lines


def _tests_text(comparisons) -> list[str]:
    paired = all(c["paired"] for c in comparisons)
    if paired:
        how = (f"Paired: game i of every variant has the same seed and bots as game i of the base, so each "
               f"figure is compared game by game: McNemar = {METHODS['paired_proportion_test']}, with "
               f"{METHODS['paired_proportion_interval']}; paired t = {METHODS['paired_mean_test']} on the "
               f"per-game differences.")
    else:
        how = (f"Not paired (the games' seeds differ): z-test = {METHODS['proportion_test']}, "
               f"Welch t = {METHODS['mean_test']}.")
    return [how, (f"Verdicts: {METHODS['correction']} over all the figures of one comparison, so the chance of "
                 "any false DIFFERS in it is at most 5%; p is each figure's own p-value and the intervals are "
                 "each 95%. A figure that fewer than six games changed cannot reach 5% and is not counted "
                 "(too few changed).")]


def end_reasons_text(result) -> str:
    """``end 80%, the round limit 20%``: the share of each end reason (the ruleset's end_game(reason=...))."""
    reasons = result.get("end_reasons") or {}
    total = sum(reasons.values()) or 1
    named = {"end": "the end condition or the flow's end"}
    return ", ".join(f"{named.get(r, r)} {n / total:.0%}" for r, n in sorted(reasons.items(), key=lambda kv: -kv[1]))


def sweep_lines(rs, result: dict, names) -> list[str]:
    """One row per point: the values set, each seat's win rate, the length and the metrics, with intervals."""
    players = result["players"]
    lines = _stop_text(result)
    lines.append(f"{rs.name}{f' ({rs.variant})' if rs.variant else ''}: {len(result['points'])} points, "
                 f"{result['games']} games each on the same seeds, {players} players, seed {result['seed']}, "
                 f"agents {result['agents']}")
    paths = list(result["points"][0]["set"]) if result["points"] else []
    metrics = list((result["points"][0].get("metrics") or {}) if result["points"] else [])
    width = max(12, *(len(p) + 2 for p in paths)) if paths else 12
    head = "".join(f"{p:<{width}}" for p in paths)
    head += "".join(f"{'win ' + names[s]:>22}" for s in range(players))
    head += f"{'length':>24}" + "".join(f"{m:>24}" for m in metrics)
    lines.append(head)
    for point in result["points"]:
        row = "".join(f"{v!s:<{width}}" for v in point["set"].values())
        row += "".join(f"{pct_ci(point['win_rate'][s], point['win_rate_ci'][s]):>22}" for s in range(players))
        row += f"{num_ci(point['mean_length'], point['length_ci']):>24}"
        row += "".join(f"{num_ci(point['metrics'][m]['mean'], point['metrics'][m]['ci']):>24}" for m in metrics)
        lines.append(row)
    same = [(p["wins"], p["mean_scores"], p["mean_length"], p.get("metrics")) for p in result["points"]]
    if len(same) > 1 and all(s == same[0] for s in same):
        lines.append("warning: every point gave the very same figures: with these bots the values swept never "
                     "came into play; try a stronger bot (--agents ismcts:200) or check with `davit simulate "
                     "--coverage` that the rule that reads them is reached.")
    lines += search_trouble_lines(result["points"], [", ".join(f"{k}={v}" for k, v in p["set"].items())
                                                          for p in result["points"]])
    lines.append(INTERVALS)
    lines.append(f"{result['games_per_second']} games per second ({result['seconds']} s)")
    return lines


def tune_lines(rs, result: dict) -> list[str]:
    """The trials in the order run, then the best point and where it was written."""
    goal = result["objective"] + ("" if result["target"] is None else f"={result['target']:g}")
    lines = [(f"{rs.name}: tuning {goal} over {len(result['trials'])} trials of {result['games']} games each on "
             f"the same seeds, {result['players']} players, agents {result['agents']}")]
    paths = list(result["best"]["set"])
    width = max(12, *(len(p) + 2 for p in paths)) if paths else 12
    lines.append("trial " + "".join(f"{p:<{width}}" for p in paths) + "loss")
    for t in result["trials"]:
        mark = "  ← best" if t["number"] == result["best"]["number"] else ""
        lines.append(f"{t['number']:<6}" + "".join(f"{t['set'][p]!s:<{width}}" for p in paths)
                     + f"{t['loss']:.4f}{mark}")
    if result["all_equal"]:
        lines.append("warning: every trial gave the same loss: with these bots the values never came into play; "
                     "try a stronger bot (--agents ismcts:200).")
    lines += search_trouble_lines(result["trials"], [f"trial {t['number']}" for t in result["trials"]])
    check = result.get("check")
    if check is not None:
        low, high = check["difference_ci"]
        lines.append(f"checked on {check['games']} fresh games (seed {check['seed']}), the best point against the "
                     f"base values: loss {check['best_loss']:.4f} against {check['base_loss']:.4f}, difference "
                     f"{check['difference']:+.4f} [95% interval {low:+.4f}, {high:+.4f}]")
        if not check["better"]:
            lines.append("warning: the fresh games did not tell the best point from the base values: its lower loss "
                         "in the trials may be luck; more --games a trial would tell.")
    if result["out"]:
        lines.append(f"wrote {result['out']}: play it with `davit play {rs.id} --variant {result['out']}`, or "
                     f"`davit compare {rs.id} --variant {result['out']}`")
    else:
        lines.append("the base game's own values are best: no variant written")
    lines.append(f"the study is kept in {result['storage']}: the same command resumes it or adds trials")
    return lines
