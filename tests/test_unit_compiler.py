"""Unit tests for interpreter.dsl.compiler: name resolution, arity, purity, choose(), semantics."""
import itertools

import pytest
import yaml

from interpreter import Game, load_ruleset
from interpreter.errors import DavitError, DslError, Findings, GameError, did_you_mean
from interpreter.machine import fast_paths, linetable

_serial = itertools.count()

# A ruleset whose flow ends in one `do: |` block; SNIPPET_LINE is the file line
# of the block's first line, which is indented by six spaces.
HEADER = """\
id: unit
players: {min: 1, max: 2}
constants:
  limit: 3
  table: {a: 1, b: 2}
variables:
  total: 0
player:
  vars:
    score: 0
zones:
  - id: deck
functions:
  double:
    params: [n]
    value: n * 2
  ask:
    params: [p]
    do: |
      c = choose(p, [1, 2])
      return c
actions:
  - id: noop
flow:
  - do: |
"""
SNIPPET_LINE = HEADER.count("\n") + 1
INDENT = 6


def _folder(tmp_path):
    folder = tmp_path / f"rs{next(_serial)}"
    folder.mkdir()
    return folder


def load_flow(tmp_path, snippet: str):
    folder = _folder(tmp_path)
    body = "".join(" " * INDENT + line + "\n" for line in snippet.splitlines())
    (folder / "ruleset.yaml").write_text(HEADER + body, encoding="utf-8")
    return load_ruleset(folder)


def load_spec(tmp_path, spec: dict):
    folder = _folder(tmp_path)
    data = {"id": "unit", "players": {"min": 1, "max": 2}, "flow": [{"do": "pass"}]}
    data.update(spec)
    (folder / "ruleset.yaml").write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return load_ruleset(folder)


def errors(fn, *args) -> list:
    try:
        fn(*args)
    except Findings as exc:
        return exc.errors
    except DavitError as exc:
        return [exc]
    pytest.fail("expected the ruleset to be refused")


def one_error(tmp_path, snippet) -> DslError:
    """The first error (in file order) of a ruleset whose only fault is ``snippet``."""
    errs = errors(load_flow, tmp_path, snippet)
    assert isinstance(errs[0], DslError), str(errs[0])
    return errs[0]


def at(line_in_snippet, column_in_snippet):
    return (SNIPPET_LINE + line_in_snippet - 1, INDENT + column_in_snippet)


def where(err):
    return (err.location.line, err.location.column)


def evaluate(tmp_path, expression, **spec):
    """The value of ``expression`` computed by compiled code in a one-step flow."""
    spec.setdefault("variables", {})
    spec["variables"]["result"] = None
    spec["flow"] = [{"do": f"result = {expression}"}]
    game = Game(load_spec(tmp_path, spec), 2, seed=0)
    return game.state.vars["result"]


# --- a good header compiles ----------------------------------------------------------

def test_header_compiles(tmp_path):
    rs = load_flow(tmp_path, "total = double(limit)")
    game = Game(rs, 1)
    assert game.state.vars["total"] == 6


# --- name resolution ---------------------------------------------------------------------

def test_unknown_name_with_did_you_mean(tmp_path):
    err = one_error(tmp_path, "total = totl + 1")
    assert err.message == "unknown name 'totl'"
    assert err.hint == "did you mean 'total'?"
    assert where(err) == at(1, 9)
    assert str(err).endswith("unknown name 'totl' (did you mean 'total'?)")


def test_unknown_name_without_close_match_has_no_hint(tmp_path):
    err = one_error(tmp_path, "total = zzzzzz")
    assert err.message == "unknown name 'zzzzzz'"
    assert err.hint is None


def test_unknown_function_with_did_you_mean(tmp_path):
    err = one_error(tmp_path, "total = doubel(2)")
    assert err.message == "unknown function 'doubel'"
    assert err.hint == "did you mean 'double'?"
    assert where(err) == at(1, 9)


def test_misspelt_primitive_suggests_it(tmp_path):
    err = one_error(tmp_path, "total = cuont([1])")
    assert err.hint == "did you mean 'count'?"


def test_function_name_used_as_a_value(tmp_path):
    err = one_error(tmp_path, "total = double")
    assert "'double' is a function; call it with ( )" in err.message


def test_error_on_second_line_of_block(tmp_path):
    err = one_error(tmp_path, "total = 1\nif total > 0:\n  total = missing")
    assert where(err) == at(3, 11)


def test_undeclared_attribute_cannot_be_set(tmp_path):
    errs = errors(load_flow, tmp_path, "player(0).scroe = 1")
    found = [e for e in errs if "'scroe' is not a declared counter" in e.message]
    assert len(found) == 1
    assert found[0].hint == "did you mean 'score'?"
    assert where(found[0]) == at(1, 11)


def test_only_named_functions_can_be_called(tmp_path):
    err = one_error(tmp_path, "total = [1][0](2)")
    assert "only named functions can be called" in err.message


# --- arity ----------------------------------------------------------------------------------

def test_user_function_arity(tmp_path):
    err = one_error(tmp_path, "total = double(1, 2)")
    assert err.message == "double() takes 1 argument, 2 given"


def test_primitive_arity_range(tmp_path):
    err = one_error(tmp_path, "total = count()")
    assert err.message == "count() takes 1 to 2 arguments, 0 given"


def test_primitive_arity_too_many(tmp_path):
    err = one_error(tmp_path, "total = abs(1, 2)")
    assert err.message == "abs() takes 1 argument, 2 given"


def test_variadic_primitive_takes_at_least(tmp_path):
    err = one_error(tmp_path, "log()")
    assert err.message == "log() takes at least 1 argument, 0 given"


def test_unknown_keyword_argument(tmp_path):
    # (assigned to a local: `total` holds a number, and a list there is a type error of its own)
    err = one_error(tmp_path, "ranked = sorted([1], reverse=true)")
    assert err.message == "sorted() has no argument named 'reverse'"


def test_user_function_takes_no_keywords(tmp_path):
    err = one_error(tmp_path, "total = double(n=1)")
    # the keyword does not count as an argument, so arity is reported first
    assert "double()" in err.message


def test_suspending_function_arity(tmp_path):
    err = one_error(tmp_path, "ask()")
    assert err.message == "ask() takes 1 argument, 0 given"


# --- effects and choose() ---------------------------------------------------------------------

def test_effect_refused_in_action_condition(tmp_path):
    errs = errors(load_spec, tmp_path, {
        "zones": [{"id": "deck"}],
        "actions": [{"id": "a", "if": "count(deck) == 0 or shuffle(deck)"}],
        "flow": [{"turn": {"player": "player(0)", "actions": ["a"]}}]})
    assert len(errs) == 1
    assert errs[0].message == "shuffle() changes the game and cannot be used in a condition"


@pytest.mark.parametrize("section", [
    {"end": {"when": "score(player(0), 1)"}},
    {"zones": [{"id": "deck", "admit": "move(thing, deck)"}]},
    {"scoring": {"rank": "end_game()"}},
    {"triggers": [{"when": "eliminate(player(0))", "do": "pass"}]},
])
def test_effects_refused_in_every_condition(tmp_path, section):
    spec = {"zones": [{"id": "deck"}]}
    spec.update(section)
    errs = errors(load_spec, tmp_path, spec)
    assert len(errs) == 1
    assert "changes the game and cannot be used in a condition" in errs[0].message


def test_a_condition_may_not_change_the_game_through_functions_calling_functions(tmp_path):
    spec = {"zones": [{"id": "deck"}, {"id": "pile"}], "things": [{"id": "card", "start": "deck"}],
            "functions": {"sneaky": {"do": "move(thing('card'), pile)\nreturn true"},
                          "outer": {"value": "sneaky()"}, "outermost": {"do": "return outer()"}},
            "actions": [{"id": "go", "if": "outermost()", "do": "pass"}]}
    errs = errors(load_spec, tmp_path, spec)
    assert [e.message for e in errs] == ["function 'outermost' changes the game and cannot be used in a condition"]


def test_effects_allowed_in_statements(tmp_path):
    rs = load_spec(tmp_path, {"flow": [{"do": "score(player(0), 4)"}]})
    assert Game(rs, 1).scores == {0: 4}


@pytest.mark.parametrize("expression, value", [
    ("first([3, 0, 4], x -> 6 / x == 2)", 3),          # stops at the match: 6 / 0 is never worked out
    ("first([1, 2], x -> x > 5)", None),
    ("any([2, 0], x -> 4 / x == 2)", True),
    ("all([2, 0], x -> 4 / x > 3)", False),
    ("all([1, 2], x -> x > 0)", True),
    ("count([1, 2, 3], x -> x > 1)", 2),
    ("filter([1, 2, 3], x -> x != 2)", [1, 3]),
    ("sum([1, 2, 3], x -> x * 10)", 60),
    ("sum([], x -> x * 10)", 0),
])
def test_built_ins_with_a_predicate_written_out_keep_their_meaning(tmp_path, expression, value):
    assert evaluate(tmp_path, expression) == value


@pytest.mark.parametrize("name", ["first", "any", "all", "count", "filter", "sum"])
def test_an_error_in_a_written_out_predicate_is_located(tmp_path, name):
    folder = _folder(tmp_path)
    (folder / "ruleset.yaml").write_text(
        "id: unit\nplayers: {min: 1, max: 2}\nflow:\n  - do: |\n"
        f"      r = {name}([0, 1], x -> 3 / x > 9)\n", encoding="utf-8")
    with pytest.raises(GameError) as caught:
        Game(load_ruleset(folder), 1)
    assert "division by zero (with /, // or %)" in caught.value.message
    assert where(caught.value) == (5, 25 + len(name))   # the division


def test_a_function_that_ends_the_game_stops_there(tmp_path):
    # a function that changes the game runs as one Python function; like the VM it stops after the
    # statement that ended the game, and the step calling it goes no further either
    rs = load_spec(tmp_path, {
        "variables": {"after": 0},
        "functions": {"finale": {"do": "score(player(0), 4)\nend_game()\nscore(player(0), 100)\nafter = 1"}},
        "flow": [{"do": "finale()\nscore(player(0), 1000)"}]})
    game = Game(rs, 1)
    assert game.is_over
    assert game.scores == {0: 4}
    assert game.state.vars["after"] == 0


def test_a_game_ended_in_a_condition_stops_the_function_after_the_next_statement(tmp_path):
    # a condition is no statement: the game it ends stops the function after the statement that follows
    # (as before statements that change nothing went without the test: then no condition may end the game)
    rs = load_spec(tmp_path, {
        "variables": {"after": 0},
        "functions": {"stop": {"do": "end_game()\nreturn true"},
                      "finale": {"do": "if stop():\n  pass\nafter = 1\nafter = 2\nafter = 3"}},
        "flow": [{"do": "finale()"}]})
    game = Game(rs, 1)
    assert game.is_over and game.state.vars["after"] == 1


def test_statements_that_change_nothing_need_no_test_for_the_end(tmp_path):
    rs = load_spec(tmp_path, {
        "variables": {"after": 0},
        "functions": {"finale": {"do": "after = 1\nafter = after + 1\nend_game()\nafter = 10\nafter = 20"}},
        "flow": [{"do": "finale()"}]})
    game = Game(rs, 1)
    assert game.is_over and game.state.vars["after"] == 2
    if fast_paths.on():   # the function as one Python function: the end is tested after end_game() alone
        source = linetable.SOURCES[rs.functions["finale"].fast.__davit_file__]
        assert source.count("is not was_over") == 1


def test_a_function_that_changes_the_game_keeps_its_errors_located(tmp_path):
    folder = _folder(tmp_path)
    (folder / "ruleset.yaml").write_text(
        "id: unit\nplayers: {min: 1, max: 2}\nfunctions:\n  bad:\n    do: |\n"
        "      score(player(0), 1)\n      score(player(5), 1)\nflow:\n  - do: bad()\n", encoding="utf-8")
    with pytest.raises(GameError) as caught:
        Game(load_ruleset(folder), 1)
    assert where(caught.value) == (7, 13)   # player(5)


def test_choose_inside_an_expression_is_refused(tmp_path):
    err = one_error(tmp_path, "total = choose(player(0), [1, 2]) + 1")
    assert "choose(...) must be a statement of its own or the right side of an assignment" in err.message
    assert where(err) == at(1, 9)


def test_choose_in_a_condition_is_refused(tmp_path):
    errs = errors(load_spec, tmp_path, {"end": {"when": "choose(player(0), [true, false])"}})
    assert "choose(...)" in errs[0].message


def test_choose_needs_player_and_options(tmp_path):
    err = one_error(tmp_path, "choose(player(0))")
    assert "choose(player, options, prompt)" in err.message


def test_choose_with_unknown_keyword_is_refused(tmp_path):
    err = one_error(tmp_path, "choose(player(0), [1, 2], title='x')")
    assert "choose(player, options, prompt)" in err.message


def test_waiting_function_in_an_expression_is_refused(tmp_path):
    err = one_error(tmp_path, "total = ask(player(0)) + 1")
    assert "function 'ask' asks a player" in err.message


def test_function_calling_a_waiting_function_also_waits(tmp_path):
    errs = errors(load_spec, tmp_path, {
        "variables": {"total": 0},
        "functions": {"inner": {"do": "c = choose(player(0), [1, 2])\nreturn c"},
                      "outer": {"do": "x = inner()\nreturn x"}},
        "flow": [{"do": "total = outer() * 2"}]})
    assert len(errs) == 1
    assert "function 'outer' asks a player" in errs[0].message


def test_choose_as_statement_and_assignment_compiles_and_waits(tmp_path):
    rs = load_flow(tmp_path, "c = ask(player(0))\ntotal = c")
    game = Game(rs, 1)
    assert game.state.pending["kind"] == "choice"
    assert [a.arg("option") for a in game.legal_actions(0)] == [1, 2]
    game.apply(game.legal_actions(0)[1])
    assert game.is_over
    assert game.state.vars["total"] == 2


def test_waiting_function_assigned_to_a_global(tmp_path):
    rs = load_flow(tmp_path, "total = ask(player(0))")
    game = Game(rs, 1)
    game.apply(game.legal_actions(0)[1])
    assert game.state.vars["total"] == 2


# --- assignment targets ------------------------------------------------------------------

def test_assignment_to_constant_is_refused(tmp_path):
    err = one_error(tmp_path, "limit = 4")
    assert err.message == "'limit' is a constant and cannot be changed"
    assert where(err) == at(1, 1)


def test_augmented_assignment_to_constant_is_refused(tmp_path):
    err = one_error(tmp_path, "total = 1\nlimit += 1")
    assert "'limit' is a constant" in err.message
    assert where(err) == at(2, 1)


def test_assignment_to_builtin_is_refused(tmp_path):
    err = one_error(tmp_path, "players = 1")
    assert err.message == "'players' is a built-in name and cannot be assigned"


def test_lambda_outside_a_call_is_refused(tmp_path):
    err = one_error(tmp_path, "f = x -> x")
    assert "a lambda (x -> ...) may only be an argument of a call" in err.message


@pytest.mark.parametrize("word", ["break", "continue"])
def test_loop_control_outside_a_loop(tmp_path, word):
    err = one_error(tmp_path, word)
    assert err.message == f"'{word}' outside a loop"


def test_errors_of_every_snippet_are_collected_and_sorted(tmp_path):
    errs = errors(load_spec, tmp_path, {
        "constants": {"limit": 1},
        "variables": {"total": 0},
        "flow": [{"do": "total = nope1"}, {"do": "total = nope2"}, {"do": "limit = 1"}]})
    assert [e.message for e in errs] == ["unknown name 'nope1'", "unknown name 'nope2'",
                                         "'limit' is a constant and cannot be changed"]
    lines = [e.location.line for e in errs]
    assert lines == sorted(lines) and len(set(lines)) == 3


# --- semantics of compiled expressions ----------------------------------------------------------

@pytest.mark.parametrize("expression,expected", [
    ("7 // 2", 3),
    ("7 / 2", 3.5),
    ("-7 % 3", 2),
    ("2 + 3 * 4", 14),
    ("(2 + 3) * 4", 20),
    ("'a' + 'b'", "ab"),
    ("[10, 20, 30][1]", 20),
    ("1 < 2 < 3", True),
    ("3 > 2 > 2", False),
    ("2 in [1, 2]", True),
    ("3 not in [1, 2]", True),
    ("none or 5", 5),
    ("0 and 5", 0),
    ("not 0", True),
    ("5 if false else 6", 6),
    ("[x * x for x in [1, 2, 3] if x != 2]", [1, 9]),
    ("table.a + table['b']", 3),
    ("limit", 3),
    ("num_players", 2),
])
def test_expression_values(tmp_path, expression, expected):
    got = evaluate(tmp_path, expression, constants={"limit": 3, "table": {"a": 1, "b": 2}})
    assert got == expected and type(got) is type(expected)


def test_and_short_circuits(tmp_path):
    # 1 // 0 would stop the game with a GameError if it were evaluated
    assert evaluate(tmp_path, "false and 1 // 0 == 0") is False
    assert evaluate(tmp_path, "true or 1 // 0 == 0") is True
    assert evaluate(tmp_path, "1 if true else 1 // 0") == 1


def test_runtime_error_is_a_game_error_with_location(tmp_path):
    rs = load_flow(tmp_path, "total = 1\ntotal = 1 // 0")
    with pytest.raises(GameError) as info:
        Game(rs, 1)
    assert "division by zero (with /, // or %)" in info.value.message
    assert info.value.location.line == SNIPPET_LINE + 1


def test_local_used_before_assignment(tmp_path):
    rs = load_flow(tmp_path, "total = later\nlater = 1")
    with pytest.raises(GameError) as info:
        Game(rs, 1)
    assert "'later' is used before it is given a value" in info.value.message


def test_augmented_assignment_on_globals_locals_counters_and_items(tmp_path):
    rs = load_flow(tmp_path, "xs = [1, 2]\nxs[1] += 5\nn = 10\nn //= 3\n"
                             "total = n + xs[1]\ntotal *= 2\nplayer(0).score -= 4")
    game = Game(rs, 1)
    assert game.state.vars["total"] == (3 + 7) * 2
    assert game.scores == {0: -4}


def test_comprehension_variable_does_not_clobber_outer_local(tmp_path):
    rs = load_flow(tmp_path, "x = 5\nys = [x * 2 for x in [1, 2]]\ntotal = x")
    assert Game(rs, 1).state.vars["total"] == 5


def test_lambda_parameter_does_not_clobber_loop_variable(tmp_path):
    # `for p in players: ... count(players, p -> ...)` is a natural way to write rules;
    # after the count, p must still be the loop's player.
    rs = load_spec(tmp_path, {
        "variables": {"seen": []},
        "flow": [{"do": "for p in players:\n"
                        "  n = count(players, p -> p.seat >= 0)\n"
                        "  seen = seen + [p.seat]"}]})
    assert Game(rs, 2).state.vars["seen"] == [0, 1]


# --- did_you_mean ------------------------------------------------------------------------

def test_did_you_mean():
    assert did_you_mean("scroe", ["score", "money"]) == "did you mean 'score'?"
    assert did_you_mean("xyz", ["score", "money"]) is None
    assert did_you_mean("a", []) is None
