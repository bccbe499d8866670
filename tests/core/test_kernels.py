"""The compiled kernels against numpy: seeding, PCG64 outputs, and many-stream sums."""

import numba
import numpy as np
import pytest

from pairedstats.core import _kernels, _pcg
from pairedstats.core import bootstrap as core
from pairedstats.core.streams import entropy_prefix, label_words, words_generator

ROOTS = [0, 1, 12345, 2**32 + 5, 2**127 + 2**64 + 3, 987654321]


@numba.njit
def _outputs(prefix, block, count):
    # as the kernels use them: seeded and stepped inside compiled code
    hi, lo, inc_hi, inc_lo = _pcg.seed(prefix, block)
    out = np.empty(count, dtype=np.uint64)
    for i in range(count):
        out[i], hi, lo = _pcg.next64(hi, lo, inc_hi, inc_lo)
    return out


def _words(i):
    return label_words(("bootstrap", f"g{i}", i))


@pytest.mark.parametrize("root", ROOTS)
@pytest.mark.parametrize("block", [0, 1, 255, 2**32 - 1, 2**32, 2**40 + 17])
def test_in_kernel_pcg64_equals_numpy(root, block):
    for i in range(3):
        words = _words(i)[: i + 1]
        state = _pcg.seed(entropy_prefix(root, words), block)
        ref = words_generator(root, words, block).bit_generator
        inner = ref.state["state"]
        assert (int(state[0]) << 64 | int(state[1])) == inner["state"]
        assert (int(state[2]) << 64 | int(state[3])) == inner["inc"]
        np.testing.assert_array_equal(_outputs(entropy_prefix(root, words), block, 5),
                                      ref.random_raw(5))  # fmt: skip


def test_entropy_prefix_is_numpy_assembly():
    assert entropy_prefix(5, (1, 2**32 + 7)).tolist() == [5, 0, 0, 0, 1, 7, 1]
    assert entropy_prefix(2**130, ()).tolist() == [0, 0, 0, 0, 4]
    assert entropy_prefix(0, (0,)).tolist() == [0, 0, 0, 0, 0]


def test_stream_sums_of_many_streams_equal_one_stream_at_a_time():
    gen = np.random.default_rng(4)
    sizes = [1, 2, 7, 200, 70_000]  # 70,000 units: 32-bit chunks
    keys = ["a", 3, ("x", 1.5), None, "big"]
    n_res = 515  # a short last block, and a last lane batch of 3
    vals = [gen.normal(size=(n, 3)) for n in sizes]
    root = 2026
    prefixes = [entropy_prefix(root, label_words((core.LABEL, key))) for key in keys]
    pb = np.concatenate([[0], np.cumsum([p.size for p in prefixes])])
    ub = np.concatenate([[0], np.cumsum(sizes)])
    out = np.full((len(keys), 3, n_res), np.nan)
    all_vals = np.ascontiguousarray(np.concatenate(vals).T)
    n_tasks = len(keys) * 3
    # tasks in two uneven parts, out of order: the parts write disjoint slices
    _kernels.stream_sums(np.concatenate(prefixes), pb, all_vals, ub, n_res, 7, n_tasks, out)
    _kernels.stream_sums(np.concatenate(prefixes), pb, all_vals, ub, n_res, 0, 7, out)
    for s, key in enumerate(keys):
        # the numpy-driven stream (batch_rows forces it), summing in draw order
        ref = core._index_mean(vals[s], key, None, False, root, n_res, 1, batch_rows=64)
        np.testing.assert_array_equal(out[s], ref.T)
