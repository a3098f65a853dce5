"""What ``davit list`` prints, read from the files alone (no schema check, no compile).

Listing six rulesets used to compile every ruleset and variant; the id, name,
player counts and combinable variants are plain fields of the main file (or
of a file it includes) and of each variant file.
"""
from __future__ import annotations

from pathlib import Path

from ..errors import DavitError
from .files import own_file, variants_of
from .yaml_reader import load_yaml_file

_FIELDS = ("id", "name", "players", "combinable")


def _players(value, default=(1, 1)) -> list:
    if not isinstance(value, dict):
        return list(default)
    low = value.get("min", default[0])
    high = value.get("max", max(low, default[1]) if "min" in value else default[1])
    return [low, high]


def ruleset_summary(ruleset_file: Path) -> dict:
    """id, name, players [min, max], variants (id and players) and combinable groups of one ruleset."""
    data = load_yaml_file(ruleset_file)
    data = data if isinstance(data, dict) else {}
    fields = {k: data[k] for k in _FIELDS if k in data}
    includes = data.get("include") or []
    for name in [includes] if isinstance(includes, str) else includes:
        if all(k in fields for k in ("name", "players")):
            break
        try:
            part = load_yaml_file(own_file(ruleset_file.parent / str(name), ruleset_file.parent, "included file"))
        except DavitError:
            continue
        if isinstance(part, dict):
            for k in _FIELDS:
                if k in part and k not in fields:
                    fields[k] = part[k]
    rid = str(fields.get("id", ruleset_file.parent.name))
    players = _players(fields.get("players"))
    variants = []
    for vid, vfile in variants_of(ruleset_file).items():
        try:
            vdata = load_yaml_file(own_file(vfile, ruleset_file.parent, "variant"))
        except DavitError:
            vdata = {}
        vplayers = _players(vdata.get("players") if isinstance(vdata, dict) else None, players)
        variants.append({"id": vid, "players": vplayers})
    combinable = [[str(v) for v in group] for group in fields.get("combinable") or [] if isinstance(group, list)]
    return {"id": rid, "name": str(fields.get("name", rid)), "players": players, "variants": variants,
            "combinable": combinable}
