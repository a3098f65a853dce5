"""No seat learns a hidden thing through its ``--log``, the OpenSpiel observations or the PettingZoo ones.

The hidden-swap property of ``test_privacy`` (two things a seat may not see,
with the same back and public attributes, trade places in a copy of the game:
the seat's view must not change), carried to the other channels a seat reads,
for every bundled ruleset and variant:

* the per-seat log: both games (real and swapped) are continued with the same
  decisions; as long as the seat sees neither thing, the events its log gets
  (what ``davit play --log FILE --log-seat SEAT`` writes) and their narrated
  lines are the same in both;
* OpenSpiel (explicit and sampled chance): the seat's information-state
  string and tensor, observation string and tensor and legal ids, at a state
  made at the position (``DavitGame.state_at``) and id by id after it;
* PettingZoo: the seat's observation and action mask (``DavitEnv.reset_to``),
  at the position and id by id after it.

Positions are sampled from one short seeded game of random agents per ruleset;
one of the two swapped things is, where one can be, a thing the decisions that
follow touch (a random pair of a deck is seldom the one dealt next). About 40 s
of CPU for the file.
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

DECISIONS = 30       # of the game positions are sampled from
POSITIONS = 8        # sampled positions per ruleset (and per channel)
CONTINUED = 5        # decisions both games are continued with, for the log
CONTINUED_IDS = 12   # action ids (and chance outcomes) the adapters' games are continued with, at most
SEED = 5


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


def _future(game, rnd):
    """Up to CONTINUED decisions of random choice from ``game``, and every text the events they make hold
    (the ids of the things they touch among them)."""
    game = game.clone()
    actions, named = [], set()
    for _ in range(CONTINUED):
        if game.is_over:
            break
        who = game.deciding_players[0]
        action = rnd.choice(game.legal_actions(who))
        start = len(game.log)
        assert game.apply(action)
        actions.append(action)
        named |= set(re.findall(r'"([^"]+)"', json.dumps(game.log[start:], default=str)))
    return actions, named


def _cases(rid, variant, seats):
    """(where, position, seat, a, b, swapped position, decisions to go on with): sampled positions and seats;
    the pair is two hidden things that look alike, one of them touched by the decisions that follow, if any is:
    a random pair of a deck of fifty is seldom the one the next decisions deal."""
    rnd = random.Random(f"{rid}+{variant}")
    positions = [g for g in _positions(rid, variant) if not g.is_over]
    if not positions:
        return []
    cases = []
    for game in rnd.sample(positions, min(len(positions) - 1, 2 * POSITIONS)) + positions[-1:]:
        actions, touched = _future(game, rnd)
        decided = {t for x in actions for t in _named(x)}   # a decision on a or b would be another decision
        # a thing a commitment names stays: seat 0 committed to play the card in its hand, and a card
        # of another hand in its place would make seat 0's own decision one it could not have made
        committed = set(re.findall(r'"([^"]+)"', json.dumps(game.state.pending, default=str)))
        for seat in rnd.sample(seats(game), len(seats(game))):
            hidden = [t for t, z in game.state.where.items()
                      if z != "box" and not can_see(game, seat, t, z) and t not in committed | decided]
            by_look = {}
            for tid in hidden:
                by_look.setdefault(_look(game, tid), []).append(tid)
            groups = [g for g in by_look.values() if len(g) > 1]
            if not groups:
                continue
            aimed = [(t, g) for g in groups for t in g if t in touched]
            if aimed:
                a, group = rnd.choice(aimed)
                b = rnd.choice([t for t in group if t != a])
            else:
                a, b = rnd.sample(rnd.choice(groups), 2)
            cases.append((f"{rid}+{variant} after {len(game.log)} events, seat {seat}, {a}<->{b}",
                          game, seat, a, b, _swap(game, a, b), actions))
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


@pytest.mark.parametrize("rid,variant", COMBOS)
def test_a_seat_log_and_its_narration_do_not_change_when_hidden_things_swap(rid, variant):
    cases = _cases(rid, variant, _all_seats)
    _any_hidden_pair(cases, rid, variant)
    for where, game, seat, a, b, fake, actions in cases:
        real = game.clone()
        real.log, fake.log = _Watched(real, seat, (a, b)), _Watched(fake, seat, (a, b))
        for step, action in enumerate(actions):
            if real.is_over or fake.is_over:
                assert real.is_over == fake.is_over, f"{where}: the game ends in one only"
                break
            # the same decision in both: legal in both, naming neither swapped thing (see _cases)
            mine = [x for x in real.legal_actions(action.player) if _said(x) == _said(action)]
            theirs = [x for x in fake.legal_actions(action.player) if _said(x) == _said(action)]
            if not (mine and theirs):
                break
            start = len(real.log)
            assert len(fake.log) == start, f"{where}: the logs grew apart"
            assert real.apply(mine[0]) and fake.apply(theirs[0])
            # up to the event that lets the seat see one of them: from there on it may tell the games apart
            end = min(real.log.revealed or len(real.log), fake.log.revealed or len(fake.log))
            mine = [redact(e, seat) for e in real.log[start:end]]
            theirs = [redact(e, seat) for e in fake.log[start:end]]
            at = f"{where}, decision {step + 1} on ({action})"
            assert mine == theirs, f"{at}: seat {seat}'s log tells hidden {a} from {b}"
            assert [event_text(real, e) for e in mine] == [event_text(fake, e) for e in theirs], \
                f"{at}: seat {seat}'s narrated log tells hidden {a} from {b}"
            # the lines --log writes for the seat
            assert [json.dumps(e, sort_keys=True) for e in mine] == [json.dumps(e, sort_keys=True) for e in theirs]
            if end < len(real.log) or end < len(fake.log):
                break


class _Watched(list):
    """A game's log that notes the first event after which ``seat`` sees one of ``things`` (or, if it
    saw one before an event came, that event): ``revealed``, None while it sees none."""

    def __init__(self, game, seat, things):
        super().__init__(game.log)
        self.game, self.seat, self.things, self.revealed = game, seat, things, None

    def append(self, event):
        self._note(len(self))
        super().append(event)
        self._note(len(self) - 1)

    def _note(self, at):
        if self.revealed is None and any(can_see(self.game, self.seat, t) for t in self.things):
            self.revealed = at


@functools.cache
def _openspiel_game(rid, variant, chance):
    from interpreter.rl import openspiel
    rs = _ruleset(rid, variant)
    return openspiel.game(rs, rs.max_players, chance=chance)


def _still_hidden(games, seat, a, b, since):
    """Whether the seat sees neither thing in any of the games, and was shown neither in passing since the
    game's event ``since`` (a card read aloud, then put away, within one decision). Whether the log shows
    only what it may is the first test's concern."""
    if any(can_see(g, seat, t) for g in games for t in (a, b)):
        return False
    return not any({a, b} & set(re.findall(r'"([^"]+)"', json.dumps([redact(e, seat) for e in g.log[start:]])))
                   for g, start in zip(games, since))


def _same_openspiel_observations(at, real, fake, seat):
    for name in ("information_state_string", "observation_string"):
        assert getattr(real, name)(seat) == getattr(fake, name)(seat), f"{at}: seat {seat}'s {name} differs"
    for name in ("information_state_tensor", "observation_tensor"):
        mine, theirs = np.asarray(getattr(real, name)(seat)), np.asarray(getattr(fake, name)(seat))
        assert np.array_equal(mine, theirs), f"{at}: seat {seat}'s {name} differs"
    assert real.legal_actions(seat) == fake.legal_actions(seat), f"{at}: seat {seat}'s legal actions differ"


def _spelt(session, action):
    """The ids the adapters' session spells ``action`` with, if it is legal there (else None)."""
    for legal, ids in ((x, seq) for seq, x in session._spellings(action.player)[0].items()):
        if _said(legal) == _said(action):
            return list(ids)
    return None


# chance as OpenSpiel's chance nodes, every outcome listed, is slow; the fast tier samples it
@pytest.mark.parametrize("chance", [pytest.param("explicit", marks=pytest.mark.slow), "sampled"])
@pytest.mark.parametrize("rid,variant", COMBOS)
def test_openspiel_observations_do_not_change_when_hidden_things_swap(rid, variant, chance):
    pyspiel = pytest.importorskip("pyspiel")
    cases = _cases(rid, variant, _players)
    _any_hidden_pair(cases, rid, variant)
    os_game = _openspiel_game(rid, variant, chance)
    rnd = random.Random(SEED)
    for where, game, seat, a, b, fake, actions in cases:
        real_state, fake_state = os_game.state_at(game), os_game.state_at(fake)
        _same_openspiel_observations(f"{where}, {chance} chance", real_state, fake_state, seat)
        # then on, id by id, the decisions that follow (chance outcomes alike in both), while the seat sees
        # neither thing
        plan, spelling = list(actions), []
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
                if not common:
                    break
                mine, theirs = rnd.choice(common)
            else:
                if not any(spelling):
                    # each game spells the decision itself: a choice by position may list its options in
                    # another order in the swapped game (the one who decides saw them)
                    action = plan.pop(0) if plan else None
                    spelling = [_spelt(st.session, action) if action else None for st in (real_state, fake_state)]
                if not all(spelling):
                    break   # the plan is played, or explicit chance dealt otherwise than the game did
                mine, theirs = spelling[0].pop(0), spelling[1].pop(0)
                if not all(spelling) and any(spelling):
                    break   # spelt in more ids in one game than in the other
                if {a, b} & (_words(real_state.action_to_string(player, mine))
                             | _words(fake_state.action_to_string(player, theirs))):
                    break
            since = (len(real_state.session.game.log), len(fake_state.session.game.log))
            real_state.apply_action(mine)
            fake_state.apply_action(theirs)
            if not _still_hidden((real_state.session.game, fake_state.session.game), seat, a, b, since):
                break
            _same_openspiel_observations(f"{where}, {chance} chance, id {step + 1} "
                                         f"({real_state.action_to_string(player, mine) if player >= 0 else 'chance'})",
                                         real_state, fake_state, seat)


def _words(label):
    return set(re.split(r"[\s:,()\[\]]+", label))


@pytest.mark.parametrize("rid,variant", COMBOS)
def test_pettingzoo_observations_do_not_change_when_hidden_things_swap(rid, variant):
    pytest.importorskip("pettingzoo")
    from interpreter.rl import pettingzoo
    cases = _cases(rid, variant, _players)
    _any_hidden_pair(cases, rid, variant)
    rs = _ruleset(rid, variant)
    real_env, fake_env = pettingzoo.env(rs, rs.max_players), pettingzoo.env(rs, rs.max_players)
    for where, game, seat, a, b, fake, actions in cases:
        real_env.reset_to(game)
        fake_env.reset_to(fake)
        agent = real_env.possible_agents[seat]
        plan, spelling = list(actions), []
        for step in range(CONTINUED_IDS + 1):
            at = f"{where}, id {step}"
            assert real_env.agent_selection == fake_env.agent_selection, f"{at}: another agent is to act"
            mine, theirs = real_env.observe(agent), fake_env.observe(agent)
            for key in ("observation", "action_mask"):
                assert np.array_equal(mine[key], theirs[key]), f"{at}: seat {seat}'s {key} tells {a} from {b}"
            acting = real_env.agent_selection
            if real_env.terminations[acting] or real_env.truncations[acting]:
                break
            if not any(spelling):
                action = plan.pop(0) if plan else None   # each game spells it itself (see the OpenSpiel test)
                spelling = [_spelt(env._session, action) if action else None for env in (real_env, fake_env)]
            if not all(spelling):
                break
            mine, theirs = spelling[0].pop(0), spelling[1].pop(0)
            if not all(spelling) and any(spelling):
                break
            if {a, b} & (_words(real_env.catalogue.names[mine]) | _words(fake_env.catalogue.names[theirs])):
                break
            since = (len(real_env.game.log), len(fake_env.game.log))
            real_env.step(mine)
            fake_env.step(theirs)
            if not _still_hidden((real_env.game, fake_env.game), seat, a, b, since):
                break
