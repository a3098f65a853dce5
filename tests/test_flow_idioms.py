"""Turn and outcome idioms as data (docs/flow.md): a turn of `max_actions`, `repeat: until_end`, declared draws,
`scoring.tie`, and the ranking and payoffs read from a finished game."""
import pytest
from ruleset_builder import load

from interpreter import Game
from interpreter.agents import RandomAgent, play_out
from interpreter.errors import DavitError, GameError, RunawayGameError
from interpreter.machine.waits import PASS

# a player acts with `act` (no end_turn() anywhere); `look` is free in the tests that say so
ACTS = {"actions": [{"id": "act", "do": "player.acted += 1"}, {"id": "look", "do": "pass"}],
        "player": {"vars": {"acted": 0}}}


def _turns(tmp_path, turn: dict, rounds=2, **more):
    spec = {**ACTS, "flow": [{"repeat": rounds, "steps": [{"each_player": "current", "steps": [
        {"turn": {"player": "current", "actions": ["act"], **turn}}]}]}], **more}
    return load(tmp_path, spec, max_players=2)


def _deciders(game, limit=100) -> list:
    """Who decided each decision, taking the first legal action every time."""
    seats = []
    while not game.is_over and len(seats) < limit:
        actions = game.legal_actions()
        seats.append(actions[0].player)
        assert game.apply(actions[0])
    return seats


# -- turn: max_actions ----------------------------------------------------------------

def test_a_turn_of_max_actions_ends_by_itself_without_pass_or_end_turn(tmp_path):
    rs = _turns(tmp_path, {"max_actions": 2})
    game = Game(rs, 2, seed=0)
    assert [a.name for a in game.legal_actions()] == ["act"]   # no pass: the count is the turn
    assert _deciders(game) == [0, 0, 1, 1, 0, 0, 1, 1]
    assert [game.state.pvars[s]["acted"] for s in (0, 1)] == [4, 4]


def test_one_action_per_turn_never_lets_a_player_act_twice(tmp_path):
    rs = _turns(tmp_path, {"max_actions": 1}, rounds=5)
    for seed in range(5):
        game = Game(rs, 2, seed=seed)
        seats = []
        while not game.is_over:
            action = RandomAgent(seed).choose(game, game.deciding_players[0], game.legal_actions())
            seats.append(action.player)
            game.apply(action)
        assert seats == [0, 1] * 5


def test_max_actions_may_allow_passing_and_count_from_a_constant_or_expression(tmp_path):
    rs = _turns(tmp_path, {"max_actions": "per_turn", "pass": True},
                constants={"per_turn": {"by_players": {1: 1, 2: 3}}})
    game = Game(rs, 2, seed=0)
    assert [a.name for a in game.legal_actions()] == ["act", PASS]
    game.apply(game.legal_actions()[1])          # seat 0 passes at once
    assert game.deciding_players == [1]
    assert _deciders(game) == [1, 1, 1, 0, 0, 0, 1, 1, 1]
    rs = _turns(tmp_path, {"max_actions": "1 + round"}, rounds=2, flow=[
        {"repeat": 2, "as": "round", "steps": [{"turn": {"player": "player(0)", "actions": ["act"],
                                                         "max_actions": "1 + round"}}]}])
    assert _deciders(Game(rs, 1, seed=0)) == [0] * (2 + 3)   # worked out when each turn starts


def test_free_actions_do_not_count(tmp_path):
    rs = _turns(tmp_path, {"actions": ["act", "look"], "max_actions": 1, "free": ["look"]}, rounds=1)
    game = Game(rs, 2, seed=0)
    look = next(a for a in game.legal_actions() if a.name == "look")
    for _ in range(3):
        game.apply(look)
        assert game.deciding_players == [0]
    game.apply(next(a for a in game.legal_actions() if a.name == "act"))
    assert game.deciding_players == [1]


def test_the_count_survives_a_save_and_a_clone(tmp_path):
    rs = _turns(tmp_path, {"max_actions": 3}, rounds=1)
    game = Game(rs, 2, seed=0)
    game.apply(game.legal_actions()[0])
    for copy in (game.clone(), Game.from_json(rs, game.to_json())):
        assert _deciders(copy) == [0, 0, 1, 1, 1]


@pytest.mark.parametrize("value, words", [(0, "minimum of 1"), (-2, "minimum of 1"), (True, "")])
def test_a_count_that_is_no_positive_whole_number_is_a_located_error(tmp_path, value, words):
    with pytest.raises(DavitError) as caught:
        _turns(tmp_path, {"max_actions": value})
    assert "ruleset.yaml:" in str(caught.value) and "max_actions" in str(caught.value)


def test_a_count_constant_or_text_that_is_no_count_is_refused_where_it_stands(tmp_path):
    with pytest.raises(DavitError) as caught:
        _turns(tmp_path, {"max_actions": "per_turn"}, constants={"per_turn": {"by_players": {1: 1, 2: 0}}})
    error = getattr(caught.value, "errors", [caught.value])[0]
    assert error.code == "bad-count" and error.location.line > 1 and "per_turn" in error.message
    with pytest.raises(DavitError) as caught:
        _turns(tmp_path, {"max_actions": '"two"'})
    error = getattr(caught.value, "errors", [caught.value])[0]
    assert error.code == "bad-count" and "text" in error.message
    with pytest.raises(DavitError) as caught:   # not a name of the ruleset at all
        _turns(tmp_path, {"max_actions": "two"})
    assert "two" in str(caught.value) and "ruleset.yaml:" in str(caught.value)
    with pytest.raises(DavitError) as caught:
        _turns(tmp_path, {"max_actions": 1, "free": ["lock"]})
    error = getattr(caught.value, "errors", [caught.value])[0]
    assert error.code == "unknown-reference" and "lock" in error.message


def test_a_count_worked_out_as_zero_stops_the_game_at_the_key(tmp_path):
    rs = _turns(tmp_path, {"max_actions": "start"}, variables={"start": 0})
    with pytest.raises(GameError) as caught:
        Game(rs, 2, seed=0)
    assert "max_actions" in str(caught.value) and caught.value.location is not None
    assert caught.value.location.line > 1


def test_the_end_condition_stops_a_turn_of_max_actions_in_its_middle(tmp_path):
    rs = _turns(tmp_path, {"max_actions": 3}, end={"when": "player(0).acted == 2"})
    game = Game(rs, 2, seed=0)
    assert _deciders(game) == [0, 0] and game.is_over


# -- repeat: until_end ------------------------------------------------------------------

def test_repeat_until_end_loops_until_the_end_condition_and_counts_rounds(tmp_path):
    rs = load(tmp_path, {**ACTS, "flow": [{"repeat": "until_end", "as": "round", "steps": [
        {"each_player": "current", "steps": [{"turn": {"player": "current", "actions": ["act"], "max_actions": 1}}]}]}],
        "end": {"when": "round == 4"}}, max_players=2)
    assert "endless-loop" not in [w.code for w in rs.warnings]
    game = Game(rs, 2, seed=0)
    assert _deciders(game) == [0, 1] * 3
    assert game.is_over and game.state.vars["round"] == 4


def test_repeat_until_end_with_nothing_to_end_the_game_is_a_warning_and_the_guard_stops_it(tmp_path):
    rs = load(tmp_path, {"variables": {"x": 0}, "limits": {"max_steps": 5000},
                         "flow": [{"repeat": "until_end", "steps": [{"do": "x += 1"}]}]})
    assert [w.code for w in rs.warnings] == ["endless-loop"]
    assert rs.warnings[0].location.line > 1
    with pytest.raises(RunawayGameError):
        Game(rs, 1, seed=0)


def test_repeat_until_end_ends_by_end_game_without_a_warning(tmp_path):
    rs = load(tmp_path, {"variables": {"x": 0}, "flow": [{"repeat": "until_end", "steps": [
        {"do": "x += 1\nif x == 7:\n  end_game(reason=\"seven\")"}]}]})
    assert rs.warnings == []
    game = Game(rs, 1, seed=0)
    assert game.is_over and game.state.vars["x"] == 7 and game.end_reason == "seven"


# -- draws, ties, ranking, payoffs ---------------------------------------------------------

FINAL = {"flow": [{"do": "for p in players:\n  p.score = points[p.seat]"}]}


def _ended(tmp_path, points, scoring=None, end=None):
    spec = {**FINAL, "constants": {"points": points}, "scoring": scoring or {"rank": "p.score"}}
    if end:
        spec["end"] = end
    game = Game(load(tmp_path, spec), len(points), seed=0)
    assert game.is_over
    return game


def test_by_default_a_tie_is_a_shared_win_as_before(tmp_path):
    game = _ended(tmp_path, [2, 2, 1])
    assert game.winners == [0, 1] and not game.is_draw
    assert game.ranking == [1, 1, 3] and game.payoffs == [1.0, 1.0, -1.0]


def test_scoring_tie_draw_makes_a_tie_for_first_a_draw(tmp_path):
    game = _ended(tmp_path, [2, 2, 1], {"rank": "p.score", "tie": "draw"})
    assert game.winners == [] and game.is_draw
    assert game.ranking == [1, 1, 3] and game.payoffs == [0.0, 0.0, -1.0]
    assert game.log[-1]["draw"] is True
    game = _ended(tmp_path, [3, 2, 1], {"rank": "p.score", "tie": "draw"})   # no tie: a win as always
    assert game.winners == [0] and not game.is_draw and game.payoffs == [1.0, -1.0, -1.0]


def test_end_outcome_draw_ranks_everyone_equal_whatever_the_scores(tmp_path):
    game = _ended(tmp_path, [5, 1], end={"when": "player(0).score == 5", "outcome": "draw"})
    assert game.winners == [] and game.is_draw and game.ranking == [1, 1] and game.payoffs == [0.0, 0.0]


def test_end_game_may_declare_a_draw(tmp_path):
    rs = load(tmp_path, {"flow": [{"do": "score(player(1), 4)\nend_game(reason=\"agreed\", draw=true)"}]})
    game = Game(rs, 2, seed=0)
    assert game.is_draw and game.winners == [] and game.end_reason == "agreed" and game.payoffs == [0.0, 0.0]


def test_payoffs_may_be_the_scores_or_other_numbers(tmp_path):
    game = _ended(tmp_path, [2, -2], {"rank": "p.score", "payoffs": "scores"})
    assert game.winners == [0] and game.payoffs == [2.0, -2.0]
    game = _ended(tmp_path, [1, 1, 0], {"rank": "p.score", "tie": "draw", "payoffs": {"draw": 0.5, "loss": 0}})
    assert game.payoffs == [0.5, 0.5, 0.0]


def test_eliminated_players_rank_last_and_lose(tmp_path):
    spec = {**FINAL, "constants": {"points": [1, 9, 1]}}
    spec["flow"] = spec["flow"] + [{"do": "eliminate(player(1))"}]
    game = Game(load(tmp_path, {**spec, "scoring": {"rank": "p.score", "tie": "draw"}}), 3, seed=0)
    assert game.is_draw and game.ranking == [1, 3, 1] and game.payoffs == [0.0, -1.0, 0.0]


def test_a_game_not_over_has_no_ranking_and_zero_payoffs(tmp_path):
    game = Game(_turns(tmp_path, {"max_actions": 1}), 2, seed=0)
    assert game.ranking == [] and game.payoffs == [0.0, 0.0] and not game.is_draw


@pytest.mark.parametrize("section, value, key", [
    ("end", {"when": "true", "outcome": "tie"}, "outcome"),
    ("scoring", {"tie": "split"}, "tie"),
    ("scoring", {"payoffs": "money"}, "payoffs"),
    ("scoring", {"payoffs": {"win": "a lot"}}, "win"),
])
def test_bad_outcome_keys_are_located_errors(tmp_path, section, value, key):
    with pytest.raises(DavitError) as caught:
        load(tmp_path, {section: value})
    assert "ruleset.yaml:" in str(caught.value) and key in str(caught.value)


def test_a_draw_outcome_needs_its_condition(tmp_path):
    with pytest.raises(DavitError) as caught:
        load(tmp_path, {"end": {"outcome": "draw"}})
    error = getattr(caught.value, "errors", [caught.value])[0]
    assert error.code == "bad-value" and error.location is not None and "end.when" in error.message


def test_simulate_counts_a_draw_as_no_win_and_reports_a_draw_rate():
    from interpreter.analysis.summary import summarize
    records = [{"scores": [1, 0], "winners": [0], "draw": False, "capped": False, "length": 5, "end_reason": "x"},
               {"scores": [0, 0], "winners": [], "draw": True, "capped": False, "length": 9, "end_reason": "end"},
               {"scores": [0, 0], "winners": [], "capped": True, "length": 9, "end_reason": "cap"}]
    result = summarize(records, 2)
    assert result["wins"] == [1, 0] and result["draws"] == 1 and result["draw_rate"] == pytest.approx(1 / 3)
    assert result["no_winner_rate"] == pytest.approx(1 / 3)   # the capped game; the draw is counted apart


def test_play_out_of_a_draw_rule_with_random_agents_ends(tmp_path):
    rs = load(tmp_path, {**ACTS, "flow": [{"repeat": "until_end", "as": "round", "steps": [
        {"each_player": "current", "steps": [{"turn": {"player": "current", "actions": ["act"], "max_actions": 1}}]}]}],
        "end": {"when": "round > 3", "outcome": "draw"}}, max_players=2)
    game = Game(rs, 2, seed=3)
    play_out(game, [RandomAgent(1), RandomAgent(2)])
    assert game.is_over and game.is_draw and game.view(0)["draw"] is True
    from interpreter.observe.narrate import narrate
    assert narrate(game)[-1] == "Game over. Scores: player 1 0, player 2 0. A draw: nobody wins."


@pytest.mark.parametrize("caller", ["setup", "flow"])
def test_an_endless_loop_in_a_function_a_rule_calls_is_a_located_error_not_a_length_limit(tmp_path, caller):
    # the function stopped at its own step budget, spending none of the game's: the game ended quietly
    # ("length limit", everyone winning) where a loop must be a located runaway error
    spec = {"variables": {"x": 0}, "limits": {"max_steps": 5000},
            "functions": {"spin": {"do": "while true:\n  x += 1\n"}},
            "flow": [{"do": "spin()" if caller == "flow" else "pass"}]}
    if caller == "setup":
        spec["setup"] = "spin()"
    rs = load(tmp_path, spec)
    with pytest.raises(RunawayGameError) as caught:
        Game(rs, 2, seed=0)
    assert caught.value.location is not None and caught.value.location.line > 1
