"""No seat learns a hidden thing through its ``--log``, the OpenSpiel observations or the PettingZoo ones.

The hidden-swap property of ``test_privacy`` (two things a seat may not see,
with the same back and public attributes, trade places in a copy of the game:
the seat's view must not change), carried to the other channels a seat reads,
for every bundled ruleset and variant:

* the per-seat log: both games (real and swapped) are continued with the same
  decisions; as long as the seat sees neither thing, the events its log gets
  (what ``davit play --log FILE --log-seat SEAT`` writes) and their narrated
  lines are the same in both;
* OpenSpiel: the seat's information-state string and tensor, observation
  string and tensor, at a state made at each position (``DavitGame.state_at``);
* PettingZoo: the seat's observation and action mask (``DavitEnv.reset_to``).

Positions are sampled from one short seeded game of random agents per ruleset,
to keep the whole file within about a minute.
"""
import functools
import json
import random
import re

import numpy as np
import pytest
from test_privacy import COMBOS, _look, _swapped

from interpreter import Game, load_ruleset
from interpreter.agents import make_agents
from interpreter.observe.narrate import event_text
from interpreter.play.visibility import can_see, redact

DECISIONS = 20       # of the game positions are sampled from
POSITIONS = 3        # sampled positions per ruleset (and per channel)
CONTINUED = 3        # decisions both games are continued with, for the log
CONTINUED_IDS = 6    # action ids (and chance outcomes) both adapters' games are continued with
SEED = 5

IDS = [f"{r}+{v or 'base'}" for r, v in COMBOS]


@functools.cache
def _ruleset(rid, variant):
    return load_ruleset(rid, variant=variant)


@functools.cache
def _positions(rid, variant):
    """Clones of one seeded game of random agents after each of its first decisions."""
    rs = _ruleset(rid, variant)
    players = rs.max_players
    game = Game(rs, players, seed=SEED)
    agents = make_agents("random", players, SEED)
    out = [game.clone()]
    for _ in range(DECISIONS):
        if game.is_over:
            break
        seat = game.deciding_players[0]
        assert game.apply(agents[seat].choose(game, seat, game.legal_actions(seat)))
        out.append(game.clone())
    return out


def _swap(game, a, b):
    """``game`` with hidden ``a`` and ``b`` traded (faces and peeks stay with the places), its log kept."""
    other = _swapped(game, a, b)
    other.log = list(game.log)
    return other


def _cases(rid, variant, seats):
    """(where, position, seat, a, b, swapped position): sampled positions, seats and hidden pairs."""
    rnd = random.Random(f"{rid}+{variant}")
    positions = [g for g in _positions(rid, variant) if not g.is_over]
    if not positions:
        return []
    cases = []
    for game in rnd.sample(positions, min(len(positions) - 1, 2 * POSITIONS)) + positions[-1:]:
        for seat in rnd.sample(seats(game), len(seats(game))):
            # a thing a commitment names stays: seat 0 committed to play the card in its hand, and a card
            # of another hand in its place would make seat 0's own decision one it could not have made
            committed = set(re.findall(r'"([^"]+)"', json.dumps(game.state.pending, default=str)))
            hidden = [t for t, z in game.state.where.items()
                      if z != "box" and not can_see(game, seat, t, z) and t not in committed]
            by_look = {}
            for tid in hidden:
                by_look.setdefault(_look(game, tid), []).append(tid)
            groups = [g for g in by_look.values() if len(g) > 1]
            if groups:
                a, b = rnd.sample(rnd.choice(groups), 2)
                cases.append((f"{rid}+{variant} after {len(game.log)} events, seat {seat}, {a}<->{b}",
                              game, seat, a, b, _swap(game, a, b)))
                break
        if len(cases) == POSITIONS:
            break
    return cases


def _said(action):
    return json.dumps(action.to_json(), sort_keys=True)


def _named(action):
    """Every text in the action's JSON: the ids of the things it names among them."""
    return set(re.findall(r'"([^"]+)"', _said(action)))


def _all_seats(game):
    return [None] + list(range(game.num_players))


def _players(game):
    return list(range(game.num_players))


def _any_hidden_pair(cases, rid, variant):
    if not cases:
        pytest.skip(f"{rid}+{variant}: no seat has two hidden things that look alike in the sampled positions")


@pytest.mark.parametrize("rid,variant", COMBOS, ids=IDS)
def test_a_seat_log_and_its_narration_do_not_change_when_hidden_things_swap(rid, variant):
    cases = _cases(rid, variant, _all_seats)
    _any_hidden_pair(cases, rid, variant)
    rnd = random.Random(SEED)
    for where, game, seat, a, b, fake in cases:
        real = game.clone()
        for step in range(CONTINUED):
            if real.is_over or fake.is_over:
                assert real.is_over == fake.is_over, f"{where}: the game ends in one only"
                break
            who = real.deciding_players[0]
            assert fake.deciding_players[0] == who, f"{where}: another seat decides"
            # the same decision in both: legal in both, and naming neither swapped thing (the one who decides
            # may see them: an action on one of them is another decision in the swapped game)
            theirs = {_said(x) for x in fake.legal_actions(who)}
            both = [x for x in real.legal_actions(who) if _said(x) in theirs and not {a, b} & _named(x)]
            if not both:
                break
            action = rnd.choice(both)
            start_real, start_fake = len(real.log), len(fake.log)
            assert real.apply(action)
            assert fake.apply(next(x for x in fake.legal_actions(who) if x.to_json() == action.to_json()))
            if any(can_see(g, seat, t) for g in (real, fake) for t in (a, b)):
                break   # the seat now sees one of them: from here on it may well tell the games apart
            mine = [redact(e, seat) for e in real.log[start_real:]]
            theirs = [redact(e, seat) for e in fake.log[start_fake:]]
            at = f"{where}, decision {step + 1} on ({action})"
            assert mine == theirs, f"{at}: seat {seat}'s log tells hidden {a} from {b}"
            assert [event_text(real, e) for e in mine] == [event_text(fake, e) for e in theirs], \
                f"{at}: seat {seat}'s narrated log tells hidden {a} from {b}"
            assert [json.dumps(e, sort_keys=True) for e in mine] == [json.dumps(e, sort_keys=True) for e in theirs]


@functools.cache
def _openspiel_game(rid, variant, chance):
    from interpreter.rl import openspiel
    rs = _ruleset(rid, variant)
    return openspiel.game(rs, rs.max_players, chance=chance)


def _still_hidden(games, seat, a, b):
    return not any(can_see(g, seat, t) for g in games for t in (a, b))


def _same_openspiel_observations(at, real, fake, seat):
    for name in ("information_state_string", "observation_string"):
        assert getattr(real, name)(seat) == getattr(fake, name)(seat), f"{at}: seat {seat}'s {name} differs"
    for name in ("information_state_tensor", "observation_tensor"):
        mine, theirs = np.asarray(getattr(real, name)(seat)), np.asarray(getattr(fake, name)(seat))
        assert np.array_equal(mine, theirs), f"{at}: seat {seat}'s {name} differs"
    assert real.legal_actions(seat) == fake.legal_actions(seat), f"{at}: seat {seat}'s legal actions differ"


@pytest.mark.parametrize("chance", ["explicit", "sampled"])
@pytest.mark.parametrize("rid,variant", COMBOS, ids=IDS)
def test_openspiel_observations_do_not_change_when_hidden_things_swap(rid, variant, chance):
    pyspiel = pytest.importorskip("pyspiel")
    cases = _cases(rid, variant, _players)
    _any_hidden_pair(cases, rid, variant)
    os_game = _openspiel_game(rid, variant, chance)
    rnd = random.Random(SEED)
    for where, game, seat, a, b, fake in cases:
        real_state, fake_state = os_game.state_at(game), os_game.state_at(fake)
        _same_openspiel_observations(f"{where}, {chance} chance", real_state, fake_state, seat)
        # then on, id by id (chance outcomes too), while the seat sees neither thing
        for step in range(CONTINUED_IDS):
            if real_state.is_terminal() or fake_state.is_terminal():
                assert real_state.is_terminal() == fake_state.is_terminal(), f"{where}: the game ends in one only"
                break
            player = real_state.current_player()
            assert fake_state.current_player() == player, f"{where}: another player is to act"
            if player == pyspiel.PlayerId.CHANCE:
                mine = {real_state.action_to_string(player, o): o for o, _ in real_state.chance_outcomes()}
                theirs = {fake_state.action_to_string(player, o): o for o, _ in fake_state.chance_outcomes()}
                common = [(mine[k], theirs[k]) for k in sorted(mine) if k in theirs and not {a, b} & _words(k)]
            else:
                theirs = set(fake_state.legal_actions())
                common = [(t, t) for t in real_state.legal_actions()
                          if t in theirs and not {a, b} & _words(real_state.action_to_string(player, t))]
            if not common:
                break
            mine, theirs = rnd.choice(common)
            real_state.apply_action(mine)
            fake_state.apply_action(theirs)
            if not _still_hidden((real_state.session.game, fake_state.session.game), seat, a, b):
                break
            _same_openspiel_observations(f"{where}, {chance} chance, id {step + 1} "
                                         f"({real_state.action_to_string(player, mine) if player >= 0 else 'chance'})",
                                         real_state, fake_state, seat)


def _words(label):
    return set(re.split(r"[\s:,()\[\]]+", label))


@pytest.mark.parametrize("rid,variant", COMBOS, ids=IDS)
def test_pettingzoo_observations_do_not_change_when_hidden_things_swap(rid, variant):
    pytest.importorskip("pettingzoo")
    from interpreter.rl import pettingzoo
    cases = _cases(rid, variant, _players)
    _any_hidden_pair(cases, rid, variant)
    rs = _ruleset(rid, variant)
    real_env, fake_env = pettingzoo.env(rs, rs.max_players), pettingzoo.env(rs, rs.max_players)
    rnd = random.Random(SEED)
    for where, game, seat, a, b, fake in cases:
        real_env.reset_to(game)
        fake_env.reset_to(fake)
        agent = real_env.possible_agents[seat]
        for step in range(CONTINUED_IDS + 1):
            at = f"{where}, id {step}"
            assert real_env.agent_selection == fake_env.agent_selection, f"{at}: another agent is to act"
            mine, theirs = real_env.observe(agent), fake_env.observe(agent)
            for key in ("observation", "action_mask"):
                assert np.array_equal(mine[key], theirs[key]), f"{at}: seat {seat}'s {key} tells {a} from {b}"
            acting = real_env.agent_selection
            if real_env.terminations[acting] or real_env.truncations[acting]:
                break
            both = (real_env.observe(acting)["action_mask"] & fake_env.observe(acting)["action_mask"]).nonzero()[0]
            ids = [int(t) for t in both if not {a, b} & _words(real_env.catalogue.names[t])]
            if not ids:
                break
            token = rnd.choice(ids)
            real_env.step(token)
            fake_env.step(token)
            if not _still_hidden((real_env.game, fake_env.game), seat, a, b):
                break
