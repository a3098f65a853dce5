"""The observation kept from step to step (interpreter/rl/incremental.py) is the one encoded from scratch.

The environment re-encodes only the zones whose things, properties or own
properties changed since a seat last looked. These tests play seeded random
games of several rulesets, hidden-information ones among them, and compare
at every step, for every seat, what the session hands out with the encoding
of the whole state from scratch (itself checked against the seat's view in
``test_rl_learning.py``): a seat looking at every step, a seat looking
seldom (many changes between two looks), a new game after an old one (the
same follower carried over), a clone of a session, and the PettingZoo
environment's own observations.
"""
from __future__ import annotations

import random

import pytest

REASON = "needs the rl extra: pip install '.[test,rl]'"
np = pytest.importorskip("numpy", reason=REASON)
pytest.importorskip("pettingzoo", reason=REASON)
from ruleset_builder import load  # noqa: E402

from interpreter import load_ruleset  # noqa: E402
from interpreter.rl import pettingzoo as davit_pz  # noqa: E402
from interpreter.rl.observation import ObservationEncoder  # noqa: E402
from interpreter.rl.session import Session  # noqa: E402
from interpreter.rl.state_encoding import state_encoder  # noqa: E402

# hidden cards and hands (der-mythos, kuhn-poker, leduc-poker, liars-dice, sos-titanic), big boards with zone
# properties (titanic, collapsible-d for three), a board of open things (tic-tac-toe)
RULESETS = ["der-mythos", "kuhn-poker", "leduc-poker", "liars-dice", "sos-titanic", "titanic", "collapsible-d",
            "tic-tac-toe"]


def _players(rs):
    return max(2, rs.min_players) if rs.max_players >= 2 else rs.min_players


def _start(rid, seed):
    """A session of ``rid`` at its usual player count, and an encoder for it."""
    rs = load_ruleset(rid)
    players = _players(rs)
    session = Session(rs, players, seed=seed)
    return session, ObservationEncoder(rs, players, session.catalogue), players


def _from_scratch(session, encoder, seat):
    partial = session.prefix if session.acting() == seat else ()
    return state_encoder(encoder).encode(session.game, seat, partial)


def _play(session, encoder, pick, looks, steps):
    """Play ``steps`` random ids; before each, the seats ``looks(session)`` names compare their observations."""
    checked = 0
    for _ in range(steps):
        for seat in looks(session):
            kept = session.observation(seat, encoder)
            fresh = _from_scratch(session, encoder, seat)
            assert np.array_equal(kept, fresh), (seat, np.flatnonzero(kept != fresh)[:10])
            checked += 1
        if session.over:
            break
        session.step(pick.choice(session.legal_tokens()))
    return checked


@pytest.mark.parametrize("rid", RULESETS)
def test_the_kept_observation_is_the_fresh_one_at_every_step(rid):
    session, encoder, players = _start(rid, 0)
    pick = random.Random(11)
    every_seat = lambda s: range(players)   # noqa: E731
    checked = 0
    for seed in range(3):   # new games on the same session: its follower goes from one game's end to a start
        session.reset(seed)
        checked += _play(session, encoder, pick, every_seat, 120)
    assert checked >= 3 * players


@pytest.mark.parametrize("rid", RULESETS)
def test_a_seat_that_looks_seldom_gets_the_fresh_observation(rid):
    # only the acting seat looks (a learner's pattern), and seat 0 besides every seventh step: between two looks
    # of a seat many zones change
    session, encoder, players = _start(rid, 3)
    pick = random.Random(5)
    step = iter(range(10 ** 6))

    def looks(s):
        acting = s.acting()
        seats = [] if acting is None else [acting]
        return seats + [0] if next(step) % 7 == 0 and acting != 0 else seats

    assert _play(session, encoder, pick, looks, 200) > 0


@pytest.mark.parametrize("rid", ["sos-titanic", "titanic"])
def test_a_clone_follows_its_own_game(rid):
    # a clone of a session goes its own way: neither's observations are the other's
    session, encoder, players = _start(rid, 4)
    pick = random.Random(2)
    _play(session, encoder, pick, lambda s: range(players), 10)
    other = session.clone()
    before = session.observation(0, encoder).copy()
    _play(other, encoder, random.Random(9), lambda s: range(players), 30)
    assert np.array_equal(session.observation(0, encoder), before)
    _play(session, encoder, pick, lambda s: range(players), 30)


@pytest.mark.parametrize("rid", ["leduc-poker", "titanic"])
def test_the_environment_hands_out_the_fresh_observation(rid):
    # through env.last(), as a learner reads it, over several games of one environment
    rs = load_ruleset(rid)
    players = _players(rs)
    env = davit_pz.env(rs, players)
    pick = random.Random(1)
    steps = 0
    for seed in range(3):
        env.reset(seed=seed)
        for agent in env.agent_iter(max_iter=150):
            obs, _, terminated, truncated, _ = env.last()
            seat = env.possible_agents.index(agent)
            assert np.array_equal(obs["observation"], _from_scratch(env._session, env.encoder, seat))
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(pick.choice(list(np.flatnonzero(obs["action_mask"])))))
            steps += 1
    assert steps > 0


def test_a_zone_shuffled_in_play_is_encoded_again(tmp_path):
    # an open row of tiles shuffled by an action: the order every seat sees changes, though no thing moved
    # from one zone to another and no property was set
    rs = load(tmp_path, {
        "players": {"min": 2, "max": 2},
        "limits": {"max_decisions": 40},
        "zones": [{"id": "row", "face": "up"}, {"id": "bag", "face": "up"}],
        "things": [{"id": "tile", "kind": "tile", "count": 6, "start": "row"}],
        "actions": [{"id": "mix", "label": "mix", "do": "shuffle(row)"},
                    {"id": "drop", "label": "drop", "do": "move(top(row), bag)"}],
        "flow": [{"repeat": "until_end", "steps": [{"each_player": "current", "steps": [
            {"turn": {"player": "current", "actions": ["mix", "drop"], "max_actions": 1}}]}]}],
        "end": {"when": "count(bag) >= 4"},
    })
    session = Session(rs, 2, seed=1)
    encoder = ObservationEncoder(rs, 2, session.catalogue)
    mix = session.catalogue.names.index("mix")
    orders = set()
    for _ in range(6):
        assert mix in session.legal_tokens()
        session.step(mix)
        orders.add(tuple(session.game.state.zones["row"]))
        for seat in range(2):
            assert np.array_equal(session.observation(seat, encoder), _from_scratch(session, encoder, seat))
    assert len(orders) > 1   # the shuffles did change the order
