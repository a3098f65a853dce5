"""A zone walked by a written-out ``filter``, ``count``, ``any``, ... without a list of its things
(interpreter/dsl/membership.py, ``items_walked``).

Where the lambda changes nothing, the zone's things are looked up as the walk
reaches them; the same answers, the same work charged at the same place, as
when the list is made first (``collection_of``). Where the lambda may move
things, the list is made first, so the walk sees the zone as it was.
"""
from ruleset_builder import load_text

from interpreter import Game
from interpreter.dsl import expressions
from interpreter.dsl.primitives import collection_of

WALKS = """\
id: unit
players: {min: 1, max: 1}
variables:
  got: []
  moved: 0
zones:
  - id: pile
  - id: other
  - id: nothing
things:
  - {id: chip, count: 3, start: pile}
  - {id: cube, count: 2, start: pile}
functions:
  shift:
    params: [t]
    do: |
      move(t, other)
      return true
  chips:
    params: [z]
    value: "count(z, t -> t.kind == 'chip')"
flow:
  - do: |
      got = [chips(pile), chips(nothing), any(pile, t -> t.kind == "cube"), first(pile, t -> t.kind == "cube").id]
      got = got + [count(filter(pile, t -> t.kind == "chip")), sum(pile, t -> 1), all(nothing, t -> false)]
      moved = count(pile, t -> shift(t))
"""
EXPECTED = [3, 0, True, "cube.1", 3, 5, True]


def _play(tmp_path):
    return Game(load_text(tmp_path, WALKS), 1, seed=1)


def test_a_zone_walked_without_its_list_answers_and_charges_as_with_it(tmp_path, monkeypatch):
    walked = _play(tmp_path)
    # every walk made as collection_of makes it: the list of the zone's things first
    monkeypatch.setattr(expressions, "items_walked", lambda g, value, loc: collection_of(g, value, loc))
    listed = _play(tmp_path)
    assert walked.state.vars["got"] == listed.state.vars["got"] == EXPECTED
    assert walked.spent == listed.spent > 0


def test_a_walk_whose_lambda_moves_things_sees_the_zone_as_it_was(tmp_path):
    # each shift(t) takes a thing out of the pile while the count walks it: all five are still counted
    game = _play(tmp_path)
    assert game.state.vars["moved"] == 5
    assert game.state.zones["pile"] == [] and len(game.state.zones["other"]) == 5
