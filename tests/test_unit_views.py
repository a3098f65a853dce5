"""Unit tests for interpreter.play.visibility and interpreter.play.views: visibility, views per player, redaction."""
import json

import pytest
from ruleset_builder import load

from interpreter import Action, Game, load_ruleset
from interpreter.agents import make_agents
from interpreter.load.files import bundled_ids
from interpreter.machine.values import encode
from interpreter.observe.narrate import narrate
from interpreter.play.visibility import can_see, redact, watchers

BASE = {
    "player": {"vars": {"score": 0,
                        "secret": {"initial": 5, "visibility": "owner"},
                        "sealed": {"initial": 1, "visibility": "nobody"}}},
    "zones": [{"id": "hand", "per_player": True, "visibility": "owner"},
              {"id": "pile", "visibility": "nobody", "face": "down"},
              {"id": "open"}],
    "things": [{"id": "card", "per_player": True, "each": {"value": [1, 2, 3]}, "attrs": {"colour": "red"},
                "public": ["colour"], "start": "hand"},
               {"id": "coin", "start": "open"}],
}


def make(tmp_path, setup=None, flow=None, players=2, **extra):
    spec = dict(BASE)
    spec.update(extra)
    if setup:
        spec["setup"] = setup
    # keep the game open at a choice of player 0 unless told otherwise
    spec["flow"] = flow or [{"do": "x = choose(player(0), [1, 2], prompt='pick')"}]
    return Game(load(tmp_path, spec), players)


# --- can_see ----------------------------------------------------------------------------------

def test_owner_zone_is_seen_by_its_owner_only(tmp_path):
    game = make(tmp_path)
    assert can_see(game, 0, "card-1@0")
    assert not can_see(game, 1, "card-1@0")
    assert not can_see(game, None, "card-1@0")
    assert can_see(game, 1, "card-1@1")


def test_everyone_zone_is_seen_by_all(tmp_path):
    game = make(tmp_path)
    assert all(can_see(game, s, "coin") for s in (0, 1, None))
    assert watchers(game, "coin", "open") is None


def test_nobody_zone_hides_face_down_things_from_all(tmp_path):
    game = make(tmp_path, setup="move(thing('card-1@0'), pile)")
    assert game.state.props["card-1@0"]["face_up"] is False
    assert not any(can_see(game, s, "card-1@0") for s in (0, 1, None))
    assert watchers(game, "card-1@0", "pile") == []


def test_face_up_things_are_public_in_hidden_zones(tmp_path):
    game = make(tmp_path, setup="move(thing('card-1@0'), pile, face='up')\nreveal(thing('card-2@0'))")
    assert all(can_see(game, s, "card-1@0") for s in (0, 1, None))
    assert all(can_see(game, s, "card-2@0") for s in (0, 1, None))


def test_peek_lets_one_player_see(tmp_path):
    game = make(tmp_path, setup="move(thing('card-1@0'), pile)\npeek(player(1), thing('card-1@0'))")
    assert can_see(game, 1, "card-1@0")
    assert not can_see(game, 0, "card-1@0")
    peek = [e for e in game.log if e["e"] == "peek"][0]
    assert peek["only"] == [1]


def test_how_many_things_a_peek_shows_is_hidden_from_the_others(tmp_path):
    # the things a rule lets a player look at may be picked by what is hidden (the cards worth 2 or more):
    # one event per peek, so the others cannot count them
    picks = {"[c for c in pile.things if c.value > 1]": ["card-2@0", "card-3@0"],
             "[c for c in pile.things if c.value > 2]": ["card-3@0"]}
    logs = []
    for rule, shown in picks.items():
        game = make(tmp_path, setup=f"move_all(player(0).hand, pile)\npeek(player(1), {rule})")
        peeks = [e for e in game.log if e["e"] == "peek"]
        assert len(peeks) == 1 and peeks[0]["things"] == shown
        assert all(can_see(game, 1, t) for t in shown) and not can_see(game, 0, shown[0])
        logs.append([redact(e, 0) for e in game.log])
        assert "looks at" in narrate(game, 1)[-1]
    assert logs[0] == logs[1]


def test_moving_forgets_who_peeked(tmp_path):
    game = make(tmp_path, setup="move(thing('card-1@0'), pile)\npeek(player(1), thing('card-1@0'))\n"
                                "move(thing('card-1@0'), player(0).hand)\nmove(thing('card-1@0'), pile)")
    assert not can_see(game, 1, "card-1@0")


# --- views -------------------------------------------------------------------------------------

def test_view_shows_own_cards_and_hides_others(tmp_path):
    game = make(tmp_path)
    mine = game.view(0)["zones"]["hand@0"]["things"]
    assert [t["id"] for t in mine] == ["card-1@0", "card-2@0", "card-3@0"]
    assert mine[0]["value"] == 1 and mine[0]["colour"] == "red"
    theirs = game.view(1)["zones"]["hand@0"]
    assert theirs["count"] == 3
    assert theirs["things"] == [{"hidden": True, "back": "card", "colour": "red"}] * 3


def test_box_is_not_shown(tmp_path):
    game = make(tmp_path)
    assert "box" not in game.view(0)["zones"]


def test_no_hidden_id_anywhere_in_any_view(tmp_path):
    game = make(tmp_path, setup="move(thing('card-1@0'), pile)\nmove(thing('card-2@1'), player(0).hand)\n"
                                "peek(player(1), thing('card-1@0'))\nflip(thing('card-3@1'))")
    # ids each seat has never been allowed to see (a player may still read the id of a
    # card they held or peeked at: they know it already)
    never_seen = {
        0: ["card-1@1"],
        1: ["card-2@0", "card-3@0"],
        None: ["card-1@0", "card-2@0", "card-3@0", "card-1@1", "card-2@1"],
    }
    for seat, tids in never_seen.items():
        text = json.dumps(game.view(seat))
        for tid in tids:
            assert not can_see(game, seat, tid)
            assert f'"{tid}"' not in text, f"seat {seat} can read hidden {tid}"
    # the flipped card is public now
    assert '"card-3@1"' in json.dumps(game.view(0)["zones"]["hand@1"])


def test_move_between_hidden_zones_is_logged_for_both_owners_only(tmp_path):
    game = make(tmp_path, players=3, setup="move(thing('card-1@0'), player(1).hand)")
    move = [e for e in game.log if e["e"] == "move"][0]
    assert move["only"] == [0, 1]
    shown = [e for e in game.view(2)["log"] if e["e"] == "move"][0]
    assert shown == {"e": "move", "from": "hand@0", "to": "hand@1", "hidden": True}
    full = [e for e in game.view(1)["log"] if e["e"] == "move"][0]
    assert full["thing"] == "card-1@0" and "only" not in full


def test_player_variables_by_visibility(tmp_path):
    game = make(tmp_path)
    v0 = game.view(0)["players"]
    assert v0[0]["vars"] == {"score": 0, "secret": 5}
    assert v0[1]["vars"] == {"score": 0}
    spectator = game.view(None)["players"]
    assert [p["vars"] for p in spectator] == [{"score": 0}, {"score": 0}]


def test_set_event_of_owner_variable_is_redacted_for_others(tmp_path):
    game = make(tmp_path, setup="player(0).secret = 9\nplayer(0).sealed = 2")
    sets = [e for e in game.log if e["e"] == "set"]
    assert sets[0]["only"] == [0] and sets[1]["only"] == []
    other = [e for e in game.view(1)["log"] if e["e"] == "set"]
    assert all("new" not in e and "old" not in e and e["hidden"] for e in other)
    own = [e for e in game.view(0)["log"] if e["e"] == "set"]
    assert own[0]["new"] == 9 and "new" not in own[1]


def test_internal_variables_are_not_shown(tmp_path):
    game = make(tmp_path, flow=[{"do": "pass"}], variables={"round": 3})
    assert game.is_over
    view = game.view(0)
    assert view["vars"] == {"round": 3}
    assert view["winners"] == [0, 1]


def test_pending_decision_in_views(tmp_path):
    game = make(tmp_path)
    v0, v1 = game.view(0), game.view(1)
    assert v0["pending"] == {"kind": "choice", "deciding": [0], "prompt": "pick"}
    assert v1["pending"] == v0["pending"]
    assert [a["args"]["option"] for a in v0["legal_actions"]] == [1, 2]
    assert v1["legal_actions"] == []
    assert v0["you"] == 0 and game.view(None)["you"] is None


# --- redact -------------------------------------------------------------------------------------

def test_redact():
    event = {"e": "move", "thing": "c1", "from": "a", "to": "b", "only": [1]}
    assert redact(event, 1) == {"e": "move", "thing": "c1", "from": "a", "to": "b"}
    assert redact(event, 0) == {"e": "move", "from": "a", "to": "b", "hidden": True}
    assert redact(event, None) == {"e": "move", "from": "a", "to": "b", "hidden": True}
    public = {"e": "score", "player": 0, "delta": 2}
    assert redact(public, 1) == public
    secret = {"e": "decide", "player": 0, "action": {}, "label": "x", "only": []}
    assert redact(secret, 0) == {"e": "decide", "player": 0, "hidden": True}


# --- leaks found ------------------------------------------------------------------------------------

def test_card_played_face_down_in_a_turn_stays_hidden(tmp_path):
    game = make(tmp_path,
                actions=[{"id": "discard", "choose": {"card": "player.hand"}, "do": "move(card, pile)"}],
                flow=[{"turn": {"player": "player(0)", "actions": ["discard"], "pass": False,
                                "until": "count(pile) > 0"}},
                      {"do": "x = choose(player(1), [1, 2])"}])
    assert game.apply(Action(0, "discard", (("card", game.table.things["card-2@0"]),)))
    assert game.deciding_players == [1]
    assert not can_see(game, 1, "card-2@0")
    assert '"card-2@0"' not in json.dumps(game.view(1))


def test_random_pick_from_a_hidden_hand_stays_hidden(tmp_path):
    game = make(tmp_path, variables={"picked": None}, setup="picked = pick_random(player(0).hand, name='steal')")
    picked = game.state.vars["picked"].id
    assert not can_see(game, 1, picked)
    assert f'"{picked}"' not in json.dumps(game.view(1)["log"])


def test_a_log_line_naming_a_hidden_thing_is_read_only_by_who_sees_it(tmp_path):
    game = make(tmp_path, setup="log('{} holds {}', player(0), thing('card-1@0'))\n"
                                "log('to one: {}', 1, to=player(1))\nlog('all: {}', thing('coin'))")
    logs = [e for e in game.log if e["e"] == "log"]
    assert [e.get("only") for e in logs] == [[0], [1], None]
    assert [e.get("text") for e in game.view(1)["log"] if e["e"] == "log"] == [None, "to one: 1", "all: coin"]
    assert [e.get("hidden") for e in game.view(0)["log"] if e["e"] == "log"] == [None, True, None]


def test_a_declared_back_is_all_a_hidden_thing_shows(tmp_path):
    things = [dict(BASE["things"][0], back="plain"), BASE["things"][1]]
    game = make(tmp_path, things=things)
    assert game.view(1)["zones"]["hand@0"]["things"][0] == {"hidden": True, "back": "plain", "colour": "red"}


# --- the view's shortcuts: what never changes is worked out once, the log redacted once per seat ------------

def _entry_by_definition(game, seat, tid, zid):
    """What a seat sees of a thing, from ``can_see`` and the thing's data, without the view's shortcuts."""
    t = game.table.things[tid]
    props = game.state.props[tid]
    if not can_see(game, seat, tid, zid):
        return {"hidden": True, "back": t.back, **{k: encode(v) for k, v in t.attrs.items() if k in t.public}}
    return {"id": tid, "name": t.name, "kind": t.kind, "face_up": bool(props.get("face_up")),
            **{k: encode(v) for k, v in t.attrs.items()},
            **{k: encode(v) for k, v in props.items() if k not in ("face_up", "known_to")}}


@pytest.mark.parametrize("rid", bundled_ids())
def test_every_thing_in_a_view_is_what_can_see_allows(rid):
    rs = load_ruleset(rid)
    players = rs.max_players
    game = Game(rs, players, seed=4)
    agents = make_agents("random", players, 4)
    step = 0
    while not game.is_over and step < 120:
        if step % 10 == 0:
            for seat in [*range(players), None]:
                zones = game.view(seat)["zones"]
                for zid, zone in zones.items():
                    expected = [_entry_by_definition(game, seat, tid, zid) for tid in game.state.zones[zid]]
                    assert zone["things"] == expected, (seat, zid)
                    # in the same order of keys too: a saved view or a page shows them so
                    assert [list(e) for e in zone["things"]] == [list(e) for e in expected]
        seat = game.deciding_players[0]
        game.apply(agents[seat].choose(game, seat, game.legal_actions(seat)))
        step += 1
    assert step > 0


def test_changing_a_view_changes_no_later_view(tmp_path):
    game = make(tmp_path, things=[{"id": "card", "per_player": True, "attrs": {"tags": ["a", "b"]},
                                   "public": ["tags"], "start": "hand"}])
    first = game.view(1)
    hidden = first["zones"]["hand@0"]["things"][0]
    shown = first["zones"]["hand@1"]["things"][0]
    hidden["tags"].append("x")
    shown["tags"].append("x")
    shown["name"] = "changed"
    first["log"][0] = {"e": "changed"}
    again = game.view(1)
    assert again["zones"]["hand@0"]["things"][0]["tags"] == ["a", "b"]
    assert again["zones"]["hand@1"]["things"][0]["tags"] == ["a", "b"]
    assert again["zones"]["hand@1"]["things"][0]["name"] != "changed"
    assert again["log"] and again["log"] == [redact(e, 1) for e in game.log]


@pytest.mark.parametrize("rid", ["der-mythos", "titanic-board-game"])
def test_the_log_of_a_view_is_the_log_redacted_now(rid):
    rs = load_ruleset(rid)
    game = Game(rs, rs.max_players, seed=2)
    agents = make_agents("random", rs.max_players, 2)
    twin = None
    for step in range(60):
        if game.is_over:
            break
        for seat in (0, 1, None):
            assert game.view(seat)["log"] == [redact(e, seat) for e in game.log]
        if step == 30:
            twin = game.clone()
        seat = game.deciding_players[0]
        game.apply(agents[seat].choose(game, seat, game.legal_actions(seat)))
    assert twin is not None
    seat = twin.deciding_players[0]
    twin.apply(twin.legal_actions(seat)[-1])
    assert twin.view(0)["log"] == [redact(e, 0) for e in twin.log]
    saved = Game.from_json(rs, game.to_json())
    assert saved.view(1)["log"] == [redact(e, 1) for e in saved.log]
    # a log put in the place of another (the learning environments set it aside for a moment), of one length
    other = list(saved.log)
    other[-1] = {"e": "log", "text": "another log"}
    saved.log = other
    assert saved.view(1)["log"][-1] == {"e": "log", "text": "another log"}


def _watchers_by_definition(game, tid, *zids):
    players = range(game.num_players)
    if all(can_see(game, None, tid, z) for z in zids):
        return None
    return [s for s in players if any(can_see(game, s, tid, z) for z in zids)]


@pytest.mark.parametrize("rid", ["der-mythos", "sos-titanic", "collapsible-d"])
def test_watchers_are_the_seats_can_see_lets_see(rid):
    rs = load_ruleset(rid)
    players = rs.max_players
    game = Game(rs, players, seed=6)
    agents = make_agents("random", players, 6)
    zones = list(game.state.zones)
    asked = hidden = 0
    for step in range(80):
        if game.is_over:
            break
        for tid, zid in list(game.state.where.items())[::3]:
            other = zones[(zones.index(zid) + step) % len(zones)]
            for where in ((zid,), (zid, other)):
                expected = _watchers_by_definition(game, tid, *where)
                assert watchers(game, tid, *where) == expected, (tid, where)
                asked += 1
                hidden += expected is not None
        seat = game.deciding_players[0]
        game.apply(agents[seat].choose(game, seat, game.legal_actions(seat)))
    assert asked and hidden, "some thing must be hidden from someone"
