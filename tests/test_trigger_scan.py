"""The generated scan of the triggers and the end (dsl/trigger_scan.py) answers what the generic look answers.

At every settle of seeded random games of every bundled ruleset, both are run from the same work count: the
same trigger and item (or the end, or nothing), the same work charged, and, started so close to the work
budget that it runs out midway, the same error. Small rulesets show the same located errors from a
condition, a source and an item of another class than the checker expects, and the switch that turns the
scan off.
"""
import random

import pytest
from ruleset_builder import load, load_text

from interpreter import Game, load_ruleset
from interpreter.dsl.compiler import Compiler
from interpreter.dsl.trigger_scan import Entry, settle_scan
from interpreter.errors import DavitError
from interpreter.load.files import bundled_ids, bundled_rulesets_dir, variants_of
from interpreter.load.limits import MAX_WORK
from interpreter.machine import fast_paths
from interpreter.play.game import Game as GameClass


def looked(g, generated: bool, work: int):
    """(answer, error text, work after) of one look started at ``work``; the game's count is kept."""
    kept, g.work = g.work, work
    answer = error = None
    try:
        answer = g.ruleset.settle_scan(g) if generated else g.first_to_fire()
    except DavitError as exc:
        error = f"{type(exc).__name__}: {exc}"
    except Exception as exc:   # an error outside the snippets is left unlocated by both (the VM locates it)
        error = f"{type(exc).__name__}: {exc}"
    after, g.work = g.work, kept
    if answer is not None:
        trigger, item = answer
        answer = (trigger.id if trigger is not None else "end", item)
    return answer, error, after


def compare_now(g, seen: dict) -> None:
    if g.ruleset.settle_scan is None:   # nothing to look at: settle makes no call, there is no scan to compare
        return
    generated = looked(g, True, 0)
    assert generated == looked(g, False, 0)
    spent = generated[2]
    if spent > 1:   # run out of budget halfway: the same error at the same place
        start = MAX_WORK - spent // 2
        short = looked(g, True, start)
        assert short == looked(g, False, start)
        assert short[1] is not None and "WorkBudgetError" in short[1]
    what = generated[0][0] if generated[0] is not None else None   # a trigger's id, "end" or None
    seen[what] = seen.get(what, 0) + 1


@pytest.fixture
def comparing(monkeypatch):
    """Every settle of every game compares both looks first; the counts of what they answered."""
    seen: dict = {}
    settle = GameClass.settle

    def compared_settle(self, stack):
        compare_now(self, seen)
        return settle(self, stack)
    monkeypatch.setattr(GameClass, "settle", compared_settle)
    return seen


def play(rs, players, seed, cap=400):
    g = Game(rs, players, seed=seed, record=False)
    pick = random.Random(seed)
    for _ in range(cap):
        if g.is_over:
            break
        g.apply(pick.choice(g.legal_actions()))


@pytest.mark.parametrize("rid", bundled_ids())
def test_the_scan_answers_what_the_generic_look_answers(rid, comparing):
    rs = load_ruleset(rid)
    if rs.settle_scan is None:
        assert not rs.triggers and rs.end_when is None, "only a ruleset with nothing to look at has no scan"
        return
    for players in sorted({rs.min_players, rs.max_players}):
        for seed in range(4):
            play(rs, players, seed)
    assert sum(comparing.values()) > 0
    if rs.triggers:   # triggers fired at some of those positions, one over items among them
        assert any(comparing.get(t.id, 0) > 0 for t in rs.triggers if t.source is not None), comparing
        assert any(comparing.get(t.id, 0) > 0 for t in rs.triggers if t.source is None), comparing


@pytest.mark.slow   # a sweep over every variant (README: the base games stay in the fast tier)
@pytest.mark.parametrize("rid", bundled_ids())
def test_and_in_every_variant(rid, comparing):
    """A variant's build takes its base's compiled snippets (dsl/snippet_memo.py); its scan is its own."""
    scanned = 0   # variants with something to look at
    for variant in sorted(variants_of(bundled_rulesets_dir() / rid / "ruleset.yaml")):
        rs = load_ruleset(rid, variant=variant)
        assert rs.settle_scan is not None or (not rs.triggers and rs.end_when is None), variant
        scanned += rs.settle_scan is not None
        play(rs, rs.max_players, 1, cap=150)
    assert sum(comparing.values()) > 0 or not scanned


def test_every_bundled_ruleset_with_triggers_or_an_end_is_scanned():
    missing = [rid for rid in bundled_ids() if load_ruleset(rid).settle_scan is None
               and (load_ruleset(rid).triggers or load_ruleset(rid).end_when is not None)]
    assert missing == []


ERRORS = """
id: unit
players: {min: 1, max: 2}
variables: {n: 0, word: null}
zones:
  - {id: pile}
  - {id: heap}
functions:
  piles:
    value: "[pile, heap] if n != 3 else [pile, none]"
  counts:
    value: "[1, 2] if n != 2 else 3"
triggers:
  - id: over_zones
    for: "z in [pile, heap]"
    when: "z.count > 0 and n > 0"
  - id: over_a_function
    for: "z in piles()"
    when: "not z.empty or n == 4"
    do: "n = 5"
  - id: plain
    when: "n == 1 and word + 1 > 0"
  - id: over_numbers
    for: "k in counts()"
    when: "k > 5 or n == 6"
    do: "n = 7"
flow:
  - do: pass
end:
  when: "n >= 10"
"""


def test_errors_and_answers_are_the_same_on_both_looks(tmp_path):
    rs = load_text(tmp_path, ERRORS)
    assert rs.settle_scan is not None
    g = Game(rs, 1, seed=1, record=False)
    answers = {}
    for n in range(12):
        g.state.vars["n"] = n
        generated = looked(g, True, 0)
        assert generated == looked(g, False, 0), n
        answers[n] = generated
    assert answers[0] == (None, None, answers[0][2])   # nothing fires, nothing fails
    # a condition's error, at its place in the file
    assert answers[1][1] is not None and "TypeError" in answers[1][1] and "ruleset.yaml:" in answers[1][1]
    # items that are not a list: left to the caller (the VM locates it at the step), the same on both
    assert answers[2][1] is not None and answers[2][0] is None
    # an item of another class than the checker expects (none among zones): the trigger's own condition
    # reads it, and its error names the same place
    assert answers[3][1] is not None and "ruleset.yaml:" in answers[3][1]
    assert answers[4][0] == ("over_a_function", g.table.zones["pile"])
    assert answers[6][0] == ("over_numbers", 1)
    assert answers[10][0] == ("end", None) and answers[11][0] == ("end", None)


def test_an_item_of_another_class_takes_the_trigger_s_own_condition(tmp_path):
    """The same trigger scanned three ways: its items' class expected (and had), none expected (every read
    tests the class), another expected (each item is handed to the trigger's compiled condition): the same
    answers, work and errors at every position."""
    rs = load_text(tmp_path, ERRORS)
    trigger = next(t for t in rs.triggers if t.id == "over_a_function")
    when = next(t["when"] for t in rs.data["triggers"] if t["id"] == "over_a_function")   # with its place
    scans = [settle_scan(Compiler(rs.env), [Entry(trigger, when, "piles()", kind)], None)
             for kind in ("zone", None, "player")]
    assert all(scan is not None for scan in scans)
    g = Game(rs, 1, seed=1, record=False)
    answers = []
    for n in range(6):
        g.state.vars["n"] = n
        seen = []
        for scan in scans:
            g.work = 0
            try:
                seen.append((scan(g), None, g.work))
            except DavitError as exc:
                seen.append((None, str(exc), g.work))
        assert seen[0] == seen[1] == seen[2], n
        answers.append(seen[0])
    assert answers[4][0] == (trigger, g.table.zones["pile"])
    assert answers[3][1] is not None and "ruleset.yaml:" in answers[3][1]   # none.empty, at its place
    assert answers[0][:2] == (None, None)


def test_a_firing_settle_fires_the_same_trigger_with_the_item(tmp_path):
    flow = "flow:\n  - do: n = 4\n  - do: n = 6\n  - do: n = 10"
    rs = load_text(tmp_path, ERRORS.replace("flow:\n  - do: pass", flow))
    g = Game(rs, 1, seed=1)
    assert [e["id"] for e in g.log if e.get("e") == "trigger"] == ["over_a_function", "over_numbers"]
    assert g.is_over and g.state.vars["n"] == 10


def test_with_the_fast_paths_off_every_settle_takes_the_generic_look(monkeypatch, tmp_path):
    monkeypatch.setattr(fast_paths, "on", lambda: False)
    rs = load(tmp_path, {"variables": {"n": 0}, "triggers": [{"id": "t", "when": "n > 0", "do": "n = 0"}],
                         "end": {"when": "n > 5"}})
    assert rs.settle_scan is None and rs.triggers


def test_a_changed_copy_with_other_triggers_is_not_scanned(tmp_path):
    rs = load(tmp_path, {"variables": {"n": 0}, "end": {"when": "n > 5"}})
    assert rs.settle_scan is not None
    assert rs.changed(end_when=None).settle_scan is None
    assert rs.changed(max_decisions=300).settle_scan is rs.settle_scan


KEPT = """
id: kept
players: {min: 1, max: 2}
variables: {n: 0}
zones:
  - {id: pile}
  - {id: heap}
functions:
  piles:
    value: "[pile, heap]"
triggers:
  - id: over_a_list_of_zones
    for: "z in piles()"
    when: "n == 2 and z.empty or n == 3 and z.id == 'heap'"
flow:
  - do: pass
"""


def test_a_list_of_zone_names_is_kept_with_its_table(tmp_path):
    """Items that a list written out of zone names (here a function's body) proves zones: the list is made
    once per table, so games of two tables taken in turn each answer with their own zones, as the generic look
    does, and charge the same work."""
    rs = load_text(tmp_path, KEPT)
    games = [Game(rs, players, seed=1, record=False) for players in (1, 2, 1)]
    assert games[0].table is not games[1].table
    for n in (0, 2, 3, 2, 0, 3):
        for g in games:
            g.state.vars["n"] = n
            generated = looked(g, True, 0)
            assert generated == looked(g, False, 0), n
            if n:
                zone = g.table.zones["pile" if n == 2 else "heap"]
                assert generated[0] == ("over_a_list_of_zones", zone) and generated[0][1] is zone
            else:
                assert generated[0] is None
