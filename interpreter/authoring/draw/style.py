"""Colours, fonts and sizes shared by the board drawings (DOT and SVG)."""
from __future__ import annotations

import re

NAMED_COLOURS = {
    "red": "#e57373", "green": "#81c784", "blue": "#64b5f6", "yellow": "#fff176",
    "black": "#212121", "white": "#ffffff", "grey": "#bdbdbd", "gray": "#bdbdbd",
    "purple": "#9575cd", "orange": "#ffb74d", "pink": "#f48fb1", "brown": "#a1887f",
    "cyan": "#4dd0e1", "teal": "#4db6ac", "gold": "#ffd54f", "silver": "#cfd8dc",
    "navy": "#3f51b5", "beige": "#efe6cf",
}
# fills for the values of an attribute (pastel, so that black text stays readable)
VALUE_PALETTE = ["#a6cee3", "#b2df8a", "#fb9a99", "#fdbf6f", "#cab2d6", "#ffff99", "#8dd3c7",
                 "#bebada", "#80b1d3", "#fccde5", "#ccebc5", "#ffed6f", "#bc80bd", "#d9d9d9"]
DEFAULT_FILL = "#eeeeee"
CONTAINER_FILL = "#fff3c4"
ATTACH_COLOUR = "#777777"
# edge kinds: line colour x line style; 7 colours and 3 styles give 21 distinct pairs
KIND_COLOURS = ["#1f4e79", "#c0392b", "#2e7d32", "#8e44ad", "#d35400", "#00838f", "#6d4c41"]
KIND_STYLES = ["solid", "dashed", "dotted"]
SVG_DASH = {"solid": None, "dashed": "8,5", "dotted": "2,4"}
DOT_SAMPLE = {"solid": "\u2501\u2501\u2501\u2501", "dashed": "\u2501 \u2501 \u2501",
              "dotted": "\u00b7 \u00b7 \u00b7 \u00b7 \u00b7"}

ATTACH_KEYS = ("access", "attached_to", "beside")
COLOUR_KEYS = ("colour", "color")
NOT_SHOWN = {"pos", "name", "label", "description", *COLOUR_KEYS}  # never listed in a space's label
MAX_LABEL_ATTRS = 4
MAX_LEGEND_FILLS = 24
FONT = "Helvetica,Arial,sans-serif"

# -- SVG geometry (px) ------------------------------------------------------------

FONT_SIZE = 11
CHAR_W = 6.4          # average width of a character at FONT_SIZE
LINE_H = 14
PAD = 8
GAP = 40              # the least room between two space boxes
MARGIN = 30
TITLE_H = 34

XML_BAD = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
