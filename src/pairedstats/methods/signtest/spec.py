"""The sign test's declaration: its documentation and examples (:data:`SPEC`, its keywords
are :class:`~.settings.Options`), and the public functions built from it, :func:`signtest`
(an items x systems array) and :func:`signtest_design` (every group of a paired design)."""

from __future__ import annotations

from .._shared.keywords import NO_REPLICATE, PAIRED_INPUTS
from .._shared.registry import MethodSpec, array_function, design_function, register
from .run import run
from .settings import Options, check

__all__ = ["SPEC", "signtest", "signtest_design"]


SPEC = register(
    MethodSpec(
        name="signtest",
        command="signtest",
        summary="Paired sign test of b - a, with the Clopper-Pearson interval of the win rate.",
        description="""
        Each item is a win for b (``b > a``), a loss (``b < a``) or a zero (equal by the
        package's tie rule: within the rounding error of the two scores, exactly for
        integers); zeros are dropped and counted (``n_zeros``). The wins are tested exactly
        against the binomial with probability 1/2 (scipy's ``binomtest``), and
        ``win_rate``, ``P(b > a | b != a)``, gets the Clopper-Pearson interval. Only the
        order of each pair of scores counts: ratings, ordinal scores and judge
        preferences are compared without assuming a scale.""",
        road="paired",
        inputs=PAIRED_INPUTS,
        options=Options,
        check=check,
        run=run,
        refuses={
            "replicate": (
                "the sign test counts each item's difference once, which leaves out the "
                "run-to-run (seed) variance of repeated runs. " + NO_REPLICATE
            )
        },
        returns="""
        SigntestResult
            One row per comparison and group: ``system_a, system_b, n_items, n_zeros, wins,
            losses, win_rate, ci_low, ci_high, pvalue`` and more (see the result's
            attributes).""",
        notes="""
        With ``n = wins + losses`` non-zero differences, the two-sided p-value is
        ``min(1, 2 min(P(X <= wins), P(X >= wins)))`` for ``X ~ Binomial(n, 1/2)``, which is
        scipy's ``binomtest`` for a symmetric null; the interval's ends are the beta
        quantiles of Clopper and Pearson (1934), at ``(1 - confidence_level) / 2`` each side
        (one-sided: ``1 - confidence_level``). The test ignores the sizes of the
        differences; the signed-rank test (``signrank``) uses them and has more power when
        they are meaningful.""",
        examples={
            "array": """
            >>> import numpy as np
            >>> from pairedstats import signtest
            >>> scores = np.array([[3, 4], [2, 4], [5, 5], [1, 3], [4, 3], [2, 5], [3, 5],
            ...                    [4, 5], [2, 2], [3, 4]])
            >>> res = signtest(scores, systems=["base", "tuned"])
            >>> res.wins[0, 0], res.losses[0, 0], res.n_zeros[0, 0]
            (np.int64(7), np.int64(1), np.int64(2))
            >>> round(res.pvalue[0, 0], 4), round(res.ci_low[0, 0], 3)
            (np.float64(0.0703), np.float64(0.473))""",
            "design": """
            >>> import numpy as np
            >>> from pairedstats import signtest_design
            >>> from pairedstats.inputs import design_from_array
            >>> design = design_from_array(
            ...     np.array([[1.0, 2.0], [2.0, 3.0], [3.0, 1.0], [1.0, 4.0]]),
            ...     systems=["a", "b"])
            >>> signtest_design(design).to_dataframe()[["wins", "losses", "pvalue"]]
               wins  losses  pvalue
            0     3       1   0.625""",
            "frame": """
            >>> import pairedstats
            >>> df = pairedstats.datasets.load_runs()
            >>> res = df.paired.signtest(item="query", system="run", score="ndcg",
            ...                          baseline="bm25")
            >>> list(res.columns[:4])
            ['system_a', 'system_b', 'n_items', 'n_zeros']""",
            "dataset": """
            >>> import numpy as np, xarray as xr
            >>> import pairedstats
            >>> ds = xr.Dataset({"score": (("seed", "item", "system"),
            ...                            np.arange(24.0).reshape(2, 4, 3) % 5)},
            ...                 coords={"seed": [0, 1], "system": ["x", "y", "z"]})
            >>> res = ds.paired.signtest(baseline="x")
            >>> res["wins"].values.tolist()  # seed x comparison (x-y, x-z)
            [[3, 2], [4, 3]]""",
        },
    )
)
signtest = array_function(SPEC, __name__)
signtest_design = design_function(SPEC, __name__)
