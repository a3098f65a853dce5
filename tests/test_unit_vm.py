"""Unit tests for interpreter.machine.vm: control flow through compiled code, frames, the step guard."""
import pytest
from ruleset_builder import load

from interpreter import Game
from interpreter.errors import GameError, RunawayGameError
from interpreter.machine.execute import call_sync
from interpreter.machine.vm import Code


def run_function(tmp_path, body, params=(), args="", players=1):
    """Define ``f`` with ``body``, call it from the flow and return its result."""
    rs = load(tmp_path, {
        "variables": {"result": None},
        "functions": {"f": {"params": list(params), "do": body}},
        "flow": [{"do": f"result = f({args})"}]})
    game = Game(rs, players)
    assert game.is_over
    return game.state.vars["result"]


def test_for_loop_with_continue_and_break(tmp_path):
    body = ("total = 0\n"
            "for i in range(10):\n"
            "  if i == 2:\n"
            "    continue\n"
            "  if i == 5:\n"
            "    break\n"
            "  total += i\n"
            "return total\n")
    assert run_function(tmp_path, body) == 0 + 1 + 3 + 4


def test_break_leaves_only_the_inner_loop(tmp_path):
    body = ("pairs = []\n"
            "for a in [1, 2, 3]:\n"
            "  for b in [1, 2, 3]:\n"
            "    if b > a:\n"
            "      break\n"
            "    pairs = pairs + [a * 10 + b]\n"
            "return pairs\n")
    assert run_function(tmp_path, body) == [11, 21, 22, 31, 32, 33]


def test_continue_in_nested_loop_continues_the_inner_one(tmp_path):
    body = ("out = []\n"
            "for a in [1, 2]:\n"
            "  for b in [1, 2, 3]:\n"
            "    if b == 2:\n"
            "      continue\n"
            "    out = out + [a * 10 + b]\n"
            "  out = out + [0]\n"
            "return out\n")
    assert run_function(tmp_path, body) == [11, 13, 0, 21, 23, 0]


def test_while_loop_with_break_and_continue(tmp_path):
    body = ("n = 0\n"
            "odd = 0\n"
            "while true:\n"
            "  n += 1\n"
            "  if n > 7:\n"
            "    break\n"
            "  if n % 2 == 0:\n"
            "    continue\n"
            "  odd += n\n"
            "return odd\n")
    assert run_function(tmp_path, body) == 1 + 3 + 5 + 7


def test_while_condition_checked_before_first_pass(tmp_path):
    body = "n = 0\nwhile false:\n  n = 99\nreturn n\n"
    assert run_function(tmp_path, body) == 0


def test_return_from_inside_nested_loops(tmp_path):
    body = ("for a in range(5):\n"
            "  for b in range(5):\n"
            "    if a * b == 6:\n"
            "      return [a, b]\n"
            "return none\n")
    assert run_function(tmp_path, body) == [2, 3]


def test_return_without_value_and_falling_off_the_end(tmp_path):
    assert run_function(tmp_path, "return") is None
    assert run_function(tmp_path, "x = 1") is None


def test_statements_after_return_do_not_run(tmp_path):
    rs = load(tmp_path, {
        "variables": {"touched": False, "result": None},
        "functions": {"f": {"do": "return 1\ntouched = true"}},
        "flow": [{"do": "result = f()"}]})
    game = Game(rs, 1)
    assert game.state.vars == {"touched": False, "result": 1, "%winners": [0]}


def test_if_elif_else_picks_one_branch(tmp_path):
    body = ("out = []\n"
            "for n in [1, 2, 3]:\n"
            "  if n == 1:\n"
            "    out = out + ['one']\n"
            "  elif n == 2:\n"
            "    out = out + ['two']\n"
            "  else:\n"
            "    out = out + ['many']\n"
            "return out\n")
    assert run_function(tmp_path, body) == ["one", "two", "many"]


def test_for_loop_iterates_a_snapshot(tmp_path):
    # changing the list variable inside the loop does not change what is iterated
    body = ("xs = [1, 2, 3]\n"
            "seen = []\n"
            "for x in xs:\n"
            "  xs = xs + [x]\n"
            "  seen = seen + [x]\n"
            "return [seen, xs]\n")
    assert run_function(tmp_path, body) == [[1, 2, 3], [1, 2, 3, 1, 2, 3]]


def test_parameters_and_recursion(tmp_path):
    rs = load(tmp_path, {
        "variables": {"result": None},
        "functions": {"fact": {"params": ["n"], "do": "if n <= 1:\n  return 1\nreturn n * fact(n - 1)"}},
        "flow": [{"do": "result = fact(6)"}]})
    assert Game(rs, 1).state.vars["result"] == 720


def test_function_locals_do_not_leak_into_the_caller(tmp_path):
    rs = load(tmp_path, {
        "variables": {"result": None},
        "functions": {"g": {"params": ["x"], "do": "x = x + 100\nreturn x"}},
        "flow": [{"do": "x = 1\ny = g(x)\nresult = [x, y]"}]})
    assert Game(rs, 1).state.vars["result"] == [1, 101]


def test_endless_recursion_is_a_game_error(tmp_path):
    rs = load(tmp_path, {
        "variables": {"result": None},
        "functions": {"r": {"params": ["n"], "do": "return r(n + 1)"}},
        "flow": [{"do": "result = r(0)"}]})
    with pytest.raises(GameError) as info:
        Game(rs, 1)
    assert "recurse" in info.value.message or "steps" in info.value.message


def test_step_guard_names_the_phase(tmp_path):
    rs = load(tmp_path, {
        "limits": {"max_steps": 300},
        "variables": {"n": 0},
        "flow": [{"phase": "spin", "steps": [{"while": "true", "steps": [{"do": "n += 1"}]}]}]})
    with pytest.raises(RunawayGameError) as info:
        Game(rs, 1)
    err = info.value
    assert "did not end within 300 steps" in err.message
    assert "'spin'" in err.message
    assert err.location is not None
    assert "max_steps" in (err.hint or "")


def test_step_guard_inside_a_dsl_while_loop(tmp_path):
    rs = load(tmp_path, {
        "limits": {"max_steps": 200},
        "flow": [{"phase": "outer", "steps": [{"step": "inner", "do": "n = 0\nwhile n >= 0:\n  n += 1"}]}]})
    with pytest.raises(RunawayGameError) as info:
        Game(rs, 1)
    assert "'outer > inner'" in info.value.message


def test_step_guard_is_not_hit_by_a_finite_game(tmp_path):
    rs = load(tmp_path, {
        "limits": {"max_steps": 1000},
        "variables": {"n": 0},
        "flow": [{"repeat": 10, "steps": [{"do": "n += 1"}]}]})
    game = Game(rs, 1)
    assert game.is_over and game.state.vars["n"] == 10
    assert 0 < game.state.steps <= 1000


WAITING_FLOW = [{"do": "c = choose(player(0), [1, 2])"}]


def test_call_sync_runs_a_compiled_function_while_a_decision_is_pending(tmp_path):
    rs = load(tmp_path, {"functions": {"add": {"params": ["a", "b"], "value": "a + b"}}, "flow": WAITING_FLOW})
    game = Game(rs, 1)
    assert game.state.pending is not None
    assert call_sync(game, game.codes["fn:add"], [2, 40]) == 42
    assert game.state.pending is not None  # the pending decision is untouched


def test_call_sync_refuses_a_function_that_waits(tmp_path):
    rs = load(tmp_path, {"functions": {"ask": {"do": "c = choose(player(0), [1, 2])\nreturn c"}},
                         "flow": WAITING_FLOW})
    game = Game(rs, 1)
    code = game.codes["fn:ask"]
    assert code.suspends
    with pytest.raises(GameError):
        call_sync(game, code, [])


def test_decision_inside_a_function_resumes_there(tmp_path):
    # the frame of `pick` is kept in the state while waiting, then finishes with the answer
    rs = load(tmp_path, {
        "variables": {"result": None},
        "functions": {"pick": {"params": ["base"], "do": "c = choose(player(0), [1, 2, 3])\nreturn base + c"}},
        "flow": [{"do": "r = pick(100)\nresult = r * 2"}]})
    game = Game(rs, 1)
    assert not game.is_over
    assert [f[0] for f in game.state.stack] == ["flow", "fn:pick"]
    assert game.state.stack[1][2]["base"] == 100
    game.apply(game.legal_actions(0)[2])
    assert game.is_over
    assert game.state.vars["result"] == 206


def test_code_repr_and_defaults():
    code = Code("x", [1, 2, 3])
    assert repr(code) == "Code('x', 3 instrs)"
    assert code.params == () and code.suspends is False


def test_a_waiting_function_gets_its_arguments_in_order_and_resumes_after_a_save(tmp_path):
    # the call is written out in the compiled flow (machine/execute.py): its frame must be the VM's
    rs = load(tmp_path, {
        "variables": {"result": None, "trace": []},
        "functions": {"note": {"params": ["x"], "value": "x"},
                      "pick": {"params": ["a", "b", "c"],
                               "do": "k = choose(player(0), [1, 2])\nreturn a * 100 + b * 10 + c + k"}},
        "flow": [{"do": "r = pick(note(1), note(2), note(3))\nresult = r"}]})
    game = Game(rs, 1)
    assert [f[0] for f in game.state.stack] == ["flow", "fn:pick"]
    assert game.state.stack[1][2] == {"a": 1, "b": 2, "c": 3}
    assert game.state.stack[0][1] == 1   # the flow resumes after the call
    again = Game.from_json(rs, game.to_json())
    again.apply(again.legal_actions(0)[1])
    assert again.is_over and again.state.vars["result"] == 125


def test_a_failing_argument_of_a_waiting_function_is_located_at_the_call(tmp_path):
    rs = load(tmp_path, {
        "variables": {"result": None},
        "functions": {"pick": {"params": ["a"], "do": "k = choose(player(0), [1, 2])\nreturn a + k"}},
        "flow": [{"do": "where = \"nowhere\"\nresult = pick(zone(where))"}]})
    with pytest.raises(GameError) as failed:
        Game(rs, 1)
    assert "nowhere" in str(failed.value)
    loc = failed.value.location
    assert loc is not None
    lines = open(loc.file, encoding="utf-8").read().splitlines()
    assert "pick(zone(where))" in lines[loc.line - 1]
