"""A system's pass-rate interval against scipy's binomial intervals (an implementation we
did not write): Wilson inside, Clopper-Pearson's exact bound at 0% and 100%."""

import numpy as np
import pytest
from scipy import stats

from pairedstats.core.rates import rate_interval


@pytest.mark.parametrize("level", [0.8, 0.9, 0.95, 0.99])
@pytest.mark.parametrize("n", [1, 2, 5, 13, 40, 164, 1000])
def test_wilson_inside_and_clopper_pearson_at_the_ends_as_scipy(n, level):
    # every count near both ends, and some between (scipy's exact bound is a root search)
    passes = np.unique(np.r_[0:min(n, 12) + 1, n - np.arange(min(n, 12) + 1),
                             np.linspace(0, n, 15).astype(int)])  # fmt: skip
    low, high = rate_interval(passes, n, level)
    for i, x in enumerate(passes.tolist()):
        test = stats.binomtest(x, n)
        wilson = test.proportion_ci(level, method="wilson")
        exact = test.proportion_ci(level, method="exact")
        want_low = exact.low if x == n else wilson.low
        want_high = exact.high if x == 0 else wilson.high
        np.testing.assert_allclose([low[i], high[i]], [want_low, want_high], rtol=1e-9,
                                   atol=1e-11, err_msg=f"{x} of {n}")  # fmt: skip


def test_the_interval_holds_the_rate_and_never_is_a_point():
    passes = np.arange(51)
    low, high = rate_interval(passes, 50, 0.95)
    rate = passes / 50
    assert (low <= rate).all()
    assert (rate <= high).all()
    assert (high - low > 0.05).all()
    assert low[0] == 0.0
    assert high[-1] == 1.0
