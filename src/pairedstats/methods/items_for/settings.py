"""The plan's keywords, validated into the frozen settings of one call (:func:`check`)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from ... import _validation
from ...core.design import PairedDesign, comparison_pairs
from ...core.inference import ALTERNATIVES
from ...core.power import check_level, check_plan
from ...core.power_mcnemar import MCNEMAR_METHODS
from ...inputs import check_design

__all__ = ["Settings", "check"]


@dataclass(frozen=True, kw_only=True)
class Settings:
    """What a plan reads: the design, its comparisons and the plan, checked.

    Attributes
    ----------
    design : PairedDesign
        The scores (one score column), checked.
    baseline : label or None
        The system every other one is compared with, or None for all pairs.
    pairs : tuple of (int, int)
        The comparisons ``(a, b)``, system indices, b - a.
    difference : float
        The difference b - a to detect (not 0; of the sign of a one-sided alternative).
    power, alpha : float
        ``alpha`` in (0, 1), ``power`` in (``alpha``, 1).
    alternative : {"two-sided", "less", "greater"}
    standard_deviation_level : float or None
        In (0, 1): plan with the upper confidence limit of the spread at this level; None:
        with the table's estimate.
    mcnemar_method : {"exact", "mid-p", "asymptotic"}
        The McNemar test the plans of 0/1 scores are for.
    """

    design: PairedDesign
    baseline: Hashable | None
    pairs: tuple[tuple[int, int], ...]
    difference: float
    power: float
    alpha: float
    alternative: str
    standard_deviation_level: float | None
    mcnemar_method: str = "exact"


def check(design, *, keep: bool, difference, baseline, power, alpha, alternative,
          mcnemar_method="exact",
          standard_deviation_level) -> Settings:  # fmt: skip
    """Validate the keywords of ``items_for`` (``difference``, ``baseline``, ``power``,
    ``alpha``, ``alternative``, ``mcnemar_method``, ``standard_deviation_level``) and the
    design, which must hold one score column; every message names the keyword, the rule and
    the value received. ``keep`` is accepted as every method's check accepts it: the result
    holds nothing it would keep."""
    design = check_design(design)
    if design.scores.shape[2] != 1:
        raise ValueError(
            "`score` must name one score column for items_for; got "
            f"{design.scores.shape[2]} columns {tuple(design.columns)!r}."
        )
    baseline = _validation.check_baseline(baseline, design.systems)
    alternative = _validation.check_choice(alternative, "alternative", ALTERNATIVES)
    difference, power, alpha = check_plan(difference, power=power, alpha=alpha,
                                          alternative=alternative)  # fmt: skip
    level = check_level(standard_deviation_level)
    mcnemar_method = _validation.check_choice(mcnemar_method, "mcnemar_method",
                                              MCNEMAR_METHODS)  # fmt: skip
    return Settings(
        design=design, baseline=baseline, pairs=tuple(comparison_pairs(design.systems, baseline)),
        difference=difference, power=power, alpha=alpha, alternative=alternative,
        standard_deviation_level=level, mcnemar_method=mcnemar_method,
    )  # fmt: skip
