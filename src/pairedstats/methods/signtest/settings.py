"""The sign test's keywords (:class:`Options`), checked into the frozen settings of one call
(:func:`check`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from ... import _validation
from ...core.design import PairedDesign
from ...core.design import comparison_pairs as _comparison_pairs
from ...core.inference import ALTERNATIVES
from ...inputs import check_design
from .._shared.keywords import Alternative, Baseline, ConfidenceLevel, PValueAdjust
from .._shared.options import About, Checked, OptionsRecord

__all__ = ["Options", "Settings", "check"]


@dataclass(frozen=True, kw_only=True)
class Options(OptionsRecord):
    """The sign test's keywords, in signature order (the registry reads them)."""

    baseline: Annotated[
        Baseline,
        About(
            "Compare every other system with this one (a = baseline); default: all pairs, a "
            "before b in system order."
        ),
    ] = None
    alternative: Annotated[
        Alternative,
        About(
            'About b - a: ``"greater"`` means b wins more often than it loses (a win rate '
            "above 1/2). A one-sided alternative gives the one-sided interval, as "
            "scipy's ``binomtest(...).proportion_ci``."
        ),
    ] = "two-sided"
    confidence_level: Annotated[
        ConfidenceLevel, About("Level of the Clopper-Pearson interval of the win rate.")
    ] = 0.95
    adjust: Annotated[
        PValueAdjust,
        About(
            "Adjust the p-values over the comparisons of each group (``pvalue_adjusted``): "
            'Holm, Bonferroni (family-wise error rate), ``"fdr_bh"`` (Benjamini-Hochberg) '
            'or ``"fdr_by"`` (Benjamini-Yekutieli), false discovery rate. Default: none.'
        ),
    ] = None


@dataclass(frozen=True, kw_only=True)
class Settings(Options, Checked):
    """What a sign-test run reads: the keywords, checked, and what they give.

    Attributes
    ----------
    design : PairedDesign
        The scores (one score column), checked.
    pairs : tuple of (int, int)
        The comparisons ``(a, b)``, system indices, b - a.
    """

    method_name = "signtest"
    design: PairedDesign
    pairs: tuple[tuple[int, int], ...]


def check(design, options: Options, *, keep: bool) -> Settings:
    """The keywords of :func:`signtest` and :func:`signtest_design` and the design (one score
    column), checked; every message names the keyword, the rule and the value received.
    ``keep`` is accepted as every method's check accepts it: the result keeps nothing more."""
    design = check_design(design)
    if design.scores.shape[2] != 1:
        raise ValueError(
            "`score` must name one score column for signtest; got "
            f"{design.scores.shape[2]} columns {tuple(design.columns)!r}."
        )
    baseline = _validation.check_baseline(options.baseline, design.systems)
    return Settings.of(
        options,
        baseline=baseline,
        alternative=_validation.check_choice(options.alternative, "alternative", ALTERNATIVES),
        confidence_level=_validation.check_confidence_level(options.confidence_level),
        adjust=_validation.check_pvalue_adjust(options.adjust),
        design=design,
        pairs=tuple(_comparison_pairs(design.systems, baseline)),
    )
