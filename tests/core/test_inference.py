"""Bootstrap p-values by inverting intervals (pairedstats.core.inference).

The closed forms are checked against the intervals they invert, computed by
:mod:`pairedstats.core.intervals` at many levels (bisection on the level, and the contract
``pvalue < alpha`` exactly when the interval at ``1 - alpha`` excludes 0 as a property).
"""

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from pairedstats.core import inference as inf
from pairedstats.core import intervals as iv
from pairedstats.core.studentized import studentized_interval, studentized_replicates

METHODS = ("percentile", "basic", "bca")


def _interval(method, reps, est, a, level):
    if method == "percentile":
        return (*iv.percentile_interval(reps, level), None)
    if method == "basic":
        return (*iv.basic_interval(reps, est, level), None)
    return iv.bca_interval(reps, est, a, level)


def _bisect_low_crossing(method, reps, est, a):
    """The alpha at which the two-sided interval's lower end reaches 0, by bisection."""
    lo, hi = 1e-12, 2 - 1e-12  # low end above 0 at hi? it rises with alpha

    def above(alpha):
        return _interval(method, reps, est, a, 1 - alpha)[0] > 0

    if above(lo):
        return 0.0
    if not above(hi):
        return 2.0
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if above(mid) else (mid, hi)
    return hi


def test_share_at_or_below_is_where_numpy_quantile_crosses():
    gen = np.random.default_rng(0)
    for _ in range(200):
        x = np.round(gen.normal(size=gen.integers(2, 40)), 1)
        v = float(np.round(gen.normal(), 1))
        p0 = float(inf.share_at_or_below(x, v))
        if 0 < p0 < 1:
            assert np.quantile(x, max(p0 - 1e-9, 0)) <= v + 1e-12
            assert np.quantile(x, min(p0 + 1e-9, 1)) > v
        elif p0 == 0:
            assert x.min() > v
        else:
            assert x.max() <= v


def _brute_crossing(row, value):
    # the 7 columns of crossing_stats from their definitions, value by value in Python
    vals = [float(y) for y in row if y == y]
    le = [y for y in vals if y <= value]
    gt = [y for y in vals if y > value]
    ge = [y for y in vals if y >= value]
    lt = [y for y in vals if y < value]
    extremes = [max(le, default=-np.inf), min(gt, default=np.inf), min(ge, default=np.inf)]
    return [len(le), len(ge), *extremes, max(lt, default=-np.inf), float(len(vals) < len(row))]


_score = st.sampled_from([-2.0, -0.5, 0.0, 0.0, 0.5, 1.0, np.inf, -np.inf, np.nan])


@settings(deadline=None)  # the first example compiles the kernel
@given(
    rows=st.integers(1, 4).flatmap(
        lambda b: st.lists(st.lists(_score, min_size=b, max_size=b), min_size=1, max_size=5)
    ),
    data=st.data(),
)
def test_crossing_stats_numpy_and_compiled_against_definitions(rows, data):
    from pairedstats.core.kernels.crossing import crossing_stats as kernel

    x = np.array(rows)
    v = np.array(data.draw(st.lists(_score, min_size=len(rows), max_size=len(rows))))
    expected = np.array([_brute_crossing(r, value) for r, value in zip(x, v, strict=True)])
    np.testing.assert_array_equal(inf.crossing_stats(x, v), expected)  # numpy's passes
    compiled = np.empty_like(expected)
    kernel(x, v, compiled)
    np.testing.assert_array_equal(compiled, expected)


def test_shares_at_or_below_take_the_compiled_pass_from_compiled_from(monkeypatch):
    gen = np.random.default_rng(3)
    x = np.round(gen.normal(size=(6, 500)), 1)
    x[2, 7] = np.nan
    v = np.round(gen.normal(size=6), 1)
    by_numpy = inf.shares_at_or_below(x, v)
    monkeypatch.setattr(inf, "COMPILED_FROM", x.size)
    from pairedstats.core.kernels import crossing

    kernel, calls = crossing.crossing_stats, []

    def spy(rows, values, out):
        calls.append(rows.shape)
        kernel(rows, values, out)

    monkeypatch.setattr(crossing, "crossing_stats", spy)
    compiled = inf.shares_at_or_below(x, v)
    assert calls == [(6, 500)]
    np.testing.assert_array_equal(compiled[0], by_numpy[0])
    np.testing.assert_array_equal(compiled[1], by_numpy[1])
    assert np.isnan(compiled[0][2])
    assert np.isnan(compiled[1][2])
    assert not np.isnan(np.delete(compiled[0], 2)).any()


def test_share_at_or_below_rows_and_nan():
    x = np.array([[0.0, 1.0, 2.0, 3.0], [0.0, np.nan, 1.0, 2.0]])
    out = inf.share_at_or_below(x, np.array([1.5, 1.0]))
    assert out[0] == pytest.approx(0.5)  # h = 1.5 of 3
    assert np.isnan(out[1])


@pytest.mark.parametrize("method", METHODS)
def test_crossing_levels_against_bisection_on_the_intervals(method):
    gen = np.random.default_rng(5)
    for _ in range(25):
        reps = gen.normal(gen.normal(0, 1.5), 1, size=int(gen.integers(20, 300)))
        est = float(np.median(reps) + gen.normal(0, 0.1))
        a = float(gen.normal(0, 0.05))
        z0 = iv.bca_interval(reps, est, a, 0.95)[2] if method == "bca" else None
        low, high = inf.crossing_levels(method, reps, est, bias_correction=z0, acceleration=a)
        assert float(low) == pytest.approx(_bisect_low_crossing(method, reps, est, a), abs=1e-9)
        # the upper end of the mirrored problem is the lower end of this one
        mirrored = _bisect_low_crossing(method, -reps, -est, -a)
        assert float(high) == pytest.approx(mirrored, abs=1e-9)


_reps = st.lists(
    st.one_of(
        st.integers(-4, 4).map(float),
        st.floats(-3, 3, allow_nan=False, allow_subnormal=False),
    ),
    min_size=2,
    max_size=40,
)


@given(
    reps=_reps,
    est=st.floats(-2, 2, allow_subnormal=False),
    a=st.floats(-0.3, 0.3, allow_subnormal=False),
    level=st.floats(0.01, 0.999),
    method=st.sampled_from(METHODS),
    alternative=st.sampled_from(inf.ALTERNATIVES),
)
@example(reps=[0.0, 0.0, 1.0], est=0.0, a=0.0, level=0.5, method="percentile",
         alternative="two-sided")  # fmt: skip
@example(reps=[-1.0, 1.0], est=0.0, a=0.0, level=0.5, method="basic", alternative="greater")
@example(
    reps=[0.0, 0.0, 1.0], est=0.0, a=-0.28125, level=0.999, method="bca", alternative="two-sided"
)  # fmt: skip  (past BCa's pole: the level stays at 0)
def test_pvalue_below_alpha_exactly_when_the_interval_excludes_zero(
    reps, est, a, level, method, alternative
):
    reps = np.array(reps)
    two_sided = inf.two_sided_level(level, alternative)
    low, high, z0 = _interval(method, reps, est, a, two_sided)
    low, high = inf.one_sided(low, high, alternative)
    ends = inf.crossing_levels(method, reps, est, bias_correction=z0, acceleration=a)
    p = inf.pvalue(*ends, alternative)
    assert 0 <= p <= 1
    # exactly at the boundary (p == alpha, an end exactly at 0) the answer rests on how
    # 1 - level rounds: level 1/3 with p = 2/3 (replicates 0 x 5, 1 x 2, "greater")
    assume(abs(p - (1 - level)) > 1e-12)
    assert bool(p < 1 - level) == bool(low > 0 or high < 0)


def test_one_sided_percentile_pvalue_is_the_share_of_replicates_beyond_zero():
    # first principles: for continuous replicates the interpolated share at 0 is the
    # fraction at or below 0 up to one replicate
    gen = np.random.default_rng(3)
    reps = gen.normal(0.4, 1.0, size=4000)
    low, high = inf.crossing_levels("percentile", reps, reps.mean())
    assert inf.pvalue(low, high, "greater") == pytest.approx((reps <= 0).mean(), abs=1 / 4000)
    assert inf.pvalue(low, high, "less") == pytest.approx((reps >= 0).mean(), abs=1 / 4000)
    two = inf.pvalue(low, high, "two-sided")
    assert two == pytest.approx(2 * min((reps <= 0).mean(), (reps >= 0).mean()), abs=2 / 4000)


@pytest.mark.parametrize("method", METHODS)
def test_negating_swaps_the_one_sided_pvalues_exactly(method):
    gen = np.random.default_rng(8)
    reps, est, a = gen.normal(0.2, 1, size=999), 0.25, 0.04
    z0 = iv.bca_interval(reps, est, a, 0.95)[2]
    ends = inf.crossing_levels(method, reps, est, bias_correction=z0, acceleration=a)
    mirror = inf.crossing_levels(method, -reps, -est, bias_correction=-z0, acceleration=-a)
    assert inf.pvalue(*ends, "greater") == inf.pvalue(*mirror, "less")
    assert inf.pvalue(*ends, "two-sided") == inf.pvalue(*mirror, "two-sided")


def test_degenerate_replicates():
    # all replicates above 0: no level keeps 0 inside; all at 0: every level does
    assert inf.pvalue(*inf.crossing_levels("percentile", np.ones(10), 1.0), "two-sided") == 0
    assert inf.pvalue(*inf.crossing_levels("percentile", np.zeros(10), 0.0), "two-sided") == 1
    z0 = np.array(np.inf)  # BCa fell back to the percentile interval
    ends = inf.crossing_levels("bca", np.ones(10), 2.0, bias_correction=z0, acceleration=0.1)
    assert inf.pvalue(*ends, "greater") == 0


def test_agree_with_interval_moves_only_rounding():
    p = inf.agree_with_interval(np.array([0.05, 0.05]), np.array([1e-17, -1]), np.array([1, 1]),
                                0.95)  # fmt: skip
    alpha = 1 - 0.95
    assert p[0] < alpha  # excludes 0: just below alpha
    assert p[0] == pytest.approx(alpha)
    assert p[1] == alpha  # 0.05 is below 1 - 0.95 in floats, but 0 is inside
    with pytest.raises(RuntimeError, match="disagrees with its interval"):
        inf.agree_with_interval(np.array([0.5]), np.array([0.1]), np.array([1.0]), 0.95)


@given(
    reps=_reps,
    ses=st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0]), min_size=40, max_size=40),
    est=st.floats(-2, 2, allow_subnormal=False),
    est_se=st.sampled_from([0.0, 0.3, 1.0]),
    level=st.floats(0.01, 0.999),
    alternative=st.sampled_from(inf.ALTERNATIVES),
)
@example(reps=[0.0, 1.0, 2.0], ses=[0.0] * 40, est=1.0, est_se=1.0, level=0.5,
         alternative="two-sided")  # fmt: skip
def test_studentized_pvalue_below_alpha_exactly_when_the_interval_excludes_zero(
    reps, ses, est, est_se, level, alternative
):
    # infinite t* (resamples with se* = 0) and a point estimate (se = 0) included
    reps = np.array(reps)
    rse = np.array(ses[: reps.size])
    two_sided = inf.two_sided_level(level, alternative)
    low, high = studentized_interval(reps, est, est_se, rse, two_sided)
    low, high = inf.one_sided(low, high, alternative)
    t = studentized_replicates(reps, est, rse)
    ends = inf.crossing_levels("studentized", reps, est, t_replicates=t, estimate_se=est_se)
    p = inf.pvalue(*ends, alternative)
    assert 0 <= p <= 1
    # exactly at the boundary (p == alpha, an end exactly at 0) the answer rests on how
    # 1 - level rounds: level 1/3 with p = 2/3 (replicates 0 x 5, 1 x 2, "greater")
    assume(abs(p - (1 - level)) > 1e-12)
    assert bool(p < 1 - level) == bool(low > 0 or high < 0)
