"""The signed-rank run: the Wilcoxon signed-rank test of every comparison in every group of
a paired design (:func:`run`); the numbers come from :mod:`pairedstats.core.signrank`."""

from __future__ import annotations

import numpy as np

from ...core import signrank as _core
from ...core.margins import margin_columns
from ...core.signrank_margin import signrank_margin_pvalues
from .._shared.margins import MARGIN_COLUMNS
from .._shared.runs import Outputs, ProgressBar, comparison_labels
from .findings import Findings
from .result import SignrankResult
from .settings import Settings

__all__ = ["run"]

#: Column dtypes other than float64.
_DTYPES = {"method": object, "n_items": np.int64, "n_zeros": np.int64, "n_dropped": np.int64}


def run(s: Settings) -> SignrankResult:
    """Test every comparison (b - a) of every group of ``s.design``, and against ``s.margin``
    when given; a level out of reach and pass/fail scores are warned once each."""
    design = s.design
    out = Outputs(design.n_groups, len(s.pairs))
    for name in SignrankResult._columns:
        if name not in MARGIN_COLUMNS:
            out.add(name, _DTYPES.get(name, np.float64), None if name == "method" else 0)
    out.per_group("n_dropped", design.n_dropped(), np.int64)
    tested = [k for k in out.arrays if k != "n_dropped"]
    ends = np.full((2, *out.shape), np.nan)  # p_above, p_below of the margin's tests
    findings = Findings(design, s.pairs)
    with ProgressBar(s.progress, total=design.n_groups, unit="group") as bar:
        for g in range(design.n_groups):
            scores = design.scores[design.group(g), :, 0]
            unreached = {}
            for c, (ia, ib) in enumerate(s.pairs):
                test = _core.signrank_pair(
                    scores[:, ia], scores[:, ib], precision=design.precision,
                    alternative=s.alternative, confidence_level=s.confidence_level,
                    method=s.method, correction=s.correction,
                )  # fmt: skip
                if not test.level_reached:
                    unreached[c] = test.n_items - test.n_zeros
                out.set((g, c), **{k: getattr(test, k) for k in tested})
                if s.margin is not None:
                    ends[:, g, c] = signrank_margin_pvalues(
                        scores[:, ia], scores[:, ib], s.margin, precision=design.precision,
                        method=s.method, correction=s.correction,
                    )  # fmt: skip
            findings.level(g, unreached, s.confidence_level)
            bar.update(1)
    findings.pass_fail(s.pairs)
    findings.warn()
    if s.margin is not None:
        out.arrays.update(margin_columns(*ends, s.alternative, 1.0 - s.confidence_level))
    meta = s.metadata()
    return SignrankResult(**comparison_labels(design, s.pairs), metadata=meta, **out.arrays)
