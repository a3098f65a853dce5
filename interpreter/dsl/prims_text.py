"""Narration: ``log`` and the holes in its text.

A ruleset's text is never handed to ``str.format``: :func:`fill_holes` knows
only ``{}``, ``{0}`` and doubled braces.
"""
from __future__ import annotations

import re

from ..errors import GameError
from .primitives import _shown, primitive

_HOLE = re.compile(r"\{\{|\}\}|\{(\d*)\}|[{}]")


def fill_holes(template: str, values: list, loc) -> str:
    """``template`` with each ``{}`` (or ``{0}``, ``{1}``) replaced by a value; ``{{`` and ``}}`` are braces.

    Nothing else: no attribute or index access, no width or format spec, so a
    ruleset's text can neither reach Python objects nor ask for a huge string.
    """
    out, pos, auto = [], 0, 0
    for m in _HOLE.finditer(template):
        out.append(template[pos:m.start()])
        pos = m.end()
        token = m.group(0)
        if token in ("{{", "}}"):
            out.append(token[0])
            continue
        if m.group(1) is None:
            raise GameError(f"log(): a lone '{token}' in the text; write {{{{ or }}}} for a brace, {{}} for a value",
                            loc)
        index = int(m.group(1)) if m.group(1) else auto
        auto += not m.group(1)
        if index >= len(values):
            raise GameError(f"log(): the text has a hole for value {index + 1} but {len(values)} "
                            f"value{'s were' if len(values) != 1 else ' was'} given", loc)
        out.append(values[index])
    out.append(template[pos:])
    return "".join(out)


@primitive(effect=True)
def log(g, loc, message, *args):
    """log("text {} and {}", a, b): a line of narration; each {} is filled with the next value."""
    if not g.record:   # narration only: nothing to do when no one reads the log
        return
    text = str(message) if not args else fill_holes(str(message), [_shown(g, a) for a in args], loc)
    g.emit({"e": "log", "text": text})
