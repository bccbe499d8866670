"""The bootstrap's sums on the streaming road (:mod:`pairedstats.dask_frames`), written once
for the methods that read them: the bootstrap, the ranking, the best set and the report."""

from __future__ import annotations

from ...core.design import comparison_pairs
from ...core.summed import SummedDesign, summed_design

__all__ = ["bootstrap_sums"]


def bootstrap_sums(design, root: int, n_resamples: int, baseline=None) -> SummedDesign:
    """The Poisson bootstrap's sums of ``design`` (a slice of the items of a table) for the
    comparisons with ``baseline`` (all pairs without one), the weights keyed by ``root``,
    one thread (a task of its own)."""
    pairs = comparison_pairs(design.systems, baseline)
    return summed_design(design, pairs, root=root, n_resamples=n_resamples, workers=1)
