"""Unit tests for interpreter.dsl.prims_tableau: runs at the end of ordered zones, through compiled DSL."""

import pytest
import yaml

from interpreter import Game, load_ruleset
from interpreter.authoring.snippets import SnippetCompiler
from interpreter.dsl.primitives import PRIMITIVES
from interpreter.errors import GameError

# Two columns of a patience layout: the first thing of a zone is its far end.
RULESET = {
    "id": "tableau-unit",
    "players": {"min": 1, "max": 1},
    "zones": [{"id": "left", "visibility": "nobody", "face": "down"},
              {"id": "right", "visibility": "nobody", "face": "down"},
              {"id": "pile_up"}, {"id": "empty"}],
    # declared so that a test can set them; `grade` is printed on no thing: its default answers
    "props": {"things": {"suit": "", "value": 0, "grade": 2}},
    "things": [{"id": "red", "each": {"value": [9, 8, 7, 6]}, "attrs": {"suit": "red"}, "start": "left"},
               {"id": "black", "each": {"value": [10, 5]}, "attrs": {"suit": "black"}, "start": "right"},
               {"id": "base", "attrs": {"value": 4, "suit": "red"}, "start": "pile_up"}],
    "setup": "flip(thing('red-8'), 'up'); flip(thing('red-7'), 'up'); flip(thing('red-6'), 'up');"
             " flip(thing('black-5'), 'up')",
    "flow": [{"do": "x = choose(player(0), [1, 2])"}],
}


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tableau")
    (folder / "ruleset.yaml").write_text(yaml.safe_dump(RULESET, sort_keys=False), encoding="utf-8")
    g = Game(load_ruleset(folder), 1, seed=1)
    assert not g.is_over
    return g


def ev(game, text):
    # run on a clone: the expression may move things
    return SnippetCompiler(game.ruleset).run(game.clone(), f"__r = {text}\nreturn __r")


def ids(values):
    return [v.id if hasattr(v, "id") else v for v in values]


def test_registered():
    for name in ("run_from", "face_up_tail", "stack_targets"):
        assert name in PRIMITIVES and not PRIMITIVES[name].effect


def test_run_from_gives_the_thing_and_all_after_it(game):
    assert ids(ev(game, "run_from(left, thing('red-8'))")) == ["red-8", "red-7", "red-6"]
    assert ids(ev(game, "run_from(left, thing('red-6'))")) == ["red-6"]
    assert ev(game, "run_from(right, thing('red-8'))") == []


def test_face_up_tail_stops_at_the_first_face_down_thing(game):
    assert ids(ev(game, "face_up_tail(left)")) == ["red-8", "red-7", "red-6"]
    assert ids(ev(game, "face_up_tail(right)")) == ["black-5"]
    assert ev(game, "face_up_tail(empty)") == []
    assert ids(ev(game, "face_up_tail([right, left, empty])")) == ["black-5", "red-8", "red-7", "red-6"]


def test_face_up_tail_is_empty_when_the_last_thing_is_face_down(game):
    g = game.clone()
    g.set_face(g.table.things["red-6"], False, None)
    assert ev(g, "face_up_tail(left)") == []


def test_stack_targets_descending_and_ascending(game):
    # a 5 may go below a 6 of the same suit; nothing takes a black 5 on a red 6
    assert ids(ev(game, "stack_targets(thing('base'), [left, right, empty], 'value', 1, ['suit'])")) == []
    assert ids(ev(game, "stack_targets(thing('black-5'), [left, right], 'value', 1, ['suit'])")) == []
    assert ids(ev(game, "stack_targets(thing('black-5'), [left, right], 'value', 1)")) == ["left"]
    # ascending: a red 5 on the pile whose top is a red 4
    assert ids(ev(game, "stack_targets(thing('black-5'), [pile_up], 'value', -1)")) == ["pile_up"]
    assert ids(ev(game, "stack_targets(thing('black-5'), pile_up, 'value', -1, ['suit'])")) == []


def test_stack_targets_ignores_a_face_down_end(game):
    g = game.clone()
    g.set_face(g.table.things["red-6"], False, None)
    assert ev(g, "stack_targets(thing('black-5'), [left], 'value', 1)") == []


def test_bad_arguments_are_game_errors(game):
    with pytest.raises(GameError):
        ev(game, "run_from(3, thing('red-8'))")
    with pytest.raises(GameError):
        ev(game, "face_up_tail([left, 3])")
    with pytest.raises(GameError):
        ev(game, "stack_targets(left, [left], 'value', 1)")
    with pytest.raises(GameError, match="stack_targets\\(\\) needs a zone"):
        ev(game, "stack_targets(thing('black-5'), [left, 3], 'value', 1)")


def test_stack_targets_reads_a_set_property_before_the_printed_attribute(game):
    # the last thing's attributes are looked up in its properties, then its printed attributes, then by the
    # reader (a built-in): the order get_attr follows
    g = game.clone()
    g.set_attr(g.table.things["red-6"], "suit", "black", None)
    assert ids(ev(g, "stack_targets(thing('black-5'), [left], 'value', 1, ['suit'])")) == ["left"]
    g.set_attr(g.table.things["red-6"], "value", 9, None)
    assert ev(g, "stack_targets(thing('black-5'), [left], 'value', 1, ['suit'])") == []
    # `grade` (a declared default) and `kind` (a built-in) live on neither: the reader answers them for the
    # zone's last thing as for the moved one
    assert ids(ev(game, "stack_targets(thing('black-5'), [left], 'value', 1, ['grade', 'kind'])")) == []
    assert ids(ev(game, "stack_targets(thing('red-7'), [left, right], 'value', -1, ['grade', 'suit'])")) \
        == ["left"]
    assert ids(ev(game, "stack_targets(thing('red-8'), [left, right], 'grade', 0, ['kind'])")) == ["left"]
