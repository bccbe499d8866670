"""Sums over the items of b - a without forming the differences, against numpy on the
differences formed."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairedstats.core import pairs as pairs_module
from pairedstats.core.groups import pair_differences, plain_mean
from pairedstats.core.pairs import constant_differences, difference_means, difference_moments


@pytest.fixture(params=["numpy", "kernel"], autouse=True)
def road(request, monkeypatch):
    """Every test on both roads: numpy on small tables (``SMALL_CELLS``), the compiled
    kernel above it (forced here on every table)."""
    if request.param == "kernel":
        monkeypatch.setattr(pairs_module, "SMALL_CELLS", -1)
    return request.param


def _table(seed, n=57, p=6):
    gen = np.random.default_rng(seed)
    x = gen.normal(size=(n, p))
    x[:, 3] = x[:, 1] + 0.25  # a constant difference
    x[::4, 4] = x[::4, 2]  # ties on a quarter of the items
    return x, [(a, b) for a in range(p) for b in range(p) if a != b]


@pytest.mark.parametrize("seed", range(4))
def test_the_mean_is_the_plain_mean_of_the_differences_to_the_bit(seed):
    x, pairs = _table(seed)
    np.testing.assert_array_equal(difference_means(x, pairs),
                                  plain_mean(pair_differences(x, pairs)))  # fmt: skip
    # one comparison alone, other comparisons around it, any worker split: the same bits
    alone = [difference_means(x, [pair])[0] for pair in pairs]
    np.testing.assert_array_equal(difference_means(x, pairs, workers=1), alone)


@pytest.mark.parametrize("seed", range(4))
def test_moments_and_counts_are_numpy_s(seed):
    x, pairs = _table(seed)
    d = pair_differences(x, pairs)
    tol = np.full(len(pairs), 1e-12)
    out = difference_moments(x, pairs, tol, workers=2)
    np.testing.assert_array_equal(out.mean, plain_mean(d))
    np.testing.assert_allclose(np.sqrt(out.ss / (len(x) - 1)), d.std(axis=0, ddof=1),
                               rtol=1e-14, atol=1e-15)  # fmt: skip
    np.testing.assert_array_equal(out.wins, (d > tol).sum(axis=0))
    np.testing.assert_array_equal(out.ties, (np.abs(d) <= tol).sum(axis=0))
    np.testing.assert_array_equal(out.losses, (d < -tol).sum(axis=0))
    assert out.ties[pairs.index((2, 4))] >= len(x) // 4
    assert out.ss[pairs.index((1, 3))] < 1e-28  # the constant difference


def test_more_comparisons_than_a_block_and_any_order_give_the_same_bits():
    # all pairs of 190 systems are more than one block of the kernel (runs of one `a` and
    # consecutive `b` read together); shuffled, every run is one comparison long
    from pairedstats.core.kernels.pairs import BLOCK

    gen = np.random.default_rng(5)
    x = np.round(gen.normal(size=(23, 190)), 1)  # a coarse grid: ties within the error
    pairs = [(a, b) for a in range(190) for b in range(a + 1, 190)]
    assert len(pairs) > BLOCK
    d = pair_differences(x, pairs)
    rel = gen.uniform(0.0, 0.05, len(pairs))
    out = difference_moments(x, pairs, rel)
    tol = rel * (np.abs(x[:, [a for a, _ in pairs]]) + np.abs(x[:, [b for _, b in pairs]]))
    np.testing.assert_array_equal(out.wins, (d > tol).sum(axis=0))
    np.testing.assert_array_equal(out.ties, (np.abs(d) <= tol).sum(axis=0))
    np.testing.assert_array_equal(difference_means(x, pairs), plain_mean(d))
    np.testing.assert_array_equal(out.mean, plain_mean(d))
    ss = np.zeros(len(pairs))
    for row in d - out.mean:  # item by item, as the kernel adds
        ss += row * row
    np.testing.assert_array_equal(out.ss, ss)
    order = gen.permutation(len(pairs))[:3000]
    shuffled = difference_moments(x, [pairs[c] for c in order], np.zeros(3000), workers=2)
    exact = d[:, order]
    np.testing.assert_array_equal(shuffled.mean, out.mean[order])
    np.testing.assert_array_equal(shuffled.ss, out.ss[order])
    np.testing.assert_array_equal(shuffled.wins, (exact > 0).sum(axis=0))
    np.testing.assert_array_equal(shuffled.ties, (exact == 0).sum(axis=0))
    np.testing.assert_array_equal(shuffled.losses, (exact < 0).sum(axis=0))


@pytest.mark.parametrize("seed", range(3))
def test_constant_differences_are_those_whose_range_is_zero(seed):
    x, pairs = _table(seed)
    x[:, 5] = x[:, 0]  # identical systems
    x[-1, 2] = x[-1, 4] + 1.0  # constant but for the last item
    want = np.ptp(pair_differences(x, pairs), axis=0) == 0
    assert want.sum() == 2  # (0, 5), (5, 0); x1 + 0.25 - x1 rounds apart on some items
    np.testing.assert_array_equal(constant_differences(x, pairs, workers=2), want)
    np.testing.assert_array_equal(constant_differences(x[:1], pairs), np.ones(len(pairs), bool))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 40), p=st.integers(2, 7),
       kind=st.sampled_from(["normal", "grid", "integers", "offset", "tiny"]))  # fmt: skip
def test_numpy_and_the_kernel_give_the_same_bits(seed, n, p, kind):
    """The numpy road of small tables adds as the kernel does: every number, bit for bit,
    on any scores (grids with ties, integers, large offsets, values near 0)."""
    gen = np.random.default_rng(seed)
    x = {"normal": lambda: gen.normal(size=(n, p)),
         "grid": lambda: np.round(gen.normal(size=(n, p)), 1),
         "integers": lambda: gen.integers(-3, 4, size=(n, p)).astype(float),
         "offset": lambda: 1e6 + gen.normal(size=(n, p)),
         "tiny": lambda: gen.normal(size=(n, p)) * 1e-300}[kind]()  # fmt: skip
    pairs = [(a, b) for a in range(p) for b in range(p) if a != b]
    rel = gen.uniform(0.0, 1e-15, len(pairs))
    small = (
        difference_means(x, pairs),
        difference_moments(x, pairs, rel),
        constant_differences(x, pairs),
    )
    saved, pairs_module.SMALL_CELLS = pairs_module.SMALL_CELLS, -1
    try:
        kernel = (
            difference_means(x, pairs),
            difference_moments(x, pairs, rel),
            constant_differences(x, pairs),
        )
    finally:
        pairs_module.SMALL_CELLS = saved
    np.testing.assert_array_equal(small[0], kernel[0])
    for name in ("mean", "ss", "wins", "ties", "losses"):
        np.testing.assert_array_equal(getattr(small[1], name), getattr(kernel[1], name))
    np.testing.assert_array_equal(small[2], kernel[2])
