"""A call of a function whose answers are kept looks the answer up in place (dsl/inline_calls.py, ``called``).

The generated call site reads the table's kept answers under the key the
function's own wrapper keeps them under (``state_free.remembered``) and calls
the wrapper only on a miss. These tests show that it finds what the wrapper
kept, and only that: never for an argument of another class (``true`` is not
``1``), never failing on an argument no key can hold (a list); that the work
charged is what the wrapper charges, hit or miss; and that a second call with
the same arguments in the same expression reuses the first lookup only where
that lookup found the answer (a full store keeps nothing: each call charges).
"""
import pytest
from ruleset_builder import load

from interpreter import Game
from interpreter.dsl import state_free
from interpreter.machine import fast_paths

SPEC = {
    "variables": {"got": []},
    "functions": {
        "label": {"params": ["x"], "value": "'#' + text(x)"},
        "show": {"params": ["x"], "value": "label(x)"},              # one call: not kept, the site is its body
        "show_next": {"params": ["x"], "value": "label(x + 1)"},     # an argument worked out at the site
        "twice": {"params": ["x"], "value": "label(x) + label(x)"},  # the same call twice
        "pair": {"params": ["a", "b"], "value": "text(a) + '/' + text(b)"},
        "show_pair": {"params": ["a"], "value": "pair(a, 'x')"},
        "zero": {"params": ["x"], "value": "abs(x - x)"},                  # a false answer, kept
        "walked": {"params": ["x"], "value": "[y for y in [zero(x), label(x)]]"},   # calls where `:=` is refused
        # the same call again: in lambdas, a loop function, a comprehension, a branch
        "again": {"params": ["x"], "value": "[label(x), any([1, 2], y -> label(x) == '#' + text(y)), "
                                            "count(filter([1, 2], y -> label(x) != '')), "
                                            "first([3, 4], y -> label(y) == label(x) and label(x) != ''), "
                                            "[label(x) for z in [1] if label(x) != ''], "
                                            "label(x) if label(x) == '#2' else pair(x, label(x))]"},
    },
    "flow": [{"do": "got = [show(1), show(true), show(1), show(1.0), show([1, 'a']), twice(2), show_pair(3), "
                    "show_next(4), twice(2), walked(6), again(2), again(3), again(2)]"}],
}
kept_answers = pytest.mark.skipif(not fast_paths.on(), reason="answers are kept only with the fast paths on")


def _site(rs, name):
    """The compiled body of ``name``, whose only call site is what is tested (unwrapped if its answers are kept)."""
    fast = rs.functions[name].fast
    return getattr(fast, "__wrapped__", fast)


def test_call_sites_answer_as_the_functions_do(tmp_path):
    # in both modes: with the fast paths off nothing is kept and every call works its answer out
    game = Game(load(tmp_path, SPEC), 1, seed=1)
    assert game.state.vars["got"] == ["#1", "#true", "#1", "#1.0", "#[1, a]", "#2#2", "3/x", "#5", "#2#2", [0, "#6"],
                                        ["#2", True, 2, None, ["#2"], "#2"], ["#3", False, 2, 3, ["#3"], "3/#3"],
                                        ["#2", True, 2, None, ["#2"], "#2"]]


@kept_answers
def test_a_site_reads_what_the_wrapper_kept_and_only_for_its_class(tmp_path):
    rs = load(tmp_path, SPEC)
    game = Game(rs, 1, seed=1)
    label, show = rs.functions["label"].fast, _site(rs, "show")
    kept = game.table.kept_answers
    assert kept[(label, 1)] == "#1" and kept[(rs.functions["pair"].fast, 3, "x")] == "3/x"
    kept[(label, 7)] = "planted"   # a site finds an answer under the wrapper's own key, without working it out
    assert show(game, 7) == "planted" and _site(rs, "show_pair")(game, 3) == "3/x"
    # true and 7.0 equal 1 and 7 in Python, but are never looked up: worked out afresh, and not kept
    kept[(label, 1)] = "planted too"
    assert [show(game, True), show(game, 7.0)] == ["#true", "#7.0"]
    assert (label, True) not in [key for key in kept if key[1] is True] and len(kept) == len(set(kept))


@kept_answers
def test_a_site_given_a_list_works_the_answer_out(tmp_path):
    rs = load(tmp_path, SPEC)
    game = Game(rs, 1, seed=1)
    before = dict(game.table.kept_answers)
    show = _site(rs, "show")
    assert show(game, [1, "a"]) == rs.functions["label"].fast.__wrapped__(game, [1, "a"]) == "#[1, a]"
    assert _site(rs, "show_next")(game, 4) == "#5"
    assert game.table.kept_answers == before   # (label(5) was kept by the flow already)


def _work(game, fn, *args):
    before = game.work
    fn(game, *args)
    return game.work - before


@kept_answers
def test_a_site_charges_what_the_wrapper_charges(tmp_path):
    rs = load(tmp_path, SPEC)
    game = Game(rs, 1, seed=1)
    label, show = rs.functions["label"].fast, _site(rs, "show")
    game.table.kept_answers.clear()
    miss, hit = _work(game, label, 40), _work(game, label, 40)   # the wrapper itself, then a site
    # found or worked out, a kept function charges nothing (state_free.uncharged), though it does work
    assert miss == hit == 0 and _work(game, label.__wrapped__, 40) > 0
    # `show` charges one unit itself (it calls a ruleset function), then what the wrapper would
    assert (_work(game, show, 41), _work(game, show, 41), _work(game, show, 40)) == (1 + miss, 1 + hit, 1 + hit)


@kept_answers
@pytest.mark.parametrize("room", [True, False])
def test_the_same_call_twice_charges_as_two_calls(tmp_path, monkeypatch, room):
    rs = load(tmp_path, SPEC)
    game = Game(rs, 1, seed=1)
    label, twice = rs.functions["label"].fast, _site(rs, "twice")
    game.table.kept_answers.clear()
    if not room:
        monkeypatch.setattr(state_free, "MAX_KEPT", 0)   # nothing is kept: the second call is a miss too
    miss, second = _work(game, label, 50), _work(game, label, 50)
    game.table.kept_answers.clear()
    charged = _work(game, twice, 50)
    # `twice` calls a ruleset function (one unit) and joins two texts (their length)
    assert charged == 1 + miss + second + len("#50#50")
    assert miss == second == 0   # kept or not (no room), worked out uncharged (state_free.uncharged)
    assert bool(game.table.kept_answers) == room
    assert _work(game, twice, 50) == 1 + 2 * second + len("#50#50")   # both found, or both worked out


@kept_answers
def test_a_site_in_a_comprehensions_source_charges_what_the_wrapper_charges(tmp_path):
    # no `:=` there: a true answer found is taken, a false one (0) is found again by the wrapper
    rs = load(tmp_path, SPEC)
    game = Game(rs, 1, seed=1)
    zero, label, walked = rs.functions["zero"].fast, rs.functions["label"].fast, _site(rs, "walked")
    game.table.kept_answers.clear()
    misses = _work(game, zero, 7) + _work(game, label, 7)
    hits = _work(game, zero, 7) + _work(game, label, 7)
    game.table.kept_answers.clear()
    # one unit for calling ruleset functions, two for the items walked, then what the wrapper charges
    assert [_work(game, walked, 7), _work(game, walked, 7)] == [1 + 2 + misses, 1 + 2 + hits]
    assert walked(game, 7) == [0, "#7"] and game.table.kept_answers[(zero, 7)] == 0
