"""The signed-rank test's declaration: its keywords, documentation and examples
(:data:`SPEC`), and the public functions built from it, :func:`signrank` (an items x systems
array) and :func:`signrank_design` (every group of a paired design)."""

from __future__ import annotations

from .._shared.keywords import NO_REPLICATE, PAIRED_INPUTS
from .._shared.registry import MethodSpec, array_function, design_function, register
from .run import run
from .settings import Options, check

__all__ = ["SPEC", "signrank", "signrank_design"]


_SUMMARY = (
    "Wilcoxon signed-rank test of the paired differences b - a, with the paired "
    "Hodges-Lehmann shift."
)

SPEC = register(
    MethodSpec(
        name="signrank",
        command="signrank",
        summary=_SUMMARY,
        description="""
        Zero differences are dropped (R's rule; their number is the ``n_zeros`` column); the
        absolute differences are ranked (midranks for ties) and ``statistic`` is R's ``V``,
        the sum of the ranks of the positive differences. ``shift`` is the median of the
        Walsh averages of the differences, with its distribution-free confidence
        interval. With ``margin``, the signed-rank tests of ``b - a + margin`` and ``b - a -
        margin`` give non-inferiority (one-sided) or equivalence (two one-sided tests).""",
        road="paired",
        inputs=PAIRED_INPUTS,
        options=Options,
        check=check,
        run=run,
        refuses={
            "replicate": (
                "the signed-rank test treats each item's difference as one exact observation, "
                "which leaves out the run-to-run (seed) variance of repeated runs. " + NO_REPLICATE
            )
        },
        returns="""
        SignrankResult
            One row per comparison and group: ``system_a, system_b, n_items, n_zeros,
            statistic, z, pvalue, shift, ci_low, ci_high`` and more (see the result's
            attributes).""",
        warns="""
        SignrankConfidenceWarning
            When ``confidence_level`` cannot be reached with so few non-zero differences:
            once per call, naming how many groups and the first.
        SignrankPassFailWarning
            When the scores of a comparison are all 0 or 1 (pass/fail): the test is then
            McNemar's without its interval; ``mcnemar`` is the test to use. Once per call,
            naming the comparisons and how many groups.""",
        notes="""
        The interval is made of order statistics of the ``n (n + 1) / 2`` Walsh averages,
        selected with the shift in one pass (beyond ``2**20`` of them, never formed: a few
        ``O(n)`` passes over the sorted differences). On the exact path their ranks are
        R's exact critical values (``qsignrank``); on the asymptotic path they are the
        Walsh averages where R's normal score crosses its quantile, so the intervals of R's
        ``wilcox.test(b, a, paired=TRUE, conf.int=TRUE)`` are reproduced (R finds the
        asymptotic ends with ``uniroot`` to within 1e-4; these are the exact Walsh
        averages). The shift is always the median of the Walsh averages; on its asymptotic
        path R reports instead a root of the normal statistic, which can differ by up to
        half a gap between the middle Walsh averages.""",
        examples={
            "array": """
            >>> import numpy as np
            >>> from pairedstats import signrank
            >>> scores = np.array([[1.83, 0.878], [0.50, 0.647], [1.62, 0.598], [2.48, 2.05],
            ...                    [1.68, 1.06], [1.88, 1.29], [1.55, 1.06], [3.06, 3.14],
            ...                    [1.30, 1.29]])  # Hamilton depression scale, two visits
            >>> res = signrank(scores, systems=["before", "after"])
            >>> print(res.method[0, 0], res.statistic[0, 0], round(res.pvalue[0, 0], 4))
            exact 5.0 0.0391
            >>> print(round(res.shift[0, 0], 3), round(res.ci_low[0, 0], 3),
            ...       round(res.ci_high[0, 0], 3))
            -0.46 -0.786 -0.01""",
            "design": """
            >>> import numpy as np
            >>> from pairedstats import signrank_design
            >>> from pairedstats.inputs import design_from_array
            >>> a = np.array([2, 4, 1, 3, 5, 6, 2, 8, 4, 1])  # grades
            >>> b = np.array([5, 4, 6, 7, 9, 5, 2, 9, 8, 3])
            >>> res = signrank_design(design_from_array(np.column_stack([a, b])))
            >>> int(res.n_zeros[0, 0]), float(res.statistic[0, 0]), str(res.method[0, 0])
            (2, 34.5, 'asymptotic')""",
            "frame": """
            >>> import pairedstats
            >>> df = pairedstats.datasets.load_runs()
            >>> res = df.paired.signrank(item="query", system="run", score="ndcg",
            ...                          baseline="bm25")
            >>> list(res.columns[:2])
            ['system_a', 'system_b']""",
            "dataset": """
            >>> import numpy as np, xarray as xr
            >>> import pairedstats
            >>> scores = np.random.default_rng(4).random((2, 30, 3))
            >>> ds = xr.Dataset({"f1": (("fold", "item", "system"), scores)},
            ...                 coords={"fold": [0, 1], "system": ["x", "y", "z"]})
            >>> res = ds.paired.signrank(baseline="x")
            >>> dict(res["pvalue"].sizes)
            {'fold': 2, 'comparison': 2}""",
        },
    )
)
signrank = array_function(SPEC, __name__)
signrank_design = design_function(SPEC, __name__)
