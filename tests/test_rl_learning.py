"""What a learner gets from the PettingZoo environment (interpreter/rl/pettingzoo.py): normalised observations
within their declared space, and enough to learn from.

* Every field of every bundled ruleset's observation stays in the space the
  environment declares (0..1, or -1..1 where a number may be negative) over
  whole random games, not only the few steps of PettingZoo's ``api_test``;
  the normalisation keeps what tells positions apart.
* A tabular learner (Monte Carlo control on the observation and the action
  mask, nothing else) trained on tic-tac-toe against a random player then
  beats a random player by a margin that a two-sample test checks: the
  learned policy's mean payoff exceeds a random policy's, in the same seat
  against the same opponent, by more than 0.2 and by more than four standard
  errors of the difference.
* The encoding the environment reads straight from the state is, at every
  step of random games, the encoding of the seat's view.
* ``tools/bench_rl.py`` runs.
"""
from __future__ import annotations

import random
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

REASON = "needs the rl extra: pip install '.[test,rl]'"
np = pytest.importorskip("numpy", reason=REASON)
pytest.importorskip("pettingzoo", reason=REASON)

from interpreter import load_ruleset  # noqa: E402
from interpreter.load.files import bundled_ids  # noqa: E402
from interpreter.rl import pettingzoo as davit_pz  # noqa: E402
from interpreter.rl.observation import ObservationEncoder  # noqa: E402
from interpreter.rl.session import Session  # noqa: E402
from interpreter.rl.state_encoding import state_encoder  # noqa: E402


@pytest.mark.parametrize("rid", bundled_ids())
def test_every_observation_of_a_random_game_is_in_its_normalised_space(rid):
    rs = load_ruleset(rid)
    env = davit_pz.env(rs, max(2, rs.min_players) if rs.max_players >= 2 else rs.min_players)
    space = env.observation_space("player_0")["observation"]
    assert space.low.min() >= -1 and space.high.max() <= 1
    pick = np.random.default_rng(4)
    seen = set()
    for game in range(2 if rid in ("kuhn-poker", "leduc-poker", "tic-tac-toe", "pig", "goofspiel",
                                   "liars-dice") else 1):
        env.reset(seed=game)
        for steps, _agent in enumerate(env.agent_iter()):
            obs, _, terminated, truncated, _ = env.last()
            vector = obs["observation"]
            bad = np.flatnonzero((vector < space.low) | (vector > space.high))
            assert not bad.size, f"{rid}: cells {bad[:5]} = {vector[bad[:5]]} outside the space"
            seen.add(vector.tobytes())
            if terminated or truncated:
                env.step(None)
            else:
                env.step(int(pick.choice(np.flatnonzero(obs["action_mask"]))))
            if steps > 400:   # the big games: a few hundred observations are enough
                break
    assert len(seen) > 2   # the positions of a game are told apart


def test_a_bounded_counter_spans_its_declared_range():
    # Kuhn poker's score is declared -2..2: a seat that lost 1 chip reads 0.25, not a raw -1
    env = davit_pz.env("kuhn-poker", 2)
    encoder = env.encoder
    view = {"you": 0, "over": True, "vars": {}, "phase": [], "pending": None, "zones": {},
            "players": [{"seat": 0, "out": False, "vars": {"score": -1, "put": 1}},
                        {"seat": 1, "out": False, "vars": {"score": 1, "put": 2}}]}
    players = encoder.split(encoder.encode(view))["players"]
    j = encoder.pvars.index("score")
    assert list(players[:, 1 + 2 * j]) == [0.25, 0.75]
    k = encoder.pvars.index("put")   # no bounds declared: x / (1 + |x|)
    assert list(players[:, 1 + 2 * k]) == [np.float32(1 / 2), np.float32(2 / 3)]


def _episode(env, rng, policy):
    """One game of tic-tac-toe, player_0 by ``policy`` and player_1 at random: player_0's payoff and the
    (observation, action id) pairs it chose."""
    env.reset(seed=int(rng.integers(2 ** 31)))
    chosen, payoff = [], 0.0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            payoff = reward if agent == "player_0" else payoff
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        if agent == "player_1":
            env.step(int(rng.choice(legal)))
            continue
        key = obs["observation"].tobytes()
        action = policy(key, legal)
        chosen.append((key, action))
        env.step(action)
    return payoff, chosen


@pytest.mark.slow
def test_a_tabular_learner_beats_a_random_player_at_tic_tac_toe():
    env = davit_pz.env("tic-tac-toe", 2)
    rng = np.random.default_rng(11)
    total, count = defaultdict(float), defaultdict(int)

    def greedy(key, legal):
        return int(max(legal, key=lambda a: total[key, a] / count[key, a] if count[key, a] else 0.0))

    def explore(key, legal):
        return int(rng.choice(legal)) if rng.random() < 0.2 else greedy(key, legal)

    for _ in range(3000):   # Monte Carlo control: every choice of a game is credited with its payoff
        payoff, chosen = _episode(env, rng, explore)
        for pair in chosen:
            total[pair] += payoff
            count[pair] += 1
    learned = np.array([_episode(env, rng, greedy)[0] for _ in range(600)])
    uniform = np.array([_episode(env, rng, lambda key, legal: int(rng.choice(legal)))[0] for _ in range(600)])
    difference = learned.mean() - uniform.mean()
    error = np.sqrt(learned.var(ddof=1) / len(learned) + uniform.var(ddof=1) / len(uniform))
    assert difference > 0.2 and difference > 4 * error, (learned.mean(), uniform.mean(), error)
    assert set(np.unique(learned)) <= {-1.0, 0.0, 1.0}   # win, draw (0, as OpenSpiel pays it) and loss


@pytest.mark.parametrize("rid", bundled_ids())
def test_the_encoding_read_from_the_state_is_the_encoding_of_the_view(rid):
    # the environment encodes straight from the game's state (interpreter/rl/state_encoding.py); at every step of
    # random games, for every seat, that is the encoding of exactly what the seat's view shows
    rs = load_ruleset(rid)
    players = max(2, rs.min_players) if rs.max_players >= 2 else rs.min_players
    encoder = None
    pick = random.Random(6)
    checked = 0
    for seed in range(100):   # whole games, the end too, until enough positions are checked
        session = Session(rs, players, seed=seed)
        encoder = encoder or ObservationEncoder(rs, players, session.catalogue)
        while True:
            acting = session.acting()
            for seat in range(players):
                partial = session.prefix if seat == acting else ()
                from_view = encoder.encode(session.game.view(seat), partial)
                from_state = state_encoder(encoder).encode(session.game, seat, partial)
                assert np.array_equal(from_view, from_state), (seed, seat, np.flatnonzero(from_view != from_state))
            checked += 1
            if session.over or checked >= 150:
                break
            session.step(pick.choice(session.legal_tokens()))
        if checked >= 150:
            break
    assert checked == 150


@pytest.mark.slow
def test_the_benchmark_of_the_environment_against_davit_runs():
    # tools/bench_rl.py (docs/rl.md, Throughput): briefly, one ruleset; it reports, speed is not checked here
    tool = Path(__file__).resolve().parent.parent / "tools" / "bench_rl.py"
    done = subprocess.run([sys.executable, str(tool), "--rounds", "1", "--seconds", "0.05", "kuhn-poker"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    header, _, row = done.stdout.splitlines()
    assert header.split("|")[-2].strip() == "env/native"
    cells = [c.strip() for c in row.split("|")[1:-1]]
    assert cells[:2] == ["`kuhn-poker`", "2"] and all(float(c.replace(",", "")) > 0 for c in cells[2:])
    assert "python tools/bench_rl.py" in (tool.parent.parent / "docs" / "rl.md").read_text()
