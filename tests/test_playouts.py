"""Seeded random playouts of every bundled ruleset and variant, checked at every step.

The same checks OpenSpiel runs on its games: only deciding players have
actions; a clone equals the original and evolves identically; the JSON
round trip holds (at powers of two); the game ends within its step guard;
scores stay within their declared bounds; no view shows what it hides.

The random agents are the ones ``tools/record_game_hashes.py`` recorded
``tests/fixtures/game_hashes.json`` with, so each game here is a recorded
game, and it ends as recorded (event-log hash, final state, scores, number of
decisions): the engine after a rewrite meant to change nothing plays the same
games. ``tests/test_identical_games.py`` checks that the table covers every
ruleset, variant and player count, and that this test plays every row of it.
"""
import json
import random
import re
import sys
from pathlib import Path

import pytest
from bundled_cases import player_counts

from interpreter import Game, load_ruleset
from interpreter.agents import make_agents
from interpreter.load.files import bundled_ids
from interpreter.play.state import State
from interpreter.play.visibility import can_see

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from record_game_hashes import SEEDS, state_hash  # noqa: E402

RECORDED = {(r["ruleset"], r["variant"], r["players"], r["seed"]):
            {k: r[k] for k in ("log", "state", "scores", "decisions")}
            for r in json.loads((ROOT / "tests" / "fixtures" / "game_hashes.json").read_text())}


# State == compares the to_json() of both sides, a millisecond each in a big game: two thirds of this
# test's time when it was written so. Slots that compare equal serialise equal (to_json is made of
# them, and a reference equals only a reference to the same thing), so they are compared first and ==
# is asked only when one differs. The copy-on-write bookkeeping is not the position: a clone owns
# other dicts than its original, holding the same data.
_BOOKKEEPING = {"props_own", "props_deep", "zprops_own", "zprops_deep"}
_DATA_SLOTS = [slot for slot in State.__slots__ if slot not in _BOOKKEEPING]


def _same_state(a, b) -> bool:
    """``a == b``, quicker when the two are equal slot by slot."""
    return all(getattr(a, slot) == getattr(b, slot) for slot in _DATA_SLOTS) or a == b


def _cases():
    for (rid, variant), (low, high) in player_counts().items():
        for n in list(range(low, high + 1))[:5]:
            # a variant's games are slow: the fast tier plays each ruleset's base game
            yield pytest.param(rid, variant, n, id=f"{rid}-{variant or 'base'}-{n}p",
                               marks=() if variant is None else pytest.mark.slow)


# every `"id": "..."` or `"thing": "..."` pair of a JSON text (its strings escaped, so a quote ends them)
NAMED = re.compile(r'"(id|thing)": "((?:[^"\\]|\\.)*)"')


def _check_views(game):
    for seat in range(game.num_players):
        view = game.view(seat)
        # the log may show what was public earlier; the state part must hide what is hidden now
        text = json.dumps({"zones": view["zones"], "players": view["players"], "pending": view["pending"]})
        # the things the text names, read once (not one search of the whole text per hidden thing)
        named = {json.loads(f'"{m.group(2)}"'): m.group(1) for m in NAMED.finditer(text)}
        for tid, zid in game.state.where.items():
            if tid in named and not can_see(game, seat, tid, zid):
                raise AssertionError(f'seat {seat} can read hidden {tid} in {zid} (as "{named[tid]}")')


@pytest.mark.parametrize("rid,variant,players", list(_cases()))
def test_random_playout(rid, variant, players):
    rs = load_ruleset(rid, variant)
    score = rs.player_vars[rs.score_counter]
    for seed in SEEDS:
        game = Game(rs, players, seed=seed)
        agents = make_agents("random", players, seed)   # as recorded: each seat draws from its own stream
        step = 0
        while not game.is_over:
            deciding = game.deciding_players
            assert deciding, "a game that is not over must wait for someone"
            for seat in range(players):
                if seat not in deciding:
                    assert game.legal_actions(seat) == []
            seat = deciding[0]
            actions = game.legal_actions(seat)
            assert actions, f"seat {seat} must decide but has no legal action"
            action = agents[seat].choose(game, seat, actions)
            twin = game.clone()
            assert _same_state(twin.state, game.state), "a clone must equal the original"
            if step & (step - 1) == 0:  # powers of two (and 0)
                saved = json.loads(json.dumps(game.to_json()))
                restored = Game.from_json(rs, saved)
                assert _same_state(restored.state, game.state)
                assert [a.to_json() for a in restored.legal_actions(seat)] == [a.to_json() for a in actions]
                _check_views(game)
            assert game.apply(action)
            assert twin.apply(action)
            assert _same_state(twin.state, game.state), "a clone must evolve exactly like the original"
            for value in game.scores.values():
                if score.min is not None:
                    assert value >= score.min
                if score.max is not None:
                    assert value <= score.max
            step += 1
        assert game.legal_actions() == []
        assert game.log[-1]["e"] == "end"
        _check_views(game)
        ended = {"log": game.log_hash(), "state": state_hash(game), "scores": [game.scores[s] for s in range(players)],
                 "decisions": step}
        assert ended == RECORDED[(rid, variant, players, seed)], "not the game tests/fixtures/game_hashes.json recorded"


@pytest.mark.parametrize("rid", bundled_ids())
def test_same_seed_same_log(rid):
    rs = load_ruleset(rid)
    hashes = []
    for _ in range(2):
        game = Game(rs, rs.min_players, seed=11)
        chooser = random.Random(5)
        while not game.is_over:
            actions = game.legal_actions(game.deciding_players[0])
            game.apply(actions[chooser.randrange(len(actions))])
        hashes.append(game.log_hash())
    assert hashes[0] == hashes[1]
    other = Game(rs, rs.min_players, seed=12)
    chooser = random.Random(5)
    while not other.is_over:
        actions = other.legal_actions(other.deciding_players[0])
        other.apply(actions[chooser.randrange(len(actions))])
    assert other.log_hash() != hashes[0]
