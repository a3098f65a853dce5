"""Small SVG charts for the report page: bars, points, boxes and lines over categories, with intervals.

Plain text, no script and no library: a page of them stays small whatever
the number of games, and opens in any browser. Each mark carries a
``<title>``, which a browser shows on hover, with its value and interval.
"""
from __future__ import annotations

import html
import math

COLOURS = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3", "#8c8c8c")
WIDTH = 1080
FONT = 'font-family="sans-serif" font-size="12"'


def _nice_ticks(low: float, high: float, count: int = 6) -> list[float]:
    if high <= low:
        high = low + 1
    raw = (high - low) / count
    step = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * step:
            step *= m
            break
    start = math.floor(low / step) * step
    ticks, t = [], start
    while t <= high + step * 1e-9:
        ticks.append(round(t, 10))
        t += step
    if ticks[-1] < high:
        ticks.append(round(ticks[-1] + step, 10))
    return ticks


def _text(x, y, s, anchor="middle", extra=""):
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" {FONT} {extra}>{html.escape(str(s))}</text>'


def _legend(names: list[str], y: float) -> tuple[list[str], float]:
    """The legend in rows across the chart; the parts and the height it takes."""
    out, x = [], 70.0
    for i, name in enumerate(names):
        step = 28 + 7 * len(name)
        if x + step > WIDTH - 10 and x > 70:
            x, y = 70.0, y + 18
        out.append(f'<rect x="{x:.1f}" y="{y - 10:.1f}" width="12" height="12" fill="{COLOURS[i % len(COLOURS)]}"/>')
        out.append(_text(x + 16, y, name, "start"))
        x += step
    return out, y


def chart(categories: list[str], series: list[dict], *, kind: str = "bar", horizontal: bool = False,
          fmt=lambda v: f"{v:g}", axis: str = "", zero: bool = False) -> str:
    """One chart. ``series``: ``{"name", "values"}``, a value per category: ``(centre, low, high)`` (low and
    high may be None), or for ``kind="box"`` ``(p10, p25, median, p75, p90, mean)``; None leaves a gap.

    ``kind`` is ``bar`` (bars from 0 with interval whiskers), ``point`` (a marker with its interval), ``box``
    or ``line`` (points joined across the categories)."""
    n_cat, n_ser = max(1, len(categories)), max(1, len(series))
    values = [v for s in series for value in s["values"] if value is not None for v in value if v is not None]
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    if kind == "bar" or zero:
        low, high = min(low, 0.0), max(high, 0.0)
    ticks = _nice_ticks(low, high)
    v0, v1 = ticks[0], ticks[-1]
    label_room = max([len(c) for c in categories] + [4]) * 7 + 10 if horizontal else 60
    band = max(22, 12 * n_ser + 10) if horizontal else 0
    legend, legend_end = _legend([s["name"] for s in series], 20)
    top = legend_end + 20
    height = (n_cat * band + 50 + top) if horizontal else 340 + top
    left, right, bottom = label_room, WIDTH - 20, height - 45
    out = [(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="100%" '
            f'role="img" class="chart">'), *legend]

    def pos(v):   # value -> pixel along the value axis
        if horizontal:
            return left + (v - v0) / (v1 - v0) * (right - left)
        return bottom - (v - v0) / (v1 - v0) * (bottom - top)

    for t in ticks:
        p = pos(t)
        if horizontal:
            out.append(f'<line x1="{p:.1f}" y1="{top}" x2="{p:.1f}" y2="{bottom}" stroke="#e5e5e5"/>')
            out.append(_text(p, bottom + 16, fmt(t)))
        else:
            out.append(f'<line x1="{left}" y1="{p:.1f}" x2="{right}" y2="{p:.1f}" stroke="#e5e5e5"/>')
            out.append(_text(left - 6, p + 4, fmt(t), "end"))
    if zero or kind == "bar":
        p = pos(0.0)
        out.append(f'<line x1="{p:.1f}" y1="{top}" x2="{p:.1f}" y2="{bottom}" stroke="#333" stroke-dasharray="3 3"/>'
                   if horizontal else f'<line x1="{left}" y1="{p:.1f}" x2="{right}" y2="{p:.1f}" stroke="#333"/>')
    if axis:
        out.append(_text((left + right) / 2, height - 8, axis) if horizontal else
                   _text(14, (top + bottom) / 2, axis, extra=f'transform="rotate(-90 14 {(top + bottom) / 2:.1f})"'))
    slot = ((bottom - top) if horizontal else (right - left)) / n_cat
    for c, name in enumerate(categories):
        mid = (top if horizontal else left) + slot * (c + 0.5)
        out.append(_text(left - 6, mid + 4, name, "end") if horizontal else _text(mid, bottom + 16, name))
    width = min(40.0, slot * 0.8 / n_ser)
    for i, s in enumerate(series):
        colour = COLOURS[i % len(COLOURS)]
        line = []
        for c, value in enumerate(s["values"]):
            if value is None:
                continue
            centre = (top if horizontal else left) + slot * (c + 0.5)
            at = centre if kind == "line" else centre + (i - (n_ser - 1) / 2) * width
            out.append(_mark(kind, value, at, width, pos, horizontal, colour,
                             f"{s['name']}, {categories[c]}: {_describe(kind, value, fmt)}"))
            line.append((at, pos(value[0])))
        if kind == "line" and len(line) > 1:
            points = " ".join(f"{x:.1f},{y:.1f}" for x, y in line)
            out.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"/>')
    out.append("</svg>")
    return "".join(out)


def _describe(kind, value, fmt) -> str:
    if kind == "box":
        return "10–90% {} – {}, quartiles {} – {}, median {}, mean {}".format(*(fmt(v) for v in value))
    centre, low, high = value
    return fmt(centre) + (f" [{fmt(low)}, {fmt(high)}]" if low is not None and high is not None else "")


def _mark(kind, value, at, width, pos, horizontal, colour, tip) -> str:
    title = f"<title>{html.escape(tip)}</title>"

    def line(x1, y1, x2, y2, colour_, dash):
        return f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour_}"{dash}/>'

    def seg(a, b, across, colour_=colour, dash=""):   # a segment along the value axis at ``across``
        if horizontal:
            return line(pos(a), across, pos(b), across, colour_, dash)
        return line(across, pos(a), across, pos(b), colour_, dash)

    def cross(v, half, colour_=colour, dash=""):       # a segment across the value axis at value ``v``
        if horizontal:
            return line(pos(v), at - half, pos(v), at + half, colour_, dash)
        return line(at - half, pos(v), at + half, pos(v), colour_, dash)

    if kind == "box":
        p10, p25, median, p75, p90, mean = value
        a, b = sorted((pos(p25), pos(p75)))
        rect = (f'<rect x="{a:.1f}" y="{at - width / 2.5:.1f}" width="{b - a:.1f}" height="{width / 1.25:.1f}"'
                if horizontal else
                f'<rect x="{at - width / 2.5:.1f}" y="{a:.1f}" width="{width / 1.25:.1f}" height="{b - a:.1f}"')
        parts = [rect + f' fill="{colour}" fill-opacity="0.35" stroke="{colour}"/>', seg(p10, p25, at),
                 seg(p75, p90, at), cross(median, width / 2.5, "#222"),
                 cross(mean, width / 2.5, "#222", ' stroke-dasharray="3 2"'),
                 cross(p10, width / 5), cross(p90, width / 5)]
        return f'<g class="mark">{title}{"".join(parts)}</g>'
    centre, low, high = value
    parts = []
    if kind == "bar":
        a, b = sorted((pos(0.0), pos(centre)))
        parts.append(f'<rect x="{a:.1f}" y="{at - width / 2.5:.1f}" width="{b - a:.1f}" height="{width / 1.25:.1f}" '
                     f'fill="{colour}"/>' if horizontal else
                     f'<rect x="{at - width / 2.5:.1f}" y="{a:.1f}" width="{width / 1.25:.1f}" height="{b - a:.1f}" '
                     f'fill="{colour}"/>')
    if low is not None and high is not None:
        whisker = "#222" if kind == "bar" else colour
        parts += [seg(low, high, at, whisker), cross(low, 4, whisker), cross(high, 4, whisker)]
    if kind != "bar":
        x, y = (pos(centre), at) if horizontal else (at, pos(centre))
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="5" fill="{colour}"/>')
    return f'<g class="mark">{title}{"".join(parts)}</g>'
