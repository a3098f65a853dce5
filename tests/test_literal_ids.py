"""``thing(...)`` with a literal id, as generated code writes it (interpreter/dsl/literal_ids.py).

``thing("pawn", p)`` finds p's copy by an id made once per seat and
``thing("door")`` is the table's own lookup: the same thing as the built-in
finds, in the table of the game that runs the code (one compiled ruleset
serves every player count), and, where the built-in fails, the built-in's
own error at the call's ``file:line:col``.
"""
import pytest
import yaml

from interpreter import Game, load_ruleset
from interpreter.authoring.snippets import SnippetCompiler
from interpreter.dsl import ast
from interpreter.dsl.literal_ids import literal_thing, thing_of_seat
from interpreter.dsl.parser import parse
from interpreter.errors import DslError, GameError
from interpreter.machine.values import PlayerRef

RULESET = {
    "id": "unit",
    "players": {"min": 1, "max": 3},
    "variables": {"found": None},
    "zones": [{"id": "deck"}],
    "things": [{"id": "pawn", "per_player": True, "start": "deck"}, {"id": "door", "start": "deck"}],
    "functions": {"pawn_of": {"params": ["p"], "value": "thing('pawn', p)"}},
    "flow": [{"do": "found = choose(player(0), [1, 2])"}],
}


def _ruleset(tmp_path, flow=None, **changes):
    folder = tmp_path / f"rs{len(list(tmp_path.iterdir()))}"
    folder.mkdir()
    spec = {**RULESET, **changes}
    if flow is not None:   # statements written as a block, so that each keeps a line of its own in the file
        del spec["flow"]
    text = yaml.safe_dump(spec, sort_keys=False)
    if flow is not None:
        text += "flow:\n  - do: |\n" + "".join(f"      {line}\n" for line in flow)
    (folder / "ruleset.yaml").write_text(text, encoding="utf-8")
    return load_ruleset(folder), text


def ev(game, text):
    return SnippetCompiler(game.ruleset).evaluate(game, text, pure=False)


@pytest.mark.parametrize("players", [1, 2, 3])
def test_each_table_finds_its_own_things(tmp_path, players):
    rs, _ = _ruleset(tmp_path)
    game = Game(rs, players, seed=1)
    things = game.table.things
    for seat in range(players):
        assert ev(game, f"thing('pawn', player({seat}))") is things[f"pawn@{seat}"]
        assert ev(game, f"pawn_of(player({seat}))") is things[f"pawn@{seat}"]
    assert ev(game, "thing('door')") is things["door"]


def test_a_thing_this_player_count_lacks_is_the_builtins_error_at_the_call(tmp_path):
    # pawn@2 exists at three players (the compiler knows the id) but not at two: only the run finds it missing
    rs, text = _ruleset(tmp_path, flow=["found = 1", "found = thing('pawn@2')"])
    assert Game(rs, 3, seed=1).state.vars["found"].id == "pawn@2"
    with pytest.raises(GameError) as info:
        Game(rs, 2, seed=1)
    assert info.value.message == "no thing with id 'pawn@2'"
    row = next(i for i, line in enumerate(text.splitlines()) if "thing('pawn@2')" in line)
    assert (info.value.location.line, info.value.location.column) == \
        (row + 1, text.splitlines()[row].index("thing(") + 1)


def test_a_second_argument_that_is_not_a_player_is_the_builtins_error(tmp_path):
    rs, _ = _ruleset(tmp_path)
    game = Game(rs, 2, seed=1)
    with pytest.raises(GameError) as info:
        ev(game, "thing('pawn', 2)")
    assert "thing(id, player) needs a player, got number" in info.value.message
    with pytest.raises(GameError) as info:
        ev(game, "pawn_of(thing('door'))")
    assert "thing(id, player) needs a player, got door" in info.value.message


def test_a_literal_id_no_thing_has_is_refused_as_the_ruleset_loads(tmp_path):
    with pytest.raises(DslError, match="no thing has the id 'dor'"):
        _ruleset(tmp_path, flow=["found = thing('dor')"])


def test_only_a_literal_id_is_written_out(tmp_path):
    rs, _ = _ruleset(tmp_path)

    class Gen:   # what literal_thing asks of the generator, for calls it must leave to the built-in
        env = type("Env", (), {"layout": object()})()

    for text in ["thing(p)", "thing('pa' + 'wn', p)", "thing(1)", "thing('pawn', p, q)"]:
        call = parse(text, "expr")
        assert isinstance(call, ast.Call) and literal_thing(Gen(), call) is None, text


def test_the_seat_finder_asks_the_builtin_for_what_it_cannot_find(tmp_path):
    rs, _ = _ruleset(tmp_path)
    game = Game(rs, 2, seed=1)
    find = thing_of_seat("pawn")
    assert find(game, None, PlayerRef(1)) is game.table.things["pawn@1"]
    with pytest.raises(GameError, match="no thing with id 'pawn@2'"):
        find(game, None, PlayerRef(2))   # a seat this table does not have


def test_any_second_argument_and_a_read_of_the_thing_found(tmp_path):
    # the player worked out once (a call, a comprehension's iterable, where `:=` is refused), and the thing's
    # zone read with no class test: what the built-in and the reader answer
    rs, _ = _ruleset(tmp_path, zones=[{"id": "deck"}, {"id": "bag"}])
    game = Game(rs, 3, seed=1)
    things = game.table.things
    assert ev(game, "thing('pawn', player(2))") is things["pawn@2"]
    assert ev(game, "[t.id for t in [thing('pawn', player(1)), thing('pawn', player(0))]]") == ["pawn@1", "pawn@0"]
    assert ev(game, "thing('pawn', player(1)).zone") is game.table.zones["deck"]
    assert ev(game, "[z.id for z in [thing('pawn', player(1)).zone, pawn_of(player(2)).zone]]") == ["deck", "deck"]
    with pytest.raises(GameError) as info:
        ev(game, "thing('pawn', 1 + 1).zone")
    assert "thing(id, player) needs a player, got number" in info.value.message
