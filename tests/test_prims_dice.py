"""Unit tests for interpreter/dsl/prims_dice.py, through compiled DSL on a small generic ruleset."""

import pytest
import yaml

from interpreter import Game, load_ruleset
from interpreter.authoring.snippets import SnippetCompiler
from interpreter.dsl.primitives import PRIMITIVES
from interpreter.errors import GameError

RULESET = {
    "id": "dice-unit",
    "players": {"min": 1, "max": 2},
    "zones": [{"id": "pool"}],
    "props": {"things": {"face": ""}},
    "things": [{"id": "die", "count": 3, "start": "pool"}],
    "flow": [{"do": "x = choose(player(0), [1, 2])"}],
}


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    folder = tmp_path_factory.mktemp("dice")
    (folder / "ruleset.yaml").write_text(yaml.safe_dump(RULESET, sort_keys=False), encoding="utf-8")
    g = Game(load_ruleset(folder), 1, seed=1)
    assert not g.is_over
    return g


def ev(game, text):
    return SnippetCompiler(game.ruleset).evaluate(game, text)


def test_registered_as_pure_functions():
    assert not PRIMITIVES["combinations"].effect
    assert not PRIMITIVES["matches"].effect


def test_combinations_of_a_list(game):
    assert ev(game, "combinations([1, 2, 3], 2)") == [[1, 2], [1, 3], [2, 3]]
    assert ev(game, "combinations([1, 2, 3], 0)") == [[]]
    assert ev(game, "combinations([1, 2], 3)") == []
    assert ev(game, "count(combinations(range(5), 2))") == 10


def test_combinations_of_a_zone_keeps_its_order(game):
    pairs = ev(game, "combinations(pool, 2)")
    assert [[t.id for t in p] for p in pairs] == [["die.1", "die.2"], ["die.1", "die.3"], ["die.2", "die.3"]]
    # combined with filter, as a ruleset pays for a move with a set of dice
    assert ev(game, "count(filter(combinations(pool, 2), c -> c[0].id == \"die.1\"))") == 2


def test_combinations_refuses_bad_sizes(game):
    with pytest.raises(GameError):
        ev(game, "combinations([1, 2], -1)")
    with pytest.raises(GameError):
        ev(game, "combinations(range(20), 2)")


def test_matches_with_and_without_a_wild_face(game):
    assert ev(game, 'matches(["black", "white"], "black", 2, "white")') is True
    assert ev(game, 'matches(["black", "white"], "black", 2)') is False
    assert ev(game, 'matches(["red", "green", "red"], "red", 2)') is True
    assert ev(game, 'matches([], "red", 0)') is True
    assert ev(game, 'matches(["red"], "red", 2, "white")') is False
