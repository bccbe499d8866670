"""The rank-sum test's declaration: its keywords, documentation and examples (:data:`SPEC`),
and the public functions built from it, :func:`ranksum` (two arrays) and
:func:`ranksum_design` (every group of a two-sample design)."""

from __future__ import annotations

from .._shared.registry import MethodSpec, array_function, design_function, register
from .run import run
from .settings import Options, check

__all__ = ["SPEC", "ranksum", "ranksum_design"]


SPEC = register(
    MethodSpec(
        name="ranksum",
        command="ranksum",
        summary="Wilcoxon rank-sum (Mann-Whitney) test of two samples, with the "
        "Hodges-Lehmann shift.",
        description="""
        The ranks ascend (midranks for ties); ``u_a = rank_sum_a - n_a (n_a + 1) / 2``; the
        shift is the median of all differences ``b_j - a_i`` (Hodges-Lehmann), with its
        distribution-free confidence interval; ``z > 0`` when b tends to exceed a.""",
        road="two-sample",
        inputs={
            "frame": ("score", "group", "a", "b", "by"),
            "dataset": ("score", "group", "a", "b", "item"),
            "array": ("a", "b"),
        },
        options=Options,
        check=check,
        run=run,
        returns="""
        RanksumResult
            One row per group: ``group_a, group_b, n_a, n_b, rank_sum_a, u_a, z, pvalue,
            shift, ci_low, ci_high`` and more (see the result's attributes).""",
        warns="""
        RanksumConfidenceWarning
            When ``confidence_level`` cannot be reached on the exact path with so few
            values: once per call, naming how many groups and the first.""",
        notes="""
        The interval is made of order statistics of the ``n_a n_b`` differences
        ``b_j - a_i`` (never formed: they are selected in ``O((n_a + n_b) log(n_a + n_b))``).
        On the exact path the ranks are R's exact critical values (``qwilcox``); on the
        asymptotic path they are the differences where R's normal score crosses its
        quantile, so the intervals of R's ``wilcox.test(b, a, conf.int=TRUE)`` are
        reproduced (R finds the asymptotic ends with ``uniroot`` to within 1e-4; ours are
        the exact differences). The shift is always the median of the differences; on its
        asymptotic path R reports instead a root of the normal statistic, which can differ
        by up to half a gap between the middle differences.""",
        examples={
            "array": """
            >>> import numpy as np
            >>> from pairedstats import ranksum
            >>> a = np.array([1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30])
            >>> b = np.array([0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29])
            >>> res = ranksum(a, b)
            >>> print(res.method[0, 0], res.u_a[0, 0], round(res.pvalue[0, 0], 4))
            exact-conditional 58.0 0.1299
            >>> print(round(res.shift[0, 0], 3), round(res.ci_low[0, 0], 3),
            ...       round(res.ci_high[0, 0], 3))
            -0.56 -1.183 0.37""",
            "design": """
            >>> import numpy as np
            >>> from pairedstats import ranksum_design
            >>> from pairedstats import TwoSampleDesign
            >>> design = TwoSampleDesign(
            ...     a=np.array([1.0, 2.0, 3.0, 4.0, 10.0, 11.0, 12.0]),
            ...     b=np.array([5.0, 6.0, 7.0, 13.0, 14.0, 15.0, 16.0]),
            ...     a_offsets=np.array([0, 4, 7]), b_offsets=np.array([0, 3, 7]),
            ...     labels=("before", "after"), group_names=("site",),
            ...     group_keys=(("x",), ("y",)))
            >>> res = ranksum_design(design, confidence_level=0.9)
            >>> res.to_dataframe()[["site", "group_a", "u_a", "shift", "pvalue"]].round(4)
              site group_a  u_a  shift  pvalue
            0    x  before  0.0    3.5  0.0571
            1    y  before  0.0    3.5  0.0571""",
            "frame": """
            >>> import pairedstats
            >>> df = pairedstats.datasets.load_ratings()
            >>> res = df.paired.ranksum(score="deviation", group="changed",
            ...                         a="unchanged", b="changed")
            >>> list(res.columns[:2])
            ['group_a', 'group_b']""",
            "dataset": """
            >>> import numpy as np, xarray as xr
            >>> import pairedstats
            >>> ds = xr.Dataset({"x": (("site", "group", "item"),
            ...                        np.arange(24.0).reshape(2, 2, 6) ** 1.1)},
            ...                 coords={"site": ["p", "q"], "group": ["a", "b"]})
            >>> res = ds.paired.ranksum(a="a", b="b")
            >>> res["u_a"].values.ravel().tolist()
            [0.0, 0.0]""",
        },
    )
)
ranksum = array_function(SPEC, __name__)
ranksum_design = design_function(SPEC, __name__)
