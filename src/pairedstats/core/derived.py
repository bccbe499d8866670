"""The replicates of comparisons made from each system's resampled sums, a block at a time.

A resample of the items gives every system's (centred) sum
(:func:`pairedstats.core.groups.centred_scores`); the replicate of a comparison ``(a, b)``
is the difference of its two systems' sums over the drawn size, weighted and added over the
strata. :class:`DerivedReplicates` holds the sums, ``p`` rows per resample, and makes the
replicates of any comparisons when they are read: 1,000 systems have 499,500 comparisons,
whose replicates at 1,000 resamples would be 4 GB, while their sums are 8 MB. numpy only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .adjust import comparison_blocks, take_columns, take_rows

__all__ = ["DerivedReplicates"]


@dataclass(frozen=True, eq=False)
class DerivedReplicates:
    """The replicates ``(..., k, B)`` of comparisons as differences of per-system sums.

    Attributes
    ----------
    terms : tuple of (weight, sums, size)
        One per stratum: ``sums`` (..., p, B), each system's sum over the units drawn in
        each resample; ``size`` the drawn size (a number, or an array that broadcasts
        against (..., k, B): the drawn clusters' sizes (B,), the groups' sizes (G, 1, 1));
        ``weight`` the stratum's weight, or None for one unweighted term. The replicate is
        ``sum over terms of weight * ((sums_b - sums_a) / size)``, added from 0 in the
        order of the terms (the bits of the replicates computed all at once).
    pairs : ndarray of int, shape (k, 2)
        Each comparison's ``(a, b)``.
    fixed : ndarray of bool, shape (..., k)
        The comparisons whose every replicate is ``value`` (their differences are
        constant: the estimate exactly).
    value : ndarray, shape (..., k)

    Examples
    --------
    >>> sums = np.array([[0.0, 2.0], [3.0, 3.0], [1.0, 8.0]])  # 3 systems, 2 resamples
    >>> pairs = np.array([(0, 1), (2, 1)])
    >>> reps = DerivedReplicates(((None, sums, 2.0),), pairs, np.zeros(2, bool), np.zeros(2))
    >>> reps.shape, reps.rows(slice(None)).tolist()
    ((2, 2), [[1.5, 0.5], [1.0, -2.5]])
    >>> np.asarray(reps)[1].tolist()
    [1.0, -2.5]
    """

    terms: tuple
    pairs: np.ndarray
    fixed: np.ndarray
    value: np.ndarray

    @property
    def shape(self) -> tuple[int, ...]:
        """``(..., k, B)``."""
        sums = self.terms[0][1]
        return (*sums.shape[:-2], len(self.pairs), sums.shape[-1])

    def rows(self, idx) -> np.ndarray:
        """The replicates of the comparisons ``idx``: a slice, or indices (..., m), one row
        of indices per leading position; shape (..., m, B)."""
        a, b = self.pairs[idx, 0], self.pairs[idx, 1]  # one row of systems per group, or one

        def side(sums, s):
            return take_rows(sums, s) if s.ndim > 1 else sums[..., s, :]

        fixed, value = take_columns(self.fixed, idx), take_columns(self.value, idx)
        total = None
        for weight, sums, size in self.terms:
            part = (side(sums, b) - side(sums, a)) / size
            if weight is None:
                total = part
            else:
                part = weight * part
                total = 0.0 + part if total is None else total + part
        return np.where(fixed[..., None], value[..., None], total)

    def groups(self, rows) -> DerivedReplicates:
        """The groups ``rows`` of the leading axis (a batch of groups)."""
        terms = tuple((w, s[rows], np.asarray(size)[rows] if np.ndim(size) == 3 else size)
                      for w, s, size in self.terms)  # fmt: skip
        return DerivedReplicates(terms, self.pairs, self.fixed[rows], self.value[rows])

    def spread(self) -> np.ndarray:
        """Each comparison's ``max - min`` over its replicates, (..., k), a block at a time."""
        out = np.empty(self.shape[:-1])
        lead = int(np.prod(self.shape[:-2], dtype=np.int64))
        for part in comparison_blocks(self.shape[-2], self.shape[-1], lead):
            out[..., part] = np.ptp(self.rows(part), axis=-1)
        return out

    def __getitem__(self, key):
        """Any numpy index of the replicates, all made first (small calls and tests)."""
        return np.asarray(self)[key]

    def __array__(self, dtype=None, copy=None):
        out = self.rows(slice(None))
        return out if dtype is None else out.astype(dtype)
