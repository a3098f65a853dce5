"""Variants reuse their base's compiled snippets (interpreter/dsl/snippet_memo.py), and that hides nothing.

A variant built after its base in the same process takes the base's compiled
and checked snippets where the compiler's whole context is the same; where
the variant changes what a base snippet means (removes a thing it names,
makes a function it calls change the game), that snippet is compiled again
and its error reported at its own place in the base's file, exactly as when
nothing was built before. Scenarios report their own errors at theirs.
"""
import textwrap
from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.agents import make_agents, play_out
from interpreter.authoring.validate import validate_paths
from interpreter.dsl import snippet_memo
from interpreter.errors import DavitError
from interpreter.load import tree_cache
from interpreter.rules import loading

RULESET = """\
id: memo-pig
name: Memo Pig
description: Pig with a coin in a pot, for the snippet memo's tests.
players:
  min: 2
  max: 2
constants:
  goal: 20
  faces: [1, 2, 3, 4, 5, 6]
variables:
  turn_total: 0
zones:
  - id: pot
things:
  - id: coin
    start: pot
  - id: marker
    start: pot
functions:
  bonus:
    value: turn_total + 1
actions:
  - id: roll
    if: bonus() >= 1 and thing("coin").zone == pot
    do: |
      rolled = roll(faces, name="die")
      if rolled == 1:
        turn_total = 0
        end_turn()
      else:
        turn_total += rolled
  - id: hold
    do: |
      score(player, turn_total, reason="holds")
      turn_total = 0
      end_turn()
flow:
  - repeat: until_end
    as: round
    steps:
      - each_player: current
        steps:
          - turn: {player: current, actions: [roll, hold], pass: false}
end:
  when: any(players, p -> p.score >= goal)
scoring:
  tie: draw
"""
VARIANTS = {
    # only a value the compiler never reads: the base's context, so its snippets are reused
    "higher-goal": """\
        variant: higher-goal
        description: Play to 30.
        constants:
          goal: 30
        """,
    # the base's thing("coin") now names nothing
    "no-coin": """\
        variant: no-coin
        description: No coin.
        things:
          - id: coin
            remove: true
        """,
    # the base's condition now calls a function that changes the game
    "bonus-scores": """\
        variant: bonus-scores
        description: The bonus is counted as it is asked for.
        functions:
          bonus:
            do: |
              turn_total = turn_total + 1
              return turn_total
        """,
}
SCENARIO = """\
scenario: bad-expectation
variant: higher-goal
players: 2
expect:
  - turn_total == 0
  - no_such_name > 1
"""


@pytest.fixture
def ruleset(tmp_path):
    folder = tmp_path / "memo-pig"
    (folder / "variants").mkdir(parents=True)
    (folder / "scenarios").mkdir()
    (folder / "ruleset.yaml").write_text(RULESET)
    for name, text in VARIANTS.items():
        (folder / "variants" / f"{name}.yaml").write_text(textwrap.dedent(text))
    (folder / "scenarios" / "bad-expectation.yaml").write_text(SCENARIO)
    fresh()
    yield folder
    fresh()


def fresh():
    """As a new process starts: nothing built, nothing remembered."""
    loading._load.cache_clear()
    tree_cache._TREES.clear()
    snippet_memo.forget()


@pytest.fixture
def reuses(monkeypatch):
    """How many snippets each build took from an earlier one, in build order."""
    counts = []
    publish = snippet_memo.Recorder.publish

    def counting(self):
        counts.append(self.reused)
        publish(self)
    monkeypatch.setattr(snippet_memo.Recorder, "publish", counting)
    return counts


def where(text: str, needle: str) -> tuple[int, int]:
    """1-based line and column of ``needle`` in ``text``."""
    for number, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return number, line.index(needle) + 1
    raise AssertionError(needle)


def errors_of(folder: Path, variant: str) -> list[tuple]:
    with pytest.raises(DavitError) as caught:
        load_ruleset(folder, variant)
    return sorted((Path(e.location.file).name, e.location.line, e.location.column, e.message)
                  for e in getattr(caught.value, "errors", [caught.value]))


def seeded_game(rs) -> str:
    game = Game(rs, 2, seed=11)
    play_out(game, make_agents("random", 2, 11))
    return game.log_hash()


def test_a_variant_in_its_base_context_reuses_the_snippets_and_plays_the_same_games(ruleset, reuses):
    load_ruleset(ruleset)
    after_base = seeded_game(load_ruleset(ruleset, "higher-goal"))
    assert reuses[0] == 0 and reuses[1] > 0          # the base compiled everything, the variant reused
    fresh()
    reuses.clear()
    alone = seeded_game(load_ruleset(ruleset, "higher-goal"))
    assert reuses == [0]                             # built with nothing before it: compiled itself
    assert after_base == alone


@pytest.mark.parametrize("variant, needle, words", [
    ("no-coin", '"coin"', "no thing has the id 'coin'"),
    ("bonus-scores", "bonus()", "changes the game"),
])
def test_a_variant_that_changes_a_base_snippets_meaning_reports_it_at_the_base_line(ruleset, variant, needle, words):
    found_alone = errors_of(ruleset, variant)
    fresh()
    load_ruleset(ruleset)                            # the base checked first: its snippets are remembered
    load_ruleset(ruleset, "higher-goal")             # and reused once
    found_after_base = errors_of(ruleset, variant)
    assert found_after_base == found_alone
    line, column = where(RULESET, needle)
    assert any(file == "ruleset.yaml" and (at_line, at_column) == (line, column) and words in message
               for file, at_line, at_column, message in found_after_base), found_after_base


def test_validate_finds_the_same_problems_after_the_base_was_checked(ruleset):
    alone = {f.text() for f in validate_paths([ruleset / "variants" / "no-coin.yaml"], cache=False)}
    alone |= {f.text() for f in validate_paths([ruleset / "variants" / "bonus-scores.yaml"], cache=False)}
    alone |= {f.text() for f in validate_paths([ruleset / "scenarios" / "bad-expectation.yaml"], cache=False)}
    fresh()
    load_ruleset(ruleset)
    load_ruleset(ruleset, "higher-goal")
    together = {f.text() for f in validate_paths([ruleset], cache=False)}
    assert together == alone
    line, column = where(SCENARIO, "no_such_name")
    assert any(f"bad-expectation.yaml:{line}:{column}:" in text and "no_such_name" in text for text in together)
    assert any("no-coin" not in text and "ruleset.yaml" in text and "'coin'" in text for text in together)
    assert any("ruleset.yaml" in text and "changes the game" in text for text in together)
