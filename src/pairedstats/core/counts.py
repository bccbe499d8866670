"""The mean's counts path (``resampling="counts"``): each comparison's multinomial counts of
its distinct values per resample (the module docstring of :mod:`pairedstats.core.bootstrap`).
numpy only."""

from __future__ import annotations

import numpy as np

from .draws import block_generator, block_slices
from .groups import stream_labels

__all__ = ["counts_mean", "counts_ratios"]


def counts_mean(sums1, sizes, group_key, stratum_key, stratified, root, n_resamples):
    """(num, den) replicates of one comparison on the counts path: (B,) and (B,)."""
    n = sums1.shape[0]
    vals, inv = np.unique(np.column_stack([sums1, sizes]), axis=0, return_inverse=True)
    mult = np.bincount(inv.reshape(-1), minlength=vals.shape[0]).astype(np.float64)
    p = mult / n
    labels = stream_labels(group_key, stratum_key, stratified)
    num = np.empty(n_resamples)
    den = np.empty(n_resamples)
    for block, lo, hi in block_slices(n_resamples):
        gen = block_generator(root, labels, block)
        c = gen.multinomial(n, p, size=hi - lo).astype(np.float64)
        num[lo:hi] = c @ vals[:, 0]
        den[lo:hi] = c @ vals[:, 1]
    return num, den


def counts_ratios(group, h, sums, group_key, root, n_resamples):
    """Replicates (B, k) of stratum ``h``'s ratio (item mean) of each comparison's column of
    ``sums`` on the counts path: each comparison's own multinomial counts."""
    lo, hi = group.strata_bounds[h], group.strata_bounds[h + 1]
    s, m = sums[lo:hi], group.unit_sizes[lo:hi]
    skey, stratified = group.stratum_keys[h], group.stratified
    ratio = np.empty((n_resamples, s.shape[1]))
    for c, sign in enumerate(group.orientation):
        num, den = counts_mean(sign * s[:, c], m, group_key, skey, stratified, root,
                                n_resamples)  # fmt: skip
        ratio[:, c] = sign * (num / den)
    return ratio
