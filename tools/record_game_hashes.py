#!/usr/bin/env python3
"""Record what seeded random games of every bundled ruleset look like, as a test fixture.

For every bundled ruleset, each of its variants (and the base game) and each
player count it allows, a few seeded games are played by random agents; the
fixture keeps each game's event-log hash, final-state hash, scores and number
of decisions. ``tests/test_identical_games.py`` plays the same games and
demands the same figures, so a change to the engine that is meant to change
nothing (a faster compiler, a new play loop) is shown to change nothing.

Re-record only when the rules themselves change (a ruleset edit), and say so
in the commit:

    python tools/record_game_hashes.py > tests/fixtures/game_hashes.json

A new bundled ruleset only adds rows: ``--add`` keeps every row the fixture
has, plays only the (ruleset, variant, players) it lacks and writes the table
back in the recorder's order, so the diff shows only the new rows:

    python tools/record_game_hashes.py --add tests/fixtures/game_hashes.json
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter import Game, load_ruleset  # noqa: E402
from interpreter.agents import make_agents, play_out  # noqa: E402
from interpreter.load.files import bundled_ids, bundled_rulesets_dir, variants_of  # noqa: E402

SEEDS = (1, 2)


def combos():
    """(ruleset id, variant or None, players) for every bundled ruleset."""
    for rid in bundled_ids():
        variants = [None] + sorted(variants_of(bundled_rulesets_dir() / rid / "ruleset.yaml"))
        for variant in variants:
            rs = load_ruleset(rid, variant=variant)
            for players in range(rs.min_players, rs.max_players + 1):
                yield rid, variant, players


def state_hash(game) -> str:
    return hashlib.sha256(json.dumps(game.state.to_json(), sort_keys=True, default=str).encode()).hexdigest()


def play(rid, variant, players, seed) -> dict:
    game = Game(load_ruleset(rid, variant=variant), players, seed=seed)
    decisions = play_out(game, make_agents("random", players, seed))
    return {"log": game.log_hash(), "state": state_hash(game), "scores": [game.scores[s] for s in range(players)],
            "decisions": decisions}


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    kept = {}
    if argv[:1] == ["--add"]:
        kept = {(r["ruleset"], r["variant"], r["players"], r["seed"]): r
                for r in json.loads(Path(argv[1]).read_text())}
    table = []
    for rid, variant, players in combos():
        for seed in SEEDS:
            row = kept.get((rid, variant, players, seed))
            table.append(row if row is not None else
                         {"ruleset": rid, "variant": variant, "players": players, "seed": seed,
                          **play(rid, variant, players, seed)})
    text = json.dumps(table, indent=1) + "\n"
    if kept:
        Path(argv[1]).write_text(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
