"""A ruleset's ``display:`` section, compiled once: what each seat's status shows.

The status is what a person reads at the terminal and on the web page between
decisions. Without a ``display:`` section every variable and zone is shown
(:attr:`Ruleset.display` is None); with one, only what it lists, in its
order and its words. Every name it uses is checked here, at build time, so a
misspelt counter is a located error, not a silently empty line.

A global counter may be a DSL expression instead of a variable
(``{label: ..., value: EXPRESSION}``): compiled once here, type-checked and
pure (it cannot change the game), and worked out each time the status or a
phase heading is made. It is read by every seat, as a global variable is, and
it reads the whole game: it must say only what every player may know. Names
that only one seat or nobody may read (a player counter kept for its owner) are
refused here; what a function it calls reads is the author's care.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from ..dsl import ast
from ..dsl.parser import parse
from ..errors import DavitError, did_you_mean


@dataclass(frozen=True)
class CounterShow:
    """A global or per-player counter in the status."""
    name: str
    label: str
    owner_only: bool = False        # a player's counter only its own seat reads
    value: Any = None               # a global counter worked out from an expression: fn(game, locals)


@dataclass(frozen=True)
class ZoneShow:
    """A zone in the status (``zone`` None: every occupied board space)."""
    zone: str | None
    label: str | None = None        # None: the zone's own name; ``{owner}``: the owning player's name
    owner_only: bool = False        # a per-player zone: only its owner's copy, and only to that seat
    count_only: bool = False        # how many things, not which
    show: tuple = ()                # (attribute, words or None) printed after a visible thing's name
    props: tuple = ()               # (zone property, words) printed after the zone's name
    hide_empty: bool = False        # left out while empty
    own_things: bool | str = False  # only the reading seat's own things (a name: the property holding the seat)
    at: tuple | None = None         # (x, y): drawn on the web table's board there, in the units of the spaces' pos


@dataclass(frozen=True)
class Display:
    counters: tuple = ()            # CounterShow of global variables
    player: tuple = ()              # CounterShow of each player's counters
    zones: tuple = ()               # ZoneShow
    texts: dict = field(default_factory=dict)   # thing definition id -> its description (a card's text)


def build_display(spec, rs, error, compiler=None) -> Display | None:
    """``spec`` (the merged ``display:`` mapping or None) checked against ``rs``; problems go to
    ``error(message, location, hint, code=...)``; ``compiler`` compiles the counters given as expressions."""
    if not spec:
        return None
    counters = tuple(_counters(spec.get("counters") or {}, set(rs.globals), "variable", error, allow_owner=False,
                               compile_value=lambda name, text, loc: _expression(name, text, loc, rs, compiler, error)))
    player = tuple(_counters(spec.get("player") or {}, set(rs.player_vars), "player counter", error))
    attrs = _thing_attributes(rs)
    zones = []
    entries = spec.get("zones") or []
    for i, entry in enumerate(entries):
        loc = entries.loc_of(i) if hasattr(entries, "loc_of") else None
        if isinstance(entry, str):
            entry = {"zone": entry}
        elif hasattr(entry, "loc_of"):
            loc = entry.loc_of("zone") if "zone" in entry else loc
        zid = entry.get("zone")
        if zid is not None and str(zid) not in rs.zones:
            error(f"display: no zone or space '{zid}'", loc, did_you_mean(str(zid), rs.zones), code="unknown-reference")
            continue
        owner_only = entry.get("for") == "owner"
        if owner_only and (zid is None or not rs.zones[str(zid)].per_player):
            error(f"display: 'for: owner' needs a per-player zone, and '{zid}' is shared", loc,
                  "a shared zone is shown to everyone who may see it", code="display")
        show = _words(entry.get("show"))
        for name, _ in show:
            if name not in attrs:
                error(f"display: no thing has an attribute or property '{name}'", _where(entry, "show", loc),
                      did_you_mean(name, attrs), code="unknown-reference")
        own = entry.get("own_things") or False
        if isinstance(own, str) and own not in rs.thing_props:
            error(f"display: no thing property '{own}' to hold the controlling seat", _where(entry, "own_things", loc),
                  did_you_mean(own, rs.thing_props), code="unknown-reference")
        props = _words(entry.get("props"))
        for name, _ in props:
            if name not in rs.zone_props:
                error(f"display: no zone property '{name}'", _where(entry, "props", loc),
                      did_you_mean(name, rs.zone_props), code="unknown-reference")
        at = _place(entry, rs, zid, _where(entry, "at", loc), error)
        zones.append(ZoneShow(str(zid) if zid is not None else None, entry.get("label"), owner_only,
                              bool(entry.get("count")), tuple(show), tuple(props), bool(entry.get("hide_empty")), own,
                              at))
    texts = {str(d.get("id")): " ".join(str(d["description"]).split()) for d in rs.things if d.get("description")}
    return Display(counters, player, tuple(zones), texts)


def _place(entry, rs, zid, loc, error):
    """An entry's ``at: [x, y]`` (a shared zone drawn on a board whose spaces all have ``pos``), or None."""
    at = entry.get("at")
    if at is None:
        return None
    if (not isinstance(at, (list, tuple)) or len(at) != 2
            or not all(isinstance(c, (int, float)) and not isinstance(c, bool) for c in at)):
        error("display: 'at' is a place on the board, [x, y] (two numbers)", loc, code="display")
        return None
    zone = rs.zones.get(str(zid)) if zid is not None else None
    if zone is None or zone.kind == "space" or zone.per_player:
        error(f"display: 'at' places a shared zone on the board, and '{zid}' is "
              f"{'a space already' if zone is not None and zone.kind == 'space' else 'not one'}", loc,
              "a per-player zone has a copy for each seat; a space has its own pos", code="display")
        return None
    spaces = [z for z in rs.zones.values() if z.kind == "space"]
    if not spaces or not all(isinstance((z.attrs or {}).get("pos"), (list, tuple)) for z in spaces):
        error("display: 'at' needs a board whose spaces all have a pos, in the same units", loc,
              "without them the board is laid out by the computer, and a place in it cannot be named",
              code="display")
        return None
    return (float(at[0]), float(at[1]))


def shown_values(g) -> dict:
    """The global counters of ``g``'s display section given as expressions, worked out now: name -> value."""
    display = g.ruleset.display
    if display is None:
        return {}
    return {c.name: c.value(g, {}) for c in display.counters if c.value is not None}


def _counters(table, known: set, what: str, error, allow_owner: bool = True, compile_value=None):
    for name, value in table.items():
        loc = table.key_loc(name) if hasattr(table, "key_loc") else None
        if compile_value is not None and isinstance(value, dict) and "value" in value:
            if name in known:
                error(f"display: '{name}' is a variable, so it cannot also be an expression", loc,
                      "give the expression a name of its own", code="display")
                continue
            fn = compile_value(str(name), value["value"], loc)
            if fn is not None:
                yield CounterShow(str(name), str(value.get("label", name)), value=fn)
            continue
        if name not in known:
            error(f"display: no {what} '{name}'", loc, did_you_mean(str(name), known), code="unknown-reference")
            continue
        if isinstance(value, dict):
            owner_only = value.get("for") == "owner"
            if owner_only and not allow_owner:
                error(f"display: a global variable belongs to no player, so 'for: owner' cannot apply to '{name}'",
                      loc, code="display")
            yield CounterShow(str(name), str(value.get("label", name)), owner_only)
        else:
            yield CounterShow(str(name), str(value))


def _expression(name, text, loc, rs, compiler, error):
    """A counter's ``value:`` compiled pure (a display cannot change the game), or None after an error."""
    if compiler is None:
        error(f"display: '{name}' is an expression, and this ruleset is built without a compiler", loc, code="display")
        return None
    private = {n for n, spec in rs.player_vars.items() if spec.visibility != "everyone"}
    try:
        node = parse(text, "expr")
    except DavitError:
        node = None   # the compiler reports the syntax error, at its place
    for read in _attributes_read(node):
        if read in private:
            error(f"display: '{name}' is shown to every seat, and the player counter '{read}' is not "
                  f"({rs.player_vars[read].visibility} only)", loc, code="display")
            return None
    return compiler.expression(text, f"display {name}")


def _attributes_read(node):
    """Every attribute name read anywhere in expression ``node`` (``p.cash`` reads 'cash')."""
    stack = [node] if node is not None else []
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Attr):
            yield n.name
        if isinstance(n, (list, tuple)):
            stack.extend(n)
        elif isinstance(n, ast.Node):
            stack.extend(getattr(n, f.name) for f in fields(n))


def _words(value) -> list:
    """``[a, b]`` or ``{a: words}`` as [(attribute, words or None)] (empty words: None)."""
    if isinstance(value, dict):
        return [(str(k), str(v) or None) for k, v in value.items()]
    return [(str(k), None) for k in value or ()]


def _where(entry, key, default):
    return entry.loc_of(key) if hasattr(entry, "loc_of") and key in entry else default


def _thing_attributes(rs) -> set:
    """Every attribute or property name some thing of ``rs`` has."""
    names = set(rs.thing_props)
    for tdef in rs.things:
        names |= set(tdef.get("attrs") or {}) | set(tdef.get("each") or {})
        if tdef.get("description"):
            names.add("description")   # a card's text, from its definition
    return names
