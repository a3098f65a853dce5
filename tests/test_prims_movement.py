"""Unit tests for interpreter/dsl/prims_movement.py: walk_ends, through compiled DSL."""

import pytest
import yaml

from interpreter import Game, load_ruleset
from interpreter.authoring.snippets import SnippetCompiler
from interpreter.errors import GameError

# A ring a-b-c-d-a, a spur d-e (e is a dead end), a one-way arrow c->f,
# and a room r off b (kind "door").
#
#     a --- b --- r
#     |     |
#     d --- c --> f
#     |
#     e
RULESET = {
    "id": "walks",
    "players": {"min": 1, "max": 2},
    "board": {
        "spaces": [{"id": s} for s in "abcdefr"],
        "edges": [
            {"from": "a", "to": "b"}, {"from": "b", "to": "c"}, {"from": "c", "to": "d"},
            {"from": "d", "to": "a"}, {"from": "d", "to": "e"},
            {"from": "c", "to": "f", "one_way": True, "kind": "arrow"},
            {"from": "b", "to": "r", "kind": "door"},
        ],
    },
    "things": [{"id": "pawn", "start": "a"}],
    "flow": [{"do": "x = choose(player(0), [1, 2])"}],
}


@pytest.fixture(scope="module")
def ruleset(tmp_path_factory):
    folder = tmp_path_factory.mktemp("walks")
    (folder / "ruleset.yaml").write_text(yaml.safe_dump(RULESET, sort_keys=False), encoding="utf-8")
    return load_ruleset(folder)


@pytest.fixture
def game(ruleset):
    return Game(ruleset, 1, seed=1)


def ev(game, text):
    return SnippetCompiler(game.ruleset).evaluate(game, text, pure=False)


def ends(game, text):
    return [z.id for z in ev(game, text)]


def test_exact_steps_never_straight_back(game):
    # One step: the neighbours. Two steps without stepping back: never a again.
    assert ends(game, 'walk_ends(space("a"), 1)') == ["b", "d"]
    assert ends(game, 'walk_ends(space("a"), 2)') == ["c", "e", "r"]
    assert "a" not in ends(game, 'walk_ends(space("a"), 2)')


def test_going_back_allowed_when_asked(game):
    assert "a" in ends(game, 'walk_ends(space("a"), 2, no_reverse=false)')


def test_zero_steps_is_the_start(game):
    assert ends(game, 'walk_ends(space("a"), 0)') == ["a"]


def test_one_way_edges_are_followed_only_forwards(game):
    assert "f" in ends(game, 'walk_ends(space("b"), 2)')
    # From f nothing leads anywhere: no walk of one step exists.
    assert ends(game, 'walk_ends(space("f"), 1)') == []


def test_dead_end_stops_a_walk(game):
    # d-e is a dead end: a walk cannot turn round in e, so a 2-step walk from d
    # via e does not exist; e is an end only for exactly 1 step.
    assert "e" in ends(game, 'walk_ends(space("d"), 1)')
    assert "d" not in ends(game, 'walk_ends(space("d"), 2)')


def test_kind_filters_edges(game):
    assert ends(game, 'walk_ends(space("b"), 1, "door")') == ["r"]
    assert ends(game, 'walk_ends(space("b"), 1, ["path", "arrow"])') == ["a", "c"]


def test_enter_forbids_spaces(game):
    assert ends(game, 'walk_ends(space("a"), 2, none, s -> s.id != "b")') == ["c", "e"]


def test_stop_ends_a_walk_early(game):
    # The room r stops a walk with steps left: 3 steps from a can end in r after 2.
    assert "r" in ends(game, 'walk_ends(space("a"), 3, none, none, s -> s.id == "r")')
    assert "r" not in ends(game, 'walk_ends(space("a"), 3)')


def test_removed_spaces_are_skipped(game):
    SnippetCompiler(game.ruleset).run(game, 'remove_space(space("b"))')
    assert ends(game, 'walk_ends(space("a"), 1)') == ["d"]
    assert ends(game, 'walk_ends(space("b"), 1)') == []


@pytest.mark.parametrize("text", ['walk_ends(space("a"), -1)', 'walk_ends(space("a"), 1, 5)'])
def test_bad_arguments_are_game_errors(game, text):
    with pytest.raises(GameError):
        ev(game, text)
