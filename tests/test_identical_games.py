"""Seeded random games are the same game after any engine change that is meant to change nothing.

``tests/fixtures/game_hashes.json`` was recorded by ``tools/record_game_hashes.py``
with the engine before the compiler and play loop were rewritten for speed:
for every bundled ruleset, variant and player count, two seeded games of
random agents, each with its event-log hash, final-state hash, scores and
number of decisions. The engine of today must reproduce every one of them.
When a ruleset's rules change on purpose, the fixture is recorded again in
the same commit.
"""
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from record_game_hashes import play  # noqa: E402

TABLE = json.loads((ROOT / "tests" / "fixtures" / "game_hashes.json").read_text())


def _id(row):
    return f"{row['ruleset']}+{row['variant'] or 'base'}-{row['players']}p-seed{row['seed']}"


@pytest.mark.parametrize("row", TABLE, ids=_id)
def test_the_game_is_the_recorded_one(row):
    got = play(row["ruleset"], row["variant"], row["players"], row["seed"])
    want = {k: row[k] for k in ("log", "state", "scores", "decisions")}
    assert got == want


def test_the_fixture_covers_every_bundled_ruleset_variant_and_player_count():
    from record_game_hashes import SEEDS, combos
    recorded = {(r["ruleset"], r["variant"], r["players"]) for r in TABLE}
    assert recorded == set(combos())
    assert len(TABLE) == len(recorded) * len(SEEDS)
