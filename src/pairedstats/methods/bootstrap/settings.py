"""The bootstrap's keywords, validated into the frozen settings of one call.

:func:`check` is the one place where the bootstrap's keywords are checked; the run
(:mod:`pairedstats.methods.bootstrap.run`) reads only the :class:`Settings` it returns.
"""

from __future__ import annotations

import inspect
import numbers
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass

import numpy as np

from ... import _validation
from ...core import bootstrap as _core
from ...core.design import PairedDesign
from ...core.inference import ALTERNATIVES
from ...inputs import check_design

__all__ = ["ADJUSTMENTS", "METHODS", "RESAMPLING", "Settings", "check"]

METHODS = ("percentile", "basic", "bca", "studentized")
RESAMPLING = ("auto", "index", "counts")
ADJUSTMENTS = ("holm", "bonferroni", "max-t", "fdr_bh", "fdr_by")


def _check_weights(weights, design: PairedDesign, statistic) -> dict | None:
    if weights is None:
        return None
    if design.strata is None:
        raise ValueError("`weights` needs `strata`: population weights are given per stratum.")
    if statistic is not None:
        raise ValueError(
            "`weights` apply to the default mean only; with `statistic` the metric is "
            "computed on the items of each resample. Drop `weights` or `statistic`."
        )
    if not isinstance(weights, Mapping):
        raise TypeError(
            "`weights` must be a mapping {stratum label: population weight}; "
            f"got {type(weights).__name__}."
        )
    labels = list(design.strata_labels)
    unknown = [k for k in weights if k not in labels]
    if unknown:
        raise ValueError(f"`weights`: no stratum named {unknown!r}; the strata are {labels!r}.")
    present = sorted({int(c) for c in np.unique(design.strata)})
    missing = [labels[c] for c in present if labels[c] not in weights]
    if missing:
        raise ValueError(f"`weights` must give a weight for every stratum; missing {missing!r}.")
    out = {}
    for code, label in enumerate(labels):
        if label not in weights:
            continue
        w = weights[label]
        if isinstance(w, (bool, np.bool_)) or not isinstance(w, numbers.Real):
            raise TypeError(f"`weights`: the weight of {label!r} must be a number; got {w!r}.")
        if not np.isfinite(w) or w <= 0:
            raise ValueError(
                f"`weights`: the weight of {label!r} must be finite and positive; got {w}."
            )
        out[code] = float(w)
    return out


def check(
    design: PairedDesign, *, keep, baseline, weights, statistic, n_resamples, confidence_level,
    method, alternative, adjust, resampling, rng, progress, workers,
) -> Settings:  # fmt: skip
    """Validate every keyword into the call's settings (the spec's ``check``).

    Each refusal names the keyword, the rule and the value received. ``keep`` keeps the
    replicates in the result (``bootstrap_distribution``).
    """
    design = check_design(design, replicates=True)
    statistic = _check_statistic(statistic)
    if statistic is None and design.scores.shape[2] != 1:
        raise ValueError(
            "several score columns need `statistic` (a callable taking one array per "
            f"column); got {design.scores.shape[2]} columns {tuple(design.columns)!r}."
        )
    _validation.check_baseline(baseline, design.systems)
    weights = _check_weights(weights, design, statistic)
    n_resamples = _validation.check_n_resamples(
        n_resamples, maximum=_validation.MAX_BOOTSTRAP_RESAMPLES
    )
    if n_resamples < 2:
        raise ValueError(
            f"`n_resamples` must be at least 2 to estimate a standard error; got {n_resamples}."
        )
    confidence_level = _validation.check_confidence_level(confidence_level)
    method = _validation.check_choice(method, "method", METHODS)
    alternative = _validation.check_choice(alternative, "alternative", ALTERNATIVES)
    resampling = _validation.check_choice(resampling, "resampling", RESAMPLING)
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
    _check_nesting(design)
    _check_replicates(design, statistic, method, resampling)
    adjust = _check_adjust(adjust, design, baseline, resampling)
    return Settings(
        design=design, baseline=baseline, weights=weights, statistic=statistic,
        n_resamples=n_resamples, confidence_level=confidence_level, method=method,
        alternative=alternative, adjust=adjust, resampling=resampling,
        root=_validation.normalise_rng(rng), workers=_validation.check_workers(workers),
        progress=_validation.check_progress(progress), keep=bool(keep),
    )  # fmt: skip


@dataclass(frozen=True, kw_only=True)
class Settings:
    """A call's validated keywords (:func:`check`).

    Attributes
    ----------
    design : PairedDesign
        The data (checked: one score column unless ``statistic``, clusters nested in strata).
    baseline : hashable or None
        The system every other is compared with; None for all pairs.
    weights : dict or None
        The population weight of each stratum, by stratum code; None for the sample
        proportions.
    statistic : callable or None
        The statistic in vectorized form (``statistic(*columns, axis=-1)``); None for the
        mean.
    n_resamples : int
    confidence_level : float
    method : {"percentile", "basic", "bca", "studentized"}
    alternative : {"two-sided", "less", "greater"}
    adjust : {"holm", "bonferroni", "max-t", "fdr_bh", "fdr_by"} or None
    resampling : {"auto", "index", "counts"}
    root : int
        The root entropy of the random streams, from ``rng``.
    workers : int or None
        Threads (None: the default of :func:`pairedstats.core.parallel.default_workers`).
    progress : bool
        Whether to show a progress bar.
    keep : bool
        Whether the result keeps the replicates (``bootstrap_distribution``).
    """

    design: PairedDesign
    baseline: Hashable | None
    weights: dict | None
    statistic: Callable | None
    n_resamples: int
    confidence_level: float
    method: str
    alternative: str
    adjust: str | None
    resampling: str
    root: int
    workers: int | None
    progress: bool
    keep: bool


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
