"""Monte Carlo p-values: the seed's published facts, HDI properties, trials_for, errors."""

import math

import numpy as np
import pytest
from scipy import special, stats

from pairedstats.core.montecarlo import (
    HDIWidth,
    MonteCarloPValue,
    StandardError,
    beta_hdi,
    beta_hdi_many,
    trials_for,
)


class TestSeedFacts:
    """Numbers stated in the RandomizedTukeyHSD.jl README."""

    def test_trials_for_standard_error(self):
        assert trials_for(StandardError(0.001)) == 250_000
        assert trials_for(StandardError(0.001), p=0.05) == 47_500

    def test_trials_for_hdi_width(self):
        assert trials_for(HDIWidth(0.002), p=0.05) == 182_473

    @pytest.mark.parametrize(
        ("trials", "expected"), [(1000, 0.52), (10_000, 0.67), (100_000, 0.93)]
    )
    def test_probability_below(self, trials, expected):
        p = MonteCarloPValue(round(0.049 * trials), trials)
        assert p.probability_below(0.05) == pytest.approx(expected, abs=0.005)

    @pytest.mark.parametrize(("prior", "factor"), [((1, 1), 3.0), ((0.5, 0.5), 1.9)])
    def test_zero_exceedances(self, prior, factor):
        trials = 100_000
        low, high = MonteCarloPValue(0, trials).hdi(prior=prior)
        assert low == 0.0
        assert high * trials == pytest.approx(factor, abs=0.05)

    def test_hdi_width_agrees_with_standard_error_for_many_trials(self):
        # README: for many trials HDIWidth(w) agrees with StandardError(w / 3.92)
        a = trials_for(HDIWidth(0.002), p=0.05)
        b = trials_for(StandardError(0.002 / 3.92), p=0.05)
        assert abs(a - b) / b < 0.01


class TestHDI:
    @pytest.mark.parametrize(
        ("exceeding", "trials"), [(1, 10), (49, 1000), (500, 1000), (9990, 10_000)]
    )
    @pytest.mark.parametrize("level", [0.9, 0.95])
    def test_shortest_interval_properties(self, exceeding, trials, level):
        low, high = MonteCarloPValue(exceeding, trials).hdi(level=level)
        dist = stats.beta(1 + exceeding, 1 + trials - exceeding)
        assert dist.cdf(high) - dist.cdf(low) == pytest.approx(level, abs=1e-9)
        assert dist.logpdf(low) == pytest.approx(dist.logpdf(high), abs=1e-6)
        # shorter than the central interval (strictly unless symmetric)
        central = dist.ppf(0.5 + level / 2) - dist.ppf(0.5 - level / 2)
        assert high - low <= central + 1e-12

    def test_all_exceeding_touches_one(self):
        low, high = MonteCarloPValue(1000, 1000).hdi()
        assert high == 1.0
        assert 1 - low == pytest.approx(1 - 0.05 ** (1 / 1001), rel=1e-9)

    def test_jeffreys_prior_changes_small_counts(self):
        assert MonteCarloPValue(2, 100).hdi(prior=(0.5, 0.5)) != MonteCarloPValue(2, 100).hdi()

    def test_flat_posterior_is_central(self):
        assert beta_hdi(1.0, 1.0, 0.9) == pytest.approx((0.05, 0.95))

    def test_pvalue_and_from_pvalue(self):
        assert MonteCarloPValue(49, 1000).pvalue == 0.049
        assert math.isnan(MonteCarloPValue(0, 0).pvalue)
        assert MonteCarloPValue.from_pvalue(0.049, 1000) == MonteCarloPValue(49, 1000)


class TestTrialsFor:
    def test_standard_error_is_met(self):
        for p in (0.01, 0.05, 0.3, 0.5):
            n = trials_for(StandardError(0.002), p=p)
            assert math.sqrt(p * (1 - p) / n) <= 0.002
            assert math.sqrt(p * (1 - p) / (n - 1)) > 0.002

    def test_hdi_width_is_smallest(self):
        target = HDIWidth(0.01, level=0.9, prior=(0.5, 0.5))
        n = trials_for(target, p=0.05)

        def width(t):
            low, high = beta_hdi(0.5 + 0.05 * t, 0.5 + 0.95 * t, 0.9)
            return high - low

        assert width(n) <= 0.01 < width(n - 1)

    def test_custom_target(self):
        class Fixed:
            def trials(self, p):
                return 7

        assert trials_for(Fixed(), p=0.2) == 7


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (
            lambda: MonteCarloPValue(1.5, 10),
            TypeError,
            "`exceeding` must be a non-negative integer; got 1.5",
        ),
        (
            lambda: MonteCarloPValue(-1, 10),
            ValueError,
            "`exceeding` must be a non-negative integer; got -1",
        ),
        (
            lambda: MonteCarloPValue(1, True),
            TypeError,
            "`trials` must be a non-negative integer; got True",
        ),
        (
            lambda: MonteCarloPValue(11, 10),
            ValueError,
            "`exceeding` must be at most `trials`; got exceeding=11, trials=10",
        ),
        (
            lambda: MonteCarloPValue(1, 10).hdi(level=1.0),
            ValueError,
            "`level` must be strictly between 0 and 1; got 1.0",
        ),
        (lambda: MonteCarloPValue(1, 10).hdi(level="x"), TypeError, "`level` must be a number"),
        (
            lambda: MonteCarloPValue(1, 10).hdi(prior=(0, 1)),
            ValueError,
            r"`prior` must be a pair \(a, b\) of positive finite numbers; got \(0, 1\)",
        ),
        (
            lambda: MonteCarloPValue(1, 10).hdi(prior=3),
            TypeError,
            r"`prior` must be a pair \(a, b\) of positive numbers \(a Beta prior\); got 3",
        ),
        (
            lambda: MonteCarloPValue(1, 10).probability_below(1.5),
            ValueError,
            "`alpha` must be strictly between 0 and 1; got 1.5",
        ),
        (
            lambda: MonteCarloPValue.from_pvalue(0.0495, 1000),
            ValueError,
            "`pvalue` times `trials` must be a whole count",
        ),
        (lambda: StandardError(0), ValueError, "`se` must be strictly between 0 and 0.5; got 0"),
        (
            lambda: StandardError("a"),
            TypeError,
            "`se` must be a number strictly between 0 and 0.5; got 'a'",
        ),
        (lambda: HDIWidth(2), ValueError, "`width` must be strictly between 0 and 1; got 2"),
        (
            lambda: HDIWidth(None),
            TypeError,
            "`width` must be a number strictly between 0 and 1; got None",
        ),
        (
            lambda: trials_for(StandardError(0.01), p=0),
            ValueError,
            "`p` must be strictly between 0 and 1; got 0.0",
        ),
        (lambda: trials_for(0.01), TypeError, "`target` must be StandardError"),
    ],
)
def test_montecarlo_iv(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_hdi_matches_brute_force_search():
    # the shortest interval found over a grid of lower tail probabilities
    e, t = 7, 60
    dist = stats.beta(1 + e, 1 + t - e)
    q = np.linspace(0, 0.05, 20001)
    widths = dist.ppf(q + 0.95) - dist.ppf(q)
    best = q[np.argmin(widths)]
    low, high = MonteCarloPValue(e, t).hdi()
    assert low == pytest.approx(dist.ppf(best), abs=1e-5)
    assert high == pytest.approx(dist.ppf(best + 0.95), abs=1e-5)


def test_hdi_many_equals_one_at_a_time_and_keeps_shape():
    rng = np.random.default_rng(3)
    trials = np.array([10, 1000, 10_000, 10**6])[:, None]
    exceeding = np.minimum(trials, rng.integers(0, 12_000, size=(4, 6)))
    exceeding[:, 0], exceeding[:, 1] = 0, trials[:, 0]  # the ends: monotone densities
    a, b = 1.0 + exceeding, 1.0 + trials - exceeding
    low, high = beta_hdi_many(a, b, 0.9)
    assert low.shape == high.shape == (4, 6)
    for i, j in np.ndindex(4, 6):
        assert (low[i, j], high[i, j]) == beta_hdi(a[i, j], b[i, j], 0.9)
    # each interval holds the level, and is the shortest: moving it either way widens it
    np.testing.assert_allclose(special.betainc(a, b, high) - special.betainc(a, b, low), 0.9)
    inner = (exceeding > 0) & (exceeding < trials)
    for d in (-1e-6, 1e-6):
        q = special.betainc(a, b, low) + d
        ok = inner & (q > 0) & (q < 0.1)
        width = special.betaincinv(a, b, q + 0.9) - special.betaincinv(a, b, q)
        assert np.all(width[ok] >= (high - low)[ok] * (1 - 1e-12))
