"""The static types: what `davit validate` reports before any game is played, and what it leaves alone."""
from __future__ import annotations

import re

import pytest
from ruleset_builder import load

from interpreter.errors import DavitError

THINGS = [
    {"id": "passenger", "count": 3, "start": "deck", "attrs": {"value": 2, "cls": "I"}},
    {"id": "boat", "count": 2, "start": "deck", "attrs": {"seats": 4}},
]
BASE = {
    "variables": {"total": {"initial": 0}, "label": {"initial": "none yet"}},
    "zones": [{"id": "deck"}, {"id": "sea"}],
    "things": THINGS,
    "functions": {
        "title": {"value": '"captain"'},
        "best": {"params": ["xs"], "do": "if count(xs) > 0:\n  return 1\nreturn 0"},
        "either": {"params": ["x"], "do": "if x:\n  return 1\nreturn \"one\""},
        "maybe": {"params": ["x"], "do": "if x:\n  return 1"},
    },
}


def _errors(tmp_path, flow_do: str = "pass", **extra) -> list:
    spec = {**BASE, "flow": [{"do": flow_do}], **extra}
    try:
        load(tmp_path, spec)
    except DavitError as exc:
        return [f"{e.code}: {_use_of(e.message)}" for e in getattr(exc, "errors", [exc])]
    return []


def _use_of(message: str) -> str:
    """A mistake blamed on a constant's value names the use in brackets: that part, to compare with."""
    m = re.fullmatch(r"constant '\w+' is .* uses it as .*? \((.*)\)", message, re.S)
    return m.group(1) if m else message


@pytest.mark.parametrize("snippet, message", [
    ("total = label + 1", "type: cannot add text and a number"),
    ("total = \"many\"", "type: variable 'total' holds a number; this assigns text"),
    ("label = 3", "type: variable 'label' holds text; this assigns a number"),
    ("if count(deck):\n  total = 1", "type: the condition of an `if` must be true or false, but this is a number"),
    ("while total:\n  total = total - 1",
     "type: the condition of a `while` must be true or false, but this is a number"),
    ("total = thing(\"boat.1\").value", "unknown-attribute: a 'boat' has no attribute 'value'"),
    ("for p in things(\"passenger\"):\n  total = total + p.seats",
     "unknown-attribute: a 'passenger' has no attribute 'seats'"),
    ("total = top(deck) + 1", "type: '+' needs numbers, not a card or piece"),
    ("total = title()", "type: variable 'total' holds a number; this assigns text"),      # a `value:` function
    ("label = best(players)", "type: variable 'label' holds text; this assigns a number"),  # every return
])
def test_reported(tmp_path, snippet, message):
    found = _errors(tmp_path, snippet)
    assert message in found[0], found


@pytest.mark.parametrize("snippet", [
    "total = thing(\"passenger.1\").value + thing(\"boat.2\").seats",
    "for t in [thing(\"passenger.1\"), thing(\"boat.1\")]:\n  move(t, sea)",  # a list of two kinds is a list of things
    "total = sum([p.value for p in things(\"passenger\")])",
    "label = thing(\"passenger.2\").cls + \"!\"",
    "x = top(deck)\nif x.kind == \"boat\":\n  total = x.seats",          # a thing of unknown kind: not reported
    "total = either(true)\nlabel = either(false)",  # returns a number or a text: unknown
    "label = maybe(true)",                          # may end without a value: unknown
])
def test_not_reported(tmp_path, snippet):
    assert _errors(tmp_path, snippet) == []


@pytest.mark.parametrize("extra, message", [
    ({"end": {"when": "total"}}, "type: the end condition must be a true/false value, but this is a number"),
    ({"end": {"when": "total > 3"}}, None),
    ({"players": {"min": 4, "max": 2}}, "range: players: min 4 is above max 2"),
    ({"player": {"vars": {"hp": {"initial": -1, "min": 0}}}},
     "range: player variable 'hp' starts at -1, outside its range 0..…"),
    ({"player": {"vars": {"hp": {"initial": 3, "min": 0, "max": 5}}}}, None),
])
def test_declarations(tmp_path, extra, message):
    found = _errors(tmp_path, **extra)
    if message is None:
        assert found == []
    else:
        assert message in found[0], found


# -- issue 26: attributes on values of unknown type, constants' types, a variant's constants ------------------

WITH_TABLES = {
    "constants": {"limit": {"by_players": {1: 2, 2: 3, 3: 3}}, "labels": {"low": "few", "high": "many"},
                  "word": {"value": "two"}, "rows": {"by_players": {1: "a", 2: "b"}, "otherwise": "c"}},
    "props": {"things": {"marked": False}},
    "player": {"vars": {"score": {"initial": 0}, "pick": {"initial": None}}},
}


@pytest.mark.parametrize("snippet, message", [
    # nothing in the ruleset declares `chlid`: an error whatever the value is
    ("for t in best_of(deck):\n  total = total + t.vlaue",
     "unknown-attribute: no card, piece, zone or player of this ruleset has an attribute 'vlaue'"),
    ("total = count(best_of(deck), t -> t.vlaue)", "unknown-attribute: no card, piece, zone or player"),
    ("total = count(deck, t -> t.sets)", "unknown-attribute: no card or piece in this ruleset has an attribute 'sets'"),
    ("for x in [1, 2]:\n  total = x.value", "unknown-attribute: a number has no attribute 'value'"),
    # an attribute every declaration types alike has that type, on a value of unknown type too
    ("for t in best_of(deck):\n  total = total + t.kind", "type: cannot add a number and text"),
    ("for t in best_of(deck):\n  label = t.value", "type: variable 'label' holds text; this assigns a number"),
    # constants: by_players rows, {value: …}, tables and their keys
    ("label = limit", "type: variable 'label' holds text; this assigns a number"),
    ("total = word", "type: variable 'total' holds a number; this assigns text"),
    ("total = rows", "type: variable 'total' holds a number; this assigns text"),
    ("label = labels.hihg", "unknown-attribute: this table has no key 'hihg'"),
    ("total = labels[\"low\"]", "type: variable 'total' holds a number; this assigns text"),
    ("total = total + -word", "type: cannot negate text"),
    ("for i in range(word):\n  pass", "type: range() needs a number as its start, but this is text"),
    ("draw(deck, sea, word)", "type: draw() needs a number as its n, but this is text"),
    ("total = [1, 2] - 1", "type: '-' needs numbers, not a list of number"),
    ("if deck == 3:\n  pass", "type: comparing a zone with a number is always false"),
])
def test_reported_without_knowing_the_type(tmp_path, snippet, message):
    functions = {**BASE["functions"], "best_of": {"params": ["xs"], "value": "filter(xs, t -> true)"}}
    found = _errors(tmp_path, snippet, functions=functions, **WITH_TABLES)
    assert found and message in found[0], found


@pytest.mark.parametrize("snippet", [
    "for t in best_of(deck):\n  total = total + t.value + t.seats + count(t.zone) + t.position",
    "for t in best_of(deck):\n  label = t.cls + t.name + t.id",
    "for t in best_of(deck):\n  if t.marked or t.face_up or t.known_to:\n    pass",
    "for p in players:\n  p.pick = none\n  total = total + p.score + p.seat",
    "label = labels.low + labels[\"high\"] + lookup(labels, \"x\", \"?\") + rows + word",
    "total = limit + count(deck) * 2\nfor i in range(limit):\n  draw(deck, sea, limit)",
    "total = count([0] * 3) + count(3 * [1])",
    "for z in [deck, sea]:\n  total = total + z.count",
])
def test_not_reported_without_knowing_the_type(tmp_path, snippet):
    functions = {**BASE["functions"], "best_of": {"params": ["xs"], "value": "filter(xs, t -> true)"}}
    assert _errors(tmp_path, snippet, functions=functions, **WITH_TABLES) == []


def _tutorial_with(tmp_path, variant: str, edits=()):
    """A copy of the tutorial with a variant file `variants/v.yaml` holding ``variant``."""
    import shutil

    from cli_runner import REPO
    folder = tmp_path / "tutorial"
    shutil.copytree(REPO / "rulesets" / "tutorial", folder)
    main = folder / "ruleset.yaml"
    text = main.read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text
        text = text.replace(old, new)
    main.write_text(text, encoding="utf-8")
    if variant:   # (a variant that changes nothing is an error of its own)
        (folder / "variants" / "v.yaml").write_text(f"variant: v\n{variant}", encoding="utf-8")
    return folder


def test_a_variants_constant_of_the_wrong_type_is_reported_at_its_value(tmp_path):
    from interpreter.authoring.validate import validate_paths
    folder = _tutorial_with(tmp_path, 'constants:\n  actions_per_turn: "2"\n  rounds: "six"\n')
    found = [f for f in validate_paths([str(folder)], cache=False) if f.severity == "error"]
    text = "\n".join(f.text() for f in found)
    base = (folder / "ruleset.yaml").read_text(encoding="utf-8").splitlines()
    use = next(i for i, line in enumerate(base, 1) if "current.actions_left = actions_per_turn" in line)
    repeat = next(i for i, line in enumerate(base, 1) if "repeat: rounds" in line)
    where = {(f.file.rsplit("/", 1)[-1], f.line, f.column) for f in found}
    assert where == {("v.yaml", 3, 21), ("v.yaml", 4, 11)}, text
    assert f"constant 'actions_per_turn' is text (\"2\") but {folder / 'ruleset.yaml'}:{use}:" in text, text
    assert "uses it as a number ('actions_left' holds a number; this assigns text)" in text, text
    assert f"constant 'rounds' is text (\"six\") but {folder / 'ruleset.yaml'}:{repeat}:" in text, text
    # the same mistake in the ruleset itself is reported at the constant too, naming the use
    same = _tutorial_with(tmp_path / "b", "", [("  actions_per_turn: 2", '  actions_per_turn: "2"')])
    found = [f for f in validate_paths([str(same)], cache=False) if f.severity == "error"]
    written = next(i for i, line in enumerate(base, 1) if line.startswith("  actions_per_turn:"))
    assert [(f.file.rsplit("/", 1)[-1], f.line) for f in found] == [("ruleset.yaml", written)], found
    assert "uses it as a number" in found[0].message and f"ruleset.yaml:{use}:" in found[0].message


def test_a_choice_drawn_from_a_function_knows_its_attributes(tmp_path):
    """`passenger` comes from a ruleset function whose parameter is unknown: `kind` is text all the same."""
    from interpreter.authoring.validate import validate_paths
    folder = _tutorial_with(tmp_path, "", [("score(player, passenger.points,", "score(player, passenger.kind + 1,")])
    found = [f.text() for f in validate_paths([str(folder)], cache=False)]
    assert len(found) == 1 and "error[type]: cannot add text and a number" in found[0], found


@pytest.mark.slow
def test_strict_fails_on_a_variants_own_warning(tmp_path):
    from cli_runner import davit
    # the variant changes `decks` and the one function that read it: its new value reaches no rule
    folder = _tutorial_with(tmp_path, "constants:\n  decks: [lower, middle]\nfunctions:\n  flood_next_deck:\n"
                                      "    do: |\n      log(\"The water rises\")\n")
    for target in (folder, folder / "variants" / "v.yaml"):
        plain = davit("validate", "--no-cache", str(target))
        strict = davit("validate", "--no-cache", "--strict", str(target))
        assert "v.yaml:3:3: warning[unused]: constant 'decks' is never used" in plain.stdout, plain.stdout
        assert (plain.returncode, strict.returncode) == (0, 1), (plain.stdout, strict.stdout)


@pytest.mark.parametrize("snippet", [
    # what a loop's end assigns is there at its top on the next round
    "x = top(deck)\nwhile total < 3:\n  if x == \"stop\":\n    break\n  x = \"stop\"\n  total += 1",
    "opts = list(deck)\nopts = opts + [\"stop\"]\npick = choose(player(0), opts)\nif pick == \"stop\":\n  pass",
])
def test_loops_and_lists_of_either(tmp_path, snippet):
    assert _errors(tmp_path, snippet) == []


@pytest.mark.parametrize("snippet, message", [
    ("pick = choose(player(0), things(\"boat\"))\ntotal = pick.value", "a 'boat' has no attribute 'value'"),
    ("pick = choose(player(0), [1, 2], label=o -> o.name)", "a number has no attribute 'name'"),
    ("total = count(spaces(s -> s.chlid))", "no zone in this ruleset has an attribute 'chlid'"),
    ("for t in deck:\n  total = t.sets", "no card or piece in this ruleset has an attribute 'sets'"),
])
def test_narrowed_types(tmp_path, snippet, message):
    found = _errors(tmp_path, snippet)
    assert found and message in found[0], found


def test_a_variant_that_extends_a_bundled_ruleset_is_blamed_at_its_constant(tmp_path):
    from interpreter.authoring.validate import validate_paths
    variant = tmp_path / "short.yaml"
    variant.write_text('variant: short\nextends: tutorial\nconstants:\n  actions_per_turn: "2"\n', encoding="utf-8")
    found = validate_paths([str(variant)], cache=False)
    assert [(f.file, f.line, f.column, f.code) for f in found] == [(str(variant), 4, 21, "type")], found
    assert "tutorial/ruleset.yaml:" in found[0].message and "uses it as a number" in found[0].message, found


@pytest.mark.parametrize("snippet, message", [
    ("if total in [\"2\", \"4\"]:\n  pass", "type: looking for a number in a list of text is always false"),
    ("if total in flood:\n  pass", "type: looking for a number in a list of text is always false"),
    ("if 1 in [1, \"a\"] or player(0) in players or top(deck) in [top(deck)] or \"a\" in label:\n  pass", None),
])
def test_looking_for_a_value_in_a_list(tmp_path, snippet, message):
    found = _errors(tmp_path, snippet, constants={"flood": ["2", "4"]})
    assert found == [] if message is None else found and message in found[0], found
