"""How a variant changes a ruleset (interpreter/load/overlay.py): the natural forms work, a change that
names nothing or changes nothing is refused at its file and line, and a variant file may lie anywhere."""
import json
import textwrap
from pathlib import Path

import pytest
from cli_runner import davit

from interpreter import load_ruleset
from interpreter.errors import DavitError

# der-mythos prints 12 / 18 / 24 / 30 as the lifeboats' limits (rulesets/der-mythos/ruleset.yaml)
TIGHTER = """\
variant: tighter-boats
extends: der-mythos
description: Every lifeboat holds one point less than printed.
constants:
  overload_limits: {2: 11, 3: 17, 4: 23, 5: 29}
"""

# the scenario of rulesets/der-mythos/scenarios/overloaded-boat.yaml, with 6 + 6 = 12 in round two:
# exactly the printed limit for two players, so the boat capsizes only if the limit really is 11
CAPSIZE = """\
scenario: tighter-boat-capsizes
ruleset: der-mythos
{variant}
players: 2
pins:
  "shuffle lifeboats": [[boat-III.1, boat-I.1, boat-I.2, boat-I.3, boat-II.1, boat-II.2, boat-II.3, boat-III.2]]
steps:
  - act: {{player: 0, action: play, args: {{card: passenger-1@0}}}}
  - act: {{player: 1, action: play, args: {{card: passenger-1@1}}}}
  - act: {{player: 0, action: play, args: {{card: passenger-6@0}}}}
  - act: {{player: 1, action: play, args: {{card: passenger-6@1}}}}
  - expect:
      - thing("boat-III.1").zone == capsized
"""


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text))
    return path


@pytest.fixture
def elsewhere(tmp_path):
    """A designer's own folder, outside every ruleset."""
    folder = tmp_path / "my-variants"
    folder.mkdir()
    return folder


@pytest.mark.slow
def test_the_natural_constant_form_changes_play(elsewhere):
    variant = _write(elsewhere, "tighter-boats.yaml", TIGHTER)
    with_variant = _write(elsewhere, "with.yaml", CAPSIZE.format(variant=f"variant: {variant}"))
    without = _write(elsewhere, "without.yaml", CAPSIZE.format(variant=""))
    ran = davit("test", str(with_variant))
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "1 passed, 0 failed" in ran.stdout
    # the same steps on the printed limit: the boat is lowered, so the variant is what capsized it
    base = davit("test", str(without))
    assert base.returncode == 1 and "expectation failed" in base.stdout


def test_a_table_constant_is_replaced_whole():
    from interpreter.load.overlay import apply_variant
    from interpreter.load.yaml_reader import parse_yaml
    base = parse_yaml("constants:\n  limits:\n    value: {2: 12, 3: 18}\n    source: printed\n")
    errors = []
    apply_variant(base, parse_yaml("variant: v\nconstants:\n  limits: {2: 11, 3: 17}\n"), "v", errors)
    assert errors == []
    assert dict(base["constants"]["limits"]) == {2: 11, 3: 17}   # not the old mapping with keys added


@pytest.mark.slow
def test_a_variant_file_outside_the_ruleset_plays_diffs_compares_and_simulates(elsewhere):
    variant = str(_write(elsewhere, "tighter-boats.yaml", TIGHTER))
    played = davit("play", "der-mythos", "--variant", variant, "--players", "2", "--seed", "1", "--quiet")
    assert played.returncode == 0, played.stderr
    assert "Game over" in played.stdout
    diffed = davit("diff", "der-mythos", "--variant", variant)
    assert diffed.returncode == 0, diffed.stderr
    assert "overload_limits" in diffed.stdout and "{2: 11" in diffed.stdout
    compared = davit("compare", "der-mythos", "--variant", variant, "--games", "6", "--players", "2", "--json")
    assert compared.returncode == 0, compared.stderr
    assert json.loads(compared.stdout)["variants"][0]["variant"] is None
    simulated = davit("simulate", "der-mythos", "--variant", variant, "--games", "4", "--players", "3",
                      "--workers", "2", "--json")
    assert simulated.returncode == 0, simulated.stderr
    assert json.loads(simulated.stdout)["games"] == 4


def test_outside_variants_combine_with_each_other_and_with_bundled_ones(elsewhere):
    tighter = _write(elsewhere, "tighter-boats.yaml", TIGHTER)
    pricier = _write(elsewhere, "pricier.yaml", "variant: pricier\nextends: der-mythos\n"
                                                "constants:\n  lowest_card_penalty: 8\n")
    both = load_ruleset("der-mythos", [str(tighter), str(pricier)])
    assert both.variant == "tighter-boats+pricier"
    assert load_ruleset("der-mythos", ["simplified-scoring", str(pricier)]).variant == "simplified-scoring+pricier"
    clash = _write(elsewhere, "clash.yaml", "variant: clash\nextends: der-mythos\n"
                                            "constants:\n  lowest_card_penalty: 9\n")
    with pytest.raises(DavitError, match="set constants.lowest_card_penalty differently"):
        load_ruleset("der-mythos", [str(pricier), str(clash)])


@pytest.mark.slow
def test_ray_ships_every_variant_of_a_combination(elsewhere):
    from interpreter.analysis.ray_backend import _folder_for, _local_variant, ruleset_files
    files, variant = ruleset_files("collapsible-d", "composure+hang-on")
    assert {"variants/composure.yaml", "variants/hang-on.yaml"} <= set(files)
    rebuilt = load_ruleset(_folder_for(files), variant)
    assert rebuilt.fingerprint == load_ruleset("collapsible-d", "composure+hang-on").fingerprint
    # a designer's file from elsewhere travels under its id, apart from the ruleset's own variants (the
    # combinable groups do not bind it), and its `extends:` still names the base
    files, variant = ruleset_files("der-mythos", str(_write(elsewhere, "tighter-boats.yaml", TIGHTER)))
    assert "outside/tighter-boats.yaml" in files and variant == "outside/tighter-boats.yaml"
    folder = _folder_for(files)
    assert load_ruleset(folder, _local_variant(folder, variant)).variant == "tighter-boats"


# (file text, the line the error must name, a part of its message)
MISTAKES = {
    "unchanged-constant": ("variant: v\nextends: der-mythos\nconstants:\n  lowest_card_penalty: 6\n", 4,
                           "changes nothing"),
    "unchanged-table": ("variant: v\nextends: der-mythos\nconstants:\n"
                        "  overload_limits: {2: 12, 3: 18, 4: 24, 5: 30}\n", 4, "changes nothing"),
    "only-prose": ("variant: v\nextends: der-mythos\nconstants:\n  lowest_card_penalty:\n    value: 6\n"
                   "    source: elsewhere\n", 5, "changes nothing"),
    "half-a-table": ("variant: v\nextends: der-mythos\nconstants:\n  overload_limits: {2: 11}\n", 4,
                     "no entry 3, 4, 5"),
    "text-for-a-number": ("variant: v\nextends: der-mythos\nconstants:\n  lowest_card_penalty: \"7\"\n", 4,
                          "constant 'lowest_card_penalty' is"),
    "misspelt-constant": ("variant: v\nextends: der-mythos\nconstants:\n  overload_limit: {2: 11, 3: 17}\n", 4,
                          "did you mean 'overload_limits'"),
    "misspelt-function": ("variant: v\nextends: der-mythos\nfunctions:\n  card_off:\n    value: \"3\"\n", 4,
                          "did you mean 'card_of'"),
    "misspelt-action": ("variant: v\nextends: der-mythos\nactions:\n  - id: plya\n    label: Play\n", 4,
                        "did you mean 'play'"),
    "a-list-for-a-mapping": ("variant: v\nextends: der-mythos\nplayers:\n  - 2\n", 4, "mapping"),
    "extends-another-game": ("variant: v\nextends: titanic\nconstants:\n  lowest_card_penalty: 7\n", 2,
                             "not the ruleset it is applied to"),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(MISTAKES))
def test_a_variant_mistake_is_refused_at_its_line(elsewhere, case):
    text, line, message = MISTAKES[case]
    path = _write(elsewhere, f"{case}.yaml", text)
    if case == "extends-another-game":
        ran = davit("play", "der-mythos", "--variant", str(path), "--quiet")
    else:
        ran = davit("validate", str(path))
    out = ran.stdout + ran.stderr
    assert ran.returncode == 1, out
    assert "Traceback" not in out
    assert f"{case}.yaml:{line}:" in out, out
    assert message in out, out


@pytest.mark.slow
def test_a_variant_that_changes_nothing_at_all_is_refused(elsewhere):
    path = _write(elsewhere, "same.yaml", "variant: same\nextends: tutorial\ndescription: the same game\n")
    ran = davit("validate", str(path))
    assert ran.returncode == 1
    assert "same.yaml:1:1: error[variant-changes-nothing]: variant 'same' changes nothing" in ran.stdout


@pytest.mark.slow
def test_compare_refuses_an_a_a_run_unless_asked(elsewhere):
    same = "extends: tutorial\nzones:\n  - id: lifeboat\n    capacity: 5\n"
    a = _write(elsewhere, "a.yaml", "variant: a\n" + same)
    b = _write(elsewhere, "b.yaml", "variant: b\n" + same)
    refused = davit("compare", "tutorial", "--no-base", "--variant", str(a), "--variant", str(b), "--games", "4")
    assert refused.returncode == 1
    assert "b has the same rules as a" in refused.stderr and "--allow-same" in refused.stderr
    ran = davit("compare", "tutorial", "--no-base", "--variant", str(a), "--variant", str(b),
                "--allow-same", "--games", "4", "--json")
    assert ran.returncode == 0, ran.stderr
    assert len(json.loads(ran.stdout)["variants"]) == 2


def test_named_sections_merge_field_by_field():
    from interpreter.load.overlay import apply_variant
    from interpreter.load.yaml_reader import parse_yaml
    base = parse_yaml("variables:\n  taken: {initial: 0, max: 5}\nfunctions:\n  f:\n    params: [x]\n"
                      "    value: x + 1\n")
    errors = []
    apply_variant(base, parse_yaml("variant: v\nvariables:\n  taken: {max: 3}\nfunctions:\n  f:\n"
                                   "    value: x + 2\n"), "v", errors)
    assert errors == []
    assert dict(base["variables"]["taken"]) == {"initial": 0, "max": 3}
    assert list(base["functions"]["f"]["params"]) == ["x"] and base["functions"]["f"]["value"] == "x + 2"


def test_an_id_item_given_as_the_base_has_it_changes_nothing():
    from interpreter.load.overlay import apply_variant
    from interpreter.load.yaml_reader import parse_yaml
    base = parse_yaml("zones:\n  - id: boat\n    capacity: 4\n  - id: deck\n")
    errors = []
    apply_variant(base, parse_yaml("variant: v\nzones:\n  - id: boat\n    capacity: 4\n"), "v", errors)
    assert [e.code for e in errors] == ["variant-changes-nothing"]
    assert errors[0].location.line == 3 and "zone 'boat'" in errors[0].message
