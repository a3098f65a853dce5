"""A property declared with a built-in's name replaces that built-in, everywhere, from the start.

A die's ``holder: ""`` or a passenger's ``position: 0`` under ``props.things``
must answer its default until a rule sets it: were the built-in (the owner of
the die's zone, the passenger's place in its zone) to answer instead, the
declared default would be silently ignored. Written-out reads, the general
reader and ``Game.get_attr`` must agree. The properties the engine keeps
itself (``face_up``, ``known_to``, a space's ``removed``) may only be declared
with the value the engine starts them at.
"""
import pytest
from ruleset_builder import load_text

from interpreter import Game
from interpreter.errors import DavitError

RULES = """\
id: unit
players: {min: 2, max: 2}
variables:
  before: []
  after: []
zones:
  - {id: pile, per_player: true}
  - {id: table, attrs: {count: 9}}
  - id: floor
things:
  - {id: die, per_player: true, start: pile}
props:
  things:
    holder: "nobody"
    position: 0
  zones:
    count: -1
    owner: "the house"
flow:
  - do: |
      d = first(things())
      before = [d.holder, d.position, floor.count, floor.owner, table.count, d.zone.count]
      d.holder = "me"
      d.position = 4
      floor.count = 12
      after = [d.holder, d.position, floor.count, floor.owner, table.count]
"""


def _game(tmp_path, text):
    return Game(load_text(tmp_path, text), 2, seed=1)


def test_the_declared_default_answers_until_a_rule_sets_the_property(tmp_path):
    game = _game(tmp_path, RULES)
    # the defaults, not the built-ins (the pile's owner, place 1, no things, no owner); a printed
    # attribute still comes before the default (the table's 9)
    assert game.state.vars["before"] == ["nobody", 0, -1, "the house", 9, -1]
    assert game.state.vars["after"] == ["me", 4, 12, "the house", 9]


def test_the_general_reader_agrees_with_the_rules(tmp_path):
    game = _game(tmp_path, RULES)
    die = next(t for t in game.table.things.values() if "holder" not in game.state.props[t.id])
    assert game.get_attr(die, "holder", None) == "nobody"
    assert game.get_attr(die, "position", None) == 0
    assert game.get_attr(game.table.zones["table"], "count", None) == 9
    assert game.get_attr(game.table.zones["table"], "owner", None) == "the house"
    # a name nobody declared is still the built-in
    assert game.get_attr(die, "zone", None).id == game.state.where[die.id]


@pytest.mark.parametrize("table, line", [
    ("things:\n    face_up: true", "face_up: true"),
    ("things:\n    known_to: [0]", "known_to: [0]"),
    ("zones:\n    removed: true", "removed: true"),
])
def test_an_engine_property_declared_with_another_start_is_refused_at_its_line(tmp_path, table, line):
    text = RULES.split("props:\n")[0] + f"props:\n  {table}\nflow:\n  - do: 'log(\"x\")'\n"
    with pytest.raises(DavitError) as info:
        _game(tmp_path, text)
    message = str(info.value)
    row = text.splitlines().index("    " + line) + 1
    assert f"ruleset.yaml:{row}:" in message and "engine keeps" in message, message


def test_an_engine_property_declared_with_its_start_is_accepted(tmp_path):
    text = RULES.replace("    count: -1\n", "    count: -1\n    removed: false\n").replace(
        '    position: 0\n', '    position: 0\n    face_up: false\n    known_to: []\n')
    game = _game(tmp_path, text)
    assert game.state.vars["before"][0] == "nobody"
