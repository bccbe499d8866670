"""The signed-rank test's keywords, validated into the frozen settings of one call
(:func:`check`)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from ... import _validation
from ...core.design import PairedDesign, comparison_pairs
from ...inputs import check_design
from .._shared.keywords import RANK_TEST_METHODS

__all__ = ["Settings", "check"]


@dataclass(frozen=True, kw_only=True)
class Settings(_validation.RankTestSettings):
    """What a signed-rank run reads: the design, its comparisons and the rank tests'
    keywords, checked (:class:`~pairedstats._validation.RankTestSettings`).

    Attributes
    ----------
    design : PairedDesign
        The scores (one score column), checked.
    baseline : label or None
        The system every other one is compared with, or None for all pairs.
    pairs : tuple of (int, int)
        The comparisons ``(a, b)``, system indices, b - a
        (:func:`pairedstats.core.design.comparison_pairs`).
    """

    design: PairedDesign
    baseline: Hashable | None
    pairs: tuple[tuple[int, int], ...]


def check(design, *, keep: bool, baseline, **keywords) -> Settings:
    """Validate the keywords of :func:`signrank` and :func:`signrank_design` (``baseline``,
    ``alternative``, ``confidence_level``, ``method``, ``correction``, ``progress``) and the
    design, which must hold one score column; every message names the keyword, the rule and
    the value received. ``keep`` is accepted as every method's check accepts it: the result
    holds nothing it would keep."""
    design = check_design(design)
    if design.scores.shape[2] != 1:
        raise ValueError(
            "`score` must name one score column for signrank; got "
            f"{design.scores.shape[2]} columns {tuple(design.columns)!r}."
        )
    baseline = _validation.check_baseline(baseline, design.systems)
    return Settings(
        design=design,
        baseline=baseline,
        pairs=tuple(comparison_pairs(design.systems, baseline)),
        **_validation.check_rank_test(methods=RANK_TEST_METHODS, **keywords),
    )
