"""The signed-rank p-values of all pairs at once (``core.signrank_pairs``) against scipy's
``wilcoxon`` pair by pair and against the one-pair test of ``core.signrank`` (bit for bit);
the Walsh order statistics selected at once against ``np.sort`` of all of them."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy import stats

import pairedstats
from pairedstats.core import signrank as core
from pairedstats.core.signrank_pairs import signrank_pvalues


def _all_pairs(k):
    return [(a, b) for a in range(k) for b in range(k) if a != b]


def _scores(kind, n, k, rng):
    if kind == "continuous":
        return rng.normal(size=(n, k)) + np.linspace(0, 0.5, k)
    return rng.integers(0, 6, size=(n, k)).astype(float)  # integers: ties and zeros


@pytest.mark.parametrize("kind", ["continuous", "integers"])
@pytest.mark.parametrize("n", [6, 12, 30, 49, 50, 80, 400])
@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_each_pair_is_scipy_wilcoxon(kind, n, alternative):
    rng = np.random.default_rng(n)
    x = _scores(kind, n, 4, rng)
    pairs = _all_pairs(4)
    res = signrank_pvalues(x, pairs, alternative=alternative, correction=True)
    for c, (a, b) in enumerate(pairs):
        d = x[:, b] - x[:, a]
        nonzero = d[d != 0]
        assert res.n_zeros[c] == n - nonzero.size
        ties = np.unique(np.abs(nonzero)).size < nonzero.size
        assert res.exact[c] == (nonzero.size < 50 and not ties and nonzero.size == n)
        method = "exact" if res.exact[c] else "asymptotic"
        ref = stats.wilcoxon(d, zero_method="wilcox", correction=True, method=method,
                             alternative=alternative)  # fmt: skip
        assert res.pvalue[c] == pytest.approx(ref.pvalue, rel=1e-12, abs=0)
        ranks = stats.rankdata(np.abs(nonzero))
        assert res.statistic[c] == ranks[nonzero > 0].sum()


def test_the_references_have_exact_and_tied_pairs():
    # the cases above reach both paths: exact p-values, and normal ones with ties and zeros
    rng = np.random.default_rng(12)
    exact = signrank_pvalues(_scores("continuous", 12, 4, rng), _all_pairs(4)).exact
    rng = np.random.default_rng(30)
    tied = signrank_pvalues(_scores("integers", 30, 4, rng), _all_pairs(4))
    assert exact.all()
    assert not tied.exact.any()
    assert (tied.n_zeros > 0).any()


def _tables():
    """Scores of 1 to 70 items and 2 to 5 systems: integers, decimals on a grid (the tie rule
    reads their ulp-apart differences as ties and zeros), or continuous."""
    shape = st.tuples(st.integers(1, 70), st.integers(2, 5))
    return st.one_of(
        hnp.arrays(np.float64, shape, elements=st.integers(-4, 4).map(float)),
        hnp.arrays(np.float64, shape, elements=st.integers(0, 30).map(lambda v: 7.25 + v / 10)),
        hnp.arrays(np.float64, shape, elements=st.floats(-10, 10, allow_subnormal=False)),
    )


@settings(max_examples=120, deadline=None)
@given(x=_tables(), alternative=st.sampled_from(["two-sided", "less", "greater"]),
       correction=st.booleans())  # fmt: skip
def test_each_pair_is_the_one_pair_test_bit_for_bit(x, alternative, correction):
    pairs = _all_pairs(x.shape[1])
    res = signrank_pvalues(x, pairs, alternative=alternative, correction=correction)
    for c, (a, b) in enumerate(pairs):
        one = core.signrank_pair(x[:, a], x[:, b], precision=2.0**-53,
                                 alternative=alternative, confidence_level=0.95, method="auto",
                                 correction=correction)  # fmt: skip
        assert res.n_zeros[c] == one.n_zeros
        assert res.statistic[c] == one.statistic
        assert res.z[c] == one.z
        assert res.pvalue[c] == one.pvalue
        assert res.exact[c] == (one.method != "asymptotic")


def test_blocks_of_pairs_and_no_pairs(monkeypatch):
    from pairedstats.core import signrank_pairs

    rng = np.random.default_rng(3)
    x = np.round(rng.random((40, 6)), 2)
    whole = signrank_pvalues(x, _all_pairs(6))
    monkeypatch.setattr(signrank_pairs, "_BLOCK", 100)  # two pairs per block
    blocks = signrank_pvalues(x, _all_pairs(6))
    np.testing.assert_array_equal(whole.pvalue, blocks.pvalue)
    assert signrank_pvalues(x, []).pvalue.shape == (0,)
    none = core.signrank_1d(np.empty(0), alternative="two-sided", confidence_level=0.95,
                            method="auto", correction=True)  # fmt: skip
    assert signrank_pvalues(np.empty((0, 3)), [(0, 1)]).pvalue.tolist() == [none.pvalue] == [1]


def test_friedman_wilcoxon_holm_is_the_signed_rank_test_of_each_pair():
    rng = np.random.default_rng(5)
    x = np.round(rng.random((60, 4)), 1)  # decimals: ties and zeros by the tie rule
    for lower in (False, True):
        fr = pairedstats.friedman(x, lower_is_better=lower)
        sr = pairedstats.signrank(-x if lower else x)
        assert (fr.pvalue != 1).any()
        assert (sr.method == "asymptotic").all()
        np.testing.assert_array_equal(fr.pvalue, sr.pvalue)


# ----------------------------------------------------------------- Walsh averages
def _walsh(x):
    i, j = np.triu_indices(x.size)
    return np.sort((x[i] + x[j]) / 2)


@settings(max_examples=80, deadline=None)
@given(
    x=st.one_of(
        hnp.arrays(np.float64, st.integers(1, 400),
                   elements=st.floats(-1e3, 1e3, allow_subnormal=False)),
        hnp.arrays(np.float64, st.integers(1, 400), elements=st.integers(-5, 5).map(float)),
    ),
    data=st.data(),
)  # fmt: skip
def test_walsh_order_statistics_are_np_sort(x, data):
    # up to 361 values numpy forms the sums (2**16), above a compiled loop does
    x = np.sort(x)
    w = _walsh(x)
    ks = data.draw(st.lists(st.integers(1, w.size), min_size=1, max_size=6))
    np.testing.assert_array_equal(core.walsh_order_statistics(x, ks), w[np.array(ks) - 1])


@pytest.mark.parametrize("n", [1, 2, 1447, 1448])
def test_walsh_order_statistics_at_the_edges(n):
    # 1447 values: 1,047,628 sums, the most that are formed; 1448: the selection rounds
    rng = np.random.default_rng(n)
    for x in (np.sort(rng.normal(size=n)), np.sort(rng.integers(-9, 10, size=n) / 4)):
        w = _walsh(x)
        ks = [*sorted({1, w.size, (w.size + 1) // 2, w.size // 3 + 1}), 1, w.size]
        np.testing.assert_array_equal(core.walsh_order_statistics(x, ks), w[np.array(ks) - 1])
    with pytest.raises(ValueError, match=f"between 1 and {w.size}; got {w.size + 1}"):
        core.walsh_order_statistics(x, [1, w.size + 1])
