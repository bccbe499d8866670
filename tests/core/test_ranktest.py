"""What the two rank tests share: the normal p-value down to the smallest positive double."""

import itertools
import math

import numpy as np
import pytest
from scipy import special, stats

from pairedstats.core.ranktest import UNDERFLOW, asymptotic_pvalue, underflow_bounds


def test_the_normal_pvalue_keeps_ndtr_bits_where_ndtr_is_a_normal_double():
    for z in np.linspace(-37.4, 37.4, 2001):
        assert asymptotic_pvalue(z, 1.0, "greater") == float(special.ndtr(-z))
        assert asymptotic_pvalue(z, 1.0, "less") == float(special.ndtr(z))
        assert asymptotic_pvalue(z, 1.0, "two-sided") == min(1.0, 2 * float(special.ndtr(-abs(z))))


@pytest.mark.parametrize("alternative", ["greater", "two-sided"])
def test_the_normal_pvalue_stays_positive_where_a_double_holds_it(alternative):
    # ndtr returns 0 below about 1e-309 (z > 37.6); the tail is representable down to
    # 4.9e-324 (z about 38.5)
    twice = 2.0 if alternative == "two-sided" else 1.0
    for z in (37.7, 37.9, 38.0, 38.2, 38.4):
        p = asymptotic_pvalue(z, 1.0, alternative)
        expected = math.exp(math.log(twice) + stats.norm.logsf(z))
        assert 0 < p < np.finfo(float).tiny
        assert p == pytest.approx(expected, rel=1e-3)  # subnormals hold fewer digits
        assert asymptotic_pvalue(-z, 1.0, "less") == asymptotic_pvalue(z, 1.0, "greater")
    ps = [asymptotic_pvalue(z, 1.0, alternative) for z in np.linspace(30, 40, 400)]
    assert all(a >= b for a, b in itertools.pairwise(ps))  # monotone through the edge
    assert asymptotic_pvalue(40.0, 1.0, alternative) == 0  # below the smallest double


def test_an_underflowed_zero_stands_for_a_pvalue_below_the_smallest_double():
    assert UNDERFLOW == 5e-324 == np.nextafter(0.0, 1.0)
    method = np.array(["asymptotic", "exact", "asymptotic", "asymptotic"])
    bounds = underflow_bounds(np.array([0.0, 0.0, 1e-320, 0.5]), method)
    np.testing.assert_array_equal(bounds, [UNDERFLOW, 0.0, 0.0, 0.0])
