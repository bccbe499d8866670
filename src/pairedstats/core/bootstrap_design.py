"""The bootstrap of every group of a design: which computation serves which group.

Each kind of group has its road, and a group's numbers are the same whichever serves it (its
draws come from streams keyed by its group key, never by its position):

* a design with replicates (``replicate=``): items and replicates resampled crossed, group
  by group (:func:`pairedstats.core.crossed.crossed_replicates`);
* the mean of unclustered, unstratified items on the index path, without BCa's influence
  values: many groups per kernel call
  (:func:`pairedstats.core.bootstrap.mean_replicates_batches`);
* every other group on its own (clusters, strata, weights, a ``statistic``, BCa, the counts
  path): :func:`pairedstats.core.bootstrap.group_replicates` on the group's resampling
  units (:func:`group_units`).

numpy only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import numpy as np

from .bootstrap import Replicates, group_replicates, mean_replicates_batches
from .crossed import crossed_replicates
from .design import PairedDesign
from .groups import GroupData

__all__ = ["batched", "design_replicates", "group_units"]


def batched(design: PairedDesign, *, statistic, resampling: str, influence: bool) -> bool:
    """Whether one kernel call serves many groups of ``design``: the mean of unclustered,
    unstratified items without replicates, on the index path, without BCa's influence values
    (a jackknife of each group)."""
    if statistic is not None or influence or resampling == "counts":
        return False
    return design.cluster is None and design.strata is None and design.replicates is None


def group_units(design: PairedDesign, g: int, pairs, weights: dict | None = None) -> GroupData:
    """The resampling units of group ``g`` of ``design`` (its items or clusters, its strata
    and their ``weights`` by stratum code) for the comparisons ``pairs``."""
    rows = design.group(g)
    return GroupData(
        design.scores[rows], pairs,
        cluster=None if design.cluster is None else design.cluster[rows],
        strata=None if design.strata is None else design.strata[rows],
        strata_labels=design.strata_labels, weights=weights, systems=design.systems,
        precision=design.precision,
    )  # fmt: skip


def design_replicates(
    design: PairedDesign,
    pairs: Sequence[tuple[int, int]],
    *,
    root: int,
    n_resamples: int,
    weights: dict | None = None,
    statistic: Callable | None = None,
    resampling: str = "index",
    influence: bool = False,
    studentized: bool = False,
    workers: int | None = None,
) -> Iterator[tuple[int | np.ndarray, Replicates, GroupData | None]]:
    """The replicates of every group of ``design``, each group by the road that serves it.

    The keywords are those of :func:`~pairedstats.core.bootstrap.group_replicates`
    (``weights`` by stratum code; ``statistic`` vectorized).

    Yields
    ------
    groups : int or ndarray of int
        One group, or a batch of groups served by one kernel call.
    replicates : Replicates
        Their replicates; a batch's fields have a leading axis of groups.
    units : GroupData or None
        The group's resampling units when it was resampled on its own from them (None for a
        batch and for the crossed resampling of replicates).
    """
    if batched(design, statistic=statistic, resampling=resampling, influence=influence):
        groups = range(design.n_groups)
        batches = mean_replicates_batches(
            {g: design.scores[design.group(g), :, 0] for g in groups},
            {g: design.stream_key(g) for g in groups}, pairs, precision=design.precision,
            root=root, n_resamples=n_resamples, workers=workers, studentized=studentized,
        )  # fmt: skip
        for batch, replicates in batches:
            yield np.array(batch), replicates, None
        return
    for g in range(design.n_groups):
        if design.replicates is not None:
            rows = design.group(g)
            yield g, crossed_replicates(
                [c[rows] for c in design.replicates], design.replicate_labels, pairs,
                group_key=design.stream_key(g), root=root, n_resamples=n_resamples,
                precision=design.precision,
            ), None  # fmt: skip
            continue
        units = group_units(design, g, pairs, weights)
        yield g, group_replicates(
            units, group_key=design.stream_key(g), root=root, n_resamples=n_resamples,
            statistic=statistic, resampling=resampling, influence=influence,
            studentized=studentized, workers=workers,
        ), units  # fmt: skip
