"""Der Mythos as the best code generator could emit it, keeping davit's contract: the ceiling.

``der_mythos.py`` beside this file is the game as a programmer writes it:
hands are local lists, scores a local list, the random bots draw from
``random.Random``. davit cannot play that way, whatever its code generator
does, because of what it promises (see docs/performance.md, "the ceiling"):

- the position is data that a bot can clone and a saved game restore at any
  decision: zones as lists of thing numbers, where each thing lies, which
  side is up, the players' counters, the game's own random stream (one
  integer, splitmix64: ``interpreter/machine/rng.py`` itself), the pending
  decision and the moves committed to it;
- the rules run as a resumable state machine (a ``pc`` kept in that data),
  so the game can stop at a decision and go on from a copy;
- a decision offers every legal action, and the bot picks one of them.

This module does just that for Der Mythos, by hand, with integer-indexed
state and nothing else: no checks (capacity, admission, types), no work
budget, no error locations, no ``Action`` objects, no log hooks, no generic
flow, no variants. A generated module must do at least this much work, so
its games per second cannot beat this one's. It plays davit's games move for
move: the same shuffles from the same stream and the same choices by the
same bots give the same final scores (``tests/test_reference_games.py``).
"""
from __future__ import annotations

import random

from interpreter.machine.rng import seed_state, shuffled  # the game's own stream, as davit draws it

LIMITS = {2: 12, 3: 18, 4: 24, 5: 30}
ROUNDS = 9
# the cards in davit's order (rulesets/der-mythos/cards.yaml): 9 passengers a player, then the ship
# cards (2 bows, 2 plain middles, 3 funnels, the broken funnel, the stern), then the lifeboats
SHIP = [False] * 7 + [True, False]        # broken funnel on the back
BOAT_FACTORS = [1, 1, 1, 2, 2, 2, 3, 3]


class Table:
    """What never changes in a game of ``players``: the cards' values, and the starting position."""

    def __init__(self, players: int):
        self.players = players
        passengers = players * 9
        self.value = [i % 9 + 1 for i in range(passengers)] + [0] * 17
        self.funnel = [False] * passengers + SHIP + [False] * 8
        self.factor = [0] * (passengers + 9) + BOAT_FACTORS
        # zones: hand, played and used of each seat, then middle stack, ship, lifeboats, lowered, capsized, box
        ship = passengers
        self.MIDDLE, self.SHIP, self.BOATS, self.LOWERED, self.CAPSIZED, self.BOX = range(3 * players, 3 * players + 6)
        self.zones = [list(range(p * 9, p * 9 + 9)) for p in range(players)] + [[] for _ in range(2 * players)]
        self.zones += [list(range(ship + 2, ship + 8)), [ship, ship + 1], list(range(ship + 9, ship + 17)), [], [],
                       [ship + 8]]
        self.where = [0] * len(self.value)
        for z, things in enumerate(self.zones):
            for t in things:
                self.where[t] = z
        self.face_up = [False] * (ship + 9) + [True] * 8
        self.limit = LIMITS.get(players, players * 6)


class State:
    """The position: everything a clone copies."""
    __slots__ = ("zones", "where", "face_up", "score", "round", "rng", "pc", "deciding", "commits", "over")

    def clone(self) -> State:
        other = State.__new__(State)
        other.zones = [z[:] for z in self.zones]
        other.where = self.where[:]
        other.face_up = self.face_up[:]
        other.score = self.score[:]
        other.commits = dict(self.commits)
        other.round, other.rng, other.pc, other.deciding, other.over = \
            self.round, self.rng, self.pc, self.deciding, self.over
        return other


def new_game(table: Table, seed: int) -> State:
    st = State()
    st.zones = [z[:] for z in table.zones]
    st.where = table.where[:]
    st.face_up = table.face_up[:]
    st.score = [0] * table.players
    st.round, st.pc, st.deciding, st.commits, st.over = 0, 0, (), {}, False
    st.rng = seed_state(seed)
    # setup: shuffle the middle stack into the ship behind the bows, add the stern, shuffle the lifeboats
    st.rng, st.zones[table.MIDDLE] = shuffled(st.rng, st.zones[table.MIDDLE])
    for t in st.zones[table.MIDDLE][:]:
        _move(st, t, table.SHIP, False)
    _move(st, st.zones[table.BOX][0], table.SHIP, False)
    st.rng, st.zones[table.BOATS] = shuffled(st.rng, st.zones[table.BOATS])
    return st


def _move(st: State, thing: int, zone: int, up: bool) -> None:
    st.zones[st.where[thing]].remove(thing)
    st.zones[zone].append(thing)
    st.where[thing] = zone
    st.face_up[thing] = up


def advance(table: Table, st: State) -> None:
    """Run the rules from ``st.pc`` until the next decision or the end."""
    players = table.players
    while True:
        if st.pc == 0:                       # a new round: turn up its boat, then everyone plays a card
            st.round += 1
            if st.round > ROUNDS:
                st.over = True
                return
            boat = st.zones[table.BOATS][0]
            if st.round > 1 and not st.face_up[boat]:
                st.face_up[boat] = True
            st.deciding, st.commits, st.pc = tuple(range(players)), {}, 1
            return
        # everyone has committed: carry the moves out, turn the cards up, score the round
        for seat in range(players):
            _move(st, st.commits[seat], players + seat, False)
        st.deciding = ()
        for seat in range(players):
            for t in st.zones[players + seat]:
                st.face_up[t] = True
        values = [table.value[st.zones[players + seat][0]] for seat in range(players)]
        if st.round == 1:
            low = min(values)
            losers = [seat for seat in range(players) if values[seat] == low]
            for seat in losers:
                st.score[seat] -= 6 if len(losers) == 1 else 3
            st.face_up[st.zones[table.SHIP][0]] = True
        else:
            boat = st.zones[table.BOATS][0]
            element = st.zones[table.SHIP][st.round - 1]
            overloaded = sum(values) > table.limit
            st.face_up[element] = True
            funnel, factor = table.funnel[element], table.factor[boat]
            for seat in range(players):
                value = values[seat]
                st.score[seat] += -value * factor if funnel else (-value if overloaded else value * factor)
            _move(st, boat, table.CAPSIZED if overloaded or funnel else table.LOWERED, True)
        for seat in range(players):
            for t in st.zones[players + seat][:]:
                _move(st, t, 2 * players + seat, False)
        st.pc = 0


def legal_actions(st: State, seat: int) -> list:
    """Every card ``seat`` may play now: the cards in its hand, once it has not committed."""
    if seat not in st.deciding or seat in st.commits:
        return []
    return list(st.zones[seat])


TABLES: dict[int, Table] = {}


def play(players: int, seed: int, bot_seeds: list[int] | None = None) -> list[int]:
    """One game between random bots (``bot_seeds``: each seat's, as davit's ``make_agents`` derives them)."""
    table = TABLES.get(players) or TABLES.setdefault(players, Table(players))
    bots = [random.Random(s) for s in (bot_seeds or [seed * 8 + i for i in range(players)])]
    st = new_game(table, seed)
    advance(table, st)
    while not st.over:
        for seat in st.deciding:             # the first seat still to choose, as davit's fused loop asks
            actions = legal_actions(st, seat)
            if actions:
                st.commits[seat] = actions[bots[seat].randrange(len(actions))]
                if len(st.commits) == players:
                    advance(table, st)
                break
    return st.score
