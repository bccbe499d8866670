"""The Poisson bootstrap's label-keyed weights and the streaming tallies of per-system sums.

The weights are checked against their definition in numpy (``draws.poisson.weights``),
against scipy's Poisson(1) distribution and SplitMix64's published first outputs; the
kernel's tallies against a plain numpy reference that materialises every weight
(:func:`reference_tallies`) and against ``math.fsum`` of each cell (:func:`exact_sums`);
the resampled means against the multinomial bootstrap's variance of a mean, ``var(d) / n``.
"""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from pairedstats.core.draws import jit
from pairedstats.core.draws import poisson as dp
from pairedstats.core.streaming import PoissonTallies, poisson_means

from .boundscheck import run_with_boundscheck

LABELS = ["bootstrap", ("zeta",)]


def reference_tallies(keys, codes, scores, key, k, n_resamples):
    """Sums and weights (B, k) with every weight materialised (rows x B), in numpy."""
    present = ~np.isnan(scores)
    keys, codes, scores = keys[present], codes[present], scores[present]
    w = dp.weights(keys, key, n_resamples).astype(np.float64)
    sums, weights = np.zeros((n_resamples, k)), np.zeros((n_resamples, k))
    for c in range(k):
        rows = codes == c
        sums[:, c] = w[rows].T @ scores[rows]
        weights[:, c] = w[rows].sum(axis=0)
    return sums, weights


def exact_sums(keys, codes, scores, key, k, n_resamples):
    """The correctly rounded sum (``math.fsum``) of each cell's products ``w * score``."""
    present = ~np.isnan(scores)
    keys, codes, scores = keys[present], codes[present], scores[present]
    w = dp.weights(keys, key, n_resamples).astype(np.float64)
    out = np.zeros((n_resamples, k))
    for c in range(k):
        rows = codes == c
        products = w[rows] * scores[rows][:, None]  # rounded as the kernel rounds them
        out[:, c] = [math.fsum(products[:, r]) for r in range(n_resamples)]
    return out


def _table(seed, n_items, k, missing=0.2):
    """Rows of an items x systems table, item by item, some cells missing (NaN or absent)."""
    gen = np.random.default_rng(seed)
    labels = np.array([f"q{i:05d}" for i in gen.permutation(n_items)])
    keys = np.repeat(dp.item_keys(labels), k)
    codes = np.tile(gen.permutation(k), n_items)
    scores = gen.normal(size=n_items * k) * 3.0 + 1.0
    scores[gen.random(scores.size) < missing / 2] = np.nan
    keep = gen.random(scores.size) >= missing / 2
    return keys[keep], codes[keep], scores[keep]


# ------------------------------------------------------------------------- the weights
def test_thresholds_are_poisson_one_to_the_resolution():
    t = dp.THRESHOLDS
    assert dp.MAX_WEIGHT == t.size == 20
    assert t.dtype == np.uint64
    assert (np.diff(t.astype(object)) > 0).all()
    cdf = stats.poisson.cdf(np.arange(20), 1.0)
    np.testing.assert_allclose(t.astype(np.float64) / 2.0**64, cdf, rtol=0, atol=2e-16)
    probs = np.diff(np.concatenate([[0], t.astype(object)])) / 2**64  # exact: ints
    pmf = stats.poisson.pmf(np.arange(20), 1.0)
    assert all(abs(float(p) - q) <= 2.0**-63 + 1e-14 * q for p, q in zip(probs, pmf))
    # the last weight stands for the tail from 20 on; beyond it, below 2**-64
    assert abs((2**64 - int(t[-1])) / 2**64 - stats.poisson.sf(19, 1.0)) <= 2.0**-63
    assert stats.poisson.sf(20, 1.0) < 2.0**-64 < stats.poisson.sf(19, 1.0)


def test_splitmix64_first_outputs_are_the_published_ones():
    # SplitMix64 seeded with 0: the reference implementation's (Vigna's splitmix64.c)
    # first outputs
    assert hex(int(dp.item_keys(np.array([0]))[0])) == "0xe220a8397b1dcdaf"
    states = np.arange(1, 4, dtype=np.uint64) * np.uint64(dp.GAMMA)  # steps 1, 2, 3 from 0
    assert [hex(int(x)) for x in dp.mix(states)] == [
        "0xe220a8397b1dcdaf",
        "0x6e789e6aa1b965f4",
        "0x6c45d188009454f",
    ]
    assert hex(jit.mix64(np.uint64(dp.GAMMA))) == "0xe220a8397b1dcdaf"


def test_item_keys_by_value_and_kind():
    k = dp.item_keys
    three = k([3])[0]
    assert k([np.int64(3)])[0] == k(np.array([3], dtype=np.int32))[0] == three
    assert k([3.0])[0] == k(np.array([3.0]))[0] == k(np.array([3], dtype=np.uint64))[0] == three
    assert k(["3"])[0] != three
    assert k([True])[0] != k([1])[0]
    assert k([np.bool_(True)])[0] == k([True])[0]
    assert k(np.array(["a", "b", "a"])).tolist() == k(["a", "b", "a"]).tolist()
    assert k(np.array(["a"]))[0] == k(["a"])[0] != k([("a",)])[0]
    big = np.array([2**64 - 1, 2**63], dtype=np.uint64)
    assert len({*k(big).tolist(), *k([-1, -(2**63)]).tolist()}) == 4
    labels = [0, 1, -1, 2**40, "x", b"x", None, (1, "x"), 2.5, 2**70]
    assert len(set(k(labels).tolist())) == len(labels)


def test_weights_jit_equal_the_numpy_definition_tail_included():
    key = dp.call_key(2026, LABELS)
    keys = dp.item_keys(np.arange(1000))
    ref = dp.weights(keys, key, 1000)
    assert (ref >= 8).sum() > 0  # the decoder's slow path is exercised
    out = np.empty(1000)
    for i in range(keys.size):
        state = np.uint64(jit.poisson_state(keys[i], np.uint64(key)))
        jit.poisson_weights(state, 0, dp.THRESHOLDS, out)
        np.testing.assert_array_equal(out, ref[i])
        assert jit.poisson_weight(state, 999, dp.THRESHOLDS) == ref[i, 999]
    # a later start is the same stream, read further on
    np.testing.assert_array_equal(dp.weights(keys[:3], key, 10, start=990), ref[:3, 990:])


def test_streams_differ_by_label_group_and_seed():
    keys = dp.item_keys([3, np.int64(3), "3", "4"])
    w = dp.weights(keys, dp.call_key(1, LABELS), 64)
    assert (w[0] == w[1]).all()
    assert (w[0] != w[2]).any()
    assert (w[2] != w[3]).any()
    others = [dp.call_key(2, LABELS), dp.call_key(1, ["bootstrap", ("alpha",)]),
              dp.call_key(1, ["rank", ("zeta",)])]  # fmt: skip
    for key in others:
        assert (dp.weights(keys[:1], key, 64)[0] != w[0]).any()
    assert len({dp.call_key(1, LABELS), *others}) == 4
    # pinned: a change of the layout changes these (and POISSON_STREAM_VERSION with them)
    assert dp.POISSON_STREAM_VERSION == 1
    assert w[0, :16].tolist() == PINNED


#: The first 16 weights of item 3 in the call (root 1, LABELS), version 1.
PINNED = [2, 1, 1, 2, 0, 2, 0, 1, 1, 0, 2, 2, 2, 1, 0, 2]


def test_distribution_is_poisson_one_without_correlation():
    n_items, n_res = 1000, 1000  # 10**6 weights; consecutive integer labels
    w = dp.weights(dp.item_keys(np.arange(n_items)), dp.call_key(7, LABELS), n_res)
    x = w.reshape(-1).astype(np.float64)
    n = x.size
    pmf = stats.poisson.pmf(np.arange(7), 1.0)
    freq = np.bincount(w.reshape(-1), minlength=21)[:7] / n
    assert (np.abs(freq - pmf) <= 4 * np.sqrt(pmf * (1 - pmf) / n)).all()
    assert abs(x.mean() - 1) <= 4 / np.sqrt(n)
    assert abs(x.var() - 1) <= 4 * np.sqrt(3 / n)  # var((X - 1)**2) = 3 for Poisson(1)
    wf = w.astype(np.float64)
    for a, b in [(wf[:, :-1], wf[:, 1:]), (wf[:-1], wf[1:])]:  # resamples r, r+1; items
        r = np.corrcoef(a.reshape(-1), b.reshape(-1))[0, 1]
        assert abs(r) <= 4 / np.sqrt(a.size)


# ------------------------------------------------------------------------- the tallies
def _tallies(rows, k, n_res, batches=(), workers=1, root=2026):
    t = PoissonTallies.empty(root, LABELS, k, n_res)
    keys, codes, scores = rows
    for part in np.split(np.arange(keys.size), list(batches)):
        t.add(keys[part], codes[part], scores[part], workers=workers)
    return t


def test_tallies_equal_the_numpy_reference_with_missing_cells():
    rows = _table(1, 300, 4)
    t = _tallies(rows, 4, 300, batches=[17, 500], workers=2)  # B not a multiple of the tile
    sums, weights = reference_tallies(*rows, t.key, 4, 300)
    np.testing.assert_array_equal(t.weights, weights)
    scale = reference_tallies(rows[0], rows[1], np.abs(rows[2]), t.key, 4, 300)[0]
    assert (np.abs(t.sums - sums) <= 1e-13 * scale).all()  # the plain matrix product
    # the compensated sums are the correctly rounded ones (here in every cell)
    np.testing.assert_array_equal(t.sums, exact_sums(*rows, t.key, 4, 300))
    present = ~np.isnan(rows[2])
    assert t.counts.tolist() == np.bincount(rows[1][present], minlength=4).tolist()
    means, est = poisson_means(t)
    np.testing.assert_allclose(est, [np.mean(rows[2][present & (rows[1] == c)]) for c in range(4)])
    np.testing.assert_allclose(means, sums / weights, rtol=1e-12)


def test_runs_cut_by_the_kernels_row_chunks():
    # 3 rows per item: the kernel's chunk of ROWS rows ends inside an item's run
    from pairedstats.core.kernels.poisson import ROWS

    n_items = ROWS // 3 + 40
    rows = _table(8, n_items, 3, missing=0.0)
    assert ROWS % 3
    assert rows[0].size > ROWS
    t = _tallies(rows, 3, 20)
    np.testing.assert_array_equal(t.weights, reference_tallies(*rows, t.key, 3, 20)[1])
    np.testing.assert_array_equal(t.sums, exact_sums(*rows, t.key, 3, 20))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**16), cuts=st.lists(st.integers(0, 200), max_size=5),
       parts=st.integers(1, 4), workers=st.sampled_from([1, 2]))  # fmt: skip
def test_tallies_do_not_depend_on_batches_order_or_partitions(seed, cuts, parts, workers):
    rows = _table(seed, 60, 3)
    whole = _tallies(rows, 3, 70)
    # the same rows in the same order, cut anyhow and over threads: the same bits
    cut = _tallies(rows, 3, 70, batches=sorted(cuts), workers=workers)
    np.testing.assert_array_equal(cut.by_system, whole.by_system)
    # shuffled and split into partitions, merged in another order: the same bits (a cell
    # could differ by one unit in the last place with probability about 1e-14 here)
    gen = np.random.default_rng(seed)
    order = gen.permutation(rows[0].size)
    label = gen.integers(0, parts, size=order.size)
    pieces = [
        _tallies(tuple(a[order][label == p] for a in rows), 3, 70, workers=workers)
        for p in gen.permutation(parts)
    ]
    merged = pieces[0]
    for piece in pieces[1:]:
        merged = merged.merge(piece)
    np.testing.assert_array_equal(merged.weights, whole.weights)
    np.testing.assert_array_equal(merged.counts, whole.counts)
    np.testing.assert_array_equal(merged.sums, whole.sums)
    np.testing.assert_array_equal(poisson_means(merged)[1], poisson_means(whole)[1])


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**16), n_items=st.integers(1, 30))
def test_an_items_weights_do_not_depend_on_the_other_items(seed, n_items):
    # one system per item, score 1: the weights' tallies are the items' own weights
    gen = np.random.default_rng(seed)
    labels = gen.choice(10**6, size=n_items, replace=False)
    keys = dp.item_keys(labels)
    t = PoissonTallies.empty(seed, LABELS, n_items, 100)
    t.add(keys, np.arange(n_items), np.ones(n_items))
    ref = dp.weights(keys, t.key, 100).T
    np.testing.assert_array_equal(t.weights, ref)
    keep = gen.random(n_items) < 0.5  # a subset, in reverse order, in another call
    alone = PoissonTallies.empty(seed, LABELS, n_items, 100)
    alone.add(keys[keep][::-1], np.arange(n_items)[keep][::-1], np.ones(keep.sum()))
    np.testing.assert_array_equal(alone.weights[:, keep], ref[:, keep])


def test_variance_of_a_difference_is_the_bootstraps():
    # two systems, n = 2,000 items: the Poisson bootstrap's variance of the difference of
    # the means is the multinomial bootstrap's, var(d) / n (ddof 0), within 3%
    gen = np.random.default_rng(11)
    n, n_res = 2000, 20_000
    a = gen.gamma(2.0, size=n)
    b = a + gen.normal(0.1, 1.0, size=n)
    keys = np.repeat(dp.item_keys(np.arange(n) * 7 + 1), 2)
    codes = np.tile([1, 0], n)  # "beta" first in the table, coded 1
    scores = np.column_stack([b, a]).reshape(-1)
    t = PoissonTallies.empty(5, ["bootstrap", ("mid",)], 2, n_res)
    t.add(keys, codes, scores, workers=2)
    means, est = poisson_means(t)
    diff = means[:, 1] - means[:, 0]
    np.testing.assert_allclose(est, [a.mean(), b.mean()], rtol=1e-13)
    assert abs(diff.var() / (np.var(b - a) / n) - 1) < 0.03
    assert abs(diff.mean() - (b - a).mean()) < 4 * np.sqrt(np.var(b - a) / n / n_res) * 3


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda t: t.add(np.arange(3), [0, 1, 0], [1.0, 2, 3]), "`keys` must be a 1-d uint64"),
        (lambda t: t.add(dp.item_keys([1, 2]), [0.0, 1.0], [1.0, 2]), "`codes` must be integers"),
        (lambda t: t.add(dp.item_keys([1, 2]), [0, 2], [1.0, 2]), r"`codes` must be in \[0, 2\)"),
        (lambda t: t.add(dp.item_keys([1, 2]), [0], [1.0, 2]), "one length"),
        (lambda t: t.add(dp.item_keys([1]), [0], [np.inf]), "`scores` must be finite"),
        (lambda t: PoissonTallies.empty(1, LABELS, 0, 5), "`n_systems` must be a positive"),
        (lambda t: t.merge(PoissonTallies.empty(2, LABELS, 2, 5)), "same stream"),
    ],
)
def test_bad_input_is_refused_by_name(call, match):
    t = PoissonTallies.empty(1, LABELS, 2, 5)
    with pytest.raises((TypeError, ValueError), match=match):
        call(t)


def test_missing_cells_add_to_the_other_systems_only():
    keys = dp.item_keys(["zeta", "zeta", "alpha"])
    t = PoissonTallies.empty(3, LABELS, 2, 50)
    t.add(keys, [1, 0, 1], [np.nan, 2.0, 4.0])
    w = dp.weights(dp.item_keys(["zeta", "alpha"]), t.key, 50).astype(float)
    np.testing.assert_array_equal(t.weights, np.column_stack([w[0], w[1]]))
    np.testing.assert_array_equal(t.sums, np.column_stack([2 * w[0], 4 * w[1]]))
    means, est = poisson_means(t)
    assert est.tolist() == [2.0, 4.0]
    assert np.isnan(means[w[1] == 0, 1]).all()
    assert (means[w[1] > 0, 1] == 4.0).all()


@pytest.mark.slow
def test_kernel_within_bounds():
    run_with_boundscheck(
        "import numpy as np\n"
        "from pairedstats.core.draws import poisson as dp\n"
        "from pairedstats.core.streaming import PoissonTallies\n"
        "t = PoissonTallies.empty(1, ['m'], 3, 130)\n"
        "keys = dp.item_keys(np.repeat(np.arange(1400), 3))\n"  # past a chunk of rows
        "t.add(keys, np.tile([2, 0, 1], 1400), np.ones(4200), workers=2)\n"
        "assert t.weights.sum() > 0\n"
        "print('ok')\n"
    )
