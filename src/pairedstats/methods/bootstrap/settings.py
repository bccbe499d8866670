"""The bootstrap's keywords (:class:`Options`), checked into the frozen settings of one call.

:func:`check` is the one place where the bootstrap's keywords are checked; the run
(:mod:`pairedstats.methods.bootstrap.run`) reads only the :class:`Settings` it returns.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal

import numpy as np

from ... import _validation
from ...core import bootstrap as _core
from ...core.design import PairedDesign
from ...core.inference import ALTERNATIVES
from ...core.summed import SummedDesign
from ...inputs import check_design, check_summed
from .._shared.keywords import (
    Alternative,
    Baseline,
    ConfidenceLevel,
    Margin,
    NResamples,
    Progress,
    Rng,
    StratumWeights,
    Stream,
    Workers,
)
from .._shared.margins import check_margin
from .._shared.options import About, Checked, OptionsRecord

__all__ = ["ADJUSTMENTS", "METHODS", "RESAMPLING", "Options", "Settings", "check"]

#: The choices of ``method``, ``resampling`` and ``adjust`` (their types, and the tuples the
#: check reads).
Method = Literal["percentile", "basic", "bca", "studentized"]
Resampling = Literal["auto", "index", "counts"]
Adjustment = Literal["holm", "bonferroni", "max-t", "fdr_bh", "fdr_by"]
METHODS, RESAMPLING, ADJUSTMENTS = (typing.get_args(c) for c in (Method, Resampling, Adjustment))


@dataclass(frozen=True, kw_only=True)
class Options(OptionsRecord):
    """The bootstrap's keywords, in signature order (the registry reads them)."""

    baseline: Baseline = None
    weights: Annotated[
        StratumWeights,
        About(
            "``{stratum label: population weight}``, normalised to sum to 1. Default: the "
            "sample proportions (the combination is then the plain item mean). A group "
            "without items in some weighted strata combines the strata it has, their weights "
            "renormalised to sum to 1, and a MissingStratumWarning names the group and the "
            "strata: a warning, not an error, so that one such group does not stop a sweep "
            "over many, but that group's estimate is not the population mean the weights "
            "describe."
        ),
    ] = None
    statistic: Annotated[
        Callable[..., Any] | None,
        About(
            "A metric that is not a mean over items, scipy-style. If it has an ``axis`` "
            "parameter (or ``**kwargs``), ``statistic(*columns, axis=-1)`` receives one "
            "system's score columns for a batch of resamples, the resamples along the first "
            "axes, and must return one value per resample: an array of the columns' shape "
            "without the last axis (checked; a ValueError says what was expected and what "
            "was received). Without ``axis`` (as scipy's ``vectorized=False``) it is called "
            "once per resample and system on 1-D columns and must return a number; that costs "
            "one Python call each, 10-20 microseconds for a few numpy sums: 10,000 resamples "
            "of 1,000 items and two systems took 0.4 s instead of 0.2 s for a mean, 0.9 s "
            "instead of 0.55 s for pooled F1. Recomputed on every resample; the difference is "
            "``statistic(b) - statistic(a)``.",
            role="columns",
        ),
    ] = None
    n_resamples: Annotated[
        NResamples,
        About(
            "At least 2 and at most 10**7: the replicates are held in memory to take their "
            "quantiles, 80 MB per comparison and group at the maximum, whose Monte Carlo "
            "error is already far below any digit reported."
        ),
    ] = 10_000
    confidence_level: Annotated[ConfidenceLevel, About("The level of the intervals.")] = 0.95
    method: Annotated[
        Method,
        About(
            "Percentile interval (numpy's linear quantile rule), basic (reverse percentile), "
            "bias-corrected and accelerated (jackknife acceleration over the resampled units, "
            "weighted per stratum; a replicate within the precision of the scores as given of "
            "the estimate is a tie), or studentized (bootstrap-t: the quantiles of "
            "``(replicate - estimate) / its standard error``, each resample's standard error "
            "analytic for the mean, the ratio of clusters and strata, a jackknife of the "
            "resample with ``statistic``, which costs about ``0.63 * n_units`` evaluations "
            "of it per resample).",
            option=dict(help="the interval"),
        ),
    ] = "percentile"
    alternative: Annotated[
        Alternative,
        About(
            'About b - a, with scipy\'s semantics: ``"greater"`` gives the interval '
            '``(low, inf)`` and ``"less"`` ``(-inf, high)``, whose finite end is that of the '
            "two-sided interval at level ``2 * confidence_level - 1``, and the one-sided "
            "p-value (``pvalue``)."
        ),
    ] = "two-sided"
    adjust: Annotated[
        Adjustment | None,
        About(
            "Control over the comparisons of a group (the family), adding "
            "``pvalue_adjusted``: Holm's step-down or Bonferroni's family-wise error control "
            'of ``pvalue``, Benjamini-Hochberg\'s false discovery rate (``"fdr_bh"``; '
            '``"fdr_by"``, Benjamini-Yekutieli\'s, under any dependence), or ``"max-t"``: '
            "the joint bootstrap distribution of the comparisons' studentized deviations, "
            "whose maximum gives simultaneous intervals (single step) and step-down p-values "
            '(Westfall and Young 1993; Romano and Wolf 2005). ``"max-t"`` and '
            '``"bonferroni"`` also add the simultaneous intervals ``ci_low_adjusted, '
            "ci_high_adjusted`` (Bonferroni's: the interval of ``method`` at level ``1 - (1 "
            "- confidence_level) / k``). With ``adjust``, :meth:`BootstrapResult.significant` "
            "decides by ``pvalue_adjusted``. max-t's step-down p-values can reject where its "
            "single-step interval still holds 0.",
            option=dict(help="adjust for the comparisons of a group (default: none, unadjusted)"),
        ),
    ] = None
    margin: Margin = None
    resampling: Annotated[
        Resampling,
        About(
            'How resamples are drawn. "auto" and "index" draw unit indices, shared by all '
            "comparisons of a group: exact, jointly resampled, and a comparison's numbers do "
            'not depend on the other systems in the call. "counts" (the mean only) draws, per '
            "comparison, the multinomial counts of its distinct per-unit values: exact for "
            "each comparison and much faster with few distinct values (0/1 scores, grades), "
            "but marginal: comparisons are not jointly resampled, so "
            "``bootstrap_distribution`` is None when there are two or more comparisons. Each "
            "comparison is drawn in an orientation fixed by its two system labels, so "
            "swapping a and b negates its replicates exactly."
        ),
    ] = "auto"
    stream: Annotated[
        Stream,
        About(
            "The Poisson bootstrap of sums, the streaming road of tables larger than memory "
            "(:doc:`/dask`): ``True`` weights each item in each resample by an independent "
            "Poisson(1) count keyed by ``rng``, the group and the item's label (Hanley and "
            "MacGibbon 2006; Chamandy et al. 2012), and each resample's mean is the weighted "
            "mean; the numbers then do not depend on how the rows are cut (the partitions of a "
            "dask DataFrame, read in any order, give those of the same table in memory), and "
            "memory is of the order of ``n_resamples`` x systems. It takes the mean of one "
            "score column, without ``cluster``, ``strata``, ``replicate`` or ``weights``, "
            'the ``"percentile"`` or ``"basic"`` interval and ``resampling="auto"``. '
            "``False``: the multinomial bootstrap of ``resampling``. Default: ``False`` on "
            "tables in memory; on a dask DataFrame, ``True`` when the largest group's rows do "
            "not fit the workers' memory budget."
        ),
    ] = None
    rng: Rng = None
    progress: Progress = False
    workers: Workers = None


@dataclass(frozen=True, kw_only=True)
class Settings(Options, Checked):
    """What a bootstrap run reads: the keywords, checked (:func:`check`), and what they give.

    The keywords keep their names: ``weights`` is the population weight of each stratum by
    label (floats, in the order of the strata), ``statistic`` the statistic in vectorized
    form (``statistic(*columns, axis=-1)``, its name kept), ``rng`` the root entropy of the
    random streams (an int), the choices in lower case.

    Attributes
    ----------
    design : PairedDesign or SummedDesign
        The data (checked: one score column unless ``statistic``, clusters nested in
        strata), or its sums (the streaming road of a dask DataFrame, ``stream`` True).
    stratum_weights : dict or None
        ``weights`` by stratum code (the core's table); None for the sample proportions.
    keep : bool
        Whether the result keeps the replicates (``bootstrap_distribution``).
    """

    method_name = "bootstrap"
    design: PairedDesign | SummedDesign
    stratum_weights: dict[int, float] | None
    keep: bool


def check(design: PairedDesign, options: Options, *, keep: bool) -> Settings:
    """The keywords of :func:`bootstrap` and :func:`bootstrap_design` and the design, checked
    (the spec's ``check``).

    Each refusal names the keyword, the rule and the value received. ``keep`` keeps the
    replicates in the result (``bootstrap_distribution``).
    """
    o = options
    summed = isinstance(design, SummedDesign)
    design = check_summed(design) if summed else check_design(design, replicates=True)
    statistic = _check_statistic(o.statistic)
    if statistic is None and not summed and design.scores.shape[2] != 1:
        raise ValueError(
            "several score columns need `statistic` (a callable taking one array per "
            f"column); got {design.scores.shape[2]} columns {tuple(design.columns)!r}."
        )
    _validation.check_baseline(o.baseline, design.systems)
    weights = _validation.check_weights(o.weights, design, statistic)
    n_resamples = _validation.check_n_resamples(
        o.n_resamples, maximum=_validation.MAX_BOOTSTRAP_RESAMPLES
    )
    if n_resamples < 2:
        raise ValueError(
            f"`n_resamples` must be at least 2 to estimate a standard error; got {n_resamples}."
        )
    confidence_level = _validation.check_confidence_level(o.confidence_level)
    method = _validation.check_choice(o.method, "method", METHODS)
    alternative = _validation.check_choice(o.alternative, "alternative", ALTERNATIVES)
    resampling = _validation.check_choice(o.resampling, "resampling", RESAMPLING)
    if resampling == "counts" and method == "studentized":
        raise ValueError(
            "`method='studentized'` needs each resample's standard error, which "
            "`resampling='counts'` does not compute; use resampling='index' (or 'auto')."
        )
    if resampling == "counts" and statistic is not None:
        raise ValueError(
            "`resampling='counts'` works for the mean only; with `statistic` use 'auto' or "
            "'index'."
        )
    stream = summed or (o.stream is not None and _validation.check_flag(o.stream, "stream"))
    if stream:
        _check_stream(design, statistic, weights, method, resampling)
    else:
        _check_nesting(design)
        _check_replicates(design, statistic, method, resampling)
    adjust = _check_adjust(o.adjust, design, o.baseline, resampling)
    return Settings.of(
        o, weights=weights, statistic=statistic, n_resamples=n_resamples,
        confidence_level=confidence_level, method=method, alternative=alternative,
        adjust=adjust, margin=_check_margin(o.margin, adjust), resampling=resampling,
        rng=_validation.normalise_rng(o.rng), workers=_validation.check_workers(o.workers),
        progress=_validation.check_progress(o.progress), design=design, stream=stream,
        stratum_weights=_stratum_weights(weights, design), keep=bool(keep),
    )  # fmt: skip


def _stratum_weights(weights: dict | None, design: PairedDesign) -> dict[int, float] | None:
    """The checked ``weights`` by stratum code (the core's table), or None."""
    if weights is None:
        return None
    return {code: weights[label] for code, label in enumerate(design.strata_labels)
            if label in weights}  # fmt: skip


def _check_statistic(statistic) -> Callable | None:
    """The statistic in vectorized form: as given if it takes ``axis`` (or ``**kwargs``),
    else wrapped to be called once per resample (:func:`pairedstats.core.bootstrap.per_resample`).
    """
    if statistic is None:
        return None
    if not callable(statistic):
        raise TypeError(f"`statistic` must be callable or None; got {statistic!r}.")
    try:
        params = inspect.signature(statistic).parameters.values()
    except (TypeError, ValueError) as exc:
        raise TypeError(
            f"`statistic`: cannot read the signature of {statistic!r} to tell whether it "
            "takes `axis`; wrap it in a function, `def f(*columns, axis=-1)` (vectorized) or "
            "`def f(*columns)` (called once per resample)."
        ) from exc
    if any(p.name == "axis" or p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        return statistic
    return _core.per_resample(statistic)


def _check_nesting(design: PairedDesign) -> None:
    """With both ``cluster`` and ``strata``, each cluster lies in one stratum."""
    if design.cluster is None or design.strata is None:
        return
    for g in range(design.n_groups):
        rows = design.group(g)
        pairs = np.unique(np.column_stack([design.cluster[rows], design.strata[rows]]), axis=0)
        if np.unique(pairs[:, 0]).size != pairs.shape[0]:
            bad = pairs[np.flatnonzero(np.diff(pairs[:, 0]) == 0)[0], 0]
            raise ValueError(
                "`cluster` must be nested in `strata`: cluster "
                f"{design.cluster_labels[int(bad)]!r} has items in several strata."
            )


def _check_replicates(design: PairedDesign, statistic, method: str, resampling: str) -> None:
    """What the crossed bootstrap of items and replicates (``replicate=``) supports."""
    if design.replicates is None:
        return
    if statistic is not None:
        raise ValueError(
            "`replicate`: items and replicates are resampled crossed for the mean over "
            "(item, replicate) cells; a `statistic` is not supported with it. Drop "
            "`statistic`, or average the replicates first."
        )
    if design.cluster is not None or design.strata is not None:
        raise ValueError(
            "`replicate` cannot be combined with `cluster` or `strata`: the crossed "
            "resampling of items and replicates has no clustered or stratified form here."
        )
    if method in ("bca", "studentized"):
        raise ValueError(
            f"`method={method!r}` is not available with `replicate`: BCa's acceleration and "
            "the bootstrap-t's standard error of each resample would need a jackknife or a "
            "variance formula of the crossed (items x replicates) design; use "
            "method='percentile' or 'basic'."
        )
    if resampling == "counts":
        raise ValueError(
            "`resampling='counts'` is not available with `replicate`: items and replicates "
            "are drawn as unit indices. Use resampling='auto' or 'index'."
        )


def _check_stream(design, statistic, weights, method: str, resampling: str) -> None:
    """What the Poisson bootstrap of sums (``stream=True``) supports: the mean of one score
    column, items resampled alone (:mod:`pairedstats.core.summed`), the percentile or basic
    interval."""
    given = [name for name, value in (("statistic", statistic), ("weights", weights),
             ("cluster", design.cluster), ("strata", design.strata),
             ("replicate", design.replicates), ("repeat", design.repeat))
             if value is not None]  # fmt: skip
    if given:
        raise ValueError(
            f"`stream=True` resamples items with Poisson weights for the mean of one score "
            f"column; `{given[0]}` is not supported on that road. Use stream=False (the "
            "in-memory bootstrap), or aggregate first."
        )
    if method in ("bca", "studentized"):
        raise ValueError(
            f"`method={method!r}` is not available with `stream=True`: "
            + ("BCa's acceleration needs each item's jackknife influence"
               if method == "bca" else "the bootstrap-t needs each resample's standard error")
            + ", which sums per system do not keep; use method='percentile' or 'basic', or "
            "stream=False."
        )  # fmt: skip
    if resampling != "auto":
        raise ValueError(
            f"`resampling={resampling!r}` does not apply with `stream=True`, which draws "
            "Poisson weights per item; leave resampling='auto'."
        )


def _check_margin(margin, adjust) -> float | None:
    """``margin`` checked (:func:`check_margin`); max-t's step-down p-values and
    simultaneous intervals are about 0, so it is refused with a margin."""
    margin = check_margin(margin)
    if margin is not None and adjust == "max-t":
        raise ValueError(
            "`margin` cannot be combined with `adjust='max-t'`: max-t's step-down p-values "
            "and simultaneous intervals test b - a = 0, not the margin's ends; use "
            "adjust='holm' (or 'bonferroni', 'fdr_bh', 'fdr_by') with margin="
            f"{margin!r}."
        )
    return margin


def _check_adjust(adjust, design: PairedDesign, baseline, resampling: str) -> str | None:
    """``adjust`` in lower case, or None; max-t needs the comparisons resampled jointly."""
    if adjust is None:
        return None
    adjust = _validation.check_choice(adjust, "adjust", ADJUSTMENTS)
    n_systems = len(design.systems)
    k = n_systems - 1 if baseline is not None else n_systems * (n_systems - 1) // 2
    if adjust == "max-t" and resampling == "counts" and k > 1:
        raise ValueError(
            "`adjust='max-t'` needs the joint distribution of the comparisons, which "
            "`resampling='counts'` does not draw (it resamples each comparison on its own); "
            "use resampling='index' (or 'auto'), or adjust='holm'."
        )
    return adjust
