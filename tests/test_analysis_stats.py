"""The pure-Python statistics against published values (textbook tables, R's prop.test/t.test)."""
import math

import pytest

from interpreter.analysis import stats


def test_wilson_matches_the_textbook_values():
    # Newcombe (1998), Statistics in Medicine 17:857, table I: 81/263 and 15/148 (score method, no correction)
    low, high = stats.wilson(81, 263)
    assert (round(low, 4), round(high, 4)) == (0.2553, 0.3662)
    low, high = stats.wilson(15, 148)
    assert (round(low, 4), round(high, 4)) == (0.0624, 0.1605)


def test_wilson_stays_inside_zero_and_one():
    assert stats.wilson(0, 10)[0] == 0.0 and 0 < stats.wilson(0, 10)[1] < 0.35
    assert stats.wilson(10, 10)[1] == 1.0 and 0.65 < stats.wilson(10, 10)[0] < 1
    assert stats.wilson(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize("df, expected", [(1, 12.7062), (5, 2.5706), (10, 2.2281), (30, 2.0423), (1000, 1.9623)])
def test_t_quantiles_match_the_table(df, expected):
    assert round(stats.t_quantile(df), 4) == expected


def test_t_distribution_p_values():
    assert round(stats.t_two_sided_p(2.0, 5), 4) == 0.1019
    assert stats.t_two_sided_p(0.0, 7) == pytest.approx(1.0)
    # with many degrees of freedom t becomes the normal: P(|Z| > 1.96) = 0.05
    assert stats.t_two_sided_p(stats.Z95, 1e7) == pytest.approx(0.05, abs=1e-5)


def test_two_proportion_z_test():
    # z = (0.6 - 0.4) / sqrt(0.5 * 0.5 * (2 / 100)) = 2.828...; R: prop.test(c(60, 40), c(100, 100), correct=FALSE)
    assert stats.two_proportion_test(60, 100, 40, 100) == pytest.approx(math.erfc(2.8284271 / math.sqrt(2)))
    assert round(stats.two_proportion_test(60, 100, 40, 100), 5) == 0.00468
    assert stats.two_proportion_test(30, 100, 30, 100) == pytest.approx(1.0)
    assert stats.two_proportion_test(0, 50, 0, 80) == 1.0


def test_welch_t_test():
    # R: t.test(c(1,2,3,4,5), c(2,3,4,5,9)) gives t = -1.1429, df = 6.452, p-value = 0.2937
    assert round(stats.welch_test([1, 2, 3, 4, 5], [2, 3, 4, 5, 9]), 4) == 0.2937
    assert stats.welch_test([3, 3, 3], [3, 3, 3]) == 1.0
    assert stats.welch_test([3, 3, 3], [4, 4, 4]) == 0.0
    a = [i % 7 for i in range(200)]
    assert stats.welch_test(a, [x + 2 for x in a]) < 1e-6


def test_mean_interval_uses_t():
    values = [1, 2, 3, 4, 5]
    low, high = stats.mean_interval(values)
    half = 2.7764 * math.sqrt(2.5) / math.sqrt(5)     # t(0.975, 4) = 2.7764
    assert low == pytest.approx(3 - half, abs=1e-3) and high == pytest.approx(3 + half, abs=1e-3)
    assert stats.mean_interval([4]) == (4, 4)


def test_quantiles_interpolate_like_numpy():
    assert stats.quantiles([1, 2, 3, 4], (0.5, 0.25, 0.9)) == [2.5, 1.75, pytest.approx(3.7)]
    assert stats.quantiles([], (0.5,)) == [0.0]
