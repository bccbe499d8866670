"""The bootstrap's warnings: degenerate designs and distributions, found in the groups of a
call and warned once per kind (:class:`Findings`)."""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from ...core import adjust as _adjust
from ...core import bootstrap as _core
from .._shared.findings import Findings as _Findings
from .._shared.findings import listing

__all__ = [
    "DegenerateBootstrapWarning",
    "Findings",
    "MissingStratumWarning",
    "NaNReplicatesWarning",
    "PointDistributionWarning",
    "ResolutionWarning",
    "SingleUnitWarning",
    "design_findings",
    "pass_fail",
    "resolution",
]


class DegenerateBootstrapWarning(RuntimeWarning):
    """The data leave the bootstrap something it cannot measure, or BCa used a fallback.

    The base class of the bootstrap's warnings; BCa's fallbacks (infinite bias correction:
    the percentile interval; undefined acceleration: ``a = 0``) are issued as this class.
    """


class PointDistributionWarning(DegenerateBootstrapWarning):
    """Every resample gives the same difference: the interval is a point (any ``method``)."""


class SingleUnitWarning(DegenerateBootstrapWarning):
    """A group or a stratum has one resampled unit (cluster, or item in a stratum).

    That unit is drawn in every resample, so its mean does not vary and the interval ignores
    its variability.
    """


class MissingStratumWarning(DegenerateBootstrapWarning):
    """A group has no items in a stratum that ``weights`` names."""


class NaNReplicatesWarning(DegenerateBootstrapWarning):
    """``statistic`` returned NaN on some resamples; those comparisons' intervals are NaN."""


class ResolutionWarning(UserWarning):
    """Too few resamples for ``adjust``: the family's smallest threshold (``alpha / m`` for
    Holm, Bonferroni and BH, ``alpha / (m c(m))`` for BY) is below the smallest add-one
    p-value of ``n_resamples`` resamples, so no comparison can be declared different
    (:func:`pairedstats.core.adjust.resamples_to_resolve`). The warning names the
    ``n_resamples`` needed and the adjustment that held its level best in the calibration
    study (:data:`RECOMMENDED`: ``method="studentized", adjust="holm"``)."""


#: The adjustment the calibration study (docs/calibration.md, many comparisons) found to hold
#: the family-wise error best over many comparisons, for the warning.
RECOMMENDED = (
    "method='studentized' with adjust='holm' (Holm on the bootstrap-t p-values) held the "
    "family-wise error best in the calibration study: 0.043 and 0.040 for 300 pairs of "
    "equal systems on 60 and 200 items, where max-t reached 0.107 and 0.064 and the "
    "percentile p-values' Holm 0.093 and 0.042"
)


class Findings(_Findings):
    """Degenerate designs and distributions found in the groups of a bootstrap call, each
    kind warned once (:class:`pairedstats.methods._shared.findings.Findings`)."""

    #: kind: (warning class, what is degenerate, what it means for the interval)
    KINDS: ClassVar[dict[str, tuple[type, str, str]]] = {
        "point": (
            PointDistributionWarning,
            "The bootstrap distribution is a single point",
            "Every resample gives the same difference (e.g. all differences equal), so the "
            "interval is that point and the standard error 0: the sample shows no variability "
            "for the bootstrap to measure, which does not mean the population has none.",
        ),
        "single": (
            SingleUnitWarning,
            "One resampled unit",
            "That unit is drawn in every resample, so its mean is the same in every resample "
            "and the interval ignores its variability (too narrow; a point if it is all the "
            "group has). Add units, merge the stratum with another, or drop `cluster` if its "
            "items are independent.",
        ),
        "missing": (
            MissingStratumWarning,
            "`weights` names strata with no items",
            "The estimate combines the strata present with their weights renormalised to sum "
            "to 1: it is not the population mean the weights describe, and its interval is "
            "not an interval for that mean.",
        ),
        "nan": (
            NaNReplicatesWarning,
            "`statistic` returned NaN on some resamples",
            "The interval and the standard error of those comparisons are NaN. Make "
            "`statistic` defined on every resample (e.g. an AUC needs both classes: "
            "stratify on the class with `strata` so that every resample has both).",
        ),
        "empty": (
            NaNReplicatesWarning,
            "Poisson resamples in which every item drew weight 0",
            "A system's mean is undefined in such a resample (the chance is exp(-n) per "
            "resample for n items), so the interval and the standard error of those "
            "comparisons are NaN: the Poisson bootstrap of `stream=True` is for many items; "
            "use stream=False.",
        ),
        "resolution": (
            ResolutionWarning,
            "Too few resamples for the adjustment",
            "No comparison of such a family can be declared different: a Monte Carlo p-value "
            "of 0 means below about 1 / n_resamples, so the adjustment uses the add-one "
            "p-values (Phipson and Smyth 2010), whose smallest cannot pass the threshold.",
        ),
        "bca_z0": (
            DegenerateBootstrapWarning,
            "BCa: the estimate lies outside the bootstrap distribution",
            "The bias correction is infinite; the percentile interval was used instead.",
        ),
        "bca_a": (
            DegenerateBootstrapWarning,
            "BCa: the jackknife influence values are all zero (or not finite)",
            "The acceleration is undefined and was taken as 0.",
        ),
    }


#: Where the bootstrap says no more on 0/1 scores: every resample the same (no discordant
#: item), or BCa's degenerate corrections (few discordant items).
PASS_FAIL_KINDS = ("point", "bca_z0", "bca_a")


def pass_fail(findings: Findings, mask: np.ndarray, kind: str) -> None:
    """When the comparisons ``mask`` (n_groups, k) found of ``kind`` and of 0/1 scores
    (:func:`~pairedstats.methods._shared.findings.binary_comparisons`) are not empty, the
    warning of ``kind`` points to McNemar's test."""
    if kind in PASS_FAIL_KINDS and mask.any():
        c = int(np.nonzero(mask)[1][0])
        findings.notes[kind] = (
            f"The scores of {findings.names[c]} are all 0 or 1 (pass/fail): "
            "df.paired.mcnemar(...) tests such a comparison exactly, and its Tango interval "
            "of the difference of the pass rates stays informative where the bootstrap's "
            "is a point."
        )


def design_findings(findings: Findings, g: int, group: _core.GroupData, weights) -> None:
    """Single units and weighted strata missing from group ``g``."""
    unit = "cluster" if group.clustered else "item"
    if group.stratified:
        sizes = zip(group.stratum_keys, group.strata_sizes, strict=True)
        alone = [f"stratum {key!r} has one {unit}" for key, size in sizes if size == 1]
        if alone:
            findings.add("single", g, listing(alone))
    elif group.clustered and group.n_units == 1:
        findings.add("single", g, "the group has one cluster")
    if weights is not None:
        labels = findings.design.strata_labels
        missing = [labels[c] for c in weights if labels[c] not in group.stratum_keys]
        if missing:
            findings.add("missing", g, f"no items in strata {missing!r}")


def resolution(findings: Findings, pvalues: np.ndarray, s) -> None:
    """The groups whose family (the comparisons with a p-value, ``pvalues`` n_groups x k)
    is too large for ``s.n_resamples`` to resolve the smallest threshold of ``s.adjust``
    (Holm, Bonferroni, BH, BY; :func:`pairedstats.core.adjust.resamples_to_resolve`)."""
    if s.adjust not in _adjust.PVALUE_METHODS:
        return
    sizes = (~np.isnan(pvalues)).sum(axis=-1)
    needed = {m: _adjust.resamples_to_resolve(int(m), s.confidence_level, s.adjust,
                                              s.alternative)
              for m in np.unique(sizes) if m > 0}  # fmt: skip
    short = [g for g, m in enumerate(sizes) if m > 0 and s.n_resamples < needed[m]]
    if not short:
        return
    alpha, two = 1 - s.confidence_level, s.alternative == "two-sided"
    for g in short:
        m = int(sizes[g])
        threshold = f"alpha / (m c(m)) = {alpha / (m * _adjust.by_factor(m)):.3g}" \
            if s.adjust == "fdr_by" else f"alpha / m = {alpha / m:.3g}"  # fmt: skip
        smallest = (2 if two else 1) / (s.n_resamples + 1)
        findings.add("resolution", g, (
            f"adjust={s.adjust!r} tests the {m} comparisons of a family at {threshold}, "
            f"below the smallest add-one p-value of {s.n_resamples} resamples, "
            f"{'2' if two else '1'} / (n_resamples + 1) = {smallest:.3g}"))  # fmt: skip
    most = max(needed[sizes[g]] for g in short)
    findings.notes["resolution"] = (
        f"Use n_resamples={most} at least (the threshold then passes when no resample "
        f"crosses 0; about ten times as many, {10 * most}, put ten resamples at it); "
        f"{RECOMMENDED} (docs/bootstrap.md, many comparisons)."
    )
