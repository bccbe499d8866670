"""Helpers of the core bootstrap tests: one group's data and its replicates."""

import numpy as np

from pairedstats.core import bootstrap as cb


def group(scores, pairs=((0, 1),), **kw) -> cb.GroupData:
    """``GroupData`` of scores (n, systems) or (n, systems, columns)."""
    scores = np.asarray(scores, dtype=float)
    if scores.ndim == 2:
        scores = scores[:, :, None]
    return cb.GroupData(scores, list(pairs), **kw)


def replicates(data: cb.GroupData, n_resamples: int, root=1, **kw) -> cb.Replicates:
    """``group_replicates`` of one group keyed ``()``."""
    return cb.group_replicates(data, group_key=(), root=root, n_resamples=n_resamples, **kw)


def design_keywords(design: str, n: int, *, cluster_size: int, first_stratum: int,
                    weights=None) -> dict:  # fmt: skip
    """The ``GroupData`` keywords of a design named ``items``, ``clusters``, ``strata`` or
    ``clusters-strata``: clusters of ``cluster_size`` items, a first stratum of
    ``first_stratum`` items."""
    kw = {}
    if "clusters" in design:
        kw["cluster"] = np.arange(n) // cluster_size
    if "strata" in design:
        kw["strata"] = np.where(np.arange(n) < first_stratum, 0, 1)
        kw["strata_labels"] = ["s", "t"]
        if weights is not None:
            kw["weights"] = weights
    return kw
