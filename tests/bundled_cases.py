"""Every bundled ruleset, variant and player count, read from the files' metadata (as `davit list` reads them).

Parametrising a test over every variant must not build every variant at
collection: that is seconds of CPU even when the variants' cases are not run
(``pytest -m "not slow"``). ``tests/test_identical_games.py`` checks that these
cases are the recorded games' (ruleset, variant, players), which
``tools/record_game_hashes.py`` works out from the built rulesets.
"""
from interpreter.load.files import bundled_ids, bundled_rulesets_dir
from interpreter.load.metadata import ruleset_summary


def player_counts() -> dict:
    """{(ruleset id, variant or None): [min, max] players} for every bundled ruleset and variant."""
    counts = {}
    for rid in bundled_ids():
        summary = ruleset_summary(bundled_rulesets_dir() / rid / "ruleset.yaml")
        counts[rid, None] = summary["players"]
        for variant in summary["variants"]:
            counts[rid, variant["id"]] = variant["players"]
    assert len(counts) > 20, "the bundled rulesets and variants were not found"
    return counts
