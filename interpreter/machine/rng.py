"""The game's own random stream: splitmix64 over one integer kept in the state.

One integer is cheap to clone and to save, unlike ``random.Random``'s 625
words. Every draw is named (``shuffle deck``, ``roll die``) so a scenario can
pin its outcome; pinned outcomes are consumed before the stream is used.
"""
from __future__ import annotations

MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    """The stream state for a user seed (any int)."""
    return (int(seed) * 0x9E3779B97F4A7C15 + 0x2545F4914F6CDD1D) & MASK


def next_u64(state: int) -> tuple[int, int]:
    """Return (new_state, 64 random bits)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """Return (new_state, a uniform int in [0, n)) by rejection sampling."""
    if n <= 0:
        raise ValueError("n must be positive")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:   # (next_u64 written out: a die rolled, a card picked at random)
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        z ^= z >> 31
        if z < limit:
            return state, z % n


def shuffled(state: int, items: list) -> tuple[int, list]:
    """Return (new_state, a Fisher-Yates shuffled copy of items): each index drawn as :func:`below` draws it,
    :func:`next_u64` written out (no two calls an item: every game shuffles its decks at its start)."""
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            state = (state + 0x9E3779B97F4A7C15) & MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            z ^= z >> 31
            if z < limit:
                break
        j = z % n
        items[i], items[j] = items[j], items[i]
    return state, items


def derive(seed: int, index: int) -> int:
    """A well-spread seed for game ``index`` of a run started with ``seed``."""
    _, value = next_u64(seed_state(seed) ^ (index * 0xD1B54A32D192ED03 & MASK))
    return value >> 1
