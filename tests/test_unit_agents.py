"""Unit tests for interpreter.agents: make_agents, random/first/greedy/human agents, play_out."""

import pytest
from ruleset_builder import load as build

from interpreter import Action, Game
from interpreter.agents import FirstAgent, GreedyAgent, HumanAgent, RandomAgent, make_agents, play_out


def load(tmp_path, spec):
    return build(tmp_path, spec, max_players=4)


# Each player takes exactly one action per turn, for three rounds.
GAINS = {
    "player": {"vars": {"score": 0, "moves": 0}},
    "actions": [{"id": "small", "do": "score(player, 1)\nplayer.moves += 1"},
                {"id": "lose", "do": "score(player, -2)\nplayer.moves += 1"},
                {"id": "big", "do": "score(player, 3)\nplayer.moves += 1"},
                {"id": "also_big", "do": "score(player, 3)\nplayer.moves += 1"}],
    "flow": [{"repeat": 3, "steps": [{"each_player": "current", "steps": [
        {"step": "reset", "do": "current.moves = 0"},
        {"turn": {"player": "current", "actions": ["small", "lose", "big", "also_big"], "pass": False,
                  "until": "current.moves > 0"}}]}]}],
}


@pytest.fixture
def rs(tmp_path):
    return load(tmp_path, GAINS)


# --- make_agents ----------------------------------------------------------------------------------

def test_make_agents_repeats_the_last_name():
    agents = make_agents("random,greedy", 4, seed=1)
    assert [type(a) for a in agents] == [RandomAgent, GreedyAgent, GreedyAgent, GreedyAgent]


def test_make_agents_defaults_and_whitespace():
    assert [type(a) for a in make_agents(None, 2, 0)] == [RandomAgent, RandomAgent]
    assert [type(a) for a in make_agents(" first , random ", 2, 0)] == [FirstAgent, RandomAgent]
    with pytest.raises(ValueError):   # an empty name is refused, not dropped (it moved later agents a seat)
        make_agents(",,", 1, 0)
    assert [type(a) for a in make_agents(["first"], 3, 0)] == [FirstAgent] * 3


def test_make_agents_refuses_unknown_names():
    with pytest.raises(ValueError) as info:
        make_agents("random,clever", 2, 0)
    assert "unknown agent 'clever'" in str(info.value)


def test_agents_get_distinct_reproducible_streams():
    a = make_agents("random", 3, seed=5)
    b = make_agents("random", 3, seed=5)
    draws_a = [[agent.random.random() for _ in range(5)] for agent in a]
    draws_b = [[agent.random.random() for _ in range(5)] for agent in b]
    assert draws_a == draws_b
    assert len({tuple(d) for d in draws_a}) == 3
    c = make_agents("random", 1, seed=6)
    assert [c[0].random.random() for _ in range(5)] != draws_a[0]


# --- the agents ----------------------------------------------------------------------------------------

def test_first_agent(rs):
    game = Game(rs, 1)
    actions = game.legal_actions(0)
    assert FirstAgent().choose(game, 0, actions) is actions[0]


def test_random_agent_picks_legal_actions_reproducibly(rs):
    game = Game(rs, 1)
    actions = game.legal_actions(0)
    picks = [RandomAgent(3).choose(game, 0, actions) for _ in range(3)]
    assert picks[0] == picks[1] == picks[2]
    many = RandomAgent(3)
    chosen = {many.choose(game, 0, actions).name for _ in range(200)}
    assert chosen == {"small", "lose", "big", "also_big"}


def test_greedy_agent_takes_the_best_gain(rs):
    game = Game(rs, 2)
    actions = game.legal_actions(0)
    seen = set()
    for seed in range(20):
        pick = GreedyAgent(seed).choose(game, 0, actions)
        assert pick.name in ("big", "also_big")
        seen.add(pick.name)
    assert seen == {"big", "also_big"}  # ties are broken at random


def test_greedy_agent_leaves_the_game_alone(rs):
    game = Game(rs, 2)
    before = game.state.clone()
    log_length = len(game.log)
    GreedyAgent(0).choose(game, 0, game.legal_actions(0))
    assert game.state == before
    assert len(game.log) == log_length


def test_greedy_agent_with_one_action(rs):
    action = Action(0, "x")
    assert GreedyAgent(0).choose(None, 0, [action]) is action


def test_greedy_look_ahead_does_not_reveal_cards(tmp_path):
    rs = load(tmp_path, {
        "zones": [{"id": "pile", "visibility": "nobody", "face": "down"}],
        "things": [{"id": "card", "start": "pile"}],
        "actions": [{"id": "spy", "choose": {"c": "pile"}, "do": "peek(player, c)"}],
        "flow": [{"each_player": "current", "steps": [{"turn": {"player": "current", "actions": ["spy"]}}]}]})
    game = Game(rs, 2)
    game.apply(game.legal_actions(0)[0])  # seat 0 peeks: known_to = [0]
    game.apply(Action(0, "pass"))
    GreedyAgent(0).choose(game, 1, game.legal_actions(1))  # seat 1 only considers peeking
    assert game.state.props["card"]["known_to"] == [0]


def test_human_agent_reads_a_number_and_retries(rs):
    game = Game(rs, 1)
    actions = game.legal_actions(0)
    answers = iter(["", "x", "99", "3"])
    printed = []
    agent = HumanAgent(input_fn=lambda prompt: next(answers), output=printed.append)
    assert agent.choose(game, 0, actions) is actions[2]
    assert sum("Please type a number from 1 to 4, or help." in line for line in printed) == 3
    assert any(line.strip() == f"3. {actions[2]}" for line in printed)


# --- play_out -------------------------------------------------------------------------------------------

def test_play_out_to_the_end(rs):
    game = Game(rs, 2, seed=1)
    made = play_out(game, [FirstAgent(), FirstAgent()])
    assert game.is_over
    assert made == 6  # three rounds, one action per player per round
    assert game.scores == {0: 3, 1: 3}  # FirstAgent always takes "small"


def test_play_out_stops_after_max_decisions(rs):
    game = Game(rs, 2, seed=1)
    assert play_out(game, make_agents("greedy", 2, 0), max_decisions=3) == 3
    assert not game.is_over
    assert game.scores == {0: 6, 1: 3}


def test_play_out_with_greedy_agents_scores_best(rs):
    game = Game(rs, 2, seed=1)
    play_out(game, make_agents("greedy", 2, 0))
    assert game.scores == {0: 9, 1: 9}
