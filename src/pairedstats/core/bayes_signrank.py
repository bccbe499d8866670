"""The Bayesian signed-rank test of Benavoli, Corani, Demšar and Zaffalon (2017): the
posterior of ``(p_left, p_rope, p_right)`` of one comparison's differences over items (data
sets), drawn from the label-keyed streams of :mod:`pairedstats.core.draws`. numpy only.

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
so ``p_rope`` is 0. The two 0/1/2-halves matrices ``H`` are computed once per comparison and
every sample is ``w^T H w``: all the samples of a block are one matrix product.

The weights of sample ``r`` come from block ``r // BLOCK`` of the stream named by the
method, the group's key and the comparison's two labels in their canonical order (that of
their :func:`~pairedstats.core.draws.label_words`), as normalised standard gamma draws
(``standard_gamma(alpha)``, ``alpha = (prior_strength, 1, .., 1)``, one row per sample): the
numbers of a comparison depend on nothing else in the call (the items are put in the
canonical order of their labels first, :func:`item_order`, so not on the order of the rows
either), and ``b - a`` is the mirror of
``a - b`` (left and right exchanged) exactly.
"""

from __future__ import annotations

from collections.abc import Hashable

import numpy as np

from .draws import block_generator, block_slices, label_words

__all__ = [
    "LABEL",
    "item_order",
    "largest_fractions",
    "posterior_samples",
    "stream",
    "walsh_sides",
]

#: First label of every stream of the Bayesian signed-rank test.
LABEL = "bayes_signrank"


def stream(group_key: Hashable, a: Hashable, b: Hashable) -> tuple:
    """The labels of the stream of comparison ``(a, b)`` of a group: the pair in canonical
    order, so that ``(a, b)`` and ``(b, a)`` draw the same weights.

    Examples
    --------
    >>> stream(("x",), "svm", "logreg") == stream(("x",), "logreg", "svm")
    True
    """
    first, second = (a, b) if label_words((a,)) <= label_words((b,)) else (b, a)
    return (LABEL, group_key, (first, second))


def item_order(items) -> np.ndarray:
    """The canonical order of a group's items, that of the
    :func:`~pairedstats.core.draws.label_words` of their labels: the weight of sample ``r``
    goes to the same item whatever the order of the rows.

    Examples
    --------
    >>> items = ["d1", "d2", "d3"]
    >>> back = items[::-1]
    >>> [items[i] for i in item_order(items)] == [back[i] for i in item_order(back)]
    True
    """
    words = [label_words((item,)) for item in items]
    return np.array(sorted(range(len(words)), key=words.__getitem__), dtype=np.intp)


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


def posterior_samples(
    differences: np.ndarray,
    rope: float,
    prior_strength: float,
    root: int,
    labels,
    n_samples: int,
) -> np.ndarray:
    """``(n_samples, 3)`` posterior samples of ``(p_left, p_rope, p_right)`` of the
    differences ``b - a`` (module docstring), drawn from the stream ``labels`` of ``root``.

    Examples
    --------
    >>> s = posterior_samples(np.array([0.02, 0.01, -0.005, 0.03]), 0.01, 0.5, 1,
    ...                       stream((), "a", "b"), 1000)
    >>> s.shape, bool(np.allclose(s.sum(axis=1), 1.0))
    ((1000, 3), True)
    """
    right, left = walsh_sides(differences, rope)
    sides = np.concatenate([left, right], axis=1)  # (n + 1, 2 (n + 1))
    m = right.shape[0]
    alpha = np.ones(m)
    alpha[0] = prior_strength
    out = np.empty((n_samples, 3))
    for block, lo, hi in block_slices(n_samples):
        gen = block_generator(root, labels, block)
        w = gen.standard_gamma(alpha, size=(hi - lo, m))
        w /= w.sum(axis=1, keepdims=True)
        both = w @ sides  # (rows, 2 (n + 1))
        out[lo:hi, 0] = np.einsum("ij,ij->i", both[:, :m], w)
        out[lo:hi, 2] = np.einsum("ij,ij->i", both[:, m:], w)
    out[:, 1] = 0.0 if rope == 0 else np.maximum(1.0 - out[:, 0] - out[:, 2], 0.0)
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
