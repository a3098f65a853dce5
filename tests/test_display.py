"""A ruleset's ``display:`` section: what each seat's status shows, at the terminal and on the web page.

The status is read through one function, ``interpreter.observe.status.status``;
these tests play seeded games of every bundled ruleset and look at every
seat's status along the way: it names only what the display section
declares, and never a card the seat may not see.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from ruleset_builder import load

from interpreter import Game, load_ruleset
from interpreter.agents import make_agents
from interpreter.errors import DavitError
from interpreter.observe.narrate import describe_view, event_text
from interpreter.observe.status import status

BUNDLED = ["tutorial", "der-mythos", "collapsible-d", "titanic", "titanic-board-game", "sos-titanic"]
PLAYERS = {"tutorial": 3, "der-mythos": 4, "collapsible-d": 3, "titanic": 3, "titanic-board-game": 3,
           "sos-titanic": 2}


def _positions(rid, every=7, limit=400):
    """(game, seat) along a seeded random game, every few decisions, for every seat."""
    rs = load_ruleset(rid)
    n = PLAYERS[rid]
    game = Game(rs, n, seed=5)
    agents = make_agents("random", n, 5)
    for step in range(limit):
        if game.is_over:
            break
        if step % every == 0:
            for seat in range(n):
                yield game, seat
        seat = game.deciding_players[0]
        assert game.apply(agents[seat].choose(game, seat, game.legal_actions(seat)))
    for seat in range(n):
        yield game, seat


def _table_lines(game, seat):
    view = game.view(seat)
    return describe_view(game, view, since=len(view["log"]))


@pytest.mark.parametrize("rid", BUNDLED)
def test_every_bundled_ruleset_declares_its_status(rid):
    assert load_ruleset(rid).display is not None, f"{rid} has no display section"


@pytest.mark.parametrize("rid", BUNDLED)
def test_the_status_shows_only_what_the_display_section_declares(rid):
    rs = load_ruleset(rid)
    display = rs.display
    counters = {c.label for c in display.counters}
    player = {c.label for c in display.player}
    zones = {z.zone for z in display.zones}
    board = None in zones
    undeclared_globals = set(rs.globals) - {c.name for c in display.counters}
    undeclared_player = set(rs.player_vars) - {c.name for c in display.player}
    seen_zones = set()
    for game, seat in _positions(rid):
        shown = status(game, game.view(seat))
        assert shown["declared"]
        assert {label for label, _ in shown["vars"]} <= counters
        for p in shown["players"]:
            assert {label for label, _ in p["values"]} <= player
        for z in shown["zones"]:
            base = z["id"].split("@")[0]
            space = game.table.zones[z["id"]].defn.kind == "space"
            assert base in zones or (board and space), f"{rid}: zone {z['id']} is not in the display section"
            seen_zones.add(base)
        # the way an undeclared counter used to leak: "can_pick False" — its name, then its value
        text = "\n".join(_table_lines(game, seat))
        view = game.view(seat)
        for name in undeclared_globals:
            if name in view["vars"]:
                assert f"{name} {view['vars'][name]}" not in text, f"{rid}: variable {name} leaks into the status"
        for p in view["players"]:
            for name in undeclared_player & set(p["vars"]):
                assert not re.search(rf"\b{re.escape(name)} {re.escape(str(p['vars'][name]))}\b", text), \
                    f"{rid}: {p['name']}'s {name} leaks into the status"
    assert seen_zones, f"{rid}: the status never showed a zone"


@pytest.mark.parametrize("rid", BUNDLED)
def test_a_seat_never_reads_a_card_it_may_not_see(rid):
    """Every thing the seat's view hides: its name is nowhere in the seat's status (unless a
    thing the seat does see has the same name, like one of forty action cubes)."""
    checked = 0
    for game, seat in _positions(rid, every=11):
        view = game.view(seat)
        visible = {t["id"] for z in view["zones"].values() for t in z["things"] if "id" in t}
        seen_names = {game.table.things[t].name for t in visible}
        secret = {t.name for tid, t in game.table.things.items()
                  if tid not in visible and game.state.where.get(tid) not in (None, "box")} - seen_names
        text = "\n".join(_table_lines(game, seat))
        for name in secret:
            # a thing in the status is one item of a list: after ': ', ', ' or '× ', before ',', ' —' or the end
            assert not re.search(rf"(?:(?<=: )|(?<=, )|(?<=× )){re.escape(name)}(?=,| —|$)", text, re.M), \
                f"{rid}: seat {seat} reads the hidden {name!r} in its status"
        checked += len(secret)
    if rid != "tutorial":   # the tutorial hides nothing
        assert checked, f"{rid}: no hidden card was ever checked"


def test_owner_only_counters_and_zones_reach_only_their_seat(tmp_path):
    rs = load(tmp_path, {
        "player": {"vars": {"score": {"initial": 0}, "cash": {"initial": 7}}},
        "zones": [{"id": "hand", "per_player": True, "visibility": "owner"}, {"id": "pile"}],
        "things": [{"id": "card", "per_player": True, "each": {"n": [1, 2]}, "start": "hand",
                    "name": "{owner} card {n}", "attrs": {"text": "worth {n}"}}],
        "display": {"player": {"score": "points", "cash": {"label": "cash", "for": "owner"}},
                    "zones": [{"zone": "hand", "label": "{owner}'s hand", "show": {"n": "worth"}},
                              {"zone": "pile", "hide_empty": True}]},
    })
    game = Game(rs, 2, seed=1)
    names = game.table.player_names
    shown = status(game, game.view(0))
    mine, other = shown["players"]
    assert mine["values"] == [("points", "0"), ("cash", "7")]
    assert other["values"] == [("points", "0")]
    hands = {z["name"]: z for z in shown["zones"]}
    assert set(hands) == {f"{names[0]}'s hand", f"{names[1]}'s hand"}   # the pile is empty: left out
    assert hands[f"{names[0]}'s hand"]["things"] == [f"{names[0]} card 1 — worth 1", f"{names[0]} card 2 — worth 2"]
    assert hands[f"{names[1]}'s hand"]["things"] == [None, None] and hands[f"{names[1]}'s hand"]["hidden"] == 2
    lines = _table_lines(game, 0)
    assert f"  {names[1]}'s hand: 2 face down" in lines
    assert not any(f"{names[1]} card" in line for line in lines)


def test_without_a_display_section_every_variable_is_shown(tmp_path):
    rs = load(tmp_path, {"variables": {"tide": {"initial": 3}},
                         "player": {"vars": {"score": {"initial": 0}, "luck": {"initial": 2}}}})
    game = Game(rs, 2, seed=1)
    assert rs.display is None
    lines = _table_lines(game, 0)
    assert "[tide 3]" in lines
    assert any(line.endswith("score 0, luck 2") for line in lines)


@pytest.mark.parametrize("display, message", [
    ({"counters": {"tidee": "tide"}}, "display: no variable 'tidee'"),
    ({"player": {"lcuk": "luck"}}, "display: no player counter 'lcuk'"),
    ({"zones": ["hnad"]}, "display: no zone or space 'hnad'"),
    ({"zones": [{"zone": "pile", "for": "owner"}]}, "'for: owner' needs a per-player zone"),
    ({"zones": [{"zone": "pile", "show": ["colour"]}]}, "no thing has an attribute or property 'colour'"),
    ({"zones": [{"zone": "pile", "props": {"flooded": "flooded"}}]}, "no zone property 'flooded'"),
])
def test_a_wrong_name_in_the_display_section_is_a_located_error(tmp_path, display, message):
    with pytest.raises(DavitError) as err:
        load(tmp_path, {"variables": {"tide": {"initial": 3}},
                        "player": {"vars": {"score": {"initial": 0}, "luck": {"initial": 2}}},
                        "zones": [{"id": "pile"}, {"id": "hand", "per_player": True}],
                        "display": display})
    text = str(err.value)
    assert message in text
    assert re.search(r"ruleset\.yaml:\d+:\d+: ", text), text


def _expression_ruleset(tmp_path, counters, **extra):
    return load(tmp_path, {
        "constants": {"hours": ["dawn", "noon", "dusk"]},
        "variables": {"tide": {"initial": 3}},
        "player": {"vars": {"score": {"initial": 0}, "cash": {"initial": 7, "visibility": "owner"}}},
        "functions": {"rise": {"do": "tide = tide + 1"},
                      "tide_words": {"do": "out = \"\"\nfor i in range(tide):\n  out = out + \"~\"\nreturn out"}},
        "flow": [{"repeat": 2, "as": "hour", "steps": [
            {"step": "morning", "do": "tide = tide + 2"},
            {"turn": {"player": "player(0)", "actions": ["wait"], "max_actions": 1}}]}],
        "actions": [{"id": "wait", "do": "pass"}],
        "display": {"counters": counters},
        **extra,
    })


def test_a_counter_may_be_an_expression_worked_out_when_shown(tmp_path):
    rs = _expression_ruleset(tmp_path, {"tide": "tide",
                                        "time": {"label": "time", "value": "hours[hour - 1] if hour > 0 else hours[0]"},
                                        "waves": {"label": "waves", "value": "tide_words()"}})
    game = Game(rs, 2, seed=1)
    # the first turn: the morning step has raised the tide from 3 to 5
    assert status(game, game.view(1))["vars"] == [("tide", "5"), ("time", "dawn"), ("waves", "~~~~~")]
    game.apply(game.legal_actions(0)[0])
    assert status(game, game.view(0))["vars"] == [("tide", "7"), ("time", "noon"), ("waves", "~~~~~~~")]
    # the phase heading reads the expressions as they were when the phase began, in the log itself
    headings = [describe for describe in (event_text(game, e) for e in game.log if e.get("e") == "phase")]
    assert headings == ["— morning (tide 3, time dawn, waves ~~~)", "— morning (tide 5, time noon, waves ~~~~~)"]


@pytest.mark.parametrize("value, message", [
    ("tide +", "syntax error"),                              # not an expression
    ("tide + \"x\"", "cannot add a number and text"),        # type-checked
    ("tidee * 2", "unknown name 'tidee'"),
    ("rise()", "changes the game and cannot be used in a condition"),
    ("move(thing(\"x\"), box)", "changes the game and cannot be used in a condition"),
    ("sum(players, p -> p.cash)", "the player counter 'cash' is not (owner only)"),
])
def test_a_bad_display_expression_is_a_located_error(tmp_path, value, message):
    with pytest.raises(DavitError) as err:
        _expression_ruleset(tmp_path, {"time": {"label": "time", "value": value}})
    text = str(err.value)
    assert message in text, text
    where = re.search(r"(\S+ruleset\.yaml):(\d+):\d+: ", text)
    assert where, text
    lines = Path(where[1]).read_text().splitlines()
    # located in the display section, at the counter
    assert int(where[2]) > lines.index("display:") + 1
    assert lines[int(where[2]) - 1].strip().startswith(("time:", "value:"))


def test_an_expression_counter_may_not_take_a_variable_name(tmp_path):
    with pytest.raises(DavitError) as err:
        _expression_ruleset(tmp_path, {"tide": {"label": "tide", "value": "tide * 2"}})
    assert "'tide' is a variable, so it cannot also be an expression" in str(err.value)
    assert re.search(r"ruleset\.yaml:\d+:\d+: ", str(err.value))


def test_a_player_counter_cannot_be_an_expression(tmp_path):
    """Only global counters take ``value:`` (a player's counter would need the player): the schema says so."""
    with pytest.raises(DavitError) as err:
        load(tmp_path, {"player": {"vars": {"score": {"initial": 0}}},
                        "display": {"player": {"worth": {"label": "worth", "value": "p.score * 2"}}}})
    assert re.search(r"ruleset\.yaml:\d+:\d+: ", str(err.value))
