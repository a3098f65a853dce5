"""A turn in ordered stages (``turn: {stages: [...]}``, machine/waits.py Stages): only the stage's actions
are offered, its ``ends_after`` move the turn on, never back, and each turn starts afresh."""
from __future__ import annotations

import re

import pytest
from ruleset_builder import load

from interpreter import Game
from interpreter.errors import DavitError

ACTIONS = [{"id": "draw", "do": "drawn = drawn + 1"}, {"id": "stop_drawing", "do": "pass"},
           {"id": "play", "do": "played = played + 1"}, {"id": "discard", "do": "pass"}]


def _ruleset(tmp_path, turn, **extra):
    return load(tmp_path, {
        "variables": {"drawn": {"initial": 0}, "played": {"initial": 0}, "late": {"initial": False}},
        "actions": ACTIONS,
        "flow": [{"repeat": 2, "as": "round", "steps": [
            {"turn": {"player": "player(0)", "actions": ["draw", "stop_drawing", "play", "discard"], **turn}},
            {"do": "late = true"}]}],
        **extra,
    })


STAGES = [{"stage": "drawing", "actions": ["draw", "stop_drawing"], "ends_after": ["stop_drawing"]},
          {"stage": "playing", "actions": ["play", "discard"], "ends_after": ["discard"]},
          {"stage": "cleanup", "actions": ["discard"]}]


def _offered(game):
    return [a.name for a in game.legal_actions(0)]


def test_only_the_stage_actions_are_offered_and_the_turn_moves_on_never_back(tmp_path):
    game = Game(_ruleset(tmp_path, {"stages": STAGES}), 1, seed=1)
    assert _offered(game) == ["draw", "stop_drawing", "pass"]
    game.apply(game.legal_actions(0)[0])                       # draw: the stage holds
    assert _offered(game) == ["draw", "stop_drawing", "pass"]
    result = game.apply(next(a for a in game.legal_actions(0) if a.name == "stop_drawing"))
    assert result
    assert _offered(game) == ["play", "discard", "pass"]
    refused = game.apply(game.legal_actions(0)[0].__class__(0, "draw", ()))
    assert not refused and "is not offered now (offered: play, discard)" in refused.reason
    game.apply(next(a for a in game.legal_actions(0) if a.name == "discard"))
    assert _offered(game) == ["discard", "pass"]               # the last stage: until the turn ends
    game.apply(next(a for a in game.legal_actions(0) if a.name == "pass"))
    # the next turn starts in the first stage again
    assert game.state.vars["late"] is True and _offered(game) == ["draw", "stop_drawing", "pass"]
    assert game.state.vars["drawn"] == 1


def test_first_stage_names_where_each_turn_starts(tmp_path):
    game = Game(_ruleset(tmp_path, {"stages": STAGES, "first_stage": '"playing" if round > 1 else "drawing"'}),
                1, seed=1)
    assert _offered(game) == ["draw", "stop_drawing", "pass"]
    game.apply(next(a for a in game.legal_actions(0) if a.name == "pass"))
    assert _offered(game) == ["play", "discard", "pass"]


def test_a_first_stage_naming_no_stage_stops_the_game_at_its_line(tmp_path):
    with pytest.raises(DavitError) as err:
        Game(_ruleset(tmp_path, {"stages": STAGES, "first_stage": '"dealing"'}), 1, seed=1)
    assert "the turn has no stage 'dealing' to start in (its stages: drawing, playing, cleanup)" in str(err.value)
    assert re.search(r"ruleset\.yaml:\d+:\d+: ", str(err.value)), str(err.value)


@pytest.mark.parametrize("stages, message", [
    ([{"stage": "a", "actions": ["draw", "fold"]}], "stage 'a' offers 'fold', which is not one of the turn's actions"),
    ([{"stage": "a", "actions": ["draw"], "ends_after": ["play"]}, {"stage": "b", "actions": ["play"]}],
     "stage 'a' ends after 'play', which it does not offer"),
    ([{"stage": "a", "actions": ["draw"], "ends_after": ["draw"]}], "the last stage 'a' has no stage to move on to"),
    ([{"stage": "a", "actions": ["draw"], "ends_after": ["draw"]}, {"stage": "a", "actions": ["play"]}],
     "the turn has two stages 'a'"),
])
def test_a_wrong_stage_is_a_located_error(tmp_path, stages, message):
    with pytest.raises(DavitError) as err:
        _ruleset(tmp_path, {"stages": stages})
    assert message in str(err.value)
    assert re.search(r"ruleset\.yaml:\d+:\d+: ", str(err.value)), str(err.value)


def test_stages_do_not_go_with_max_actions(tmp_path):
    with pytest.raises(DavitError) as err:
        _ruleset(tmp_path, {"stages": STAGES, "max_actions": 2})
    assert "a turn of max_actions cannot also have stages" in str(err.value)
