"""``davit draw``: the board graph as DOT text, a self-contained SVG, or a PNG.

The scene (what to draw and where) is computed once from the compiled ruleset
(:mod:`.scene`); :mod:`.dot` and :mod:`.svg` write it out, :mod:`.files`
chooses the format from a file name.
"""
from .dot import to_dot
from .files import draw_main, write_drawing
from .style import NAMED_COLOURS
from .svg import to_svg

__all__ = ["NAMED_COLOURS", "draw_main", "to_dot", "to_svg", "write_drawing"]
