"""Friedman's keywords, validated into the frozen settings of one call (:func:`check`)."""

from __future__ import annotations

from dataclasses import dataclass

from ... import _validation
from ...core.design import PairedDesign
from ...inputs import check_design

__all__ = ["POSTHOCS", "Settings", "check"]

#: The post-hoc tests of all pairs (``posthoc``).
POSTHOCS = ("wilcoxon-holm", "nemenyi", "conover")


@dataclass(frozen=True, kw_only=True)
class Settings:
    """What a Friedman run reads.

    Attributes
    ----------
    design : PairedDesign
        The scores, one score column; each item is a data set.
    posthoc : {"wilcoxon-holm", "nemenyi", "conover"}
        The post-hoc test of all pairs.
    lower_is_better : bool
        Rank 1 to the lowest score.
    tie_correction : bool
        The Friedman chi-square divided by its tie factor.
    """

    design: PairedDesign
    posthoc: str
    lower_is_better: bool
    tie_correction: bool


def check(design, *, keep: bool, posthoc, lower_is_better, tie_correction) -> Settings:
    """Validate the keywords of :func:`friedman` and :func:`friedman_design` and the design
    (one score column; at least 2 systems and 2 data sets per group); every message names
    the keyword, the rule and the value received. ``lower_is_better`` may name the score
    column, as the ranking's. ``keep`` is accepted as every method's check accepts it: the
    result holds nothing it would keep."""
    design = check_design(design)
    if design.scores.shape[2] != 1:
        raise ValueError(
            "`score` must name one score column for friedman; got "
            f"{design.scores.shape[2]} columns {tuple(design.columns)!r}."
        )
    lower = _validation.check_lower_is_better(lower_is_better, list(design.columns))
    return Settings(
        design=design,
        posthoc=_validation.check_choice(posthoc, "posthoc", POSTHOCS),
        lower_is_better=bool(lower),
        tie_correction=_validation.check_flag(tie_correction, "tie_correction"),
    )
