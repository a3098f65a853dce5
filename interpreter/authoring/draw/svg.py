"""The board as a self-contained SVG document, written without Graphviz.

It draws the scene :mod:`interpreter.authoring.draw.scene` computes from the ruleset (boxes,
edges, containers, the legend) at the positions its layout gives.
"""
from __future__ import annotations

import html
import math

from .scene import Scene, layout, short_text, text_colour
from .style import (
    ATTACH_COLOUR,
    CHAR_W,
    CONTAINER_FILL,
    FONT,
    FONT_SIZE,
    LINE_H,
    MARGIN,
    MAX_LEGEND_FILLS,
    SVG_DASH,
    TITLE_H,
    XML_BAD,
)

# -- SVG ----------------------------------------------------------------------------


def _x(text) -> str:
    """Text or attribute value safe in XML."""
    return html.escape(XML_BAD.sub("", str(text)), quote=True)


def _n(v: float) -> str:
    return f"{v:.1f}"


def _clip(box, tx, ty, extra=0.0):
    """The point where the line from box's centre towards (tx, ty) leaves the box."""
    dx, dy = tx - box.x, ty - box.y
    if dx == 0 and dy == 0:
        return box.x, box.y
    t = min((box.w / 2 + extra) / abs(dx) if dx else math.inf, (box.h / 2 + extra) / abs(dy) if dy else math.inf)
    t = min(t, 1.0)
    return box.x + dx * t, box.y + dy * t


def _text_block(x, y, lines, colour="#000000", bold_first=True) -> str:
    top = y - (len(lines) * LINE_H) / 2 + LINE_H * 0.75
    spans = []
    for i, line in enumerate(lines):
        weight = ' font-weight="bold"' if i == 0 and bold_first else ""
        spans.append(f'<tspan x="{_n(x)}" y="{_n(top + i * LINE_H)}"{weight}>{_x(line)}</tspan>')
    return f'<text text-anchor="middle" fill="{colour}">' + "".join(spans) + "</text>"


def _line_attrs(style, colour, width=2.0) -> str:
    dash = SVG_DASH[style]
    return (f'stroke="{colour}" stroke-width="{width}"'
            + (f' stroke-dasharray="{dash}"' if dash else ""))


def to_svg(ruleset) -> str:
    """The board as a self-contained SVG document (no Graphviz needed)."""
    scene = Scene(ruleset)
    loose = layout(scene)
    drawn = scene.spaces + [c for c in scene.containers if c.attached]
    board_w = max((b.x + b.w / 2 for b in drawn), default=0.0)
    board_h = max((b.y + b.h / 2 for b in drawn), default=0.0)
    width = max(board_w, len(scene.title) * 9.0, 480.0)
    ox, oy = MARGIN, MARGIN + TITLE_H        # where the board's (0, 0) goes
    body = []

    # edges under the boxes
    arcs = {(a, b) for a, b, _, _ in scene.edges}
    marker_of: dict = {}
    for c in scene.containers:
        for t in c.attached:
            end = scene.by_id[t]
            x1, y1 = _clip(c, end.x, end.y)
            x2, y2 = _clip(end, c.x, c.y)
            body.append(f'<line class="attach" x1="{_n(x1 + ox)}" y1="{_n(y1 + oy)}" x2="{_n(x2 + ox)}" '
                        f'y2="{_n(y2 + oy)}" {_line_attrs("dashed", ATTACH_COLOUR, 1.2)}/>')
    for a, b, kind, one_way in scene.edges:
        style, colour = scene.kind_style[kind]
        ba, bb = scene.by_id[a], scene.by_id[b]
        data = f'class="edge" data-from="{_x(a)}" data-to="{_x(b)}" data-kind="{_x(kind)}"'
        if a == b:   # a loop: a small circle on the box's corner
            body.append(f'<circle {data} cx="{_n(ba.x + ba.w / 2 + ox)}" cy="{_n(ba.y - ba.h / 2 + oy)}" r="9" '
                        f'fill="none" {_line_attrs(style, colour)}><title>{_x(kind)}</title></circle>')
            continue
        x1, y1 = _clip(ba, bb.x, bb.y)
        x2, y2 = _clip(bb, ba.x, ba.y, 2.0 if one_way else 0.0)
        if (b, a) in arcs:   # arcs both ways that are drawn apart: keep them side by side
            length = math.hypot(bb.x - ba.x, bb.y - ba.y) or 1.0
            nx_, ny_ = -(bb.y - ba.y) / length * 4, (bb.x - ba.x) / length * 4
            x1, y1, x2, y2 = x1 + nx_, y1 + ny_, x2 + nx_, y2 + ny_
        marker = ""
        if one_way:
            marker_of.setdefault(colour, f"arrow{len(marker_of)}")
            marker = f' marker-end="url(#{marker_of[colour]})"'
        tip = f"{kind} (one way)" if one_way else kind
        body.append(f'<line {data} data-one-way="{str(one_way).lower()}" x1="{_n(x1 + ox)}" y1="{_n(y1 + oy)}" '
                    f'x2="{_n(x2 + ox)}" y2="{_n(y2 + oy)}" {_line_attrs(style, colour)}{marker}>'
                    f'<title>{_x(tip)}</title></line>')

    def box(b, rx=8):
        stroke = "#8a6d00" if b.container else "#333333"
        fill_text = "#000000" if b.container else text_colour(b.fill)
        cls = "container" if b.container else "space"
        return (f'<g class="{cls}" data-id="{_x(b.id)}"><title>{_x(b.tip)}</title>'
                f'<rect x="{_n(b.x - b.w / 2 + ox)}" y="{_n(b.y - b.h / 2 + oy)}" width="{_n(b.w)}" '
                f'height="{_n(b.h)}" rx="{rx}" fill="{b.fill}" stroke="{stroke}" stroke-width="1.2"/>'
                + _text_block(b.x + ox, b.y + oy, b.lines, fill_text) + "</g>")

    for b in drawn:
        body.append(box(b, 2 if b.container else 8))

    y = oy + board_h
    if not scene.space_ids:
        body.append(f'<text class="note" x="{_n(ox)}" y="{_n(y + 20)}" font-size="14">no board</text>')
        y += 30

    # containers that are attached to no space: a framed row (wrapping) under the board
    if loose:
        y += 24
        top = y
        x, row_h = 12.0, 0.0
        inner = []
        y_in = top + 22
        for c in loose:
            if x + c.w > width - 12 and x > 12:
                x, y_in = 12.0, y_in + row_h + 12
                row_h = 0.0
            inner.append((c, x, y_in))
            x += c.w + 12
            row_h = max(row_h, c.h)
        frame_h = y_in + row_h + 12 - top
        width = max(width, max(x for _, x, _ in inner) + 12)
        body.append(f'<g class="containers"><rect x="{_n(ox)}" y="{_n(top)}" width="{_n(width)}" '
                    f'height="{_n(frame_h)}" rx="6" fill="none" {_line_attrs("dashed", ATTACH_COLOUR, 1)}/>'
                    f'<text x="{_n(ox + 8)}" y="{_n(top + 15)}" fill="{ATTACH_COLOUR}">containers</text></g>')
        for c, bx, by in inner:   # box() adds (ox, oy) to the centre
            c.x, c.y = bx + c.w / 2, by + c.h / 2 - oy
            body.append(box(c, 2))
        y = top + frame_h

    # legend: samples that flow in rows
    items: list[tuple] = []   # ("line", text, style, colour, arrow) | ("fill", text, colour) | ("text", text)
    for kind in scene.kinds:
        style, colour = scene.kind_style[kind]
        items.append(("line", kind, style, colour, False))
    if any(e[3] for e in scene.edges):
        items.append(("line", "one way", "solid", "#444444", True))
    if any(not e[3] for e in scene.edges):
        items.append(("line", "both ways", "solid", "#444444", False))
    for text, colour in scene.fill_legend[:MAX_LEGEND_FILLS]:
        items.append(("fill", text, colour))
    if len(scene.fill_legend) > MAX_LEGEND_FILLS:
        items.append(("text", f"\u2026 {len(scene.fill_legend) - MAX_LEGEND_FILLS} more"))
    if scene.containers:
        items.append(("fill", "container (capacity)", CONTAINER_FILL))
    if any(c.attached for c in scene.containers):
        items.append(("line", "container attached to", "dashed", ATTACH_COLOUR, False))
    legend = []
    if items:
        y += 28
        legend.append(f'<text x="{_n(ox)}" y="{_n(y)}" font-weight="bold">legend</text>')
        x, y = 0.0, y + 12
        for item in items:
            label = short_text(item[1], 40)
            w = 44 + len(label) * CHAR_W + 20
            if x + w > width and x > 0:
                x, y = 0.0, y + 20
            sx, sy = ox + x, y + 8
            if item[0] == "line":
                _, _, style, colour, arrow = item
                if arrow:
                    marker_of.setdefault(colour, f"arrow{len(marker_of)}")
                marker = f' marker-end="url(#{marker_of[colour]})"' if arrow else ""
                legend.append(f'<line x1="{_n(sx)}" y1="{_n(sy)}" x2="{_n(sx + 34)}" y2="{_n(sy)}" '
                              f'{_line_attrs(style, colour)}{marker}/>')
            elif item[0] == "fill":
                legend.append(f'<rect x="{_n(sx + 8)}" y="{_n(sy - 7)}" width="20" height="14" rx="3" '
                              f'fill="{item[2]}" stroke="#333333" stroke-width="0.8"/>')
            legend.append(f'<text x="{_n(sx + 42)}" y="{_n(sy + 4)}">{_x(label)}</text>')
            x += w
        y += 20
    body.extend(legend)

    total_w = width + 2 * MARGIN
    total_h = y + MARGIN
    markers = "".join(
        f'<marker id="{mid}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" '
        f'orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>'
        for colour, mid in marker_of.items())
    head = (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(total_w)}" height="{_n(total_h)}" '
            f'viewBox="0 0 {_n(total_w)} {_n(total_h)}" font-family="{FONT}" font-size="{FONT_SIZE}">\n'
            f'<title>{_x(scene.title)}</title>\n<defs>{markers}</defs>\n'
            f'<rect width="100%" height="100%" fill="#ffffff"/>\n'
            f'<text x="{_n(MARGIN)}" y="{_n(MARGIN + 6)}" font-size="16" font-weight="bold">{_x(scene.title)}</text>\n')
    return head + "\n".join(body) + "\n</svg>\n"
