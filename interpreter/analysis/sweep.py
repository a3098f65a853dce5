"""``davit sweep``: one ruleset played at several values of its printed numbers, every point on the same seeds.

A point is a variant file written to a temporary folder (a variant may lie
anywhere), so a point is checked, merged and played exactly as a designer's
own variant would be, on any backend. ``PATH`` is a dotted address into the
ruleset's tree:

* ``zones.boat.capacity``: a list of items with ids (zones, things,
  actions, triggers, board.spaces) is addressed by id;
* ``constants.limits.4``: an entry of a table (a constant is
  replaced whole, so the point writes the whole table with that entry
  changed);
* any other mapping key by key (``limits.max_decisions``,
  ``variables.taken.max``).

A point whose every value is the base's own is the base game itself.
"""
from __future__ import annotations

import copy
import itertools
import json
import math
import shutil
import tempfile
from pathlib import Path

from ..errors import DavitError, did_you_mean
from ..load.files import write_atomically
from ..load.yaml_reader import plain
from ..rules.loading import load_ruleset

BY_ID = ("zones", "things", "actions", "triggers")
REPLACED_FIELDS = ("functions",)   # a function's fields replace the old ones whole
MAX_POINTS = 200
MAX_RANGE = 10_000   # values in one range: tune searches it whole numbers at a time, sweep plays each


def parse_values(text: str) -> list:
    """``3..6`` (whole numbers, both ends included) or ``3,5,8`` (numbers, true/false or words)."""
    if ".." in text and "," not in text:
        low, _, high = text.partition("..")
        try:
            low_n, high_n = int(low), int(high)
        except ValueError:
            raise DavitError(f"davit: a range is two whole numbers, as 3..6, not {text!r}") from None
        if high_n < low_n:
            raise DavitError(f"davit: the range {text} is empty (its end is below its start)")
        if high_n - low_n + 1 > MAX_RANGE:
            raise DavitError(f"davit: the range {text} holds {high_n - low_n + 1:,} values, more than "
                             f"{MAX_RANGE:,}: give a narrower range")
        return list(range(low_n, high_n + 1))
    return [_scalar(part.strip()) for part in text.split(",") if part.strip()]


def _scalar(text: str):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def parse_sets(items: list[str]) -> list[tuple[str, list]]:
    """``PATH=VALUES`` options as (path, values), each path once and each value once in it: a second --set of
    one path replaced the first's values, and a value given twice played its point twice (or tried it
    twice), without a word."""
    out: list[tuple[str, list]] = []
    for item in items:
        path, sep, values = item.partition("=")
        if not sep or not path or not values:
            raise DavitError(f"davit: --set needs PATH=VALUES, as zones.boat.capacity=3..6, not {item!r}")
        path = path.strip()
        if any(path == seen for seen, _ in out):
            raise DavitError(f"davit: --set {path} is given twice: give all its values in one --set, as {path}=3,5,8")
        parsed = parse_values(values)
        shown = [json.dumps(v, sort_keys=True) for v in parsed]
        twice = next((v for i, v in enumerate(shown) if v in shown[:i]), None)
        if twice is not None:
            raise DavitError(f"davit: --set {path} gives the value {twice} twice")
        out.append((path, parsed))
    return out


def points(sets: list[tuple[str, list]]) -> list[dict]:
    """Every combination of the values, the first --set varying slowest."""
    count = math.prod(len(v) for _, v in sets)   # (counted before they are made: a grid may be huge)
    if count > MAX_POINTS:
        raise DavitError(f"davit: {count:,} points are more than {MAX_POINTS}: sweep fewer values")
    return [dict(zip([p for p, _ in sets], values)) for values in itertools.product(*[v for _, v in sets])]


def _key(mapping, part: str, where: str):
    """The key of ``mapping`` that ``part`` names (a table's keys may be numbers)."""
    if part in mapping:
        return part
    for key in mapping:
        if str(key) == part:
            return key
    raise DavitError(f"davit: {where} has no '{part}'" + (f" ({did_you_mean(part, [str(k) for k in mapping])})"
                                                           if did_you_mean(part, [str(k) for k in mapping]) else ""))


def _get(node, parts: list[str], where: str):
    for i, part in enumerate(parts):
        here = ".".join([where] + parts[:i]) if where else ".".join(parts[:i]) or "the ruleset"
        if isinstance(node, dict):
            node = node[_key(node, part, here)]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            raise DavitError(f"davit: {here} holds no '{part}'")
    return node


def _set(node, parts: list[str], value, where: str):
    """``node`` (a copy) with the value at ``parts`` replaced."""
    if not parts:
        return value
    target = _get(node, parts[:-1], where)
    if isinstance(target, dict):
        target[_key(target, parts[-1], where)] = value
    elif isinstance(target, list) and parts[-1].isdigit() and int(parts[-1]) < len(target):
        target[int(parts[-1])] = value
    else:
        raise DavitError(f"davit: {where}.{'.'.join(parts)} is not a value that can be set")
    return node


def base_value(data: dict, path: str):
    """The base ruleset's value at ``path`` (a constant's ``value`` is read through)."""
    parts = path.split(".")
    if parts[0] in BY_ID and len(parts) > 1:
        return _get(_item(data, parts[0], parts[1]), parts[2:], f"{parts[0]}.{parts[1]}")
    if parts[0] == "constants" and len(parts) > 1:
        return _get(_constant(data, parts[1]), parts[2:], f"constants.{parts[1]}")
    return _get(data, parts, "")


def _item(data, section, item_id):
    items = data.get(section) or []
    for item in items:
        if isinstance(item, dict) and str(item.get("id")) == item_id:
            return item
    ids = [str(i.get("id")) for i in items if isinstance(i, dict)]
    hint = did_you_mean(item_id, ids)
    raise DavitError(f"davit: {section} has no item '{item_id}'" + (f" ({hint})" if hint else ""))


def _constant(data, name):
    constants = data.get("constants") or {}
    value = constants[_key(constants, name, "constants")]
    return value["value"] if isinstance(value, dict) and "value" in value else value


def _merge(tree: dict, overlay: dict) -> None:
    for key, value in overlay.items():
        if isinstance(value, dict) and isinstance(tree.get(key), dict):
            _merge(tree[key], value)
        else:
            tree[key] = value


def overlay_for(data: dict, changes: dict) -> dict:
    """The variant sections that set each ``path: value`` of ``changes`` on ``data`` (plain)."""
    out: dict = {}
    for path, value in changes.items():
        parts = path.split(".")
        section = parts[0]
        if section in BY_ID and len(parts) > 2:
            item, field = _item(data, section, parts[1]), parts[2]
            new = _set(copy.deepcopy(item.get(field)), parts[3:], value, f"{section}.{parts[1]}.{field}") \
                if len(parts) > 3 else value
            entries = out.setdefault(section, [])
            entry = next((e for e in entries if e["id"] == parts[1]), None)
            if entry is None:
                entries.append(entry := {"id": parts[1]})
            entry[field] = new
        elif section == "constants" and len(parts) > 1:
            whole = out.get("constants", {}).get(parts[1], copy.deepcopy(_constant(data, parts[1])))
            out.setdefault("constants", {})[parts[1]] = _set(whole, parts[2:], value, f"constants.{parts[1]}")
        elif section in REPLACED_FIELDS and len(parts) > 3:
            fn = (data.get(section) or {}).get(parts[1]) or {}
            whole = copy.deepcopy(fn.get(parts[2]))
            _merge(out, {section: {parts[1]: {parts[2]: _set(whole, parts[3:], value, path)}}})
        else:
            nested = value
            for part in reversed(parts):
                nested = {part: nested}
            _merge(out, nested)
    return out


def point_text(data: dict, changes: dict, vid: str, description: str, extends: str | None = None) -> str | None:
    """The text of a variant file setting ``changes`` (None: every value is the base's own)."""
    import yaml
    changed = {path: value for path, value in changes.items() if base_value(data, path) != value}
    if not changed:
        return None
    head = {"variant": vid, **({"extends": extends} if extends else {}), "description": description}
    return yaml.safe_dump({**head, **overlay_for(data, changed)}, sort_keys=False, allow_unicode=True)


def write_point(folder: Path, index: int, data: dict, changes: dict) -> str | None:
    """The variant file of one point (None: every value is the base's, so the point is the base game)."""
    text = point_text(data, changes, f"point-{index}",
                      "davit sweep: " + ", ".join(f"{p}={v}" for p, v in changes.items()))
    if text is None:
        return None
    path = folder / f"point-{index}.yaml"
    write_atomically(str(path), text.encode())
    return str(path)


def sweep(ref, sets: list[tuple[str, list]], games: int, players: int, seed: int = 0, workers: int = 1,
          agents: str = "random", progress: bool = False, *, max_length: int | None = None,
          backend: str = "local", address: str | None = None, keep_records: bool = False,
          base_variant: str | None = None) -> dict:
    """Every point of the sweep played on the same seeds; ``{"points": [{"set": {...}, ...summary}]}``."""
    from .runner import RunSpec
    from .simulate import _timing, play
    from .summary import summarize
    base = load_ruleset(ref, base_variant)
    data = plain(base.data)
    for path, _ in sets:
        base_value(data, path)   # a wrong path is an error before any game
    folder = Path(tempfile.mkdtemp(prefix="davit-sweep-"))
    try:
        combos = points(sets)
        variants = []
        for i, changes in enumerate(combos):
            variant = write_point(folder, i, data, changes)
            if variant and base_variant:
                variant = f"{base_variant}+{variant}"
            variants.append(variant or base_variant)
        rulesets = [load_ruleset(ref, v) for v in variants]   # every point checked before the first game
        specs = [RunSpec(str(ref), v, players, agents, max_length) for v in variants]
        run = play(specs, games, seed, workers, None, backend, address, progress)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    out: dict = {"points": []}
    for v, (changes, rs) in enumerate(zip(combos, rulesets)):
        records = run.games(v)
        point = {"set": changes, **summarize(records, players, rs.team_var is None)}
        if keep_records:
            point["records"] = records
        out["points"].append(point)
    return _timing(out | {"games": len(run.games(0)), "players": players}, run)
