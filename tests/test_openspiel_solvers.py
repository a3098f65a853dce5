"""OpenSpiel's solvers on davit's games through the adapter (interpreter/rl/openspiel.py), against known values.

* Kuhn poker (rulesets/kuhn-poker): OpenSpiel's own ``kuhn_poker`` gives the
  outside facts: its bounds (3 moves, 2 actions, 3 chance outcomes, utility
  -2..2, zero-sum), its chance probabilities and its 6 + 6 information states;
  the game's value for player 0 is -1/18 (Kuhn, 1950). CFR (OpenSpiel's
  Python ``cfr``) through the adapter reaches it within 0.005 and an
  exploitability below 0.01 after 1,000 iterations (about 3 s: the adapter
  remembers the tree's transitions), and OpenSpiel's C++ ``exploitability``
  and CFR run on the same game.
  The CFR iterates are OpenSpiel's own on ``kuhn_poker``: the same
  exploitability to 1e-9.
* Leduc poker: the walk of the whole tree finds OpenSpiel's bounds (8 moves,
  utility -13..13, zero-sum), the 9,457 histories its ``leduc_poker`` has and
  its 468 + 468 information states;
  30 iterations of OpenSpiel's C++ CFR+ bring the exploitability below 0.1,
  exactly as on ``leduc_poker``.
* Every bundled ruleset: chance outcomes are exact probabilities that sum to
  one, and IS-MCTS (``resample_from_infostate``, davit's determinizer) plays
  a move; a resampled state keeps what the seat sees.
"""
from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="needs the rl extra: pip install '.[test,rl]'")

from open_spiel.python import policy as policy_lib  # noqa: E402
from open_spiel.python.algorithms import cfr, expected_game_score, exploitability, ismcts, mcts  # noqa: E402

from interpreter import load_ruleset  # noqa: E402
from interpreter.load.files import bundled_ids  # noqa: E402
from interpreter.rl import openspiel as davit_os  # noqa: E402

pytestmark = pytest.mark.slow   # see tests/conftest.py: the fast tier leaves it out

Utility = pyspiel.GameType.Utility


@pytest.fixture(scope="module")
def kuhn():
    return davit_os.game("kuhn-poker", 2)


@pytest.fixture(scope="module")
def leduc():
    # one game for the module: it remembers its tree's transitions, so the second walk replays nothing
    return davit_os.game("leduc-poker", 2)


def _histories(state, seen):
    """Every history below ``state``, its information-state strings by player."""
    seen["histories"] += 1
    if state.is_terminal():
        return
    if not state.is_chance_node():
        seen[state.current_player()].add(state.information_state_string())
        actions = state.legal_actions()
    else:
        actions = [a for a, _ in state.chance_outcomes()]
    for action in actions:
        _histories(state.child(action), seen)


def test_kuhn_poker_declares_what_openspiels_kuhn_poker_declares(kuhn):
    theirs = pyspiel.load_game("kuhn_poker")
    ours = kuhn
    assert ours.get_type().utility == theirs.get_type().utility == Utility.ZERO_SUM
    assert ours.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert ours.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    for what in ("max_game_length", "num_distinct_actions", "max_chance_outcomes", "min_utility", "max_utility",
                 "utility_sum"):
        assert getattr(ours, what)() == getattr(theirs, what)(), what
    root, their_root = ours.new_initial_state(), theirs.new_initial_state()
    assert root.is_chance_node() and root.chance_outcomes() == their_root.chance_outcomes()
    dealt = root.child(2)
    assert dealt.chance_outcomes() == their_root.child(2).chance_outcomes()   # two cards left, 1/2 each
    first = dealt.child(0)
    assert first.current_player() == 0 and first.legal_actions() == [0, 1]
    assert [first.action_to_string(a) for a in (0, 1)] == ["check", "bet"]   # OpenSpiel's pass and bet


@pytest.mark.parametrize("ours,theirs,histories,per_seat", [
    ("kuhn", "kuhn_poker", 58, 6), ("leduc", "leduc_poker", 9457, 468)])   # Leduc: 936 information states
def test_the_pokers_have_openspiels_histories_and_information_states(request, ours, theirs, histories, per_seat):
    found = {"histories": 0, 0: set(), 1: set()}
    reference = {"histories": 0, 0: set(), 1: set()}
    _histories(request.getfixturevalue(ours).new_initial_state(), found)
    _histories(pyspiel.load_game(theirs).new_initial_state(), reference)
    assert found["histories"] == reference["histories"] == histories
    assert (len(found[0]), len(found[1])) == (len(reference[0]), len(reference[1])) == (per_seat, per_seat)


def test_cfr_on_kuhn_poker_reaches_its_value_and_a_low_exploitability(kuhn):
    solver = cfr.CFRSolver(kuhn)
    for _ in range(1000):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    value = expected_game_score.policy_value(kuhn.new_initial_state(), [average, average])
    assert abs(value[0] - (-1 / 18)) < 0.005 and abs(value[0] + value[1]) < 1e-9
    ours = exploitability.exploitability(kuhn, average)
    assert ours < 0.01
    # OpenSpiel's own (C++) exploitability runs on the same game and agrees
    native = pyspiel.exploitability(kuhn, policy_lib.python_policy_to_pyspiel_policy(average))
    assert abs(native - ours) < 1e-9
    # the same solver on OpenSpiel's kuhn_poker goes through the same iterates: the same exploitability
    theirs = pyspiel.load_game("kuhn_poker")
    reference = cfr.CFRSolver(theirs)
    for _ in range(1000):
        reference.evaluate_and_update_policy()
    assert abs(exploitability.exploitability(theirs, reference.average_policy()) - ours) < 1e-9


def test_openspiels_native_cfr_runs_on_davits_kuhn_poker(kuhn):
    solver = pyspiel.CFRSolver(kuhn)
    for _ in range(300):
        solver.evaluate_and_update_policy()
    assert pyspiel.exploitability(kuhn, solver.average_policy()) < 0.01


def test_leduc_poker_walk_finds_openspiels_bounds():
    ours, theirs = davit_os.game("leduc-poker", 2), pyspiel.load_game("leduc_poker")
    assert ours.get_type().utility == Utility.ZERO_SUM
    for what in ("max_game_length", "num_distinct_actions", "min_utility", "max_utility", "utility_sum"):
        assert getattr(ours, what)() == getattr(theirs, what)(), what
    assert ours.bounds.positions == 9457   # every history of OpenSpiel's leduc_poker, each a position here
    assert ours.bounds.max_chance_outcomes == theirs.max_chance_outcomes() == 6


def test_native_cfr_plus_on_leduc_poker_matches_openspiels_leduc_poker(leduc):
    # 30 iterations of OpenSpiel's C++ CFR+ (10 to 35 s on a shared machine): exploitability below 0.1, equal to what
    # the same solver reaches on OpenSpiel's leduc_poker: the two games have the same information sets
    ours, theirs = leduc, pyspiel.load_game("leduc_poker")
    results = []
    for game in (ours, theirs):
        solver = pyspiel.CFRPlusSolver(game)
        for _ in range(30):
            solver.evaluate_and_update_policy()
        results.append(pyspiel.exploitability(game, solver.average_policy()))
    assert results[0] < 0.1 and abs(results[0] - results[1]) < 1e-9


def test_declared_bounds_where_the_tree_is_too_big_to_walk():
    ttt = davit_os.game("tic-tac-toe", 2)
    assert ttt.bounds is None and ttt.get_type().utility == Utility.ZERO_SUM   # outcome payoffs, tie: draw
    assert ttt.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert (ttt.min_utility(), ttt.max_utility(), ttt.utility_sum()) == (-1.0, 1.0, 0.0)
    # limits.max_decisions, each decision one id (the checker knows every choice is a plain value)
    for rid, theirs in (("tic-tac-toe", "tic_tac_toe"), ("liars-dice", "liars_dice")):
        assert davit_os.game(rid, 2).max_game_length() == pyspiel.load_game(theirs).max_game_length(), rid
    pig = davit_os.game("pig", 2)
    assert pig.bounds is None and pig.max_chance_outcomes() >= 6 and pig.get_type().utility == Utility.ZERO_SUM
    # its rolls are chance nodes everyone sees: perfect information, as OpenSpiel's pig
    assert pig.get_type().information == pyspiel.load_game("pig").get_type().information \
        == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert davit_os.game("tutorial", 2).get_type().utility == Utility.GENERAL_SUM   # ties share a win


def test_a_resampled_kuhn_state_deals_the_other_card_anew(kuhn):
    state = kuhn.new_initial_state().child(2).child(0)   # king to player 0, jack to player 1
    assert state.session.game.state.zones["hand@1"] == ["jack"]
    sampler = random.Random(3)
    seen = set()
    for _ in range(40):
        sample = state.resample_from_infostate(0, sampler.random)
        assert sample.session.game.state.zones["hand@0"] == ["king"]   # its own card stays
        seen.add(sample.session.game.state.zones["hand@1"][0])
        assert sample.information_state_string(0) == state.information_state_string(0)
    assert seen == {"jack", "queen"}
    assert state.session.game.state.zones["hand@1"] == ["jack"]   # the real state is untouched


def test_a_clone_holds_no_future_roll():
    game = davit_os.game("pig", 2)
    state = game.new_initial_state()
    rolled = state.child(0)   # roll: the die is a chance node, in the clone as in the original
    assert rolled.is_chance_node()
    assert rolled.chance_outcomes() == [(i, pytest.approx(1 / 6)) for i in range(6)]
    faces = set()
    for outcome in range(6):
        after = rolled.child(outcome)
        faces.add(after.session.game.state.vars["turn_total"])
    assert faces == {0, 2, 3, 4, 5, 6}   # a 1 loses the turn's total


def _to_decision(state, pick):
    while state.is_chance_node() and not state.is_terminal():
        outcomes = state.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9 and all(p > 0 for _, p in outcomes)
        state.apply_action(pick.choice(outcomes)[0])
    return state


@pytest.mark.parametrize("rid", bundled_ids())
def test_a_search_bot_plays_a_move_on_every_ruleset(rid):
    # IS-MCTS where something is hidden (it asks resample_from_infostate), MCTS on an open game: with explicit
    # chance neither sees a future draw; a resampled state keeps everything the seat sees and may do
    rs = load_ruleset(rid)
    game = davit_os.game(rs, rs.min_players)
    pick = random.Random(1)
    state = _to_decision(game.new_initial_state(), pick)
    seat = state.current_player()
    sample = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert sample.information_state_string(seat) == state.information_state_string(seat)
    assert sample.legal_actions() == state.legal_actions()
    small = rs.id in ("kuhn-poker", "leduc-poker", "liars-dice", "pig", "goofspiel", "tic-tac-toe")
    evaluator = mcts.RandomRolloutEvaluator(1, random_state=np.random.RandomState(7))
    simulations = 20 if small else 3
    if game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION:
        bot = ismcts.ISMCTSBot(game, evaluator, 2.0, max_simulations=simulations,
                               random_state=np.random.RandomState(7), allow_inconsistent_action_sets=True)
    else:
        bot = mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=np.random.RandomState(7))
    assert bot.step(state) in state.legal_actions()
    # and on to the end: every chance node on the way offers outcomes whose probabilities sum to one
    while not state.is_terminal():
        _to_decision(state, pick)
        if not state.is_terminal():
            state.apply_action(pick.choice(state.legal_actions()))


def test_a_serialised_state_reads_back_as_the_same_position(kuhn):
    state = kuhn.new_initial_state()
    for action in (1, 0, 1):   # queen to player 0, jack to player 1, player 0 bets
        state.apply_action(action)
    text = pyspiel.serialize_game_and_state(kuhn, state)
    game, back = pyspiel.deserialize_game_and_state(text)
    assert back.history() == state.history() == [1, 0, 1]
    assert back.current_player() == 1 and back.legal_actions() == [0, 1]
    for seat in (0, 1):
        assert back.information_state_string(seat) == state.information_state_string(seat)
    back.apply_action(1)   # call: the queen beats the jack
    assert back.returns() == [2.0, -2.0]
