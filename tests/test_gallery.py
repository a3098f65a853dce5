"""The classic-games gallery (rulesets/kuhn-poker, leduc-poker, liars-dice, pig, goofspiel) against outside values.

Tic-tac-toe has its own file (tests/test_tic_tac_toe.py). Here:

* Kuhn and Leduc poker: for every deal (pinned through the engine's own
  ``pins``), the exact distribution of outcomes when both players pick
  uniformly among their legal actions, enumerated on davit's game tree with
  ``clone()``, equals the one enumerated the same way on OpenSpiel's own
  ``kuhn_poker`` and ``leduc_poker`` (exact fractions, no tolerance).
* Liar's dice (one die each): for every roll of the two dice (pinned), the
  exact outcome distribution under uniform play equals OpenSpiel's
  ``liars_dice`` (worked out on both sides with positions that recur
  counted once: the tree has millions of histories).
* Pig to 20: the first player's chance of winning when both hold at a turn
  total of 5 (or as soon as the bank would reach 20), worked out by value
  iteration in this file, lies in the 99.9 % Wilson interval of seeded davit
  games played with that policy.
* Goofspiel with 4 cards: the exact outcome distribution of OpenSpiel's
  ``goofspiel`` (num_cards=4, random prize order, win/loss returns) under
  uniform play, and davit's from seeded random games, agree within sampling
  error (a 99.9 % interval on each outcome's share).
"""
from __future__ import annotations

import json
import math
from collections import defaultdict
from fractions import Fraction

import pytest

from interpreter import Game, load_ruleset
from interpreter.agents import RandomAgent, play_out

pyspiel = pytest.importorskip("pyspiel", reason="needs the rl extra: pip install '.[test,rl]'")

Z = 3.29   # 99.9 % two-sided


def _davit_uniform(game, prob=Fraction(1), out=None) -> dict:
    """Outcome (payoffs) -> exact probability, both seats picking uniformly among their legal actions."""
    out = defaultdict(Fraction) if out is None else out
    if game.is_over:
        out[tuple(game.payoffs)] += prob
        return out
    actions = game.legal_actions(game.deciding_players[0])
    for action in actions:
        child = game.clone()
        child.carry_out_legal(action)
        _davit_uniform(child, prob / len(actions), out)
    return out


def _spiel_uniform(state, prob=Fraction(1), out=None, deal=None) -> dict:
    """The same on an OpenSpiel state; chance outcomes are taken from ``deal`` in order (a list, consumed)."""
    out = defaultdict(Fraction) if out is None else out
    if state.is_terminal():
        out[tuple(state.returns())] += prob
        return out
    if state.is_chance_node():
        child = state.clone()
        child.apply_action(deal[0])
        return _spiel_uniform(child, prob, out, deal[1:])
    actions = state.legal_actions()
    for action in actions:
        child = state.clone()
        child.apply_action(action)
        _spiel_uniform(child, prob / len(actions), out, deal)
    return out


# -- Kuhn poker ---------------------------------------------------------------------------------------------

KUHN_CARDS = ["jack", "queen", "king"]   # OpenSpiel's cards 0, 1, 2


def test_kuhn_poker_outcomes_under_uniform_play_equal_openspiels_for_every_deal():
    rs = load_ruleset("kuhn-poker")
    assert rs.warnings == []
    spiel = pyspiel.load_game("kuhn_poker")
    total = defaultdict(Fraction)
    deals = [(a, b) for a in range(3) for b in range(3) if a != b]
    for a, b in deals:
        rest = [c for c in range(3) if c not in (a, b)]
        pins = {"shuffle deck": [[KUHN_CARDS[c] for c in (a, b, *rest)]]}
        ours = _davit_uniform(Game(rs, 2, seed=0, pins=pins, record=False))
        theirs = _spiel_uniform(spiel.new_initial_state(), deal=[a, b])
        assert dict(ours) == dict(theirs), (KUHN_CARDS[a], KUHN_CARDS[b])
        for outcome, p in ours.items():
            total[outcome] += p / len(deals)
    # every outcome is ±1 or ±2 chips and zero-sum
    assert set(total) == {(1.0, -1.0), (-1.0, 1.0), (2.0, -2.0), (-2.0, 2.0)}
    assert sum(total.values()) == 1


def test_kuhn_poker_deals_the_cards_it_was_pinned():
    game = Game(load_ruleset("kuhn-poker"), 2, seed=0, pins={"shuffle deck": [["king", "jack", "queen"]]})
    assert game.state.zones["hand@0"] == ["king"] and game.state.zones["hand@1"] == ["jack"]
    assert [a.name for a in game.legal_actions(0)] == ["check", "bet"]


# -- Leduc poker --------------------------------------------------------------------------------------------

LEDUC_CARDS = ["jack.1", "jack.2", "queen.1", "queen.2", "king.1", "king.2"]   # OpenSpiel's 0..5: rank = card // 2


def test_leduc_poker_outcomes_under_uniform_play_equal_openspiels_for_every_deal():
    rs = load_ruleset("leduc-poker")
    assert rs.warnings == []
    spiel = pyspiel.load_game("leduc_poker")
    assert spiel.get_parameters()["suit_isomorphism"] is False
    deals = [(a, b, c) for a in range(6) for b in range(6) for c in range(6) if len({a, b, c}) == 3]
    assert len(deals) == 120
    outcomes = set()
    for a, b, c in deals:
        pins = {"deal": [LEDUC_CARDS[a], LEDUC_CARDS[b]], "public card": [LEDUC_CARDS[c]]}
        ours = _davit_uniform(Game(rs, 2, seed=0, pins=pins, record=False))
        theirs = _spiel_uniform(spiel.new_initial_state(), deal=[a, b, c])
        assert dict(ours) == dict(theirs), (LEDUC_CARDS[a], LEDUC_CARDS[b], LEDUC_CARDS[c])
        outcomes |= set(ours)
    assert max(p for p, _ in outcomes) == 13.0 and all(p + q == 0 for p, q in outcomes)


# -- Liar's dice --------------------------------------------------------------------------------------------

def _davit_uniform_by_position(game, memo) -> dict:
    """As _davit_uniform, a position's distribution worked out once (the game's future is its state)."""
    state = game.state.to_json()
    state.pop("steps", None)
    key = json.dumps(state, sort_keys=True, default=str)
    if key not in memo:
        if game.is_over:
            memo[key] = {tuple(game.payoffs): Fraction(1)}
        else:
            out = defaultdict(Fraction)
            actions = game.legal_actions(game.deciding_players[0])
            for action in actions:
                child = game.clone()
                child.carry_out_legal(action)
                for outcome, p in _davit_uniform_by_position(child, memo).items():
                    out[outcome] += p / len(actions)
            memo[key] = dict(out)
    return memo[key]


def _spiel_liars_dice(state, memo) -> dict:
    """Uniform play on OpenSpiel's liars_dice from a position: the dice, the last two moves (a call and the
    bid it calls) and whose move was last (the parity of the history)."""
    history = state.history()
    key = (tuple(history[:2]), tuple(history[2:][-2:]), len(history) % 2)
    if key not in memo:
        if state.is_terminal():
            memo[key] = {tuple(state.returns()): Fraction(1)}
        else:
            out = defaultdict(Fraction)
            actions = state.legal_actions()
            for action in actions:
                for outcome, p in _spiel_liars_dice(state.child(action), memo).items():
                    out[outcome] += p / len(actions)
            memo[key] = dict(out)
    return memo[key]


def test_liars_dice_outcomes_under_uniform_play_equal_openspiels_for_every_roll():
    rs = load_ruleset("liars-dice")
    assert rs.warnings == []
    spiel = pyspiel.load_game("liars_dice")
    assert spiel.get_parameters() == {"bidding_rule": "reset-face", "dice_sides": 6, "numdice": 1, "players": 2}
    ours_memo, theirs_memo = {}, {}
    for a in range(6):
        for b in range(6):
            game = Game(rs, 2, seed=0, pins={"die": [f"face-{a + 1}@0", f"face-{b + 1}@1"]}, record=False)
            assert [game.state.zones[f"cup@{s}"] for s in (0, 1)] == [[f"face-{a + 1}@0"], [f"face-{b + 1}@1"]]
            ours = _davit_uniform_by_position(game, ours_memo)
            root = spiel.new_initial_state().child(a).child(b)
            assert ours == _spiel_liars_dice(root, theirs_memo), (a + 1, b + 1)


# -- Pig to 20 ----------------------------------------------------------------------------------------------

GOAL, HOLD_AT = 20, 5


def _holds(score: int, turn_total: int) -> bool:
    return turn_total >= HOLD_AT or score + turn_total >= GOAL


def _pig_first_player_wins() -> float:
    """Value iteration: P[i][j][t], the chance that the player to act (score i, the other's j, turn total t)
    wins, both players following the hold-at-5 policy."""
    tops = GOAL + 6
    win = [[[0.5] * tops for _ in range(GOAL)] for _ in range(GOAL)]
    for _ in range(500):
        change = 0.0
        for i in range(GOAL):
            for j in range(GOAL):
                for t in range(tops - 6):
                    if _holds(i, t):
                        new = 1.0 if i + t >= GOAL else 1.0 - win[j][i + t][0]
                    else:
                        new = (1.0 - win[j][i][0]) / 6 + sum(win[i][j][t + r] for r in range(2, 7)) / 6
                    change = max(change, abs(new - win[i][j][t]))
                    win[i][j][t] = new
        if change < 1e-13:
            return win[0][0][0]
    raise AssertionError("value iteration did not converge")


class HoldAt:
    """Holds at a turn total of HOLD_AT, or as soon as banking reaches the goal; rolls otherwise."""

    def choose(self, game, seat, actions):
        total = game.state.vars["turn_total"]
        want = "hold" if _holds(game.scores[seat], total) else "roll"
        return next(a for a in actions if a.name == want)


@pytest.mark.slow
def test_pig_first_player_wins_as_often_as_value_iteration_says():
    exact = _pig_first_player_wins()
    assert 0.5 < exact < 0.7
    rs = load_ruleset("pig")
    assert rs.warnings == []
    games, first = 2500, 0
    for seed in range(games):
        game = Game(rs, 2, seed=seed, record=False)
        play_out(game, [HoldAt(), HoldAt()])
        assert game.is_over and len(game.winners) == 1
        assert max(game.scores.values()) >= GOAL
        first += game.winners == [0]
    low, high = _wilson(first, games)
    assert low <= exact <= high, (first / games, exact, (low, high))


def _wilson(k: int, n: int) -> tuple[float, float]:
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return centre - half, centre + half


# -- Goofspiel, 4 cards -------------------------------------------------------------------------------------

def _spiel_goofspiel_outcomes() -> dict:
    """Exact outcome shares of OpenSpiel's goofspiel (4 cards, random prizes) under uniform simultaneous play."""
    game = pyspiel.load_game("goofspiel", {"num_cards": 4, "points_order": "random", "returns_type": "win_loss"})
    out = defaultdict(float)

    def walk(state, prob):
        if state.is_terminal():
            out[tuple(state.returns())] += prob
        elif state.is_chance_node():
            for action, p in state.chance_outcomes():
                child = state.clone()
                child.apply_action(action)
                walk(child, prob * p)
        else:
            mine, theirs = state.legal_actions(0), state.legal_actions(1)
            for a in mine:
                for b in theirs:
                    child = state.clone()
                    child.apply_actions([a, b])
                    walk(child, prob / (len(mine) * len(theirs)))

    walk(game.new_initial_state(), 1.0)
    return dict(out)


@pytest.mark.slow
def test_goofspiel_outcomes_under_uniform_play_are_openspiels_within_sampling_error():
    exact = _spiel_goofspiel_outcomes()
    assert set(exact) == {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)} and abs(sum(exact.values()) - 1) < 1e-12
    assert abs(exact[(1.0, -1.0)] - exact[(-1.0, 1.0)]) < 1e-12   # the game is symmetric
    rs = load_ruleset("goofspiel")
    assert rs.warnings == []
    games = 3000
    seen = defaultdict(int)
    for seed in range(games):
        game = Game(rs, 2, seed=seed, record=False)
        play_out(game, [RandomAgent(seed), RandomAgent(seed + 10_000)])
        seen[tuple(game.payoffs)] += 1
        assert game.is_draw == (game.payoffs == [0.0, 0.0])
    assert set(seen) == set(exact)
    for outcome, share in exact.items():
        low, high = _wilson(seen[outcome], games)
        assert low <= share <= high, (outcome, seen[outcome] / games, share)
