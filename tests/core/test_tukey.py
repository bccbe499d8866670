"""Array core of the randomized Tukey HSD: ties, exact p-values, Monte Carlo kernels."""

import itertools
import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from pairedstats.core import tukey as core
from pairedstats.core import tukey_mc
from pairedstats.core.design import unit_roundoff
from pairedstats.core.draws import BLOCK, label_words

from . import reference_engine as engine

REF = Path(__file__).parents[1] / "reference" / "tukey"
PAIRS3 = [(0, 1), (0, 2), (1, 2)]


@pytest.fixture(scope="module")
def sakai():
    data = np.genfromtxt(REF / "sakai_table_5_1.csv", delimiter=",", skip_header=1)[:, 1:]
    ref = json.loads((REF / "sakai_exact.json").read_text())
    return data, ref


def brute_force(x, pairs, tol=1e-9):
    """Every within-item arrangement, float sums, a relative tolerance: the definition."""
    n, k = x.shape
    perms = list(itertools.permutations(range(k)))
    sums = x.sum(axis=0)
    obs = np.array([abs(sums[b] - sums[a]) for a, b in pairs])
    scale = np.abs(x).max(axis=1).sum()
    hits = np.zeros(len(pairs))
    total = 0
    for choice in itertools.product(range(len(perms)), repeat=n):
        s = sum(x[i, list(perms[c])] for i, c in enumerate(choice))
        hits += (s.max() - s.min()) >= obs - tol * scale
        total += 1
    return hits / total


# ------------------------------------------------------------------------ ties
@pytest.mark.parametrize(
    ("x", "quantum"),
    [
        (np.array([[0.05, 0.15, 0.95], [0.3, 0.1, 0.45]]), 0.05),
        (np.array([[0.0, 1.0], [1.0, 1.0]]), 1.0),
        (np.array([[1 / 3, 2 / 3], [1.0, 0.0]]), 1 / 3),
        (np.array([[12.5, 13.0], [0.25, 0.0]]), 0.25),
        (np.array([[2.0, 2.0], [-7.5, -7.5]]), 0.0),  # every item tied: no step
    ],
)
def test_quantize_finds_grid(x, quantum):
    ints, q = core.quantize(x)
    assert q == pytest.approx(quantum, rel=1e-12)
    np.testing.assert_allclose(ints * q, x - x.min(axis=1, keepdims=True), atol=1e-12)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_quantize_recovers_any_grid(seed, dtype):
    # a step of any scale, decimal or not (pi / 100, 0.0371, ...), the grid offset from 0:
    # the integers built (each item's smallest 0, greatest common divisor 1) and the step
    rng = np.random.default_rng(seed)
    step = 10.0 ** rng.uniform(-30, 30) * rng.uniform(1, 10)
    ints = rng.integers(0, 40, size=(30, 4))
    ints[0, :2] = (0, 1)
    x = ((ints + rng.uniform(-100, 100)) * step).astype(dtype)
    got, q = core.quantize(x, unit_roundoff(dtype))
    np.testing.assert_array_equal(got, ints - ints.min(axis=1, keepdims=True))
    assert q == pytest.approx(step, rel=1e-5 if dtype == np.float32 else 1e-11)  # rounded


@pytest.mark.parametrize(
    ("transform", "precision"),
    [
        (lambda x: x, 2.0**-53),
        (lambda x: x * 1e-10, 2.0**-53),  # read as integers (p = 1) by a fixed tolerance
        (lambda x: x * 1e10, 2.0**-53),
        (lambda x: x + 1.0, 2.0**-53),  # an offset float64 does not hold exactly, but small
        (lambda x: x.astype(np.float32), 2.0**-24),
    ],
)
def test_quantize_rejects_continuous_scores(transform, precision):
    x = transform(np.random.default_rng(5).random((10, 3)))
    assert core.quantize(x, precision) == (None, None)
    g = core.prepare_group(x, PAIRS3, precision)
    assert g.quantum is None
    assert g.values.dtype == np.float64


@pytest.mark.parametrize("offset", [1e9, 1e12])
def test_quantize_reads_offset_scores_by_the_rounding_of_their_size(offset):
    # x + 1e12 holds x to 2**-13, within the rounding the tie rule allows scores of that
    # size: tenths stay on their grid (the integers k, step 0.1), continuous scores on none
    k = np.random.default_rng(5).integers(0, 9, size=(10, 3))
    ints, q = core.quantize(0.1 * k + offset)
    np.testing.assert_array_equal(ints, k - k.min(axis=1, keepdims=True))
    assert q == 0.1
    assert core.quantize(np.random.default_rng(5).random((10, 3)) + offset) == (None, None)


def test_quantize_reads_float32_scores_by_the_rounding_of_their_size():
    # float32 scores carry 2 * 2**-24 of their size each: near 100 (an error of 2.6e-5 for
    # a difference) steps of 0.5 are a grid; near 1e6 (an error of 0.24) four items cannot
    # tell a grid of 0.5 from chance, and the group is read by the tolerance instead
    steps = np.array([[0.0, 0.0], [0.5, 0.0], [0.0, 8.0], [1.5, 0.0]])
    ints, q = core.quantize((steps + 100.0).astype(np.float32), 2.0**-24)
    assert ints.tolist() == [[0, 0], [1, 0], [0, 16], [3, 0]]
    assert q == 0.5
    assert core.quantize((steps + 1e6).astype(np.float32), 2.0**-24) == (None, None)
    # the same floats given as float64 are exact to 2**-53 of their size: the grid again
    ints, q = core.quantize((steps + 1e6).astype(np.float32).astype(np.float64))
    assert (ints.tolist(), q) == ([[0, 0], [1, 0], [0, 16], [3, 0]], 0.5)


@pytest.mark.slow
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_chance_fits_of_few_differences_are_rare(dtype):
    # two items, two systems: two unrounded differences always lie near some fine grid
    # (continued fractions); the chance test keeps grids of two or more distinct multiples
    # below FALSE_GRID per design
    rng = np.random.default_rng(8)
    fits = 0
    for _ in range(10_000):
        ints, _ = core.quantize(rng.random((2, 2)).astype(dtype), unit_roundoff(dtype))
        fits += ints is not None and np.unique(ints[ints > 0]).size > 1
    assert fits <= 10_000 * core.FALSE_GRID


@pytest.mark.parametrize(("offset", "dtype"), [(0.0, np.float64), (0.5, np.float64),
                                               (0.0, np.float32), (0.25, np.float32)])  # fmt: skip
def test_tie_tolerance_bounds_the_error_of_ranges(offset, dtype):
    # intended scores u + offset (exact rationals), given rounded to dtype (an offset within
    # the spread of the scores): for random arrangements, the float range and observed
    # difference of the working values err by less than the tolerance in all (the ties in
    # exact arithmetic are counted)
    rng = np.random.default_rng(12)
    u = rng.random((12, 3))
    x = (u + offset).astype(dtype)
    g = core.prepare_group(x, PAIRS3, unit_roundoff(dtype))
    assert g.quantum is None
    exact = [[Fraction(float(v)) + Fraction(offset) for v in row] for row in u]
    perms = list(itertools.permutations(range(3)))
    unit = 2.0**g.exponent  # working values are the differences times 2**-exponent
    worst = 0.0
    for trial in range(300):
        choice = rng.integers(0, 6, size=12) if trial else np.zeros(12, dtype=int)
        sums = np.zeros(3)
        exact_sums = [Fraction(0)] * 3
        for i, c in enumerate(choice.tolist()):
            sums += g.values[i, list(perms[c])]
            exact_sums = [s + exact[i][j] for s, j in zip(exact_sums, perms[c], strict=True)]
        low = min(exact_sums)
        exact_range = max(exact_sums) - low
        got = Fraction(float(sums.max() - sums.min())) * Fraction(unit)
        worst = max(worst, abs(float(got - exact_range)))
    columns = [sum((row[j] for row in exact), Fraction(0)) for j in range(3)]
    for (a, b), observed in zip(PAIRS3, g.observed.tolist(), strict=True):
        error = abs(Fraction(observed) * Fraction(unit) - abs(columns[b] - columns[a]))
        assert float(error) + worst <= g.tolerance * unit
    assert worst > 0


@pytest.mark.parametrize("continuous", [False, True])
def test_prepared_group_is_the_same_at_an_exact_offset_or_a_subnormal_scale(continuous):
    # integers are exact: x + 2**50 is x; quarters keep their grid at 2**40, where the
    # rounding the rule allows scores of that size (2**-11) is far below the step; and
    # x * 2**-1060 (subnormal, exact) is x in other units
    rng = np.random.default_rng(2)
    x = rng.integers(0, 6, size=(5, 3)).astype(float)
    offset = 2.0**50
    if continuous:
        x = x + rng.integers(0, 4, size=x.shape) / 4
        offset = 2.0**40
    base = core.prepare_group(x, PAIRS3)
    for moved, unit in ((x + offset, 1.0), (x * 2.0**-1060, 2.0**-1060)):
        g = core.prepare_group(moved, PAIRS3)
        np.testing.assert_array_equal(g.values, base.values)
        np.testing.assert_array_equal(g.thresholds, base.thresholds)
        assert g.quantum == base.quantum * unit
        np.testing.assert_array_equal(core.exact_pvalues(g), core.exact_pvalues(base))
    expected = brute_force(x, PAIRS3, tol=0.0)  # quarters: the float sums are exact
    np.testing.assert_allclose(core.exact_pvalues(base), expected, rtol=1e-12)


def test_naive_float_comparison_loses_ties(sakai):
    # Why the grid matters: float means of Sakai's data make ranges that equal the X-Y
    # difference mathematically compare as smaller; the exact answer is 0.3038.
    x, ref = sakai
    means = x.mean(axis=0)
    obs = abs(means[1] - means[0])
    rng = np.random.default_rng(3)
    p = rng.permuted(np.broadcast_to(x, (20_000, *x.shape)), axis=-1).mean(axis=1)
    naive = np.mean(p.max(axis=1) - p.min(axis=1) >= obs)
    assert naive < 0.28  # about 0.267
    assert ref["three_systems"]["X-Y"]["value"] == pytest.approx(0.3038, abs=5e-5)


# ------------------------------------------------------------------------ exact
def test_sakai_exact_dynamic_programme(sakai):
    x, ref = sakai
    g = core.prepare_group(x, PAIRS3)
    assert core._exact_plan(g) == "dp"
    expected = [ref["three_systems"][k]["value"] for k in ("X-Y", "X-Z", "Y-Z")]
    np.testing.assert_allclose(core.exact_pvalues(g), expected, rtol=1e-12)
    np.testing.assert_allclose(expected, [0.3038, 0.1066, 0.8916], atol=5e-5)


def test_sakai_two_systems_fisher(sakai):
    x, ref = sakai
    g = core.prepare_group(x[:, :2], [(0, 1)])
    assert core.exact_pvalues(g)[0] == 135 / 2048
    assert ref["two_systems_XY"]["X-Y"] == {
        "numerator": 135,
        "denominator": 2048,
        "value": 135 / 2048,
    }


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("grid", [True, False])
def test_exact_against_brute_force(seed, grid):
    rng = np.random.default_rng(seed)
    x = rng.random((5, 3))
    if grid:
        x = np.round(x * 4) / 4  # many ties
    g = core.prepare_group(x, PAIRS3)
    np.testing.assert_allclose(core.exact_pvalues(g), brute_force(x, PAIRS3), rtol=1e-12)


def test_dp_equals_enumeration():
    x = np.round(np.random.default_rng(9).random((7, 3)) * 10) / 10
    g = core.prepare_group(x, PAIRS3)
    r1, p1 = core._exact_dp(g.values)
    r2, p2 = core._exact_enumerate(g.values)
    for t in np.unique(r2):
        assert p1[r1 >= t].sum() == pytest.approx(p2[r2 >= t].sum(), rel=1e-12)


@pytest.mark.parametrize("grid", [True, False])
def test_two_systems_equal_scipy_permutation_test(grid):
    rng = np.random.default_rng(11)
    x = rng.normal(size=(12, 2)) + np.array([0, 0.4])
    if grid:
        x = np.round(x, 1)
    res = stats.permutation_test(
        (x[:, 0], x[:, 1]),
        lambda a, b, axis: np.mean(b - a, axis=axis),
        permutation_type="samples",
        n_resamples=np.inf,
        alternative="two-sided",
    )
    g = core.prepare_group(x, [(0, 1)])
    assert core.exact_pvalues(g)[0] == pytest.approx(res.pvalue, rel=1e-12)


def test_exact_too_large_returns_none():
    g = core.prepare_group(np.random.default_rng(0).random((40, 4)), [(0, 1)])
    assert core._exact_plan(g) is None
    assert core.exact_pvalues(g) is None


# ------------------------------------------------------------------ Monte Carlo
@pytest.mark.parametrize("k", [2, 3, 4, 5, 6])
def test_magic_division_is_exact(k):
    fact = math.factorial(k)
    _, high, magic, shift = tukey_mc.table_params(100, k)
    v = np.unique(
        np.concatenate(
            [
                np.arange(0, 5000),
                np.arange(high - 5000, high),
                (np.arange(1, 5000) * (high // 5000))[:, None] + np.array([-1, 0, 1]),
            ],
            axis=None,
        )
    )
    v = v[(v >= 0) & (v < high)].astype(object)  # exact Python integers
    assert all(((v * magic) >> shift) == v // fact)


@pytest.mark.parametrize("k", [3, 7])
def test_counts_do_not_depend_on_chunking_or_workers(k):
    x = np.round(np.random.default_rng(2).random((25, k)), 1)
    pairs = list(itertools.combinations(range(k), 2))
    g = core.prepare_group(x, pairs)
    n = 3 * BLOCK + 77
    whole = core.count_trials(g, 9, ["t"], 0, n, workers=1)
    for cut in ([1, 300, 511, 512, 700], [BLOCK], [5, 6, 7]):
        edges = [0, *cut, n]
        parts = sum(
            core.count_trials(g, 9, ["t"], a, z, workers=1) for a, z in itertools.pairwise(edges)
        )
        np.testing.assert_array_equal(parts, whole)
    np.testing.assert_array_equal(core.count_trials(g, 9, ["t"], 0, n, workers=2), whole)
    np.testing.assert_array_equal(engine.MonteCarloCounter(g, 9, ["t"]).count(0, n), whole)


@pytest.mark.parametrize("k", [4, 20])
def test_partial_block_is_prefix_of_full_block(k):
    words = label_words(["t"])
    assert tukey_mc.arrangement_layout(10, k) == ("table" if k == 4 else "shuffle")
    full = engine.trial_draws(10, k, 3, words, 0, BLOCK)
    part = engine.trial_draws(10, k, 3, words, 0, 100)
    np.testing.assert_array_equal(full[:100], part)
    g = core.prepare_group(np.round(np.random.default_rng(4).random((10, k)), 2), [(0, 1)])
    # the kernels count trials of a partial block as the prefix of the full block
    a = core.count_trials(g, 3, ["t"], 0, 100, workers=1)
    np.testing.assert_array_equal(a, engine.MonteCarloCounter(g, 3, ["t"]).count(0, 100))


def test_streams_are_keyed_by_labels():
    g = core.prepare_group(np.round(np.random.default_rng(4).random((30, 3)), 2), PAIRS3)
    a = core.count_trials(g, 3, ["tukey_hsd", ("a",)], 0, 2000)
    b = core.count_trials(g, 3, ["tukey_hsd", ("b",)], 0, 2000)
    assert not np.array_equal(a, b)


def test_monte_carlo_agrees_with_exact_sakai(sakai):
    x, _ = sakai
    g = core.prepare_group(x, PAIRS3)
    exact = core.exact_pvalues(g)
    n = 40_000
    p = core.count_trials(g, 2024, ["tukey_hsd", ()], 0, n) / n
    se = np.sqrt(exact * (1 - exact) / n)
    assert np.all(np.abs(p - exact) <= 4 * se)


def test_shuffle_path_is_uniform():
    # k = 7 (Fisher-Yates digits) on two items: exact by enumeration (item 0 fixed)
    x = np.array([[0.0, 1, 2, 3, 5, 8, 13], [0.0, 2, 1, 7, 4, 9, 6]])
    pairs = list(itertools.combinations(range(7), 2))
    g = core.prepare_group(x, pairs)
    assert tukey_mc.arrangement_layout(2, 7) == "shuffle"
    exact = core.exact_pvalues(g)
    n = 20_000
    p = core.count_trials(g, 8, ["t"], 0, n) / n
    se = np.sqrt(exact * (1 - exact) / n)
    assert np.all(np.abs(p - exact) <= 4 * se + 1e-12)


@pytest.mark.slow  # 1 s; the exact and brute-force tests of tolerance mode stay quick
def test_tolerance_mode_counts_float_ties():
    # nDCG-like irrational scores: system 1 is system 0 with the items' values swapped,
    # so the observed difference is reached exactly by some arrangements
    v = 1 / np.log2(np.arange(2, 8))
    x = np.column_stack([v, v[::-1], v[[1, 0, 3, 2, 5, 4]]])
    g = core.prepare_group(x, PAIRS3)
    assert g.quantum is None
    np.testing.assert_allclose(core.exact_pvalues(g), brute_force(x, PAIRS3), rtol=1e-12)


def test_counts_across_large_blocks_and_threads():
    x = np.round(np.random.default_rng(6).random((12, 3)), 1)
    g = core.prepare_group(x, PAIRS3)
    size = core.trials_per_block(tukey_mc.draws_per_trial(12, 3))
    assert size % BLOCK == 0
    n = 2 * size + 5
    whole = core.count_trials(g, 4, ["t"], 0, n, workers=1)
    parts = core.count_trials(g, 4, ["t"], 0, size - 3, workers=1) + core.count_trials(
        g, 4, ["t"], size - 3, n, workers=1
    )
    np.testing.assert_array_equal(parts, whole)
    for workers in (2, 3, 7):  # parts taken by threads in turn (run_queued)
        np.testing.assert_array_equal(core.count_trials(g, 4, ["t"], 0, n, workers=workers), whole)


# ------------------------------------------------------------ many groups at once
# the kernels against the reference engine: tests/core/test_kernels.py
def test_balanced_tasks_cover_the_trials_once_with_equal_work():
    batch = {"n_items": np.array([200, 100, 7]), "sizes": np.array([8192, 4096, 256])}
    for lo, hi, workers in [(0, 10_000, 2), (300, 9000, 3), (0, 1, 2), (5, 5, 2), (0, 700, 8)]:
        parts = tukey_mc._balanced_tasks(batch, lo, hi, workers)
        assert len(parts) <= workers
        trials = {g: [] for g in range(3)}
        work = []
        for part in parts:
            for g, a, z in part.tolist():
                size = batch["sizes"][g]
                assert lo <= a < z <= hi
                assert a // size == (z - 1) // size  # within one block
                trials[g].extend(range(a, z))
            work.append(int(((part[:, 2] - part[:, 1]) * batch["n_items"][part[:, 0]]).sum()))
        for g in range(3):
            assert sorted(trials[g]) == list(range(lo, hi))
        if hi > lo:
            assert max(work) - min(work) <= 200 * (1 + len(parts))


# ---------------------------------------------------- many-vs-one (a baseline)
def many_vs_one_brute_force(x, base, tol=0.0):
    """Every arrangement of every item (item 0 too), in numpy: the fraction in which the
    largest |sum_j - sum_base| over j != base reaches each pair (base, j)'s observed one."""
    n, k = x.shape
    perms = np.array(list(itertools.permutations(range(k))))
    choice = np.array(list(itertools.product(range(len(perms)), repeat=n)))  # (m, n)
    arranged = x[np.arange(n)[None, :, None], perms[choice]]  # (m, n, k)
    sums = arranged.sum(axis=1)
    others = [j for j in range(k) if j != base]
    largest = np.abs(sums[:, others] - sums[:, [base]]).max(axis=1)
    observed = np.abs(x.sum(axis=0)[others] - x.sum(axis=0)[base])
    return (largest[:, None] >= observed[None, :] - tol).mean(axis=0)


@pytest.mark.slow  # every arrangement enumerated (test_exact_against_brute_force is quick)
@pytest.mark.parametrize("design", ["integers", "quarters", "continuous"])
def test_many_vs_one_exact_against_brute_force(design):
    # 4 items x 4 systems (24**4 arrangements); ties within items on the grids
    rng = np.random.default_rng(40)
    x = {
        "integers": rng.integers(0, 3, (4, 4)).astype(float),
        "quarters": rng.integers(0, 5, (4, 4)) / 4,
        "continuous": rng.random((4, 4)),
    }[design]
    tol = 1e-9 * np.abs(x).max() if design == "continuous" else 0.0
    for base in range(4):
        pairs = [(base, j) for j in range(4) if j != base]
        g = core.prepare_group(x, pairs, base=base)
        assert core._exact_plan(g) == ("enumerate" if design == "continuous" else "dp")
        expected = many_vs_one_brute_force(x, base, tol)
        # 55,296 float probabilities summed into each tail: agreement to about 1e-12
        np.testing.assert_allclose(core.exact_pvalues(g), expected, rtol=1e-10)
        # the other path on the same group: enumeration with the baseline's starts
        stat, probs = core._exact_enumerate(g.values, base)
        reached = [probs[stat >= t].sum() for t in g.thresholds]
        np.testing.assert_allclose(reached, expected, rtol=1e-10)


def test_many_vs_one_dp_equals_enumeration():
    x = np.round(np.random.default_rng(9).random((6, 4)) * 10) / 10
    for base in range(4):
        g = core.prepare_group(x, [(base, j) for j in range(4) if j != base], base=base)
        r1, p1 = core._exact_dp(g.values, base)
        r2, p2 = core._exact_enumerate(g.values, base)
        for t in np.unique(r2):
            assert p1[r1 >= t].sum() == pytest.approx(p2[r2 >= t].sum(), rel=1e-12)


def test_baseline_starts_weigh_each_score_at_the_baseline():
    starts, probs = core._baseline_starts(np.array([5, 1, 5, 2]), 2)
    assert starts[:, 2].tolist() == [1, 2, 5]
    assert probs.tolist() == [0.25, 0.25, 0.5]
    assert [sorted(row) for row in starts.tolist()] == [[1, 2, 5, 5]] * 3


def test_many_vs_one_monte_carlo_agrees_with_exact_sakai(sakai):
    x, _ = sakai
    g = core.prepare_group(x, [(1, 0), (1, 2)], base=1)
    exact = core.exact_pvalues(g)
    n = 40_000
    p = core.count_trials(g, 2024, ["tukey_hsd", ()], 0, n) / n
    se = np.sqrt(exact * (1 - exact) / n)
    assert np.all(np.abs(p - exact) <= 4 * se)
    # the same trials with the range: at least as many reach each threshold
    ranges = core.prepare_group(x, [(0, 1), (1, 2)])
    np.testing.assert_array_equal(ranges.thresholds, g.thresholds)
    assert np.all(core.count_trials(ranges, 2024, ["tukey_hsd", ()], 0, n) / n >= p)


def test_many_vs_one_two_systems_is_the_range():
    x = np.round(np.random.default_rng(1).random((9, 2)), 1)
    both = [core.prepare_group(x, [(0, 1)], base=b) for b in (None, 0)]
    assert [g.statistic for g in both] == ["range", "many-vs-one"]
    assert core.exact_pvalues(both[0]).tolist() == core.exact_pvalues(both[1]).tolist()
    counts = [core.count_trials(g, 5, ["t"], 0, 3000) for g in both]
    np.testing.assert_array_equal(counts[0], counts[1])


def test_prepare_group_refuses_a_base_outside_the_columns():
    with pytest.raises(ValueError, match="`base` must be a column of the 2 systems; got 2"):
        core.prepare_group(np.zeros((3, 2)), [(0, 1)], base=2)
