"""The rank-sum run: the Wilcoxon rank-sum test of every group of a two-sample design
(:func:`run`); the numbers come from :mod:`pairedstats.core.ranksum`."""

from __future__ import annotations

import numpy as np

from ...core import ranksum as _core
from ...core.ties import tied_samples
from .._shared.runs import Outputs, ProgressBar, comparison_labels
from .findings import Findings
from .result import RanksumResult
from .settings import Settings

__all__ = ["run"]

#: Column dtypes other than float64.
_DTYPES = {"method": object, "n_a": np.int64, "n_b": np.int64}


def run(s: Settings) -> RanksumResult:
    """Test every group of ``s.design`` (b - a); a level out of reach is warned once."""
    design = s.design
    out = Outputs(design.n_groups, 1)
    for name in RanksumResult._columns:
        out.add(name, _DTYPES.get(name, np.float64), None if name == "method" else 0)
    findings = Findings(design, [(0, 1)])
    with ProgressBar(s.progress, total=design.n_groups, unit="group") as bar:
        for g in range(design.n_groups):
            test = _core.ranksum_1d(
                *tied_samples(*design.samples(g), design.precision), alternative=s.alternative,
                confidence_level=s.confidence_level, method=s.method, correction=s.correction,
            )  # fmt: skip
            if not test.level_reached:
                findings.level(g, test, s.confidence_level)
            out.set(g, **{name: getattr(test, name) for name in out.arrays})
            bar.update(1)
    findings.warn()
    return RanksumResult(**comparison_labels(design, [(0, 1)]), metadata=s.metadata(),
                         **out.arrays)  # fmt: skip
