"""The model confidence set's run: the bootstrap of every system against one of them (one
joint resampling of the units, its replicates kept), obtained through the registry on the
same design, turned into each group's losses by label and handed to the core
(:func:`pairedstats.core.mcs.system_confidence_set`)."""

from __future__ import annotations

import numpy as np

from ...core.design import comparison_pairs
from ...core.groups import reference_system
from ...core.mcs import system_confidence_set
from ...core.summed import SummedDesign, summed_reference, summed_tie_error
from ...core.ties import tie_error
from .._shared.registry import SPECS
from .._shared.runs import labelled_pairs, side_of
from .._shared.streaming import bootstrap_sums
from .result import MCSResult
from .settings import Settings

__all__ = ["losses", "run", "summed"]


def summed(design, s: Settings) -> SummedDesign:
    """The sums of the streaming road (the spec's ``summed``): the Poisson bootstrap's
    tallies of all pairs (the system the others are centred on is chosen once they are
    merged), of a slice of the items."""
    return bootstrap_sums(design, s.rng, s.n_resamples)


def run(s: Settings) -> MCSResult:
    """The model confidence set of every group of ``s.design``: the bootstrap of every
    system against one (chosen from the scores as the bootstrap chooses the system it
    centres on, :func:`~pairedstats.core.groups.reference_system`, so that the order, the
    labels and the sign of the scores change no bit), its replicates kept, then
    :class:`MCSResult`. ``p - 1`` comparisons hold what all pairs hold: the difference of
    two systems' losses is the difference of their differences from the reference."""
    design = s.design
    systems = tuple(design.systems)
    summed = isinstance(design, SummedDesign)
    if summed:  # the streaming road: no first item; the smallest squared mean (of group 0)
        reference = systems[summed_reference(design.groups[0])]
    else:
        scores = design.scores[:, :, 0]
        reference = systems[reference_system(comparison_pairs(systems), scores)]
    pairs = SPECS["bootstrap"].compute(design, keep=True, baseline=reference,
                                       resampling="auto" if s.stream else "index",
                                       **s.bootstrap())  # fmt: skip
    _, columns = labelled_pairs(pairs)
    n_groups, p = len(pairs.group_keys), len(systems)
    mean = np.stack([side_of(pairs, columns, x) for x in systems], axis=-1)
    pvalue = np.ones((n_groups, p))
    eliminated = np.full((n_groups, p), np.nan)
    alpha = round(1.0 - s.confidence_level, 12)  # 0.1, not 0.09999999999999998
    for g in range(n_groups):
        loss, replicates = losses(pairs, g, systems, reference, s.lower_is_better)
        error = (summed_tie_error(design.groups[g], design.precision) if summed
                 else tie_error(scores[design.group(g)], design.precision))  # fmt: skip
        found = system_confidence_set(loss, replicates, s.statistic, error)
        pvalue[g] = found.pvalue
        out = found.pvalue < alpha
        eliminated[g, out] = found.step[out]
    meta = s.metadata(cluster=pairs.metadata["cluster"], strata=pairs.metadata["strata"],
                      replicate=pairs.metadata["replicate"])  # fmt: skip
    return MCSResult(
        group_names=pairs.group_names, group_keys=pairs.group_keys, systems=systems,
        mean=mean, in_set=pvalue >= alpha, mcs_pvalue=pvalue, eliminated=eliminated,
        comparisons=(pairs,), metadata=meta,
    )  # fmt: skip


def losses(pairs, g: int, systems, reference, lower_is_better: bool):
    """Group ``g``'s mean loss of each of ``systems`` relative to ``reference``'s, ``(p,)``,
    and its replicates, ``(p, B)`` (0 for the reference), each comparison found by its
    labels in the bootstrap result ``pairs`` (``b - a`` with ``a`` the reference).

    The loss is the score with ``lower_is_better``, else the negated score (a higher score
    is a lower loss)."""
    _, columns = labelled_pairs(pairs)
    sign = 1.0 if lower_is_better else -1.0
    draws = np.asarray(pairs.bootstrap_distribution)[g]
    loss = np.zeros(len(systems))
    replicates = np.zeros((len(systems), draws.shape[-1]))
    for i, x in enumerate(systems):
        if x != reference:
            c = columns[reference, x]
            loss[i] = sign * float(pairs.difference[g, c])
            replicates[i] = sign * draws[c]
    return loss, replicates
