"""A turn whose player expression gives something else than a player stops with a located error, for a plain
and for a counted turn (the test is written out in Offer.run and CountedOffer.run)."""
import pytest
from ruleset_builder import load

from interpreter import Game
from interpreter.errors import DavitError

ACTS = {"actions": [{"id": "act", "do": "pass"}], "variables": {"who": None}}


@pytest.mark.parametrize("turn", [{}, {"max_actions": 2}])
def test_a_turn_for_something_else_than_a_player_is_refused_where_it_is_written(tmp_path, turn):
    spec = {**ACTS, "flow": [{"do": "who = 3"}, {"turn": {"player": "who", "actions": ["act"], **turn}}]}
    with pytest.raises(DavitError, match="turn '.*' needs a player, got 3") as caught:
        Game(load(tmp_path, spec, max_players=2), 2, seed=0)
    assert caught.value.location is not None and caught.value.location.line > 0


@pytest.mark.parametrize("turn", [{}, {"max_actions": 2}])
def test_a_turn_for_a_player_is_offered(tmp_path, turn):
    spec = {**ACTS, "flow": [{"do": "who = player(1)"}, {"turn": {"player": "who", "actions": ["act"], **turn}}]}
    game = Game(load(tmp_path, spec, max_players=2), 2, seed=0)
    assert game.deciding_players == [1]
