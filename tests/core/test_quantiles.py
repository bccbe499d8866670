"""The ends of the percentile interval read from one partition, or from the compiled pass
over the ends of each row (:func:`pairedstats.core.intervals._ends`), against numpy's
quantile of the replicates and of the negated replicates: the same numbers."""

import numpy as np
import pytest

from pairedstats.core import intervals


def _numpy_ends(x, lower, upper_tail):
    return np.quantile(x, lower, axis=-1), -np.quantile(-x, upper_tail, axis=-1)


def _rows(kind, n, seed):
    gen = np.random.default_rng(seed)
    x = gen.normal(size=(7, 3, n))
    if kind == "ties":
        x = np.round(x)
    elif kind == "infinite":
        x[..., ::3] = np.inf
        x[0, :, 1::4] = -np.inf
    elif kind == "nan":
        x[1, 2, n // 2] = np.nan
        x[4, 0, 0] = np.nan
    return x


@pytest.mark.parametrize("kind", ["normal", "ties", "infinite", "nan"])
@pytest.mark.parametrize("n", [1, 2, 3, 20, 199, 1000, 4001])
@pytest.mark.parametrize("compiled", [False, True])
def test_ends_are_numpys_quantiles(kind, n, compiled, monkeypatch):
    x = _rows(kind, n, seed=n)
    if compiled:  # the compiled pass whatever the size
        monkeypatch.setattr(intervals, "COMPILED_FROM", 0)
    for lower, upper in [(0.025, 0.025), (0.005, 0.05), (0.0, 0.3), (0.5, 0.5), (1.0, 0.0),
                         (0.2, 1.0), (0.4999, 0.0001)]:  # fmt: skip
        with np.errstate(invalid="ignore"):  # inf - inf, where numpy's rule interpolates
            got = intervals._ends(x, lower, upper)
            want = _numpy_ends(x, lower, upper)
        for g, w in zip(got, want, strict=True):
            np.testing.assert_array_equal(g, w)


def test_one_level_per_row_is_read_row_by_row():
    x = _rows("normal", 50, seed=1)
    levels = np.linspace(0.01, 0.3, 21).reshape(7, 3)
    low, high = intervals._ends(x, levels, levels[::-1])
    for i in np.ndindex(levels.shape):
        want = _numpy_ends(x[i], levels[i], levels[::-1][i])
        np.testing.assert_array_equal((low[i], high[i]), want)
