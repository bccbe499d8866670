"""The sign test's keywords (:class:`Options`), checked into the frozen settings of one call
(:func:`check`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from ... import _validation
from ...core.inference import ALTERNATIVES
from .._shared.compared import Compared, compared
from .._shared.keywords import Alternative, Baseline, ConfidenceLevel, PValueAdjust
from .._shared.options import About, OptionsRecord

__all__ = ["Options", "Settings", "check"]


@dataclass(frozen=True, kw_only=True)
class Options(OptionsRecord):
    """The sign test's keywords, in signature order (the registry reads them)."""

    baseline: Baseline = None
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
class Settings(Options, Compared):
    """What a sign-test run reads: the keywords, checked, the design and the comparisons
    (:class:`~pairedstats.methods._shared.compared.Compared`)."""

    method_name = "signtest"


def check(design, options: Options, *, keep: bool) -> Settings:
    """The keywords of :func:`signtest` and :func:`signtest_design` and the design (one score
    column), checked; every message names the keyword, the rule and the value received.
    ``keep`` is accepted as every method's check accepts it: the result keeps nothing more."""
    return Settings.of(
        options,
        **compared(design, options.baseline, "signtest"),
        alternative=_validation.check_choice(options.alternative, "alternative", ALTERNATIVES),
        confidence_level=_validation.check_confidence_level(options.confidence_level),
        adjust=_validation.check_pvalue_adjust(options.adjust),
    )
