"""Multiple-comparison adjustments (pairedstats.core.adjust) against R, scipy, brute force
and simulation.

Reference values: tests/reference/adjust/reference.csv, written by make_reference.R in the
same folder (R's stats::p.adjust with "holm", "bonferroni" and "BH"), and
tests/reference/adjust/fdr_by.csv, written by make_fdr_by.py (statsmodels' multipletests with
"fdr_by", on the same cases).
"""

import csv
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from pairedstats.core import adjust
from pairedstats.core.intervals import percentile_interval

REF = Path(__file__).parent.parent / "reference" / "adjust"
R_METHOD = {"holm": "holm", "bonferroni": "bonferroni", "BH": "fdr_bh", "fdr_by": "fdr_by"}


def _numbers(text):
    return np.array([np.nan if v == "NA" else float(v) for v in text.split()])


def _reference():
    rows = []
    for name in ("reference.csv", "fdr_by.csv"):
        with open(REF / name, newline="") as fh:
            rows += [
                (
                    row["case"],
                    R_METHOD[row["method"]],
                    _numbers(row["p"]),
                    _numbers(row["adjusted"]),
                )
                for row in csv.DictReader(fh)
            ]
    return rows


REFERENCE = _reference()
CASES = {case: p for case, _, p, _ in REFERENCE}


# --- (a) R's p.adjust ------------------------------------------------------------------------


def test_reference_covers_the_cases_we_need():
    assert len(CASES) >= 12
    lengths = {p.size for p in CASES.values()}
    assert 1 in lengths
    assert max(lengths) == 100
    assert any(np.isnan(p).any() for p in CASES.values())
    assert any((p == 1).sum() >= 2 for p in CASES.values())
    assert any(np.nanmin(p) < 1e-300 for p in CASES.values())
    assert any(np.unique(p).size < p.size for p in CASES.values())  # ties


@pytest.mark.parametrize(
    ("case", "method", "p", "expected"), REFERENCE, ids=[f"{c}-{m}" for c, m, _, _ in REFERENCE]
)
def test_agrees_with_r_p_adjust(case, method, p, expected):
    got = adjust.adjust_pvalues(p, method)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(expected))
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=0)


@pytest.mark.parametrize("method", adjust.PVALUE_METHODS)
def test_agrees_with_r_on_all_cases_at_once_padded_with_nan(method):
    """The cases as the rows of one array (leading axis = groups), padded with NaN: each
    row is its own family, and the padding is outside it."""
    rows = [(p, e) for _, m, p, e in REFERENCE if m == method]
    width = max(p.size for p, _ in rows) + 3
    padded = np.full((len(rows), width), np.nan)
    for i, (p, _) in enumerate(rows):
        padded[i, i % 3 : i % 3 + p.size] = p  # the padding on both sides
    got = adjust.adjust_pvalues(padded, method)
    for i, (p, expected) in enumerate(rows):
        np.testing.assert_allclose(got[i, i % 3 : i % 3 + p.size], expected, rtol=1e-12, atol=0)
        assert np.isnan(np.delete(got[i], np.s_[i % 3 : i % 3 + p.size])).all()


def test_every_method_has_reference_values():
    assert {method for _, method, _, _ in REFERENCE} == set(adjust.PVALUE_METHODS)
    by_cases = {case for case, method, _, _ in REFERENCE if method == "fdr_by"}
    assert by_cases == set(CASES)


def test_fdr_by_is_its_definition():
    """Benjamini & Yekutieli (2001), theorem 1.3: reject H_(i) for i <= max{i: p_(i) <= i q /
    (m c(m))}, c(m) = sum_{j<=m} 1/j. Its adjusted p-value is the smallest q rejecting H_(i):
    min over j >= i of m c(m) p_(j) / j, capped at 1, computed here by a loop."""
    gen = np.random.default_rng(35)
    for m in (1, 2, 3, 7, 20):
        p = gen.uniform(size=m) ** 3
        p[gen.integers(m)] = p[0]  # a tie
        c = sum(1.0 / j for j in range(1, m + 1))
        s = np.sort(p)
        expected_sorted = [
            min(1.0, min(m * c * s[j] / (j + 1) for j in range(i, m))) for i in range(m)
        ]
        expected = np.empty(m)
        expected[np.argsort(p, kind="stable")] = expected_sorted
        np.testing.assert_allclose(adjust.adjust_pvalues(p, "fdr_by"), expected, rtol=1e-13)
        # and the decision rule itself at q = 0.05: the step-up rejections
        passed = [i for i in range(m) if s[i] <= (i + 1) * 0.05 / (m * c)]
        rejected = np.sort(p)[: (max(passed) + 1) if passed else 0]
        assert set(p[adjust.adjust_pvalues(p, "fdr_by") <= 0.05]) == set(rejected)


# --- (b) scipy -------------------------------------------------------------------------------


def test_fdr_bh_agrees_with_scipy_false_discovery_control():
    rng = np.random.default_rng(1995)
    samples = [p for p in CASES.values() if not np.isnan(p).any()]
    samples += [rng.uniform(size=n) for n in (2, 3, 7, 40, 500)]
    samples += [rng.beta(0.1, 5, size=60), np.round(rng.uniform(size=50), 1)]
    for p in samples:
        expected = stats.false_discovery_control(p, method="bh")
        np.testing.assert_allclose(adjust.adjust_pvalues(p, "fdr_bh"), expected, rtol=1e-12)
    block = rng.uniform(size=(3, 4, 25)) ** 3
    expected = stats.false_discovery_control(block, axis=-1, method="bh")
    np.testing.assert_allclose(adjust.adjust_pvalues(block, "fdr_bh"), expected, rtol=1e-12)


# --- (c) max-t -------------------------------------------------------------------------------


def _joint_replicates(rng, k=4, n=30, resamples=400, shift=0.0):
    """Bootstrap means of k correlated per-item differences (the same resamples for all)."""
    scores = rng.normal(size=(n, 1)) + rng.normal(size=(n, k + 1))
    diffs = scores[:, 1:] - scores[:, [0]] + shift
    idx = rng.integers(0, n, size=(resamples, n))
    reps = diffs[idx].mean(axis=1).T  # (k, B)
    return reps, diffs.mean(axis=0), reps.std(axis=-1, ddof=1)


@pytest.mark.parametrize("level", [0.8, 0.9, 0.95])
def test_max_t_single_comparison_is_the_studentized_symmetric_interval(level):
    rng = np.random.default_rng(7)
    reps = rng.gamma(2.0, size=(1, 501))
    est, se = np.array([1.7]), np.array([0.9])
    q = np.quantile(np.abs(reps[0] - est[0]) / se[0], level)
    res = adjust.max_t(reps, est, se, level)
    np.testing.assert_allclose(res.critical_value, q, rtol=1e-15)
    np.testing.assert_allclose([res.low[0], res.high[0]], [1.7 - q * 0.9, 1.7 + q * 0.9])
    share = np.mean(np.abs(reps[0] - 1.7) / 0.9 >= 1.7 / 0.9)
    assert res.pvalue_adjusted[0] == share
    greater = adjust.max_t(reps, est, se, level, alternative="greater")
    q_up = np.quantile((reps[0] - 1.7) / 0.9, level)
    np.testing.assert_allclose(greater.low, 1.7 - q_up * 0.9, rtol=1e-15)
    assert greater.high[0] == np.inf
    assert greater.pvalue_adjusted[0] == np.mean((reps[0] - 1.7) / 0.9 >= 1.7 / 0.9)
    less = adjust.max_t(reps, est, se, level, alternative="less")
    q_down = np.quantile((1.7 - reps[0]) / 0.9, level)
    np.testing.assert_allclose(less.high, 1.7 + q_down * 0.9, rtol=1e-15)
    assert less.low[0] == -np.inf


def _brute_step_down(reps, est, se, alternative):
    """Romano-Wolf step-down by its definition, one hypothesis and one resample at a time.

    Hypothesis i's own p-value is the share of resamples in which the largest deviation
    over the set of hypotheses not rejected before it (those whose observed statistic is
    at most its own) reaches its statistic; its adjusted p-value is the largest of these
    over the hypotheses tested up to it (statistic at least its own).
    """
    k, resamples = reps.shape
    sign = {"two-sided": None, "greater": 1.0, "less": -1.0}[alternative]

    def directed(x):
        return abs(x) if sign is None else sign * x

    t = [directed(float(est[j])) / float(se[j]) for j in range(k)]
    own = []
    for i in range(k):
        remaining = [j for j in range(k) if t[j] <= t[i]]
        hits = 0
        for r in range(resamples):
            worst = max(directed(float(reps[j, r]) - float(est[j])) / float(se[j])
                        for j in remaining)  # fmt: skip
            hits += worst >= t[i]
        own.append(hits / resamples)
    return np.array([max(own[j] for j in range(k) if t[j] >= t[i]) for i in range(k)])


@pytest.mark.parametrize("alternative", adjust.ALTERNATIVES)
def test_max_t_step_down_agrees_with_brute_force(alternative):
    rng = np.random.default_rng(2005)
    groups = []
    for shift in (0.0, 0.15, 0.4):
        reps, est, se = _joint_replicates(rng, k=5, resamples=150, shift=shift)
        groups.append((reps, est, se))
    # a group with tied statistics (two identical comparisons) and discrete replicates
    reps = np.round(rng.normal(size=(4, 150)), 1)
    reps[3] = reps[1]
    est, se = np.array([0.3, -0.2, 0.1, -0.2]), np.array([0.5, 0.4, 1.0, 0.4])
    groups.append((reps, est, se))
    stacked = [np.stack(x) for x in zip(*[(r[:4], e[:4], s[:4]) for r, e, s in groups])]
    res = adjust.max_t(*stacked, 0.9, alternative=alternative)  # groups on a leading axis
    for g, (reps, est, se) in enumerate(groups):
        expected = _brute_step_down(reps[:4], est[:4], se[:4], alternative)
        np.testing.assert_array_equal(res.pvalue_adjusted[g], expected)
        single = adjust.max_t(reps, est, se, 0.9, alternative=alternative)
        np.testing.assert_array_equal(
            single.pvalue_adjusted, _brute_step_down(reps, est, se, alternative)
        )


def test_max_t_critical_value_is_the_quantile_of_the_resample_maxima():
    rng = np.random.default_rng(3)
    reps, est, se = _joint_replicates(rng, k=3, resamples=300)
    maxima = [max(abs(reps[j, r] - est[j]) / se[j] for j in range(3)) for r in range(300)]
    res = adjust.max_t(reps, est, se, 0.93)
    assert res.critical_value == np.quantile(maxima, 0.93)


def _coverage_study(n_sets=400, k=4, n=50, resamples=1000, level=0.9):
    rng = np.random.default_rng(19930101)
    reps = np.empty((n_sets, k, resamples))
    est = np.empty((n_sets, k))
    for s in range(n_sets):
        reps[s], est[s], _ = _joint_replicates(rng, k=k, n=n, resamples=resamples)
    se = reps.std(axis=-1, ddof=1)
    return reps, est, se, level


@pytest.fixture(scope="module")
def coverage():
    return _coverage_study()


@pytest.mark.slow
@pytest.mark.parametrize("alternative", adjust.ALTERNATIVES)
def test_max_t_simultaneous_coverage_by_simulation(coverage, alternative):
    """400 data sets of 50 items, 4 comparisons with a baseline (correlation 0.5), all true
    differences 0: the share of data sets whose 4 intervals all hold 0 is within 3 binomial
    standard errors of the level (measured: 0.8925 two-sided, 0.91 less, 0.90 greater at
    0.9), and so is the share in which a step-down p-value rejects a true null at 0.1."""
    reps, est, se, level = coverage
    res = adjust.max_t(reps, est, se, level, alternative)
    covered = ((res.low <= 0) & (res.high >= 0)).all(axis=-1)
    three_se = 3 * np.sqrt(level * (1 - level) / covered.size)
    assert abs(covered.mean() - level) <= three_se
    rejected = (res.pvalue_adjusted < 1 - level).any(axis=-1)
    assert abs(rejected.mean() - (1 - level)) <= three_se


def test_unadjusted_and_bonferroni_coverage_in_the_same_setting(coverage):
    """Without adjustment the four intervals cover together far less often (measured
    0.735); Bonferroni's percentile intervals at bonferroni_level cover at least the level
    (measured 0.9025)."""
    reps, est, se, level = coverage
    three_se = 3 * np.sqrt(level * (1 - level) / est.shape[0])
    q = np.quantile(np.abs(reps - est[..., None]) / se[..., None], level, axis=-1)
    alone = (np.abs(est) <= q * se).all(axis=-1)
    assert alone.mean() < level - three_se
    low, high = percentile_interval(reps, adjust.bonferroni_level(level, 4))
    assert ((low <= 0) & (high >= 0)).all(axis=-1).mean() >= level - three_se


def test_max_t_is_wider_than_unadjusted_and_not_wider_than_bonferroni(coverage):
    reps, est, se, level = coverage
    res = adjust.max_t(reps, est, se, level)
    width = res.high - res.low
    z = np.abs(reps - est[..., None]) / se[..., None]
    unadjusted = 2 * np.quantile(z, level, axis=-1) * se
    assert (width >= unadjusted).all()
    bonferroni = adjust.bonferroni_level(level, 4)
    bonf_t = 2 * np.quantile(z, bonferroni, axis=-1) * se
    low, high = percentile_interval(reps, bonferroni)
    bonf_percentile = high - low
    low, high = percentile_interval(reps, level)
    assert width.mean() > (high - low).mean()
    assert width.mean() <= bonf_t.mean()
    assert width.mean() <= bonf_percentile.mean()
    # each data set: the max-t critical value is at most the largest Bonferroni one
    assert (res.critical_value <= np.quantile(z, bonferroni, axis=-1).max(axis=-1)).all()


# --- point distributions and NaN -------------------------------------------------------------


def test_max_t_point_comparisons_follow_the_documented_rule():
    rng = np.random.default_rng(11)
    reps, est, se = _joint_replicates(rng, k=2, resamples=200)
    point = np.full((2, 200), 0.5)
    point[1] = 0.0
    all_reps = np.concatenate([reps, point])
    all_est = np.concatenate([est, [0.5, 0.0]])
    all_se = np.concatenate([se, [0.0, 0.0]])
    res = adjust.max_t(all_reps, all_est, all_se, 0.9)
    alone = adjust.max_t(reps, est, se, 0.9)
    assert res.critical_value == alone.critical_value  # left out of the max
    np.testing.assert_array_equal(res.low[2:], [0.5, 0.0])
    np.testing.assert_array_equal(res.high[2:], [0.5, 0.0])
    np.testing.assert_array_equal(res.pvalue_adjusted[2:], [0.0, 1.0])
    # the step down: the rejected point comparison does not change the others
    np.testing.assert_array_equal(res.pvalue_adjusted[:2], alone.pvalue_adjusted)
    less = adjust.max_t(all_reps, all_est, all_se, 0.9, alternative="less")
    np.testing.assert_array_equal(less.pvalue_adjusted[2:], [1.0, 1.0])  # 0.5 is not < 0
    np.testing.assert_array_equal(less.low[2:], [-np.inf, -np.inf])
    only_points = adjust.max_t(point, [0.5, 0.0], [0.0, 0.0], 0.9)
    assert np.isnan(only_points.critical_value)
    np.testing.assert_array_equal(only_points.pvalue_adjusted, [0.0, 1.0])


def test_max_t_nan_comparisons_are_outside_the_family():
    rng = np.random.default_rng(12)
    reps, est, se = _joint_replicates(rng, k=3, resamples=200)
    alone = adjust.max_t(reps, est, se, 0.9)
    with_nan = adjust.max_t(
        np.insert(reps, 1, np.nan, axis=0), np.insert(est, 1, np.nan), np.insert(se, 1, 0.2), 0.9
    )
    assert with_nan.critical_value == alone.critical_value
    for got, expected in zip(with_nan[1:], alone[1:]):
        assert np.isnan(got[1])
        np.testing.assert_array_equal(np.delete(got, 1), expected)
    nothing = adjust.max_t(np.full((2, 3, 5), 1.0), np.full((2, 3), np.nan), np.ones((2, 3)), 0.9)
    assert np.isnan(nothing.critical_value).all()
    assert np.isnan(nothing.pvalue_adjusted).all()


# --- (d) properties --------------------------------------------------------------------------

pvalue = st.one_of(
    st.floats(0, 1), st.sampled_from([0.0, 1.0, 0.05, 5e-324, 1e-300]), st.just(np.nan)
)
families = st.lists(pvalue, min_size=1, max_size=12).map(np.array)


@given(families, st.randoms(use_true_random=False))
def test_adjusting_commutes_with_permuting_the_comparisons(p, random):
    perm = list(range(p.size))
    random.shuffle(perm)
    for method in adjust.PVALUE_METHODS:
        np.testing.assert_array_equal(
            adjust.adjust_pvalues(p[perm], method), adjust.adjust_pvalues(p, method)[perm]
        )


@given(families)
def test_adjusted_pvalues_are_ordered(p):
    holm = adjust.adjust_pvalues(p, "holm")
    bonf = adjust.adjust_pvalues(p, "bonferroni")
    bh = adjust.adjust_pvalues(p, "fdr_bh")
    by = adjust.adjust_pvalues(p, "fdr_by")
    finite = ~np.isnan(p)
    for adjusted in (holm, bonf, bh, by):
        np.testing.assert_array_equal(np.isnan(adjusted), ~finite)
        assert (adjusted[finite] >= p[finite]).all()
        assert (adjusted[finite] <= 1).all()
        # monotone: the order of the p-values is kept (ties: equal)
        order = np.argsort(p[finite], kind="stable")
        assert (np.diff(adjusted[finite][order]) >= 0).all()
    assert (holm[finite] <= bonf[finite]).all()
    assert (bh[finite] <= holm[finite]).all()
    assert (bh[finite] <= by[finite]).all()


@given(families, st.integers(0, 12), st.integers(1, 4))
def test_nan_leaves_the_family_as_if_absent(p, where, count):
    where = min(where, p.size)
    padded = np.insert(p, [where] * count, np.nan)
    keep = ~np.isnan(padded)
    for method in adjust.PVALUE_METHODS:
        got = adjust.adjust_pvalues(padded, method)
        np.testing.assert_array_equal(got[keep], adjust.adjust_pvalues(p[~np.isnan(p)], method))
        assert np.isnan(got[~keep]).all()


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(1, 6),
    st.sampled_from(adjust.ALTERNATIVES),
    st.randoms(use_true_random=False),
)
def test_max_t_commutes_with_permuting_and_bounds_its_pvalues(seed, k, alternative, random):
    rng = np.random.default_rng(seed)
    reps = np.round(rng.normal(size=(k, 60)) + rng.normal(size=(1, 60)), 1)
    est = np.round(rng.normal(scale=0.5, size=k), 1)
    se = reps.std(axis=-1, ddof=1)
    perm = list(range(k))
    random.shuffle(perm)
    res = adjust.max_t(reps, est, se, 0.9, alternative)
    shuffled = adjust.max_t(reps[perm], est[perm], se[perm], 0.9, alternative)
    assert shuffled.critical_value == res.critical_value
    for got, expected in zip(shuffled[1:], res[1:]):
        np.testing.assert_array_equal(got, expected[perm])
    sign = {"two-sided": None, "greater": 1.0, "less": -1.0}[alternative]
    z = (reps - est[:, None]) / se[:, None]
    t = est / se
    if sign is None:
        z, t = np.abs(z), np.abs(t)
    else:
        z, t = sign * z, sign * t
    own = np.mean(z >= t[:, None], axis=-1)  # unadjusted bootstrap p-values
    single_step = np.mean(z.max(axis=0) >= t[:, None], axis=-1)
    assert (res.pvalue_adjusted >= own).all()
    assert (res.pvalue_adjusted <= single_step).all()
    assert (res.high - res.low >= 0).all()


# --- bonferroni_level and invalid input ------------------------------------------------------


def test_bonferroni_level():
    assert adjust.bonferroni_level(0.95, 1) == 0.95
    assert adjust.bonferroni_level(0.95, 5) == pytest.approx(0.99, abs=1e-15)
    for alternative in adjust.ALTERNATIVES:
        assert adjust.bonferroni_level(0.9, 4, alternative) == pytest.approx(0.975, abs=1e-15)
    np.testing.assert_allclose(
        adjust.bonferroni_level(0.9, np.array([1, 2, 10])), [0.9, 0.95, 0.99]
    )


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: adjust.adjust_pvalues([0.1], "BH"), ValueError, "`method` must be one of"),
        (lambda: adjust.adjust_pvalues([0.1], "max-t"), ValueError, "use `max_t`"),
        (lambda: adjust.adjust_pvalues([0.1, 1.5], "holm"), ValueError, r"in \[0, 1\]"),
        (lambda: adjust.adjust_pvalues([-0.1], "holm"), ValueError, r"got -0.1"),
        (lambda: adjust.adjust_pvalues(0.1, "holm"), ValueError, "at least one axis"),
        (lambda: adjust.bonferroni_level(1.0, 2), ValueError, "strictly between 0 and 1"),
        (lambda: adjust.bonferroni_level("0.9", 2), TypeError, "`confidence_level` must be"),
        (lambda: adjust.bonferroni_level(0.9, 0), ValueError, "at least 1"),
        (lambda: adjust.bonferroni_level(0.9, 2.5), ValueError, "whole number"),
        (lambda: adjust.bonferroni_level(0.9, 2, "both"), ValueError, "`alternative` must be"),
        (lambda: adjust.max_t(np.ones(5), [1.0], [1.0], 0.9), ValueError, r"\(\.\.\., k, B\)"),
        (lambda: adjust.max_t(np.ones((2, 5)), [1.0], [1.0, 1.0], 0.9), ValueError, "`estimates`"),
        (lambda: adjust.max_t(np.ones((2, 5)), [1.0, 1.0], [1.0], 0.9), ValueError,
         "`standard_errors` must have"),
        (lambda: adjust.max_t(np.ones((1, 5)), [1.0], [-1.0], 0.9), ValueError, "non-negative"),
        (lambda: adjust.max_t(np.ones((1, 5)), [1.0], [1.0], 0.0), ValueError, "`confidence_"),
        (lambda: adjust.max_t(np.ones((1, 5)), [1.0], [1.0], 0.9, "two.sided"), ValueError,
         "`alternative` must be one of"),
    ],
)  # fmt: skip
def test_invalid_input_is_refused_with_a_message(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_empty_families():
    assert adjust.adjust_pvalues(np.empty((2, 0)), "holm").shape == (2, 0)
    res = adjust.max_t(np.empty((2, 0, 5)), np.empty((2, 0)), np.empty((2, 0)), 0.9)
    assert np.isnan(res.critical_value).all()
    assert res.critical_value.shape == (2,)
    assert res.pvalue_adjusted.shape == res.low.shape == (2, 0)


# --- add-one p-values: a Monte Carlo zero is not a zero --------------------------------------


def test_add_one_pvalues_by_the_formula():
    # two-sided: min(1, (B p + 2) / (B + 1)); one-sided: (B p + 1) / (B + 1) (Phipson & Smyth)
    p = np.array([0.0, 0.002, 0.05, 0.5, 1.0, np.nan])
    np.testing.assert_allclose(
        adjust.add_one_pvalues(p, 999), [2 / 1000, 3.998 / 1000, 51.95 / 1000, 501.5 / 1000,
                                         1.0, np.nan], rtol=1e-14)  # fmt: skip
    for alternative in ("less", "greater"):
        np.testing.assert_allclose(
            adjust.add_one_pvalues(p, 999, alternative),
            [1 / 1000, 2.998 / 1000, 50.95 / 1000, 500.5 / 1000, 1.0, np.nan],
            rtol=1e-14,
        )
    # never below the raw p-value, 1 stays 1, the shape is kept
    q = np.random.default_rng(3).random((4, 7))
    assert (adjust.add_one_pvalues(q, 50) >= q).all()
    assert adjust.add_one_pvalues(q, 50).shape == (4, 7)


def test_holm_of_add_one_pvalues_does_not_reject_a_monte_carlo_zero():
    # 300 comparisons, 999 resamples: a p-value of 0 means "below about 1/999". Raw Holm
    # rejects it (0 < 0.05 / 300); on the add-one p-values the smallest adjusted p-value is
    # 300 x 2 / 1000 = 0.6 (BH: the largest, (999 x 0.5 + 2) / 1000), so nothing is rejected.
    p = np.r_[0.0, np.full(299, 0.5)]
    assert adjust.adjust_pvalues(p, "holm")[0] == 0.0  # what a raw zero did
    one = adjust.add_one_pvalues(p, 999)
    for method, smallest in (("holm", 0.6), ("bonferroni", 0.6), ("fdr_bh", 0.5015)):
        assert adjust.adjust_pvalues(one, method)[0] == pytest.approx(smallest, rel=1e-12)
    # with 12,000 resamples the zero passes Holm's first threshold 0.05 / 300 again
    assert adjust.adjust_pvalues(adjust.add_one_pvalues(p, 12_000), "holm")[0] < 0.05
    assert adjust.adjust_pvalues(adjust.add_one_pvalues(p, 11_998), "holm")[0] > 0.05


@pytest.mark.parametrize(
    ("m", "level", "method", "alternative", "expected"),
    [
        (300, 0.95, "holm", "two-sided", 12_000),  # B + 1 > 2 m / alpha
        (300, 0.95, "bonferroni", "two-sided", 12_000),
        (300, 0.95, "fdr_bh", "two-sided", 12_000),
        (300, 0.95, "holm", "greater", 6_000),  # B + 1 > m / alpha
        (45, 0.95, "holm", "two-sided", 1_800),
        (10, 0.95, "holm", "two-sided", 400),
        (10, 0.99, "holm", "less", 1_000),
        (10, 0.95, "fdr_by", "two-sided", 1_171),  # c(10) = 2.929: 400 c(10) = 1171.6
        (1, 0.95, "holm", "two-sided", 40),
    ],
)
def test_resamples_to_resolve(m, level, method, alternative, expected):
    assert adjust.resamples_to_resolve(m, level, method, alternative) == expected
    # the bound is where the smallest add-one p-value, adjusted, first passes alpha
    family = np.ones(m)
    for b, passes in ((expected, True), (expected - 2, False)):
        family[0] = adjust.add_one_pvalues(0.0, b, alternative)[()]
        assert (adjust.adjust_pvalues(family, method)[0] < 1 - level - 1e-12) == passes


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: adjust.add_one_pvalues([1.5], 99), ValueError, r"in \[0, 1\]"),
        (lambda: adjust.add_one_pvalues([0.5], 0), ValueError, "`n_resamples` must be at least 1"),
        (lambda: adjust.add_one_pvalues([0.5], 9.5), TypeError, "`n_resamples` must be a whole"),
        (lambda: adjust.add_one_pvalues([0.5], 99, "both"), ValueError, "`alternative`"),
        (lambda: adjust.resamples_to_resolve(0, 0.95, "holm"), ValueError, "`m` must be"),
        (lambda: adjust.resamples_to_resolve(5, 0.95, "max-t"), ValueError, "`method`"),
        (lambda: adjust.resamples_to_resolve(5, 1.5, "holm"), ValueError, "strictly between"),
    ],
)
def test_add_one_and_resolution_refuse_bad_input(call, error, message):
    with pytest.raises(error, match=message):
        call()
