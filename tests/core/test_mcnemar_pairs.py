"""Many pairs at once (pairedstats.core.mcnemar_pairs): statsmodels' McNemar test of each
pair's 2 x 2 table, Tango's ends as roots of the score written here from the paper and
found one by one with brentq, the design effect in exact rational arithmetic; each table's
numbers do not depend on the tables computed with it."""

import math
from fractions import Fraction
from itertools import combinations, permutations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import optimize, special
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

from pairedstats.core.mcnemar import mcnemar_1d
from pairedstats.core.mcnemar_pairs import _pair_products, mcnemar_pairs
from pairedstats.core.tango import tango_ends

ALTERNATIVES = ("two-sided", "less", "greater")


def _outcomes(n_items: int, seed: int) -> np.ndarray:
    """Systems of varied rates, some correlated, with the edge columns: all 1s, all 0s, a
    copy of another column (no discordant item) and its complement (all discordant)."""
    gen = np.random.default_rng(seed)
    base = gen.random(n_items) < 0.6
    x = np.column_stack(
        [gen.random(n_items) < p for p in (0.05, 0.3, 0.5, 0.8)]
        + [base ^ (gen.random(n_items) < f) for f in (0.0, 0.02, 0.1)]
    )
    return np.column_stack([x, np.ones(n_items, bool), np.zeros(n_items, bool), x[:, 1],
                            ~x[:, 1]])  # fmt: skip


def _table(a, b):
    return [[np.sum(a & b), np.sum(a & ~b)], [np.sum(~a & b), np.sum(~a & ~b)]]


@pytest.mark.parametrize("n_items", [1, 7, 60, 2_000])
def test_every_pair_is_statsmodels_mcnemar(n_items):
    x = _outcomes(n_items, n_items)
    pairs = list(permutations(range(x.shape[1]), 2))  # both orders: b - a and a - b
    exact = mcnemar_pairs(x, pairs)
    chi2 = mcnemar_pairs(x, pairs, method="asymptotic")
    for p, (i, j) in enumerate(pairs):
        a, b = x[:, i], x[:, j]
        assert (exact.only_a[p], exact.only_b[p]) == (np.sum(a & ~b), np.sum(~a & b))
        table = _table(a, b)
        np.testing.assert_allclose(exact.pvalue[p], sm_mcnemar(table, exact=True).pvalue,
                                   rtol=1e-12)  # fmt: skip
        if exact.only_a[p] + exact.only_b[p] == 0:  # statsmodels' chi-square is 0 / 0 there
            assert (chi2.statistic[p], chi2.pvalue[p]) == (0.0, 1.0)
            continue
        ref = sm_mcnemar(table, exact=False, correction=False)
        np.testing.assert_allclose(chi2.statistic[p], ref.statistic, rtol=1e-12)
        np.testing.assert_allclose(chi2.pvalue[p], ref.pvalue, rtol=1e-12)
    np.testing.assert_array_equal(exact.rate_a, x[:, [i for i, _ in pairs]].mean(axis=0))
    np.testing.assert_array_equal(exact.difference, (exact.only_b - exact.only_a) / n_items)


# --------------------------------------------------------------------------- Tango's ends
def _paper_score(delta: float, only_a: int, only_b: int, n: int) -> float:
    """Tango's (1998) score statistic, from his equations: with b = only_b and c = only_a,
    p21 is the root in [0, 1] of 2 n p^2 + W p - c delta (1 - delta) = 0 (taken in the form
    that does not cancel), T = (b - c - n delta) / sqrt(n (2 p21 + delta (1 - delta)))."""
    b, c = only_b, only_a
    w = -b - c + (2 * n - b + c) * delta
    disc = math.sqrt(w * w + 8 * n * c * delta * (1 - delta))
    p21 = 2 * c * delta * (1 - delta) / (disc + w) if w > 0 else (disc - w) / (4 * n)
    variance = n * (2 * p21 + delta * (1 - delta))
    top = b - c - n * delta
    if top == 0:
        return 0.0
    return top / math.sqrt(variance) if variance > 0 else math.copysign(math.inf, top)


def _paper_ends(only_a, only_b, n, z):
    """Each end one by one: the delta where T = z (low) and T = -z (high), by brentq on the
    arctan of the score (finite at the bounds); the bound where the score does not reach."""
    estimate = (only_b - only_a) / n

    def end(target, lo, hi):
        def gap(d):
            return math.atan(_paper_score(d, only_a, only_b, n)) - math.atan(target)

        if gap(lo) * gap(hi) > 0:  # the score does not cross the quantile: the bound
            return lo if abs(gap(lo)) <= abs(gap(hi)) else hi
        return optimize.brentq(gap, lo, hi, xtol=1e-15, rtol=4 * np.finfo(float).eps)

    low = end(z, -1.0, estimate) if estimate > -1 else -1.0
    high = end(-z, estimate, 1.0) if estimate < 1 else 1.0
    return low, high


def _tables(n_tables: int, seed: int):
    gen = np.random.default_rng(seed)
    n = gen.integers(1, 3_000, n_tables)
    only_a = (gen.random(n_tables) * gen.random(n_tables) * (n + 1)).astype(int)
    only_b = (gen.random(n_tables) * (n - only_a + 1)).astype(int)
    edges = np.array([(0, 0, 1), (0, 0, 20), (1, 0, 44), (0, 1, 44), (5, 0, 5), (0, 5, 5),
                      (3, 3, 6), (0, 7, 9), (9, 0, 9), (1, 1, 3)])  # fmt: skip
    return (np.r_[only_a, edges[:, 0]], np.r_[only_b, edges[:, 1]], np.r_[n, edges[:, 2]])


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("confidence_level", [0.8, 0.95, 0.999])
def test_tango_ends_are_the_roots_of_the_paper_score(alternative, confidence_level):
    only_a, only_b, n = _tables(60, int(confidence_level * 1000))
    effect = np.where(np.arange(n.size) % 3 == 0, 1.0, 1.7)
    low, high = tango_ends(only_a, only_b, n, confidence_level=confidence_level,
                           alternative=alternative, design_effect=effect)  # fmt: skip
    tail = 1 - confidence_level
    z = special.ndtri(1 - (tail / 2 if alternative == "two-sided" else tail))
    for k in range(n.size):
        ref = _paper_ends(int(only_a[k]), int(only_b[k]), int(n[k]), z * math.sqrt(effect[k]))
        want = (ref[0] if alternative != "less" else -1.0,
                ref[1] if alternative != "greater" else 1.0)  # fmt: skip
        np.testing.assert_allclose((low[k], high[k]), want, rtol=1e-10, atol=1e-12)
        assert -1.0 <= low[k] <= (only_b[k] - only_a[k]) / n[k] <= high[k] <= 1.0


# --------------------------------------------------------------------------- clusters
def _rational_design_effect(a, b, cluster) -> float:
    """V_c / V_m of the Rao-Scott design effect, in fractions, from the items one by one."""
    d = [int(v) - int(u) for u, v in zip(a, b, strict=True)]
    n, mean = len(d), Fraction(sum(d), len(d))
    sums, sizes = {}, {}
    for di, k in zip(d, cluster, strict=True):
        sums[k] = sums.get(k, 0) + di
        sizes[k] = sizes.get(k, 0) + 1
    v_c = sum((sums[k] - sizes[k] * mean) ** 2 for k in sums)
    v_m = sum((di - mean) ** 2 for di in d)
    assert n == sum(sizes.values())
    return 1.0 if v_m == 0 else float(max(v_c / v_m, Fraction(1)))


@pytest.mark.parametrize("n_clusters", [1, 5, 40, 300])
def test_clustered_pairs_follow_their_definitions(n_clusters):
    x = _outcomes(300, n_clusters)
    cluster = np.random.default_rng(n_clusters).integers(0, n_clusters, 300) * 7 - 3
    pairs = list(combinations(range(x.shape[1]), 2))
    got = mcnemar_pairs(x, pairs, method="asymptotic", cluster=cluster, alternative="greater")
    assert got.n_clusters == np.unique(cluster).size
    for p, (i, j) in enumerate(pairs):
        a, b = x[:, i], x[:, j]
        assert got.design_effect[p] == _rational_design_effect(a, b, cluster)
        d = b.astype(int) - a.astype(int)
        sums = np.array([d[cluster == k].sum() for k in np.unique(cluster)])
        if not sums.any():
            assert (got.statistic[p], got.pvalue[p]) == (0.0, 0.5)
            continue
        z = sums.sum() / math.sqrt(np.sum(sums**2))  # Durkalski's score
        np.testing.assert_allclose(got.statistic[p], z * z, rtol=1e-13)
        np.testing.assert_allclose(got.pvalue[p], special.ndtr(-z), rtol=1e-13)


# --------------------------------------------------------------------------- the batch
_MATRICES = st.tuples(st.integers(1, 40), st.integers(2, 5), st.integers(0, 2**32 - 1)).map(
    lambda t: (
        np.random.default_rng(t[2]).random((t[0], t[1]))
        < np.random.default_rng(t[2] + 1).random(t[1])
    )
)


@settings(max_examples=60, deadline=None)
@given(_MATRICES, st.sampled_from(("exact", "mid-p", "asymptotic")),
       st.sampled_from(ALTERNATIVES), st.sampled_from((0.5, 0.9, 0.95)),
       st.booleans())  # fmt: skip
def test_each_pair_is_its_own_comparison_to_the_bit(x, method, alternative, level, clustered):
    # a table's numbers do not depend on the others computed with it (Tango's ends are
    # found in lockstep), nor on the order of the pairs
    pairs = list(permutations(range(x.shape[1]), 2))
    cluster = np.arange(x.shape[0]) // 3 if clustered else None
    method = "asymptotic" if clustered else method
    kw = dict(method=method, alternative=alternative, confidence_level=level, cluster=cluster)
    batch = mcnemar_pairs(x, pairs, **kw)
    backwards = mcnemar_pairs(x, pairs[::-1], **kw)
    for p, (i, j) in enumerate(pairs):
        one = mcnemar_1d(x[:, i], x[:, j], **kw)
        for name, value in vars(one).items():
            if value is None or name in ("n_items", "method", "n_clusters"):
                assert getattr(batch, name) == value or name == "n_items", name
                continue
            for got in (getattr(batch, name)[p], getattr(backwards, name)[-1 - p]):
                assert got == value or (math.isnan(got) and math.isnan(value)), name


@pytest.mark.parametrize("largest", [2**24, 2**40, 2**60])
def test_the_products_are_exact_in_each_dtype(largest):
    # float32 up to 2**24, float64 up to 2**53, int64 beyond; every pair from the whole
    # product, and a baseline from the product of one column with the others
    m = np.random.default_rng(1).integers(0, 50, (200, 6))
    want = m.T.astype(object) @ m.astype(object)
    for pairs in (list(combinations(range(6), 2)), [(2, k) for k in range(6) if k != 2],
                  [(k, 4) for k in range(6) if k != 4]):  # fmt: skip
        a, b = np.array(pairs).T
        cross, squares = _pair_products(m, a, b, largest)
        assert cross.tolist() == [want[i, j] for i, j in pairs]
        assert squares.tolist() == np.diagonal(want).tolist()


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: mcnemar_pairs([[0, 1], [0.5, 1]], [(0, 1)]), r"`x` must hold 0/1 .* got 0\.5"),
        (lambda: mcnemar_pairs([0, 1, 1], [(0, 1)]), "must be 2-D"),
        (lambda: mcnemar_pairs(np.zeros((0, 2)), [(0, 1)]), "at least one item"),
        (lambda: mcnemar_pairs([[0, 1]], [(0, 1)], method="fisher"), "`method` must be one of"),
        (lambda: mcnemar_pairs([[0, 1]], [(0, 1)], cluster=[0]), "pass method='asymptotic'"),
        (lambda: mcnemar_pairs([[0, 1]], [(0, 1)], method="asymptotic", cluster=[0, 1]),
         "one value per item"),
        (lambda: mcnemar_pairs([[0, 1]], [(0, 1)], confidence_level=1.0), "confidence_level"),
    ],
)  # fmt: skip
def test_invalid_input_is_refused(call, match):
    with pytest.raises(ValueError, match=match):
        call()
