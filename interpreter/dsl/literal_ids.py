"""Built-ins called with a literal id: checked when compiled, and ``thing(...)`` looked up without a text.

``thing("x")``, ``zone("x")`` and ``space("x")`` with a literal id that no
thing or zone of the ruleset has are refused at the id's place
(:func:`check_ids`).

``thing("pawn", p)`` names p's own copy of a per-player thing, ``pawn@2`` for
seat 2. The built-in builds that id as a new text at every call and hashes
it to look it up; rules ask for a player's pawn many times a move. Where the
id is a literal, :func:`thing_of_seat` makes the id of every seat once, when
the ruleset is compiled, and the call only looks it up. ``thing("door")``
becomes the table's own lookup in the generated code. Which things a table
has depends on its player count, and one compiled ruleset serves every
count, so the lookup is made in the table of the game that runs the code
(``g.table``), never resolved ahead. Whatever the lookup does not find (no
such thing at this player count, or a second argument that is not a
player) goes to the built-in itself, which raises its own error at the
call's ``file:line:col``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import DslError, did_you_mean
from ..load.limits import MAX_PLAYERS
from ..machine.values import PlayerRef
from . import ast
from .primitives import thing

if TYPE_CHECKING:
    from ..machine.host import GameHost


def check_ids(gen, n: ast.Call, name: str) -> None:
    """``thing("x")``, ``zone("x")``: a literal id must exist."""
    if name in ("thing", "zone", "space") and n.args and isinstance(n.args[0], ast.Const) \
            and isinstance(n.args[0].value, str) and not (name == "zone" and len(n.args) > 1):
        known = gen.env.thing_ids if name == "thing" else gen.env.zone_ids
        wanted = n.args[0].value
        if name == "thing" and len(n.args) > 1:   # thing("pawn", p): a per-player thing (pawn@0, pawn@1, ...)
            mine = {tid.rpartition("@")[0] for tid in known if tid.endswith("@0")}
            if known and wanted not in mine:
                raise DslError(f"no per-player thing has the id '{wanted}'", gen.sn.loc(n.args[0]),
                               did_you_mean(wanted, mine), code="unknown-reference")
            return
        if known and wanted not in known:
            raise DslError(f"no {'thing' if name == 'thing' else 'zone or space'} has the id '{wanted}'",
                           gen.sn.loc(n.args[0]), did_you_mean(wanted, known), code="unknown-reference")


def literal_thing(gen, n: ast.Call) -> str | None:
    """The source of ``thing(<literal id>)`` or ``thing(<literal id>, <player>)`` written out, or None for any
    other call (or with the fast paths off: no layout)."""
    if gen.env.layout is None or n.kwargs or not 1 <= len(n.args) <= 2 or not isinstance(n.args[0], ast.Const) \
            or n.args[0].value.__class__ is not str:
        return None
    wanted = n.args[0].value
    where = gen.bind(gen.sn.loc(n), "_l")
    if len(n.args) == 1:
        # a thing is never false (no __bool__ nor __len__): the built-in is called only when none is found
        code = f"({gen.container('g.table.things')}.get({wanted!r}) or {gen.bind(thing)}(g, {where}, {wanted!r}))"
    else:
        code = _of_seat(gen, wanted, where, gen.expr(n.args[1]))
    return code   # (a thing: the built-in answers one or raises)


def _of_seat(gen, wanted: str, where: str, who: str) -> str:
    """``thing(wanted, <who>)`` written out: the id of each seat's copy made once (:func:`thing_of_seat`), the
    player's looked up in the table with no call; the built-in called for what that does not find (no such
    thing at this player count, or no player). ``who`` is used again: kept by ``:=`` at its class test, where
    Python allows it (not in a comprehension's iterable: there :func:`thing_of_seat`'s function is called)."""
    find = thing_of_seat(wanted)
    if not who.isidentifier():
        if gen.iterable:
            return f"{gen.bind(find)}(g, {where}, {who})"
        kept = gen.fresh("_w")
        first, who = f"({kept} := {who})", kept
    else:
        first = who
    things, ids = gen.container("g.table.things"), gen.bind(find.ids, "_k")
    return f"(({things}.get({ids}[{who}.seat]) if {first}.__class__ is _PR else None) or " \
           f"{gen.bind(thing)}(g, {where}, {wanted!r}, {who}))"


def thing_of_seat(wanted: str):
    """``find(g, loc, player)``: ``thing(wanted, player)``, with the id of each seat's copy made once."""
    ids = tuple(f"{wanted}@{seat}" for seat in range(MAX_PLAYERS))   # a player's seat is below the player count

    def find(g: GameHost, loc, player):   # (generated code looks ``ids`` up itself where it can: _of_seat)
        if player.__class__ is PlayerRef:
            try:   # (costs nothing unless raised: a thing this table lacks)
                return g.table.things[ids[player.seat]]
            except KeyError:
                pass
        return thing(g, loc, wanted, player)   # no such thing here, or no player: the built-in's error
    find.ids = ids   # type: ignore[attr-defined]
    return find
