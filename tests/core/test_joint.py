"""The streamed max-t (:mod:`pairedstats.core.joint`, its compiled passes and the first pass
taken by :func:`pairedstats.core.summary.summarize` while it reads the blocks) against max-t
written here in plain numpy over the whole replicate matrix of each family, its ties
snapped by their definition; with families where the step-down stops early (comparisons no
resample reaches) and where a NaN replicate keeps it from stopping."""

import itertools

import numpy as np
import pytest

from pairedstats.core import adjust, joint, summary
from pairedstats.core import bootstrap as cb

ROOT = 20240611
ALTERNATIVES = ["two-sided", "greater", "less"]


def _signed(x, alternative):
    return {"two-sided": np.abs, "greater": np.positive, "less": np.negative}[alternative](x)


def _plain_max_t(reps, est, se, level, alternative):
    """One family (k, B): critical value, simultaneous interval, step-down p-values."""
    member = np.isfinite(est) & np.isfinite(se)
    spread = member & (se > 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        z = _signed((reps - est[:, None]) / se[:, None], alternative)
        t = np.where(spread, _signed(est, alternative) / se, -np.inf)
    z[~spread] = -np.inf
    t[member & (se == 0)] = np.where(_signed(est, alternative) > 0, np.inf, -np.inf)[
        member & (se == 0)
    ]
    crit = np.quantile(z.max(axis=0), level) if spread.any() else np.nan
    order = np.argsort(-t, kind="stable")
    suffix = np.maximum.accumulate(z[order][::-1], axis=0)[::-1]  # max over i-th and after
    p = np.empty(len(est))
    p[order] = np.maximum.accumulate((suffix >= t[order][:, None]).mean(axis=1))
    with np.errstate(invalid="ignore"):
        half = np.where(se == 0, 0.0, crit * se)
    low, high = est - half, est + half
    if alternative == "greater":
        high = np.full(len(est), np.inf)
    elif alternative == "less":
        low = np.full(len(est), -np.inf)
    nan = ~member
    low[nan], high[nan], p[nan] = np.nan, np.nan, np.nan
    return crit, low, high, p


def _snap(reps, value, tie):
    """Replicates within ``max(1e-12 * scale, tie)`` of ``value`` set to it, ``scale`` the
    larger of ``|value|`` and the mean absolute finite replicate (row by row)."""
    value = np.broadcast_to(value, reps.shape[:-1])[..., None]
    finite = np.isfinite(reps)
    mean_abs = np.where(finite, np.abs(reps), 0.0).sum(-1, keepdims=True) / np.maximum(
        finite.sum(-1, keepdims=True), 1
    )
    tol = np.maximum(1e-12 * np.maximum(np.abs(value), mean_abs), np.asarray(tie)[..., None])
    return np.where(np.abs(reps - value) <= tol, value, reps)


def _batch(gap: float, seed: int):
    """Replicates of 3 groups x all pairs of 9 systems (integer scores: exact ties), the
    systems ``gap`` apart."""
    gen = np.random.default_rng(seed)
    scores = {}
    for g in range(3):
        x = gen.integers(0, 4, size=(40 + 7 * g, 9)).astype(float)
        x += gap * gen.permutation(9)
        x[:, 4] = x[:, 2]  # identical systems: replicates 0
        x[:, 6] = x[:, 1] + 2.0  # a constant difference
        scores[g] = x
    pairs = list(itertools.combinations([5, 0, 8, 3, 1, 7, 2, 4, 6], 2))
    [(_, out)] = cb.mean_replicates_batches(
        scores, {g: ("j", g) for g in scores}, pairs, root=ROOT, n_resamples=300,
        studentized=True,
    )  # fmt: skip
    return out


@pytest.mark.parametrize("method", ["percentile", "basic", "studentized"])
@pytest.mark.parametrize("gap", [0.0, 2.0])
def test_summarize_max_t_equals_plain_numpy_on_the_whole_matrix(method, gap, monkeypatch):
    out = _batch(gap, seed=int(gap) + len(method))
    dense = np.asarray(out.replicates)
    if method == "basic":
        snapped = _snap(dense, 2.0 * out.estimate, 2.0 * out.tie_error)
    elif method == "percentile":
        snapped = _snap(dense, 0.0, out.tie_error)
    else:
        snapped = dense
    for alternative, cells in itertools.product(ALTERNATIVES, [None, 7, 900]):
        rule = summary.Rule(method, alternative, 0.9, "max-t")
        with monkeypatch.context() as m:
            if cells is not None:  # a comparison or three a block
                m.setattr(adjust, "BLOCK_CELLS", cells)
            got = summary.summarize(rule, out.replicates, out.estimate, tie=out.tie_error,
                                    se=(out.replicate_se, out.estimate_se))  # fmt: skip
        for g in range(dense.shape[0]):
            _, low, high, p = _plain_max_t(snapped[g], out.estimate[g],
                                           got.standard_error[g], 0.9, alternative)  # fmt: skip
            np.testing.assert_array_equal(got.ci_low_adjusted[g], low)
            np.testing.assert_array_equal(got.ci_high_adjusted[g], high)
            np.testing.assert_array_equal(got.pvalue_adjusted[g], p)


def test_the_step_down_stops_where_no_resample_reaches():
    # systems far apart: most comparisons' t exceed every resample's max statistic
    out = _batch(2.0, seed=3)
    rule = summary.Rule("percentile", "two-sided", 0.95, "max-t")
    got = summary.summarize(rule, out.replicates, out.estimate, tie=out.tie_error)
    se = got.standard_error
    snapped = _snap(np.asarray(out.replicates), 0.0, out.tie_error)
    top = np.full((3, 300), -np.inf)
    joint.update_top(top, snapped, out.estimate, se, "two-sided")
    t = np.where(se > 0, np.abs(out.estimate) / np.where(se > 0, se, 1.0), 0.0)
    assert joint._reached(-np.sort(-t, axis=-1), top) > 10
    with np.errstate(invalid="ignore", divide="ignore"):
        z = np.abs((snapped - out.estimate[..., None]) / se[..., None])
    np.testing.assert_array_equal(top, np.where(se[..., None] > 0, z, -np.inf).max(axis=1))
    for g in range(3):
        want = _plain_max_t(snapped[g], out.estimate[g], se[g], 0.95, "two-sided")
        np.testing.assert_array_equal(got.pvalue_adjusted[g], want[3])
        np.testing.assert_array_equal(got.ci_low_adjusted[g], want[1])


def _same_as_plain(reps, est, se, alternative, monkeypatch):
    want = _plain_max_t(reps, est, se, 0.9, alternative)
    for cells in (None, 3 * reps.shape[-1]):
        with monkeypatch.context() as m:
            if cells is not None:
                m.setattr(adjust, "BLOCK_CELLS", cells)
            got = adjust.max_t(reps, est, se, 0.9, alternative)
        for g, w in zip(got, want, strict=True):
            np.testing.assert_array_equal(g, w)
    return want


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_a_nan_replicate_keeps_the_step_down_from_stopping(alternative, monkeypatch):
    # the first comparison (largest t) is NaN in resample 17, where the second deviates by
    # more than its t: that resample's max statistic is NaN, yet the max over the second
    # and those after it reaches its t there
    gen = np.random.default_rng(8)
    est = np.concatenate([[100.0, 20.0], gen.normal(0.0, 2.0, 30)])
    reps = est[:, None] + gen.normal(size=(32, 400))
    reps[0, 17], reps[1, 17] = np.nan, 45.0
    se = np.ones(32)
    p = _same_as_plain(reps, est, se, alternative, monkeypatch)[3]
    if alternative != "less":
        assert p[1] == 1 / 400


def test_a_t_equal_to_the_largest_max_statistic_is_reached(monkeypatch):
    gen = np.random.default_rng(9)
    est = np.array([50.0, 3.0, 0.5, -0.25])
    reps = est[:, None] + np.round(gen.uniform(-1.0, 1.0, size=(4, 200)), 2)
    reps[2, 33] = 3.5  # a deviation of 3 exactly, the largest: t of the second
    p = _same_as_plain(reps, est, np.ones(4), "two-sided", monkeypatch)[3]
    assert p[0] == 0.0
    assert p[1] == 1 / 200
