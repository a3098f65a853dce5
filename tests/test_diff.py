"""`davit diff`: differences between rulesets, stated in rule terms."""
import copy
from types import SimpleNamespace

import pytest

from interpreter.authoring.diff import Change, diff, format_diff, normalise_dsl
from interpreter.load.files import bundled_ids
from interpreter.load.yaml_reader import plain
from interpreter.rules.loading import load_ruleset


def texts(changes):
    return [c.text for c in changes]


def find_step(nodes, test):
    """The first flow node (depth first) for which ``test`` holds."""
    for node in nodes or []:
        if test(node):
            return node
        for key in ("steps", "then", "else"):
            found = find_step(node.get(key), test)
            if found is not None:
                return found
    return None


def fake(data, rid="x", variant=None):
    """A stand-in ruleset: diff only reads ``data`` (and the names for the header)."""
    return SimpleNamespace(data=data, id=rid, name=rid, variant=variant)


@pytest.mark.parametrize("rid", bundled_ids())
def test_a_ruleset_does_not_differ_from_itself(rid):
    rs = load_ruleset(rid)
    assert diff(rs, rs) == []
    assert diff(rs, rs, include_notes=True) == []
    assert "no rule differences" in format_diff([], rs, rs)


def test_more_players_variant():
    a, b = load_ruleset("der-mythos"), load_ruleset("der-mythos", "more-players")
    changes = diff(a, b)
    assert all(isinstance(c, Change) for c in changes)
    assert "players: max 5 → 10" in texts(changes)
    assert "players: min 2 → 6" in texts(changes)
    fn = [c for c in changes if c.path.startswith("functions.overload_limit")]
    assert len(fn) == 1 and fn[0].kind == "changed"
    assert fn[0].text.startswith("function `overload_limit` changed")
    assert fn[0].old == "overload_limits[num_players]" and fn[0].new == "num_players * 6"
    assert not any("reconstruct" in t for t in texts(changes)), "notes only with include_notes"
    assert any("reconstruction note" in t for t in texts(diff(a, b, include_notes=True)))
    out = format_diff(changes, a, b)
    assert out.splitlines()[0] == "der-mythos → der-mythos + variant more-players"
    assert "- players: max 5 → 10" in out


def test_simplified_scoring_variant():
    a, b = load_ruleset("der-mythos"), load_ruleset("der-mythos", "simplified-scoring")
    assert texts(diff(a, b)) == ["function `boat_points` changed (body)"]


def test_bigger_boat_variant():
    a, b = load_ruleset("tutorial"), load_ruleset("tutorial", "bigger-boat")
    changes = diff(a, b)
    assert [(c.path, c.kind, c.old, c.new) for c in changes] == [("zones.lifeboat.capacity", "changed", 3, 5)]
    assert changes[0].text == "zone `lifeboat` capacity 3 → 5"


def test_dsl_layout_and_comments_are_no_difference():
    assert normalise_dsl("if a:\n    x = 1  # why\n") == normalise_dsl("# note\nif a:\n  x=1\n")
    assert normalise_dsl("if a:\n  x\n  y\n") != normalise_dsl("if a:\n  x\ny\n")


@pytest.fixture()
def mythos_data():
    return plain(load_ruleset("der-mythos").data)


def test_rule_terms_for_many_kinds_of_change(mythos_data):
    old, new = mythos_data, copy.deepcopy(mythos_data)
    new["constants"]["rounds"]["value"] = 10
    find_step(new["flow"], lambda n: n.get("repeat") == "rounds")["repeat"] = 10
    boat = next(t for t in new["things"] if t["id"] == "boat-I")
    boat["count"] = 2
    play = next(a for a in new["actions"] if a["id"] == "play")
    play["if"] = "card.value > 1"
    play["reason"] = "no ones"
    play["cost"] = {"score": 1}
    play["do"] = "move(card,   player.played)   # only the layout changes\n"
    reveal = find_step(new["flow"], lambda n: n.get("step") == "reveal")
    reveal["do"] = reveal["do"] + "log(\"revealed\")\n"
    new["players"]["source"] = "somewhere else"
    changes = texts(diff(fake(old), fake(new)))
    assert "constant `rounds` 9 → 10" in changes
    assert "flow: repeat 9 (`rounds`) → 10 times (as round)" in changes
    assert "thing `boat-I` count 3 → 2" in changes
    assert "action `play` gains a condition: `card.value > 1` (“no ones”)" in changes
    assert "action `play` cost nothing → 1 score" in changes
    assert "flow: step `reveal` changed (in repeat (round))" in changes
    assert not any("effect" in t for t in changes), "a reformatted effect is the same rule"
    assert not any("source" in t for t in changes)
    assert len(changes) == 6


def test_board_changes():
    old = plain(load_ruleset("tutorial").data)
    new = copy.deepcopy(old)
    new["board"]["spaces"].append({"id": "a1", "attrs": {"deck": "boat"}})
    new["board"]["edges"].append({"from": "a1", "to": "davit", "kind": "ladder", "one_way": True})
    ladder = next(e for e in new["board"]["edges"] if e.get("one_way"))
    ladder["one_way"] = False
    gone = next(e for e in new["board"]["edges"] if not e.get("one_way") and "davit" not in (e["from"], e["to"]))
    new["board"]["edges"].remove(gone)
    changes = texts(diff(fake(old), fake(new)))
    assert "space `a1` added" in changes
    assert "edge a1 → davit (ladder, one-way) added" in changes
    assert f"edge {gone['from']} – {gone['to']} ({gone.get('kind', 'path')}) removed" in changes
    assert f"edge {ladder['from']} → {ladder['to']} becomes two-way" in changes
    assert len(changes) == 4
    back = texts(diff(fake(new), fake(old)))
    assert "edge a1 → davit (ladder, one-way) removed" in back and "space `a1` removed" in back


def test_flow_turn_end_and_scoring_changes():
    old = plain(load_ruleset("tutorial").data)
    new = copy.deepcopy(old)
    turn = find_step(new["flow"], lambda n: "turn" in n)["turn"]
    before = list(turn["actions"])
    turn["pass"] = False
    turn["actions"] = before[:1]
    new["flow"].insert(0, {"step": "greet", "do": "log(\"hello\")"})
    del new["end"]
    new["scoring"]["rank"] = ["p.score"]
    changes = texts(diff(fake(old), fake(new)))
    name = f"flow: turn “{turn['name']}”"
    assert "flow: step `greet` added" in changes
    assert any(t.startswith(f"{name}: may pass → may not pass (in repeat (round) › ") for t in changes)
    assert any(t.startswith(f"{name}: actions {', '.join(before)} → {before[0]} (in ") for t in changes)
    assert any(t.startswith("end condition removed") for t in changes)
    ranks = " → `p.score`"
    assert any(t.startswith("scoring: players ranked by `p.score`, then ") and t.endswith(ranks) for t in changes)


def test_format_diff_header_and_bullets():
    a, b = load_ruleset("tutorial"), load_ruleset("tutorial", "bigger-boat")
    lines = format_diff(diff(a, b), a, b).splitlines()
    assert lines[0] == "tutorial → tutorial + variant bigger-boat"
    assert lines[-1] == "- zone `lifeboat` capacity 3 → 5"
