"""A refused action says whether the rules refused it or it names nothing that exists (issue 26, item 6).

`Game.apply` returns a `Refused` value; its `kind` is `RULE` when a rule refused the action and `UNKNOWN`
when the action names a seat, action, choice or value that exists nowhere in the game, with `unknown`
saying what. Scenario `refuse` steps rely on it: a refusal of nothing real tests nothing."""
from __future__ import annotations

import pytest
from cli_runner import REPO, run

from interpreter import Action, Game, load_ruleset
from interpreter.play.decisions import RULE, UNKNOWN


@pytest.fixture(scope="module")
def game():
    return Game(load_ruleset("tutorial"), 2, 1)   # red (seat 0) may walk to the boiler room or the fore cabins


def _zone(game, zid):
    return game.table.zones[zid]


def test_a_legal_action_is_applied(game):
    other = game.clone()
    assert other.apply(Action(0, "walk", (("to", _zone(other, "cabins_fore")),)))


@pytest.mark.parametrize("make", [
    pytest.param(lambda g: Action(0, "walk", (("to", _zone(g, "davit")),)), id="a real space out of reach"),
    pytest.param(lambda g: Action(1, "walk", (("to", _zone(g, "cabins_fore")),)), id="not this seat's turn"),
    pytest.param(lambda g: Action(0, "escort", (("passenger", g.table.things["kit"]), ("to", _zone(g, "mess")))),
                 id="a real passenger who is not there"),
])
def test_a_rule_refusal_is_of_kind_rule(game, make):
    result = game.apply(make(game))
    assert not result
    assert result.kind == RULE and result.unknown is None, result


@pytest.mark.parametrize("make, what, name, close", [
    pytest.param(lambda g: Action(0, "walk", (("to", "davvit"),)), "space", "davvit", "davit", id="misspelt space"),
    pytest.param(lambda g: Action(0, "walk", (("to", "nowhere-at-all"),)), "space", "nowhere-at-all", None,
                 id="a name like nothing"),
    pytest.param(lambda g: Action(0, "walk", (("to", 3),)), "space", "3", None, id="a number for a space"),
    pytest.param(lambda g: Action(0, "wlak", (("to", _zone(g, "mess")),)), "action", "wlak", "walk",
                 id="misspelt action"),
    pytest.param(lambda g: Action(0, "walk", (("too", _zone(g, "mess")),)), "choice", "too", "to",
                 id="misspelt choice"),
    pytest.param(lambda g: Action(5, "walk", (("to", _zone(g, "mess")),)), "seat", "5", None, id="no such seat"),
    pytest.param(lambda g: Action(1, "walk", (("to", "davvit"),)), "space", "davvit", "davit",
                 id="names nothing, whoever's turn it is"),
])
def test_a_refusal_of_nothing_real_is_of_kind_unknown(game, make, what, name, close):
    from interpreter.errors import did_you_mean
    result = game.apply(make(game))
    assert not result
    assert result.kind == UNKNOWN, result
    assert (result.unknown.what, result.unknown.name) == (what, name)
    assert did_you_mean(name, result.unknown.known) == (f"did you mean '{close}'?" if close else None)


@pytest.mark.parametrize("data, what, name", [
    ({"player": 0, "action": "walk", "args": {"to": {"zone": "davvit"}}}, "zone", "davvit"),
    ({"player": 0, "action": "escort", "args": {"passenger": {"thing": "kitt"}, "to": {"zone": "mess"}}},
     "thing", "kitt"),
    ({"player": "0", "action": "walk", "args": {}}, "seat", "0"),
    ({"player": 0, "action": 5}, "action", "5"),
    ("walk", "action", "walk"),
])
def test_an_unreadable_action_names_nothing(game, data, what, name):
    result = game.apply(data)
    assert not result and result.reason.startswith("not an action")
    assert result.kind == UNKNOWN
    assert (result.unknown.what, result.unknown.name) == (what, name)


def test_refusals_do_not_change_the_game(game):
    before = game.to_json()
    game.apply(Action(0, "walk", (("to", "davvit"),)))
    assert game.to_json() == before


# --- scenario steps ------------------------------------------------------------------------


def _scenario(tmp_path, steps: str):
    path = tmp_path / "s.yaml"
    path.write_text(f"scenario: s\nruleset: {REPO / 'rulesets' / 'tutorial'}\nplayers: 2\nsteps:\n{steps}")
    return path


@pytest.mark.parametrize("step, where, words", [
    ("  - refuse: {player: 0, action: walk, args: {to: davvit}, reason: possible}\n", "5:50",
     "step 1: refused only because 'davvit' names no space (did you mean 'davit'?) — the step tests nothing"),
    ("  - refuse: {player: 0, action: walk, args: {to: xyzzy}, reason: possible}\n", "5:50",
     "step 1: refused only because 'xyzzy' names no space — the step tests nothing"),
    ("  - refuse: {player: 0, action: walk, args: {to: 7}, reason: possible}\n", "5:50",
     "step 1: refused only because '7' names no space — the step tests nothing"),
    ("  - refuse: {player: 0, action: escort, args: {passenger: {player: 9}, to: mess}}\n", "5:59",
     "step 1: {player: 9} names no player: there is no such seat in a 2-player game (seats are 0 to 1)"),
])
def test_a_refuse_step_that_names_nothing_fails_where_it_names_it(tmp_path, capsys, step, where, words):
    path = _scenario(tmp_path, step)
    assert run(["test", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"s.yaml:{where}: {words}" in out, out


def test_a_refuse_step_for_a_real_rule_passes(tmp_path, capsys):
    path = _scenario(tmp_path,
                     "  - refuse: {player: 0, action: walk, args: {to: davit}, reason: not a possible choice}\n"
                     "  - refuse: {player: 1, action: walk, args: {to: mess}, reason: not yellow's decision}\n"
                               "  - act: {player: 0, action: walk, args: {to: cabins_fore}}\n")
    assert run(["test", str(path)]) == 0, capsys.readouterr().out


def test_an_act_that_names_nothing_says_so(tmp_path, capsys):
    path = _scenario(tmp_path, "  - act: {player: 0, action: walk, args: {to: davvit}}\n")
    assert run(["test", str(path)]) == 1
    assert "'davvit' names no space (did you mean 'davit'?); legal now:" in capsys.readouterr().out


def test_validate_finds_a_misspelt_id_without_playing(tmp_path, capsys):
    path = _scenario(tmp_path, "  - refuse: {player: 0, action: walk, args: {to: davvit}, reason: possible}\n")
    assert run(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert ("s.yaml:5:50: error[refuse-nothing]: step 1: 'davvit' names no thing, zone or space "
            "(did you mean 'davit'?), so the refusal tests nothing") in out, out


def test_a_choose_answer_that_names_nothing(tmp_path):
    from ruleset_builder import load
    rs = load(tmp_path, {"zones": [{"id": "pile"}, {"id": "bank"}],
                         "flow": [{"do": 'z = choose(player(0), [pile, bank], prompt="where")'}]})
    game = Game(rs, 1, 0)
    result = game.apply(Action(0, "choose", (("option", "pil"),)))
    assert not result and result.kind == UNKNOWN
    assert (result.unknown.what, result.unknown.name) == ("zone", "pil")
    assert "pile" in result.unknown.known
    other = game.apply(Action(0, "choose", (("option", game.table.players[0]),)))
    assert not other and other.kind == RULE       # a real player, just not one of the options
    assert game.apply(Action(0, "choose", (("option", game.table.zones["bank"]),)))
