"""Unit tests for interpreter.load.files: merge rules, includes and variant overlays."""
import itertools

import pytest

from interpreter import load_ruleset
from interpreter.errors import DavitError, Findings, LoadError, RulesetError
from interpreter.load.files import merge_into, read_ruleset_tree, read_variant, resolve_ruleset, variants_of
from interpreter.load.yaml_reader import parse_yaml, plain

_serial = itertools.count()


def merged(base_text, overlay_text, strict=False):
    base = parse_yaml(base_text, "base.yaml")
    overlay = parse_yaml(overlay_text, "over.yaml")
    errors = []
    merge_into(base, overlay, errors, strict=strict)
    return base, errors


# --- merge rules (variants: not strict) --------------------------------------------------

def test_maps_merge_key_by_key_recursively():
    base, errors = merged("a: {x: 1, y: {p: 1, q: 2}}\nb: 1\n", "a: {y: {q: 3, r: 4}, z: 5}\n")
    assert errors == []
    assert plain(base) == {"a": {"x": 1, "y": {"p": 1, "q": 3, "r": 4}, "z": 5}, "b": 1}


def test_scalars_and_plain_lists_are_replaced():
    base, errors = merged("n: 1\ns: text\nl: [1, 2, 3]\n", "n: 2\nl: [9]\n")
    assert errors == []
    assert plain(base) == {"n": 2, "s": "text", "l": [9]}


def test_a_map_replaced_by_a_scalar():
    base, errors = merged("a: {x: 1}\n", "a: 7\n")
    assert plain(base) == {"a": 7}


def test_id_lists_merge_by_id():
    base, errors = merged(
        "zones:\n  - {id: deck, capacity: 3, name: Deck}\n  - {id: hand}\n",
        "zones:\n  - {id: deck, capacity: 5}\n  - {id: pile}\n")
    assert errors == []
    assert plain(base)["zones"] == [{"id": "deck", "capacity": 5, "name": "Deck"}, {"id": "hand"},
                                    {"id": "pile"}]


def test_remove_true_deletes_by_id_and_keeps_order():
    base, errors = merged("xs:\n  - {id: a}\n  - {id: b}\n  - {id: c}\n",
                          "xs:\n  - {id: b, remove: true}\n  - {id: d}\n")
    assert errors == []
    assert [x["id"] for x in base["xs"]] == ["a", "c", "d"]
    # locations follow their items
    assert base["xs"].loc_of(1).line == 4 and base["xs"].loc_of(1).file == "base.yaml"
    assert base["xs"].loc_of(2).file == "over.yaml"


def test_removing_an_unknown_id_is_an_error():
    base, errors = merged("xs:\n  - {id: a}\n", "xs:\n  - {id: zz, remove: true}\n")
    assert len(errors) == 1
    assert isinstance(errors[0], RulesetError)
    assert "cannot remove 'zz'" in errors[0].message
    assert errors[0].location.file == "over.yaml" and errors[0].location.line == 2
    assert [x["id"] for x in base["xs"]] == ["a"]


def test_new_keys_keep_the_overlay_location():
    base, _ = merged("a: 1\n", "\n\nb: 2\n")
    assert base.loc_of("b").file == "over.yaml" and base.loc_of("b").line == 3
    assert base.key_loc("b").line == 3


def test_replaced_value_takes_the_overlay_location():
    base, _ = merged("a: 1\n", "a: 2\n")
    assert base.loc_of("a").file == "over.yaml"


def test_skip_keys_are_not_merged():
    base = parse_yaml("a: 1\n")
    errors = []
    merge_into(base, parse_yaml("variant: v\na: 2\n"), errors, skip=("variant",))
    assert plain(base) == {"a": 2}


# --- merge rules for includes (strict) ---------------------------------------------------

def test_strict_refuses_a_scalar_set_twice():
    base, errors = merged("c: {a: 1}\n", "c: {a: 2, b: 3}\n", strict=True)
    assert len(errors) == 1
    assert "'a' is already set in another file" in errors[0].message
    assert "line 1 of base.yaml" in errors[0].message
    assert errors[0].location.file == "over.yaml"
    assert plain(base) == {"c": {"a": 1, "b": 3}}


def test_strict_refuses_an_id_defined_twice():
    base, errors = merged("xs:\n  - {id: a, v: 1}\n", "xs:\n  - {id: a, v: 2}\n  - {id: b}\n", strict=True)
    assert len(errors) == 1
    assert errors[0].message == "id 'a' is defined twice"
    assert plain(base)["xs"] == [{"id": "a", "v": 1}, {"id": "b"}]


def test_strict_appends_plain_lists():
    base, errors = merged("flow: [1, 2]\n", "flow: [3]\n", strict=True)
    assert errors == []
    assert plain(base) == {"flow": [1, 2, 3]}
    assert base["flow"].loc_of(2).file == "over.yaml"


# --- include files -------------------------------------------------------------------------

def _folder(tmp_path):
    folder = tmp_path / f"rs{next(_serial)}"
    folder.mkdir()
    return folder


MAIN = """\
id: unit
players: {min: 1, max: 2}
include: [part.yaml]
constants:
  a: 1
zones:
  - {id: deck}
flow:
  - do: pass
"""


def test_include_adds_sections(tmp_path):
    folder = _folder(tmp_path)
    (folder / "ruleset.yaml").write_text(MAIN)
    (folder / "part.yaml").write_text("constants:\n  b: 2\nzones:\n  - {id: hand}\n")
    rs = load_ruleset(folder)
    assert rs.constants == {"a": 1, "b": 2}
    assert {"deck", "hand"} <= set(rs.zones)
    assert [p.name for p in rs.files] == ["ruleset.yaml", "part.yaml"]


def test_include_conflict_is_reported_at_the_included_line(tmp_path):
    folder = _folder(tmp_path)
    (folder / "ruleset.yaml").write_text(MAIN)
    (folder / "part.yaml").write_text("constants:\n  a: 2\n")
    with pytest.raises(RulesetError) as info:
        load_ruleset(folder)
    err = info.value
    assert "'a' is already set in another file (line 5 of" in err.message
    assert err.location.file.endswith("part.yaml")
    assert (err.location.line, err.location.column) == (2, 6)


def test_include_that_redefines_an_id_is_refused(tmp_path):
    folder = _folder(tmp_path)
    (folder / "ruleset.yaml").write_text(MAIN)
    (folder / "part.yaml").write_text("zones:\n  - {id: deck, capacity: 2}\n")
    with pytest.raises(DavitError) as info:
        load_ruleset(folder)
    assert "id 'deck' is defined twice" in str(info.value)


def test_missing_include_is_an_error(tmp_path):
    folder = _folder(tmp_path)
    (folder / "ruleset.yaml").write_text(MAIN)
    errors = []
    read_ruleset_tree(folder / "ruleset.yaml", errors)
    assert len(errors) == 1 and isinstance(errors[0], LoadError)
    assert "included file 'part.yaml' does not exist" in errors[0].message
    assert errors[0].location.line == 3


def test_include_outside_the_folder_is_refused(tmp_path):
    folder = _folder(tmp_path)
    (tmp_path / "outside.yaml").write_text("constants: {z: 1}\n")
    (folder / "ruleset.yaml").write_text(MAIN.replace("[part.yaml]", "[../outside.yaml]"))
    errors = []
    data, files = read_ruleset_tree(folder / "ruleset.yaml", errors)
    assert len(errors) == 1 and "must be a file beside the ruleset" in errors[0].message
    assert "z" not in data["constants"]
    assert len(files) == 1


def test_include_that_is_not_a_mapping(tmp_path):
    folder = _folder(tmp_path)
    (folder / "ruleset.yaml").write_text(MAIN)
    (folder / "part.yaml").write_text("- 1\n- 2\n")
    errors = []
    read_ruleset_tree(folder / "ruleset.yaml", errors)
    assert len(errors) == 1 and "must be a mapping" in errors[0].message


# --- variants --------------------------------------------------------------------------------

BASE = """\
id: unit
players: {min: 1, max: 3}
constants:
  rounds: 3
  bonus: 1
zones:
  - {id: deck, capacity: 3}
  - {id: hand}
  - {id: pile}
flow:
  - do: pass
"""


def _with_variant(tmp_path, variant_text, name="v"):
    folder = _folder(tmp_path)
    (folder / "ruleset.yaml").write_text(BASE)
    (folder / "variants").mkdir()
    (folder / "variants" / f"{name}.yaml").write_text(variant_text)
    return folder


def test_variant_overlays_by_the_merge_rules(tmp_path):
    folder = _with_variant(tmp_path, "variant: v\nconstants:\n  rounds: 5\n"
                                     "zones:\n  - {id: deck, capacity: 6}\n  - {id: pile, remove: true}\n"
                                     "players: {max: 2}\n")
    base = load_ruleset(folder)
    rs = load_ruleset(folder, "v")
    assert rs.variant == "v" and base.variant is None
    assert rs.constants == {"rounds": 5, "bonus": 1}
    assert rs.zones["deck"].capacity == 6
    assert "pile" not in rs.zones and "hand" in rs.zones
    assert (rs.min_players, rs.max_players) == (1, 2)
    # the base ruleset is left as it was
    assert base.constants["rounds"] == 3 and "pile" in base.zones and base.zones["deck"].capacity == 3
    assert rs.fingerprint != base.fingerprint


def test_variant_file_as_the_ruleset_path(tmp_path):
    folder = _with_variant(tmp_path, "variant: v\nextends: ..\nconstants: {bonus: 9}\n")
    rs = load_ruleset(folder / "variants" / "v.yaml")
    assert rs.variant == "v" and rs.constants["bonus"] == 9


def test_unknown_variant_lists_the_known_ones(tmp_path):
    folder = _with_variant(tmp_path, "variant: v\n")
    with pytest.raises(LoadError) as info:
        load_ruleset(folder, "nope")
    assert "no variant 'nope'" in info.value.message
    assert "variants: v" in info.value.message


def test_variant_removing_an_unknown_id(tmp_path):
    folder = _with_variant(tmp_path, "variant: v\nzones:\n  - {id: ghost, remove: true}\n")
    with pytest.raises(DavitError) as info:
        load_ruleset(folder, "v")
    errs = info.value.errors if isinstance(info.value, Findings) else [info.value]
    assert any("cannot remove 'ghost'" in e.message for e in errs)


def test_variants_of_and_read_variant(tmp_path):
    folder = _with_variant(tmp_path, "variant: v\n")
    found = variants_of(folder / "ruleset.yaml")
    assert list(found) == ["v"]
    data, base = read_variant(found["v"], [])
    assert data["variant"] == "v"
    assert base == folder / "ruleset.yaml"  # no `extends`: the ruleset above variants/


def test_variant_extending_a_missing_ruleset(tmp_path):
    folder = _with_variant(tmp_path, "variant: v\nextends: ../../nowhere\n")
    with pytest.raises(RulesetError) as info:
        read_variant(folder / "variants" / "v.yaml", [])
    assert "does not exist" in info.value.message


def test_resolve_ruleset(tmp_path):
    folder = _with_variant(tmp_path, "variant: v\n")
    path, variant = resolve_ruleset(str(folder))
    assert path == folder / "ruleset.yaml" and variant is None
    with pytest.raises(LoadError) as info:
        resolve_ruleset(str(tmp_path / "no-such-thing"))
    assert "no ruleset" in info.value.message
