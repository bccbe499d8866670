"""Per comparison ``(a, b)`` of a table of scores, its numbers over the items of ``b - a``
computed without forming the ``n_items x n_comparisons`` differences: the mean (the
estimate of the bootstrap's index path) and the moments and counts of the effect sizes
(:mod:`pairedstats.core.effects`).

A leaderboard of 1,000 systems has 499,500 comparisons: their differences over 10,000 items
would be 40 GB. The kernel (:mod:`pairedstats.core.kernels.pairs`, imported lazily) reads
the scores item by item, keeping the running sums of a block of comparisons, on worker
threads over parts of the comparisons; a comparison's numbers do not depend on its block or
on the other comparisons.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .parallel import run_in_parts

__all__ = ["DifferenceMoments", "constant_differences", "difference_means", "difference_moments"]


@dataclass(frozen=True)
class DifferenceMoments:
    """The numbers of :func:`difference_moments`: per comparison ``(a, b)`` (shape (k,)), of
    its differences ``d = b - a`` over the items.

    Attributes
    ----------
    mean : ndarray of float
        The mean of ``d`` (the sequential sum over the items, as
        :func:`difference_means`).
    ss : ndarray of float
        The sum of ``(d - mean)**2``.
    wins, ties, losses : ndarray of int64
        The items where ``d`` is above, within and below its error of 0.
    """

    mean: np.ndarray
    ss: np.ndarray
    wins: np.ndarray
    ties: np.ndarray
    losses: np.ndarray


#: Items x comparisons up to which numpy computes the numbers (the differences held at
#: once, 512 kB), by the same operations in the same order as the kernel, so with the same
#: bits: a small table (the bundled examples, a first call) does not wait for the kernel to
#: compile.
SMALL_CELLS = 2**16


def _layout(scores, pairs):
    x = np.ascontiguousarray(np.asarray(scores, dtype=np.float64))
    index = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    return x, np.ascontiguousarray(index[:, 0]), np.ascontiguousarray(index[:, 1])


def _small(x: np.ndarray, a: np.ndarray) -> bool:
    return x.shape[0] * a.size <= SMALL_CELLS


def _sequential_sums(v: np.ndarray) -> np.ndarray:
    """The sums of the columns of ``v`` over its rows, added in row order (``add.accumulate``
    adds each row to the running sums, as the kernel does; ``sum`` would add pairwise)."""
    return np.add.accumulate(v, axis=0)[-1] if v.shape[0] else np.zeros(v.shape[1])


def difference_means(scores, pairs: Sequence[tuple[int, int]], workers=None) -> np.ndarray:
    """Each comparison's mean of ``b - a`` over the items of ``scores`` (n_items, n_systems):
    the sequential sum over ``n``, the bits of :func:`pairedstats.core.groups.plain_mean` of
    the differences.

    Examples
    --------
    >>> difference_means(np.array([[1.0, 2.0, 4.0], [3.0, 3.0, 3.0]]), [(0, 1), (2, 0)])
    array([ 0.5, -1.5])
    """
    x, a, b = _layout(scores, pairs)
    if _small(x, a):
        return 1.0 * (_sequential_sums(x[:, b] - x[:, a]) / float(x.shape[0]))
    from .kernels import pairs as kernels

    out = np.empty(a.size)
    run_in_parts(a.size, workers,
                 lambda s: kernels.difference_sums(x, a, b, s.start, s.stop, out))  # fmt: skip
    return 1.0 * (out / float(x.shape[0]))


def difference_moments(
    scores, pairs: Sequence[tuple[int, int]], rel, workers=None
) -> DifferenceMoments:
    """Per comparison: ``mean`` of ``d = b - a``, ``ss`` the sum of ``(d - mean)**2``, and
    ``wins``, ``ties``, ``losses``, the items where ``d`` is above, within and below its
    error ``rel * (|a| + |b|)`` of 0 (``rel`` (k,): ``ERROR_ULPS`` units of roundoff of the
    scores, 0 for exact scores: the tie rule of :mod:`pairedstats.core.ties`).

    Returns
    -------
    DifferenceMoments

    Examples
    --------
    >>> x = np.array([[0.2, 0.5], [0.4, 0.4], [0.1, 0.6], [0.3, 0.2]])
    >>> out = difference_moments(x, [(0, 1)], np.zeros(1))
    >>> [int(out.wins[0]), int(out.ties[0]), int(out.losses[0])]
    [2, 1, 1]
    """
    x, a, b = _layout(scores, pairs)
    rel = np.ascontiguousarray(np.broadcast_to(np.asarray(rel, dtype=np.float64), a.shape))
    if _small(x, a):
        return _small_moments(x, a, b, rel)
    from .kernels import pairs as kernels

    mean, ss = np.empty(a.size), np.empty(a.size)
    wins, ties, losses = (np.empty(a.size, dtype=np.int64) for _ in range(3))

    def part(s):
        kernels.difference_moments(x, a, b, rel, s.start, s.stop, mean, ss, wins, ties, losses)

    run_in_parts(a.size, workers, part)
    return DifferenceMoments(mean=mean, ss=ss, wins=wins, ties=ties, losses=losses)


def _small_moments(x, a, b, rel) -> DifferenceMoments:
    """:func:`difference_moments` by numpy: the kernel's operations, in its order."""
    n, xa, xb = x.shape[0], x[:, a], x[:, b]
    d = xb - xa
    mean = _sequential_sums(d) / n
    e = d - mean
    tol = rel * (np.abs(xa) + np.abs(xb))
    above = d > tol
    wins = np.count_nonzero(above, axis=0).astype(np.int64)
    ties = np.count_nonzero((d >= -tol) & ~above, axis=0).astype(np.int64)
    return DifferenceMoments(mean=mean, ss=_sequential_sums(e * e), wins=wins, ties=ties,
                             losses=n - wins - ties)  # fmt: skip


def constant_differences(scores, pairs: Sequence[tuple[int, int]], workers=None) -> np.ndarray:
    """Per comparison, whether ``b - a`` is the same finite number on every item of
    ``scores`` (n_items >= 1, n_systems): its replicates are the estimate exactly. Each
    comparison is read up to the first item where it differs.

    Examples
    --------
    >>> x = np.array([[0.0, 1.0, 5.0], [2.0, 3.0, 4.0]])
    >>> constant_differences(x, [(0, 1), (0, 2), (2, 2)]).tolist()
    [True, False, True]
    """
    x, a, b = _layout(scores, pairs)
    if _small(x, a):
        d = x[:, b] - x[:, a]
        return (np.abs(d[0]) < np.inf) & (d[1:] == d[0]).all(axis=0)
    from .kernels import pairs as kernels

    out = np.zeros(a.size, dtype=np.bool_)

    def part(s):
        kernels.constant_differences(x, a, b, s.start, s.stop, out)

    run_in_parts(a.size, workers, part)
    return out
