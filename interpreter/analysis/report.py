"""``--report page.html``: one self-contained page with the run's charts, viewable offline.

The charts are plain SVG drawn here (:mod:`.svg`), from the run's summaries,
not from every game: the page needs no library, no script to draw and no
network, and stays small (a few tens of kB) however many games were played.
A comparison's page starts with what changed: the verdicts, then the
differences with their intervals; the text table comes last.
"""
from __future__ import annotations

import html
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from ..errors import DavitError
from ..load.files import write_atomically
from .svg import chart

LENGTH_BINS = 30


def check_report_path(path: str) -> None:
    """Fail before the run, not after it: the folder must exist."""
    target = Path(path)
    if str(target.parent) and not target.parent.is_dir():
        raise DavitError(f"davit: cannot write '{path}': folder '{target.parent}' does not exist")


def _label(variant) -> str:
    return variant or "base"


def _pct(v: float) -> str:
    return f"{v:.0%}" if abs(v) >= 0.1 or v == 0 else f"{v:.1%}"


def _figure_name(figure: str, names) -> str:
    """``win_rate[0]`` as ``win rate red``, ``metric[capsized]`` as ``capsized``."""
    for prefix, words in (("win_rate[", "win rate"), ("mean_score[", "mean score")):
        if figure.startswith(prefix):
            seat = int(figure[len(prefix):-1])
            return f"{words} {names[seat] if seat < len(names) else seat}"
    if figure.startswith("metric["):
        return figure[7:-1]
    return figure.replace("_rate", "").replace("_", " ")


def page(title: str, verdicts: list[str], charts: list[tuple[str, str]], text: str) -> str:
    """The whole page: verdicts, charts (heading, SVG), then the text table."""
    said = "".join(f"<p class=verdict>{html.escape(v)}</p>" for v in verdicts)
    parts = "".join(f'<section id="chart{i}"><h2>{html.escape(heading)}</h2>{svg}</section>'
                    for i, (heading, svg) in enumerate(charts))
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>body{{font-family:sans-serif;max-width:1180px;margin:2em auto;padding:0 1em}}
pre{{background:#f6f6f6;padding:1em;white-space:pre-wrap;font-size:12px}}h2{{font-size:1.1em;margin-top:2em}}
p.verdict{{font-size:1.05em;font-weight:bold}}svg.chart{{max-width:100%;height:auto}}</style></head>
<body><h1>{html.escape(title)}</h1>
{said}
{parts}
<h2>Every figure</h2>
<pre>{html.escape(text)}</pre>
<script>window.addEventListener("load", function () {{
  /* for the page check: how many blocks are wider than their box, and how wide the page is */
  var wide = Array.prototype.filter.call(document.querySelectorAll("pre, section, p"),
    function (e) {{ return e.scrollWidth > e.clientWidth + 1; }});
  document.body.setAttribute("data-clipped", String(wide.length));
  document.body.setAttribute("data-page-width", String(document.documentElement.scrollWidth));
}});</script>
</body></html>
"""


def write_report(path: str, title: str, text: str, runs: list[dict], names: list[str],
                 comparisons: Sequence[dict] = (), verdicts: Sequence[str] = ()) -> None:
    """``runs``: one dict per variant with ``variant``, its summary figures, ``records`` and maybe ``coverage``;
    ``comparisons`` (from compare) and their ``verdicts`` in words come first."""
    charts = []
    for kind, heading in (("rate", ("Differences in rates, variant − base, in points with 95% intervals "
                                    "(* : differs after the Holm correction)")),
                          ("mean", ("Differences in means, variant − base, each in its own unit, with 95% "
                                    "intervals (* : differs)"))):
        if any(row["kind"] == kind for c in comparisons for row in c["figures"]):
            charts.append((heading, _differences(comparisons, kind, names)))
    charts.append(("Win rate per seat, with 95% Wilson intervals (ties count for every tied seat)",
                   chart(list(names), [{"name": _label(r["variant"]),
                                        "values": [(w, lo, hi) for w, (lo, hi) in zip(r["win_rate"], r["win_rate_ci"])]}
                                       for r in runs], kind="bar", fmt=_pct, axis="win rate")))
    charts.append(("Final scores per seat (box: 25–75%, whiskers: 10–90%, line: median, dashed: mean)",
                   chart(list(names), [{"name": _label(r["variant"]),
                                        "values": [(q["p10"], q["p25"], q["median"], q["p75"], q["p90"], m)
                                                   for q, m in zip(r["score_quantiles"], r["mean_scores"])]}
                                       for r in runs], kind="box", axis="final score")))
    charts.append(("Game length (decisions): games per length", _lengths(runs)))
    metrics = list(dict.fromkeys(m for r in runs for m in r.get("metrics") or {}))
    if metrics:
        charts.append(("The ruleset's metrics: mean with 95% interval", chart(metrics, [
            {"name": _label(r["variant"]), "values": [(r["metrics"][m]["mean"], *r["metrics"][m]["ci"])
                                                     if m in r.get("metrics", {}) and r["metrics"][m]["games"]
                                                     else None for m in metrics]} for r in runs],
            kind="point", horizontal=True)))
    for m in dict.fromkeys(m for r in runs for m, v in (r.get("metrics") or {}).items() if v.get("by_round")):
        rounds = list(dict.fromkeys(at for r in runs for at in r["metrics"].get(m, {}).get("by_round", {})))
        charts.append((f"{m} as each round began, with 95% intervals", chart(rounds, [
            {"name": _label(r["variant"]), "values": [(b[at]["mean"], *b[at]["ci"]) if at in b else None
                                                     for at in rounds]}
            for r in runs for b in [r.get("metrics", {}).get(m, {}).get("by_round", {})]], kind="line", axis=m)))
    if any("coverage" in run for run in runs):
        charts.append(("Rule coverage: how often each action was offered and taken", _coverage(runs)))
    write_atomically(path, page(title, list(verdicts), charts, text).encode("utf-8"))


def _differences(comparisons, kind, names) -> str:
    first = [row for row in comparisons[0]["figures"] if row["kind"] == kind]
    figures = [row["figure"] for row in first]
    flagged = {row["figure"] for c in comparisons for row in c["figures"] if row["differs"]}
    labels = [_figure_name(f, names) + (" *" if f in flagged else "") for f in figures]
    scale = 100 if kind == "rate" else 1
    series = []
    for c in comparisons:
        rows = {row["figure"]: row for row in c["figures"]}
        series.append({"name": f"{_label(c['variant'])} − {_label(c['base'])}",
                       "values": [(rows[f]["difference"] * scale, rows[f]["difference_ci"][0] * scale,
                                   rows[f]["difference_ci"][1] * scale) if f in rows else None for f in figures]})
    return chart(labels, series, kind="point", horizontal=True, zero=True, fmt=lambda v: f"{v:+g}",
                 axis="points" if kind == "rate" else "difference")


def _lengths(runs) -> str:
    lengths = [r["length"] for run in runs for r in run.get("records") or []]
    if not lengths:
        return chart([], [])
    low, high = min(lengths), max(lengths)
    step = max(1, -(-(high - low + 1) // LENGTH_BINS))
    bins = list(range(low, high + 1, step))
    labels = [str(b) if step == 1 else f"{b}–{b + step - 1}" for b in bins]
    series = []
    for run in runs:
        counts = Counter((r["length"] - low) // step for r in run.get("records") or [])
        series.append({"name": _label(run["variant"]), "values": [(counts[i], None, None) for i in range(len(bins))]})
    return chart(labels, series, kind="bar", axis="games")


def _coverage(runs) -> str:
    ids = list(dict.fromkeys(row["id"] for run in runs for row in (run.get("coverage") or {}).get("actions", [])))
    series = []
    for run in runs:
        cov = run.get("coverage")
        if not cov:
            continue
        rows = {row["id"]: row for row in cov["actions"]}
        for what in ("offered", "taken"):
            series.append({"name": f"{_label(run['variant'])}: {what}",
                           "values": [(rows[i][what], None, None) if i in rows else None for i in ids]})
    return chart(ids, series, kind="bar", horizontal=True, axis="decisions")


def write_points_report(path: str, title: str, text: str, labels: list[str], points: list[dict],
                        names: list[str]) -> None:
    """The page of a sweep: each figure with its interval against the point (``labels``: the values set)."""
    charts = [("Win rate per seat at each point, with 95% Wilson intervals", chart(labels, [
        {"name": names[s], "values": [(p["win_rate"][s], *p["win_rate_ci"][s]) for p in points]}
        for s in range(len(names))], kind="line", fmt=_pct, axis="win rate")),
        ("Game length (mean decisions) at each point, with 95% intervals", chart(labels, [
            {"name": "length", "values": [(p["mean_length"], *p["length_ci"]) for p in points]}], kind="line",
            axis="decisions"))]
    for m in (points[0].get("metrics") or {}) if points else {}:
        charts.append((f"{m} at each point, with 95% intervals", chart(labels, [
            {"name": m, "values": [(p["metrics"][m]["mean"], *p["metrics"][m]["ci"]) if p["metrics"][m]["games"]
                                   else None for p in points]}], kind="line", axis=m)))
    write_atomically(path, page(title, [], charts, text).encode("utf-8"))


def write_tune_report(path: str, title: str, text: str, result: dict) -> None:
    """The page of a tuning run: the loss of each trial in the order run, and against each value searched."""
    trials = result["trials"]
    charts = [("Loss of each trial, in the order run (0: on target)", chart(
        [str(t["number"]) for t in trials], [{"name": "loss", "values": [(t["loss"], None, None) for t in trials]}],
        kind="point", axis="loss", zero=True))]
    for path_ in result["best"]["set"]:
        values = sorted({t["set"][path_] for t in trials}, key=lambda v: (isinstance(v, str), v))
        best = {v: min(t["loss"] for t in trials if t["set"][path_] == v) for v in values}
        charts.append((f"Best loss at each value of {path_}", chart(
            [str(v) for v in values], [{"name": "loss", "values": [(best[v], None, None) for v in values]}],
            kind="line", axis="loss", zero=True)))
    write_atomically(path, page(title, [], charts, text).encode("utf-8"))
