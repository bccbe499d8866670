"""Functional API of the randomized Tukey HSD: results, missing data, runs, monitors, errors."""

import inspect
import io
import itertools
import json
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.data import unsorted_runs

import pairedstats
from pairedstats import DroppedDataWarning, cli
from pairedstats.core.design import PairedDesign
from pairedstats.core.montecarlo import MonteCarloPValue
from pairedstats.inputs import design_from_array
from pairedstats.methods.tukey_hsd import (
    Checkpoint,
    tukey_hsd,
    tukey_hsd_design,
    tukey_hsd_run,
)
from pairedstats.methods.tukey_hsd import spec as tukey_spec
from pairedstats.methods.tukey_hsd.settings import Options, check

REF = Path(__file__).parent / "reference" / "tukey"
PAIRS = [(0, 1), (0, 2), (1, 2)]
EXACT = json.loads((REF / "sakai_exact.json").read_text())


@pytest.fixture(scope="module")
def sakai():
    return np.genfromtxt(REF / "sakai_table_5_1.csv", delimiter=",", skip_header=1)[:, 1:]


@pytest.fixture(scope="module")
def scores():
    rng = np.random.default_rng(20240501)
    return np.round(rng.random((40, 4)) + np.array([0.0, 0.05, 0.1, 0.3]), 2)


def test_sakai_exact_result(sakai):
    res = tukey_hsd(sakai, systems=["X", "Y", "Z"])
    frame = res.to_dataframe()
    assert list(frame.columns[:12]) == [
        "system_a", "system_b", "mean_a", "mean_b", "difference", "pvalue", "pvalue_low",
        "pvalue_high", "n_resamples", "exceeding", "n_items", "pvalue_method",
    ]  # fmt: skip
    assert frame["system_a"].tolist() == ["X", "X", "Y"]
    assert frame["system_b"].tolist() == ["Y", "Z", "Z"]
    np.testing.assert_allclose(frame["pvalue"], [0.303764, 0.106587, 0.891600], atol=1e-6)
    np.testing.assert_allclose(frame["difference"], frame["mean_b"] - frame["mean_a"])
    assert frame["difference"].iloc[0] == pytest.approx(-0.075)  # Y - X
    assert (frame["pvalue_method"] == "exact").all()
    assert (frame["n_resamples"] == 0).all()
    np.testing.assert_allclose(frame["tie_quantum"], 0.1)
    assert "pvalue_method" not in frame.attrs  # per-group facts are columns, not attrs


AFFINE = {
    "float32": lambda x: x.astype(np.float32),
    "times 1e-10": lambda x: x * 1e-10,
    "times 1e10": lambda x: x * 1e10,
    "plus 1": lambda x: x + 1.0,  # rounded, but within the spread of the scores
    "times 3.7 plus 12": lambda x: x * 3.7 + 12,
    "float32 times 3.7 plus 12": lambda x: (x * 3.7 + 12).astype(np.float32),
}


@pytest.mark.parametrize("name", AFFINE)
def test_sakai_exact_at_any_scale_offset_and_dtype(sakai, name):
    # the independent exact references hold however the scores are scaled, offset or stored
    y = AFFINE[name](sakai)
    res = tukey_hsd(y)
    assert (res.pvalue_method == "exact").all()
    np.testing.assert_array_equal(res.pvalue, tukey_hsd(sakai).pvalue)
    expected = [EXACT["three_systems"][pair]["value"] for pair in ("X-Y", "X-Z", "Y-Z")]
    np.testing.assert_allclose(res.pvalue[0], expected, rtol=1e-12)
    two = tukey_hsd(y[:, :2])
    assert two.pvalue[0, 0] == 135 / 2048  # the docstring's two systems
    step = np.diff(AFFINE[name](np.array([0.0, 0.1])).astype(np.float64))
    np.testing.assert_allclose(res.tie_quantum, step[0], rtol=1e-6)


def test_float32_frame_is_read_on_its_grid(sakai):
    # the precision of a table's score column reaches the tie rule
    frame = pd.DataFrame(
        {
            "query": np.repeat([f"Q{i}" for i in range(20)], 2),
            "run": ["X", "Y"] * 20,
            "ndcg": sakai[:, :2].ravel().astype(np.float32),
        }
    )
    out = frame.paired.tukey_hsd(item="query", system="run", score="ndcg")
    assert out["pvalue"].tolist() == [135 / 2048]
    assert out["tie_quantum"].tolist() == [0.1]


def enumerated_pvalues(x, pairs):
    """P(range of the system sums >= |S_b - S_a|) over every within-item permutation of the
    floats given, counted in exact integers (the definition, from first principles)."""
    exact = [[Fraction(float(v)) for v in row] for row in np.asarray(x)]
    unit = max(v.denominator for row in exact for v in row)  # powers of two: a common one
    ints = [[int(v * unit) for v in row] for row in exact]
    k = len(ints[0])
    counts = {(0,) * k: 1}  # system sums -> arrangements reaching them
    for row in ints:
        new = {}
        for sums, n in counts.items():
            for perm in itertools.permutations(row):
                key = tuple(s + v for s, v in zip(sums, perm, strict=True))
                new[key] = new.get(key, 0) + n
        counts = new
    total = sum(counts.values())
    columns = [sum(row[j] for row in ints) for j in range(k)]
    return [
        Fraction(sum(n for sums, n in counts.items()
                     if max(sums) - min(sums) >= abs(columns[b] - columns[a])), total)
        for a, b in pairs
    ]  # fmt: skip


#: Eight items, each scored 0, 1, 2 by the three systems: p = 1 / 6**7 for the pair (0, 2).
EIGHT = np.tile([0.0, 1.0, 2.0], (8, 1))


@pytest.mark.parametrize("offset", [0.0, 1e12, 1e13, 2.0**50, 2.0**53 - 8, -(2.0**52)])
def test_an_exact_offset_changes_no_pvalue(offset):
    # integers offset by 2**50 (or up to 2**53) are the same floats' differences: every
    # p-value is the enumeration's (0.149, 3.6e-06, 0.149), not 1 (the tie rule followed
    # the size of the scores, 16 * 2**-53 * 2**50 = 2 > the differences)
    rng = np.random.default_rng(3)
    designs = [EIGHT, rng.integers(0, 5, size=(7, 3)).astype(float)]
    for x in designs:
        expected = [float(p) for p in enumerated_pvalues(x, PAIRS)]
        base = tukey_hsd(x)
        moved = tukey_hsd(x + offset)
        np.testing.assert_allclose(moved.pvalue[0], expected, rtol=1e-12, atol=0)
        np.testing.assert_array_equal(moved.pvalue, base.pvalue)
        np.testing.assert_array_equal(moved.tie_quantum, base.tie_quantum)
        np.testing.assert_array_equal(moved.difference, base.difference)
    assert tukey_hsd(EIGHT + offset).pvalue[0].tolist() == pytest.approx(
        [0.1494805955647005, 6.0**-7, 0.1494805955647005], rel=1e-12
    )


@pytest.mark.parametrize("offset", [1e6, 1e9, 1e12])
def test_a_rounded_offset_gives_the_pvalues_of_the_decimals_meant(offset):
    # 0.1 * k + 1e12 is stored to 2**-13, within the rounding the tie rule allows each score
    # at that size: the ties are those of the tenths, and the exact p-values the enumeration
    # of the integers k (the floats given split tenths equal in exact arithmetic). At 1e13
    # (stored to 2**-10, a rounding of 4e-3 allowed) six items of tenths fit a grid by
    # chance too often for the rule to call it one
    k = np.random.default_rng(3).integers(0, 5, size=(6, 3))
    res = tukey_hsd(0.1 * k + offset, method="exact")
    expected = [float(p) for p in enumerated_pvalues(k.astype(float), PAIRS)]
    np.testing.assert_allclose(res.pvalue[0], expected, rtol=1e-12, atol=0)
    assert res.tie_quantum[0, 0] == pytest.approx(0.1, rel=1e-9)


def test_continuous_scores_at_an_offset_keep_their_pvalues():
    # x + 1e9 rounds x by 2**-24, far below its gaps: the enumeration of x itself
    x = np.random.default_rng(7).random((6, 3))
    res = tukey_hsd(x + 1e9, method="exact")
    expected = [float(p) for p in enumerated_pvalues(x, PAIRS)]
    np.testing.assert_allclose(res.pvalue[0], expected, rtol=1e-12, atol=0)
    assert np.isnan(res.tie_quantum).all()


def test_sakai_offset_by_1e6_keeps_the_ties_of_the_tenths(sakai):
    # sakai + 1e6 holds the tenths to 2**-33, within the rounding of scores of that size:
    # the ties of the tenths are kept, and so are the p-values (the enumeration of the
    # tenths as integers)
    x = sakai[:6] + 1e6
    res = tukey_hsd(x)
    expected = [float(p) for p in enumerated_pvalues(np.round(sakai[:6] * 10), PAIRS)]
    np.testing.assert_allclose(res.pvalue[0], expected, rtol=1e-12, atol=0)
    np.testing.assert_array_equal(res.pvalue, tukey_hsd(sakai[:6]).pvalue)


@pytest.mark.parametrize("seed", range(4))
def test_large_offset_counts_continuous_scores_as_they_are(seed):
    # x + 1e9 holds x to 2**-23, a rounding of the offset scores' size: on no grid, the
    # same method, and, but for ranges within that rounding of an observed difference,
    # the same counts as x
    x = np.random.default_rng(seed).random((30, 3))
    base = tukey_hsd(x, rng=5, n_resamples=10_000)
    off = tukey_hsd(x + 1e9, rng=5, n_resamples=10_000)
    assert np.isnan(off.tie_quantum).all()
    assert (off.pvalue_method == base.pvalue_method).all()
    assert (off.pvalue_method == "monte-carlo").all()
    assert np.all(np.abs(off.exceeding - base.exceeding) <= 5)
    small = x[:6] + 1e9
    off = tukey_hsd(small)
    assert (off.pvalue_method == "exact").all()
    # ranges within the rounding of an observed difference count as ties (the safe side)
    expected = np.array([float(p) for p in enumerated_pvalues(x[:6], PAIRS)])
    assert np.all(off.pvalue[0] >= expected - 1e-12)
    np.testing.assert_allclose(off.pvalue[0], expected, rtol=0, atol=1e-3)


def test_difference_is_the_mean_of_the_differences():
    # at an offset of 1e9 mean_b - mean_a loses the digits of the differences (about 1e-8
    # here); the difference is the mean of b - a, the bootstrap's bits
    x = np.random.default_rng(7).random((40, 3)) + 1e9
    res = tukey_hsd(x, n_resamples=100, rng=1)
    for c, (a, b) in enumerate(PAIRS):
        exact = sum(Fraction(float(v)) for v in x[:, b] - x[:, a]) / len(x)
        assert abs(Fraction(float(res.difference[0, c])) - exact) <= abs(exact) * 2.0**-50
        naive = res.mean_b[0, c] - res.mean_a[0, c]
        assert abs(naive - float(exact)) > 1e-9  # what the column was
    boot = pairedstats.bootstrap(x, n_resamples=100, rng=1)
    np.testing.assert_array_equal(res.difference, boot.difference)


@pytest.mark.parametrize("scale", [1e-310, 3e-320, 1e300])
def test_subnormal_and_huge_scores_work_like_any_scale(scale):
    # 2 * 2**-53 * 1e-310 underflows to 0: the rule is decided on the differences scaled
    # exactly by a power of two (it raised `math domain error`). Subnormal floats hold fewer
    # bits: the data are the floats given, the same at any power of two
    rng = np.random.default_rng(3)
    for x in (rng.integers(0, 5, size=(8, 3)).astype(float), rng.random((6, 3))):
        y, unit = x * scale, scale
        if scale < 1e-300:  # subnormal: the floats given, moved up by a power of two
            unit = 2.0**-1060
            x = np.ldexp(y, 1060)
        base, res = tukey_hsd(x, rng=1, n_resamples=500), tukey_hsd(y, rng=1, n_resamples=500)
        np.testing.assert_array_equal(res.pvalue_method, base.pvalue_method)
        np.testing.assert_allclose(res.pvalue, base.pvalue, rtol=1e-12, atol=0)
        np.testing.assert_allclose(res.tie_quantum, base.tie_quantum * unit, rtol=1e-9)


@pytest.mark.parametrize("seed", [0, 2, 4])
def test_float32_on_no_grid_keeps_ties_of_the_values_meant(seed):
    # six items on a 0.1 grid and one off it: no grid, yet ranges tie with differences in
    # the values the float32 scores stand for (tenths and the off-grid float32 values),
    # which float32 resolves only to 2**-24. Reference: every arrangement (item 0 held
    # fixed), the sums in exact rationals.
    rng = np.random.default_rng(seed)
    tenths = rng.integers(0, 6, size=(7, 3))
    x = (tenths / 10).astype(np.float32)
    x[0] = rng.random(3)
    off = [Fraction(float(v)) for v in x[0]]
    grid = np.zeros((1, 3), dtype=np.int64)  # sums of items 1..6 in tenths, all arrangements
    for row in tenths[1:]:
        grid = (grid[:, None, :] + row[list(itertools.permutations(range(3)))]).reshape(-1, 3)
    distinct, weight = np.unique(grid, axis=0, return_counts=True)
    ranges = [
        max(o + Fraction(int(t), 10) for o, t in zip(off, g, strict=True))
        - min(o + Fraction(int(t), 10) for o, t in zip(off, g, strict=True))
        for g in distinct
    ]
    sums = [o + Fraction(int(t), 10) for o, t in zip(off, tenths[1:].sum(axis=0), strict=True)]
    expected = [
        sum(int(w) for r, w in zip(ranges, weight, strict=True) if r >= abs(sums[b] - sums[a]))
        / len(grid)
        for a, b in ((0, 1), (0, 2), (1, 2))
    ]
    res = tukey_hsd(x, method="exact")
    assert np.isnan(res.tie_quantum).all()
    np.testing.assert_allclose(res.pvalue[0], expected, rtol=1e-12)
    # read as float64 numbers, the same values resolve to 2**-53 and the ties are lost
    assert (tukey_hsd(x.astype(np.float64), method="exact").pvalue[0] < expected).any()


def test_tiny_continuous_scores_are_not_read_as_integers():
    x = np.random.default_rng(3).random((6, 3))
    res = tukey_hsd(x * 1e-10)
    assert np.isnan(res.tie_quantum).all()
    assert (res.pvalue_method == "exact").all()
    assert res.pvalue.min() < 0.7  # not every p = 1
    np.testing.assert_allclose(res.pvalue, tukey_hsd(x).pvalue, rtol=1e-12)


@settings(max_examples=80, deadline=None, derandomize=True, database=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 7),
    k=st.integers(2, 4),
    quantum=st.sampled_from([None, 1.0, 0.1, 0.05, 1 / 3]),
    log_scale=st.floats(-100, 100),
    offset=st.one_of(st.floats(8, 1e3), st.floats(-1e3, -8)),
)
def test_ties_do_not_depend_on_scale_or_offset(seed, n, k, quantum, log_scale, offset):
    # tukey_hsd(s * x) is tukey_hsd(x): method, counts, p-values, and the step times s; and
    # so is tukey_hsd(s * x + c): the rounding of the offset scores is within the error the
    # tie rule allows scores of their size, far below the steps (integers at offsets up to
    # 2**53: test_an_exact_offset_changes_no_pvalue)
    rng = np.random.default_rng(seed)
    x = rng.random((n, k)) if quantum is None else rng.integers(0, 7, (n, k)) * quantum
    scale = 10.0**log_scale
    base = tukey_hsd(x, rng=seed, n_resamples=1000)
    c = offset * scale
    for moved in (scale * x, scale * x + c):
        res = tukey_hsd(moved, rng=seed, n_resamples=1000)
        np.testing.assert_array_equal(res.pvalue_method, base.pvalue_method)
        np.testing.assert_array_equal(res.exceeding, base.exceeding)
        np.testing.assert_allclose(res.pvalue, base.pvalue, rtol=1e-12, atol=0)
        np.testing.assert_allclose(res.tie_quantum, base.tie_quantum * scale, rtol=1e-9)
        if quantum is not None and np.ptp(x, axis=1).any():
            assert not np.isnan(res.tie_quantum).any()


def test_sakai_monte_carlo_within_four_se(sakai):
    res = tukey_hsd(sakai, rng=7, method="monte-carlo", n_resamples=20_000)
    exact = np.array([0.3037641619972263, 0.10658729564809329, 0.8915998652994335])
    se = np.sqrt(exact * (1 - exact) / 20_000)
    assert np.all(np.abs(res.pvalue[0] - exact) <= 4 * se)
    assert (res.pvalue_method == "monte-carlo").all()
    assert (res.n_resamples == 20_000).all()
    for row, p in enumerate(res.monte_carlo_pvalues()):
        assert p.pvalue == res.pvalue[0, row]
        assert (res.pvalue_low[0, row], res.pvalue_high[0, row]) == p.hdi()
        assert res.pvalue_low[0, row] < exact[row] < res.pvalue_high[0, row]


def test_seed_entropy_reproduces(scores):
    a = tukey_hsd(scores, rng=None, n_resamples=3000)
    b = tukey_hsd(scores, rng=a.metadata["seed_entropy"], n_resamples=3000)
    np.testing.assert_array_equal(a.pvalue, b.pvalue)
    c = tukey_hsd(scores, rng=np.random.default_rng(1), n_resamples=3000)
    assert not np.array_equal(a.exceeding, c.exceeding)


def test_identical_with_or_without_monitor_progress_workers(scores):
    base = tukey_hsd(scores, rng=3, n_resamples=2600, workers=1)
    seen = []
    with_monitor = tukey_hsd(
        scores, rng=3, n_resamples=2600, monitor=seen.append, every=700, progress=True, workers=2
    )
    np.testing.assert_array_equal(base.exceeding, with_monitor.exceeding)
    assert [c.trials for c in seen] == [700, 1400, 2100, 2600]
    assert [c.done for c in seen] == [False, False, False, True]
    assert all(isinstance(c, Checkpoint) for c in seen)
    assert seen[-1].pvalues == base.monte_carlo_pvalues()
    with pytest.raises(AttributeError):
        seen[0].trials = 3  # read-only


def test_run_steps_at_any_count(scores):
    base = tukey_hsd(scores, rng=11, n_resamples=2000)
    run = tukey_hsd_run(scores, rng=11, n_resamples=2000, workers=2)
    assert run.planned == 2000
    for n in (1, 255, 300, 13, 700):
        run.step(n)
    assert run.trials == 1269
    partial = run.pvalues()
    assert all(isinstance(p, MonteCarloPValue) and p.trials == 1269 for p in partial)
    with pytest.raises(ValueError, match="`n_trials` must be at most the 731 trials left"):
        run.step(732)
    res = run.result()
    assert run.done
    np.testing.assert_array_equal(res.exceeding, base.exceeding)
    # the partial counts are those of a 1269-trial call
    short = tukey_hsd(scores, rng=11, n_resamples=1269)
    assert tuple(MonteCarloPValue(int(c), 1269) for c in short.exceeding[0]) == partial


def test_steps_of_many_groups_equal_one_call(scores):
    # three groups (one small enough to be exact), steps ending inside and across the
    # 8192-trial blocks, two workers: the counts of one call
    x = np.concatenate([scores, scores[:25] * 0.5, scores[:3]])[:, :, None]
    design = PairedDesign(
        scores=x,
        systems=("a", "b", "c", "d"),
        offsets=np.array([0, 40, 65, 68]),
        group_names=("g",),
        group_keys=((1,), (2,), (3,)),
        items=np.arange(68),
    )
    whole = tukey_hsd_design(design, rng=4, n_resamples=9000)
    assert whole.pvalue_method[:, 0].tolist() == ["monte-carlo", "monte-carlo", "exact"]
    run = tukey_hsd_run(design, rng=4, n_resamples=9000, workers=2)
    for n in (100, 8100, 5, 795):
        run.step(n)
    stepped = run.result()
    np.testing.assert_array_equal(stepped.exceeding, whole.exceeding)
    np.testing.assert_array_equal(stepped.pvalue_high, whole.pvalue_high)


@pytest.mark.parametrize("exact", [False, True])
@pytest.mark.parametrize("kind", ["grid", "continuous"])
def test_order_of_systems_changes_no_pvalue(exact, kind):
    # a trial shuffles scores across system positions: any order of four systems gives the
    # same counts for the same pair, and each difference reads b - a in the order asked for
    rng = np.random.default_rng(17)
    n = {(True, "continuous"): 4, (True, "grid"): 6}.get((exact, kind), 12)  # exact limits
    x = rng.normal(size=(n, 4)) + np.array([0.0, 0.25, 0.4, 0.7])
    if kind == "grid":
        x = np.round(x * 4) / 4
    names = ["w", "x", "y", "z"]
    settings = {"rng": 3, "n_resamples": 1000, "method": "exact" if exact else "monte-carlo"}
    base = tukey_hsd(x, systems=names, **settings).to_dataframe()
    assert (base["pvalue_method"] == ("exact" if exact else "monte-carlo")).all()
    rows = {(a, b): row for a, b, row in zip(base["system_a"], base["system_b"], base.index)}
    for order in itertools.permutations(range(4)):
        frame = tukey_hsd(x[:, order], systems=[names[i] for i in order], **settings)
        for a, b, p, exceeding, difference in frame.to_dataframe()[
            ["system_a", "system_b", "pvalue", "exceeding", "difference"]
        ].itertuples(index=False):
            same = (a, b) in rows
            row = base.loc[rows[(a, b) if same else (b, a)]]
            assert p == row["pvalue"]
            assert exceeding == row["exceeding"] or (exact and np.isnan(exceeding))
            assert difference == (row["difference"] if same else -row["difference"])


def test_design_groups_use_their_own_streams(scores):
    two = PairedDesign(
        scores=np.concatenate([scores, scores[::-1] + 0.01])[:, :, None],
        systems=("a", "b", "c", "d"),
        offsets=np.array([0, 40, 80]),
        group_names=("dataset",),
        group_keys=(("d1",), ("d2",)),
        items=np.arange(80),
    )
    one = PairedDesign(
        scores=(scores[::-1] + 0.01)[:, :, None],
        systems=("a", "b", "c", "d"),
        offsets=np.array([0, 40]),
        group_names=("dataset",),
        group_keys=(("d2",),),
        items=np.arange(40),
    )
    r2 = tukey_hsd_design(two, rng=5, n_resamples=1500)
    r1 = tukey_hsd_design(one, rng=5, n_resamples=1500)
    np.testing.assert_array_equal(r2.exceeding[1], r1.exceeding[0])
    frame = r2.to_dataframe()
    assert frame["dataset"].tolist() == ["d1"] * 6 + ["d2"] * 6
    assert (frame["n_items"] == 40).all()


def test_nan_raises_with_count(scores):
    x = scores.copy()
    x[3, 1] = x[3, 2] = x[7, 0] = np.nan
    with pytest.raises(
        ValueError, match="`scores`: every item needs a score for every system; found 3 NaN"
    ):
        tukey_hsd(x)


def test_missing_complete_drops_and_reports(scores):
    x = scores.copy()
    x[3, 1] = x[7, 0] = np.nan
    with pytest.warns(DroppedDataWarning, match="dropped 2 of 40"):
        res = tukey_hsd(x, missing="complete", rng=2, n_resamples=1000)
    assert (res.n_dropped == 2).all()
    kept = np.delete(scores, [3, 7], axis=0)
    np.testing.assert_array_equal(
        res.exceeding, tukey_hsd(kept, rng=2, n_resamples=1000).exceeding
    )
    assert (res.n_items == 38).all()


def test_metadata_reports_the_missing_rule_the_design_was_read_with(scores):
    # every road: the accessors (table and Dataset), the function on arrays, the stepped run;
    # the rule is the design's, so the metadata says what was done
    x = scores.copy()
    x[3, 1] = np.nan
    names = [f"s{j}" for j in range(x.shape[1])]
    frame = pd.DataFrame(x, columns=names)
    dataset = xr.Dataset({"score": (("item", "system"), x)}, coords={"system": names})
    keywords = {"n_resamples": 200, "rng": 2}
    table = {"missing": "complete", "as_result": True, **keywords}
    roads = {
        "frame": lambda: frame.paired.tukey_hsd(**table),
        "dataset": lambda: dataset.paired.tukey_hsd(**table),
        "array": lambda: tukey_hsd(x, missing="complete", **keywords),
        "run": lambda: tukey_hsd_run(x, missing="complete", **keywords).result(),
        "design": lambda: tukey_hsd_design(design_from_array(x, missing="complete"), **keywords),
    }
    for road, call in roads.items():
        with pytest.warns(DroppedDataWarning):
            res = call()
        assert res.metadata["missing"] == "complete", road
        assert (res.n_dropped == 1).all(), road
    assert tukey_hsd(scores, **keywords).metadata["missing"] == "raise"
    n = len(scores)
    hand = PairedDesign(scores=scores[:, :, None], systems=tuple(names),
                        offsets=np.array([0, n]), items=np.arange(n))  # fmt: skip
    assert tukey_hsd_design(hand, **keywords).metadata["missing"] == "raise"


def test_exact_true_and_false(sakai):
    assert (tukey_hsd(sakai[:, :2], method="exact").pvalue == 135 / 2048).all()
    big = np.random.default_rng(0).random((60, 5))
    with pytest.raises(ValueError, match="`method='exact'` needs a small design"):
        tukey_hsd(big, method="exact")
    assert (tukey_hsd(big, n_resamples=500, rng=1).pvalue_method == "monte-carlo").all()


@pytest.mark.parametrize("method", ["AUTO", "Auto", "EXACT"])
def test_method_options_as_everywhere(sakai, method):
    # string options are case-insensitive, as the rank-sum test's `method`
    res = tukey_hsd(sakai, method=method)
    assert res.metadata["method_requested"] == method.lower()
    np.testing.assert_array_equal(res.pvalue, tukey_hsd(sakai, method="auto").pvalue)
    assert (res.pvalue_method == "exact").all()


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"method": "yes"}, ValueError, "`method` must be one of 'auto', 'exact', 'monte-carlo'"),
        ({"n_resamples": 0}, ValueError, "`n_resamples` must be a positive integer; got 0"),
        ({"workers": 0}, ValueError, "`workers` must be a positive integer or None; got 0"),
        ({"rng": "seed"}, TypeError, "`rng` must be None"),
    ],
)
def test_the_stepping_run_is_checked_as_the_functions(sakai, kwargs, error, match):
    for function in (tukey_hsd, tukey_hsd_run):
        with pytest.raises(error, match=match):
            function(sakai, **kwargs)


def test_metadata_records_the_keywords_as_given_also_when_exact(sakai):
    # the trials asked for, not the trials drawn (0 here, a column): the attributes re-run
    # the call and are the same for exact and Monte Carlo chunks of a sweep
    res = tukey_hsd(sakai, n_resamples=500, rng=4)
    assert (res.n_resamples == 0).all()
    meta = res.metadata
    assert (meta["n_resamples"], meta["seed_entropy"], meta["baseline"]) == (500, 4, None)
    assert not {"monitor", "every", "progress", "workers", "rng"} & set(meta)
    again = tukey_hsd(sakai, n_resamples=meta["n_resamples"], rng=meta["seed_entropy"],
                      method=meta["method_requested"], baseline=meta["baseline"])  # fmt: skip
    np.testing.assert_array_equal(again.pvalue, res.pvalue)


def test_the_stepping_run_takes_its_defaults_and_not_the_run_keywords(sakai):
    sig = inspect.signature(tukey_hsd_run)
    for name, p in sig.parameters.items():
        assert p.default == inspect.signature(tukey_hsd).parameters[name].default, name
    assert not {"monitor", "every", "progress"} & set(sig.parameters)
    assert tukey_hsd_run(sakai).planned == 0  # exact: done when made
    with pytest.raises(TypeError, match="`monitor` is given to the run's run"):
        tukey_hsd_run(sakai, monitor=print)


def test_settings_keep_the_method_as_asked(sakai):
    assert tukey_spec.SPEC.check is check
    design = design_from_array(sakai, systems=["X", "Y", "Z"])
    s = check(design, Options(baseline="Y", n_resamples=500, rng=3, method="Monte-Carlo"),
              keep=True)  # fmt: skip
    assert (s.method, s.missing, s.baseline, s.n_resamples) == ("monte-carlo", "raise", "Y", 500)
    res = tukey_spec.SPEC.run(s)
    assert res.metadata["method_requested"] == "monte-carlo"
    np.testing.assert_array_equal(
        res.exceeding,
        tukey_hsd(sakai, systems=["X", "Y", "Z"], baseline="Y", n_resamples=500, rng=3,
                  method="monte-carlo").exceeding,
    )  # fmt: skip


def test_progress_without_tqdm(monkeypatch, scores):
    monkeypatch.setitem(sys.modules, "tqdm", None)
    with pytest.raises(ImportError, match=r"pairedstats\[progress\]"):
        tukey_hsd(scores, progress=True)


def test_printed_table(sakai):
    text = str(tukey_hsd(sakai, systems=["X", "Y", "Z"]))
    assert text.startswith("Randomized Tukey HSD")
    assert "exact" in text


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"n_resamples": 0}, ValueError, "`n_resamples` must be a positive integer; got 0"),
        ({"n_resamples": 1.5}, TypeError, "`n_resamples` must be a positive integer; got 1.5"),
        (
            {"method": "yes"},
            ValueError,
            "`method` must be one of 'auto', 'exact', 'monte-carlo'; got 'yes'",
        ),
        (
            {"missing": "drop"},
            ValueError,
            "`missing` must be one of 'raise', 'complete'; got 'drop'",
        ),
        ({"monitor": 3}, TypeError, "`monitor` must be a callable taking a Checkpoint; got 3"),
        ({"every": 0}, ValueError, "`every` must be a positive integer; got 0"),
        ({"progress": "yes"}, TypeError, "`progress` must be True or False; got 'yes'"),
        ({"workers": 0}, ValueError, "`workers` must be a positive integer or None; got 0"),
        ({"workers": -2}, ValueError, "`workers` must be a positive integer or None; got -2"),
        ({"workers": 1.5}, TypeError, "`workers` must be a positive integer or None; got 1.5"),
        ({"workers": "2"}, TypeError, "`workers` must be a positive integer or None; got '2'"),
        ({"workers": True}, TypeError, "`workers` must be a positive integer or None; got True"),
        (
            {"n_resamples": 10**12},
            ValueError,
            "`n_resamples` must be at most 1000000000; got 1000000000000",
        ),
        ({"method": True}, ValueError, "`method` must be one of 'auto', 'exact', 'monte-carlo'"),
        (
            {"exact": True},
            TypeError,
            "tukey_hsd: got an unexpected keyword argument 'exact'; its keywords are",
        ),
        (
            {"systems": ["a", "b"]},
            ValueError,
            "`systems` must name each of the 3 columns of `scores`; got 2",
        ),
        ({"systems": ["a", "a", "b"]}, ValueError, "`systems` names a column more than once"),
        ({"rng": "seed"}, TypeError, "`rng` must be None"),
    ],
)
def test_tukey_hsd_iv(sakai, kwargs, error, match):
    with pytest.raises(error, match=match):
        tukey_hsd(sakai, **kwargs)


@pytest.mark.parametrize(
    ("scores", "error", "match"),
    [
        (
            [1.0, 2.0],
            ValueError,
            r"`scores` must have shape \(n_items, n_systems\) or \(n_items, n_systems, "
            r"n_columns\); got 1 dimensions",
        ),
        (
            np.zeros((3, 2, 2)),
            ValueError,
            r"`scores` must have one score column for tukey_hsd; got 2 columns",
        ),
        (
            [[1.0, 2.0], [1.0]],
            ValueError,
            r"`scores` must have shape .*; got a ragged sequence",
        ),
        ([["a", "b"], ["c", "d"]], TypeError, "`scores`: the scores must be numeric"),
        ([[1.0], [2.0]], ValueError, "a comparison needs at least 2 systems; got 1"),
        ([[1.0, np.inf], [1.0, 2.0]], ValueError, "`scores`: scores must be finite; got 1"),
        (np.empty((0, 2)), ValueError, "`scores`: a comparison needs at least 2 items; got 0"),
    ],
)
def test_tukey_hsd_scores_iv(scores, error, match):
    with pytest.raises(error, match=match):
        tukey_hsd(scores)


def test_design_iv(sakai):
    with pytest.raises(TypeError, match="`design` must be a PairedDesign"):
        tukey_hsd_design(sakai)
    multi = PairedDesign(
        scores=np.zeros((3, 2, 2)), systems=("a", "b"), offsets=np.array([0, 3]),
        items=np.arange(3), columns=("p", "q"),
    )  # fmt: skip
    with pytest.raises(ValueError, match="`design` must have one score column for tukey_hsd"):
        tukey_hsd_design(multi)
    bad = PairedDesign(
        scores=np.full((3, 2, 1), np.nan), systems=("a", "b"), offsets=np.array([0, 3]),
        items=np.arange(3),
    )  # fmt: skip
    with pytest.raises(ValueError, match=r"`design\.scores` must be finite; got 6 NaN"):
        tukey_hsd_design(bad)


# ------------------------------------------------------------------- baseline=
def many_vs_one_by_hand(x, base, relative_tolerance=0):
    """The definition, in exact rationals: every arrangement of every item's scores (item 0
    too), each equally likely; a pair (base, b) counts an arrangement when the largest
    |mean_j - mean_base| over the other systems j reaches its observed |mean_b - mean_base|
    (minus a relative tolerance, for scores on no grid)."""
    n, k = x.shape
    rows = [[Fraction(float(v)) for v in row] for row in x]
    means = [sum(row[j] for row in rows) / n for j in range(k)]
    others = [j for j in range(k) if j != base]
    observed = [abs(means[b] - means[base]) for b in others]
    slack = Fraction(relative_tolerance) * max(abs(v) for row in rows for v in row)
    hits, total = [0] * len(others), 0
    for arrangement in itertools.product(itertools.permutations(range(k)), repeat=n):
        m = [sum(rows[i][p[j]] for i, p in enumerate(arrangement)) / n for j in range(k)]
        largest = max(abs(m[j] - m[base]) for j in others)
        hits = [h + (largest >= o - slack) for h, o in zip(hits, observed, strict=True)]
        total += 1
    return [Fraction(h, total) for h in hits]


BY_HAND = {
    # integer scores with ties within items (a grid: the dynamic programme)
    "tied integers": np.array([[1, 1, 2], [0, 3, 3], [2, 0, 1], [2, 2, 2]], dtype=float),
    # quarters, five items
    "tied quarters": np.array(
        [[0.25, 0.5, 0.5], [0.0, 0.75, 0.25], [0.5, 0.5, 0.0], [1.0, 0.25, 0.75], [0.0, 0.0, 0.5]]
    ),
    # scores on no grid (tolerance mode: enumeration)
    "continuous": np.random.default_rng(31).random((4, 3)),
}


@pytest.mark.parametrize(
    "name",  # the largest case (3 s) in the full run only
    [pytest.param(n, marks=pytest.mark.slow) if n == "tied quarters" else n for n in BY_HAND],
)
def test_baseline_exact_equals_every_arrangement_by_hand(name):
    x = BY_HAND[name]
    names = ["c", "a", "b"]  # not in label order: the trials follow the sorted labels
    for base in range(3):
        expected = many_vs_one_by_hand(x, base, 1e-9 if name == "continuous" else 0)
        res = tukey_hsd(x, systems=names, baseline=names[base], method="exact")
        assert res.label_a == (names[base],) * 2
        assert res.label_b == tuple(s for s in names if s != names[base])
        assert (res.pvalue_method == "exact").all()
        np.testing.assert_allclose(res.pvalue[0], [float(p) for p in expected], rtol=1e-12)
        if name == "tied integers":  # ties reached: an observed difference is attained
            assert any(p < 1 for p in expected)


def test_baseline_monte_carlo_within_its_interval_of_the_exact_value(sakai):
    # Sakai's 20 topics x 3 systems: exact by the dynamic programme over all 6**20
    # arrangements; 20,000 trials land within their 95% intervals and 4 standard errors
    exact = tukey_hsd(sakai, systems=["X", "Y", "Z"], baseline="Z")
    assert (exact.pvalue_method == "exact").all()
    mc = tukey_hsd(sakai, systems=["X", "Y", "Z"], baseline="Z", method="monte-carlo",
                   rng=7, n_resamples=20_000)  # fmt: skip
    p = exact.pvalue[0]
    assert np.all(mc.pvalue_low[0] < p)
    assert np.all(p < mc.pvalue_high[0])
    assert np.all(np.abs(mc.pvalue[0] - p) <= 4 * np.sqrt(p * (1 - p) / 20_000))
    assert (mc.n_resamples == 20_000).all()
    for row, q in enumerate(mc.monte_carlo_pvalues()):
        assert (mc.pvalue_low[0, row], mc.pvalue_high[0, row]) == q.hdi()
    # against Z, the all-pairs p-values of (X, Z) and (Y, Z) are 0.1066 and 0.8916
    all_pairs = tukey_hsd(sakai).pvalue[0]
    assert np.all(p <= all_pairs[[1, 2]])
    assert p[0] < all_pairs[1]


@pytest.mark.parametrize("method", ["exact", "monte-carlo"])
@pytest.mark.parametrize("kind", ["grid", "continuous"])
def test_two_systems_baseline_is_the_all_pairs_test(method, kind):
    rng = np.random.default_rng(8)
    n = 12 if method == "exact" else 40
    x = rng.normal(size=(n, 2)) + np.array([0.0, 0.3])
    if kind == "grid":
        x = np.round(x, 1)
    kw = {"systems": ["u", "v"], "method": method, "rng": 4, "n_resamples": 3000}
    pairs = tukey_hsd(x, **kw).to_dataframe()
    first = tukey_hsd(x, baseline="u", **kw).to_dataframe()
    pd.testing.assert_frame_equal(first, pairs)  # every column, every bit
    second = tukey_hsd(x, baseline="v", **kw).to_dataframe()  # the pair read v -> u
    assert second["difference"].tolist() == (-pairs["difference"]).tolist()
    columns = ["pvalue", "pvalue_low", "pvalue_high", "n_resamples", "exceeding"]
    pd.testing.assert_frame_equal(second[columns], pairs[columns])
    assert first.attrs["baseline"] == "u"
    assert pairs.attrs["baseline"] is None


@pytest.mark.parametrize("method", ["exact", "monte-carlo"])
def test_baseline_pvalues_are_at_most_the_all_pairs_ones(method):
    # the same arrangements or trials: the range over all k systems is never below the
    # largest distance from the baseline, so no pair's p-value grows against a baseline
    rng = np.random.default_rng(12)
    n = 6 if method == "exact" else 30
    x = np.round(rng.random((n, 4)) + np.array([0.0, 0.1, 0.2, 0.4]), 1)
    names = ["w", "x", "y", "z"]
    kw = {"systems": names, "method": method, "rng": 9, "n_resamples": 4000}
    pairs = tukey_hsd(x, **kw).to_dataframe().set_index(["system_a", "system_b"])
    slack = 1e-12 if method == "exact" else 0.0
    strictly = 0
    for base in names:
        res = tukey_hsd(x, baseline=base, **kw).to_dataframe()
        assert res["system_a"].tolist() == [base] * 3
        assert res["system_b"].tolist() == [s for s in names if s != base]
        for b, p, exceeding in res[["system_b", "pvalue", "exceeding"]].itertuples(index=False):
            row = pairs.loc[(min(base, b), max(base, b))]
            assert p <= row["pvalue"] * (1 + slack)  # exact: probabilities summed in floats
            strictly += p < row["pvalue"] * (1 - slack)
            if method == "monte-carlo":
                assert exceeding <= row["exceeding"]
    assert strictly > 0


def test_baseline_steps_equal_one_call(scores):
    base = tukey_hsd(scores, baseline=2, rng=11, n_resamples=3000)
    assert base.label_a == (2, 2, 2)
    assert base.label_b == (0, 1, 3)
    run = tukey_hsd_run(scores, baseline=2, rng=11, n_resamples=3000, workers=2)
    for n in (1, 255, 300, 13, 700):
        run.step(n)
    partial = run.pvalues()
    assert [p.trials for p in partial] == [1269] * 3
    short = tukey_hsd(scores, baseline=2, rng=11, n_resamples=1269)
    assert tuple(MonteCarloPValue(int(c), 1269) for c in short.exceeding[0]) == partial
    seen = []
    watched = tukey_hsd(scores, baseline=2, rng=11, n_resamples=3000, monitor=seen.append,
                        every=1000, workers=1)  # fmt: skip
    assert [c.trials for c in seen] == [1000, 2000, 3000]
    for res in (run.result(), watched):
        np.testing.assert_array_equal(res.exceeding, base.exceeding)
        np.testing.assert_array_equal(res.pvalue_high, base.pvalue_high)
    assert base.metadata["baseline"] == 2


def test_unknown_baseline_names_the_systems(sakai):
    with pytest.raises(
        ValueError, match=r"`baseline` must be one of the systems \['X', 'Y', 'Z'\]; got 'W'"
    ):
        tukey_hsd(sakai, systems=["X", "Y", "Z"], baseline="W")
    with pytest.raises(ValueError, match=r"`baseline` must be one of the systems \[0, 1, 2\]"):
        tukey_hsd_run(sakai, baseline="0")


BASELINE_NUMBERS = ["mean_a", "mean_b", "difference", "pvalue", "pvalue_low", "pvalue_high",
                    "n_resamples", "exceeding"]  # fmt: skip
OTHERS = ["hybrid", "dense", "bm25+rm3"]  # the other runs, in the wide tables' order


def _same_numbers(got, expected, err_msg=""):
    for name in BASELINE_NUMBERS:
        np.testing.assert_array_equal(
            np.asarray(got[name]), np.asarray(expected[name]), err_msg=f"{err_msg} {name}"
        )


def test_baseline_through_the_accessors_and_the_command_line(capsys, tmp_path):
    runs = unsorted_runs()
    kw = {"baseline": "bm25", "n_resamples": 500, "rng": 3}
    tidy = runs.paired.tukey_hsd(item="query", system="run", score="ndcg", by="collection", **kw)
    assert tidy.attrs["baseline"] == "bm25"
    assert tidy["system_a"].eq("bm25").all()
    assert tidy["system_b"].tolist() == ["hybrid", "dense", "bm25+rm3"] * 2
    # per collection: the tidy group alone, and a wide table with the runs in another order
    # (the same p-values; b in the table's order)
    wides = {}
    for c in ("robust04", "msmarco"):
        expected = tidy[tidy.collection == c].set_index("system_b")
        part = runs[runs.collection == c]
        alone = part.paired.tukey_hsd(item="query", system="run", score="ndcg", by="collection",
                                      **kw)  # fmt: skip
        _same_numbers(alone, expected.loc[alone["system_b"]], c)
        wides[c] = part.pivot(index="query", columns="run", values="ndcg")[[*OTHERS, "bm25"]]
        wide = wides[c].reset_index(drop=True).assign(collection=c)
        got = wide.paired.tukey_hsd(by="collection", **kw)
        assert got["system_b"].tolist() == OTHERS
        _same_numbers(got, expected.loc[OTHERS], c)
    # an xarray sweep over the collections (items by position): each slice is its by= group
    values = np.stack([w.to_numpy() for w in wides.values()])
    ds = xr.Dataset(
        {"ndcg": (("collection", "item", "system"), values)},
        coords={"collection": list(wides), "system": [*OTHERS, "bm25"]},
    )
    out = ds.paired.tukey_hsd(**kw)
    assert out["pvalue"].dims == ("collection", "comparison")
    assert out.attrs["baseline"] == "bm25"
    assert out["system_b"].values.tolist() == OTHERS
    for c in wides:
        expected = tidy[tidy.collection == c].set_index("system_b").loc[OTHERS]
        _same_numbers({n: out[n].sel(collection=c).values for n in BASELINE_NUMBERS}, expected)
    np.testing.assert_array_equal(
        ds["ndcg"].paired.tukey_hsd(**kw)["pvalue"].values, out["pvalue"].values
    )
    with pytest.raises(ValueError, match=r"`baseline` must be one of the systems \['hybrid'"):
        ds.paired.tukey_hsd(baseline="bm26")
    # the command line: --baseline
    path = tmp_path / "runs.csv"
    runs.to_csv(path, index=False)
    argv = ["tukey-hsd", str(path), "--item", "query", "--system", "run", "--score", "ndcg",
            "--by", "collection", "--baseline", "bm25", "--n-resamples", "500", "--rng", "3",
            "--format", "csv"]  # fmt: skip
    assert cli.main(argv) == 0
    printed = pd.read_csv(io.StringIO(capsys.readouterr().out))
    assert printed["system_b"].tolist() == tidy["system_b"].tolist()
    _same_numbers(printed, tidy, "cli")


def test_letters_refuse_a_baseline_result(scores):
    res = tukey_hsd(scores, baseline=0, n_resamples=300, rng=1)
    with pytest.raises(ValueError, match=r"letters need every pair of systems once \(all pairs"):
        pairedstats.display.letters(res)
