"""The McNemar core: R's mcnemar.test and binom.test, statsmodels' mcnemar and scipy's
binomtest reproduced; published examples of the tests (Fagerland et al. 2013) and of Tango's
interval; the interval against an independent solution (the quartic its ends solve), exact
enumeration of its coverage and of the exact test's size; the clustered test and design
effect, equal to the unclustered ones with clusters of one item."""

import csv
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.polynomial import Polynomial
from scipy import special, stats
from tests.data import binomtest_half

from pairedstats.core.mcnemar import (
    cluster_design_effect,
    clustered_test,
    mcnemar_1d,
    mcnemar_test,
    paired_counts,
    tango_interval,
    tango_score,
)

REF = Path(__file__).parents[1] / "reference" / "mcnemar"
ALTERNATIVES = ("two-sided", "less", "greater")
_R_ALT = {"two-sided": "two.sided", "less": "less", "greater": "greater"}


def _read(name):
    with open(REF / name, newline="") as fh:
        return list(csv.DictReader(fh))


R_ROWS = _read("reference.csv")
SM_ROWS = _read("statsmodels.csv")


def _id(row):
    return f"{row['only_a']}-{row['only_b']}"


# --------------------------------------------------------------------------- references
def test_references_cover_the_tables():
    tables = {(r["only_a"], r["only_b"]) for r in _read("tables.csv")}
    assert len(tables) >= 15
    assert tables == {(r["only_a"], r["only_b"]) for r in R_ROWS}
    assert tables == {(r["only_a"], r["only_b"]) for r in SM_ROWS}


@pytest.mark.parametrize("row", R_ROWS, ids=_id)
def test_matches_r(row):
    y, x = int(row["only_a"]), int(row["only_b"])
    for alternative in ALTERNATIVES:
        got = mcnemar_test(y, x, method="exact", alternative=alternative).pvalue
        np.testing.assert_allclose(got, float(row[f"binom_{_R_ALT[alternative]}"]), rtol=1e-12)
    for correction, tag in ((True, "corrected"), (False, "uncorrected")):
        t = mcnemar_test(y, x, method="asymptotic", correction=correction)
        np.testing.assert_allclose(t.statistic, float(row[f"chi2_{tag}"]), rtol=1e-12)
        np.testing.assert_allclose(t.pvalue, float(row[f"p_{tag}"]), rtol=1e-12)


@pytest.mark.parametrize("row", SM_ROWS, ids=_id)
def test_matches_statsmodels(row):
    y, x = int(row["only_a"]), int(row["only_b"])
    np.testing.assert_allclose(mcnemar_test(y, x).pvalue, float(row["exact_p"]), rtol=1e-12)
    assert float(row["exact_statistic"]) == min(x, y)  # statsmodels' statistic; ours is only_b
    t = mcnemar_test(y, x, method="asymptotic")
    np.testing.assert_allclose(t.statistic, float(row["chi2_uncorrected"]), rtol=1e-12)
    np.testing.assert_allclose(t.pvalue, float(row["p_uncorrected"]), rtol=1e-12)
    t = mcnemar_test(y, x, method="asymptotic", correction=True)
    if x == y:  # statsmodels' (|0| - 1)^2 / N moves away from the null; ours (R's) is 0
        assert t.statistic == 0.0
        assert t.pvalue == 1.0
        assert float(row["chi2_corrected"]) == pytest.approx(1 / (x + y))
    else:
        np.testing.assert_allclose(t.statistic, float(row["chi2_corrected"]), rtol=1e-12)
        np.testing.assert_allclose(t.pvalue, float(row["p_corrected"]), rtol=1e-12)


@pytest.mark.parametrize("n", [1, 2, 5, 8, 13, 30, 101,
                               pytest.param(1000, marks=pytest.mark.slow)])  # fmt: skip
@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_exact_equals_scipy_binomtest(n, alternative):
    for x in range(n + 1):
        expected = stats.binomtest(x, n, 0.5, alternative=alternative).pvalue
        got = mcnemar_test(n - x, x, alternative=alternative).pvalue
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-300)
        # the tests' shortcut for the power enumerations (tests.data.binomtest_half)
        np.testing.assert_allclose(binomtest_half(n, alternative)[x], expected, rtol=1e-12,
                                   atol=1e-300)  # fmt: skip


def _binomial(n):
    return [Fraction(math.comb(n, k), 2**n) for k in range(n + 1)]


@pytest.mark.parametrize("n", [1, 2, 3, 7, 10, 25])
def test_mid_p_is_its_definition_in_exact_arithmetic(n):
    pmf = _binomial(n)
    for x in range(n + 1):
        greater = sum(pmf[x + 1 :]) + pmf[x] / 2
        less = sum(pmf[:x]) + pmf[x] / 2
        k = min(x, n - x)
        two = 2 * sum(pmf[:k]) + pmf[k]  # Fagerland et al. (2013), eq. for the mid-p
        assert two == min(1, 2 * min(greater, less))
        for alternative, p in (("greater", greater), ("less", less), ("two-sided", two)):
            got = mcnemar_test(n - x, x, method="mid-p", alternative=alternative).pvalue
            assert got == pytest.approx(float(p), rel=1e-12)
            assert got <= mcnemar_test(n - x, x, alternative=alternative).pvalue


def test_fagerland_2013_worked_example():
    # Fagerland, Lydersen and Laake (2013), BMC Med Res Methodol 13:91, their example
    # (airway hyper-responsiveness before and after stem cell transplantation, Bentur et
    # al. 2009): 21 children, discordant pairs 1 and 7. Their p-values, 3 decimals.
    published = {"exact": 0.070, "mid-p": 0.039, "asymptotic": 0.034}
    for method, p in published.items():
        assert round(mcnemar_test(1, 7, method=method).pvalue, 3) == p
    assert round(mcnemar_test(1, 7, method="asymptotic", correction=True).pvalue, 3) == 0.077


def test_no_discordant_item():
    for method in ("exact", "mid-p", "asymptotic"):
        t = mcnemar_test(0, 0, method=method)
        assert t.pvalue == 1.0
    assert mcnemar_test(0, 0, method="asymptotic").statistic == 0.0
    assert mcnemar_test(0, 0).statistic == 0.0


# --------------------------------------------------------------------------- Tango
def _published_tango() -> list:
    """The published Tango intervals of tests/reference/mcnemar/published.csv (each with
    its source and where it was read): (table, level, (low, high) as printed, source)."""
    import csv
    from pathlib import Path

    path = Path(__file__).parents[1] / "reference" / "mcnemar" / "published.csv"
    with path.open() as fh:
        rows = list(csv.DictReader(fh))
    out = {}
    for row in rows:
        if row["quantity"] not in ("tango_low", "tango_high"):
            continue
        table = tuple(int(row[k]) for k in ("both", "only_first", "only_second", "neither"))
        key = (table, float(row["confidence_level"]), row["source"])
        out.setdefault(key, {})[row["quantity"]] = row["published"]
    return [(t, level, (ends["tango_low"], ends["tango_high"]), source)
            for (t, level, source), ends in out.items()]  # fmt: skip


PUBLISHED = _published_tango()


@pytest.mark.parametrize(("table", "level", "expected", "source"), PUBLISHED)
def test_tango_matches_published_intervals(table, level, expected, source):
    _, b, c, _ = table
    n = sum(table)
    # our b - a with a = the second condition (only_a = c) and b = the first (only_b = b)
    ci = tango_interval(c, b, n, confidence_level=level)
    digits = len(expected[0].split(".")[1])
    half = 0.5 * 10.0**-digits + 1e-12
    assert abs(ci.low - float(expected[0])) <= half, source
    assert abs(ci.high - float(expected[1])) <= half, source
    assert len(PUBLISHED) >= 7


def _quartic_ends(y, x, n, z):
    """The interval's ends by an independent road: the roots of the quartic that squaring
    T(delta)^2 = z^2 twice gives, ``(2 s^2 / z^2 + W - 2 n d (1 - d))^2 = W^2 + 8 n y d (1 -
    d)`` with ``s = x - y - n d`` (Tango 1998's score equation; Yang, Sun and Hardin 2013
    solve the same quartic in closed form), keeping the roots in [-1, 1] where the squared
    side is non-negative."""
    d = Polynomial([0.0, 1.0])
    s = x - y - n * d
    w = -x - y + (2 * n - x + y) * d
    lhs = 2 * s * s / z**2 + w - 2 * n * d * (1 - d)
    roots = (lhs * lhs - (w * w + 8 * n * y * d * (1 - d))).roots()
    real = [r.real for r in roots if abs(r.imag) < 1e-7 and -1 - 1e-9 <= r.real <= 1 + 1e-9]
    real = [r for r in real if lhs(r) >= -1e-7]
    estimate = (x - y) / n
    low = [r for r in real if r < estimate - 1e-12]
    high = [r for r in real if r > estimate + 1e-12]
    return low, high


@pytest.mark.parametrize("n", [1, 2, 3, 6, 11])
def test_tango_ends_solve_the_score_equation_and_agree_with_the_quartic(n):
    z = special.ndtri(0.975)
    for y in range(n + 1):
        for x in range(n + 1 - y):
            ci = tango_interval(y, x, n)
            assert -1.0 <= ci.low <= (x - y) / n <= ci.high <= 1.0
            ends = [e for e in (ci.low, ci.high) if abs(e) < 1]
            np.testing.assert_allclose(np.abs(tango_score(ends, y, x, n)), z, rtol=1e-9)
            low, high = _quartic_ends(y, x, n, z)
            if ci.low > -1:
                assert min(abs(r - ci.low) for r in low) < 1e-8
            if ci.high < 1:
                assert min(abs(r - ci.high) for r in high) < 1e-8


@pytest.mark.parametrize("n", [1, 5, 20, 200])
@pytest.mark.parametrize("level", [0.8, 0.95, 0.99])
def test_tango_at_the_edges_is_informative(n, level):
    z2 = special.ndtri(0.5 + level / 2) ** 2
    # no discordant item (every rate 0%, 100%, or any agreement): +-z^2 / (n + z^2)
    ci = tango_interval(0, 0, n, confidence_level=level)
    np.testing.assert_allclose([ci.low, ci.high], [-z2 / (n + z2), z2 / (n + z2)], rtol=1e-10)
    # every item won by b (a at 0%, b at 100%): (n - z^2) / (n + z^2) up to 1
    ci = tango_interval(0, n, n, confidence_level=level)
    np.testing.assert_allclose(ci.low, (n - z2) / (n + z2), rtol=1e-10, atol=1e-12)
    assert ci.high == 1.0
    ci = tango_interval(n, 0, n, confidence_level=level)
    assert ci.low == -1.0
    np.testing.assert_allclose(ci.high, -(n - z2) / (n + z2), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("alternative", ["greater", "less"])
def test_one_sided_interval_is_an_end_at_twice_the_tail(alternative):
    for y, x, n in [(3, 9, 32), (0, 0, 10), (1, 7, 21), (0, 5, 5), (12, 3, 40)]:
        one = tango_interval(y, x, n, confidence_level=0.95, alternative=alternative)
        two = tango_interval(y, x, n, confidence_level=0.90)
        if alternative == "greater":
            assert one.high == 1.0
            assert one.low == two.low
        else:
            assert one.low == -1.0
            assert one.high == two.high


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 300).flatmap(
        lambda n: st.tuples(st.just(n), st.integers(0, n)).flatmap(
            lambda t: st.tuples(st.just(t[0]), st.just(t[1]), st.integers(0, t[0] - t[1]))
        )
    ),
    st.sampled_from(ALTERNATIVES),
    st.floats(0.5, 0.999),
)
def test_swapping_a_and_b_mirrors_the_interval_and_the_test(table, alternative, level):
    n, y, x = table
    mirror = {"greater": "less", "less": "greater", "two-sided": "two-sided"}[alternative]
    ci = tango_interval(y, x, n, confidence_level=level, alternative=alternative)
    swapped = tango_interval(x, y, n, confidence_level=level, alternative=mirror)
    np.testing.assert_allclose([-swapped.high, -swapped.low], [ci.low, ci.high], atol=1e-12)
    for method in ("exact", "mid-p", "asymptotic"):
        p = mcnemar_test(y, x, method=method, alternative=alternative).pvalue
        q = mcnemar_test(x, y, method=method, alternative=mirror).pvalue
        assert p == pytest.approx(q, rel=1e-12, abs=1e-300)
    t = np.linspace(-1, 1, 41)
    assert np.all(np.diff(tango_score(t, y, x, n)) <= 1e-12)  # T decreases in delta


def _tables(n):
    return np.array([(y, x) for y in range(n + 1) for x in range(n + 1 - y)]).T


def _multinomial(n, y, x, pa, pb):
    log = (
        special.gammaln(n + 1)
        - special.gammaln(y + 1)
        - special.gammaln(x + 1)
        - special.gammaln(n - x - y + 1)
        + special.xlogy(y, pa)
        + special.xlogy(x, pb)
        + special.xlogy(n - x - y, 1 - pa - pb)
    )
    return np.exp(log)


@pytest.mark.slow  # coverage over a grid of true rates (4 s)
def test_tango_coverage_by_exact_enumeration():
    # every table of n = 10..20 items, weighted by its multinomial probability, at true
    # P(only a) and P(only b) on a grid: the exact coverage of the 95% interval. Measured:
    # 0.943 at the worst point (n = 17, 0.3, 0.2), 0.966 on average, never below 0.94.
    coverage = []
    for n in range(10, 21):
        ys, xs = _tables(n)
        cis = np.array([[c.low, c.high] for c in map(tango_interval, ys, xs, [n] * ys.size)])
        for pa in (0.05, 0.1, 0.2, 0.3):
            for pb in (0.05, 0.1, 0.2, 0.3, 0.4):
                delta = pb - pa
                inside = (cis[:, 0] <= delta + 1e-12) & (delta - 1e-12 <= cis[:, 1])
                coverage.append(float(np.sum(_multinomial(n, ys, xs, pa, pb) * inside)))
    assert min(coverage) > 0.94
    assert 0.955 < np.mean(coverage) < 0.975


@pytest.mark.slow  # size over a grid of true rates (4 s)
def test_exact_test_size_never_exceeds_alpha():
    # P(reject) at equal rates, P(only a) = P(only b) = pi, by exact enumeration of the
    # number N of discordant items and of only_b given N: never above alpha for the exact
    # test (measured max 0.049 for n = 10..40); the mid-p and asymptotic tests can exceed
    # it, most where every item is discordant (measured max 0.077 at n = 16 and 0.078 at
    # n = 21, both at pi = 0.5; validation/mcnemar_enumeration.py).
    worst = {}
    for method in ("exact", "mid-p", "asymptotic"):
        top = 0.0
        for n in range(10, 41, 3):
            reject = np.zeros(n + 1)
            for big in range(n + 1):
                ks = np.arange(big + 1)
                p = np.array([mcnemar_test(big - k, k, method=method).pvalue for k in ks])
                reject[big] = np.sum(stats.binom.pmf(ks, big, 0.5) * (p <= 0.05))
            for pi in np.linspace(0.005, 0.5, 60):
                top = max(
                    top, float(np.sum(stats.binom.pmf(np.arange(n + 1), n, 2 * pi) * reject))
                )
        worst[method] = top
    assert worst["exact"] <= 0.05
    assert worst["mid-p"] < 0.08
    assert worst["asymptotic"] < 0.08


# --------------------------------------------------------------------------- clusters
def test_durkalski_statistic_by_hand():
    a = [1, 1, 1, 0, 0, 0, 1, 0, 0]
    b = [0, 1, 1, 1, 1, 1, 1, 1, 0]
    cluster = ["p", "p", "p", "q", "q", "q", "r", "r", "r"]
    # D = (-1, 3, 1): X^2 = 3^2 / (1 + 9 + 1)
    t = clustered_test(a, b, cluster)
    assert t.statistic == 9 / 11
    assert t.n_clusters == 3
    assert t.pvalue == pytest.approx(stats.chi2.sf(9 / 11, 1), rel=1e-14)
    assert clustered_test(a, b, cluster, alternative="greater").z == 3 / math.sqrt(11)
    # V_c = sum (D_k - 3 * 1/3)^2 = 4 + 4 + 0 = 8, V_m = 5 - 9 * (1/3)^2 = 4
    assert cluster_design_effect(a, b, cluster) == 2.0


_OUTCOMES = st.integers(1, 60).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 1), min_size=n, max_size=n),
        st.lists(st.integers(0, 1), min_size=n, max_size=n),
    )
)


@settings(max_examples=80, deadline=None)
@given(_OUTCOMES, st.sampled_from(ALTERNATIVES), st.randoms(use_true_random=False))
def test_clusters_of_one_item_are_the_unclustered_asymptotic_test(outcomes, alternative, rnd):
    a, b = outcomes
    labels = list(range(len(a)))
    rnd.shuffle(labels)  # any labels, in any order
    counts = paired_counts(a, b)
    clustered = clustered_test(a, b, labels, alternative=alternative)
    plain = mcnemar_test(
        counts.only_a, counts.only_b, method="asymptotic", alternative=alternative
    )
    assert (clustered.statistic, clustered.z, clustered.pvalue) == (
        plain.statistic,
        plain.z,
        plain.pvalue,
    )
    assert clustered.design_effect == 1.0
    one = mcnemar_1d(a, b, method="asymptotic", alternative=alternative, cluster=labels)
    two = mcnemar_1d(a, b, method="asymptotic", alternative=alternative)
    assert (one.ci_low, one.ci_high, one.pvalue) == (two.ci_low, two.ci_high, two.pvalue)


@settings(max_examples=60, deadline=None)
@given(_OUTCOMES, st.integers(1, 8), st.randoms(use_true_random=False))
def test_clustered_numbers_follow_the_clusters_not_their_labels_or_order(outcomes, k, rnd):
    a, b = (np.array(v) for v in outcomes)
    cluster = np.array([rnd.randrange(k) for _ in a])
    order = np.array(rnd.sample(range(a.size), a.size))
    names = dict(enumerate(f"c{j}" for j in rnd.sample(range(100, 200), k)))  # distinct
    renamed = np.array([names[c] for c in cluster])
    one = mcnemar_1d(a, b, method="asymptotic", cluster=cluster)
    two = mcnemar_1d(a[order], b[order], method="asymptotic", cluster=renamed[order])
    assert one == two
    assert one.design_effect >= 1.0
    plain = mcnemar_1d(a, b, method="asymptotic")
    assert one.ci_low <= plain.ci_low + 1e-15
    assert plain.ci_high <= one.ci_high + 1e-15


# --------------------------------------------------------------------------- refusals
@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: paired_counts([0, 1, 0.5], [0, 1, 1]), r"`a` must hold 0/1 .* got 0\.5"),
        (lambda: paired_counts([0, 1, 1], [0, np.nan, 1]), r"`b` must hold 0/1 .* got nan"),
        (lambda: paired_counts([0, 1, 2], [0, 1, 1]), r"`a` must hold 0/1 .* got 2"),
        (lambda: paired_counts([0, 1], [0, 1, 1]), "same items"),
        (lambda: paired_counts([], []), "at least one"),
        (lambda: mcnemar_test(1, 2, method="fisher"), "`method` must be one of"),
        (lambda: mcnemar_test(1, 2, alternative="bigger"), "`alternative` must be one of"),
        (lambda: mcnemar_test(1, 2, correction=True), "asymptotic test only"),
        (lambda: mcnemar_test(-1, 2), "`only_a` must be a non-negative integer"),
        (lambda: tango_interval(1, 2, 2), "at least only_a \\+ only_b = 3"),
        (lambda: tango_interval(1, 2, 9, confidence_level=1.0), "`confidence_level`"),
        (lambda: tango_interval(1, 2, 9, design_effect=0.0), "`design_effect`"),
        (lambda: mcnemar_1d([0, 1], [1, 1], cluster=[0, 1]), "pass method='asymptotic'"),
        (lambda: clustered_test([0, 1], [1, 1], [0]), "one value per item"),
    ],
)
def test_invalid_input_is_refused(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_bool_and_numbers_give_the_same_table():
    a = np.array([True, False, True, True])
    b = np.array([False, False, True, True])
    assert paired_counts(a, b) == paired_counts(a.astype(float), b.astype(int))


@pytest.mark.parametrize("table", [(43, 31, 74), (31, 43, 74), (0, 5, 5), (3, 3, 10)])
def test_a_one_sided_interval_at_level_one_half_ends_at_the_estimate(table):
    # z = 0: the score equation's root is the estimate itself, where T is 0 up to rounding
    # (found by hypothesis: root finding had no sign change there)
    only_a, only_b, n = table
    estimate = (only_b - only_a) / n
    less = tango_interval(only_a, only_b, n, confidence_level=0.5, alternative="less")
    greater = tango_interval(only_a, only_b, n, confidence_level=0.5, alternative="greater")
    assert less.high == pytest.approx(estimate, abs=1e-12)
    assert greater.low == pytest.approx(estimate, abs=1e-12)
    assert (less.low, greater.high) == (-1.0, 1.0)
