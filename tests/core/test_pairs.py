"""Sums over the items of b - a without forming the differences, against numpy on the
differences formed."""

import numpy as np
import pytest

from pairedstats.core.groups import pair_differences, plain_mean
from pairedstats.core.pairs import difference_means, difference_moments


def _table(seed, n=57, p=6):
    gen = np.random.default_rng(seed)
    x = gen.normal(size=(n, p))
    x[:, 3] = x[:, 1] + 0.25  # a constant difference
    x[::4, 4] = x[::4, 2]  # ties on a quarter of the items
    return x, [(a, b) for a in range(p) for b in range(p) if a != b]


@pytest.mark.parametrize("seed", range(4))
def test_the_mean_is_the_plain_mean_of_the_differences_to_the_bit(seed):
    x, pairs = _table(seed)
    np.testing.assert_array_equal(difference_means(x, pairs),
                                  plain_mean(pair_differences(x, pairs)))  # fmt: skip
    # one comparison alone, other comparisons around it, any worker split: the same bits
    alone = [difference_means(x, [pair])[0] for pair in pairs]
    np.testing.assert_array_equal(difference_means(x, pairs, workers=1), alone)


@pytest.mark.parametrize("seed", range(4))
def test_moments_and_counts_are_numpy_s(seed):
    x, pairs = _table(seed)
    d = pair_differences(x, pairs)
    tol = np.full(len(pairs), 1e-12)
    out = difference_moments(x, pairs, tol, workers=2)
    np.testing.assert_array_equal(out["mean"], plain_mean(d))
    np.testing.assert_allclose(np.sqrt(out["ss"] / (len(x) - 1)), d.std(axis=0, ddof=1),
                               rtol=1e-14, atol=1e-15)  # fmt: skip
    np.testing.assert_array_equal(out["wins"], (d > tol).sum(axis=0))
    np.testing.assert_array_equal(out["ties"], (np.abs(d) <= tol).sum(axis=0))
    np.testing.assert_array_equal(out["losses"], (d < -tol).sum(axis=0))
    assert out["ties"][pairs.index((2, 4))] >= len(x) // 4
    assert out["ss"][pairs.index((1, 3))] < 1e-28  # the constant difference
