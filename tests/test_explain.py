"""`davit explain`: the rules as a short Markdown rulebook, for every bundled ruleset."""
import re

import pytest

from interpreter.authoring.explain import explain
from interpreter.load.files import bundled_ids, bundled_rulesets_dir, variants_of
from interpreter.rules.loading import load_ruleset


def _all_rulesets():
    for rid in bundled_ids():
        yield rid, None
        for variant in variants_of(bundled_rulesets_dir() / rid / "ruleset.yaml"):
            yield pytest.param(rid, variant, marks=pytest.mark.slow)   # fast tier: each ruleset's base game


@pytest.fixture(scope="module")
def mythos():
    return explain(load_ruleset("der-mythos"))


@pytest.fixture(scope="module")
def tutorial():
    return explain(load_ruleset("tutorial"))


def test_title_description_and_players(mythos):
    rs = load_ruleset("der-mythos")
    assert mythos.startswith(f"# {rs.name}\n")
    assert "## Players" in mythos
    assert f"For {rs.min_players} to {rs.max_players} players." in mythos
    assert ", ".join(rs.player_names) in mythos


def test_rounds_come_from_the_constant(mythos):
    assert "Repeat 9 times (round = 1..9, the constant `rounds`)" in mythos
    assert re.search(r"\| `rounds` \| 9 \|", mythos), "the constants table gives the value"


def test_play_action_with_its_choice_from_the_hand(mythos):
    section = mythos.split("### play", 1)[1].split("\n## ", 1)[0]
    assert "“play passenger {card.value}”" in section
    assert "Choose `card` from `player.hand`." in section
    assert "`move(card, player.played)`" in section
    assert "simultaneous step" in section
    assert re.search(r"ruleset\.yaml:\d+", section), "the action points at its YAML line"
    assert "All players at once secretly choose" in mythos


def test_components_are_counted_and_grouped_by_kind(mythos):
    assert "### Passenger: 9 per player (18 to 45 in all, by player count)" in mythos
    assert "### Lifeboat: 8" in mythos
    assert "`boat-I` “lifeboat I”: 3; class I, factor 1" in mythos


def test_dsl_is_shown_as_written_with_its_line(mythos):
    rs = load_ruleset("der-mythos")
    setup = str(rs.data["setup"])
    assert setup.rstrip("\n") in mythos
    loc = rs.data.loc_of("setup")
    assert f"{loc.file}:{loc.line}" in mythos
    body = str(rs.data["functions"]["boat_points"]["do"]).rstrip("\n")
    assert "\n".join("   " + line for line in body.split("\n")) in mythos


def test_reconstructed_section_lists_the_provenance(mythos):
    rs = load_ruleset("der-mythos")
    section = mythos.split("## Reconstructed rules", 1)[1]
    assert rs.provenance
    for loc, reason, _ in rs.provenance:
        assert f"{loc.file}:{loc.line}" in section
        assert " ".join(reason.split()) in section
    assert "**thing `boat-I`**" in section
    assert "**players**" in section


def test_tutorial_lifeboat_capacity_and_admission(tutorial):
    line = next(text for text in tutorial.splitlines() if text.startswith("- **lifeboat**"))
    assert "capacity 3" in line
    assert "Admits a thing only if `boat_admits(thing)`" in tutorial
    assert "children first" in tutorial


def test_tutorial_board_turns_and_end(tutorial):
    board = load_ruleset("tutorial").data["board"]
    spaces, edges = board["spaces"], board["edges"]
    one_way = [e for e in edges if e.get("one_way")]
    assert f"{len(spaces)} spaces and {len(edges)} edges (" in tutorial
    assert f"; {len(one_way)} of the edges are one-way." in tutorial
    for e in one_way:
        assert f"{e['from']} → {e['to']}" in tutorial
    for s in spaces:
        assert f"(`{s['id']}`)" in tutorial
    assert "Each player in turn, clockwise from `player((round - 1) % num_players)`" in tutorial
    assert "takes a turn “crew turn”" in tutorial and "may pass" in tutorial
    assert "Step **refresh**" in tutorial and "`current.actions_left = actions_per_turn`" in tutorial
    assert "Costs 1 actions_left." in tutorial
    assert "Allowed only if `boat_admits(passenger)`" in tutorial
    assert "The game ends as soon as `lifeboat.full or left_to_save() == 0` holds" in tutorial
    assert "ties are broken by `1 if here(p) != sea else 0`" in tutorial
    assert "share the win" in tutorial


def test_variant_is_named_in_the_title():
    text = explain(load_ruleset("tutorial", "bigger-boat"))
    assert text.splitlines()[0].endswith("variant bigger-boat")
    assert "capacity 5" in text


@pytest.mark.parametrize("rid, variant", list(_all_rulesets()))
def test_explain_runs_for_every_bundled_ruleset(rid, variant):
    rs = load_ruleset(rid, variant)
    text = explain(rs)
    assert text.startswith("# ") and text.endswith("\n")
    for heading in ("## Players", "## Setup", "## Course of play", "## End of the game and scoring",
                    "## Reconstructed rules"):
        assert heading in text
    for aid in rs.actions:
        assert f"### {aid}" in text
    assert text.count("```") % 2 == 0, "every code block is closed"
    if variant:
        assert f"variant {variant}" in text.splitlines()[0]
