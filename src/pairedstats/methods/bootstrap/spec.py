"""The bootstrap's declaration: its keywords, its documentation and the functions built from
them (:func:`bootstrap` on arrays, :func:`bootstrap_design` on a design; the accessors and
the ``pairedstats bootstrap`` command follow from :data:`SPEC`).

Paired bootstrap confidence intervals of b minus a: the keywords are validated by
:func:`~pairedstats.methods.bootstrap.settings.check` and the groups bootstrapped by
:func:`~pairedstats.methods.bootstrap.run.run`.
"""

from __future__ import annotations

from ...core.design import PairedDesign
from ...inputs import design_from_array
from .._shared.registry import (
    PROGRESS,
    RNG,
    WORKERS,
    Keyword,
    MethodSpec,
    alternative_keyword,
    array_function,
    baseline_keyword,
    confidence_level_keyword,
    design_function,
    n_resamples_keyword,
    register,
)
from .run import run
from .settings import ADJUSTMENTS, METHODS, check

__all__ = ["SPEC", "bootstrap", "bootstrap_design"]


def _read(scores, *, systems, cluster, strata, replicate, missing) -> PairedDesign:
    """The design of a call on an array (:func:`pairedstats.inputs.design_from_array`)."""
    return design_from_array(
        scores, systems=systems, cluster=cluster, strata=strata, replicate=replicate,
        missing=missing,
    )  # fmt: skip


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
        keywords=(
            baseline_keyword(
                "Compare every other system with this one (a = baseline); default: all "
                "pairs, a before b in system order."
            ),
            Keyword(
                "weights",
                None,
                "mapping, optional",
                "``{stratum label: population weight}``, normalised to sum to 1. Default: "
                "the sample proportions (the combination is then the plain item mean). A "
                "group without items in some weighted strata combines the strata it has, "
                "their weights renormalised to sum to 1, and a MissingStratumWarning names "
                "the group and the strata: a warning, not an error, so that one such group "
                "does not stop a sweep over many, but that group's estimate is not the "
                "population mean the weights describe.",
            ),
            Keyword(
                "statistic",
                None,
                "callable, optional",
                "A metric that is not a mean over items, scipy-style. If it has an ``axis`` "
                "parameter (or ``**kwargs``), ``statistic(*columns, axis=-1)`` receives one "
                "system's score columns for a batch of resamples, the resamples along the "
                "first axes, and must return one value per resample: an array of the "
                "columns' shape without the last axis (checked; a ValueError says what was "
                "expected and what was received). Without ``axis`` (as scipy's "
                "``vectorized=False``) it is called once per resample and system on 1-D "
                "columns and must return a number; that costs one Python call each, 10-20 "
                "microseconds for a few numpy sums: 10,000 resamples of 1,000 items and two "
                "systems took 0.4 s instead of 0.2 s for a mean, 0.9 s instead of 0.55 s for "
                "pooled F1. Recomputed on every resample; the difference is "
                "``statistic(b) - statistic(a)``.",
            ),
            n_resamples_keyword(
                "At least 2 and at most 10**7: the replicates are held in memory to take "
                "their quantiles, 80 MB per comparison and group at the maximum, whose Monte "
                "Carlo error is already far below any digit reported."
            ),
            confidence_level_keyword("The level of the intervals."),
            Keyword(
                "method",
                "percentile",
                '{"percentile", "basic", "bca", "studentized"}, default "percentile"',
                "Percentile interval (numpy's linear quantile rule), basic (reverse "
                "percentile), bias-corrected and accelerated (jackknife acceleration over "
                "the resampled units, weighted per stratum; a replicate within the precision "
                "of the scores as given of the estimate is a tie), or studentized "
                "(bootstrap-t: the quantiles of ``(replicate - estimate) / its standard "
                "error``, each resample's standard error analytic for the mean, the ratio of "
                "clusters and strata, a jackknife of the resample with ``statistic``, which "
                "costs about ``0.63 * n_units`` evaluations of it per resample).",
                option=dict(
                    type=str.lower, choices=METHODS, help="the interval (default: percentile)"
                ),
            ),
            alternative_keyword(
                'About b - a, with scipy\'s semantics: ``"greater"`` gives the interval '
                '``(low, inf)`` and ``"less"`` ``(-inf, high)``, whose finite end is that of '
                "the two-sided interval at level ``2 * confidence_level - 1``, and the "
                "one-sided p-value (``pvalue``)."
            ),
            Keyword(
                "adjust",
                None,
                '{None, "holm", "bonferroni", "max-t", "fdr_bh", "fdr_by"}, default None',
                "Control over the comparisons of a group (the family), adding "
                "``pvalue_adjusted``: Holm's step-down or Bonferroni's family-wise error "
                "control of ``pvalue``, Benjamini-Hochberg's false discovery rate "
                '(``"fdr_bh"``; ``"fdr_by"``, Benjamini-Yekutieli\'s, under any dependence), '
                'or ``"max-t"``: the joint bootstrap distribution of the '
                "comparisons' studentized deviations, whose maximum gives simultaneous "
                "intervals (single step) and step-down p-values (Westfall and Young 1993; "
                'Romano and Wolf 2005). ``"max-t"`` and ``"bonferroni"`` also add the '
                "simultaneous intervals ``ci_low_adjusted, ci_high_adjusted`` (Bonferroni's: "
                "the interval of ``method`` at level ``1 - (1 - confidence_level) / k``). "
                "With ``adjust``, :meth:`BootstrapResult.significant` decides by "
                "``pvalue_adjusted``. max-t's step-down p-values can reject where its "
                "single-step interval still holds 0.",
                option=dict(
                    type=str.lower,
                    choices=ADJUSTMENTS,
                    help="adjust for the comparisons of a group (default: none, unadjusted)",
                ),
            ),
            Keyword(
                "resampling",
                "auto",
                '{"auto", "index", "counts"}, default "auto"',
                'How resamples are drawn. "auto" and "index" draw unit indices, shared by '
                "all comparisons of a group: exact, jointly resampled, and a comparison's "
                'numbers do not depend on the other systems in the call. "counts" (the mean '
                "only) draws, per comparison, the multinomial counts of its distinct "
                "per-unit values: exact for each comparison and much faster with few "
                "distinct values (0/1 scores, grades), but marginal: comparisons are not "
                "jointly resampled, so ``bootstrap_distribution`` is None when there are two "
                "or more comparisons. Each comparison is drawn in an orientation fixed by "
                "its two system labels, so swapping a and b negates its replicates exactly.",
            ),
            RNG,
            PROGRESS,
            WORKERS,
        ),
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
    )
)
bootstrap = array_function(SPEC, _read, __name__)
bootstrap_design = design_function(SPEC, __name__)
