"""A loop that goes round in place (execute._Nest) against the tests of pc it replaces (fast paths off).

Both runners of one block are driven as the VM drives them, with a small
step budget per call, so that each stops at every budget check it meets and
starts again from ``frame[PC]``: what each call returns (the instructions it
counts), where it stops and the locals it leaves must be the same, budget by
budget, as must a whole game's steps and the point where ``max_steps`` stops it.
"""
import copy

import pytest
from ruleset_builder import load

from interpreter import Game
from interpreter.errors import RunawayGameError
from interpreter.machine import execute, fast_paths, linetable

# for loops whose bodies span several blocks: if/elif/else, continue, break, an inner loop; one holding a
# while (whose jump back does not nest: left to the tests of pc), and a while holding a for
LOOPS = """\
total = 0
seen = []
for i in range(9):
  if i == 7:
    break
  if i % 3 == 0:
    total += 1
  elif i % 3 == 1:
    for j in range(i):
      if j == 2:
        continue
      total += j
  else:
    if total > 5:
      continue
    total += 10
  seen = seen + [i]
for i in [1, 2]:
  m = 0
  while m < i:
    m += 1
  total += m
k = 0
while k < 3:
  for j in [1, 2]:
    if j == k:
      total += 100
  k += 1
"""


def _game(tmp_path):
    return Game(load(tmp_path, {"flow": [{"do": LOOPS}]}), 1)


def _runner(monkeypatch, code, codes, fast: bool):
    monkeypatch.setattr(fast_paths, "on", lambda: fast)
    runner = execute.compile_code(code, None, codes)
    return runner, linetable.SOURCES[runner.__code__.co_filename]


def _drive(runner, game, limit: int) -> list:
    """Run the block from its start to its end as the VM does, each call given ``limit``: what each call did."""
    stack = [["flow", 0, {}, None]]
    frame = stack[0]
    calls = []
    while stack and len(calls) < 10_000:   # (a runner that never gets on would stop here)
        done = runner(game, frame, stack, limit, game.state.over)
        calls.append((done, frame[1], copy.deepcopy(frame[2])))
    return calls


@pytest.mark.parametrize("limit", [0, 1, 2, 3, 5, 8, 1000])
def test_a_loop_in_place_counts_and_stops_where_the_tests_of_pc_do(tmp_path, monkeypatch, limit):
    game = _game(tmp_path)
    code = game.codes["flow"]
    fast, fast_source = _runner(monkeypatch, code, game.codes, True)
    plain, plain_source = _runner(monkeypatch, code, game.codes, False)
    assert fast_source.count("while True:") > plain_source.count("while True:") + 2   # loops in place
    calls = _drive(fast, game, limit)
    assert calls == _drive(plain, game, limit)
    if limit < 1000:
        assert len(calls) > 10   # stopped by the budget inside the loops, again and again


def _steps_or_error(tmp_path, monkeypatch, fast: bool, max_steps: int | None):
    monkeypatch.setattr(fast_paths, "on", lambda: fast)
    spec = {"flow": [{"do": LOOPS}]}
    if max_steps is not None:
        spec["limits"] = {"max_steps": max_steps}
    try:
        game = Game(load(tmp_path, spec), 1)
    except RunawayGameError as exc:
        return str(exc).split("ruleset.yaml:", 1)[1]   # (each load is a folder of its own)
    return game.state.steps


def test_a_game_takes_as_many_steps_and_runs_out_of_them_at_the_same_place(tmp_path, monkeypatch):
    steps = _steps_or_error(tmp_path, monkeypatch, True, None)
    assert steps == _steps_or_error(tmp_path, monkeypatch, False, None)
    for max_steps in (steps - 1, steps // 2, steps // 3 + 1):
        error = _steps_or_error(tmp_path, monkeypatch, True, max_steps)
        assert "did not end" in error
        assert error == _steps_or_error(tmp_path, monkeypatch, False, max_steps)
    assert _steps_or_error(tmp_path, monkeypatch, True, steps) == steps


# a game that ends inside a loop's body that spans several blocks, at an inner loop's round: the runner must
# stop at that statement (its count less the statement after it) and leave pc where the tests of pc leave it
ENDING = """\
total = 0
after = 0
for i in range(9):
  if i % 2 == 0:
    total += 1
  else:
    for j in range(i):
      total += j
      if total > 20:
        end_game(reason="enough")
      after += 1
    after += 100
  after += 10000
"""


def _drive_to_the_end(runner, game, limit: int) -> list:
    """:func:`_drive` until the game is over, as the VM stops there: what each call did, and where it ended."""
    frame = ["flow", 0, {}, None]
    calls = []
    while not game.state.over and len(calls) < 10_000:
        done = runner(game, frame, [frame], limit, game.state.over)
        calls.append((done, frame[1], copy.deepcopy(frame[2])))
    return calls


@pytest.mark.parametrize("limit", [0, 1, 3, 1000])
def test_a_game_that_ends_inside_a_loop_in_place_stops_where_the_tests_of_pc_do(tmp_path, monkeypatch, limit):
    ruleset = load(tmp_path, {"flow": [{"do": ENDING}]})
    runs = {}
    for fast in (True, False):
        monkeypatch.setattr(fast_paths, "on", lambda fast=fast: fast)
        game = Game(ruleset, 1)   # (played to its end at once: a fresh game's block is driven below)
        assert game.state.over
        code = game.codes["flow"]
        game.state.over = None
        runner = execute.compile_code(code, None, game.codes)
        runs[fast] = (_drive_to_the_end(runner, game, limit), linetable.SOURCES[runner.__code__.co_filename])
    (fast_calls, fast_source), (plain_calls, plain_source) = runs[True], runs[False]
    assert fast_source.count("while True:") > plain_source.count("while True:")   # the loop goes round in place
    assert fast_calls == plain_calls
    done, pc, local = fast_calls[-1]
    assert 0 < pc < len(code.instrs) - 1   # inside the loop, not at the block's end
    # it ends at i = 7, j = 3 (total 23), before that round's "after += 1": 7 rounds, 3 inner loops, 12 inner rounds
    assert local["total"] == 23 and local["after"] == 70312


def test_a_game_that_ends_inside_a_loop_in_place_ends_as_with_the_tests_of_pc(tmp_path, monkeypatch):
    ended = []
    for fast in (True, False):
        monkeypatch.setattr(fast_paths, "on", lambda fast=fast: fast)
        game = Game(load(tmp_path, {"flow": [{"do": ENDING}]}), 1)
        ended.append(game.to_json())
    assert ended[0] == ended[1]
    assert "enough" in str(ended[0])
