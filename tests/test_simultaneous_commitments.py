"""A simultaneous step's commitments, as :func:`interpreter.play.decisions.commit` keeps them, stay data a saved
game resumes from: keyed by the seat as a text (the key made once per seat is the key ``str`` makes), with or
without the log, and a game saved between two seats' commitments plays on as the game that was not saved."""
import json

import pytest

from interpreter import Game, load_ruleset
from interpreter.agents import make_agents, play_out
from interpreter.play import decisions


@pytest.mark.parametrize("record", [False, True])
def test_commitments_are_keyed_by_seat_and_a_game_saved_between_them_plays_on_alike(record):
    rs = load_ruleset("der-mythos")
    players = 5
    part = Game(rs, players, seed=3, record=record)
    # round 1's five seats, then three of round 2's: the step waits for the last two
    play_out(part, make_agents("random", players, 3), max_decisions=players + 3)
    pending = part.state.pending
    assert pending["kind"] == "simultaneous"
    assert sorted(pending["commits"]) == [str(s) for s in pending["players"][:3]]
    assert all(c["player"] == int(k) for k, c in pending["commits"].items())
    saved = json.loads(json.dumps(part.to_json()))
    resumed = Game.from_json(rs, saved)
    resumed.record = record
    for game in (part, resumed):   # both played on alike: each seat its first action
        while not game.is_over:
            seat = game.deciding_players[0]
            actions = game.legal_actions(seat)
            game.apply(actions[0])
    assert resumed.state.to_json() == part.state.to_json()
    assert resumed.scores == part.scores


def test_the_seat_keys_are_the_seats_as_text():
    assert decisions.SEAT_KEYS == tuple(str(s) for s in range(decisions.MAX_SEAT_KEYS))
