"""Drawing the board graph: Graphviz DOT text, a self-contained SVG, or a PNG.

``davit draw RULESET [-o FILE]`` shows a ruleset's board as a picture:

* every space is a rounded box labelled with its name and its main attributes,
  filled from an attribute named ``colour``/``color`` when it holds a colour
  (a common name or ``#rrggbb``), otherwise with one colour per distinct value
  of the board's first attribute;
* two-way edges are plain lines, one-way edges are arrows, and each edge kind
  has its own line style and colour, explained in a legend;
* containers (non-space zones with a capacity or seats) are boxes with their
  capacity; a container whose ``attrs`` name a space under ``access``,
  ``attached_to`` or ``beside`` (one id or a list) is drawn next to that space
  with a dashed line to it, the others are gathered under "containers".

Spaces are placed at their ``pos: [x, y]`` (x to the right, y upwards) when
every space has one; otherwise a spring layout is computed. The DOT text
needs nothing to produce; the SVG is written here, without Graphviz; PNG is
rendered by Graphviz's ``dot`` program when it is installed.

Nothing in this package knows any game: all of it is read from the compiled ruleset.
"""
from __future__ import annotations

import colorsys
import math
import re

from .style import (
    ATTACH_KEYS,
    CHAR_W,
    COLOUR_KEYS,
    CONTAINER_FILL,
    DEFAULT_FILL,
    GAP,
    KIND_COLOURS,
    KIND_STYLES,
    LINE_H,
    MAX_LABEL_ATTRS,
    NAMED_COLOURS,
    NOT_SHOWN,
    PAD,
    VALUE_PALETTE,
)


class _Box:
    """A space or a container to draw: id, label lines, fill, size, place."""

    __slots__ = ("id", "lines", "fill", "tip", "w", "h", "x", "y", "container", "attached")

    def __init__(self, id, lines, fill, tip, container=False, attached=()):
        self.id, self.lines, self.fill, self.tip = id, lines, fill, tip
        self.container, self.attached = container, list(attached)
        self.w = max(60.0, max(len(line) for line in lines) * CHAR_W + 2 * PAD)
        self.h = len(lines) * LINE_H + PAD
        self.x = self.y = 0.0


class Scene:
    def __init__(self, ruleset):
        self.title = _title(ruleset)
        board = getattr(ruleset, "board", None)
        graph = getattr(board, "graph", None)
        zones = getattr(ruleset, "zones", {}) or {}
        self.space_ids = [str(n) for n in graph.nodes] if graph is not None else []
        self.graph = graph
        attrs = {n: _space_attrs(graph, zones, n) for n in self.space_ids}
        self.fills, self.fill_legend = _fills(self.space_ids, attrs)
        self.spaces = []
        for n in self.space_ids:
            zone = zones.get(n)
            name = str(getattr(zone, "name", "") or n)
            lines = [short_text(name)] + [short_text(f"{k}: {_fmt(v)}") for k, v in _shown_attrs(attrs[n])]
            capacity = getattr(zone, "capacity", None)
            if capacity is not None:
                lines.append(f"capacity {capacity}")
            tip = "; ".join([n] + [f"{k}: {_fmt(v)}" for k, v in attrs[n].items() if k != "pos"])
            self.spaces.append(_Box(n, lines, self.fills[n], tip))
        self.by_id = {b.id: b for b in self.spaces}
        self.edges = _edges(graph) if graph is not None else []
        self.kinds: list = []
        for _, _, kind, _ in self.edges:
            if kind not in self.kinds:
                self.kinds.append(kind)
        self.kind_style = {k: (KIND_STYLES[i % len(KIND_STYLES)], KIND_COLOURS[i % len(KIND_COLOURS)])
                           for i, k in enumerate(self.kinds)}
        self.containers = _containers(zones, set(self.space_ids))
        self.positions = _given_positions(zones, self.space_ids)

    @property
    def pinned(self) -> bool:
        return self.positions is not None and bool(self.space_ids)


def _title(ruleset) -> str:
    name = " ".join(str(getattr(ruleset, "name", "") or getattr(ruleset, "id", "") or "board").split())
    variant = getattr(ruleset, "variant", None)
    return f"{name} (variant {variant})" if variant else name


def _space_attrs(graph, zones, n) -> dict:
    attrs = dict(graph.nodes[n]) if graph is not None and n in graph else {}
    zone = zones.get(n)
    for k, v in (getattr(zone, "attrs", None) or {}).items():
        attrs.setdefault(k, v)
    return attrs


def _is_scalar(v) -> bool:
    return isinstance(v, (str, int, float, bool)) or v is None


def _fmt(v) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (list, tuple)):
        return ", ".join(_fmt(x) for x in v)
    if isinstance(v, dict):
        return ", ".join(f"{k}={_fmt(x)}" for k, x in v.items())
    return str(v)


def short_text(text: str, limit: int = 30) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def _shown_attrs(attrs: dict) -> list:
    shown = [(k, v) for k, v in attrs.items()
             if k not in NOT_SHOWN and (_is_scalar(v) or (isinstance(v, (list, tuple)) and len(v) <= 4))]
    if len(shown) > MAX_LABEL_ATTRS:
        shown = shown[:MAX_LABEL_ATTRS] + [("\u2026", f"{len(shown) - MAX_LABEL_ATTRS} more")]
    return shown


def _named_colour(value) -> str | None:
    if not isinstance(value, str):
        return None
    text = value.strip().lower()
    if text in NAMED_COLOURS:
        return NAMED_COLOURS[text]
    if re.fullmatch(r"#[0-9a-f]{6}", text):
        return text
    if re.fullmatch(r"#[0-9a-f]{3}", text):
        return "#" + "".join(c * 2 for c in text[1:])
    return None


def _value_colour(i: int) -> str:
    if i < len(VALUE_PALETTE):
        return VALUE_PALETTE[i]
    hue = (i * 0.618033988749895) % 1.0   # golden-angle steps keep many colours apart
    r, g, b = colorsys.hls_to_rgb(hue, 0.78, 0.55)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def _fills(space_ids, attrs):
    """Fill colour per space, and the legend entries (text, colour) in order of first use."""
    first_key = None
    for n in space_ids:
        for k, v in attrs[n].items():
            if k not in NOT_SHOWN and _is_scalar(v) and v is not None:
                first_key = k
                break
        if first_key is not None:
            break
    fills: dict = {}
    legend: dict = {}
    by_value: dict = {}
    for n in space_ids:
        a = attrs[n]
        colour_key = next((k for k in COLOUR_KEYS if k in a and a[k] is not None), None)
        colour = _named_colour(a[colour_key]) if colour_key else None
        if colour_key and colour is None:
            # a colour attribute with a name we do not know: one fill per value still tells them apart
            key = (colour_key, _fmt(a[colour_key]))
            colour = by_value.setdefault(key, _value_colour(len(by_value)))
        if colour_key:
            legend.setdefault(f"{colour_key}: {_fmt(a[colour_key])}", colour)
        elif first_key is not None and first_key in a:
            key = (first_key, _fmt(a[first_key]))
            colour = by_value.setdefault(key, _value_colour(len(by_value)))
            legend.setdefault(f"{first_key}: {_fmt(a[first_key])}", colour)
        else:
            colour = DEFAULT_FILL
        fills[n] = colour
    return fills, list(legend.items())


def text_colour(fill: str) -> str:
    r, g, b = (int(fill[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return "#ffffff" if 0.299 * r + 0.587 * g + 0.114 * b < 0.5 else "#000000"


def _edges(graph) -> list:
    """(a, b, kind, one_way) once per drawn edge: a two-way edge (two arcs) once."""
    out, seen = [], set()
    for a, b, d in graph.edges(data=True):
        a, b = str(a), str(b)
        kind = str(d.get("kind", "path"))
        one_way = bool(d.get("one_way"))
        if not one_way:
            back = graph.get_edge_data(b, a) if graph.has_edge(b, a) else None
            if back is not None and not back.get("one_way"):
                key = (frozenset((a, b)), kind)
                if key in seen:
                    continue
                seen.add(key)
        out.append((a, b, kind, one_way))
    return out


def _attach_targets(attrs: dict) -> list:
    targets = []
    for key in ATTACH_KEYS:
        value = (attrs or {}).get(key)
        if value is None:
            continue
        for v in (value if isinstance(value, (list, tuple)) else [value]):
            if str(v) not in targets:
                targets.append(str(v))
    return targets


def _containers(zones, space_ids) -> list:
    """Boxes for zones with a capacity or seats (or an attachment) that are not spaces."""
    out = []
    for zid, zone in zones.items():
        if getattr(zone, "kind", "zone") == "space" or zid in space_ids or zid == "box":
            continue
        attrs = getattr(zone, "attrs", None) or {}
        targets = _attach_targets(attrs)
        capacity, seats = getattr(zone, "capacity", None), getattr(zone, "seats", None)
        if capacity is None and not seats and not targets:
            continue
        if getattr(zone, "per_player", False) and not targets:
            continue   # a player's hand with a limit is not a place on the board
        lines = [short_text(str(getattr(zone, "name", "") or zid))]
        lines.append(f"capacity {capacity}" if capacity is not None else "no limit")
        if seats:
            lines.append(short_text("seats: " + ", ".join(_fmt(s) for s in seats), 36))
        attached = [t for t in targets if t in space_ids]
        for t in targets:
            if t not in space_ids:
                lines.append(short_text(f"at {t}"))
        tip = "; ".join([zid] + [f"{k}: {_fmt(v)}" for k, v in attrs.items()])
        out.append(_Box(str(zid), lines, CONTAINER_FILL, tip, container=True, attached=attached))
    return out


def _given_positions(zones, space_ids):
    """{space: (x, y)} when every space has a numeric ``pos``, else None."""
    positions = {}
    for n in space_ids:
        pos = (getattr(zones.get(n), "attrs", None) or {}).get("pos")
        if (not isinstance(pos, (list, tuple)) or len(pos) != 2
                or not all(isinstance(c, (int, float)) and not isinstance(c, bool) for c in pos)):
            return None
        positions[n] = (float(pos[0]), -float(pos[1]))   # y grows upwards in the YAML, downwards on screen
    return positions


# -- layout (shared by the SVG and by the pinned DOT) -------------------------------


def _raw_positions(scene) -> dict:
    if scene.positions is not None:
        return dict(scene.positions)
    graph = scene.graph
    try:
        import networkx as nx
        layout = nx.spring_layout(graph, seed=1)
        return {str(n): (float(p[0]), float(p[1])) for n, p in layout.items()}
    except ImportError:   # spring_layout needs numpy (and scipy for big graphs): fall back to a circle
        n = len(scene.space_ids)
        return {s: (math.cos(2 * math.pi * i / n), math.sin(2 * math.pi * i / n))
                for i, s in enumerate(scene.space_ids)}


def _scale(raw, boxes) -> float:
    """The smallest scale at which no two space boxes overlap (within limits)."""
    ids = list(raw)
    n = len(ids)
    if n < 2:
        return 1.0
    xs = [raw[i][0] for i in ids]
    ys = [raw[i][1] for i in ids]
    extent = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
    s_max = max(1200.0, 160.0 * math.sqrt(n)) / extent
    if n > 1500:
        return s_max
    need = 0.0
    for i in range(n):
        xi, yi = raw[ids[i]]
        bi = boxes[ids[i]]
        for j in range(i + 1, n):
            xj, yj = raw[ids[j]]
            bj = boxes[ids[j]]
            dx, dy = abs(xi - xj), abs(yi - yj)
            if dx == 0 and dy == 0:
                continue   # the same place: they overlap at any scale
            sx = ((bi.w + bj.w) / 2 + GAP) / dx if dx else math.inf
            sy = ((bi.h + bj.h) / 2 + GAP) / dy if dy else math.inf
            need = max(need, min(sx, sy))
            if need >= s_max:
                return s_max
    return need or 1.0


def _edge_scale(raw, boxes, edges) -> float:
    """The median over the edges of the scale at which its two boxes stand GAP apart."""
    needs = []
    for a, b, _, _ in edges:
        dx, dy = abs(raw[a][0] - raw[b][0]), abs(raw[a][1] - raw[b][1])
        if dx or dy:
            sx = ((boxes[a].w + boxes[b].w) / 2 + GAP) / dx if dx else math.inf
            sy = ((boxes[a].h + boxes[b].h) / 2 + GAP) / dy if dy else math.inf
            needs.append(min(sx, sy))
    if not needs:
        return _scale(raw, boxes)
    needs.sort()
    return needs[len(needs) // 2]


def _spread(boxes, room=16.0, rounds=100) -> None:
    """Push overlapping boxes apart (along the axis where they overlap least) until none overlap."""
    for _ in range(rounds):
        moved = False
        order = sorted(boxes, key=lambda b: (b.x, b.y))
        widest = max((b.w for b in boxes), default=0.0)
        for i, a in enumerate(order):
            for b in order[i + 1:]:
                if b.x - a.x >= (a.w + widest) / 2 + room:
                    break   # sorted by x: nothing further right can touch a
                dx, dy = b.x - a.x, b.y - a.y
                over_x = (a.w + b.w) / 2 + room - abs(dx)
                over_y = (a.h + b.h) / 2 + room - abs(dy)
                if over_x <= 0 or over_y <= 0:
                    continue
                moved = True
                if over_x * 0.5 < over_y:   # boxes are wider than tall: moving sideways costs double
                    step = over_x / 2 + 0.5
                    a.x, b.x = (a.x - step, b.x + step) if dx >= 0 else (a.x + step, b.x - step)
                else:
                    step = over_y / 2 + 0.5
                    a.y, b.y = (a.y - step, b.y + step) if dy >= 0 else (a.y + step, b.y - step)
        if not moved:
            return


def _overlaps(x, y, w, h, boxes, margin=10.0) -> bool:
    for b in boxes:
        if abs(x - b.x) < (w + b.w) / 2 + margin and abs(y - b.y) < (h + b.h) / 2 + margin:
            return True
    return False


def layout(scene):
    """Place spaces and attached containers (box centres, px); return the unattached containers."""
    raw = _raw_positions(scene) if scene.space_ids else {}
    if scene.positions is not None or not scene.edges:
        s = _scale(raw, scene.by_id)   # the designer's grid, just wide enough for the boxes
    else:   # a computed layout: neighbours at a comfortable distance; _spread() undoes the overlaps
        s = _edge_scale(raw, scene.by_id, scene.edges)
    for b in scene.spaces:
        b.x, b.y = raw[b.id][0] * s, raw[b.id][1] * s
    _spread(scene.spaces)
    placed = list(scene.spaces)
    loose = []
    dirs = [(0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (-1, -1), (1, 1), (-1, 1)]
    for c in scene.containers:
        if not c.attached:
            loose.append(c)
            continue
        ends = [scene.by_id[t] for t in c.attached]
        cx = sum(e.x for e in ends) / len(ends)
        cy = sum(e.y for e in ends) / len(ends)
        wide = max([c.w] + [e.w for e in ends])
        high = max([c.h] + [e.h for e in ends])
        spot = None
        for k in range(1, 9):
            for dx, dy in dirs:
                x, y = cx + dx * k * (wide + 20) * 0.75, cy + dy * k * (high + 20)
                if not _overlaps(x, y, c.w, c.h, placed):
                    spot = (x, y)
                    break
            if spot:
                break
        c.x, c.y = spot or (cx, cy - 9 * (high + 20))
        placed.append(c)
    if placed:   # move everything so that the top-left corner is at (0, 0)
        x0 = min(b.x - b.w / 2 for b in placed)
        y0 = min(b.y - b.h / 2 for b in placed)
        for b in placed:
            b.x -= x0
            b.y -= y0
    return loose
