"""Tic-tac-toe written with the documented flow idioms only (rulesets/tic-tac-toe, docs/flow.md).

The outside reasons: the rules of the game (a line of three wins, a full
grid without one is a draw) checked on the final grid by code of this file,
and the known size of its game tree: 255,168 games, of which 131,184 are won
by the first player, 77,904 by the second and 46,080 drawn.
"""
from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.agents import RandomAgent, play_out

FOLDER = Path(__file__).resolve().parent.parent / "rulesets" / "tic-tac-toe"
CELLS = [["a1", "a2", "a3"], ["b1", "b2", "b3"], ["c1", "c2", "c3"]]
LINES = ([row for row in CELLS] + [[CELLS[r][c] for r in range(3)] for c in range(3)]
         + [[CELLS[i][i] for i in range(3)], [CELLS[i][2 - i] for i in range(3)]])


@pytest.fixture(scope="module")
def rs():
    return load_ruleset(FOLDER)


def _grid(game) -> dict:
    """Cell id -> the seat whose mark is there (None: empty), read from where the marks lie."""
    out = {}
    for row in CELLS:
        for cell in row:
            things = game.state.zones[cell]
            assert len(things) <= 1
            out[cell] = int(things[0].rsplit("@", 1)[1]) if things else None
    return out


def _line_owners(grid) -> set:
    return {grid[line[0]] for line in LINES if grid[line[0]] is not None and len({grid[c] for c in line}) == 1}


def test_it_validates_with_no_warnings(rs):
    assert rs.warnings == []
    # the rules without their comments (which say what the idioms replace)
    text = "\n".join(line.split("#")[0] for line in (FOLDER / "ruleset.yaml").read_text().splitlines())
    # the idioms, and none of the hand-made flags they replace
    assert "max_actions: 1" in text and "repeat: until_end" in text and "outcome: draw" in text
    assert "end_turn" not in text and "while" not in text and "pass:" not in text


def test_seeded_random_games_end_with_one_winner_on_a_line_or_a_draw_on_a_full_grid(rs):
    results = set()
    for seed in range(150):
        game = Game(rs, 2, seed=seed)
        play_out(game, [RandomAgent(seed), RandomAgent(seed + 1000)])
        assert game.is_over
        grid = _grid(game)
        owners = _line_owners(grid)
        if game.winners:
            assert len(game.winners) == 1 and owners == set(game.winners) and not game.is_draw
            winner = game.winners[0]
            assert game.ranking == [1 if s == winner else 2 for s in (0, 1)]
            assert game.payoffs == [1.0 if s == winner else -1.0 for s in (0, 1)]
            results.add("win")
        else:
            assert None not in grid.values() and owners == set()
            assert game.is_draw and game.ranking == [1, 1] and game.payoffs == [0.0, 0.0]
            results.add("draw")
        # crosses (seat 0) moved first and the seats alternated: never two marks more for one side
        marks = list(grid.values())
        assert 0 <= marks.count(0) - marks.count(1) <= 1
    assert results == {"win", "draw"}


@pytest.mark.slow
def test_the_whole_game_tree_has_the_known_counts_and_turns_alternate(rs):
    counts = {"crosses": 0, "noughts": 0, "draw": 0}

    def walk(game, depth):
        if game.is_over:
            winners = game.winners
            if winners:
                assert len(winners) == 1
                counts[("crosses", "noughts")[winners[0]]] += 1
            else:
                assert game.is_draw and depth == 9
                counts["draw"] += 1
            return
        assert game.deciding_players == [depth % 2]   # one mark per turn: never the same player twice
        for action in game.legal_actions():
            child = game.clone()
            child.carry_out_legal(action)
            walk(child, depth + 1)

    walk(Game(rs, 2, seed=0, record=False), 0)
    assert counts == {"crosses": 131_184, "noughts": 77_904, "draw": 46_080}
    assert sum(counts.values()) == 255_168


def test_openspiel_returns_of_a_drawn_game_are_zero(rs):
    pytest.importorskip("pyspiel")
    import random

    from interpreter.rl import openspiel as davit_os
    game = davit_os.game(rs, 2, seed=1)
    found = {}
    for seed in range(200):
        pick = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(pick.choice(state.legal_actions()))
        session = state.session.game
        kind = "draw" if session.is_draw else "win"
        found.setdefault(kind, (list(state.returns()), session.winners))
        if len(found) == 2:
            break
    assert found["draw"] == ([0.0, 0.0], [])
    returns, winners = found["win"]
    assert returns == [1.0 if s in winners else -1.0 for s in (0, 1)]
    assert game.min_utility() == -1.0 and game.max_utility() == 1.0


def test_pettingzoo_rewards_of_a_drawn_game_are_zero(rs):
    pytest.importorskip("pettingzoo")
    import random

    from interpreter.rl import pettingzoo as davit_pz
    for seed in range(200):
        env = davit_pz.env(rs, 2)
        env.reset(seed=seed)
        pick = random.Random(seed)
        final = {}
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            if terminated or truncated:
                final[agent] = reward
                env.step(None)
                continue
            env.step(pick.choice([i for i, ok in enumerate(obs["action_mask"]) if ok]))
        if env.game.is_draw:
            assert final == {a: 0.0 for a in env.possible_agents}
            return
    pytest.fail("no random game of 200 was drawn")


def test_explain_tells_the_idioms_in_words(rs):
    from interpreter.authoring.explain import explain
    text = explain(rs)
    assert "Repeat until the game ends (round = 1, 2, …)" in text
    assert "the turn ends after one action" in text and "may pass" not in text
    assert "holds, in a draw: nobody wins" in text


def test_play_json_says_draw_with_ranks_and_payoffs(capsys):
    import json

    from cli_runner import run
    seen = set()
    for seed in range(30):
        assert run(["play", str(FOLDER), "--seed", str(seed), "--json"]) == 0
        result = json.loads(capsys.readouterr().out)
        if result["draw"]:
            assert result["winners"] == [] and result["ranking"] == [1, 1] and result["payoffs"] == [0.0, 0.0]
        else:
            (winner,) = result["winners"]
            assert result["payoffs"][winner] == 1.0 and result["payoffs"][1 - winner] == -1.0
        seen.add(result["draw"])
    assert seen == {True, False}


def test_simulate_counts_every_game_as_one_win_or_one_draw(capsys):
    import json

    from cli_runner import run
    assert run(["simulate", str(FOLDER), "--games", "80", "--players", "2", "--seed", "1", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["ties"] == 0 and result["draws"] > 0 and result["no_winner_rate"] == 0
    assert sum(result["wins"]) + result["draws"] == result["games"] == 80
    assert run(["simulate", str(FOLDER), "--games", "80", "--players", "2", "--seed", "1"]) == 0
    assert f"draws: {result['draw_rate']:.1%}" in capsys.readouterr().out
