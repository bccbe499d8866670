"""The compiled kernels against the numpy reference engine, also with bounds checking on."""

import itertools
import subprocess
import sys

import numpy as np
import pytest

from pairedstats.core import bootstrap as cb
from pairedstats.core import tukey as ct
from pairedstats.core import tukey_mc
from pairedstats.core.draws import BLOCK
from pairedstats.core.parallel import PARTS_PER_WORKER

from . import reference_engine as ref
from .boundscheck import run_with_boundscheck


def _sums_case(seed=4):
    gen = np.random.default_rng(seed)
    sizes = [1, 2, 7, 200, 70_000]  # 70,000 units: 32-bit chunks
    keys = ["a", 3, ("x", 1.5), None, "big"]
    vals = [gen.normal(size=(n, 3)) for n in sizes]
    return keys, vals


@pytest.mark.slow
def test_stream_sums_equal_draw_order_sums_of_the_reference_indices():
    keys, vals = _sums_case()
    n_res = 515  # a short last block, and a last lane batch of 3
    labels = [(cb.LABEL, key) for key in keys]
    out = cb.stream_sums(labels, vals, n_res, 2026, workers=2)
    for s, lab in enumerate(labels):
        idx = ref.resample_indices(2026, lab, vals[s].shape[0], n_res)
        np.testing.assert_array_equal(out[s], ref.draw_order_sums(vals[s], idx).T)
    # one stream alone: the same sums
    alone = cb.stream_sums(labels[2:3], vals[2:3], n_res, 2026, workers=1)
    np.testing.assert_array_equal(alone[0], out[2])
    # one column (its own kernel, summed as drawn): the same sums as beside other columns
    column = cb.stream_sums(labels, [v[:, 1:2] for v in vals], n_res, 2026, workers=2)
    np.testing.assert_array_equal(column, out[:, 1:2])


def test_stream_sums_of_more_columns_than_a_row_block_are_the_reference_sums():
    # columns are summed a row block of the unit table at a time: 300 columns are three
    # blocks, the last one short
    from pairedstats.core.kernels.bootstrap import _WIDTH

    gen = np.random.default_rng(11)
    vals = [gen.normal(size=(n, 300)) for n in (9, 40)]
    assert 2 * _WIDTH < 300 < 3 * _WIDTH
    labels = [(cb.LABEL, key) for key in ("wide", 2)]
    out = cb.stream_sums(labels, vals, 21, 2027, workers=2)
    for s, lab in enumerate(labels):
        idx = ref.resample_indices(2027, lab, vals[s].shape[0], 21)
        np.testing.assert_array_equal(out[s], ref.draw_order_sums(vals[s], idx).T)


def _mixed_groups(k, sizes, seed=7, bases=None):
    """Grid and tolerance groups; ``bases[i]``: group i's baseline column (or None)."""
    rng = np.random.default_rng(seed)
    bases = bases or [None] * len(sizes)
    groups = []
    for i, (n, base) in enumerate(zip(sizes, bases, strict=True)):
        x = rng.random((n, k))
        pairs = (
            list(itertools.combinations(range(k), 2))
            if base is None
            else [(base, j) for j in range(k) if j != base]
        )
        groups.append(ct.prepare_group(np.round(x, 2) if i % 2 else x, pairs, base=base))
    return groups


@pytest.mark.parametrize("k", [2, 3, 5, 6, 7, 13])
def test_tukey_batch_equals_the_reference_counter(k):
    # grid and tolerance groups, one item (a single partial draw), unequal sizes and blocks;
    # k = 7: Fisher-Yates in one chunk, k = 13: two chunks (13! > 2**31), two streams
    groups = _mixed_groups(k, [1, 13, 40, 7, 250] if k < 7 else [1, 6, 30])
    labels = [("tukey_hsd", (i,)) for i in range(len(groups))]
    n = 9000 if k < 7 else 2000
    batch = ct.MonteCarloBatch(groups, 21, labels)
    got = batch.count(0, n, workers=2)
    for g, (group, lab) in enumerate(zip(groups, labels, strict=True)):
        np.testing.assert_array_equal(got[g], ref.MonteCarloCounter(group, 21, lab).count(0, n))
    for workers in (1, 3):
        np.testing.assert_array_equal(batch.count(0, n, workers), got)
    steps = sorted({min(x, n) for x in [0, 5, 1000, 1023, 1024, 1025, 8191, 8192, 8193, n]})
    parts = sum(batch.count(a, z, 2) for a, z in itertools.pairwise(steps))
    np.testing.assert_array_equal(parts, got)


@pytest.mark.parametrize("k", [2, 3, 6, 7, 13])
def test_many_vs_one_batch_equals_the_reference_counter(k):
    # the many-vs-one statistic (the reference writes out the largest |sum_j - sum_base|),
    # each group of the batch against a baseline column of its own
    sizes = [1, 13, 40, 7] if k < 7 else [1, 6, 30, 4]
    bases = [k - 1, 0, 1, 0]
    groups = _mixed_groups(k, sizes, seed=3, bases=bases)
    assert {g.statistic for g in groups} == {"many-vs-one"}
    labels = [("tukey_hsd", (i,)) for i in range(len(groups))]
    n = 3000
    got = ct.MonteCarloBatch(groups, 17, labels).count(0, n, workers=2)
    for g, (group, lab) in enumerate(zip(groups, labels, strict=True)):
        np.testing.assert_array_equal(got[g], ref.MonteCarloCounter(group, 17, lab).count(0, n))
    # the same trials as the range, which is never below the statistic: for the same pair,
    # never more trials than with the range (equal with two systems)
    ranges = _mixed_groups(k, sizes, seed=3)
    all_pairs = ct.MonteCarloBatch(ranges, 17, labels).count(0, n, workers=1)
    for g, base in enumerate(bases):
        where = {tuple(p): j for j, p in enumerate(ranges[g].pairs.tolist())}
        same = [where[(min(base, b), max(base, b))] for b in range(k) if b != base]
        np.testing.assert_array_equal(groups[g].thresholds, ranges[g].thresholds[same])
        assert (got[g] <= all_pairs[g, same]).all()
        if k == 2:
            np.testing.assert_array_equal(got[g], all_pairs[g, same])


@pytest.mark.slow  # 1.5 s; test_tukey_batch_equals_the_reference_counter stays quick
def test_tukey_batch_mixes_table_and_shuffle_groups():
    # 4 systems: up to 43,690 items on the table layout, more shuffled, in one call
    groups = _mixed_groups(4, [10, 43_691, 12])
    assert [tukey_mc.arrangement_layout(g.n_items, 4) for g in groups] == [
        "table",
        "shuffle",
        "table",
    ]
    labels = [("t", i) for i in range(3)]
    batch = ct.MonteCarloBatch(groups, 5, labels)
    kinds = sorted((b["kind"], b["index"].tolist()) for b in batch._fused)
    assert kinds == [("shuffle", [1]), ("table", [0, 2])]  # one batch per layout and dtype
    got = batch.count(0, 100, 2)
    for g in range(3):
        np.testing.assert_array_equal(
            got[g], ref.MonteCarloCounter(groups[g], 5, labels[g]).count(0, 100)
        )


@pytest.mark.slow  # 1.3 s: the dispatch at large sizes
def test_tukey_batch_is_one_kernel_call_per_worker_or_a_few_when_large(monkeypatch):
    groups = _mixed_groups(5, [30] * 40)
    batch = ct.MonteCarloBatch(groups, 3, [("t", i) for i in range(40)])
    calls = []
    real = tukey_mc._kernel

    def counting(kind):
        kernel, scratch = real(kind)
        return (lambda *a: calls.append(len(a[3])) or kernel(*a)), scratch  # a[3]: the tasks

    monkeypatch.setattr(tukey_mc, "_kernel", counting)
    batch.count(0, 20_000, workers=2)
    assert len(calls) == 4  # two working dtypes (grid, tolerance) x two workers
    # 20 groups x 3 blocks (8192 trials) per dtype; equal groups: the cut falls between two
    assert sum(calls) == 2 * 20 * 3
    calls.clear()
    batch.count(0, 400_000, workers=2)  # large: up to PARTS_PER_WORKER parts per worker
    assert len(calls) == 2 * 2 * PARTS_PER_WORKER
    # 20 groups x 49 blocks per dtype, a block cut by at most each of a dtype's 15 inner cuts
    assert 2 * 20 * 49 <= sum(calls) <= 2 * (20 * 49 + 2 * PARTS_PER_WORKER - 1)
    calls.clear()
    batch.count(0, 20_000, workers=1)  # one thread: one call per working dtype
    assert calls == [20 * 3, 20 * 3]


BOUNDSCHECK = """
import itertools
import numpy as np
from pairedstats.core import bootstrap as cb, tukey as ct
from tests.core import reference_engine as ref
gen = np.random.default_rng(0)
vals = [gen.normal(size=(n, 2)) for n in (1, 5, 300)]
labels = [("bootstrap", i) for i in range(3)]
out = cb.stream_sums(labels, vals, 300, 8, workers=1)
column = cb.stream_sums(labels, [v[:, :1] for v in vals], 300, 8, workers=1)
for s in range(3):
    idx = ref.resample_indices(8, labels[s], vals[s].shape[0], 300)
    assert (out[s] == ref.draw_order_sums(vals[s], idx).T).all()
    assert (column[s] == out[s, :1]).all()
wide = [gen.normal(size=(n, 300)) for n in (1, 9)]  # three row blocks of columns
out = cb.stream_sums(labels[:2], wide, 21, 8, workers=1)
for s in range(2):
    idx = ref.resample_indices(8, labels[s], wide[s].shape[0], 21)
    assert (out[s] == ref.draw_order_sums(wide[s], idx).T).all()
for (k, n), base in itertools.product([(3, 9), (7, 5), (13, 3)], [None, 1]):
    x = np.round(gen.random((n, k)), 1)
    g = ct.prepare_group(x, [(1, 0), (1, 2)], base=base)
    got = ct.MonteCarloBatch([g], 4, [("t",)]).count(0, 700, 1)[0]
    assert (got == ref.MonteCarloCounter(g, 4, ("t",)).count(0, 700)).all(), (k, n, base)
print("ok")
"""


@pytest.mark.slow
def test_kernels_with_bounds_checking_equal_the_reference():
    # a fresh process with NUMBA_BOUNDSCHECK=1 and its own cache: an index out of bounds
    # anywhere in the kernels raises IndexError instead of reading memory
    run_with_boundscheck(BOUNDSCHECK)


SPECIALIZATIONS = """
import importlib, pkgutil
import numpy as np
from numba import types
import pairedstats
import pairedstats.core.draws.jit as draws_jit
import pairedstats.core.kernels as kernels
from pairedstats.__main__ import demo
demo(n_resamples=300)
gen = np.random.default_rng(0)
x = gen.normal(size=(40, 3))
for kw in ({}, {"method": "studentized"}, {"method": "bca"}, {"strata": [0, 1] * 20},
           {"cluster": np.arange(40) // 4}):
    pairedstats.bootstrap(x, n_resamples=300, rng=1, **kw)
    pairedstats.bootstrap(x[:, :2], n_resamples=300, rng=1, **kw)
for k, kw in ((8, {}), (4, {}), (4, {"baseline": 0}), (9, {"baseline": 0})):
    pairedstats.tukey_hsd(np.round(gen.random((30, k)), 1), n_resamples=300, rng=1, **kw)
    pairedstats.tukey_hsd(gen.random((30, k)), n_resamples=300, rng=1, **kw)
ints = gen.integers(0, 5, 70).astype(float)
pairedstats.ranksum(ints[:40], ints[40:], method="exact")
pairedstats.ranksum(gen.normal(size=10), gen.normal(size=8), method="exact")
pairedstats.ranksum(gen.normal(size=1100), gen.normal(size=1000))
pairedstats.signrank(gen.normal(size=(30, 2)))
pairedstats.signrank(np.round(gen.normal(size=(300, 2)), 1))
modules = [draws_jit] + [importlib.import_module(f"pairedstats.core.kernels.{m.name}")
                         for m in pkgutil.iter_modules(kernels.__path__)]
def needless(t):  # a constant, or an array that is not C-contiguous
    if isinstance(t, types.BaseTuple):
        return any(needless(u) for u in t.types)
    if isinstance(t, types.Array):
        return t.layout != "C"
    return isinstance(t, types.Literal)
for module in modules:
    for name, f in vars(module).items():
        for signature in getattr(f, "signatures", None) or []:
            assert not any(map(needless, signature)), (module.__name__, name, signature)
        dtypes = {tuple(str(getattr(t, "dtype", t)) for t in sig) for sig in f.signatures} \
            if hasattr(f, "signatures") else set()
        assert len(dtypes) == len(getattr(f, "signatures", [])), (module.__name__, name)
print("ok")
"""


@pytest.mark.slow
def test_each_kernel_is_compiled_once():
    # a helper called with a constant argument is compiled once more for that constant (a
    # numba literal type), a read-only or non-contiguous array once more for its layout:
    # every compilation is a first call's wait, so each kernel is compiled once per working
    # dtype (int64 scores on a grid, float64 otherwise), whichever road calls it
    result = subprocess.run([sys.executable, "-c", SPECIALIZATIONS], capture_output=True,
                            text=True, timeout=600)  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip().endswith("ok")


def test_block_size_is_part_of_the_layout():
    assert BLOCK == 256
    assert tukey_mc.trials_per_block(tukey_mc.draws_per_trial(12, 3)) % BLOCK == 0
