"""Rules compile to Python generated from syntax trees: safe by structure, errors at the rule's place.

Every generated function's source is kept in ``linetable.SOURCES``. These
tests read that source back with Python's own ``ast`` and check that it is
made only of the compiler's own names, so no text a ruleset supplies (names,
ids, strings, labels, log formats) can ever become code; they also play a
hostile ruleset and show its text stays inert, and check that a runtime error
inside generated code names the DSL's ``file:line:col``.
"""
import ast
import re

import pytest
from ruleset_builder import load

from interpreter import Game, load_ruleset
from interpreter.agents import make_agents, play_out
from interpreter.errors import GameError
from interpreter.load.files import bundled_ids
from interpreter.machine import linetable
from interpreter.rules import loading

# the names generated code may use: its parameters, its helpers, and the objects it binds (_b3, _l12, _v4, ...)
FIXED = {"g", "L", "st", "frame", "stack", "limit", "was_over", "pc", "n", "_member", "_chain", "_DavitError",
         "_Exception", "_located", "_loc", "_e", "_t", "_i", "_it", "_k", "_for_items", "_len", "_instrs", "_size",
         "_starts", "_code_loc", "_TR", "_ZR", "_PR",
         # the work budget and size caps (machine/budget.py): generated code counts what it touches
         "_each", "_sized", "_times", "_charge"}
BOUND = re.compile(r"^_[a-z]\d+$")
# the attributes it may read: the game's state, the table, an instruction's slots
ATTRIBUTES = {"state", "vars", "table", "constants", "zones", "over", "slot", "var", "run", "loc", "location",
              "set_var", "set_attr", "set_item", "set_thing_prop", "own_props",
              "props_own",   # a property set in place where the thing's dict is its own (dsl/fast_reads.py)
              "work",   # the work budget, counted inline (dsl/expressions.py: charged)
              # inlined reads (dsl/fast_reads.py): the class test and the fixed places a declared name lives
              "__class__", "id", "kind", "name", "seat", "attrs", "props", "zprops", "pvars", "where", "seat_zones",
              "get", "players", "owner",
              "defn", "capacity", "things",   # a zone's fullness and top thing, written out
              "things_by_kind", "thing_list",   # the things a value: function walks first (dsl/first_walk.py)
              "__getitem__",   # a zone's things looked up by their ids (`[*map(things.__getitem__, ids)]`)
              "out", "player_names",   # whether a player is out, their name, written out
              "num_players",
              "kept_answers",   # a kept function's answer looked up at its call (dsl/inline_calls.py: called)
              "record",   # a log line is worked out only when the log is kept (`if g.record`)
              "changed",  # a property is set in place only while nobody follows the changed zones
              "index",  # a property set in place drops the things by its value (dsl/prop_index.py)
              # the flow's steps written out (machine/execute.py, Instr.step_lines, step_test)
              "phase", "append", "pop", "settle",
              "retval"}   # a block run to its end pops its frame itself, as vm.finish_frame does


def structure_problems(source: str) -> list[str]:
    problems = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Name) and node.id not in FIXED and not BOUND.match(node.id):
            problems.append(f"name {node.id!r}")
        elif isinstance(node, ast.Attribute) and node.attr not in ATTRIBUTES:
            problems.append(f"attribute {node.attr!r}")
        elif isinstance(node, (ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal, ast.ClassDef, ast.AsyncFunctionDef,
                               ast.Await, ast.Yield, ast.YieldFrom)):
            problems.append(type(node).__name__)
        elif isinstance(node, ast.FunctionDef) and node.name not in ("_f", "_run"):
            problems.append(f"function {node.name!r}")
        elif isinstance(node, ast.Constant) and not isinstance(node.value, (int, float, str, bool, type(None))):
            problems.append(f"constant {node.value!r}")
    return problems


def generated_since(before: set) -> dict:
    return {name: src for name, src in linetable.SOURCES.items() if name not in before}


@pytest.mark.parametrize("rid", bundled_ids())
def test_every_generated_function_of_a_bundled_ruleset_has_only_the_compilers_names(rid):
    before = set(linetable.SOURCES)
    # compiled anew, not the loader's cached copy: every function this ruleset generates is recorded now
    path, _ = loading.resolve_ruleset(rid)
    rs = loading._load.__wrapped__(str(path.resolve()), ())
    game = Game(rs, rs.min_players, seed=3)
    play_out(game, make_agents("random", rs.min_players, 3), max_decisions=200)   # compiles the code blocks
    sources = generated_since(before)
    assert sources, "no generated source was recorded"
    for name, source in sources.items():
        assert not structure_problems(source), (name, structure_problems(source), source)


HOSTILE = "x'] + __import__('os').system('touch {flag}') + L['"


def test_text_from_a_ruleset_stays_a_string_literal(tmp_path):
    flag = tmp_path / "pwned"
    text = HOSTILE.format(flag=flag)
    before = set(linetable.SOURCES)
    rs = load(tmp_path, {
        "variables": {"said": ""},
        "zones": [{"id": "pile", "name": text}],
        "things": [{"id": "chip", "count": 2, "start": "pile", "name": text}],
        "actions": [{"id": "shout", "label": text, "do": f"log({text!r}, player)\nsaid = {text!r}"}],
        "flow": [{"turn": {"player": "player(0)", "actions": ["shout"], "until": "said != ''"}},
                 {"do": f"said = said + {text!r}\nlog(\"{{}}\", {text!r})"}],
        "end": {"when": f"said == {text!r} + {text!r}"},
    })
    game = Game(rs, 1, seed=1)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    assert not flag.exists()
    assert game.state.vars["said"] == text + text
    sources = generated_since(before)
    assert sources
    literals = []
    for source in sources.values():
        assert not structure_problems(source), structure_problems(source)
        literals += [n.value for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Constant)]
    assert text in literals, "the hostile text appears in the code only as a string literal"


RUNTIME_ERROR = """\
id: unit
players: {min: 1, max: 1}
variables:
  n: 0
  # text held in a variable that starts as none: the static check cannot know its type, so the
  # mistake below shows only when the game runs
  word: null
zones:
  - id: pile
things:
  - id: chip
    start: pile
flow:
  - do: |
      word = "chip"
      for t in pile.things:
          n = 1 + (word + 1)
"""


def test_a_runtime_error_names_the_rule_not_the_generated_code(tmp_path):
    (tmp_path / "ruleset.yaml").write_text(RUNTIME_ERROR, encoding="utf-8")
    rs = load_ruleset(tmp_path)
    with pytest.raises(GameError) as info:
        Game(rs, 1, seed=1)
    error = info.value
    assert "TypeError" in error.message and "<davit" not in str(error)
    assert error.location.file.endswith("ruleset.yaml")
    lines = RUNTIME_ERROR.splitlines()
    row = next(i for i, line in enumerate(lines, 1) if "n = 1 +" in line)
    # the failing node is the inner sum `word + 1`, not the statement or the outer sum
    assert (error.location.line, error.location.column) == (row, lines[row - 1].index("word + 1") + 1)


def test_a_local_read_before_it_is_set_is_named(tmp_path):
    rs = load(tmp_path, {"variables": {"n": 0}, "flow": [{"do": "if n > 5:\n    later = 1\nn = later + 1\n"}]})
    with pytest.raises(GameError) as info:
        Game(rs, 1, seed=1)
    assert "'later' is used before it is given a value" in info.value.message


@pytest.mark.parametrize("rid", ["der-mythos", "titanic-board-game"])
def test_reads_written_out_answer_as_the_reader_does(rid):
    # `t.owner` on a comprehension's variable is written out (dsl/fast_reads.py); `thing(id).owner` goes
    # through the reader: both must agree for every thing, face up or down, owned or not, mid-game
    game, snippets = _mid_game(rid, seed=5, decisions=12)
    for name in ("owner", "face_up", "zone", "kind", "id", "name"):
        written_out = snippets.evaluate(game, f"[t.{name} for t in things()]")
        read = [snippets.evaluate(game, f"thing({t.id!r}).{name}") for t in game.table.thing_list]
        assert written_out == read, name
        assert written_out == [game.get_attr(t, name, None) for t in game.table.thing_list], name


@pytest.mark.parametrize("rid", ["collapsible-d", "titanic"])
def test_zone_reads_through_any_receiver_answer_as_the_reader_does(rid):
    # `zone(id).count` is written out with its receiver kept in a name (a generated reader only inside a
    # comprehension's iterable, fast_reads.receiver_reader); both must answer as the general reader does
    game, snippets = _mid_game(rid, seed=3, decisions=20)
    zones = list(game.table.zones.values())
    for name in ("count", "empty", "id", "name", "things", "top", "bottom", "full"):
        through = [snippets.evaluate(game, f"zone({z.id!r}).{name}") for z in zones]
        assert through == [game.get_attr(z, name, None) for z in zones], name


@pytest.mark.parametrize("rid", ["titanic-board-game", "collapsible-d"])
def test_zone_and_player_fields_of_a_bare_variable_answer_as_the_reader_does(rid):
    # a zone's things and bottom, a player's out and name, written out on a variable (dsl/fast_reads.py), with
    # a player out of the game, for every zone and player
    game, snippets = _mid_game(rid, seed=2, decisions=25)
    game.state.out[-1] = True
    zones = list(game.table.zones.values())
    for name in ("things", "bottom"):
        written_out = snippets.evaluate(game, f"[z.{name} for z in [zone(i) for i in {[z.id for z in zones]!r}]]")
        assert written_out == [game.get_attr(z, name, None) for z in zones], name
    assert any(written_out) and any(game.get_attr(z, "things", None) for z in zones)
    for name in ("out", "name", "seat"):
        written_out = snippets.evaluate(game, f"[p.{name} for p in all_players]")
        assert written_out == [game.get_attr(p, name, None) for p in game.table.players], name
    assert snippets.evaluate(game, "[p.out for p in all_players]")[-1] is True

def _layout(rs):
    """The layout ``rs`` was compiled with (made afresh when the fast paths are off)."""
    from interpreter.rules.layout import layout
    return rs.env.layout or layout(rs, (rs.env.fixed_thing_props, rs.env.fixed_zone_props))


def _mid_game(rid, seed, decisions):
    """A bundled game played ``decisions`` moves by random bots, and a snippet compiler for its ruleset."""
    from interpreter.authoring.snippets import SnippetCompiler
    rs = load_ruleset(rid)
    game = Game(rs, rs.max_players, seed=seed)
    play_out(game, make_agents("random", rs.max_players, seed), max_decisions=decisions)
    return game, SnippetCompiler(rs)



def test_a_name_both_declared_and_printed_reads_written_out_as_the_reader_does():
    # Collapsible D declares `gate`, `section`, ... as zone properties and prints them on its spaces: written
    # out, `s.gate` is the property once set, else the space's attribute, else the default, as the reader says
    from interpreter.authoring.snippets import SnippetCompiler
    checked = 0
    for rid in bundled_ids():
        rs = load_ruleset(rid)
        game = Game(rs, rs.max_players, seed=4)
        play_out(game, make_agents("random", rs.max_players, 4), max_decisions=15)
        layout = _layout(rs)
        snippets = SnippetCompiler(rs)
        moving = set(layout.zone_props) - layout.fixed_zone_props
        spaces = [game.table.zones[i] for i in snippets.evaluate(game, "[s.id for s in spaces()]")]
        for name in sorted(set(layout.zone_props) & layout.zone_attrs):
            printed = next((z for z in spaces if name in z.attrs), None)
            if printed is not None and name in moving:   # a property set in play wins over what is printed
                game.state.own_zprops(printed.id)[name] = game.get_attr(printed, name, None) * 2 or 7
            written_out = snippets.evaluate(game, f"[s.{name} for s in spaces()]")
            assert written_out == [game.get_attr(z, name, None) for z in spaces], (rid, name)
            checked += 1
        for name in sorted(set(layout.thing_props) & layout.thing_attrs):
            written_out = snippets.evaluate(game, f"[t.{name} for t in things()]")
            assert written_out == [game.get_attr(t, name, None) for t in game.table.thing_list], (rid, name)
            checked += 1
    assert checked


@pytest.mark.parametrize("rid", bundled_ids())
def test_the_readers_made_for_a_ruleset_answer_as_the_general_reader(rid):
    # `t.zone.gate` cannot be written out; its reader looks first where the declarations leave `gate`
    from interpreter.dsl.fast_reads import reader_for
    from interpreter.errors import GameError
    from interpreter.machine import attributes
    rs = load_ruleset(rid)
    game = Game(rs, rs.max_players, seed=4)
    play_out(game, make_agents("random", rs.max_players, 4), max_decisions=15)
    layout = _layout(rs)
    objects = list(game.table.thing_list) + list(game.table.zones.values()) + list(game.table.players)

    def answer(read, obj, name):
        try:
            return read(game, obj, None)
        except GameError as exc:
            return ("error", str(exc))

    names = layout.zone_attrs | layout.thing_attrs
    if not names:   # pig has no cards, pieces or zones: nothing to read
        assert not rs.data.get("things") and not rs.data.get("zones")
        return
    assert any(reader_for(layout, n) is not attributes.reader(n) for n in names)
    for name in names:
        fast, general = reader_for(layout, name), attributes.reader(name)
        assert [answer(fast, o, name) for o in objects] == [answer(general, o, name) for o in objects], name


def test_a_log_line_is_worked_out_only_when_the_log_is_kept(tmp_path):
    # log()'s values are narration: unlogged (davit simulate, the bots) they are not worked out at all, unless
    # working them out changes the game (here bump(), which counts its calls), which then happens either way
    before = set(linetable.SOURCES)
    rs = load(tmp_path, {
        "variables": {"bumps": 0},
        "functions": {"bump": {"do": "bumps = bumps + 1\nreturn bumps"},
                      "shown": {"params": ["x"], "value": "x * 2"}},
        "flow": [{"do": "log(\"pure {}\", shown(3))\nlog(\"effect {}\", bump())\nlog(\"plain\")"}],
    })
    for record in (True, False):
        game = Game(rs, 1, seed=1, record=record)
        assert game.is_over and game.state.vars["bumps"] == 1
        lines = [e["text"] for e in game.log if e["e"] == "log"]
        assert lines == (["pure 6", "effect 1", "plain"] if record else [])
    sources = generated_since(before).values()

    def guards(literal):
        return [s.count("if g.record else None") for s in sources if literal in s]
    assert guards("'pure {}'") == [1] and guards("'plain'") == [1] and guards("'effect {}'") == [0]


def test_readers_made_for_names_built_while_playing_are_not_kept_for_ever(monkeypatch):
    # the compiler asks for readers of the names written in the rules; a primitive given a name the rules
    # build (stack_targets(t, zones, "num" + text(i), 1)) may ask for any number of them
    from interpreter.machine import attributes
    monkeypatch.setattr(attributes, "_readers", {})
    monkeypatch.setattr(attributes, "MAX_READERS", 3)
    made = [attributes.reader(f"name{i}") for i in range(10)]
    assert len(attributes._readers) == 3 and len({id(r) for r in made}) == 10
    assert attributes.reader("name0") is made[0] and attributes.reader("name9") is not made[9]
