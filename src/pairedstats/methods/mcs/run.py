"""The model confidence set's run: the bootstrap of all pairs (its joint replicates),
obtained through the registry on the same design, turned into each group's losses by label
and handed to the core (:func:`pairedstats.core.mcs.model_confidence_set`)."""

from __future__ import annotations

import numpy as np

from ... import _validation
from ...core.mcs import model_confidence_set
from .._shared.registry import SPECS
from .._shared.runs import labelled_pairs, side_of
from .result import McsResult
from .settings import Settings

__all__ = ["losses", "run"]


def run(s: Settings) -> McsResult:
    """The model confidence set of every group of ``s.design``: the bootstrap of all pairs
    with its replicates kept (one resampling of the units for all pairs), then
    :class:`McsResult`."""
    pairs = SPECS["bootstrap"].compute(s.design, keep=True, resampling="index", **s.bootstrap)
    systems, columns = labelled_pairs(pairs)
    n_groups, p = len(pairs.group_keys), len(systems)
    mean = np.stack([side_of(pairs, columns, x) for x in systems], axis=-1)
    pvalue = np.ones((n_groups, p))
    eliminated = np.full((n_groups, p), np.nan)
    alpha = round(1.0 - s.confidence_level, 12)  # 0.1, not 0.09999999999999998
    for g in range(n_groups):
        difference, replicates = losses(pairs, g, systems, s.lower_is_better)
        found = model_confidence_set(difference, replicates, s.statistic)
        pvalue[g] = found.pvalue
        out = found.pvalue < alpha
        eliminated[g, out] = found.step[out]
    meta = _validation.metadata(
        "mcs", confidence_level=s.confidence_level, statistic=s.statistic,
        lower_is_better=s.lower_is_better, n_resamples=pairs.metadata["n_resamples"],
        seed_entropy=s.bootstrap["rng"], cluster=pairs.metadata["cluster"],
        strata=pairs.metadata["strata"], replicate=pairs.metadata["replicate"],
    )  # fmt: skip
    return McsResult(
        group_names=pairs.group_names, group_keys=pairs.group_keys, systems=systems,
        mean=mean, in_set=pvalue >= alpha, mcs_pvalue=pvalue, eliminated=eliminated,
        comparisons=(pairs,), metadata=meta,
    )  # fmt: skip


def losses(pairs, g: int, systems, lower_is_better: bool) -> tuple[np.ndarray, np.ndarray]:
    """Group ``g``'s mean loss differences ``d[i, j] = loss_i - loss_j`` over ``systems``
    (shape ``(p, p)``) and their joint replicates (``(p, p, B)``), each pair found by its
    labels in the bootstrap result ``pairs`` (its ``difference`` is ``b - a``).

    The loss is the score with ``lower_is_better``, else the negated score (a higher score
    is a lower loss)."""
    at = {x: i for i, x in enumerate(systems)}
    sign = 1.0 if lower_is_better else -1.0
    draws = np.asarray(pairs.bootstrap_distribution)[g]
    p = len(systems)
    difference = np.zeros((p, p))
    replicates = np.zeros((p, p, draws.shape[-1]))
    for c, (a, b) in enumerate(zip(pairs.label_a, pairs.label_b)):
        i, j = at[b], at[a]  # loss_b - loss_a = sign * (mean_b - mean_a)
        difference[i, j] = sign * float(pairs.difference[g, c])
        difference[j, i] = -difference[i, j]
        replicates[i, j] = sign * draws[c]
        replicates[j, i] = -replicates[i, j]
    return difference, replicates
