"""McNemar's test's declaration: its keywords, documentation and examples (:data:`SPEC`),
and the public functions built from it, :func:`mcnemar` (an items x systems array of 0/1
outcomes) and :func:`mcnemar_design` (every group of a paired design)."""

from __future__ import annotations

from collections.abc import Hashable

from numpy.typing import ArrayLike

from .._shared.keywords import NO_REPLICATE
from .._shared.options import Keyword
from .._shared.registry import MethodSpec, array_function, design_function, register
from .run import run, summed
from .settings import Options, check

__all__ = ["SPEC", "mcnemar", "mcnemar_design"]


_CLUSTER_DOC = (
    ": the items come in clusters (questions about one passage, turns of one dialogue). The "
    "test is then the clustered McNemar test of Durkalski et al. (2003), which needs "
    '``method="asymptotic"``, and the interval Tango\'s widened by the Rao-Scott design '
    "effect of the clusters (the ``design_effect`` column); clusters of one item give the "
    "unclustered numbers."
)
_CLUSTER = {
    "frame": Keyword(
        "cluster", None, "label, optional", f"Column of each item's cluster{_CLUSTER_DOC}",
        option=dict(metavar="COL", help="items in clusters: the clustered test"),
        annotation=Hashable | None,
    ),
    "dataset": Keyword(
        "cluster", None, "label, optional",
        f"A coordinate along the items naming each item's cluster{_CLUSTER_DOC}",
        annotation=Hashable | None,
    ),
    "array": Keyword(
        "cluster", None, "array_like, shape (n_items,), optional",
        f"Each item's cluster label{_CLUSTER_DOC}", annotation=ArrayLike | None,
    ),
}  # fmt: skip
_SCORE = Keyword(
    "score", None, "label, optional",
    "Column of the outcomes of a tidy table: 0 or 1 (bool, or the numbers 0 and 1) per item "
    "and system; any other value is refused.",
    option=dict(metavar="COL", help="0/1 outcome column (tidy tables)"),
    annotation=Hashable | None,
)  # fmt: skip

SPEC = register(
    MethodSpec(
        name="mcnemar",
        command="mcnemar",
        summary="McNemar's test of paired pass/fail outcomes, with Tango's interval of the "
        "difference of the rates b - a.",
        description="""
        For 0/1 scores (each item right or wrong under each system): ``rate_a`` and
        ``rate_b`` are the systems' rates of 1s, ``difference`` is ``rate_b - rate_a``, and
        only the discordant items (``only_a``, ``only_b``) carry information about it. The
        test is the binomial test of ``only_b`` given the discordant items (``"exact"``),
        its mid-p version or McNemar's chi-square; the interval is Tango's (1998) score
        interval, which stays informative with no discordant item and at rates of 0% or
        100%.""",
        road="paired",
        inputs={
            "frame": ("item", "system", "score", "systems", "by", "cluster", "missing"),
            "dataset": ("item", "system", "score", "systems", "cluster", "missing"),
            "array": ("scores", "systems", "cluster", "missing"),
        },
        input_docs={"cluster": _CLUSTER, "score": {"frame": _SCORE}},
        binary_scores=True,
        options=Options,
        check=check,
        run=run,
        refuses={
            "strata": "McNemar's test compares the discordant items of one table; test each "
            "stratum with by=, or use bootstrap(..., strata=...).",
            "replicate": "McNemar's test takes one outcome per item and system. " + NO_REPLICATE,
        },
        returns="""
        McNemarResult
            One row per comparison and group: ``system_a, system_b, n_items, rate_a,
            rate_b, difference, ci_low, ci_high, only_a, only_b, statistic, pvalue`` and
            more (see the result's attributes).""",
        notes="""
        ``statistic`` is ``only_b`` for the exact and mid-p tests (the count whose binomial
        tails give the p-value) and the chi-square for the asymptotic and clustered tests.
        Tango's interval solves the score equation of the difference (its ends are where
        the score statistic equals the normal quantile); with no discordant item it is
        ``+-z^2 / (n + z^2)``. Every formula, with its reference, is in
        :mod:`pairedstats.core.mcnemar`.""",
        examples={
            "array": """
            >>> import numpy as np
            >>> from pairedstats import mcnemar
            >>> a = np.array([1] * 2 + [1] * 1 + [0] * 7 + [0] * 11)  # 21 children, before
            >>> b = np.array([1] * 2 + [0] * 1 + [1] * 7 + [0] * 11)  # and after
            >>> res = mcnemar(np.column_stack([a, b]), systems=["before", "after"])
            >>> int(res.only_a[0, 0]), int(res.only_b[0, 0]), round(float(res.pvalue[0, 0]), 4)
            (1, 7, 0.0703)
            >>> [round(float(c[0, 0]), 3) for c in (res.ci_low, res.ci_high)]
            [0.026, 0.517]""",
            "design": """
            >>> import numpy as np
            >>> from pairedstats import mcnemar_design
            >>> from pairedstats.inputs import design_from_array
            >>> scores = np.ones((20, 2))  # both systems right on every item
            >>> res = mcnemar_design(design_from_array(scores))
            >>> [round(float(x[0, 0]), 4) for x in (res.pvalue, res.ci_low, res.ci_high)]
            [1.0, -0.1611, 0.1611]""",
            "frame": """
            >>> import pandas as pd
            >>> import pairedstats
            >>> df = pd.DataFrame({"question": [1, 2, 3, 4, 5, 6] * 2,
            ...                    "model": ["base"] * 6 + ["tuned"] * 6,
            ...                    "correct": [1, 0, 1, 0, 0, 1, 1, 1, 1, 1, 0, 1]})
            >>> res = df.paired.mcnemar(item="question", system="model", score="correct")
            >>> res[["system_a", "system_b", "only_a", "only_b", "pvalue"]]
              system_a system_b  only_a  only_b  pvalue
            0     base    tuned       0       2     0.5""",
            "dataset": """
            >>> import numpy as np, xarray as xr
            >>> import pairedstats
            >>> scores = np.random.default_rng(4).random((2, 30, 3)) < [0.5, 0.6, 0.7]
            >>> ds = xr.Dataset({"correct": (("fold", "item", "system"), scores)},
            ...                 coords={"fold": [0, 1], "system": ["x", "y", "z"]})
            >>> res = ds.paired.mcnemar(baseline="x")
            >>> dict(res["pvalue"].sizes)
            {'fold': 2, 'comparison': 2}""",
        },
        report_test="McNemar's test",
        summed=summed,
    )
)
mcnemar = array_function(SPEC, __name__)
mcnemar_design = design_function(SPEC, __name__)
