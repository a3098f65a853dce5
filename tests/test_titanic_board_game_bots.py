"""Titanic: The Board Game and the search bots: their guidance leads to the lifeboat, and their games end by it.

The rules never read `heuristics:`; these tests check that the guidance the
bots read points the way a pawn may really go (not up the Grand Staircase,
which 2nd-class pawns may not use), that waiting on board stops paying once
someone is in a lifeboat, and that seeded games of search bots end by a
lifeboat (or the rulebook's eliminations), not at the safety limit.
"""
from collections import deque

import pytest

from interpreter import Game, load_ruleset
from interpreter.agents.seats import make_agents, play_out

RID = "titanic-board-game"
WALKED = {"ramp", "corridor", "door", "first_class"}   # the edge kinds a move follows (destinations())


@pytest.fixture(scope="module")
def rules():
    return load_ruleset(RID)


def _put(game, thing_id, zone_id):
    game.move_thing(game.table.things[thing_id], game.table.zones[zone_id], None, None, None)


def _holding_everything(rules, seat=0):
    game = Game(rules, 3, seed=1)
    for item in ("key", "valuables", "lifejacket", "health", "passport"):
        _put(game, f"property-{item}@{seat}", f"property@{seat}")
    return game


def _evaluate(game, seat):
    p = game.table.players[seat]
    return float(game.ruleset.evaluate(game, {"p": p, "player": p}))


def _steps_to(game, goal):
    """Steps from every space to ``goal`` along the edges a move follows, one-way edges forwards only."""
    back = {}
    for node, arcs in game.board.adjacency.items():
        for m, kind in arcs:
            if kind in WALKED:
                back.setdefault(m, []).append(node)
    steps, todo = {goal: 0}, deque([goal])
    while todo:
        node = todo.popleft()
        for m in back.get(node, ()):
            if m not in steps:
                steps[m] = steps[node] + 1
                todo.append(m)
    return steps


def test_with_five_cards_the_evaluation_follows_the_walk_to_the_lifeboat(rules):
    game = _holding_everything(rules)
    lifeboat = "lifeboat_port"   # yellow's side
    steps = _steps_to(game, lifeboat)
    judged = {}
    for space in game.table.space_list:
        if space.id in steps and space.attrs["area"] != "lifeboat" and space.attrs["effect"] not in ("hold", "prison"):
            _put(game, "pawn@0", space.id)
            judged[space.id] = _evaluate(game, 0)
    assert len(judged) > 40
    # one step nearer by the way pawns walk is worth one point, wherever the pawn stands
    totals = {round(judged[s] + steps[s], 6) for s in judged}
    assert len(totals) == 1, sorted((steps[s], s, judged[s]) for s in judged)
    # the top corridor beside the Grand Staircase is no short cut
    assert judged["c_10_4"] > judged["c_5_4"]


def test_waiting_on_board_costs_only_once_someone_is_in_a_lifeboat(rules):
    game = _holding_everything(rules)
    _put(game, "pawn@0", "c_10_4")
    game.state.vars["round"] = 10
    before = _evaluate(game, 0)
    game.state.vars["round"] = 11
    assert _evaluate(game, 0) == before, "before anyone arrives, time changes nothing"
    game.state.pvars[1]["place"] = 1
    game.state.vars["arrivals"] = 1
    later = _evaluate(game, 0)
    game.state.vars["round"] = 12
    assert _evaluate(game, 0) < later, "after the first arrival, a round more on board is worse"


@pytest.mark.slow   # whole games of search bots: what the bots do, not the engine's logic
@pytest.mark.parametrize("seed", [1])
def test_seeded_search_bot_games_end_by_a_lifeboat(rules, seed):
    # a small budget keeps the test quick; the default budget is measured on the ruleset's docs page
    game = Game(rules, 3, seed=seed)
    play_out(game, make_agents("ismcts:20", 3, seed))
    st = game.state
    assert game.end_reason is None, f"seed {seed} ended at {game.end_reason}"
    still_on_board = [s for s in range(3) if not st.out[s] and st.pvars[s]["place"] == 0]
    assert len(still_on_board) <= 1
    assert any(pv["place"] == 1 for pv in st.pvars) or sum(st.out) == 2
