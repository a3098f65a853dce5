"""What a ruleset declares, as the static checker sees it: attribute names and types, constants, functions.

Also ``declaration_errors``: declared ranges that contradict themselves.
"""
from __future__ import annotations

from typing import Any

from ..machine.attributes import PLAYER_BUILTIN_TYPES as PLAYER_BUILTINS
from ..machine.attributes import THING_BUILTIN_TYPES as THING_BUILTINS
from ..machine.attributes import ZONE_BUILTIN_TYPES as ZONE_BUILTINS
from .static_types import ANY, ZONE, constant_type, join, value_type


def _forms(constant) -> list:
    """The values a constant may have while playing: a ``by_players`` table's rows and ``otherwise``, the
    ``value`` of ``{value: …}``, or itself (the keys of these forms are no attributes)."""
    if isinstance(constant, dict) and isinstance(constant.get("by_players"), dict):
        return list(constant["by_players"].values()) + ([constant["otherwise"]] if "otherwise" in constant else [])
    if isinstance(constant, dict) and "value" in constant:
        return [constant["value"]]
    return [constant]


def declaration_errors(data) -> list:
    """Declared ranges that contradict themselves: players min > max, an initial value outside min..max."""
    from ..errors import RulesetError
    out = []
    players: Any = data.get("players") or {}   # YAML of any shape; a mapping read from a file is a LocMap
    if isinstance(players, dict) and _num(players.get("min")) and _num(players.get("max")) \
            and players["min"] > players["max"]:
        out.append(RulesetError(f"players: min {players['min']} is above max {players['max']}",
                                players.loc_of("min"),  # type: ignore[attr-defined]  # a LocMap, as every mapping read
                                "swap them, or raise max", code="range"))
    sections = [("variable", data.get("variables") or {}),
                ("player variable", ((data.get("player") or {}).get("vars") or {}))]
    for what, table in sections:
        for name, spec in table.items() if isinstance(table, dict) else ():
            if not isinstance(spec, dict):
                continue
            spec_map: Any = spec   # a mapping of the ruleset's tree: a LocMap (load/yaml_reader.py), with loc_of
            low, high = spec_map.get("min"), spec_map.get("max")
            initial = spec_map.get("initial", 0 if what != "variable" else None)
            where = spec_map.loc_of("initial") if "initial" in spec else spec_map.loc
            if _num(low) and _num(high) and low > high:
                out.append(RulesetError(f"{what} '{name}': min {low} is above max {high}", spec_map.loc_of("min"),
                                        "swap them", code="range"))
            elif _num(initial) and ((_num(low) and initial < low) or (_num(high) and initial > high)):
                out.append(RulesetError(f"{what} '{name}' starts at {initial}, outside its range "
                                        f"{low if _num(low) else '…'}..{high if _num(high) else '…'}", where,
                                        "change `initial`, `min` or `max`", code="range"))
    return out


def _num(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


class Vocabulary:
    """What the ruleset declares: attribute names and their types, for the checker."""

    def __init__(self, env, rs):
        self.thing_attrs: dict = dict(THING_BUILTINS)
        self.kind_attrs: dict = {}    # kind -> its own attributes (with the builtins and props)
        self.def_kinds: dict = {}     # thing definition id -> kind
        for tdef in rs.things:
            kind = str(tdef.get("kind", tdef.get("id")))
            self.def_kinds[str(tdef.get("id"))] = kind
            own = self.kind_attrs.setdefault(kind, dict(THING_BUILTINS))
            for name, value in (tdef.get("attrs") or {}).items():
                self._add(self.thing_attrs, name, value_type(value))
                self._add(own, name, value_type(value))
            for name, values in (tdef.get("each") or {}).items():
                t = value_type(values[0]) if values else ANY
                self._add(self.thing_attrs, name, t)
                self._add(own, name, t)
        for name, value in rs.thing_props.items():
            self._add(self.thing_attrs, name, value_type(value))
            for own in self.kind_attrs.values():
                self._add(own, name, value_type(value))
        self.zone_attrs: dict = dict(ZONE_BUILTINS)
        for zdef in rs.zones.values():
            for name, value in zdef.attrs.items():
                self._add(self.zone_attrs, name, value_type(value))
        for name, value in rs.zone_props.items():
            self._add(self.zone_attrs, name, value_type(value))
        self.player_attrs: dict = dict(PLAYER_BUILTINS)
        for name, spec in rs.player_vars.items():
            self.player_attrs[name] = value_type(spec.initial)
        for zid, zdef in rs.zones.items():
            if zdef.per_player:
                self.player_attrs[zid] = ZONE
        self.globals = {name: value_type(v) for name, v in rs.globals.items()}
        self.constants = {name: constant_type(raw) for name, raw in rs.constants.items()}
        self.raw_constants = dict(rs.constants)
        self.zone_names = set(getattr(env, "zones", ()) or ())   # zones named by their bare id
        data = getattr(rs, "data", None) or {}
        table: Any = data.get("constants") if isinstance(data, dict) else None
        # where each constant's value is written (a variant's file when a variant sets it)
        self.constant_locs = {name: table.loc_of(name) for name in self.constants} if hasattr(table, "loc_of") else {}
        self.main_file = getattr(getattr(data, "loc", None), "file", None)
        self.any_attrs = self._every_attribute(rs)
        self.functions = dict(getattr(env, "functions", {}) or {})   # name -> FunctionInfo (with its body)
        self.function_types: dict = {}

    def kind_of_id(self, thing_id: str):
        """The kind of the thing with this literal id (its definition's id, then `-`, `.` or `@` parts)."""
        best = None
        for def_id in self.def_kinds:
            if thing_id == def_id or (thing_id.startswith(def_id) and thing_id[len(def_id)] in "-.@"):
                if best is None or len(def_id) > len(best):
                    best = def_id
        return self.def_kinds.get(best) if best is not None else None

    def _every_attribute(self, rs) -> dict:
        """Every attribute name anything of the ruleset may have, with its type (``any`` where they differ):
        things', zones' and players' (declared and built in), and the keys of every table in its data."""
        out: dict = {}
        for table in (self.thing_attrs, self.zone_attrs, self.player_attrs):
            for name, t in table.items():
                out[name] = t if name not in out else join(out[name], t)
        out["known_to"] = ANY   # set by peek(): who has seen a thing
        values = [{n: _forms(v) for n, v in rs.constants.items()}, rs.globals, rs.thing_props, rs.zone_props]
        values += [tdef.get("attrs") or {} for tdef in rs.things] + [tdef.get("each") or {} for tdef in rs.things]
        values += [zdef.attrs for zdef in rs.zones.values()]
        values.append({name: spec.initial for name, spec in rs.player_vars.items()})
        todo = [v for table in values if isinstance(table, dict) for v in table.values()]
        while todo:   # a table anywhere in the data: its keys are read as attributes (`limits.x`)
            value = todo.pop()
            if isinstance(value, dict):
                for key, item in value.items():
                    out[str(key)] = ANY
                    todo.append(item)
            elif isinstance(value, list):
                todo.extend(value)
        return out

    @staticmethod
    def _add(table, name, t):
        old = table.get(name)
        table[name] = t if old is None or old == t else ANY

