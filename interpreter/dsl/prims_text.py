"""Narration: ``log`` and the holes in its text.

A ruleset's text is never handed to ``str.format``: :func:`fill_holes` knows
only ``{}``, ``{0}`` and doubled braces.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..errors import GameError
from ..machine.values import PlayerRef, type_name
from .primitives import _shown, primitive

if TYPE_CHECKING:
    from ..machine.host import GameHost

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


@primitive(effect=True, narration=True)
def log(g: GameHost, loc, message, *args, to=None):
    """log("text {} and {}", a, b): a line of narration; each {} is filled with the next value.

    A line that names a thing is read only by the seats that may see that thing
    where it lies now; ``to=player`` (or a list of players) narrows it further.
    """
    if not g.record:   # narration only: nothing to do when no one reads the log
        return
    text = str(message) if not args else fill_holes(str(message), [_shown(g, a) for a in args], loc)
    event: dict[str, Any] = {"e": "log", "text": text}
    only = g.seers_of(args)
    if to is not None:
        readers = to if isinstance(to, list) else [to]
        if not all(isinstance(p, PlayerRef) for p in readers):
            raise GameError(f"log(..., to=) needs a player or a list of players, got {type_name(to)}", loc)
        seats = sorted({p.seat for p in readers})
        only = seats if only is None else [s for s in only if s in seats]
    if only is not None:
        event["only"] = only
    g.emit(event)
