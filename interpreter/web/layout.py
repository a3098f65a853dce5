"""Where the web table draws a ruleset's board: the layout ``davit draw`` computes, with boxes sized for pieces.

The positions come from :func:`interpreter.authoring.draw.scene.layout` (declared
``pos:`` or a computed spring layout), one source for both drawings. A box on
the web shows the space's name and a row for the pieces on it, not the
attribute lines of ``davit draw`` (those are in its tooltip), so a board of a
hundred rooms still fits a screen. Everything here is the ruleset's, the same
for every seat: no game state.
"""
from __future__ import annotations

import textwrap
from itertools import pairwise

from ..authoring.draw.scene import Scene, _Box, layout, short_text, text_colour
from ..authoring.draw.style import CHAR_W, CONTAINER_FILL, NAMED_COLOURS, PAD, SVG_DASH

NAME_CHARS = 18        # a space's name is cut to this on the board (the tooltip has it whole)
PIECE_ROW = 20         # px below the name where the pieces stand
MARGIN = 12
# a seat's colour when its name is not a colour (seat order)
SEAT_PALETTE = ["#d32f2f", "#1976d2", "#388e3c", "#f9a825", "#7b1fa2", "#ef6c00", "#00838f", "#5d4037"]


def seat_colours(names: list) -> list:
    """A colour per seat: its name when the name is a colour (a seat called "red"), else the palette's."""
    out = []
    for i, name in enumerate(names):
        word = str(name).strip().lower()
        colour = NAMED_COLOURS.get(word)
        out.append(colour if colour and colour not in out else SEAT_PALETTE[i % len(SEAT_PALETTE)])
    return out


def name_lines(name: str) -> list:
    """A space's name in at most two lines of NAME_CHARS, broken between words (the tooltip has it whole)."""
    lines = textwrap.wrap(" ".join(str(name).split()), NAME_CHARS) or [str(name)]
    if len(lines) > 2:
        lines = [lines[0], " ".join(lines[1:])]
    return [short_text(line, NAME_CHARS) for line in lines]


def _close_rows(boxes, room: float = 14.0) -> None:
    """Bring the rows of a board nearer when they stand further apart than the boxes need.

    The shared layout scales a designer's grid evenly, as wide as its widest row
    needs; the web boxes are low, so the rows would stand far apart (a board of
    many decks made a page taller than a screen). Only y changes, by one factor, so
    the order and alignment of every row stay as declared."""
    rows = sorted({round(b.y, 1) for b in boxes})
    gaps = [b - a for a, b in pairwise(rows) if b - a > 1.0]
    if not gaps:
        return
    need = max(b.h for b in boxes) + room
    factor = need / min(gaps)
    if factor >= 1.0:
        return
    for b in boxes:
        b.y *= factor
    top = min(b.y - b.h / 2 for b in boxes)
    for b in boxes:
        b.y -= top


def placed_zones(ruleset) -> dict:
    """{zone: (x, y)} of the zones the ``display:`` section places on the board (``at:``)."""
    display = ruleset.display
    return {e.zone: e.at for e in display.zones if e.at is not None} if display is not None else {}


def board_layout(ruleset) -> dict | None:
    """The board as the page draws it: spaces and attached containers (boxes in px), edges; None: no board."""
    scene = Scene(ruleset)
    if not scene.space_ids:
        return None
    placed = placed_zones(ruleset)
    if placed and scene.positions is not None:   # the display section puts these zones on the board
        for zid, (x, y) in placed.items():
            if zid in scene.by_id:
                continue
            placed_box = _Box(zid, [zid], CONTAINER_FILL, ruleset.zones[zid].name, container=True)
            scene.spaces.append(placed_box)
            scene.by_id[zid] = placed_box
            scene.positions[zid] = (x, -y)   # y grows upwards, as in pos
        scene.containers = [c for c in scene.containers if c.id not in placed]
    for b in scene.spaces + scene.containers:
        zone = ruleset.zones.get(b.id)
        b.lines = name_lines(str(getattr(zone, "name", "") or b.id))
        b.w = max(64.0, max(len(line) for line in b.lines) * CHAR_W + 2 * PAD)
        b.h = len(b.lines) * 12 + PAD + PIECE_ROW
    layout(scene)
    drawn = scene.spaces + [c for c in scene.containers if c.attached]
    _close_rows(drawn)
    width = max(b.x + b.w / 2 for b in drawn) + 2 * MARGIN
    height = max(b.y + b.h / 2 for b in drawn) + 2 * MARGIN
    zones = ruleset.zones

    def box(b) -> dict:
        zone = zones.get(b.id)
        return {"id": b.id, "name": b.lines, "tip": b.tip, "x": round(b.x - b.w / 2 + MARGIN, 1),
                "y": round(b.y - b.h / 2 + MARGIN, 1), "w": round(b.w, 1), "h": round(b.h, 1),
                "fill": b.fill, "ink": "#000000" if b.container else text_colour(b.fill),
                "container": b.container, "capacity": getattr(zone, "capacity", None),
                "attached": list(b.attached)}

    return {"width": round(width, 1), "height": round(height, 1),
            "spaces": [box(b) for b in drawn],
            "edges": [{"a": a, "b": b, "one_way": one_way, "colour": scene.kind_style[kind][1],
                       "dash": SVG_DASH[scene.kind_style[kind][0]] or ""}
                      for a, b, kind, one_way in scene.edges],
            "legend": [{"text": t, "fill": f} for t, f in scene.fill_legend[:12]]}
