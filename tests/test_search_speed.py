"""The search's shortcuts give what the longer way gave (issue 28).

Each shortcut here saves work a search iteration repeated; the search's choices must not change, so
each is compared with the longer way on seeded positions and on a case built to reach its edge.
"""
import random

import pytest
from ruleset_builder import load as build
from test_search_bots import BOXES

from interpreter import Game, load_ruleset
from interpreter.agents import make_agents, play_out
from interpreter.agents.ismcts import _values, leads
from interpreter.authoring.snippets import SnippetCompiler
from interpreter.errors import GameError
from interpreter.play.determinize import determinize
from interpreter.play.playout import candidates_to_move, to_move


def _positions(rid, players, seeds, stops=(0.2, 0.5, 0.8)):
    """Seeded positions part-way through random games of ``rid``."""
    rs = load_ruleset(rid)
    for seed in seeds:
        length = play_out(Game(rs, players, seed=seed, record=False), make_agents("random", players, seed))
        for stop in stops:
            game = Game(rs, players, seed=seed, record=False)
            play_out(game, make_agents("random", players, seed), max_decisions=max(1, int(length * stop)))
            if not game.is_over:
                yield game


# -- an evaluation of every seat at once ------------------------------------------------------------

def test_an_evaluation_that_gives_a_list_gives_each_seats_worth(tmp_path):
    per_seat = build(tmp_path, dict(BOXES, heuristics={"evaluate": "p.score * 2 + p.moves"}), max_players=2)
    at_once = build(tmp_path, dict(BOXES, heuristics={
        "evaluate": "[q.score * 2 + q.moves for q in all_players]"}), max_players=2)
    short = build(tmp_path, dict(BOXES, heuristics={"evaluate": "[7]"}), max_players=2)
    for rs in (per_seat, at_once, short):
        game = Game(rs, 2, seed=0)
        game.state.pvars[0]["score"], game.state.pvars[1]["score"], game.state.pvars[1]["moves"] = 4, 1, 3
        if rs is short:   # a list of the wrong length is the ruleset's mistake: said where it is written
            with pytest.raises(GameError, match="a list of 1 worths for 2 seats") as info:
                _values(game, use_heuristic=True)
            assert info.value.location is not None and info.value.location.line > 0
            continue
        assert _values(game, use_heuristic=True) == [8.0, 5.0]


def test_collapsible_d_judges_every_seat_as_it_did_seat_by_seat():
    # the evaluation's old text: each seat's worth with the open accesses listed for that seat, its passengers
    # summed by filter and sum (a function called a passenger)
    old = None
    checked = 0
    for game in _positions("collapsible-d", 4, seeds=(1, 2)):
        old = old or SnippetCompiler(game.ruleset).expression(
            "[sum(filter(things('passenger'), t -> mine(q, t)), t -> passenger_worth(t, open_accesses())) "
            "for q in all_players]")
        sample = determinize(game, game.deciding_players[0], random.Random(3))
        for position in (game, sample):
            assert _values(position, use_heuristic=True) == [float(v) for v in old(position, {})]
            assert leads(position) is not None
            checked += 1
    assert checked >= 8


def test_collapsible_d_finds_the_nearest_open_access_as_it_did_by_walking():
    # the old text of access_nearness, which walked the reachable spaces looking each gate up; gate lists
    # with the nearest access closed (the walk goes on past it), none open, and all open
    old_text = ("20 if s.gate > 0 and s.gate in gates else "
                "steps_credit(s, first(reachable(s), a -> a.gate > 0 and a.gate in gates))")
    gate_lists = ["[]", "[1, 2, 3, 4, 5, 6, 7, 8]", "[8]", "[1, 3, 5, 7]", "[2, 4, 6, 8, 8]", "open_accesses()"]
    game = next(_positions("collapsible-d", 4, seeds=(4,), stops=(0.5,)))
    compiler = SnippetCompiler(game.ruleset)
    for gates in gate_lists:
        new = compiler.expression(f"[access_nearness(s, {gates}) for s in spaces()]")
        old = compiler.expression(f"[({old_text.replace('gates', gates)}) for s in spaces()]")
        game.work = 0
        got = new(game, {})
        game.work = 0
        assert got == old(game, {}) and len(got) > 100
        assert len(set(got)) > 1 or gates == "[]"


# -- Titanic's evaluation of every seat at once ------------------------------------------------------

# its old text: each seat's worth on its own, its steps counted from its room to deck tile 4
TITANIC_OLD = ("q.score + (12 if aboard(q) else 0 - flood_line * zero_if_none(distance(here(q), deck4)) / 3)")


def test_titanic_judges_every_seat_as_it_did_seat_by_seat():
    checked = flooded = 0
    for players in (3, 5):
        for game in _positions("titanic", players, seeds=(1, 2), stops=(0.2, 0.5, 0.8, 0.95)):
            old = SnippetCompiler(game.ruleset).expression(f"[{TITANIC_OLD} for q in all_players]")
            sample = determinize(game, game.deciding_players[0], random.Random(3))
            for position in (game, sample):
                assert _values(position, use_heuristic=True) == [float(v) for v in old(position, {})]
                checked += 1
            flooded += game.state.vars["flood_line"] > 0 and any(
                props.get("removed") for props in game.state.zprops.values())
    assert checked >= 12 and flooded >= 2   # some positions on a flooding ship, with rooms gone


def test_titanic_counts_the_steps_to_deck_tile_4_the_same_both_ways():
    # the walk is counted from deck tile 4 to a room: the same count as from the room only while every passage
    # goes both ways, on the printed board and with the links added and the rooms flooded as the game goes on
    counted = set()
    for game in _positions("titanic", 4, seeds=(3,), stops=(0.0, 0.5, 0.9)):
        compiler = SnippetCompiler(game.ruleset)
        there = compiler.expression("[distance(s, deck4) for s in spaces()]")(game, {})
        back = compiler.expression("[distance(deck4, s) for s in spaces()]")(game, {})
        assert there == back and len(there) > 10
        counted |= set(there)
    assert len(counted) > 5


def test_titanic_grows_the_trees_it_grew_judging_seat_by_seat():
    from interpreter.agents import ismcts

    checked = 0
    for game in _positions("titanic", 4, seeds=(2,), stops=(0.3, 0.7)):
        old = SnippetCompiler(game.ruleset).expression(f"[{TITANIC_OLD} for q in all_players]")
        seat_of = {p.seat: i for i, p in enumerate(game.table.players)}
        by_seat = game.clone()   # the same position judged the old way, a number a seat and a call a seat
        by_seat.ruleset = game.ruleset.changed(
            evaluate=lambda g, b, old=old, seat_of=seat_of: old(g, {})[seat_of[b["p"].seat]])
        trees = []
        for position in (game, by_seat):
            seat = position.deciding_players[0]
            bot = ismcts.ISMCTSAgent(seed=5, iterations=40)
            trees.append(([_tree(root) for root in bot._trees(position, seat, len(game.table.players))],
                          list(bot.ids)))
        assert trees[0] == trees[1]
        checked += 1
    assert checked == 2


# -- the tree's steps on (name, args) pairs ----------------------------------------------------------

def _tree(node):
    """A search tree as plain data: visits, rewards, availability and priors, child by child."""
    return (node.visits, node.total, sorted(node.avail.items()), sorted(node.bias.items()),
            [(k, _tree(node.children[k])) for k in sorted(node.children)])


def test_the_trees_steps_on_pairs_grow_the_tree_they_grew_on_action_objects(monkeypatch):
    from interpreter.agents import ismcts

    def on_objects(sample, prefer=None):   # the old step: every candidate an Action (the wait's list as objects)
        return to_move(sample, prefer)

    checked = 0
    for rid, players in [("collapsible-d", 4), ("tutorial", 4), ("der-mythos", 3)]:
        for game in _positions(rid, players, seeds=(2,), stops=(0.3, 0.6)):
            seat = game.deciding_players[0]
            trees = []
            for step in (candidates_to_move, on_objects):
                monkeypatch.setattr(ismcts, "candidates_to_move", step)
                bot = ismcts.ISMCTSAgent(seed=5, iterations=40)
                trees.append(([_tree(root) for root in bot._trees(game, seat, players)], list(bot.ids)))
            assert trees[0] == trees[1]
            checked += 1
    assert checked >= 5


# -- cloning ------------------------------------------------------------------------------------------

def test_a_clone_copies_the_counters_that_hold_a_list_and_shares_none():
    game = next(_positions("titanic", 3, seeds=(1,), stops=(0.5,)))
    st = game.state
    flat = st.clone()
    assert flat.pvars == st.pvars and all(a is not b for a, b in zip(flat.pvars, st.pvars))
    st.pvars[1]["held_list"] = [1, [2]]   # a counter holding a list (and a list inside it)
    deep = st.clone()
    assert deep.pvars == st.pvars
    assert deep.pvars[1]["held_list"] is not st.pvars[1]["held_list"]
    assert deep.pvars[1]["held_list"][1] is not st.pvars[1]["held_list"][1]
