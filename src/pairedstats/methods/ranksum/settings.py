"""The rank-sum test's keywords (:class:`Options`), checked into the frozen settings of one
call (:func:`check`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from ... import _validation
from ...core.design import TwoSampleDesign
from ...inputs import check_two_sample
from .._shared.keywords import (
    RANK_TEST_METHODS,
    Correction,
    Progress,
    RankTestAlternative,
    RankTestMethod,
    ShiftConfidenceLevel,
)
from .._shared.options import About, Checked, OptionsRecord

__all__ = ["Options", "Settings", "check"]


@dataclass(frozen=True, kw_only=True)
class Options(OptionsRecord):
    """The rank-sum test's keywords, in signature order (the registry reads them)."""

    alternative: RankTestAlternative = "two-sided"
    confidence_level: ShiftConfidenceLevel = 0.95
    method: Annotated[
        RankTestMethod,
        About(
            '``"exact"``: the exact null without ties, the exact conditional null given the '
            'tied midranks with ties (as R\'s coin); ``"asymptotic"``: the normal '
            'approximation with the tie-corrected variance. ``"auto"`` uses the exact '
            "distribution whenever its cost (:func:`pairedstats.core.ranksum.exact_cost`) is "
            "at most ``AUTO_EXACT_BUDGET`` = 2e7 operations (no ties: up to about 90 x 90; "
            "with ties: about 60 x 60), the normal approximation otherwise."
        ),
    ] = "auto"
    correction: Correction = True
    progress: Progress = False


@dataclass(frozen=True, kw_only=True)
class Settings(Options, Checked):
    """What a rank-sum run reads: the keywords, checked, and the design.

    Attributes
    ----------
    design : TwoSampleDesign
        The two samples of each group, checked.
    """

    method_name = "ranksum"
    design: TwoSampleDesign


def check(design, options: Options, *, keep: bool) -> Settings:
    """The keywords of :func:`ranksum` and :func:`ranksum_design` and the design, checked;
    every message names the keyword, the rule and the value received. ``keep`` is accepted
    as every method's check accepts it: the result holds nothing it would keep."""
    checked = _validation.check_rank_test(options, RANK_TEST_METHODS)
    return Settings.of(options, **checked, design=check_two_sample(design))
