"""A generated function reads the state's containers once, at its top, where it reads them more than once.

``g.state.props``, ``g.state.zprops``, ``g.state.where``, ``g.state.pvars``,
``g.state.vars``, ``g.state.zones``, ``g.table.zones`` and ``g.table.things``
are the same objects for the whole of any call (only a new game, a clone or
a load makes new ones), so an expression's function, a ``do:`` function
written as one Python function and an action's enumerator read each into a
local (``_h3 = g.state.props``) where it is read in a loop or more than
once. A rule's text never takes part:
a text that spells a container stays a text.
"""
import re

from ruleset_builder import load_text

from interpreter import Game
from interpreter.machine import fast_paths, linetable

RULESET = """\
id: unit
players: {min: 1, max: 1}
variables:
  spelled: []
  marked: []
zones:
  - id: pile
  - {id: a, attrs: {row: 1}}
things:
  - {id: red, start: pile}
  - {id: blue, start: a}
props:
  things:
    mark: 0
functions:
  marked_ids:
    params: [least]
    value: "[t.id for t in things() if t.mark >= least]"
  spelled_with:
    params: [t]
    value: '[t.mark, "g.state.props", t.mark + 1]'
actions:
  - id: pick
    choose: {t: things()}
    if: t.mark == 0 and t.zone == pile and player.seat == 0
    do: |
      t.mark = 1
flow:
  - do: |
      thing("blue").mark = 2
      spelled = spelled_with(thing("blue"))
      marked = marked_ids(2)
  - turn: {player: "player(0)", actions: [pick], max_actions: 1}
"""


def test_containers_are_read_once_and_a_rule_text_stays_text(tmp_path):
    before = set(linetable.SOURCES)
    game = Game(load_text(tmp_path, RULESET), 1, seed=1)
    assert game.state.vars["spelled"] == [2, "g.state.props", 3]
    assert game.state.vars["marked"] == ["blue"]
    assert [a.args for a in game.legal_actions(0)] == [(("t", game.table.things["red"]),)]
    if fast_paths.on():
        sources = [s for name, s in linetable.SOURCES.items() if name not in before]
        held = [s for s in sources if re.search(r"^\s*_h\d+ = g\.state\.props$", s, re.M)]
        # the enumerator of `pick` (its condition runs once per candidate) and the functions
        assert len(held) >= 3, sources
        assert any("'g.state.props'" in s for s in held)
        for source in held:
            name = re.search(r"^\s*(_h\d+) = g\.state\.props$", source, re.M).group(1)
            assert f"{name}[" in source and source.count("g.state.props[") == 0


GLOBALS_AND_BLOCKS = """\
id: unit
players: {min: 1, max: 1}
variables:
  water: [3, 1, 2]
  counted: 0
  reset: 0
zones:
  - id: pile
things:
  - {id: chip, count: 3, start: pile}
props:
  things:
    mark: 0
functions:
  deep:
    params: [n]
    value: "count(range(1, 4), k -> water[k - 1] >= n) + count([pile, pile], z -> z.count == 3)"
  clear:
    do: |
      for t in things():
        t.mark = 5
        t.mark = 0
      return count(things(), t -> t.mark == 0)
flow:
  - do: |
      counted = deep(2)
      reset = clear()
"""


def test_a_global_read_in_a_loop_and_a_do_blocks_containers_are_held(tmp_path):
    before = set(linetable.SOURCES)
    game = Game(load_text(tmp_path, GLOBALS_AND_BLOCKS), 1, seed=1)
    assert (game.state.vars["counted"], game.state.vars["reset"]) == (4, 3)
    if fast_paths.on():
        sources = [s for name, s in linetable.SOURCES.items() if name not in before]
        deep = next(s for s in sources if "'water'" in s)
        assert re.search(r"^\s*_h\d+ = g\.state\.vars$", deep, re.M) and "g.state.vars[" not in deep
        assert re.search(r"^\s*_h\d+ = g\.state\.zones$", deep, re.M) and "g.state.zones[" not in deep
        clear = next(s for s in sources if "'mark'" in s and "n += 1" in s)   # the do: block, one function
        assert re.search(r"^\s*_h\d+ = g\.state\.props$", clear, re.M) and "g.state.props[" not in clear
