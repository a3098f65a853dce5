"""Functions that read only their arguments, the table and the board keep their answers per board standing.

``distance(s, first(reachable(s), a -> a.gate > 0))`` reads nothing of the
position but the board as it stands (its removed spaces and added links):
its answers are kept with the board's other answers for that standing
(interpreter/dsl/state_free.py, ``Board.kept_answers``). These tests show
which functions the compiler picks and which it must not (a zone's things, a
zone property, where a thing lies), and that an answer follows the board when
a space is removed or a link added, as the function worked out afresh does.
"""
import pytest
from ruleset_builder import load

from interpreter import Game
from interpreter.errors import DavitError
from interpreter.load.limits import MAX_WORK
from interpreter.machine import fast_paths

SPEC = {
    "board": {
        "spaces": [{"id": "a", "attrs": {"gate": 0}}, {"id": "b", "attrs": {"gate": 0}},
                   {"id": "c", "attrs": {"gate": 0}}, {"id": "d", "attrs": {"gate": 2}},
                   {"id": "e", "attrs": {"gate": 1}}],
        "edges": [{"from": "a", "to": "b"}, {"from": "b", "to": "c"}, {"from": "c", "to": "d"},
                  {"from": "c", "to": "e"}],
    },
    "props": {"zones": {"wet": False, "gate": 0}},   # gate declared, set by no rule: read as printed
    "things": [{"id": "pawn", "start": "a"}],
    "functions": {
        "to_gate": {"params": ["s"], "value": "distance(s, first(reachable(s), x -> x.gate > 0))"},
        "gate_space": {"params": ["k"], "value": "first(spaces(s -> s.gate == k))"},
        "gates_near": {"params": ["s"], "value": "count(neighbours(s), n -> n.gate > 0) + 0"},
        # not kept: a zone's things (count of a zone, a lambda's zone), a zone property, where a thing lies
        "busy_near": {"params": ["s"], "value": "any(neighbours(s), n -> count(n) > 0) and true"},
        "first_thing": {"params": ["s"], "value": "first(first(neighbours(s))) == none"},
        "wet_near": {"params": ["s"], "value": "count(neighbours(s), n -> n.wet) + 0"},
        "pawn_to_gate": {"params": ["t"], "value": "distance(t.zone, first(reachable(t.zone), x -> x.gate > 0))"},
        "soak": {"params": ["s"], "do": "s.wet = true"},   # (a property no rule sets would be fixed)
    },
}
KEPT_PER_BOARD = {"to_gate", "gate_space", "gates_near"}
kept_answers = pytest.mark.skipif(not fast_paths.on(), reason="answers are kept only with the fast paths on")


def _kept_per_board(rs):
    return {name for name, info in rs.functions.items()
            if hasattr(info.fast, "__wrapped__") and info.fast.__qualname__.startswith("remembered_per_board")}


@kept_answers
def test_only_functions_of_their_arguments_the_table_and_the_board_are_kept_per_board(tmp_path):
    rs = load(tmp_path, SPEC)
    assert _kept_per_board(rs) == KEPT_PER_BOARD


@kept_answers
def test_a_kept_answer_follows_the_board_as_it_stands(tmp_path):
    rs = load(tmp_path, SPEC)
    game = Game(rs, 1, seed=1)
    zones, board = game.table.zones, game.board
    to_gate, gate_space = rs.functions["to_gate"].fast, rs.functions["gate_space"].fast

    def both(fn, *args):
        kept, afresh = fn(game, *args), fn(game, *args)
        assert kept == afresh == fn.__wrapped__(game, *args)
        return kept

    assert both(to_gate, zones["a"]) == 3 and both(to_gate, zones["b"]) == 2
    assert both(gate_space, 1) == zones["e"]
    board.connect(game, zones["a"], zones["e"], "link", False)   # a link: a is next to a gate now
    assert both(to_gate, zones["a"]) == 1
    board.set_removed(game, zones["e"], True)   # the gate e gone: d is the nearest, reached through c
    assert both(to_gate, zones["a"]) == 3 and both(gate_space, 1) is None
    board.set_removed(game, zones["e"], False)
    assert both(to_gate, zones["a"]) == 1 and both(gate_space, 1) == zones["e"]
    fresh = Game(rs, 1, seed=2)   # another game, its board as printed: the first answers again
    assert to_gate(fresh, zones["a"]) == 3 == to_gate.__wrapped__(fresh, zones["a"])


def _outcome(fn, game, args, start):
    """(answer or error text, work after) of ``fn(game, *args)`` started at work ``start``."""
    game.work = start
    try:
        answer = fn(game, *args)
    except DavitError as exc:
        answer = f"{type(exc).__name__}: {exc}"
    return answer, game.work


@kept_answers
def test_a_kept_function_charges_nothing_found_or_worked_out(tmp_path):
    # the work of a decision does not depend on what was kept before (state_free.uncharged): a budget runs
    # out at the same point whatever ran before, here never inside the kept function
    rs = load(tmp_path, SPEC)
    game = Game(rs, 1, seed=1)
    to_gate, a = rs.functions["to_gate"].fast, game.table.zones["a"]
    spent = _outcome(to_gate.__wrapped__, game, (a,), 0)[1]
    assert spent > 0   # (worked out plainly, it charges)
    for start in range(MAX_WORK - spent - 1, MAX_WORK + 2):   # from room enough to none at all
        game.board.kept_answers(game).clear()
        assert _outcome(to_gate, game, (a,), start) == (3, start), start   # worked out
        assert _outcome(to_gate, game, (a,), start) == (3, start), start   # found
        fresh = _outcome(to_gate.__wrapped__, game, (a,), start)
        assert (start + spent > MAX_WORK) == isinstance(fresh[0], str), start
