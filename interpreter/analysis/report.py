"""``--report page.html``: one self-contained page with the run's charts, viewable offline.

Charts are drawn with plotly, whose JavaScript is written into the page
once (``include_plotlyjs=True``): no network, no files beside it. plotly is
an optional extra (``davit[analysis]``).
"""
from __future__ import annotations

import html
from collections import Counter
from pathlib import Path

from ..errors import DavitError
from ..load.files import write_atomically

CHART_HEIGHT = 420


def check_report_path(path: str) -> None:
    """Fail before the run, not after it: plotly must be there and the folder must exist."""
    _plotly()
    target = Path(path)
    if str(target.parent) and not target.parent.is_dir():
        raise DavitError(f"davit: cannot write '{path}': folder '{target.parent}' does not exist")


def _plotly():
    try:
        import plotly.graph_objects as go
        import plotly.io as pio
    except ImportError:
        raise DavitError("davit: --report needs plotly: pip install 'davit[analysis]'") from None
    return go, pio


def _label(variant) -> str:
    return variant or "base"


def write_report(path: str, title: str, text: str, runs: list[dict], names: list[str],
                 comparisons: list[dict] = (), verdicts: list[str] = ()) -> None:
    """``runs``: one dict per variant with ``variant``, its summary figures, ``records`` and maybe ``coverage``;
    ``comparisons`` (from compare) and their ``verdicts`` in words come first."""
    go, pio = _plotly()
    charts = []
    for kind, heading in (("rate", "Differences in rates, variant − base, in points with 95% intervals"),
                          ("mean", "Differences in means, variant − base, with 95% intervals")):
        if any(row["kind"] == kind for c in comparisons for row in c["figures"]):
            charts.append((heading, _differences(go, comparisons, kind, names)))
    charts += [("Win rate per seat, with 95% Wilson intervals", _win_rates(go, runs, names)),
              ("Final scores per seat", _scores(go, runs, names)),
              ("Game length (decisions)", _lengths(go, runs))]
    if any("coverage" in run for run in runs):
        charts.append(("Rule coverage: how often each action was offered and taken", _coverage(go, runs)))
    parts = []
    for i, (heading, fig) in enumerate(charts):
        fig.update_layout(height=CHART_HEIGHT, margin={"t": 30, "b": 40, "l": 60, "r": 20}, template="plotly_white")
        body = pio.to_html(fig, full_html=False, include_plotlyjs=(i == 0), div_id=f"chart{i}",
                           config={"displaylogo": False})
        parts.append(f'<section><h2>{html.escape(heading)}</h2>{body}</section>')
    said = "".join(f"<p class=verdict>{html.escape(v)}</p>" for v in verdicts)
    page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>body{{font-family:sans-serif;max-width:1180px;margin:2em auto;padding:0 1em}}
pre{{background:#f6f6f6;padding:1em;white-space:pre-wrap;font-size:12px}}h2{{font-size:1.1em;margin-top:2em}}
p.verdict{{font-size:1.05em;font-weight:bold}}</style></head>
<body><h1>{html.escape(title)}</h1>
{said}
{''.join(parts)}
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
    write_atomically(path, page.encode("utf-8"))


def _figure_name(figure: str, names) -> str:
    """``win_rate[0]`` as ``win rate red``, ``metric[capsized]`` as ``capsized``."""
    for prefix, words in (("win_rate[", "win rate"), ("mean_score[", "mean score")):
        if figure.startswith(prefix):
            seat = int(figure[len(prefix):-1])
            return f"{words} {names[seat] if seat < len(names) else seat}"
    if figure.startswith("metric["):
        return figure[7:-1]
    return figure.replace("_rate", "").replace("_", " ")


def _differences(go, comparisons, kind, names):
    """One marker per figure at its difference (a diamond where it differs), its interval as a bar."""
    fig = go.Figure()
    scale = 100 if kind == "rate" else 1
    for c in comparisons:
        rows = [row for row in c["figures"] if row["kind"] == kind]
        ys = [_figure_name(row["figure"], names) for row in rows]
        xs = [row["difference"] * scale for row in rows]
        fig.add_trace(go.Scatter(
            name=f"{_label(c['variant'])} − {_label(c['base'])}", x=xs, y=ys, mode="markers",
            marker={"size": 10, "symbol": ["diamond" if row["differs"] else "circle" for row in rows]},
            error_x={"type": "data", "symmetric": False,
                     "array": [row["difference_ci"][1] * scale - x for row, x in zip(rows, xs)],
                     "arrayminus": [x - row["difference_ci"][0] * scale for row, x in zip(rows, xs)]}))
    fig.add_vline(x=0, line_dash="dot")
    fig.update_layout(xaxis={"title": "points" if kind == "rate" else "difference (in each figure's own unit)"},
                      yaxis={"autorange": "reversed"})
    return fig


def _win_rates(go, runs, names):
    fig = go.Figure()
    for run in runs:
        rates = run["win_rate"]
        lows = [r - ci[0] for r, ci in zip(rates, run["win_rate_ci"])]
        highs = [ci[1] - r for r, ci in zip(rates, run["win_rate_ci"])]
        fig.add_trace(go.Bar(name=_label(run["variant"]), x=names, y=rates,
                             error_y={"type": "data", "symmetric": False, "array": highs, "arrayminus": lows}))
    fig.update_layout(barmode="group", yaxis={"title": "win rate (ties count for every tied seat)",
                                              "tickformat": ".0%"})
    return fig


def _scores(go, runs, names):
    """Boxes drawn from each seat's quartiles (10–90% whiskers): the page does not grow with the games."""
    fig = go.Figure()
    for run in runs:
        q = run["score_quantiles"]
        fig.add_trace(go.Box(name=_label(run["variant"]), x=list(names), q1=[v["p25"] for v in q],
                             median=[v["median"] for v in q], q3=[v["p75"] for v in q],
                             lowerfence=[v["p10"] for v in q], upperfence=[v["p90"] for v in q],
                             mean=list(run["mean_scores"])))
    fig.update_layout(boxmode="group", yaxis={"title": "final score (box: 25–75%, whiskers: 10–90%, dashed: mean)"})
    return fig


def _lengths(go, runs):
    fig = go.Figure()
    for run in runs:
        counts = Counter(r["length"] for r in run["records"])
        fig.add_trace(go.Bar(name=_label(run["variant"]), x=sorted(counts), y=[counts[k] for k in sorted(counts)],
                             opacity=0.6))
    fig.update_layout(barmode="overlay", xaxis={"title": "decisions in the game"}, yaxis={"title": "games"})
    return fig


def _coverage(go, runs):
    fig = go.Figure()
    for run in runs:
        cov = run.get("coverage")
        if not cov:
            continue
        ids = [row["id"] for row in cov["actions"]]
        label = _label(run["variant"])
        fig.add_trace(go.Bar(name=f"{label}: offered", x=ids, y=[row["offered"] for row in cov["actions"]]))
        fig.add_trace(go.Bar(name=f"{label}: taken", x=ids, y=[row["taken"] for row in cov["actions"]]))
    fig.update_layout(barmode="group", yaxis={"title": "decisions (log scale)", "type": "log"})
    return fig
