"""Declared properties no rule sets are read as printed (rules/layout.py), and nothing else can set them.

A declared zone or thing property that no assignment of the ruleset names is
fixed: its reads are compiled to the printed attribute, else the declared
default, with no look into the state. A scenario (or any snippet compiled
later against the ruleset) that sets one is refused at its place, and a
saved state that holds one is named as damaged.
"""
import re

import pytest
from ruleset_builder import load_text, write_text

from interpreter import Game
from interpreter.authoring.scenario import run_scenario
from interpreter.authoring.snippets import SnippetCompiler
from interpreter.errors import DavitError, SaveError
from interpreter.machine import fast_paths, linetable
from interpreter.rules.layout import assigned_names, fixed_of, fixed_set_in_state

RULESET = """\
id: unit
players: {min: 1, max: 1}
variables:
  rows: []
  marks: []
zones:
  - id: pile
  - {id: a, attrs: {row: 1, gate: 4}}
  - {id: b, attrs: {row: 2}}
  - {id: c}
things:
  - {id: red, start: pile, attrs: {mark: 5}}
  - {id: blue, start: pile}
props:
  things:
    mark: 0
    seen: false
  zones:
    row: 0
    gate: 0
    lit: false
flow:
  - do: |
      b.lit = true
      thing("blue").seen = true
      rows = [z.row for z in [a, b, c]] + [z.gate for z in [a, b, c]] + [z.lit for z in [a, b, c]]
      marks = [t.mark for t in things()] + [t.seen for t in things()]
"""


def _load(tmp_path, text=RULESET):
    return load_text(tmp_path, text)


def test_only_properties_no_assignment_names_are_fixed(tmp_path):
    rs = _load(tmp_path)
    assert (rs.env.fixed_thing_props, rs.env.fixed_zone_props) == ({"mark"}, {"row", "gate"})
    # `removed` is kept by the engine; `seen` and `lit` are set by the rules
    assert "removed" not in rs.env.fixed_zone_props
    # any text that may assign a name keeps it out: `+=`, spaces, a `\` line join, a text never run
    assert assigned_names({"a": ["x.row += 1"], "b": {"k": "t . mark \\\n = 2"}, "c": "y.gate == 1"}) == \
        {"row", "mark"}
    assert fixed_of(rs, {"row", "mark", "gate", "seen", "lit"}) == (frozenset(), frozenset())


def test_fixed_properties_read_the_printed_value_or_the_default(tmp_path):
    before = set(linetable.SOURCES)
    game = Game(_load(tmp_path), 1, seed=1)
    assert game.state.vars["rows"] == [1, 2, 0, 4, 0, 0, False, True, False]
    assert game.state.vars["marks"] == [5, 0, False, True]
    if fast_paths.on():
        # the reads of a fixed name look into no state: no `props`/`zprops` lookup names 'row', 'gate' or 'mark'
        sources = "\n".join(s for name, s in linetable.SOURCES.items() if name not in before)
        looked = set(re.findall(r"'(\w+)'(?: not)? in g\.state\.z?props\[", sources))
        looked |= set(re.findall(r"props\[[^\]]*\](?:\.get\(|\[)'(\w+)'", sources))
        assert not looked & {"row", "gate", "mark"} and {"lit", "seen"} <= looked, looked


def test_a_snippet_setting_a_fixed_property_is_refused_at_its_place(tmp_path):
    rs = _load(tmp_path)
    snippets = SnippetCompiler(rs)
    with pytest.raises(DavitError) as info:
        snippets.block("n = 1\nb.row = 3\n")
    errors = getattr(info.value, "errors", [info.value])
    assert len(errors) == 1
    assert "'row' is set by no rule of this ruleset" in errors[0].message
    assert (errors[0].location.line, errors[0].location.column) == (2, 3)   # at the name set
    SnippetCompiler(rs).block("b.lit = false")   # a property the rules set may be set


def test_a_scenario_setting_a_fixed_property_fails_with_its_location(tmp_path):
    folder = write_text(tmp_path, RULESET)
    scenario = tmp_path / "fixed.yaml"
    scenario.write_text(f"scenario: fixed\nruleset: {folder}\nplayers: 1\nsteps:\n"
                        "  - set: |\n      a.gate = 9\n  - expect: a.gate == 9\n", encoding="utf-8")
    result = run_scenario(scenario)
    assert not result.ok
    assert "fixed.yaml:6:9: 'gate' is set by no rule of this ruleset" in result.messages[0], result.messages


def test_a_saved_state_holding_a_fixed_property_is_named(tmp_path):
    rs = _load(tmp_path)
    fixed = rs.env.fixed_thing_props, rs.env.fixed_zone_props
    game = Game(rs, 1, seed=1)
    state = game.state.to_json()
    assert fixed_set_in_state(fixed, state["props"], state["zprops"]) is None
    assert "zone 'a' holds a value for 'row'" in fixed_set_in_state(fixed, {}, {"a": {"row": 5}})
    assert "card or piece 'red' holds a value for 'mark'" in fixed_set_in_state(fixed, {"red": {"mark": 1}}, {})
    assert fixed_set_in_state(fixed, {"red": {"seen": True}}, {"b": {"lit": False}}) is None
    # restoring a game checks it: the game as saved comes back, a hand-set printed value is refused
    data = game.to_json()
    assert Game.from_json(rs, data).state.to_json() == state
    data["state"]["zprops"]["a"] = {"row": 5}
    with pytest.raises(SaveError, match="saved game is damaged: zone 'a' holds a value for 'row'"):
        Game.from_json(rs, data)


WALKS = """\
id: unit
players: {min: 1, max: 1}
variables:
  kept: []
  n: 0
zones:
  - id: pile
things:
  - {id: pawn, count: 3, start: pile}
  - {id: cube, count: 2, start: pile}
flow:
  - do: |
      LINES
"""


def test_things_walked_at_once_charges_as_made_then_walked(tmp_path):
    # `filter(things("pawn"), ...)` and `[x for x in things()]` are made and walked by one call
    # (dsl/membership.py: things_walked); the work charged is that of things() and then of the walk
    # as many statements each (a statement is work too), so the walks alone make any difference
    fused = ['xs = none', 'n = count(things("pawn"), t -> t.kind == "pawn")', 'ys = none',
             'kept = [x.id for x in things() if x.kind == "cube"]']
    apart = ['xs = things("pawn")', 'n = count(xs, t -> t.kind == "pawn")', 'ys = things()',
             'kept = [x.id for x in ys if x.kind == "cube"]']
    games = []
    for lines in (fused, apart):
        games.append(Game(load_text(tmp_path, WALKS.replace("LINES", "\n      ".join(lines))), 1, seed=1))
    assert games[0].spent >= 2 * (3 + 5)   # each walk is charged twice: things() made, then walked
    assert [(g.state.vars["n"], g.state.vars["kept"], g.spent) for g in games][0] == \
        (3, ["cube.1", "cube.2"], games[1].spent)
