"""The signed-rank test's keywords (:class:`Options`), checked into the frozen settings of
one call (:func:`check`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from ... import _validation
from ...core.design import PairedDesign
from ...core.design import comparison_pairs as _comparison_pairs
from ...inputs import check_design
from .._shared.keywords import (
    RANK_TEST_METHODS,
    Baseline,
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
    """The signed-rank test's keywords, in signature order (the registry reads them)."""

    baseline: Annotated[
        Baseline,
        About(
            "Compare every other system with this one (a = baseline); default: all pairs, a "
            "before b in system order."
        ),
    ] = None
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
class Settings(Options, Checked):
    """What a signed-rank run reads: the keywords, checked, and what they give.

    Attributes
    ----------
    design : PairedDesign
        The scores (one score column), checked.
    pairs : tuple of (int, int)
        The comparisons ``(a, b)``, system indices, b - a
        (:func:`pairedstats.core.design.comparison_pairs`).
    """

    method_name = "signrank"
    design: PairedDesign
    pairs: tuple[tuple[int, int], ...]


def check(design, options: Options, *, keep: bool) -> Settings:
    """The keywords of :func:`signrank` and :func:`signrank_design` and the design, which
    must hold one score column, checked; every message names the keyword, the rule and the
    value received. ``keep`` is accepted as every method's check accepts it: the result
    holds nothing it would keep."""
    design = check_design(design)
    if design.scores.shape[2] != 1:
        raise ValueError(
            "`score` must name one score column for signrank; got "
            f"{design.scores.shape[2]} columns {tuple(design.columns)!r}."
        )
    baseline = _validation.check_baseline(options.baseline, design.systems)
    return Settings.of(
        options,
        **_validation.check_rank_test(options, RANK_TEST_METHODS),
        baseline=baseline,
        design=design,
        pairs=tuple(_comparison_pairs(design.systems, baseline)),
    )
