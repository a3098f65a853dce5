"""docs/dsl.md's table of static errors, row by row: each mistake in a tiny ruleset, reported by `validate`.

The table (section "Errors") is read from the page. Every row must have a case below and every case a
row (`test_every_row_has_a_case`), so the page and the checks stay in step. A case writes a small ruleset
(and, for a mistake set by a variant, a variant file) with the row's mistake, runs `davit validate`'s
engine on it and asserts that a finding of the case's code carries each message of the row (``…`` in the
table stands for any text) at a line of the snippet that holds the mistake.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from string import Template

import pytest

from interpreter.authoring.validate import validate_paths

DOCS = Path(__file__).resolve().parent.parent / "docs" / "dsl.md"

RULESET = Template("""\
id: static-errors
players: {min: $min_players, max: $max_players}
constants:
  limit: $limit
  labels: {low: "few", high: "many"}
player:
  vars:
    score: {initial: 0}
    stamina: {initial: $stamina, min: 0, max: 10}
variables:
  taken: {initial: 0}
zones:
  - id: pile
  - id: bank
things:
  - {id: card, count: 4, start: pile, attrs: {value: 1, child: false}}
functions:
  loose:
    params: [xs]
    value: filter(xs, t -> t.value > 0)
  helper:
    params: [xs]
    value: $helper
actions:
  - id: take
    choose:
      card: loose(pile)
    if: $cond
    do: |
$do
flow:
  - repeat: $repeat
    steps:
      - each_player: current
        steps:
          - turn: {player: current, actions: [take]}
end:
  when: $end
""")

DEFAULTS = {"min_players": "2", "max_players": "3", "limit": "2", "stamina": "0", "helper": "count(xs)",
            "cond": "count(pile) > 0", "do": "move(card, bank)\nscore(player, 1)", "repeat": "3",
            "end": "count(pile) == 0"}


@dataclass(frozen=True)
class Case:
    code: str                  # error[code] of the finding
    snippet: str | tuple       # the text of the mistake in the file (its lines bound the finding's line)
    parts: dict = field(default_factory=dict)    # RULESET's holes that differ from DEFAULTS
    variant: str | None = None  # a file variants/v.yaml: the snippet is then in it

    def write(self, folder: Path) -> Path:
        values = {**DEFAULTS, **self.parts}
        values["do"] = "\n".join("      " + line for line in values["do"].split("\n"))
        folder.mkdir()
        (folder / "ruleset.yaml").write_text(RULESET.substitute(values), encoding="utf-8")
        if self.variant is None:
            return folder / "ruleset.yaml"
        (folder / "variants").mkdir()
        (folder / "variants" / "v.yaml").write_text(f"variant: v\n{self.variant}", encoding="utf-8")
        return folder / "variants" / "v.yaml"


# first backticked message of a row -> the mistake
CASES = {
    "syntax error: unexpected …; expected …": Case("syntax", "taken += * 2", {"do": "taken += * 2"}),
    "syntax error: unexpected '1'": Case("syntax", "score(player 1)", {"do": "score(player 1)"}),
    "unknown name 'piles' (did you mean 'pile'?)": Case("unknown-name", "piles", {"do": "move(top(piles), bank)"}),
    "unknown function 'scroe' (did you mean 'score'?)": Case("unknown-name", "scroe(player, 1)",
                                                             {"do": "scroe(player, 1)"}),
    "score() takes 2 arguments, 1 given": Case("arity", "score(player)", {"do": "score(player)"}),
    "count() has no argument named 'where'": Case("arity", "count(pile, where=t -> t.child)",
                                                  {"helper": "count(pile, where=t -> t.child)"}),
    "move() changes the game and cannot be used in a condition": Case(
        "effect-in-condition", "move(card, bank)", {"cond": "move(card, bank)"}),
    "no thing has the id 'crad.1'": Case("unknown-reference", 'thing("crad.1")',
                                                                  {"do": 'move(thing("crad.1"), bank)'}),
    "comparing a card or piece with a number is always an error": Case("type", "top(pile) > 2",
                                                                       {"cond": "top(pile) > 2"}),
    "'+' needs numbers, not a player": Case("type", "player + 1", {"do": "taken = player + 1"}),
    "cannot add text and a number": Case("type", "card.kind + 1", {"do": "score(player, card.kind + 1)"}),
    "the end condition must be a true/false value, but this is a number": Case("type", "count(bank)",
                                                                               {"end": "count(bank)"}),
    "the repeat count must be a number, but this is text": Case("type", ('limit: "six"',),
                                                                {"limit": '"six"', "repeat": "limit"}),
    "variable 'taken' holds a number; this assigns text": Case("type", 'taken = "many"', {"do": 'taken = "many"'}),
    "players: min 5 is above max 2": Case("range", ("players: {min: 5", "stamina: {initial: 12"),
                                          {"min_players": "5", "max_players": "2", "stamina": "12"}),
    "syntax error: unexpected '='": Case("syntax", "if taken = 2:", {"do": "if taken = 2:\n  pass"}),
    "syntax error: this '(' is never closed (add ')')": Case("syntax", "score(player, 1", {"do": "score(player, 1"}),
    "syntax error: unexpected end of line": Case("syntax", "if taken == 2", {"do": "if taken == 2\n  pass"}),
    "no card, piece, zone or player of this ruleset has an attribute 'chlid'": Case(
        "unknown-attribute", "card.chlid", {"cond": "card.chlid"}),
    "comparing a number with text is always an error": Case("type", ('limit: "2"',), {
        "limit": '"2"', "cond": "count(pile) < limit"}),
    "looking for a number in a list of text is always false": Case("type", 'taken in ["2", "4"]',
                                                                   {"cond": "taken in [\"2\", \"4\"]"}),
    "score() needs a number as its amount, but this is text": Case("type", '"one"', {"do": 'score(player, "one")'}),
    "this table has no key 'hihg'": Case("unknown-attribute", "labels.hihg", {"do": "log(labels.hihg)"}),
    "constant 'limit' is text (\"2\") but …ruleset.yaml:… uses it as a number": Case(
        "type", '"2"', {"cond": "count(pile) < limit"}, variant='constants:\n  limit: "2"\n'),
}


def table_rows() -> list[list[tuple]]:
    """Each row of the table in dsl.md's section "Errors": its messages (backticked), each with the hint
    written after it in brackets, or None."""
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("\n## Errors\n", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        if line.startswith("| `"):
            first_cell = line.split(" | ", 1)[0]
            rows.append([(m, h or None) for m, h in re.findall(r"`([^`]+)`(?: \(([^)]*)\))?", first_cell)])
    return rows


ROWS = {row[0][0]: row for row in table_rows()}


def test_every_row_has_a_case():
    assert len(ROWS) > 15, "the table was not found in docs/dsl.md"
    assert sorted(set(ROWS) - set(CASES)) == [], "rows of dsl.md's error table without a case here"
    assert sorted(set(CASES) - set(ROWS)) == [], "cases here without a row in dsl.md's error table"


def _pattern(message: str, hint: str | None) -> re.Pattern:
    """The row's message (and the start of its hint) as a pattern: `…` is any text."""
    def text(s):
        return ".*?".join(re.escape(part) for part in re.split(r"\s*…\s*", s))
    return re.compile(text(message) + (r" \(" + text(hint) if hint else ""))


@pytest.mark.parametrize("row", sorted(CASES))
def test_row_is_reported(tmp_path, row):
    case = CASES[row]
    where = case.write(tmp_path / "rs")
    lines = where.read_text(encoding="utf-8").splitlines()
    snippets = case.snippet if isinstance(case.snippet, tuple) else (case.snippet,)
    snippet_lines = {i + 1 for i, line in enumerate(lines) for text in snippets if text in line}
    assert snippet_lines, f"the case's snippet {case.snippet!r} is not in {where.name}"
    findings = validate_paths([str(tmp_path / "rs")], cache=False)
    shown = [f.text() for f in findings]
    for message, hint in ROWS.get(row, [(row, None)]):
        pattern = _pattern(message, hint)
        hits = [f for f in findings if pattern.search(f"{f.message} ({f.hint})" if f.hint else f.message)]
        assert hits, f"no finding says {message!r}: {shown}"
        assert any(f.code == case.code for f in hits), shown
        assert any(f.file.endswith(str(where.relative_to(tmp_path))) and f.line in snippet_lines for f in hits), \
            f"{message!r} is not reported at the snippet ({where.name}, lines {sorted(snippet_lines)}): {shown}"
