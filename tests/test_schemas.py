"""The JSON Schemas in schemas/: well-formed, documented, and in step with the bundled YAML.

Every ruleset file, included part, variant and scenario under rulesets/ must
pass its schema; a few broken documents must fail.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema
import pytest
import yaml
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "schemas"
RULESETS = ROOT / "rulesets"
KINDS = ("ruleset", "part", "variant", "scenario")


def _schema(kind: str) -> dict:
    return json.loads((SCHEMAS / f"{kind}.schema.json").read_text(encoding="utf-8"))


def _registry() -> Registry:
    # Keyed by file name: the schemas refer to each other as "ruleset.schema.json#/...".
    return Registry().with_resources(
        (f"{kind}.schema.json", Resource.from_contents(_schema(kind), default_specification=DRAFT7))
        for kind in KINDS
    )


REGISTRY = _registry()


def validator(kind: str) -> jsonschema.Draft7Validator:
    return jsonschema.Draft7Validator(_schema(kind), registry=REGISTRY)


def errors(kind: str, data) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator(kind).iter_errors(data)]


def load(path: Path):
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def ruleset_files() -> list[Path]:
    return sorted(RULESETS.glob("*/ruleset.yaml"))


def part_files() -> list[Path]:
    found = []
    for main in ruleset_files():
        includes = (load(main) or {}).get("include") or []
        for name in [includes] if isinstance(includes, str) else includes:
            found.append(main.parent / name)
    return found


def merged(main: Path) -> dict:
    """ruleset.yaml with its includes added (parts only add, so a plain merge will do)."""
    data = load(main)
    includes = data.get("include") or []
    for name in [includes] if isinstance(includes, str) else includes:
        _add(data, load(main.parent / name))
    return data


def _add(base: dict, part: dict) -> None:
    for key, value in part.items():
        if isinstance(base.get(key), dict) and isinstance(value, dict):
            _add(base[key], value)
        elif isinstance(base.get(key), list) and isinstance(value, list):
            base[key] = base[key] + value
        else:
            base[key] = value


# --- the schemas themselves ----------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_schema_is_valid_draft7(kind):
    schema = _schema(kind)
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    jsonschema.Draft7Validator.check_schema(schema)


def _undocumented(node, path="#"):
    if isinstance(node, dict):
        props = node.get("properties")
        if isinstance(props, dict):
            for name, sub in props.items():
                text = sub.get("description") if isinstance(sub, dict) else None
                if not (isinstance(text, str) and text.strip()):
                    yield f"{path}/properties/{name}"
        for key, sub in node.items():
            yield from _undocumented(sub, f"{path}/{key}")
    elif isinstance(node, list):
        for i, sub in enumerate(node):
            yield from _undocumented(sub, f"{path}/{i}")


@pytest.mark.parametrize("kind", KINDS)
def test_every_property_has_a_description(kind):
    assert list(_undocumented(_schema(kind))) == []


@pytest.mark.parametrize("kind", KINDS)
def test_every_ref_resolves(kind):
    schema = _schema(kind)
    resolver = REGISTRY.resolver(base_uri=f"{kind}.schema.json")
    refs = []

    def walk(node):
        if isinstance(node, dict):
            if isinstance(node.get("$ref"), str):
                refs.append(node["$ref"])
            for sub in node.values():
                walk(sub)
        elif isinstance(node, list):
            for sub in node:
                walk(sub)

    walk(schema)
    for ref in refs:
        resolver.lookup(ref)  # raises if the target is missing


def test_part_has_the_ruleset_sections_and_requires_none():
    ruleset, part = _schema("ruleset"), _schema("part")
    assert set(part["properties"]) == set(ruleset["properties"])
    assert "required" not in part


def test_variant_has_the_ruleset_sections_but_id_and_include():
    ruleset, variant = _schema("ruleset"), _schema("variant")
    # `combinable` says which variants go together: a property of the ruleset, not of one variant
    sections = set(ruleset["properties"]) - {"id", "include", "combinable"}
    assert sections <= set(variant["properties"])
    assert {"id", "include"}.isdisjoint(variant["properties"])


# --- the bundled files -----------------------------------------------------------------


@pytest.mark.parametrize("path", ruleset_files() + part_files(), ids=rel)
def test_ruleset_files_match_the_part_schema(path):
    assert errors("part", load(path)) == []


@pytest.mark.parametrize("path", ruleset_files(), ids=lambda p: p.parent.name)
def test_merged_ruleset_matches_the_ruleset_schema(path):
    assert errors("ruleset", merged(path)) == []


@pytest.mark.parametrize("path", sorted(RULESETS.glob("*/variants/*.yaml")), ids=rel)
def test_variants_match_the_variant_schema(path):
    assert errors("variant", load(path)) == []


@pytest.mark.parametrize("path", sorted(RULESETS.glob("*/scenarios/*.yaml")), ids=rel)
def test_scenarios_match_the_scenario_schema(path):
    assert errors("scenario", load(path)) == []


# --- documents written here: what must pass and what must fail --------------------------------

MINIMAL = {
    "id": "tiny",
    "players": {"min": 1, "max": 2},
    "zones": [{"id": "deck", "face": "down", "visibility": "nobody"}],
    "actions": [{"id": "draw", "do": "move(top(deck), player.hand)"}],
    "flow": [{"each_player": "player", "steps": [{"turn": {"actions": ["draw"]}}]}],
}

VARIANT = {
    "variant": "short-game",
    "extends": "der-mythos",
    "description": "Six rounds instead of nine.",
    "reconstructed": "a house rule",
    "constants": {"rounds": 6},
    "zones": [{"id": "lowered", "remove": True}, {"id": "ship", "face": "up"}],
    "things": [{"id": "boat-III", "count": 1}],
    "triggers": [{"id": "sink", "do": "end_game()"}],
    "functions": {"overload_limit": {"description": "only the description changes"}},
    "board": {"spaces": [{"id": 3, "remove": True}], "edges": [{"from": 1, "to": 2, "one_way": True}]},
}

SCENARIO = {
    "scenario": "five-times-second-class",
    "description": "A passenger 5 in a II. class boat scores 10.",
    "source": "Scoring example",
    "variant": "simplified-scoring",
    "players": 4,
    "seed": 1,
    "pins": {"shuffle ship": [["middle.1", "funnel.1", "funnel.2", "middle.2", "funnel.3", "funnel.4"]],
             "roll": [3, "red"]},
    "setup": 'move(thing("x"), zone("y"))',
    "steps": [
        {"act": {"player": 0, "action": "play", "args": {"card": "passenger-5@0"}}},
        {"refuse": {"player": 0, "action": "play", "args": {"card": "passenger-5@1"}, "reason": "not yours"}},
        {"expect": "player(0).score == 10", "message": "5 × II = 10"},
        {"expect": ["round == 2", "count(lowered) == 1"], "description": "two checks"},
        {"run": "round == 3", "agent": "random"},
        {"set": "round = 2", "source": "p. 3"},
        {"act": {"player": 1, "action": "give", "args": {"to": {"player": 2}, "cards": ["a", "b"], "n": 2}}},
    ],
    "expect": ["game_over"],
}


def test_good_documents_pass():
    assert errors("ruleset", MINIMAL) == []
    assert errors("part", {"things": MINIMAL.get("things", []), "zones": MINIMAL["zones"]}) == []
    assert errors("variant", VARIANT) == []
    assert errors("scenario", SCENARIO) == []


def test_every_flow_step_kind_passes():
    steps = [
        {"do": "x = 1"},
        {"step": "deal", "do": "x = 1", "source": "p. 2"},
        {"phase": "round", "steps": [{"do": "x = 1"}]},
        {"repeat": 3, "as": "round", "steps": [{"do": "x = 1"}]},
        {"repeat": "rounds", "steps": [{"do": "x = 1"}]},
        {"repeat": "until_end", "as": "round", "steps": [{"do": "x = 1"}]},
        {"while": "x < 3", "steps": [{"do": "x = 1"}]},
        {"until": "x >= 3", "steps": [{"do": "x = 1"}]},
        {"each_player": "player", "from": "player(1)", "steps": [{"do": "x = 1"}]},
        {"for": "boat", "in": "lifeboats.things", "steps": [{"do": "x = 1"}]},
        {"if": "x == 1", "then": [{"do": "x = 2"}], "else": [{"do": "x = 3"}]},
        {"turn": {"player": "player", "actions": ["draw"], "pass": False, "until": "x > 2", "name": "main"}},
        {"turn": {"actions": ["draw", "look"], "max_actions": 1, "free": ["look"], "pass": True}},
        {"turn": {"actions": ["draw"], "max_actions": "per_turn + 1"}},
        {"simultaneous": {"players": "players", "actions": ["draw"], "name": "bid"}},
    ]
    assert errors("ruleset", {**MINIMAL, "flow": steps}) == []


@pytest.mark.parametrize("flow", [[], [{"repeat": 3, "steps": []}],
                                  [{"if": "x == 1", "then": [{"do": "x = 2"}], "else": []}]])
def test_an_empty_list_of_flow_steps_is_refused(flow):
    # it does nothing: a variant's `flow: []` was reported far away, at the first use of a flow variable
    assert any("should be non-empty" in e for e in errors("ruleset", {**MINIMAL, "flow": flow}))


def test_provenance_is_allowed_on_every_object():
    marks = {"source": "p. 1", "reconstructed": "ours"}
    doc = copy.deepcopy(MINIMAL)
    doc["players"].update(marks)
    doc["limits"] = {"max_steps": 10, **marks}
    doc["constants"] = {"a": {"value": 1, **marks}, "b": {"by_players": {2: 1, "3": 2}, "otherwise": 0, **marks},
                        "c": {2: 12, 3: 18}}
    doc["variables"] = {"x": 0, "y": {"initial": {"a": 1}, **marks}}
    doc["player"] = {"vars": {"money": {"initial": 3, "min": 0, **marks}}, "score": "money", **marks}
    doc["zones"][0].update(marks)
    doc["things"] = [{"id": "card", "each": {"value": [1, 2]}, "start": "deck", **marks}]
    doc["props"] = {"things": {"bent": False}, **marks}
    doc["board"] = {"spaces": [{"id": 1, "pos": [0, 1.5], **marks}, {"id": "b", **marks}],
                    "edges": [{"from": 1, "to": "b", "kind": "stairs", **marks}], **marks}
    doc["functions"] = {"f": {"params": ["n"], "value": "n + 1", **marks}}
    doc["actions"][0].update(marks)
    doc["triggers"] = [{"id": "t", "when": "false", "for": "b in deck", "do": "pass", **marks}]
    doc["end"] = {"when": "false", **marks}
    doc["scoring"] = {"rank": "p.money", "winners": False, **marks}
    doc["flow"] = [{"turn": {"actions": ["draw"], **marks}, **marks}]
    assert errors("ruleset", doc) == []


def _bad(kind, base, change):
    doc = copy.deepcopy(base)
    change(doc)
    return errors(kind, doc)


@pytest.mark.parametrize("what, change", [
    ("unknown top-level key", lambda d: d.update(zone=[])),
    ("missing flow", lambda d: d.pop("flow")),
    ("bad id", lambda d: d.update(id="Der Mythos")),
    ("flow step with two kinds", lambda d: d["flow"].append({"do": "x = 1", "phase": "p", "steps": []})),
    ("flow loop with a key of another kind", lambda d: d["flow"].append({"repeat": 2, "in": "x", "steps": []})),
    ("flow step of no kind", lambda d: d["flow"].append({"step": "named but empty"})),
    ("nested flow step with a typo", lambda d: d["flow"][0]["steps"].append({"doo": "x = 1"})),
    ("turn without actions", lambda d: d["flow"].append({"turn": {"player": "player"}})),
    ("zone visibility sometimes", lambda d: d["zones"][0].update(visibility="sometimes")),
    ("zone with a typo", lambda d: d["zones"][0].update(capcity=2)),
    ("zone without id", lambda d: d["zones"].append({"name": "pile"})),
    ("removal marker in a ruleset", lambda d: d["zones"].append({"id": "old", "remove": True})),
    ("function with do and value", lambda d: d.update(functions={"f": {"do": "return 1", "value": "1"}})),
    ("function with neither", lambda d: d.update(functions={"f": {"params": ["a"]}})),
    ("constant wrapper with a typo", lambda d: d.update(constants={"n": {"value": 1, "sorce": "p. 1"}})),
    ("variable table without initial", lambda d: d.update(variables={"t": {"a": 1}})),
    ("player var visibility", lambda d: d.update(player={"vars": {"m": {"visibility": "all"}}})),
    ("DSL as a YAML boolean", lambda d: d.update(end={"when": True})),
    ("trigger without when", lambda d: d.update(triggers=[{"id": "t", "do": "pass"}])),
    ("trigger for without in", lambda d: d.update(triggers=[{"when": "true", "for": "lifeboats"}])),
    ("built-in action id", lambda d: d["actions"].append({"id": "pass"})),
    ("include outside the folder", lambda d: d.update(include=["../other/cards.yaml"])),
])
def test_bad_ruleset_fails(what, change):
    assert _bad("ruleset", MINIMAL, change), what


@pytest.mark.parametrize("what, change", [
    ("no variant id", lambda d: d.pop("variant")),
    ("id instead of variant", lambda d: d.update(id="short")),
    ("include in a variant", lambda d: d.update(include=["x.yaml"])),
    ("remove false", lambda d: d["zones"].append({"id": "ship", "remove": False})),
    ("removal with other fields", lambda d: d["zones"].append({"id": "ship", "remove": True, "face": "up"})),
    ("item without id", lambda d: d["things"].append({"count": 2})),
    ("trigger without id", lambda d: d["triggers"].append({"when": "true"})),
    ("zone visibility sometimes", lambda d: d["zones"].append({"id": "z", "visibility": "sometimes"})),
])
def test_bad_variant_fails(what, change):
    assert _bad("variant", VARIANT, change), what


@pytest.mark.parametrize("what, change", [
    ("no players", lambda d: d.pop("players")),
    ("unknown key", lambda d: d.update(seeds=2)),
    ("step with two kinds", lambda d: d["steps"].append({"expect": "true", "run": "true"})),
    ("step of no kind", lambda d: d["steps"].append({"description": "nothing"})),
    ("message without expect", lambda d: d["steps"].append({"run": "true", "message": "x"})),
    ("unknown agent", lambda d: d["steps"].append({"run": "true", "agent": "smart"})),
    ("act without action", lambda d: d["steps"].append({"act": {"player": 0}})),
    ("pins not a list", lambda d: d.update(pins={"roll": 3})),
])
def test_bad_scenario_fails(what, change):
    assert _bad("scenario", SCENARIO, change), what
