"""Each action's generated enumerator (dsl/enumerators.py) lists exactly what the generic walk lists.

At every decision of seeded random games of every bundled ruleset, both are run from the same work
count: the same actions in the same order, the same work charged, and, started so close to the work
budget that it runs out midway, the same error after the same actions. Small rulesets show the same
located errors from domains, costs and conditions, and what the generated path does not cover.
"""
import random

import pytest
from ruleset_builder import load

from interpreter import Game, load_ruleset
from interpreter.dsl import enumerators
from interpreter.errors import DavitError
from interpreter.load.files import bundled_ids, bundled_rulesets_dir, variants_of
from interpreter.load.limits import MAX_WORK
from interpreter.machine import fast_paths
from interpreter.machine.linetable import SOURCES
from interpreter.play import decisions
from interpreter.play.decisions import Action


def listing(g, adef, seat, generated: bool, work: int, pairs: bool = False):
    """(actions, error text, work after) of one enumeration started at ``work``; the game's count is kept.
    ``pairs``: the candidates as ``(name, args)`` (the generated loops handed no maker, the generic walk
    :func:`decisions.candidate`), else :class:`Action` objects."""
    kept, g.work = g.work, work
    found = []
    error = None
    try:
        if generated:
            adef.enumerator(g, seat, found, found.append, None if pairs else Action)
        else:
            decisions.generic(g, adef, seat, found, decisions.candidate if pairs else Action)
    except (DavitError, TypeError) as exc:   # (a TypeError: a cost compared with a value that is no number)
        error = f"{type(exc).__name__}: {exc}"
    after, g.work = g.work, kept
    return found, error, after


def compare_at(g, seat) -> int:
    """Compare both paths for every action offered to ``seat`` now; how many were compared."""
    compared = 0
    for aid in g.state.pending["actions"]:
        adef = g.ruleset.actions[aid]
        assert adef.enumerator is not None, aid
        generated = listing(g, adef, seat, True, 0)
        assert generated == listing(g, adef, seat, False, 0), (aid, seat)
        pairs = listing(g, adef, seat, True, 0, pairs=True)
        assert pairs == listing(g, adef, seat, False, 0, pairs=True), (aid, seat)
        assert pairs[0] == [(a.name, a.args) for a in generated[0]] and pairs[1:] == generated[1:], (aid, seat)
        spent = generated[2]
        if spent > 1:   # run out of budget halfway: the same error after the same actions
            start = MAX_WORK - spent // 2
            short = listing(g, adef, seat, True, start)
            assert short == listing(g, adef, seat, False, start), (aid, seat)
            short = listing(g, adef, seat, True, start, pairs=True)
            assert short == listing(g, adef, seat, False, start, pairs=True), (aid, seat)
        compared += 1
    return compared


def play_comparing(rs, players, seed, decisions_cap=400) -> int:
    g = Game(rs, players, seed=seed, record=False)
    pick = random.Random(seed)
    compared = 0
    for _ in range(decisions_cap):
        if g.is_over:
            break
        pending = g.state.pending
        if pending["kind"] != "choice":
            for seat in decisions.deciding(pending):
                compared += compare_at(g, seat)
        actions = g.legal_actions()
        g.apply(pick.choice(actions))
    return compared


@pytest.mark.parametrize("rid", bundled_ids())
def test_generated_enumerators_list_what_the_generic_walk_lists(rid):
    rs = load_ruleset(rid)
    compared = 0
    for players in sorted({rs.min_players, rs.max_players}):
        for seed in range(5):
            compared += play_comparing(rs, players, seed)
    assert compared > 0


@pytest.mark.slow   # a sweep over every variant (README: the base games stay in the fast tier)
@pytest.mark.parametrize("rid", bundled_ids())
def test_and_in_every_variant(rid):
    """A variant's build takes its base's compiled snippets (dsl/snippet_memo.py); its enumerators are its own."""
    compared = 0
    for variant in sorted(variants_of(bundled_rulesets_dir() / rid / "ruleset.yaml")):
        rs = load_ruleset(rid, variant=variant)
        compared += play_comparing(rs, rs.max_players, 1, decisions_cap=150)
    assert compared > 0 or not variants_of(bundled_rulesets_dir() / rid / "ruleset.yaml")


def test_every_bundled_action_is_generated():
    """What the generated path does not cover is listed here: today nothing in a bundled ruleset."""
    missing = [(rid, aid) for rid in bundled_ids() for aid, adef in load_ruleset(rid).actions.items()
               if adef.enumerator is None]
    assert missing == []


def test_what_the_generated_path_does_not_cover():
    # a choice, cost or condition that is not DSL text (YAML read a number or a list): the generic path
    assert enumerators.uncovered({"choose": {"n": 3}}) is not None
    assert enumerators.uncovered({"choose": {"n": "[1, 2]"}, "cost": {"coins": ["x"]}}) is not None
    assert enumerators.uncovered({"choose": {"n": "[1, 2]"}, "cost": {"coins": 2}, "if": "n > 1"}) is None
    assert enumerators.uncovered({"if": [{"when": "true"}, {"when": 1}]}) is not None


def test_with_the_fast_paths_off_every_action_takes_the_generic_path(monkeypatch, tmp_path):
    monkeypatch.setattr(fast_paths, "on", lambda: False)
    rs = load(tmp_path, {"actions": [{"id": "pick", "choose": {"n": "[1, 2, 3]"}, "if": "n > 1"}]})
    assert rs.actions["pick"].enumerator is None


ERRORS = {
    "variables": {"word": None},
    "player": {"vars": {"coins": 2}},
    "actions": [
        {"id": "bad_domain", "choose": {"n": "3 if word == none else [1]"}},
        {"id": "bad_condition", "choose": {"n": "[1, 2]", "m": "[n, n + 1]"}, "if": "n + (word + 1) > 0"},
        {"id": "bad_cost", "choose": {"n": "[1, 2]"}, "cost": {"coins": "n + (word + 1)"}},
        {"id": "bad_later_condition", "choose": {"n": "[1, 2]"},
         "if": [{"when": "n > 0"}, {"when": "n > 1 and word + 1 > 0"}]},
        # an independent domain is worked out when first needed: after an empty one, never (no error)
        {"id": "lazy", "choose": {"n": "[]", "m": "3 if word == none else [1]"}},
        # comprehension and lambda variables shadow a choice of the same name
        {"id": "shadow", "choose": {"n": "[1, 2]", "m": "[n * 10 for n in [3, 4]]"},
         "if": "any([n], n -> n > 1) and m > 30"},
        {"id": "fine", "choose": {"n": "[1, 2, 3]", "m": "[4, 5]"}, "cost": {"coins": "n"},
         "if": [{"when": "n != m"}, {"when": "m > n + 1"}]},
    ],
}


def test_errors_name_the_same_rule_on_both_paths(tmp_path):
    rs = load(tmp_path, ERRORS)
    g = Game(rs, 1, seed=1, record=False)
    seen = {}
    for aid, adef in rs.actions.items():
        assert adef.enumerator is not None, aid
        generated = listing(g, adef, 0, True, 0)
        assert generated == listing(g, adef, 0, False, 0), aid
        seen[aid] = generated
    for aid in ("bad_domain", "bad_condition", "bad_cost"):
        assert seen[aid][1] is not None and "ruleset.yaml:" in seen[aid][1], seen[aid]
    assert "a list or a zone" in seen["bad_domain"][1]
    assert "TypeError" in seen["bad_condition"][1]
    # n = 1 fails the second condition before its faulty half: the error comes at n = 2
    assert seen["bad_later_condition"][1] is not None and "TypeError" in seen["bad_later_condition"][1]
    assert seen["lazy"] == ([], None, 0)
    assert [dict(a.args) for a in seen["shadow"][0]] == [{"n": 2, "m": 40}] and seen["shadow"][1] is None
    fine, error, _ = seen["fine"]
    assert error is None and [dict(a.args) for a in fine] == [{"n": 1, "m": 4}, {"n": 1, "m": 5},
                                                                  {"n": 2, "m": 4}, {"n": 2, "m": 5}]


KEPT = {
    "variables": {"word": None},
    "actions": [
        # conditions that read no choice: asked at the first candidate, then their answer and work kept
        {"id": "walks", "choose": {"n": "[1, 2, 3]", "m": "[4, 5]"},
         "if": [{"when": "m > n + 1"}, {"when": "count(filter([1, 2, 3, 4], x -> x > 1)) > 2"}]},
        {"id": "never", "choose": {"n": "[1, 2, 3]"}, "if": "count(filter([1, 2, 3], x -> x > 0)) > 3"},
        {"id": "faulty", "choose": {"n": "[1, 2]"}, "if": "n > 1 and true or word + 1 > 0"},
        {"id": "faulty_alone", "choose": {"n": "[1, 2]"}, "if": "word + 1 > 0"},
    ],
}


def test_a_condition_that_reads_no_choice_answers_and_charges_as_asked_each_time(tmp_path):
    rs = load(tmp_path, KEPT)
    g = Game(rs, 1, seed=1, record=False)
    seen = {}
    for aid, adef in rs.actions.items():
        generated = listing(g, adef, 0, True, 0)
        assert generated == listing(g, adef, 0, False, 0), aid
        seen[aid] = generated
        spent = generated[2]
        # started at every point from where the budget cannot run out to where it runs out at once
        for start in range(MAX_WORK - spent - 1, MAX_WORK + 1):
            assert listing(g, adef, 0, True, start) == listing(g, adef, 0, False, start), (aid, start)
    walks, error, spent = seen["walks"]
    assert error is None and [(a.arg("n"), a.arg("m")) for a in walks] == [(1, 4), (1, 5), (2, 4), (2, 5), (3, 5)]
    assert seen["never"][:2] == ([], None) and seen["never"][2] > 3   # charged at each of the three candidates
    assert "TypeError" in seen["faulty_alone"][1]


def test_a_condition_that_uses_a_kept_answer_answers_and_charges_as_the_generic_path(tmp_path):
    # far() reads its argument alone: its answer is kept on the table at its first call (dsl/state_free.py),
    # worked out uncharged, and found later; the generated path (which keeps the condition's answer and work
    # from the first candidate) must charge as the generic one does
    spec = {"functions": {"far": {"params": ["n"], "value": "abs(n - 3) + abs(n + 1)"},
                          "near": {"params": ["n"], "value": "far(n) + 1"}},
            "actions": [{"id": "asks", "choose": {"n": "[1, 2, 3]"}, "if": "near(2) > 0"}]}
    outcomes = []
    for generated in (True, False):   # each on a table of its own, so that both start with nothing kept
        g = Game(load(tmp_path, spec), 1, seed=1, record=False)
        outcomes.append(listing(g, g.ruleset.actions["asks"], 0, generated, 0))
    assert outcomes[0] == outcomes[1] and len(outcomes[0][0]) == 3


def test_a_condition_that_uses_an_answer_kept_with_the_board_answers_and_charges_as_the_generic_path(tmp_path):
    # gated() reads its argument and the board alone: its answer is kept with the board as it stands
    # (dsl/state_free.py's remembered_per_board), as above
    spec = {"board": {"spaces": [{"id": "a", "attrs": {"gate": 0}}, {"id": "b", "attrs": {"gate": 0}},
                                 {"id": "c", "attrs": {"gate": 1}}],
                      "edges": [{"from": "a", "to": "b"}, {"from": "b", "to": "c"}]},
            "functions": {"gated": {"params": ["s"], "value": "distance(s, first(reachable(s), x -> x.gate > 0))"}},
            "actions": [{"id": "asks", "choose": {"n": "[1, 2, 3]"}, "if": "gated(a) > 0"}]}
    outcomes = []
    for generated in (True, False):   # each ruleset with a board of its own, so that both start with nothing kept
        g = Game(load(tmp_path, spec), 1, seed=1, record=False)
        outcomes.append(listing(g, g.ruleset.actions["asks"], 0, generated, 0))
    assert outcomes[0] == outcomes[1] and len(outcomes[0][0]) == 3


COSTS = {
    "variables": {"word": None},
    "player": {"vars": {"coins": 2, "gems": 1}},
    "actions": [
        # numbers as costs, conditions that change nothing: the costs asked once before each walk of the last list
        {"id": "one", "choose": {"n": "[1, 2, 3]"}, "cost": {"coins": 2}},
        {"id": "two", "choose": {"n": "[1, 2]", "m": "[n, n + 1]"}, "cost": {"coins": 1, "gems": 1},
         "if": "m > 1"},
        {"id": "empty_first", "choose": {"n": "[]", "m": "3 if word == none else [1]"}, "cost": {"coins": 3}},
        {"id": "empty_last", "choose": {"n": "[1, 2]", "m": "[]"}, "cost": {"coins": 1}, "if": "word + 1 > 0"},
        {"id": "faulty", "choose": {"n": "[1, 2]"}, "cost": {"coins": 1}, "if": "n > 1 and word + 1 > 0"},
        {"id": "bad_domain", "choose": {"n": "3 if word == none else [1]"}, "cost": {"coins": 5}},
    ],
}


@pytest.mark.parametrize("coins", [0, 1, 2, 3, "rich", None])
def test_costs_asked_once_a_walk_answer_and_charge_as_the_generic_path(tmp_path, coins):
    rs = load(tmp_path, COSTS)
    g = Game(rs, 1, seed=1, record=False)
    g.state.pvars[0]["coins"] = coins   # also a value that cannot be compared: the same error at the same point
    outcomes = {}
    for aid, adef in rs.actions.items():
        assert adef.enumerator is not None, aid
        for pairs in (False, True):
            generated = listing(g, adef, 0, True, 0, pairs)
            assert generated == listing(g, adef, 0, False, 0, pairs), (aid, coins)
            for start in range(MAX_WORK - generated[2] - 1, MAX_WORK + 1):
                assert listing(g, adef, 0, True, start, pairs) == listing(g, adef, 0, False, start, pairs), \
                    (aid, coins, start)
        outcomes[aid] = generated
    sources = [text for text in SOURCES.values() if "'two'" in text and "and not g.state.pvars" in text]
    assert sources, "the costs of 'two' are asked per candidate"
    if coins == 3:
        assert len(outcomes["one"][0]) == 3 and len(outcomes["two"][0]) == 3
    if coins == 0:
        assert outcomes["one"][0] == [] and outcomes["two"][0] == [] and outcomes["two"][2] > 2
    if coins == "rich":
        assert "TypeError" in outcomes["one"][1] and outcomes["empty_first"][1] is None
        assert outcomes["empty_last"][1] is None
    assert "a list or a zone" in outcomes["bad_domain"][1]
