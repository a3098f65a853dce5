"""Functions that read only their arguments keep their answers (interpreter/dsl/state_free.py).

The compiler decides from the syntax tree which ``value:`` functions read
nothing of the position; their answers are kept on the table. These tests
show which functions it picks and which it must not, that a kept answer is
the function's own answer, that arguments equal in Python but not in the
DSL (``true`` and ``1``) never share one, that the store stays bounded, and
that every bundled ruleset plays the same game with the answers kept as
without (``tests/test_identical_games.py`` checks the recorded hashes too).
"""
import pytest
from ruleset_builder import load

from interpreter import Game, load_ruleset
from interpreter.agents import make_agents, play_out
from interpreter.dsl import state_free
from interpreter.load.files import bundled_ids
from interpreter.machine import fast_paths

SPEC = {
    "constants": {"prefix": {"value": "s"}, "sizes": {"value": {"a": 1, "b": 2}}},
    "variables": {"turn_no": {"initial": 0}},
    "zones": [{"id": "deck"}, {"id": "s1"}, {"id": "s2"}, {"id": "hand", "per_player": True}],
    "things": [{"id": "card", "count": 2, "start": "deck", "attrs": {"colour": "red"}}],
    "functions": {
        "slot": {"params": ["n"], "value": "zone(prefix + text(n))"},
        "size": {"params": ["k"], "value": "lookup(sizes, k, 0) * num_players"},
        "label": {"params": ["x"], "value": "'#' + text(x)"},
        "shade": {"params": ["t"], "value": "text(t.colour) + t.name"},
        "of_kind": {"params": ["k"], "value": "things(k) + []"},
        "slot_twice": {"params": ["n"], "value": "[slot(n), slot(n + 1)]"},
        "cheap": {"params": ["n"], "value": "slot(n)"},
        "cheaper": {"params": ["t", "who"], "value": "t.id == who"},
        "where": {"params": ["t"], "value": "t.zone"},
        "later": {"params": ["n"], "value": "n + turn_no"},
        "crowded": {"params": ["n"], "value": "count(slot(n)) > 1"},
        "inside": {"params": ["t", "n"], "value": "t in slot(n)"},
        "via_where": {"params": ["t"], "value": "where(t)"},
        "loop_a": {"params": ["n"], "value": "loop_b(n)"},
        "loop_b": {"params": ["n"], "value": "loop_a(n)"},
        "mover": {"params": ["t"], "do": "move(t, s1)"},
    },
}
KEPT = {"slot", "size", "label", "shade", "of_kind"}
# keeping answers is a fast path: with DAVIT_FAST_PATHS=off no function has a fast form to keep them in
# (tests/test_fast_paths_off.py checks that none has one then; the last test here runs in both modes)
kept_answers = pytest.mark.skipif(not fast_paths.on(), reason="answers are kept only with the fast paths on")


def _kept(rs):
    return {name for name, info in rs.functions.items() if hasattr(info.fast, "__wrapped__")}


@kept_answers
def test_only_functions_of_their_arguments_and_the_table_are_kept(tmp_path):
    # kept: ids built from arguments and constants, printed attributes, the player count, calls of kept
    # functions; not kept: where a thing lies, a game variable, a zone's contents, membership in a zone,
    # a call of a function that reads the position, a cycle, a function with effects; nor a function too
    # cheap to be worth a lookup (one call, a comparison) or that is one list (lists are never kept)
    assert _kept(load(tmp_path, SPEC)) == KEPT


@kept_answers
def test_a_name_declared_as_a_property_that_a_rule_sets_is_not_fixed(tmp_path):
    functions = dict(SPEC["functions"], repaint={"params": ["t"], "do": "t.colour = 'blue'"})
    spec = dict(SPEC, props={"things": {"colour": "blue"}}, functions=functions)   # colour can change in play
    assert _kept(load(tmp_path, spec)) == KEPT - {"shade"}
    # declared but set by no rule, it is read as printed (rules/layout.py's fixed properties): still fixed
    assert _kept(load(tmp_path, dict(SPEC, props={"things": {"colour": "blue"}}))) == KEPT


@kept_answers
def test_a_kept_answer_is_the_functions_own_answer(tmp_path):
    rs = load(tmp_path, SPEC)
    game = Game(rs, 2, seed=1)
    card = game.table.things["card-1"] if "card-1" in game.table.things else game.table.thing_list[0]
    calls = [("slot", (1,)), ("slot", (2,)), ("size", ("a",)), ("size", ("z",)), ("label", (card,)),
             ("shade", (card,)), ("label", (game.table.players[1],))]
    for name, args in calls:
        fast = rs.functions[name].fast
        first, again = fast(game, *args), fast(game, *args)
        assert first == again == fast.__wrapped__(game, *args), name
    assert rs.functions["slot"].fast(game, 2) == game.table.zones["s2"]
    assert len(game.table.kept_answers) == len(calls)


@kept_answers
def test_true_and_one_never_share_an_answer(tmp_path):
    rs = load(tmp_path, SPEC)
    game = Game(rs, 2, seed=1)
    label = rs.functions["label"].fast
    assert [label(game, 1), label(game, True), label(game, 1.0), label(game, 1)] == ["#1", "#true", "#1.0", "#1"]


@kept_answers
def test_lists_are_answered_afresh_not_kept(tmp_path):
    rs = load(tmp_path, SPEC)
    game = Game(rs, 2, seed=1)
    cards = rs.functions["of_kind"].fast
    first = cards(game, "card")
    first.append("changed by its caller")
    assert cards(game, "card") == game.table.thing_list[:2] and not game.table.kept_answers


@kept_answers
def test_the_kept_answers_stay_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(state_free, "MAX_KEPT", 5)
    rs = load(tmp_path, SPEC)
    game = Game(rs, 2, seed=1)
    label = rs.functions["label"].fast
    assert [label(game, n) for n in range(20)] == ["#" + str(n) for n in range(20)]
    assert len(game.table.kept_answers) == 5


@kept_answers
def test_long_texts_are_not_kept(tmp_path):
    # texts may be 100,000 characters long: 65,536 of them kept would be gigabytes
    rs = load(tmp_path, SPEC)
    game = Game(rs, 2, seed=1)
    label = rs.functions["label"].fast
    long = "x" * (state_free.MAX_KEPT_TEXT + 1)
    assert label(game, long) == "#" + long and label(game, "short") == "#short"
    assert [key[-1] for key in game.table.kept_answers] == ["short"]


@kept_answers
def test_an_argument_no_key_can_hold_is_answered_afresh(tmp_path):
    # a list cannot be hashed: the lookup that comes first must not fail, and nothing is kept for it
    rs = load(tmp_path, SPEC)
    game = Game(rs, 2, seed=1)
    label = rs.functions["label"].fast
    assert label(game, [1, "a"]) == label.__wrapped__(game, [1, "a"]) == label(game, [1, "a"])
    assert not game.table.kept_answers
    assert label(game, 7) == "#7" and label(game, 7.0) == "#7.0" and len(game.table.kept_answers) == 1


@pytest.mark.parametrize("rid", bundled_ids())
def test_games_are_the_same_with_answers_kept_and_not(rid, monkeypatch):
    def played(players):
        game = Game(load_ruleset(rid), players, seed=11, record=True)
        play_out(game, make_agents("random", players, 11))
        return game.log_hash(), game.scores
    players = load_ruleset(rid).max_players
    kept = played(players)
    monkeypatch.setattr(state_free, "MAX_KEPT", 0)       # keeps nothing: every call is answered afresh
    load_ruleset(rid).table(players).kept_answers.clear()
    assert played(players) == kept
