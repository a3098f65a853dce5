"""The yardsticks in tools/reference/ play the game davit plays.

``der_mythos_state_machine.py`` is the ceiling of issue 11's Der Mythos
target: the game written by hand as the best code generator could emit it,
keeping davit's contract (position as data, the game's own random stream,
a resumable state machine). Its games per second mean something only if it
plays davit's rules: seeded games between the same random bots must end
with davit's scores, at every player count. A clone taken at a decision
must play on to the same end as the game it was taken from.

``der_mythos_fast.py`` keeps the same contract with less work (issue 28's
fairer ceiling): it must end davit's games with davit's scores too, and hold
the state machine's position, value for value, after every choice of a
game, in the game and in a clone taken at any of them.
"""
import random
import sys
from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.agents import make_agents, play_out
from interpreter.machine import rng

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from reference import der_mythos_fast as fast  # noqa: E402
from reference import der_mythos_state_machine as ceiling  # noqa: E402

# the benchmark's yardsticks (tools/reference/), not davit's logic: the full suite plays them
pytestmark = pytest.mark.slow


def _bot_seeds(players, seed):
    # make_agents gives seat i a bot seeded with derive(seed, 1000 + i)
    return [rng.derive(seed, 1000 + i) for i in range(players)]


@pytest.mark.parametrize("yardstick", [ceiling, fast], ids=["ceiling", "fast"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_each_ceiling_ends_every_game_with_davits_scores(yardstick, players):
    rs = load_ruleset("der-mythos")
    for seed in range(12):
        game = Game(rs, players, seed=seed, record=False)
        play_out(game, make_agents("random", players, seed))
        scores = [game.scores[s] for s in range(players)]
        assert yardstick.play(players, seed, _bot_seeds(players, seed)) == scores, seed


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


# -- the fast ceiling (tools/reference/der_mythos_fast.py) -------------------------------------------------------

def _position(st, deciding, commits) -> tuple:
    """What a position holds, copied, the same way for both modules (``commits``: seat -> card)."""
    return (tuple(map(tuple, st.zones)), tuple(st.where), tuple(st.face_up), tuple(st.score), st.round, st.rng, st.pc,
            st.over, tuple(deciding), commits)


def _slow(st) -> tuple:
    return _position(st, st.deciding if not st.over else (), dict(st.commits) if not st.over else {})


def _quick(st) -> tuple:
    waiting = range(len(st.commits)) if st.pc == 1 and not st.over else ()
    return _position(st, waiting, {s: c for s, c in enumerate(st.commits) if c >= 0} if not st.over else {})


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_fast_ceiling_holds_the_state_machines_position_at_every_decision_and_so_do_its_clones(players):
    """Seeded games, each seat choosing from a stream of its own: after every choice both modules hold the same
    position; a clone of the fast one taken at some choice of the game replays the rest to the same positions."""
    slow_table, quick_table = ceiling.Table(players), fast.Table(players)
    for seed in range(750):
        slow, quick = ceiling.new_game(slow_table, seed), fast.new_game(quick_table, seed)
        ceiling.advance(slow_table, slow)
        fast.advance(quick_table, quick)
        chooser = random.Random(seed)
        clone_at = chooser.randrange(9 * players)
        clone, after_clone, seen = None, [], []
        while not slow.over:
            assert _quick(quick) == _slow(slow), seed
            for seat in range(players):
                hand = ceiling.legal_actions(slow, seat)
                assert fast.legal_actions(quick, seat) == hand and set(fast.deciding(quick)) >= {seat}
                if len(seen) == clone_at:
                    clone = quick.clone()
                card = hand[chooser.randrange(len(hand))]
                slow.commits[seat] = card
                if len(slow.commits) == players:
                    ceiling.advance(slow_table, slow)
                fast.commit(quick_table, quick, seat, card)
                seen.append(_slow(slow))
                if clone is not None:
                    after_clone.append((seat, card))
                assert _quick(quick) == seen[-1], seed
        assert slow.over and quick.over and fast.legal_actions(quick, 0) == []
        for number, (seat, card) in enumerate(after_clone):
            fast.commit(quick_table, clone, seat, card)
            assert _quick(clone) == seen[clone_at + number], seed
        assert clone.over and clone.score == slow.score
