"""Unit tests for interpreter.play.state: clone independence and the JSON round trip."""
import json

import pytest
from ruleset_builder import load

from interpreter import Action, Game
from interpreter.errors import SaveError
from interpreter.machine.values import PlayerRef, ThingRef, ZoneRef
from interpreter.play.state import State

# A game that stops at a choice in the middle of a function, with every part of
# the state filled: globals holding references, counters, zones, thing and zone
# properties, an added board link and a VM stack two frames deep.
RICH = {
    "variables": {"who": None, "favourite": None, "where": None, "mix": [], "table": {"initial": {"a": 1}}},
    "player": {"vars": {"score": 0, "coins": 3}},
    "zones": [{"id": "deck"}, {"id": "hand", "per_player": True, "visibility": "owner"}],
    "board": {"spaces": [{"id": "a"}, {"id": "b"}, {"id": "c"}],
              "edges": [{"from": "a", "to": "b"}]},
    "things": [{"id": "card", "count": 3, "start": "deck"}],
    "props": {"things": {"marked": False}, "zones": {"flooded": False}},
    "functions": {"pick": {"params": ["base"],
                           "do": "c = choose(player(0), deck, prompt='pick a card')\nreturn c"}},
    "setup": "who = player(1)\nfavourite = top(deck)\nwhere = space('b')\nmix = [player(0), space('a'), [1, 'x']]\n"
             "player(1).coins = 7\ntop(deck).marked = true\nspace('c').flooded = true\nremove_space(space('c'))\n"
             "connect(space('b'), space('c'), 'rope', one_way=true)\nmove(thing('card.3'), player(0).hand)",
    "flow": [{"do": "got = pick(5)\nmove(got, player(1).hand)"}],
}


@pytest.fixture
def game(tmp_path):
    g = Game(load(tmp_path, RICH), 2, seed=3)
    assert g.state.pending is not None and g.state.pending["kind"] == "choice"
    return g


def test_rich_state_is_what_the_setup_made(game):
    st = game.state
    assert st.vars["who"] == PlayerRef(1)
    assert isinstance(st.vars["favourite"], ThingRef) and st.vars["favourite"].id == "card.1"
    assert isinstance(st.vars["where"], ZoneRef) and st.vars["where"].id == "b"
    assert st.pvars[1]["coins"] == 7 and st.pvars[0]["coins"] == 3
    assert st.zones["deck"] == ["card.1", "card.2"] and st.zones["hand@0"] == ["card.3"]
    assert st.where["card.3"] == "hand@0"
    assert st.props["card.1"]["marked"] is True
    assert st.zprops["c"] == {"flooded": True, "removed": True}
    assert st.links == [["b", "c", "rope", True]]
    assert [f[0] for f in st.stack] == ["flow", "fn:pick"]


# --- clone ----------------------------------------------------------------------------

def test_clone_equals_original(game):
    twin = game.state.clone()
    assert twin == game.state
    assert twin is not game.state


def test_clone_is_independent_in_every_part(game):
    original = json.dumps(game.state.to_json(), sort_keys=True)
    twin = game.state.clone()
    twin.vars["mix"][2].append("changed")
    twin.vars["table"]["a"] = 2
    twin.pvars[0]["coins"] = 99
    twin.out[0] = True
    twin.zones["deck"].pop()
    twin.where["card.1"] = "box"
    twin.own_props("card.1")["marked"] = False   # props are changed through own_props (copy on write)
    twin.own_zprops("c")["flooded"] = False
    # a link is made anew, never changed in place (rules/board.py): a clone shares each and has its own list
    twin.links[0] = ["b", "c", "bridge", True]
    twin.links.append(["a", "c", "rope", False])
    twin.stack[1][2]["base"] = 6
    twin.stack[0][1] += 1
    twin.pending["options"].pop()
    twin.pins["x"] = [1]
    twin.phase.append("new")
    twin.rng += 1
    twin.steps += 1
    assert json.dumps(game.state.to_json(), sort_keys=True) == original
    assert game.state.where["card.1"] == "deck"
    assert twin != game.state


def test_props_are_shared_until_either_side_writes(game):
    st = game.state
    twin = st.clone()
    assert twin.props["card.2"] is st.props["card.2"]   # shared: nothing copied yet
    st.own_props("card.2")["marked"] = True               # the original writes after the clone
    assert twin.props["card.2"].get("marked") is None and st.props["card.2"]["marked"] is True
    third = twin.clone()
    third.own_props("card.2")["marked"] = "x"
    assert twin.props["card.2"].get("marked") is None and st.props["card.2"]["marked"] is True


def test_zone_props_are_shared_until_either_side_writes(game):
    st = game.state
    twin = st.clone()
    assert twin.zprops["c"] is st.zprops["c"]
    game.set_zone_prop("c", "flooded", False)   # the original writes after the clone
    assert twin.zprops["c"]["flooded"] is True and st.zprops["c"]["flooded"] is False
    game.set_zone_prop("a", "flooded", [1])      # a zone that had no properties, given a list
    third = st.clone()
    third.zprops["a"]["flooded"].append(2)       # a list inside is never shared
    assert st.zprops["a"]["flooded"] == [1] and "a" not in twin.zprops


def test_props_holding_a_list_are_copied_at_once(game):
    # a rule may change a list inside a property in place, without own_props
    st = game.state
    st.own_props("card.1")["known_to"] = [0]
    st.mark_deep("card.1")
    twin = st.clone()
    twin.props["card.1"]["known_to"].append(1)
    assert st.props["card.1"]["known_to"] == [0]
    restored = State.from_json(json.loads(json.dumps(st.to_json())), game.table)   # deep things not yet known
    copy = restored.clone()
    copy.props["card.1"]["known_to"].append(1)
    assert restored.props["card.1"]["known_to"] == [0]


def test_game_clone_evolves_identically(game):
    twin = game.clone()
    action = game.legal_actions(0)[1]
    assert game.apply(action)
    assert twin.apply(action)
    assert twin.state == game.state
    assert twin.is_over and game.is_over


def test_game_clone_does_not_touch_the_original(game):
    before = game.state.clone()
    twin = game.clone()
    twin.apply(twin.legal_actions(0)[0])
    assert twin.is_over
    assert game.state == before
    assert not game.is_over


def _peek_ruleset(tmp_path):
    return load(tmp_path, {
        "zones": [{"id": "pile", "visibility": "nobody", "face": "down"}],
        "things": [{"id": "card", "start": "pile"}],
        "actions": [{"id": "spy", "choose": {"c": "pile"}, "do": "peek(player, c)"}],
        "flow": [{"each_player": "current", "steps": [{"turn": {"player": "current", "actions": ["spy"]}}]}]})


def test_peek_in_a_clone_does_not_change_the_original(tmp_path):
    game = Game(_peek_ruleset(tmp_path), 2)
    assert game.apply(game.legal_actions(0)[0])      # seat 0 peeks
    assert game.apply(Action(0, "pass"))
    twin = game.clone()
    assert twin.apply(twin.legal_actions(1)[0])      # seat 1 peeks, in the clone only
    assert twin.state.props["card"]["known_to"] == [0, 1]
    assert game.state.props["card"]["known_to"] == [0]


# --- JSON ----------------------------------------------------------------------------------

def test_to_json_is_plain_json(game):
    data = game.state.to_json()
    text = json.dumps(data)
    assert json.loads(text) == data
    assert data["vars"]["who"] == {"player": 1}
    assert data["vars"]["favourite"] == {"thing": "card.1"}
    assert data["vars"]["where"] == {"zone": "b"}
    assert data["vars"]["table"] == {"map": {"a": 1}}
    assert isinstance(data["rng"], str)  # 64-bit values survive JSON readers with doubles


def test_from_json_round_trip(game):
    data = json.loads(json.dumps(game.state.to_json()))
    back = State.from_json(data, game.table)
    assert back == game.state
    assert back.vars["mix"] == [PlayerRef(0), game.table.zones["a"], [1, "x"]]
    assert back.where == game.state.where
    assert back.rng == game.state.rng
    assert back.pending["options"] == game.state.pending["options"]


def test_game_json_round_trip_continues_identically(game):
    saved = json.loads(json.dumps(game.to_json()))
    restored = Game.from_json(game.ruleset, saved)
    assert restored.state == game.state
    assert restored.legal_actions(0) == game.legal_actions(0)
    action = game.legal_actions(0)[1]
    game.apply(action)
    restored.apply(action)
    assert restored.state == game.state
    assert restored.state.zones["hand@1"] == ["card.2"]


def test_from_json_refuses_another_ruleset(game, tmp_path):
    other = load(tmp_path, {"id": "other"})
    with pytest.raises(SaveError):
        Game.from_json(other, game.to_json())


def test_from_json_refuses_a_damaged_save(game):
    data = game.to_json()
    del data["state"]["zones"]
    with pytest.raises(SaveError) as info:
        Game.from_json(game.ruleset, data)
    assert "damaged" in info.value.message


def test_state_equality_and_unhashable():
    a, b = State(), State()
    assert a == b
    b.vars["x"] = 1
    assert a != b
    assert a != "state"
    with pytest.raises(TypeError):
        hash(a)
