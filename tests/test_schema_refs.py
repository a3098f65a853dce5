"""The schemas with their references written out (load/schema_refs.py) check exactly as the schemas do."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7

from interpreter.load.files import schemas_dir
from interpreter.load.schema_check import KINDS, load_schema
from interpreter.load.schema_messages import _key, _named_definitions
from interpreter.load.schema_refs import inline_refs
from interpreter.load.yaml_reader import load_yaml_file

ROOT = Path(__file__).resolve().parent.parent
BROKEN = sorted((ROOT / "tests" / "invalid").rglob("*.yaml"))
# each kind's own bundled files, the broken files the tests keep, and a few files of other kinds (errors
# everywhere)
FILES = {
    "ruleset": sorted((ROOT / "rulesets").glob("*/ruleset.yaml")) + BROKEN,
    "variant": sorted((ROOT / "rulesets").glob("*/variants/*.yaml")) + BROKEN
    + sorted((ROOT / "rulesets").glob("*/ruleset.yaml"))[:3],
    "scenario": sorted((ROOT / "rulesets").glob("*/scenarios/*.yaml"))[::6] + BROKEN
    + sorted((ROOT / "rulesets").glob("*/variants/*.yaml"))[:5],
}


def _as_written(kind: str):
    resources = [(p.name, Resource.from_contents(json.loads(p.read_text(encoding="utf-8")),
                                                 default_specification=DRAFT7))
                 for p in sorted(schemas_dir().glob("*.schema.json"))]
    return jsonschema.Draft7Validator(load_schema(kind), registry=Registry().with_resources(resources))


def _errors(validator, tree) -> list:
    def flat(error):
        # what davit's messages read of an error, the words for the definition it failed included
        return [(tuple(error.absolute_path), tuple(error.relative_schema_path), error.validator, error.message,
                 str(_named_definitions().get(_key(error.schema))), sorted(flat(sub) for sub in error.context))]
    return sorted(row for e in validator.iter_errors(tree) for row in flat(e))


@pytest.mark.parametrize("kind", KINDS)
def test_inlined_schemas_give_the_same_errors(kind):
    written = _as_written(kind)
    inlined = jsonschema.Draft7Validator(inline_refs(load_schema(kind), f"{kind}.schema.json"),
                                         registry=written._registry)
    checked = 0
    for path in FILES[kind]:
        try:
            tree = load_yaml_file(path, str(path))
        except Exception:   # noqa: BLE001 - a file broken before the schema: nothing to compare
            continue
        assert _errors(inlined, tree) == _errors(written, tree), path
        checked += 1
    assert checked > 40


def test_recursive_definitions_keep_their_reference():
    schema = inline_refs(load_schema("ruleset"), "ruleset.schema.json")
    text = json.dumps(schema)
    assert '"$ref"' in text                      # a flow holds flows: not written out for ever
    assert text.count('"$ref"') < json.dumps(load_schema("ruleset")).count('"$ref"')
