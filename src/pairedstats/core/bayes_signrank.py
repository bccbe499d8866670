"""The Bayesian signed-rank test of Benavoli, Corani, Demšar and Zaffalon (2017): the
posterior of ``(p_left, p_rope, p_right)`` of one comparison's differences over items (data
sets), drawn from the label-keyed streams of :mod:`pairedstats.core.draws`; numpy, and one
compiled kernel (:mod:`pairedstats.core.kernels.walsh_weights`, numba, imported when first
needed).

The model is a Dirichlet process whose base measure is one pseudo-observation at 0 of weight
``prior_strength``. Its posterior, given the differences ``z_1..z_n`` (``b - a``), is sampled
as Dirichlet weights ``w = (w_0, w_1, .., w_n) ~ Dirichlet(prior_strength, 1, .., 1)`` over the
points ``(0, z_1, .., z_n)``; for each sample

* ``p_right = sum_ij w_i w_j H((z_i + z_j) / 2 - rope)``,
* ``p_left = sum_ij w_i w_j H(-(z_i + z_j) / 2 - rope)``,
* ``p_rope = 1 - p_left - p_right``,

over all ordered pairs ``(i, j)``, ``i == j`` included, the prior point too, with ``H`` the
Heaviside step of value 1/2 at 0 (baycomp's ``SignedRankTest.sample``: a Walsh average on the
rope's edge is half in). With ``rope = 0`` an average of exactly 0 is half left, half right,
so ``p_rope`` is 0. Each sample is ``w^T H w`` computed without the matrices: with the points
sorted, the ``j`` of each row of ``H`` that count are the last ones (:func:`walsh_counts`,
once per comparison and side), so every inner sum is read from the running sums of the sample's
weights (O(n) per sample, in a fixed order of additions: the numbers do not depend on the
BLAS library or its threads; a compiled kernel, :mod:`pairedstats.core.kernels.walsh_weights`).

The weights of sample ``r`` come from block ``r // BLOCK`` of the stream named by the
method and the group's key (:func:`stream`), as normalised standard gamma draws
(``standard_gamma(alpha)``, ``alpha = (prior_strength, 1, .., 1)``, one row per sample, the
items in the order of the group's rows): the weights are over the items, so every comparison
of a group reads the same ones, as every pair of the bootstrap reads one resampling of the
items. A comparison's numbers therefore depend on nothing but its two systems' scores, the
group's key and ``rng`` (not on the other systems, nor on the systems' labels), and ``b - a``
is the mirror of ``a - b`` (left and right exchanged) exactly.
"""

from __future__ import annotations

from collections.abc import Hashable

import numpy as np

from .draws import BLOCK, block_generator, block_slices

__all__ = [
    "LABEL",
    "largest_fractions",
    "posterior_samples",
    "stream",
    "walsh_counts",
    "walsh_sides",
]

#: First label of every stream of the Bayesian signed-rank test.
LABEL = "bayes_signrank"
#: The weights held at once (samples x points), about 16 MiB: blocks are drawn in batches
#: this large, which changes no number (each block has its own generator).
_BATCH = 2**21


def stream(group_key: Hashable) -> tuple:
    """The labels of the stream of a group's weights: the method and the group's key.

    Examples
    --------
    >>> stream(("msmarco",))
    ('bayes_signrank', ('msmarco',))
    """
    return (LABEL, group_key)


def walsh_sides(differences: np.ndarray, rope: float) -> tuple[np.ndarray, np.ndarray]:
    """``(right, left)``: the ``(n + 1, n + 1)`` matrices of ``H(s - 2 rope)`` and ``H(-s -
    2 rope)`` for ``s = z_i + z_j`` over the points ``(0, z_1, .., z_n)`` (1 beyond the
    edge, 1/2 on it, 0 inside).

    Examples
    --------
    >>> right, left = walsh_sides(np.array([1.0, -1.0]), 0.0)
    >>> right.tolist()
    [[0.5, 1.0, 0.0], [1.0, 1.0, 0.5], [0.0, 0.5, 0.0]]
    """
    z = np.concatenate(([0.0], np.asarray(differences, dtype=np.float64)))
    s = z[:, None] + z[None, :]
    edge = 2.0 * float(rope)

    def heaviside(v):
        return (v > edge).astype(np.float64) + 0.5 * (v == edge)

    return heaviside(s), heaviside(-s)


def walsh_counts(differences: np.ndarray, rope: float) -> tuple[np.ndarray, np.ndarray]:
    """``(order, counts)``: the order that sorts the points ``(0, z_1, .., z_n)`` and, for
    each point ``z_i`` in that order, how many of the points make ``z_i + z_j`` above the
    edge ``2 rope`` and how many at least it (columns 0, 1). The sums rise with ``z_j``
    (floating-point addition is monotone), so the points that count are the last ones of
    the sorted order: the rows of :func:`walsh_sides`' ``right`` as counts (its ``left`` is
    ``right`` of the differences negated, exactly).

    Examples
    --------
    >>> order, counts = walsh_counts(np.array([1.0, -1.0]), 0.0)
    >>> order.tolist(), counts.tolist()   # points sorted: -1, 0, 1
    ([2, 0, 1], [[0, 1], [1, 2], [2, 3]])
    """
    z = np.concatenate(([0.0], np.asarray(differences, dtype=np.float64)))
    order = np.argsort(z, kind="stable")
    s = z[order][:, None] + z[order][None, :]
    edge = 2.0 * float(rope)
    return order, np.stack([(s > edge).sum(axis=1), (s >= edge).sum(axis=1)], axis=1)


def _right(w: np.ndarray, order: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """``p_right`` of the samples ``w`` (rows): ``sum_i w_i sum_j H_ij w_j``, ``H`` as
    :func:`walsh_sides`' ``right`` (1 beyond the edge, 1/2 on it), each inner sum read from
    the running sums of the row in sorted order (:func:`walsh_counts`;
    :func:`pairedstats.core.kernels.walsh_weights.beyond`). No matrix product: the order of
    the additions is fixed, so the numbers do not depend on the BLAS library or its threads,
    and a sample costs O(n) instead of O(n^2)."""
    from .kernels.walsh_weights import beyond

    out = np.empty(w.shape[0])
    beyond(w, order.astype(np.intp), np.ascontiguousarray(counts[:, 0], dtype=np.intp),
           np.ascontiguousarray(counts[:, 1], dtype=np.intp), out)  # fmt: skip
    return out


def posterior_samples(
    differences: np.ndarray,
    rope: float,
    prior_strength: float,
    root: int,
    labels,
    n_samples: int,
) -> np.ndarray:
    """``(k, n_samples, 3)`` posterior samples of ``(p_left, p_rope, p_right)`` of each of the
    ``k`` columns of the differences ``b - a``, ``(n, k)`` (a 1-d array is one column), drawn
    from the stream ``labels`` of ``root``: every column reads the same weights.

    Examples
    --------
    >>> s = posterior_samples(np.array([0.02, 0.01, -0.005, 0.03]), 0.01, 0.5, 1,
    ...                       stream(()), 1000)
    >>> s.shape, bool(np.allclose(s.sum(axis=-1), 1.0))
    ((1, 1000, 3), True)
    """
    d = np.asarray(differences, dtype=np.float64)
    d = d.reshape(d.shape[0], -1)
    # left of z is right of -z, computed the same way: b - a mirrors a - b exactly
    sides = [(walsh_counts(-d[:, c], rope), walsh_counts(d[:, c], rope))
             for c in range(d.shape[1])]  # fmt: skip
    m = d.shape[0] + 1
    alpha = np.ones(m)
    alpha[0] = prior_strength
    out = np.empty((d.shape[1], n_samples, 3))
    blocks = block_slices(n_samples)
    per_batch = max(1, _BATCH // (BLOCK * m))  # blocks whose weights are held at once
    for first in range(0, len(blocks), per_batch):
        batch = blocks[first : first + per_batch]
        lo, hi = batch[0][1], batch[-1][2]
        w = np.concatenate([block_generator(root, labels, block).standard_gamma(
            alpha, size=(b_hi - b_lo, m)) for block, b_lo, b_hi in batch])  # fmt: skip
        w /= w.sum(axis=1, keepdims=True)
        for c, (left, right) in enumerate(sides):
            out[c, lo:hi, 0], out[c, lo:hi, 2] = _right(w, *left), _right(w, *right)
    rest = np.maximum(1.0 - out[..., 0] - out[..., 2], 0.0)
    out[..., 1] = 0.0 if rope == 0 else rest
    return out


def largest_fractions(samples: np.ndarray) -> np.ndarray:
    """The fraction of samples in which each column is the largest, a sample whose largest
    value is shared counting ``1 / k`` for each of its ``k`` tied columns (baycomp gives
    the tie to the first): ``(3,)``, summing to 1.

    Examples
    --------
    >>> largest_fractions(np.array([[0.2, 0.1, 0.7], [0.5, 0.0, 0.5]])).tolist()
    [0.25, 0.0, 0.75]
    """
    top = samples == samples.max(axis=1, keepdims=True)
    return (top / top.sum(axis=1, keepdims=True)).mean(axis=0)
