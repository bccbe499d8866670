"""The signed-rank core against brute force: every sign assignment for the exact null, every
Walsh average for the shift and its interval, scipy for the statistic and p-values."""

import itertools
import math

import numpy as np
import pytest
from scipy import stats

from pairedstats.core import signrank as core


def _walsh(x):
    """Every Walsh average (x_i + x_j) / 2, i <= j, sorted: the brute-force reference."""
    x = np.asarray(x, dtype=np.float64)
    i, j = np.triu_indices(x.size)
    return np.sort((x[i] + x[j]) / 2)


def _enumerated(d):
    """The null of V by enumerating all 2^n sign assignments of the ranks of |d|."""
    ranks = stats.rankdata(np.abs(d))
    sums = np.array([ranks[np.array(s, bool)].sum()
                     for s in itertools.product([0, 1], repeat=d.size)])  # fmt: skip
    return sums


@pytest.mark.parametrize("n", [1, 2, 5, 9, 12])
def test_null_without_ties_is_the_enumeration(n):
    values, pmf = core.null_pmf(2 * np.arange(1, n + 1))
    sums = _enumerated(np.arange(1.0, n + 1))
    counts = np.bincount(sums.astype(int), minlength=values.size)
    np.testing.assert_array_equal(pmf * 2.0**n, counts)  # dyadic: exact
    np.testing.assert_array_equal(values, np.arange(n * (n + 1) // 2 + 1))


def test_null_with_ties_is_the_conditional_enumeration():
    d = np.array([1.0, -1.0, 2.0, 2.0, -2.0, 3.0, 5.0, -5.0, 7.0, 1.0, 4.0])
    st = core.signed_ranks(d)
    values, pmf = core.null_pmf(st.doubled)
    sums = _enumerated(d)
    for v in np.unique(sums):
        assert pmf[np.isclose(values, v)].sum() * 2.0**d.size == np.count_nonzero(sums == v)
    assert math.isclose(pmf.sum(), 1.0, rel_tol=1e-15)


@pytest.mark.parametrize(
    "d",
    [
        np.array([0.5, -1.25, 2.0, 3.5, -0.75, 4.0, 1.5, 2.25]),  # no ties
        np.array([1.0, -1.0, 2.0, 2.0, -2.0, 3.0, 5.0, -5.0, 7.0, 1.0, 4.0]),  # ties
        np.array([1.0, 0.0, -3.0, 2.0, 0.0, 6.0, 4.0, -0.5, 5.0]),  # zeros
    ],
)
@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_exact_pvalues_are_the_enumerated_tails(d, alternative):
    row = core.signrank_1d(d, alternative=alternative, confidence_level=0.95,
                           method="exact", correction=True)  # fmt: skip
    x = d[d != 0]
    sums = _enumerated(x)
    v = stats.rankdata(np.abs(x))[x > 0].sum()
    assert row.statistic == v
    lower, upper = np.mean(sums <= v + 1e-9), np.mean(sums >= v - 1e-9)
    expected = {"less": lower, "greater": upper,
                "two-sided": min(1.0, 2 * min(lower, upper))}[alternative]  # fmt: skip
    assert row.pvalue == pytest.approx(expected, rel=1e-14)
    assert row.n_zeros == d.size - x.size
    ties = np.unique(np.abs(x)).size < x.size
    assert row.method == ("exact-conditional" if ties else "exact")


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
@pytest.mark.parametrize("correction", [True, False])
def test_pvalues_match_scipy(alternative, correction):
    rng = np.random.default_rng(3)
    exact_d = rng.normal(size=30) + 0.3
    row = core.signrank_1d(exact_d, alternative=alternative, confidence_level=0.95,
                           method="auto", correction=correction)  # fmt: skip
    ref = stats.wilcoxon(exact_d, alternative=alternative, method="exact")
    assert row.method == "exact"
    assert row.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
    tied = rng.integers(-4, 6, size=80).astype(float)  # ties and zeros
    row = core.signrank_1d(tied, alternative=alternative, confidence_level=0.95,
                           method="auto", correction=correction)  # fmt: skip
    ref = stats.wilcoxon(tied, zero_method="wilcox", correction=correction,
                         alternative=alternative, method="approx")  # fmt: skip
    assert row.method == "asymptotic"
    assert row.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
    x = tied[tied != 0]
    assert row.statistic == stats.rankdata(np.abs(x))[x > 0].sum()


def test_exact_with_zeros_matches_scipy():
    d = np.array([1.0, 2, -3, 0, 0, 4, 5, -6, 7, 8, 9])
    row = core.signrank_1d(d, alternative="two-sided", confidence_level=0.95,
                           method="exact", correction=True)  # fmt: skip
    ref = stats.wilcoxon(d, zero_method="wilcox", method="exact")
    assert row.pvalue == ref.pvalue == 0.12890625


@pytest.mark.parametrize("n", [1, 2, 3, 7, 40, 200])
def test_kth_walsh_is_the_sorted_walsh_averages(n):
    rng = np.random.default_rng(n)
    for x in (np.sort(rng.normal(size=n)), np.sort(rng.integers(-3, 4, size=n) * 0.1)):
        w = _walsh(x)
        ks = range(1, w.size + 1) if w.size <= 300 else rng.integers(1, w.size + 1, 40)
        for k in ks:
            assert core.kth_walsh(x, int(k)) == w[k - 1]
        assert core.walsh_median(x) == np.median(w)


@pytest.mark.parametrize("kind", ["continuous", "ties"])
def test_implicit_selection_equals_np_sort(kind):
    # n = 2000: 2,001,000 Walsh averages, beyond the size that is materialised at once, so
    # the selection rounds run
    rng = np.random.default_rng(11)
    if kind == "continuous":
        x = np.sort(rng.standard_cauchy(2000))
    else:
        x = np.sort(rng.integers(-20, 25, size=2000) / 8)
    w = _walsh(x)
    assert w.size > core._MATERIALISE
    for k in [1, 2, 17, w.size // 3, w.size // 2, w.size // 2 + 1, w.size - 5, w.size]:
        assert core.kth_walsh(x, k) == w[k - 1], k
    assert core.walsh_median(x) == np.median(w)
    with pytest.raises(ValueError, match="`k` must be between 1 and 2001000; got 0"):
        core.kth_walsh(x, 0)


def _r_score(x, t, correction, alternative):
    """R's W(d) of wilcox.test's asymptotic interval, from its definition: the signed-rank
    statistic of x - t (zeros dropped, midranks of |x - t|) as a normal score."""
    xd = x - t
    xd = xd[xd != 0]
    n = xd.size
    ranks = stats.rankdata(np.abs(xd))
    z = ranks[xd > 0].sum() - n * (n + 1) / 4
    _, counts = np.unique(ranks, return_counts=True)
    sigma = math.sqrt(n * (n + 1) * (2 * n + 1) / 24 - np.sum(counts**3 - counts) / 48)
    corr = 0.0
    if correction:
        corr = {"two-sided": 0.5 * np.sign(z), "greater": 0.5, "less": -0.5}[alternative]
    return (z - corr) / sigma


@pytest.mark.parametrize("correction", [True, False])
@pytest.mark.parametrize(
    ("alternative", "zq"),
    [("two-sided", 1.96), ("two-sided", -1.96), ("greater", 1.64), ("less", -1.28)],
)
def test_asymptotic_end_is_where_r_s_score_crosses(correction, alternative, zq):
    rng = np.random.default_rng(5)
    for x in (rng.normal(size=25) + 0.2, rng.integers(-3, 6, size=30).astype(float)):
        x = np.sort(x[x != 0])
        w = np.unique(_walsh(x))
        mids = np.concatenate([[w[0] - 1], (w[:-1] + w[1:]) / 2, [w[-1] + 1]])
        scores = np.array([_r_score(x, t, correction, alternative) for t in mids])
        # the score falls with t: the crossing is at the Walsh average between the last
        # midpoint above zq and the first one at or below it
        first = int(np.argmax(scores <= zq))
        assert np.all(scores[:first] > zq)
        assert np.all(scores[first:] <= zq)
        n = x.size
        sigma = math.sqrt(n * (n + 1) * (2 * n + 1) / 24 - core._tie_term(x) / 48)
        c = core.asymptotic_ci_count(zq, n, sigma, correction, alternative)
        total = n * (n + 1) // 2
        assert core.kth_walsh(x, total - c + 1) == w[first - 1]


def test_large_sample_is_fast_and_right():
    rng = np.random.default_rng(2)
    d = rng.normal(size=200_000) + 0.01
    row = core.signrank_1d(d, alternative="two-sided", confidence_level=0.95,
                           method="auto", correction=True)  # fmt: skip
    ref = stats.wilcoxon(d, method="approx", correction=True)
    assert row.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
    assert row.ci_low < row.shift < row.ci_high


def test_no_nonzero_difference():
    row = core.signrank_1d(np.zeros(5), alternative="two-sided", confidence_level=0.95,
                           method="auto", correction=True)  # fmt: skip
    assert (row.n_zeros, row.statistic, row.pvalue) == (5, 0.0, 1.0)
    assert math.isnan(row.shift)
    assert math.isnan(row.ci_low)


@pytest.mark.parametrize("factor", [0.1, 0.3, 1e-10])
def test_differences_within_the_tie_error_are_tied_and_zero(factor):
    # integer scores times factor: differences equal in exact arithmetic an ulp apart; with
    # the tie error of the scores (core.ties) they are the integers' ties and zeros
    from pairedstats.core.ties import difference_errors

    rng = np.random.default_rng(4)
    x = rng.integers(0, 9, size=(40, 2)).astype(float)
    d = x[:, 1] - x[:, 0]
    scaled = factor * x
    ds = scaled[:, 1] - scaled[:, 0]
    assert np.unique(np.abs(ds)).size > np.unique(np.abs(d)).size
    error = difference_errors(scaled[:, 0], scaled[:, 1])
    st = core.signed_ranks(ds, error)
    nonzero = d[d != 0]
    assert st.n_zeros == (d == 0).sum()
    np.testing.assert_array_equal(st.doubled, 2 * stats.rankdata(np.abs(nonzero)))
    assert st.statistic == stats.rankdata(np.abs(nonzero))[nonzero > 0].sum()
    ref = stats.wilcoxon(d, zero_method="wilcox", correction=True, method="approx")
    out = core.signrank_1d(ds, alternative="two-sided", confidence_level=0.95,
                           method="asymptotic", correction=True, error=error)  # fmt: skip
    assert out.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
