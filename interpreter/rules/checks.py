"""Semantic checks that need the whole compiled ruleset.

Run once at the end of :mod:`interpreter.rules.build`: declared counts must match the
components (errors), the board must be reachable from where pieces start,
containers must attach to real, reachable spaces, no two zones or spaces
may share a display name, and definitions that are never used are reported (warnings, which ``davit validate`` shows and
``--strict`` turns into failures).
"""
from __future__ import annotations

import json
from collections import deque
from typing import Any

from ..dsl.parser import keywords
from ..errors import RulesetError, did_you_mean
from ..load.limits import MAX_ITEMS
from ..load.yaml_reader import LocMap
from ..machine.values import resolve_constant
from .table import instance_ids

ATTACH_KEYS = ("access", "attached_to", "beside")


def _warn(message, loc, code, hint=None):
    return RulesetError(message, loc, hint, code=code, severity="warning")


def _error(message, loc, code, hint=None):
    return RulesetError(message, loc, hint, code=code)


def check_ruleset(rs, env, data) -> list:
    """Errors and warnings about ``rs`` (compiled from ``data`` with ``env``)."""
    from ..dsl.typecheck import declaration_errors
    found = declaration_errors(data)
    found += _counts(rs, data)
    found += _board(rs, data)
    found += _display_names(data)
    found += _engine_props(data)
    found += _unused(rs, env, data)
    found += _repeat_counts(rs, data)
    found += _unread_rows(rs, data)
    found += _keyword_names(data)
    return found


# properties the engine itself keeps, and what they start as for every thing or space
ENGINE_STARTS: tuple[tuple[str, str, Any], ...] = (
    ("things", "face_up", False), ("things", "known_to", []), ("zones", "removed", False))


def _engine_props(data) -> list:
    """A declared default of an engine-kept property other than where the engine starts it.

    Every thing starts face down and seen by nobody, every space on the
    board; another default would change only what rules read (``t.face_up``
    true of a face-down card), not the face, the views or the board.
    """
    props = data.get("props") or {}
    out = []
    for table, name, start in ENGINE_STARTS:
        declared = props.get(table) or {}
        if isinstance(declared, dict) and name in declared and declared[name] != start:
            out.append(_error(f"'{name}' is a property the engine keeps for every {table[:-1]}, starting as "
                              f"{json.dumps(start)}; a default of {json.dumps(declared[name])} would change only "
                              f"what rules read", declared.loc_of(name), "engine-property"))  # type: ignore[attr-defined]
    return out


def _counts(rs, data) -> list:
    out = []
    seats = range(rs.max_players)
    per_zone: dict = {}
    for tdef in rs.things:
        copies = instance_ids(tdef, seats)
        total = tdef.get("total")
        if total is not None and int(total) != len(copies):
            out.append(_error(f"thing '{tdef['id']}' declares {total} copies but makes {len(copies)} "
                              f"(count × each × players at {rs.max_players} players)", tdef["_loc"], "count"))
        start = tdef.get("start")
        if start is not None:
            share = len(copies) // rs.max_players if tdef.get("per_player") else len(copies)
            per_zone[start] = per_zone.get(start, 0) + share
    for spec in data.get("zones") or []:
        size = spec.get("size")
        if size is None:
            continue
        zid = str(spec.get("id"))
        holds = per_zone.get(zid, 0)
        if holds != int(size):
            where = "each player's " if spec.get("per_player") else ""
            out.append(_error(f"zone '{zid}' declares size {size} but {where}{zid} starts with {holds} things",
                              spec.loc_of("size"), "count"))
    players = data.get("players")
    names = players.get("names") if isinstance(players, LocMap) else None
    names_at = players.loc_of("names") if isinstance(names, list) else None
    # a variant may lower players.max below the base's names (a variant for fewer players)
    lowered = isinstance(players, LocMap) and "max" in players and names_at is not None \
        and players.loc_of("max").file != names_at.file and names_at.file == data.loc.file
    if isinstance(names, list) and len(names) > rs.max_players and not lowered:
        # the names past the last seat were never used (a variant that added them changed nothing)
        out.append(_error(f"players.names lists {len(names)} names, but the game is for at most {rs.max_players} "
                          f"players: {', '.join(map(str, names[rs.max_players:]))} would never be used",
                          players.loc_of("names"), "count", "raise players.max, or leave the extra names out"))
    return out


def _board(rs, data) -> list:
    out: list = []
    graph = rs.board.graph
    if graph.number_of_nodes() == 0:
        return out
    starts = {t.get("start") for t in rs.things if t.get("start") in graph}
    starts |= {n for n, attrs in graph.nodes(data=True) if attrs.get("start")}
    board: Any = data.get("board") or {}   # YAML values of any shape (LocMap/LocList when read from a file)
    spaces: Any = board.get("spaces") or []
    space_loc = {str(s.get("id")): spaces.loc_of(i) for i, s in enumerate(spaces)}
    reached = set()
    if starts:
        todo = deque(starts)
        reached = set(starts)
        while todo:
            node = todo.popleft()
            for nxt in graph.successors(node):
                if nxt not in reached:
                    reached.add(nxt)
                    todo.append(nxt)
        for node in graph.nodes:
            if node not in reached:
                out.append(_warn(f"space '{node}' cannot be reached from any starting space "
                                 f"({', '.join(sorted(map(str, starts)))})", space_loc.get(node), "unreachable"))
    for spec in data.get("zones") or []:
        attrs: Any = spec.get("attrs") or {}
        for key in ATTACH_KEYS:
            if key not in attrs:
                continue
            targets = attrs[key] if isinstance(attrs[key], list) else [attrs[key]]
            for target in targets:
                if str(target) not in graph:
                    out.append(_error(f"'{spec.get('id')}' attaches to '{target}', which is not a space",
                                      attrs.loc_of(key), "unknown-reference", did_you_mean(str(target), graph.nodes)))
                elif starts and str(target) not in reached:
                    out.append(_warn(f"'{spec.get('id')}' attaches to '{target}', which no piece can reach",
                                     attrs.loc_of(key), "unreachable"))
    return out


def _display_names(data) -> list:
    """Two zones or spaces with one name read alike in every menu and log line ("move to X" twice,
    "from X to X"): a person could not tell them apart, so the second one is an error."""
    out = []
    seen: dict = {}   # (per player?, name folded) -> where the first one is named
    board = data.get("board") or {}
    for section in (data.get("zones") or [], board.get("spaces") or []):
        for spec in section:
            if not isinstance(spec, dict):
                continue
            zid = str(spec.get("id"))
            name = str(spec.get("name", zid.replace("_", " ")))
            # a mapping of the tree: a LocMap
            where = spec.loc_of("name") if "name" in spec else spec.loc_of("id")  # type: ignore[attr-defined]
            key = (bool(spec.get("per_player")), " ".join(name.casefold().split()))
            if key in seen:
                first_id, first_loc = seen[key]
                at = f" (line {first_loc.line})" if first_loc and first_loc.file == (where and where.file) \
                    else f" ({first_loc})" if first_loc else ""
                out.append(_error(f"'{zid}' is displayed as '{name}', like '{first_id}'{at}", where, "duplicate-name",
                                  "give each zone and space a name of its own: people choose and read by name"))
            else:
                seen[key] = (zid, where)
    return out


def _flow_actions(nodes) -> set:
    used = set()
    todo = list(nodes or [])
    while todo:
        node = todo.pop()
        if not isinstance(node, dict):
            continue
        for key in ("turn", "simultaneous"):
            if isinstance(node.get(key), dict):
                used |= {str(a) for a in node[key].get("actions") or []}
        for key in ("steps", "then", "else"):
            if isinstance(node.get(key), list):
                todo.extend(node[key])
    return used


def _unused(rs, env, data) -> list:
    out = []
    functions: Any = data.get("functions") or {}
    for name, info in env.functions.items():
        if not info.used and name in functions:
            out.append(_warn(f"function '{name}' is never called", functions.key_loc(name), "unused"))
    offered = _flow_actions(data.get("flow"))
    actions: Any = data.get("actions") or []
    for i, spec in enumerate(actions):
        if str(spec.get("id")) not in offered:
            out.append(_warn(f"action '{spec.get('id')}' is never offered by the flow", actions.loc_of(i), "unused"))
    for section in ("constants", "variables"):
        table: Any = data.get(section) or {}
        for name in table:
            if name not in env.used_names:
                out.append(_warn(f"{section[:-1]} '{name}' is never used", table.key_loc(name), "unused"))
    starts = {t.get("start") for t in rs.things}
    zones: Any = data.get("zones") or []
    for i, spec in enumerate(zones):
        zid = str(spec.get("id"))
        if zid not in env.used_names and zid not in starts:
            out.append(_warn(f"zone '{zid}' is never used", zones.loc_of(i), "unused"))
    return out


def _repeat_counts(rs, data) -> list:
    """A ``repeat:`` count written as a number or a constant's name must be a whole number from 0 to
    MAX_ITEMS. Unchecked, the flow made ``range()`` of it: null or 2.5 stopped the game with Python's
    TypeError, 10**9 ran out of memory, and -3 played no rounds at all without a word."""
    constants: Any = data.get("constants") or {}
    out = []
    todo = list(data.get("flow") or [])
    while todo:
        node = todo.pop()
        if not isinstance(node, LocMap):   # as every mapping of the tree is
            continue
        for key in ("steps", "then", "else"):
            if isinstance(node.get(key), list):
                todo.extend(node[key])
        if "repeat" not in node:
            continue
        count = node["repeat"]
        if isinstance(count, str) and isinstance(constants, LocMap) and count.strip() in constants:
            name = count.strip()
            # its value at every player count the game has (a row for another count is _unread_rows')
            values = [resolve_constant(constants[name], n) for n in range(rs.min_players, rs.max_players + 1)]
            where, what = constants.loc_of(name), f"constant '{name}'"
        elif isinstance(count, (int, float)) or count is None:
            where, values, what = node.loc_of("repeat"), [count], "the repeat count"
        else:
            continue   # an expression: the flow checks its value in play
        for value in values:
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_ITEMS:
                out.append(_error(f"{what} is {json.dumps(value)}, but a repeat count must be a whole number "
                                  f"from 0 to {MAX_ITEMS:,}", where, "range",
                                  f"it is repeated at line {node.loc_of('repeat').line}" if what != "the repeat "
                                  "count" else None))
                break
    return out


def _unread_rows(rs, data) -> list:
    """A ``by_players`` row for a player count the game cannot have, or an ``otherwise`` when every count has
    its row, is never read: `rounds: {by_players: {2: 3, 9: 4}}` on a 2–4 player game kept 9 without a word.
    A variant that changes the players' range (a variant for fewer players) may leave the base's rows."""
    constants: Any = data.get("constants")
    players: Any = data.get("players")
    if not isinstance(constants, LocMap):
        return []
    if isinstance(players, LocMap) and any(key in players and players.loc_of(key).file != data.loc.file
                                           for key in ("min", "max")):
        return []   # the range was changed by a variant (or is written in an included file)
    counts = set(range(rs.min_players, rs.max_players + 1))
    out = []
    for name, value in constants.items():
        if not isinstance(value, LocMap) or not isinstance(value.get("by_players"), LocMap):
            continue
        rows = value["by_players"]
        given = set()
        for key in rows:
            try:
                count = int(key)
            except (TypeError, ValueError):
                continue   # the schema says so
            given.add(count)
            if count not in counts:
                out.append(_error(f"constant '{name}' has a row for {count} players, but the game is for "
                                  f"{rs.min_players}–{rs.max_players} players: it is never read",
                                  rows.key_loc(key), "names-nothing", "leave the row out, or change players"))
        if "otherwise" in value and counts <= given:
            out.append(_error(f"constant '{name}' has a row for every player count, so its `otherwise` is never "
                              "read", value.key_loc("otherwise"), "names-nothing", "leave `otherwise` out"))
    return out


def _keyword_names(data) -> list:
    """A constant, variable or function named like a word of the language (`for`, `pass`) can be neither read
    nor set by a rule: it was only `warning[unused]`, and the ruleset loaded."""
    out = []
    player: Any = data.get("player")
    tables = [(section[:-1], data.get(section)) for section in ("constants", "variables", "functions")]
    tables.append(("player variable", player.get("vars") if isinstance(player, LocMap) else None))
    for kind, table in tables:
        if not isinstance(table, LocMap):
            continue
        for name in table:
            if str(name) in keywords():
                out.append(_error(f"{kind} '{name}' is named like a word of the rules language: no rule can read "
                                  "or set it", table.key_loc(name), "rules", "give it another name"))
    return out
