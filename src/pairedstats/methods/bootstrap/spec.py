"""The bootstrap's declaration: its keywords, its documentation and the functions built from
them (:func:`bootstrap` on arrays, :func:`bootstrap_design` on a design; the accessors and
the ``pairedstats bootstrap`` command follow from :data:`SPEC`).

Paired bootstrap confidence intervals of b minus a: the keywords are the fields of
:class:`~pairedstats.methods.bootstrap.settings.Options`, checked by
:func:`~pairedstats.methods.bootstrap.settings.check`; the groups are bootstrapped by
:func:`~pairedstats.methods.bootstrap.run.run`.
"""

from __future__ import annotations

from .._shared.registry import MethodSpec, array_function, design_function, register
from .run import run, summed
from .settings import Options, check

__all__ = ["SPEC", "bootstrap", "bootstrap_design"]


SPEC = register(
    MethodSpec(
        name="bootstrap",
        command="bootstrap",
        summary="Paired bootstrap confidence intervals of the differences b minus a.",
        description="""
        Each resample draws items (or whole clusters, within strata) with replacement once
        and applies the draw to every system, so what is resampled is the per-item
        difference.""",
        road="paired",
        inputs={
            "frame": (
                "item",
                "system",
                "score",
                "systems",
                "by",
                "cluster",
                "strata",
                "replicate",
                "missing",
            ),
            "dataset": (
                "item",
                "system",
                "score",
                "systems",
                "cluster",
                "strata",
                "replicate",
                "missing",
            ),
            "array": ("scores", "systems", "cluster", "strata", "replicate", "missing"),
        },
        options=Options,
        check=check,
        run=run,
        returns="""
        BootstrapResult
            Columns ``mean_a, mean_b, difference, ci_low, ci_high, standard_error, pvalue,
            n_items``, for the default mean ``effect_size, wins, ties, losses`` (+
            ``n_clusters``, ``n_dropped``) per comparison and group, and
            ``bootstrap_distribution`` of shape ``(n_groups, n_comparisons, n_resamples)``.""",
        warns="""
        PointDistributionWarning
            Every resample gives the same difference (e.g. all differences equal): the
            interval is that point and the standard error 0.
        SingleUnitWarning
            A group with one cluster, or a stratum with one unit: that unit's mean is the
            same in every resample and the interval ignores its variability.
        MissingStratumWarning
            A group has no items in strata that ``weights`` names (see ``weights``).
        NaNReplicatesWarning
            ``statistic`` returned NaN on some resamples (e.g. AUC on a resample with one
            class): those comparisons' intervals are NaN; the warning gives the count.
        DegenerateBootstrapWarning
            With ``method="bca"``: the estimate lies outside the replicates (the percentile
            interval is used) or the acceleration is undefined (``a = 0`` is used).

        Each kind is warned once per call, naming how many groups it concerns and one.""",
        examples={
            "array": """
            The tutorial's five cases (losses of A and B):

            >>> import numpy as np
            >>> from pairedstats import bootstrap
            >>> losses = np.array([[9, 4], [4, 9], [16, 9], [1, 4], [9, 1]])
            >>> res = bootstrap(losses, systems=["A", "B"], n_resamples=2000, rng=1)
            >>> float(res.difference[0, 0])
            -2.4
            >>> bool(res.ci_low[0, 0] < -2.4 < res.ci_high[0, 0])
            True""",
            "design": """
            >>> import numpy as np
            >>> from pairedstats import bootstrap_design
            >>> from pairedstats.inputs import design_from_array
            >>> d = design_from_array(np.array([[0.2, 0.5], [0.4, 0.4], [0.1, 0.6]]),
            ...                       systems=["a", "b"])
            >>> bootstrap_design(d, n_resamples=1000, rng=3).bootstrap_distribution.shape
            (1, 1, 1000)""",
            "frame": """
            >>> import pairedstats
            >>> df = pairedstats.datasets.load_runs()
            >>> res = df.paired.bootstrap(item="query", system="run", score="ndcg",
            ...                           baseline="bm25", n_resamples=2000, rng=1)
            >>> list(res.columns[:4])
            ['system_a', 'system_b', 'mean_a', 'mean_b']""",
            "dataset": """
            >>> import numpy as np, xarray as xr
            >>> import pairedstats
            >>> ds = xr.Dataset({"ndcg": (("seed", "item", "system"),
            ...                           np.random.default_rng(0).random((3, 20, 2)))},
            ...                 coords={"seed": [1, 2, 3], "system": ["a", "b"]})
            >>> res = ds.paired.bootstrap(n_resamples=500, rng=1)
            >>> dict(res["ci_low"].sizes)
            {'seed': 3, 'comparison': 1}""",
        },
        report_test="paired bootstrap",
        summed=summed,
    )
)
bootstrap = array_function(SPEC, __name__)
bootstrap_design = design_function(SPEC, __name__)
