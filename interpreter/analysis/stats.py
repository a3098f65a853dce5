"""Intervals and tests for simulation results, in pure Python (no scipy).

* a proportion (a win rate, the tie rate) gets a Wilson score interval, which
  rests on the normal approximation but stays inside [0, 1] and behaves near
  0 and 1, unlike the plain ``p ± z·se``;
* a mean (a score, a game length) gets a Student t interval;
* two proportions are compared with the pooled two-proportion z-test (a
  normal approximation), two means with Welch's t-test (unequal variances,
  Welch–Satterthwaite degrees of freedom) — only where the games are not
  paired;
* paired games (the same seed and bots on both sides) are compared game by
  game: a rate by McNemar's exact test (a binomial test on the games whose
  outcome changed) with Newcombe's hybrid score interval of the paired
  difference, a mean by the paired t-test on the per-game differences;
* the p-values of one comparison are corrected together by Holm's step-down
  method, so the chance of any false "differs" stays at 5%.

The t distribution comes from the regularized incomplete beta function
(a continued fraction, as in Numerical Recipes), so small samples get the
right, wider intervals.
"""
from __future__ import annotations

import math

LEVEL = 0.95
Z95 = 1.959963984540054  # the two-sided 95% quantile of the standard normal

METHODS = {
    "proportion_interval": "Wilson score interval (normal approximation)",
    "mean_interval": "Student t interval",
    "proportion_test": "two-proportion z-test (normal approximation)",
    "mean_test": "Welch's t-test",
    "paired_proportion_test": "McNemar's exact test (binomial on the games that changed)",
    "paired_proportion_interval": "Newcombe's hybrid score interval for a paired difference",
    "paired_mean_test": "paired t-test",
    "correction": "Holm's step-down correction",
}


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``successes`` out of ``n``; (0, 1) when nothing was observed."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # at 0 and n the bound is exactly 0 or 1; floating point would give 1e-17 off
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return low, high


def mean_sd(values) -> tuple[float, float]:
    """The mean and the sample standard deviation (n − 1); the deviation is 0 for fewer than two values."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    mean = math.fsum(values) / n
    if n < 2:
        return mean, 0.0
    return mean, math.sqrt(math.fsum((x - mean) ** 2 for x in values) / (n - 1))


def mean_interval(values) -> tuple[float, float]:
    """The 95% Student t interval of the mean; a single value (or none) gives a point."""
    n = len(values)
    mean, sd = mean_sd(values)
    if n < 2:
        return mean, mean
    half = t_quantile(n - 1) * sd / math.sqrt(n)
    return mean - half, mean + half


def percentile_interval(resampled: list) -> tuple[float, float]:
    """The 95% percentile interval of a bootstrap's statistics, given sorted."""
    n = len(resampled)
    return resampled[int(0.025 * n)], resampled[int(0.975 * n) - 1]


def quantiles(values, points=(0.1, 0.25, 0.5, 0.75, 0.9)) -> list[float]:
    """Quantiles by linear interpolation between order statistics (numpy's default)."""
    ordered = sorted(values)
    if not ordered:
        return [0.0 for _ in points]
    out = []
    for q in points:
        pos = q * (len(ordered) - 1)
        low = math.floor(pos)
        high = min(low + 1, len(ordered) - 1)
        out.append(ordered[low] + (ordered[high] - ordered[low]) * (pos - low))
    return out


def two_proportion_test(x1: int, n1: int, x2: int, n2: int) -> float:
    """The two-sided p-value of the pooled two-proportion z-test (1.0 when it cannot tell)."""
    if n1 <= 0 or n2 <= 0:
        return 1.0
    pooled = (x1 + x2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return 1.0  # both all-or-nothing in the same way
    z = (x1 / n1 - x2 / n2) / se
    return math.erfc(abs(z) / math.sqrt(2))


def welch_test(a, b) -> float:
    """The two-sided p-value of Welch's t-test of equal means."""
    na, nb = len(a), len(b)
    if na < 2 or nb < 2:
        return 1.0
    ma, sa = mean_sd(a)
    mb, sb = mean_sd(b)
    va, vb = sa * sa / na, sb * sb / nb
    if va + vb == 0:
        return 1.0 if ma == mb else 0.0  # no spread at all: the means are either equal or surely not
    t = (ma - mb) / math.sqrt(va + vb)
    df = (va + vb) ** 2 / ((va * va / (na - 1) if va else 0.0) + (vb * vb / (nb - 1) if vb else 0.0))
    return t_two_sided_p(t, df)


def mcnemar_exact(base_only: int, variant_only: int) -> float:
    """The two-sided exact p-value of McNemar's test: is a change as likely one way as the other?

    Only the discordant games count (those won on one side and not the
    other); under no difference each goes either way with probability 1/2.
    """
    n = base_only + variant_only
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(base_only, variant_only) + 1))
    return min(1.0, 2 * tail / 2 ** n)   # exact integers: no underflow for thousands of games


def paired_rate_interval(both: int, base_only: int, variant_only: int, neither: int) -> tuple[float, float]:
    """Newcombe's (1998) method 10 interval of the paired difference variant − base of two rates.

    Built from the Wilson interval of each rate and the phi correlation of
    the 2×2 table; it stays inside [−1, 1] and behaves at 0 and 1.
    """
    n = both + base_only + variant_only + neither
    if n <= 0:
        return -1.0, 1.0
    p1, p2 = (both + variant_only) / n, (both + base_only) / n      # variant, base
    l1, u1 = wilson(both + variant_only, n)
    l2, u2 = wilson(both + base_only, n)
    denominator = (both + base_only) * (variant_only + neither) * (both + variant_only) * (base_only + neither)
    phi = (both * neither - base_only * variant_only) / math.sqrt(denominator) if denominator else 0.0
    delta = math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    epsilon = math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
    diff = p1 - p2
    return max(-1.0, diff - delta), min(1.0, diff + epsilon)


def rate_difference_interval(x_base: int, n_base: int, x_variant: int, n_variant: int) -> tuple[float, float]:
    """Newcombe's hybrid score interval of variant − base for two independent rates (games not paired)."""
    if n_base <= 0 or n_variant <= 0:
        return -1.0, 1.0
    p1, p2 = x_variant / n_variant, x_base / n_base
    l1, u1 = wilson(x_variant, n_variant)
    l2, u2 = wilson(x_base, n_base)
    diff = p1 - p2
    return diff - math.hypot(p1 - l1, u2 - p2), diff + math.hypot(u1 - p1, p2 - l2)


def welch_interval(variant, base) -> tuple[float, float]:
    """The 95% Welch interval of mean(variant) − mean(base), for samples that are not paired."""
    na, nb = len(variant), len(base)
    ma, sa = mean_sd(variant)
    mb, sb = mean_sd(base)
    if na < 2 or nb < 2:
        return ma - mb, ma - mb
    va, vb = sa * sa / na, sb * sb / nb
    if va + vb == 0:
        return ma - mb, ma - mb
    df = (va + vb) ** 2 / ((va * va / (na - 1) if va else 0.0) + (vb * vb / (nb - 1) if vb else 0.0))
    half = t_quantile(df) * math.sqrt(va + vb)
    return ma - mb - half, ma - mb + half


def paired_t(differences) -> tuple[float, tuple[float, float], float]:
    """The mean of per-game differences, its Student t interval and the paired t-test's two-sided p."""
    n = len(differences)
    mean, sd = mean_sd(differences)
    if n < 2:
        return mean, (mean, mean), 1.0
    if sd == 0:   # every game changed by the same amount: surely a difference, unless it is none
        return mean, (mean, mean), 1.0 if mean == 0 else 0.0
    se = sd / math.sqrt(n)
    half = t_quantile(n - 1) * se
    return mean, (mean - half, mean + half), t_two_sided_p(mean / se, n - 1)


def holm(pvalues: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the given order: reject where adjusted p < 0.05."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def t_two_sided_p(t: float, df: float) -> float:
    """P(|T| ≥ |t|) for Student's t with ``df`` degrees of freedom."""
    return _betai(df / 2, 0.5, df / (df + t * t))


def t_quantile(df: float, level: float = LEVEL) -> float:
    """The t with P(|T| ≤ t) = ``level``, by bisection on the distribution function."""
    alpha = 1 - level
    low, high = 0.0, 1.0
    while t_two_sided_p(high, df) > alpha:
        high *= 2
    for _ in range(100):
        mid = (low + high) / 2
        if t_two_sided_p(mid, df) > alpha:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def _betai(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1 - x) / b


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c if abs(1 + aa / c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c if abs(1 + aa / c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1) < 3e-14:
            break
    return h
