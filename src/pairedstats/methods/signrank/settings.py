"""The signed-rank test's keywords (:class:`Options`), checked into the frozen settings of
one call (:func:`check`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from ... import _validation
from .._shared.compared import Compared, compared
from .._shared.keywords import (
    RANK_TEST_METHODS,
    Baseline,
    Correction,
    Margin,
    Progress,
    RankTestAlternative,
    RankTestMethod,
    ShiftConfidenceLevel,
)
from .._shared.margins import check_margin
from .._shared.options import About, OptionsRecord

__all__ = ["Options", "Settings", "check"]


@dataclass(frozen=True, kw_only=True)
class Options(OptionsRecord):
    """The signed-rank test's keywords, in signature order (the registry reads them)."""

    baseline: Baseline = None
    margin: Margin = None
    alternative: RankTestAlternative = "two-sided"
    confidence_level: ShiftConfidenceLevel = 0.95
    method: Annotated[
        RankTestMethod,
        About(
            '``"exact"``: the exact null of ``V`` (given the tied midranks when ``|b - a|`` '
            'has ties); ``"asymptotic"``: the normal approximation with the tie-corrected '
            'variance. ``"auto"`` follows R: exact with fewer than 50 non-zero differences '
            'and neither ties nor zeros, asymptotic otherwise. ``"exact"`` is refused beyond '
            "about 1,250 non-zero differences."
        ),
    ] = "auto"
    correction: Correction = True
    progress: Progress = False


@dataclass(frozen=True, kw_only=True)
class Settings(Options, Compared):
    """What a signed-rank run reads: the keywords, checked, the design and the comparisons
    (:class:`~pairedstats.methods._shared.compared.Compared`)."""

    method_name = "signrank"


def check(design, options: Options, *, keep: bool) -> Settings:
    """The keywords of :func:`signrank` and :func:`signrank_design` and the design, which
    must hold one score column, checked; every message names the keyword, the rule and the
    value received. ``keep`` is accepted as every method's check accepts it: the result
    holds nothing it would keep."""
    return Settings.of(
        options,
        **compared(design, options.baseline, "signrank"),
        margin=check_margin(options.margin),
        **_validation.check_rank_test(options, RANK_TEST_METHODS),
    )
