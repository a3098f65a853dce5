"""Der Mythos under davit's contract, written for speed: the fairer ceiling (issue 28, deliverable 3).

``der_mythos_state_machine.py`` keeps davit's contract but spends more than
the contract asks: it seeds and draws the random bots through
``random.randrange`` (three calls a number), draws the game's stream through
``rng.shuffled`` → ``below`` → ``next_u64``, looks for the next seat to
choose from the first seat again after every choice and asks
``legal_actions`` n(n+1)/2 times a round. This module keeps exactly the same
contract and does only the work it needs:

- the position is the same data (zones as lists of thing numbers, where each
  thing lies, which side is up, the scores, the round, the game's own random
  stream as one splitmix64 integer, a ``pc``, the moves committed); a clone
  copies those lists, and a clone taken at any decision plays on exactly as
  the game it was taken from;
- the rules run as the same resumable state machine (``pc`` 0: a new round
  and its decision; ``pc`` 1: everyone has committed, the round is carried
  out); a decision offers every seat its hand;
- the same stream gives the same shuffles (splitmix64 and its rejection
  sampling written out in place), and each seat's bot gives the same choices
  (``random.Random.randrange(n)`` is ``getrandbits(n.bit_length())`` until
  below ``n``: drawn so directly, from the same generator);
- the position at every decision is the state machine's, value for value
  (``tests/test_reference_games.py`` checks it, and davit's final scores).

A generated module must do at least this much work: its games per second
cannot beat this module's. ``tools/bench.py`` reports davit against it
(``fast/new``) beside the hand-written game (``ref/new``).
"""
from __future__ import annotations

import random

from . import der_mythos_state_machine as state_machine

ROUNDS = state_machine.ROUNDS
MASK = (1 << 64) - 1
GOLDEN, MIX1, MIX2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB


class Table(state_machine.Table):
    """What never changes in a game of ``players``: the cards' values and the position before setup (the state
    machine's table: the same zones and thing numbers), with the seats' piles of used cards."""

    def __init__(self, players: int):
        super().__init__(players)
        self.used = [2 * players + seat for seat in range(players)]
        self.seats = range(players)


class State:
    """The position: everything a clone copies. ``commits[seat]`` is the card committed, or -1."""
    __slots__ = ("commits", "face_up", "over", "pc", "rng", "round", "score", "where", "zones")

    def clone(self) -> State:
        other = State.__new__(State)
        other.zones = [z[:] for z in self.zones]
        other.where = self.where[:]
        other.face_up = self.face_up[:]
        other.score = self.score[:]
        other.commits = self.commits[:]
        other.round, other.rng, other.pc, other.over = self.round, self.rng, self.pc, self.over
        return other


def _shuffled(state: int, items: list) -> tuple[int, list]:
    """``rng.shuffled``: Fisher-Yates from the splitmix64 stream, each index by rejection sampling."""
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            state = (state + GOLDEN) & MASK
            z = ((state ^ (state >> 30)) * MIX1) & MASK
            z = ((z ^ (z >> 27)) * MIX2) & MASK
            z ^= z >> 31
            if z < limit:
                break
        j = z % n
        items[i], items[j] = items[j], items[i]
    return state, items


def new_game(table: Table, seed: int) -> State:
    """The position after setup: the middle stack shuffled into the ship behind the bows, the stern after
    them, the lifeboats shuffled (``pc`` 0: the first round has not begun)."""
    st = State()
    zones = st.zones = [z[:] for z in table.zones]
    where = st.where = table.where[:]
    st.face_up = table.face_up[:]
    st.score = [0] * table.players
    st.round, st.pc, st.commits, st.over = 0, 0, [-1] * table.players, False
    rng = (int(seed) * GOLDEN + 0x2545F4914F6CDD1D) & MASK
    rng, middle = _shuffled(rng, zones[table.MIDDLE])
    ship = zones[table.SHIP]
    ship += middle
    ship += zones[table.BOX]
    for t in ship[2:]:
        where[t] = table.SHIP
    zones[table.MIDDLE] = []
    zones[table.BOX] = []
    st.rng, zones[table.BOATS] = _shuffled(rng, zones[table.BOATS])
    return st


def advance(table: Table, st: State) -> None:
    """Run the rules from ``st.pc`` until the next decision or the end."""
    zones, where, face_up = st.zones, st.where, st.face_up
    if st.pc == 1:                           # everyone has committed: the round is carried out
        commits, score, value = st.commits, st.score, table.value
        values = [value[card] for card in commits]
        for seat, used in enumerate(table.used):
            card = commits[seat]
            zones[seat].remove(card)         # played face up, scored, then laid face down on the seat's pile
            zones[used].append(card)
            where[card] = used
            face_up[card] = False
        if st.round == 1:
            low = min(values)
            losers = [seat for seat in table.seats if values[seat] == low]
            penalty = 6 if len(losers) == 1 else 3
            for seat in losers:
                score[seat] -= penalty
            face_up[zones[table.SHIP][0]] = True
        else:
            boats = zones[table.BOATS]
            boat = boats[0]
            element = zones[table.SHIP][st.round - 1]
            overloaded = sum(values) > table.limit
            face_up[element] = True
            factor = table.factor[boat]
            if table.funnel[element]:
                for seat in table.seats:
                    score[seat] -= values[seat] * factor
            elif overloaded:
                for seat in table.seats:
                    score[seat] -= values[seat]
            else:
                for seat in table.seats:
                    score[seat] += values[seat] * factor
            del boats[0]
            target = table.CAPSIZED if overloaded or table.funnel[element] else table.LOWERED
            zones[target].append(boat)
            where[boat] = target
            face_up[boat] = True
    st.round += 1                            # a new round: turn up its boat, then everyone plays a card
    if st.round > ROUNDS:
        st.over, st.pc = True, 0
        return
    boat = zones[table.BOATS][0]
    if st.round > 1 and not face_up[boat]:
        face_up[boat] = True
    st.commits, st.pc = [-1] * table.players, 1


def deciding(st: State) -> tuple:
    """The seats this decision waits for (every seat at once, each until it commits)."""
    return tuple(seat for seat, card in enumerate(st.commits) if card < 0) if st.pc == 1 and not st.over else ()


def legal_actions(st: State, seat: int) -> list:
    """Every card ``seat`` may play now: the cards in its hand, once it has not committed."""
    if st.over or st.pc != 1 or st.commits[seat] >= 0:
        return []
    return list(st.zones[seat])


def commit(table: Table, st: State, seat: int, card: int) -> None:
    """``seat`` plays ``card``; the last commitment carries the round out."""
    st.commits[seat] = card
    if -1 not in st.commits:
        advance(table, st)


TABLES: dict[int, Table] = {}


def play(players: int, seed: int, bot_seeds: list[int] | None = None) -> list[int]:
    """One game between random bots (``bot_seeds``: each seat's, as davit's ``make_agents`` derives them)."""
    table = TABLES.get(players) or TABLES.setdefault(players, Table(players))
    draws = [random.Random(s).getrandbits for s in (bot_seeds or [seed * 8 + i for i in range(players)])]
    st = new_game(table, seed)
    advance(table, st)
    zones = st.zones
    while not st.over:
        commits = st.commits
        for seat, draw in enumerate(draws):  # each seat in turn, the first still to choose, as davit asks
            hand = zones[seat]
            n = len(hand)
            bits = n.bit_length()
            r = draw(bits)
            while r >= n:
                r = draw(bits)
            commits[seat] = hand[r]
        advance(table, st)
    return st.score
