"""McNemar's run: the test and Tango's interval of every comparison in every group of a
paired design (:func:`run`); the numbers come from :mod:`pairedstats.core.mcnemar`."""

from __future__ import annotations

import numpy as np

from ...core.adjust import adjust_pvalues
from ...core.margins import margin_columns
from ...core.mcnemar_pairs import mcnemar_pairs, outcome_products
from ...core.summed import OutcomeSums, SummedDesign
from .._shared.runs import Outputs, comparison_labels
from .result import McNemarResult
from .settings import Settings, check_binary

__all__ = ["run", "summed"]

#: The columns every call fills from the core, and their dtypes.
_COLUMNS = {
    "n_items": np.int64, "rate_a": np.float64, "rate_b": np.float64, "difference": np.float64,
    "ci_low": np.float64, "ci_high": np.float64, "only_a": np.int64, "only_b": np.int64,
    "statistic": np.float64, "pvalue": np.float64,
}  # fmt: skip


def summed(design, s: Settings) -> SummedDesign:
    """The sums of the streaming road (the spec's ``summed``): each group's ``X^T X`` of its
    outcomes, after the 0/1 check of the pandas road (a slice of the table's items)."""
    groups = []
    for g, (n, dropped) in enumerate(zip(design.n_items(), design.n_dropped(), strict=True)):
        products = outcome_products(design.scores[design.group(g), :, 0])
        if products is None:
            check_binary(design)  # raises, naming the first score that is not 0 or 1
        groups.append(OutcomeSums(products, int(n), int(dropped)))
    return SummedDesign.like(design, groups)


def run(s: Settings) -> McNemarResult:
    """Test every comparison (b - a) of every group of ``s.design``: all of a group's at once
    (the outcomes were checked 0/1 by :func:`.settings.check`)."""
    design = s.design
    out = Outputs(design.n_groups, len(s.pairs))
    columns = dict(_COLUMNS)
    if design.cluster is not None:
        columns.update(n_clusters=np.int64, design_effect=np.float64)
    if s.margin is not None:  # Tango's one-sided p-values at -margin and margin
        columns.update(p_above=np.float64, p_below=np.float64)
    for name, dtype in columns.items():
        out.add(name, dtype, 0 if dtype is np.int64 else np.nan)
    out.per_group("n_dropped", design.n_dropped(), np.int64)
    summed = isinstance(design, SummedDesign)
    for g in range(design.n_groups):
        rows = None if summed else design.group(g)
        cluster = None if design.cluster is None else design.cluster[rows]
        found = mcnemar_pairs(
            None if summed else design.scores[rows, :, 0], s.pairs, method=s.method,
            alternative=s.alternative, confidence_level=s.confidence_level, cluster=cluster,
            checked=True, products=None if s.products is None else s.products[g],
            margin=s.margin, n_items=design.groups[g].n_items if summed else None,
        )  # fmt: skip
        out.set(g, **{name: getattr(found, name) for name in columns})
    if s.adjust is not None:
        out.arrays["pvalue_adjusted"] = adjust_pvalues(out["pvalue"], s.adjust)
    if s.margin is not None:
        p_above, p_below = out.arrays.pop("p_above"), out.arrays.pop("p_below")
        alpha = 1.0 - s.confidence_level
        out.arrays.update(margin_columns(p_above, p_below, s.alternative, alpha, s.adjust))
    clustered = design.cluster is not None
    meta = s.metadata(test="clustered" if clustered else s.method,
                      interval="tango-rao-scott" if clustered else "tango")  # fmt: skip
    return McNemarResult(**comparison_labels(design, s.pairs), metadata=meta, **out.arrays)
