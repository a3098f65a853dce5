"""Seeded random games are the same game after any engine change that is meant to change nothing.

``tests/fixtures/game_hashes.json`` was recorded by ``tools/record_game_hashes.py``
with the engine before the compiler and play loop were rewritten for speed:
for every bundled ruleset, variant and player count, two seeded games of
random agents, each with its event-log hash, final-state hash, scores and
number of decisions. The engine of today must reproduce every one of them.
When a ruleset's rules change on purpose, the fixture is recorded again in
the same commit.

The recorded games are played in ``tests/test_playouts.py`` (with the same
random agents), which checks every step of them too and then that each ends
as recorded; playing them a second time here would only cost time. This file
checks the table itself, and that the playouts play every row of it.
"""
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import test_playouts  # noqa: E402

TABLE = json.loads((ROOT / "tests" / "fixtures" / "game_hashes.json").read_text())


def test_the_playouts_play_every_recorded_game():
    """Each row is a (ruleset, variant, players, seed) that test_random_playout plays and compares with it."""
    played = {(*case.values, seed) for case in test_playouts._cases() for seed in test_playouts.SEEDS}
    assert played == {(r["ruleset"], r["variant"], r["players"], r["seed"]) for r in TABLE}


@pytest.mark.slow
def test_the_fixture_covers_every_bundled_ruleset_variant_and_player_count():
    from record_game_hashes import SEEDS, combos
    recorded = {(r["ruleset"], r["variant"], r["players"]) for r in TABLE}
    assert recorded == set(combos())
    assert len(TABLE) == len(recorded) * len(SEEDS)
