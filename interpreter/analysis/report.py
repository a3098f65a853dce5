"""``--report page.html``: one self-contained page with the run's charts, viewable offline.

Charts are drawn with plotly, whose JavaScript is written into the page
once (``include_plotlyjs=True``): no network, no files beside it. plotly is
an optional extra (``davit[analysis]``).
"""
from __future__ import annotations

import html
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


def write_report(path: str, title: str, text: str, runs: list[dict], names: list[str]) -> None:
    """``runs``: one dict per variant with ``variant``, its summary figures, ``records`` and maybe ``coverage``."""
    go, pio = _plotly()
    charts = [("Win rate per seat, with 95% Wilson intervals", _win_rates(go, runs, names)),
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
    page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>body{{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em}}
pre{{background:#f6f6f6;padding:1em;overflow-x:auto}}h2{{font-size:1.1em;margin-top:2em}}</style></head>
<body><h1>{html.escape(title)}</h1>
<pre>{html.escape(text)}</pre>
{''.join(parts)}
</body></html>
"""
    write_atomically(path, page.encode("utf-8"))


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
    fig = go.Figure()
    for run in runs:
        xs, ys = [], []
        for r in run["records"]:
            for s, score in enumerate(r["scores"]):
                xs.append(names[s])
                ys.append(score)
        fig.add_trace(go.Box(name=_label(run["variant"]), x=xs, y=ys, boxmean=True))
    fig.update_layout(boxmode="group", yaxis={"title": "final score"})
    return fig


def _lengths(go, runs):
    fig = go.Figure()
    for run in runs:
        fig.add_trace(go.Histogram(name=_label(run["variant"]), x=[r["length"] for r in run["records"]],
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
