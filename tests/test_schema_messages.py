"""Schema errors read as davit's sentences at the right place (issue 26, deliverable 7).

Each broken input below holds one problem. `davit validate` must report it as one finding, in the
right file, at the offending key or value (the `at` text: its first occurrence in the file), with a
plain message: no jsonschema phrases ("is not of type", "is not valid under any of the given schemas",
...), no Python reprs (True, None, {'a': 1}).
"""
from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass

import pytest
from cli_runner import REPO
from cli_runner import run as _run

RAW = re.compile(r"is not of type|is not valid under|valid under each|is a required property|is not one of|"
                 r"Additional properties|were unexpected|does not match|is too (short|long)|should be non-empty|"
                 r"is less than|is greater than|\b(True|False|None)\b|\{'|\['|'\]|'\}")

RULESET = (REPO / "tests" / "invalid" / "schema-unknown-key" / "ruleset.yaml").read_text().replace(
    "    capacty: 4\n", "    capacity: 4\n").replace("id: schema-unknown-key\n", "id: base\n")
VARIANT = "variant: short\ndescription: Two rounds.\nflow:\n  - repeat: 2\n    steps: [{do: pass}]\n"
SCENARIO = "scenario: takes\nplayers: 2\nsteps:\n  - act: {player: 0, action: take}\n  - expect: count(bank) == 1\n"


@dataclass(frozen=True)
class Broken:
    name: str
    file: str          # ruleset.yaml, variants/short.yaml or scenarios/takes.yaml
    old: str           # the good text replaced ...
    new: str           # ... by this broken one
    at: str            # the finding points at the first occurrence of this text in the broken file
    words: str         # a part of the message
    hint: str | None = None
    after: bool = False  # the finding points just after `at` (where an empty value is)


def _r(name, old, new, at, words, hint=None, after=False):
    return Broken(name, "ruleset.yaml", old, new, at, words, hint, after)


ADD = "zones:\n"   # new sections go in front of this line of the ruleset

CASES = [
    # misspelt keys, at several depths, also inside anyOf / oneOf / if-then alternatives
    _r("top-level key", "end:\n", "endd:\n", "endd", "unknown key 'endd'", "did you mean 'end'?"),
    _r("variable spec (anyOf)", ADD, "variables:\n  x: {intial: 0}\n" + ADD, "intial",
       "variables.x: unknown key 'intial'", "did you mean 'initial'?"),
    _r("constant by players (if-then-oneOf)", ADD,
       "constants:\n  c: {by_players: {2: 1}, otherwise: 3, sourc: p. 2}\n" + ADD, "sourc",
       "constants.c: unknown key 'sourc'", "did you mean 'source'?"),
    _r("constant with value (if-then-oneOf)", ADD, "constants:\n  c: {value: 3, descripton: x}\n" + ADD,
       "descripton", "constants.c: unknown key 'descripton'", "did you mean 'description'?"),
    _r("player counter (anyOf)", "score: {initial: 0}", "score: {intial: 0}", "intial",
       "player.vars.score: unknown key 'intial'", "did you mean 'initial'?"),
    _r("function (allOf, if-then)", ADD, "functions:\n  f: {paramz: [a], value: a + 1}\n" + ADD, "paramz",
       "functions.f: unknown key 'paramz'", "did you mean 'params'?"),
    _r("function with do (said once)", ADD, "functions:\n  f: {paramz: [a], do: pass}\n" + ADD, "paramz",
       "functions.f: unknown key 'paramz'", "did you mean 'params'?"),
    _r("player count key", ADD, "constants:\n  c: {by_players: {two: 1}}\n" + ADD, "two",
       "constants.c.by_players: the key 'two' is not allowed here", "a player count: a whole number, 1 or more"),
    _r("action", "    if: count(pile) > 0\n", "    iff: count(pile) > 0\n", "iff", "actions[0]: unknown key 'iff'",
       "did you mean 'if'?"),
    _r("condition list item (anyOf)", "    if: count(pile) > 0\n",
       "    if: [{when: count(pile) > 0, reasn: empty}]\n", "reasn", "actions[0].if[0]: unknown key 'reasn'",
       "did you mean 'reason'?"),
    _r("flow step (oneOf), three deep", "- each_player: current", "- each_playr: current", "each_playr",
       "flow[0].steps[0]: unknown key 'each_playr'", "did you mean 'each_player'?"),
    _r("turn, four deep", "actions: [take]}", "actons: [take]}", "actons",
       "flow[0].steps[0].steps[0].turn: unknown key 'actons'", "did you mean 'actions'?"),
    # YAML booleans, numbers and nulls where a DSL snippet or text is expected
    _r("boolean for a condition", "  - repeat: 3\n", "  - while: true\n", "true",
       '`flow[0].while` needs a DSL condition in quotes, but YAML read true as a boolean: write "true" in quotes'),
    _r("yes for a condition", "when: count(pile) == 0", "when: yes", "yes",
       '`end.when` needs a DSL condition in quotes, but YAML read yes as a boolean (true): write "yes" in quotes'),
    _r("number for statements", "do: |\n      move(top(pile), bank)\n      score(player, 1)", "do: 5", "5",
       '`actions[0].do` needs DSL statements in quotes, but YAML read 5 as a number: write "5" in quotes'),
    _r("boolean for an expression", "  - id: take\n", "  - id: take\n    choose: {c: false}\n", "false",
       "`actions[0].choose.c` needs a DSL expression in quotes, but YAML read false as a boolean"),
    _r("number for text", "  - id: take\n", "  - id: take\n    label: 12\n", "12",
       '`actions[0].label` needs text in quotes, but YAML read 12 as a number: write "12" in quotes'),
    _r("empty condition", "when: count(pile) == 0", "when:", "when:",
       "`end.when` needs a DSL condition, but YAML read an empty value (null)", after=True),
    # other wrong types, a bad enum value, a number out of range
    _r("list where a mapping is expected", "    score: {initial: 0}\n", "    - score\n", "- score",
       "`player.vars` needs a mapping (`key: value` lines), but it is a list"),
    _r("mapping where a list is expected", "zones:\n  - id: pile\n  - id: bank\n    capacity: 4\n",
       "zones:\n  pile: {}\n  bank: {}\n", "pile: {}", "`zones` needs a list, but it is a mapping"),
    _r("text where a number is expected", "{min: 2, max: 3}", "{min: two, max: 3}", "two",
       "`players.min` needs a whole number, but it is the text 'two'"),
    _r("bad enum value", "    capacity: 4\n", "    capacity: 4\n    visibility: secret\n", "secret",
       "`zones[1].visibility` is 'secret'; it must be one of: everyone, owner, nobody"),
    _r("number below its minimum", "repeat: 3", "repeat: -1", "-1", "`flow[0].repeat` is -1, but must be at least 0"),
    _r("misspelt key of a loop", "    steps:\n      - each_player", "    steeps:\n      - each_player", "steeps",
       "flow[0]: unknown key 'steeps'", "did you mean 'steps'?"),
    # variants and scenarios
    Broken("variant key", "variants/short.yaml", "description:", "descripton:", "descripton",
           "unknown key 'descripton'", "did you mean 'description'?"),
    Broken("variant flow step", "variants/short.yaml", "repeat: 2", "repeat: true", "true",
           "`flow[0].repeat` needs a whole number or a DSL expression in quotes, but YAML read true as a boolean"),
    Broken("scenario step", "scenarios/takes.yaml", "{player: 0, action: take}",
           "{player: 0, acton: take}", "acton", "steps[0].act: unknown key 'acton'", "did you mean 'action'?"),
    Broken("scenario expectation", "scenarios/takes.yaml", "expect: count(bank) == 1", "expect: [true]", "true",
           '`steps[1].expect[0]` needs a DSL condition in quotes, but YAML read true as a boolean'),
]


def _write(tmp_path, case: Broken):
    folder = tmp_path / "game"
    (folder / "variants").mkdir(parents=True)
    (folder / "scenarios").mkdir()
    files = {"ruleset.yaml": RULESET, "variants/short.yaml": VARIANT, "scenarios/takes.yaml": SCENARIO}
    assert case.old in files[case.file], f"{case.name}: {case.old!r} is not in {case.file}"
    files[case.file] = files[case.file].replace(case.old, case.new, 1)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    assert case.at in files[case.file], f"{case.name}: {case.at!r} is not in the broken file"
    before = files[case.file].partition(case.at)[0] + (case.at if case.after else "")
    line = before.count("\n") + 1
    column = len(before) - (before.rfind("\n") + 1) + 1
    return f"game/{case.file}", line, column


def test_the_unbroken_files_are_clean(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path, Broken("none", "ruleset.yaml", "", "", "id", ""))
    assert _run(["validate", "--no-cache", "game"]) == 0, capsys.readouterr().out


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_a_schema_error_is_a_located_sentence(case, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    file, line, column = _write(tmp_path, case)
    rc = _run(["validate", "--no-cache", "--format", "json", "game"])
    findings = json.loads(capsys.readouterr().out)
    assert rc == 1
    assert len(findings) == 1, findings
    f = findings[0]
    assert (f["file"], f["line"], f["column"], f["code"]) == (file, line, column, "schema"), f
    assert case.words in f["message"], f["message"]
    assert f["hint"] == case.hint
    assert not RAW.search(f["message"] + " " + (f["hint"] or "")), f


def test_the_scenario_runner_says_the_same(tmp_path, monkeypatch, capsys):
    """`davit test` reports a broken scenario file with the same sentence."""
    case = next(c for c in CASES if c.name == "scenario expectation")
    monkeypatch.chdir(tmp_path)
    file, line, column = _write(tmp_path, case)
    assert _run(["test", file]) == 1
    assert f"{file}:{line}:{column}: {case.words}" in capsys.readouterr().out


# --- every bad document of tests/test_schemas.py, through the same sentences ---------------------

def _bad_documents():
    import test_schemas as schemas
    out = []
    for test, base, kind in [(schemas.test_bad_ruleset_fails, schemas.MINIMAL, "ruleset"),
                             (schemas.test_bad_variant_fails, schemas.VARIANT, "variant"),
                             (schemas.test_bad_scenario_fails, schemas.SCENARIO, "scenario")]:
        for mark in test.pytestmark:
            if mark.name == "parametrize":
                out.extend(pytest.param(kind, base, change, id=f"{kind}: {what}") for what, change in mark.args[1])
    return out


@pytest.mark.parametrize("kind, base, change", _bad_documents())
def test_every_bad_document_gets_plain_sentences(kind, base, change):
    from interpreter.errors import Location
    from interpreter.load.schema_check import _violations
    doc = copy.deepcopy(base)
    change(doc)
    found = _violations(doc, kind, Location("x.yaml"))
    assert found
    for finding in found:
        assert not RAW.search(str(finding)), str(finding)
