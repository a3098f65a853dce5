"""The yardsticks in tools/reference/ play the game davit plays.

``der_mythos_state_machine.py`` is the ceiling of issue 11's Der Mythos
target: the game written by hand as the best code generator could emit it,
keeping davit's contract (position as data, the game's own random stream,
a resumable state machine). Its games per second mean something only if it
plays davit's rules: seeded games between the same random bots must end
with davit's scores, at every player count. A clone taken at a decision
must play on to the same end as the game it was taken from.
"""
import sys
from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.agents import make_agents, play_out
from interpreter.machine import rng

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from reference import der_mythos_state_machine as ceiling  # noqa: E402


def _bot_seeds(players, seed):
    # make_agents gives seat i a bot seeded with derive(seed, 1000 + i)
    return [rng.derive(seed, 1000 + i) for i in range(players)]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_ceiling_ends_every_game_with_davits_scores(players):
    rs = load_ruleset("der-mythos")
    for seed in range(12):
        game = Game(rs, players, seed=seed, record=False)
        play_out(game, make_agents("random", players, seed))
        assert ceiling.play(players, seed, _bot_seeds(players, seed)) == [game.scores[s] for s in range(players)], seed


def test_a_clone_of_the_ceilings_position_plays_on_to_the_same_end():
    table = ceiling.Table(4)
    state = ceiling.new_game(table, 3)
    ceiling.advance(table, state)
    for card in (0, 9, 18):                # three seats commit their 1; the fourth has not yet
        state.commits[card // 9] = card
    copy = state.clone()
    state.commits[3] = 27
    assert 3 not in copy.commits and copy.zones is not state.zones
    copy.commits[3] = 27
    for position in (state, copy):
        ceiling.advance(table, position)
        assert position.round == 2 and position.zones[4:8] == [[], [], [], []]
    assert state.score == [-3, -3, -3, -3]  # four 1s tie for the lowest card of round 1
    assert copy.score == state.score and copy.zones == state.zones and copy.rng == state.rng
