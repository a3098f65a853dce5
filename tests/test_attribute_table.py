"""One table says what a thing, zone or player answers itself, and the runtime answers exactly that.

``interpreter/machine/attributes.py`` holds the table (names and the static
checker's types); the static checker, the written-out reads and the
state-free analysis read it, and ``RuleRuntime``'s ``*_builtin`` methods
answer the names. If a built-in were added to one and not the other, a rule
could pass the checker and fail in play (or the other way round), or a fast
read could look in the wrong place.
"""
import ast
import inspect
import textwrap

import pytest

from interpreter import Game, load_ruleset
from interpreter.dsl import vocabulary
from interpreter.errors import GameError
from interpreter.machine import attributes
from interpreter.play.runtime import RuleRuntime


def _names_answered(method) -> set:
    """The names a ``*_builtin`` method tests with ``name == "..."``."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(method)))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) and node.left.id == "name" \
                and isinstance(node.ops[0], ast.Eq) and isinstance(node.comparators[0], ast.Constant):
            found.add(node.comparators[0].value)
    return found


@pytest.mark.parametrize("method, table", [
    (RuleRuntime.thing_builtin, attributes.THING_BUILTINS),
    (RuleRuntime.zone_builtin, attributes.ZONE_BUILTINS),
    (RuleRuntime.player_builtin, attributes.PLAYER_BUILTINS),
], ids=["thing", "zone", "player"])
def test_the_runtime_answers_exactly_the_tables_names(method, table):
    assert _names_answered(method) == set(table)


def test_the_checker_types_the_tables_names():
    assert vocabulary.THING_BUILTINS is attributes.THING_BUILTIN_TYPES
    assert vocabulary.ZONE_BUILTINS is attributes.ZONE_BUILTIN_TYPES
    assert vocabulary.PLAYER_BUILTINS is attributes.PLAYER_BUILTIN_TYPES


def test_every_built_in_is_read_and_an_unknown_name_is_refused():
    game = Game(load_ruleset("tutorial"), 2, seed=3)
    thing = next(iter(game.table.things.values()))
    zone = next(iter(game.table.zones.values()))
    player = game.table.players[0]
    for obj, table in ((thing, attributes.THING_BUILTINS), (zone, attributes.ZONE_BUILTINS),
                       (player, attributes.PLAYER_BUILTINS)):
        for name in table:
            game.get_attr(obj, name, None)   # answers, whatever the value
        with pytest.raises(GameError, match="no attribute 'no_such_name'"):
            game.get_attr(obj, "no_such_name", None)
