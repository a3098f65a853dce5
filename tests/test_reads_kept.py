"""Reads written out (dsl/fast_reads.py) of a rule's local, of a property declared and printed, anywhere.

A rule's local read as ``L['s']`` is looked up once per read and kept in a
fresh name by ``:=``; Python refuses ``:=`` in a comprehension's iterable, so
there it is looked up at each use. Both must give the reader's answers, and a
local read before it is set must still be reported at its own place.
"""
import ast

import pytest
from ruleset_builder import load_text

from interpreter import Game
from interpreter.errors import GameError
from interpreter.machine import fast_paths, linetable

READS = """\
id: unit
players: {min: 1, max: 1}
variables:
  found: []
  rows: []
  marks: []
  shadowed: []
  called: []
zones:
  - id: pile
  - {id: a, attrs: {row: 1}}
  - {id: b, attrs: {row: 2}}
  - {id: c}
things:
  - {id: red, start: pile, attrs: {mark: 5}}
  - {id: blue, start: pile}
props:
  things:
    mark: 0
    holder: ""
    tags: []
  zones:
    row: 0
    lit: false
    notes: []
flow:
  - do: |
      b.row = 7
      b.lit = true
      s = b
      t = thing("red")
      u = thing("blue")
      u.mark = 3
      found = [z.id for z in filter([a, b, c], y -> y.row == s.row or y.lit == s.lit)]
      found = found + [z.id for z in [y for y in [a, b, c] if y.row < s.row + s.row]]
      rows = [s.row, a.row, c.row, s.lit, c.lit, t.mark, u.mark, t.mark + u.mark]
      marks = [x.mark for x in things() if x.mark > t.mark - 5]
      u.holder = "me"
      u.tags = ["x"]
      b.notes = [1]
      shadowed = [t.holder, u.holder, t.tags, u.tags, s.notes, a.notes, s.removed]
      called = [thing("red").mark, zone("b").row] + [y for y in [thing("blue").mark, zone("a").row, top(b)]]
"""

UNSET = """\
id: unit
players: {min: 1, max: 1}
variables:
  n: 0
zones:
  - {id: a, attrs: {row: 1}}
props:
  zones:
    row: 0
flow:
  - do: |
      if n > 0:
          s = a
      n = s.row
"""


def _play(tmp_path, text):
    return Game(load_text(tmp_path, text), 1, seed=1)


def test_locals_and_declared_printed_properties_read_as_the_reader_reads(tmp_path):
    before = set(linetable.SOURCES)
    game = _play(tmp_path, READS)
    assert game.state.vars["found"] == ["b", "a", "b", "c"]
    assert game.state.vars["rows"] == [7, 1, 0, True, False, 5, 3, 8]
    assert game.state.vars["marks"] == [5, 3]
    # a property declared with a built-in's name replaces it: its default ("") until it is set
    assert game.state.vars["shadowed"] == ["", "me", [], ["x"], [1], [], False]
    # any other receiver is worked out once and kept too, except in an iterable (a reader is called there)
    assert game.state.vars["called"] == [5, 7, 3, 1, None]
    if fast_paths.on():
        sources = [s for name, s in linetable.SOURCES.items() if name not in before]
        kept = [node for s in sources for node in ast.walk(ast.parse(s)) if isinstance(node, ast.NamedExpr)]
        # s.row, s.lit, t.mark, u.mark and thing("red").mark outside an iterable each keep their receiver;
        # inside one they do not (Python would refuse the source); thing("red") is the table's lookup, `or`
        # the built-in (dsl/literal_ids.py)
        assert kept and all(isinstance(k.value, (ast.Subscript, ast.Call, ast.BoolOp)) for k in kept)
        assert {type(k.value) for k in kept} == {ast.Subscript, ast.Call, ast.BoolOp}
        assert all(isinstance(k.target, ast.Name) and k.target.id.startswith("_w") for k in kept)


def test_a_local_read_before_it_is_set_is_reported_where_it_is_read(tmp_path):
    with pytest.raises(GameError) as info:
        _play(tmp_path, UNSET)
    lines = UNSET.splitlines()
    row = next(i for i, line in enumerate(lines, 1) if "n = s.row" in line)
    assert info.value.location.line == row
    assert info.value.location.column == lines[row - 1].index("s.row") + 1


NONE_THING = """\
id: unit
players: {min: 1, max: 1}
variables:
  n: 0
zones:
  - id: pile
  - {id: a, attrs: {row: 1}}
things:
  - {id: red, start: a}
props:
  things:
    mark: 0
    row: 0
  zones:
    row: 0
    mark: 0
flow:
  - do: |
      s = a
      n = s.row
      t = top(pile)
      n = t.mark
  - do: |
      # never reached; sets `row` and `mark`, so their reads look in the state (rules/layout.py)
      a.row = 2
      thing("red").mark = 1
"""

NONE_CALLED = NONE_THING.replace("n = t.mark", "n = top(pile).mark")


def test_a_kept_receiver_that_is_none_fails_as_the_reader_says(tmp_path):
    with pytest.raises(GameError) as info:
        _play(tmp_path, NONE_CALLED)
    lines = NONE_CALLED.splitlines()
    row = next(i for i, line in enumerate(lines, 1) if "n = top(pile).mark" in line)
    assert (info.value.location.line, info.value.location.column) == (row, lines[row - 1].index("mark") + 1)
    assert info.value.message == "cannot read '.mark' of none"


def test_a_receiver_typed_a_thing_is_tested_as_one_first_and_none_still_fails_as_the_reader_says(tmp_path):
    before = set(linetable.SOURCES)
    with pytest.raises(GameError) as info:
        _play(tmp_path, NONE_THING)   # top() of an empty pile: the checker says thing, the game has none
    lines = NONE_THING.splitlines()
    row = next(i for i, line in enumerate(lines, 1) if "n = t.mark" in line)
    # where the reader reports it: the attribute's name
    assert (info.value.location.line, info.value.location.column) == (row, lines[row - 1].index("mark") + 1)
    assert info.value.message == "cannot read '.mark' of none"
    if fast_paths.on():
        sources = [s for name, s in linetable.SOURCES.items() if name not in before]
        # things and zones both declare `row` and `mark` (the thing class is tested first unless known): s is
        # a zone, so its read of `row` tests the zone class first; t's read of `mark` the thing class
        first = {ast.unparse(node).split("'")[1]: node.test.comparators[0].id
                 for source in sources for node in ast.walk(ast.parse(source))
                 if isinstance(node, ast.IfExp) and isinstance(node.test, ast.Compare)
                 and isinstance(node.test.left, ast.Attribute) and isinstance(node.test.left.value, ast.NamedExpr)}
        assert {k: first.get(k) for k in ("row", "mark")} == {"row": "_ZR", "mark": "_TR"}, first


PROVEN = """\
id: unit
players: {min: 1, max: 1}
variables:
  got: []
zones:
  - id: pile
  - {id: a, attrs: {row: 1}}
things:
  - {id: red, start: pile, attrs: {row: 4}}
  - {id: blue, start: a}
player:
  vars:
    mark:
      initial: 3
props:
  things:
    mark: 0
  zones:
    mark: 2
flow:
  - do: |
      thing("red").mark = 5
      pile = [a]
      got = [t.mark for t in things()] + [count(things(), t -> t.mark > 1), sum(pile, z -> z.mark)]
      got = got + [x.row for x in filter(things(), t -> t.mark == 5)] + [first(a, t -> t.mark == 0).id]
      got = got + [sum(players, p -> p.mark)] + [q.mark for q in all_players]
"""


def _words(text):
    return {w for w in ("L['pile']", " for ") if w in text}


def test_items_of_things_of_a_zone_and_of_players_are_read_with_no_class_test(tmp_path):
    # `mark` lives on things, zones and players: t over things() and p over players need no test; `pile`
    # assigned as a local is a list of zones, not the zone pile, so z is tested; the things in zone a need none
    before = set(linetable.SOURCES)
    game = _play(tmp_path, PROVEN)
    assert game.state.vars["got"] == [5, 0, 1, 2, 4, "blue", 3, 3]
    if fast_paths.on():
        local_list, proven, tested = set(), set(), set()
        for name, source in linetable.SOURCES.items():   # names are numbered afresh in each function
            if name in before:
                continue
            tree = ast.parse(source)
            tested |= {(name, ast.unparse(node.left.value)) for node in ast.walk(tree) if isinstance(node, ast.Compare)
                       and isinstance(node.left, ast.Attribute) and node.left.attr == "__class__"}
            over = {(name, ast.unparse(c.target)): c.iter for node in ast.walk(tree)
                    if isinstance(node, (ast.ListComp, ast.GeneratorExp)) for c in node.generators}
            # any, all and first: a loop of a function of their own (dsl/lambda_forms.py), over its argument
            over |= {(name, ast.unparse(node.target)): node.iter for node in ast.walk(tree)
                     if isinstance(node, ast.For)}
            local_list |= {v for v, it in over.items() if "L['pile']" in ast.unparse(it)}
            # the rest but x over the list filter(...) makes: the items of things() or of the zone a
            proven |= {v for v, it in over.items() if not {"L['pile']", " for "} & _words(ast.unparse(it))}
        assert len(local_list) == 1 and len(proven) >= 6
        assert local_list <= tested and not proven & tested, (proven, tested)


ZONE_LISTS = """\
id: unit
players: {min: 1, max: 1}
variables:
  got: []
zones:
  - id: pile
  - {id: a, attrs: {row: 1}}
things:
  - {id: red, start: pile}
props:
  zones:
    mark: 2
flow:
  - do: |
      a.mark = 7
      b = pile
      got = [sum([a, pile], z -> z.mark), sum([a, b], y -> y.mark), count(filter([pile, a], z -> z.mark > 2))]
"""


def test_a_list_written_out_of_zone_names_holds_zones_and_is_charged_as_a_list(tmp_path):
    # z over [a, pile] needs no class test; y over [a, b] does (b is a rule's local); a list written out, and
    # what filter(...) makes, is charged by budget.each, with no test of what kind of collection it is
    before = set(linetable.SOURCES)
    game = _play(tmp_path, ZONE_LISTS)
    assert game.state.vars["got"] == [9, 9, 1]
    if fast_paths.on():
        source = next(s for name, s in linetable.SOURCES.items() if name not in before and "'mark'" in s
                      and "sum" not in s and "L['b']" in s)
        tree = ast.parse(source)
        tested = {ast.unparse(node.left.value) for node in ast.walk(tree) if isinstance(node, ast.Compare)
                  and isinstance(node.left, ast.Attribute) and node.left.attr == "__class__"}
        over = {ast.unparse(c.target): ast.unparse(c.iter) for node in ast.walk(tree)
                if isinstance(node, (ast.ListComp, ast.GeneratorExp)) for c in node.generators}
        zones_only = {v for v, it in over.items() if it.startswith("_each(g, [g.table.zones[") and "L['b']" not in it}
        with_local = {v for v, it in over.items() if "L['b']" in it}
        assert len(zones_only) == 2 and len(with_local) == 1 and len(over) == 3, over
        assert with_local <= tested and not zones_only & tested, (over, tested)
        assert all(it.startswith("_each(g, ") for it in over.values()), over
