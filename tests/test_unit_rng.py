"""Unit tests for interpreter.machine.rng: splitmix64 stream, uniform draws, shuffles, derived seeds.

Every statistical check below runs on a fixed seed, so it is deterministic;
the bounds are wide statistical thresholds, not numbers copied from a run.
"""
from collections import Counter
from itertools import permutations

import pytest

from interpreter.machine import rng

MASK = (1 << 64) - 1


def test_next_u64_matches_reference_splitmix64():
    # Reference outputs of splitmix64 started from state 0 (Vigna's splitmix64.c).
    state = 0
    outputs = []
    for _ in range(3):
        state, value = rng.next_u64(state)
        outputs.append(value)
    assert outputs == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_stream_is_64_bit_and_does_not_repeat_soon():
    # (that the same state gives the same values is what the reference values above pin down)
    state = rng.seed_state(42)
    values, states = [], []
    for _ in range(1000):
        state, x = rng.next_u64(state)
        assert 0 <= x <= MASK and 0 <= state <= MASK
        values.append(x)
        states.append(state)
    assert len(set(values)) == 1000 and len(set(states)) == 1000
    assert max(values) > MASK // 2 > min(values), "the high bits are used"


def test_seed_state_handles_negative_and_huge_seeds():
    for seed in (-1, -(10 ** 30), 10 ** 40):
        assert 0 <= rng.seed_state(seed) <= MASK
    assert rng.seed_state(1) != rng.seed_state(2)


def test_below_stays_in_range_and_hits_every_value():
    state = rng.seed_state(7)
    seen = set()
    for _ in range(500):
        state, v = rng.below(state, 7)
        assert 0 <= v < 7
        seen.add(v)
    assert seen == set(range(7))


def test_below_one_is_always_zero():
    state = rng.seed_state(3)
    for _ in range(20):
        state, v = rng.below(state, 1)
        assert v == 0


@pytest.mark.parametrize("n", [0, -3])
def test_below_refuses_non_positive(n):
    with pytest.raises(ValueError):
        rng.below(1, n)


def test_below_is_uniform_enough():
    # chi-square with 5 degrees of freedom: 20.5 is the 99.9 % point
    draws = 60_000
    state = rng.seed_state(2024)
    counts = Counter()
    for _ in range(draws):
        state, v = rng.below(state, 6)
        counts[v] += 1
    expected = draws / 6
    chi2 = sum((counts[i] - expected) ** 2 / expected for i in range(6))
    assert chi2 < 20.5


def test_below_large_n_uses_high_values_too():
    # with n = 3 * 2**62 a plain `value % n` without rejection would favour small values
    n = 3 * (1 << 62)
    state = rng.seed_state(5)
    high = 0
    for _ in range(2000):
        state, v = rng.below(state, n)
        assert 0 <= v < n
        high += v >= n // 2
    assert 850 < high < 1150  # about half, as for a uniform draw


def test_shuffled_is_a_permutation_and_leaves_input_alone():
    items = list(range(20))
    original = list(items)
    state, out = rng.shuffled(rng.seed_state(1), items)
    assert items == original
    assert sorted(out) == original
    assert out != original  # 1 in 20! chance to be the identity for a fixed seed
    assert 0 <= state <= MASK


def test_shuffled_keeps_duplicates():
    _, out = rng.shuffled(rng.seed_state(9), ["a", "a", "b", "c", "c", "c"])
    assert Counter(out) == Counter({"a": 2, "b": 1, "c": 3})


def test_shuffled_small_inputs():
    state = rng.seed_state(4)
    assert rng.shuffled(state, []) == (state, [])
    assert rng.shuffled(state, ["x"]) == (state, ["x"])


def test_shuffled_depends_on_the_state():
    orders = {tuple(rng.shuffled(rng.seed_state(seed), range(10))[1]) for seed in range(20)}
    assert len(orders) == 20, "twenty states give twenty different orders of ten items"


def test_every_permutation_of_three_is_about_equally_likely():
    state = rng.seed_state(77)
    counts = Counter()
    rounds = 12_000
    for _ in range(rounds):
        state, out = rng.shuffled(state, [1, 2, 3])
        counts[tuple(out)] += 1
    assert set(counts) == set(permutations([1, 2, 3]))
    expected = rounds / 6
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 20.5


def test_derive_is_63_bit_and_depends_on_both_numbers():
    assert rng.derive(5, 3) != rng.derive(6, 3) and rng.derive(5, 3) != rng.derive(5, 4)
    for i in range(50):
        v = rng.derive(5, i)
        assert 0 <= v < (1 << 63)


def test_derive_spreads_seeds():
    values = {rng.derive(1, i) for i in range(2000)}
    assert len(values) == 2000
    across = {rng.derive(s, 0) for s in range(2000)}
    assert len(across) == 2000
    # neighbouring game indices give unrelated seeds: about half of the 63 bits differ
    flips = [bin(rng.derive(1, i) ^ rng.derive(1, i + 1)).count("1") for i in range(500)]
    mean = sum(flips) / len(flips)
    assert 29 < mean < 34
    # and the low bits are not stuck
    assert {rng.derive(1, i) % 8 for i in range(100)} == set(range(8))
