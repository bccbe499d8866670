"""The one module of random draws against numpy: seeding, SFC64 outputs and the decoders."""

import numba
import numpy as np
import pytest

from pairedstats.core import draws
from pairedstats.core.draws import jit

from . import reference_engine as ref

ROOTS = [0, 1, 12345, 2**32 + 5, 2**127 + 2**64 + 3, 987654321]


@numba.njit
def _outputs(words, count):
    # as the kernels use them: seeded and stepped inside compiled code
    gen = jit.seed(words)
    out = np.empty(count, dtype=np.uint64)
    for i in range(count):
        out[i], gen = jit.next64(gen)
    return out


def _words(i):
    return draws.label_words(("bootstrap", f"g{i}", i))


@pytest.mark.parametrize("root", ROOTS)
@pytest.mark.parametrize("block", [0, 1, 255, 2**32 - 1, 2**32, 2**40 + 17])
def test_in_kernel_sfc64_equals_numpy(root, block):
    for i in range(3):
        words = _words(i)[: i + 1]
        prefix = draws.entropy_prefix(root, words)
        seed_words = draws.block_seeds(prefix, np.array([0, prefix.size]), [0], [block])[0]
        state = jit.seed(seed_words)
        numpy_bits = ref.words_generator(root, words, block).bit_generator
        inner = numpy_bits.state["state"]
        assert [int(x) for x in state] == inner["state"].tolist()  # a, b, c and the counter
        np.testing.assert_array_equal(_outputs(seed_words, 5), numpy_bits.random_raw(5))


def test_block_seeds_of_many_streams_equal_numpy_seed_sequences():
    # streams of several prefix lengths and blocks on both sides of 2**32, in one call
    prefixes = [draws.entropy_prefix(root, _words(i)[: i + 1]) for root in ROOTS for i in range(3)]
    bounds = np.concatenate([[0], np.cumsum([p.size for p in prefixes])])
    blocks = [0, 1, 255, 2**32 - 1, 2**32, 2**40 + 17]
    streams = np.repeat(np.arange(len(prefixes)), len(blocks))
    got = draws.block_seeds(np.concatenate(prefixes), bounds, streams, blocks * len(prefixes))
    for row, (s, block) in enumerate(zip(streams.tolist(), blocks * len(prefixes))):
        root_and_key = [int(w) for w in prefixes[s]] + [block & 0xFFFFFFFF]
        root_and_key += [block >> 32] if block >> 32 else []
        # SeedSequence of the assembled words: what numpy hashes for (root, spawn_key)
        expected = np.random.SeedSequence(root_and_key).generate_state(4, np.uint64)
        np.testing.assert_array_equal(got[row], expected)


def test_entropy_prefix_is_numpy_assembly():
    assert draws.entropy_prefix(5, (1, 2**32 + 7)).tolist() == [5, 0, 0, 0, 1, 7, 1]
    assert draws.entropy_prefix(2**130, ()).tolist() == [0, 0, 0, 0, 4]
    assert draws.entropy_prefix(0, (0,)).tolist() == [0, 0, 0, 0, 0]


def test_block_generator_is_numpys():
    labels = ("tukey_hsd", ("g", 1))
    a = draws.block_generator(7, labels, 3).integers(0, 2**32, size=5)
    b = ref.words_generator(7, draws.label_words(labels), 3).integers(0, 2**32, size=5)
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("n", [1, 3, 5, 1000, 65536, 65537, 70001])
def test_unit_indices_equal_the_numpy_reference(n):
    prefix = draws.entropy_prefix(5, draws.label_words(["u", n]))
    got = np.empty((6, n), dtype=np.int64)
    stream = draws.UnitDraws(prefix, 2, n)
    stream.fill(got[:2])  # split batches: the stream continues where it stopped
    stream.fill(got[2:3])
    stream.fill(got[3:])
    expected = ref.UnitStream(ref.words_generator(5, draws.label_words(["u", n]), 2), n)
    np.testing.assert_array_equal(got, expected.indices(6))


@pytest.mark.parametrize("n", [1, 3, 5, 1000, 65500, 65536, 65537, 70001, 300_000])
def test_unit_sums_add_the_reference_indices_in_draw_order(n):
    # sum_units draws the indices fill_units writes, carry included: resamples of n units
    # one after another, then a partial one, then the rest of the stream's chunks again.
    # Blocks of whole outputs are summed as if no chunk were rejected, and again by the
    # rule if one was: blocks of 64 outputs (n = 3, 5, 65536 and up), 28 (n = 65500), none
    # (1000: every output by the rule). Rejected chunks expected: 41 at n = 1000, 180 at
    # 65,500, 4.6 at 70,001, 58 at 300,000
    prefix = draws.entropy_prefix(5, draws.label_words(["s", n]))
    gen = np.random.default_rng(n)
    values = gen.normal(size=n) * 10.0 ** gen.integers(-8, 9, size=n)  # order matters
    state = jit.open_stream(prefix, np.uint64(2))
    width, threshold = jit.unit_rule(n)
    rest = np.empty(jit.PER_BLOCK, dtype=np.uint32)
    got = [jit.sum_units(state, values, n, width, threshold, rest) for _ in range(5)]
    indices = ref.UnitStream(ref.words_generator(5, draws.label_words(["s", n]), 2), n)
    expected = [_draw_order_sum(values[row]) for row in indices.indices(5)]
    assert got == expected
    after = np.empty(3, dtype=np.int64)
    jit.fill_units(state, after, 3, n, width, threshold)  # the same carry as fill_units'
    np.testing.assert_array_equal(after, indices.take(3))


def _draw_order_sum(picked):
    total = 0.0
    for value in picked:  # Python floats: one rounding per addition, in order
        total += float(value)
    return total


def test_resample_indices_equal_the_reference_and_are_keyed_by_block():
    labels = ["bootstrap", ("g",)]
    a = draws.resample_indices(9, labels, 11, 2 * draws.BLOCK + 5)
    np.testing.assert_array_equal(a, ref.resample_indices(9, labels, 11, 2 * draws.BLOCK + 5))
    b = draws.resample_indices(9, labels, 11, draws.BLOCK + 1)
    np.testing.assert_array_equal(a[: draws.BLOCK + 1], b)
    other = draws.resample_indices(9, ["bootstrap", ("h",)], 11, 10)
    assert (other != a[:10]).any()


@pytest.mark.parametrize("n", [3, 7, 65537])
def test_unit_indices_are_uniform(n):
    idx = draws.resample_indices(123, ["u"], n, max(1, 600_000 // n)).ravel()
    if n < 100:
        freq = np.bincount(idx, minlength=n) / idx.size
        se = np.sqrt((1 / n) * (1 - 1 / n) / idx.size)
        assert np.all(np.abs(freq - 1 / n) < 5 * se)
    # mean and variance of a discrete uniform on 0..n-1
    mean, var = (n - 1) / 2, (n**2 - 1) / 12
    assert abs(idx.mean() - mean) < 5 * np.sqrt(var / idx.size)
    assert abs(idx.var() / var - 1) < 5 * np.sqrt(0.8 / idx.size)
    assert idx.min() >= 0
    assert idx.max() < n


def test_unit_draws_refuse_out_of_range_sizes():
    with pytest.raises(ValueError, match=r"\[1, 2\*\*32\)"):
        draws.UnitDraws(draws.entropy_prefix(1, ()), 0, 0)


@pytest.mark.parametrize("high", [1, 2, 10, 720, 2**31, 3 * 2**30 + 1])
def test_bounded_rows_equal_the_numpy_reference(high):
    prefix = draws.entropy_prefix(11, draws.label_words(["t"]))
    state = jit.open_stream(prefix, np.uint64(4))
    thresh = (1 << 32) % high
    count, rows, stride = 5, 7, 8
    jit.fill_rows(state, high, thresh, np.empty(0, np.uint32), count, 3, 0)  # skip 3
    buf = np.zeros(count * stride, dtype=np.uint32)
    jit.fill_rows(state, high, thresh, buf, count, rows, stride)
    one_by_one = _next_bounded(state, high, thresh, 9)  # the stream goes on, draw by draw
    expected = ref.bounded_uint32(ref.words_generator(11, draws.label_words(["t"]), 4), high,
                                  (3 + rows) * count + 9)[3 * count :]  # fmt: skip
    np.testing.assert_array_equal(buf.reshape(count, stride)[:, :rows].T.ravel(),
                                  expected[: rows * count])  # fmt: skip
    np.testing.assert_array_equal(one_by_one, expected[rows * count :])


@numba.njit
def _next_bounded(state, high, threshold, count):
    out = np.empty(count, dtype=np.uint64)
    for i in range(count):
        out[i] = jit.next_bounded(state, np.uint64(high), np.uint64(threshold))
    return out


def test_stream_version_is_an_int():
    assert isinstance(draws.STREAM_VERSION, int)
    assert draws.STREAM_VERSION >= 1
