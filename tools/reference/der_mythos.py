"""Der Mythos written by hand in plain Python, only to measure the interpreter against.

The same rules as rulesets/der-mythos (9 rounds, round-1 penalties, lifeboat
scoring, capsizing, the broken funnel) and the same kind of random players;
no views, logs or checks. `tools/bench.py` compares games per second.
"""
from __future__ import annotations

import random

LIMITS = {2: 12, 3: 18, 4: 24, 5: 30}
BOATS = [1, 1, 1, 2, 2, 2, 3, 3]          # class factors, as in cards.yaml
MIDDLE = [False, False, True, True, True, True]


def play(players: int, seed: int) -> list[int]:
    rnd = random.Random(seed)
    middle = MIDDLE[:]
    rnd.shuffle(middle)
    ship = [False, False] + middle + [False]
    boats = BOATS[:]
    rnd.shuffle(boats)
    hands = [list(range(1, 10)) for _ in range(players)]
    scores = [0] * players
    limit = LIMITS.get(players, players * 6)
    for rnd_no in range(1, 10):
        played = []
        for hand in hands:
            card = hand.pop(rnd.randrange(len(hand)))
            played.append(card)
        if rnd_no == 1:
            low = min(played)
            losers = [i for i, c in enumerate(played) if c == low]
            for i in losers:
                scores[i] -= 6 if len(losers) == 1 else 3
            continue
        factor = boats[rnd_no - 2]
        overloaded = sum(played) > limit
        funnel = ship[rnd_no - 1]
        for i, card in enumerate(played):
            if funnel:
                scores[i] -= card * factor
            elif overloaded:
                scores[i] -= card
            else:
                scores[i] += card * factor
    return scores
