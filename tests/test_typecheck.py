"""The static types: what `davit validate` reports before any game is played, and what it leaves alone."""
from __future__ import annotations

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
        return [f"{e.code}: {e.message}" for e in getattr(exc, "errors", [exc])]
    return []


@pytest.mark.parametrize("snippet, message", [
    ("total = label + 1", "type: cannot add text and a number"),
    ("total = \"many\"", "type: variable 'total' holds a number; this assigns text"),
    ("label = 3", "type: variable 'label' holds text; this assigns a number"),
    ("if count(deck):\n  total = 1", "type: the condition of an `if` must be true or false, but this is a number"),
    ("while total:\n  total = total - 1", "type: the condition of a `while` must be true or false, but this is a number"),
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
