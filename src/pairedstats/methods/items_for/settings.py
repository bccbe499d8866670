"""The plan's keywords (:class:`Options`), checked into the frozen settings of one call
(:func:`check`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from ... import _validation
from ...core.power import check_level, check_plan
from ...core.power_mcnemar import MCNEMAR_METHODS
from .._shared.compared import Compared, compared
from .._shared.keywords import Alternative, Baseline
from .._shared.options import About, OptionsRecord

__all__ = ["Options", "Settings", "check"]


@dataclass(frozen=True, kw_only=True)
class Options(OptionsRecord):
    """The plan's keywords, in signature order (the registry reads them); ``difference`` is
    required (given by position or by name)."""

    difference: Annotated[
        float,
        About(
            "The difference b - a worth detecting, in the scores' units (for 0/1 scores, a "
            "difference of pass rates): not 0, of the sign of a one-sided ``alternative``.",
            option=dict(type=float, metavar="DIFFERENCE", help="the difference b - a to detect"),
        ),
    ]
    baseline: Annotated[
        Baseline,
        About(
            "Plan every other system against this one (a = baseline); default: all pairs, a "
            "before b in system order."
        ),
    ] = None
    power: Annotated[
        float,
        About(
            "The probability of detecting ``difference``, in (``alpha``, 1).",
            option=dict(type=float, metavar="POWER", help="power to reach"),
        ),
    ] = 0.8
    alpha: Annotated[
        float,
        About(
            "The level of the planned test, in (0, 1).",
            option=dict(type=float, metavar="ALPHA", help="level of the test"),
        ),
    ] = 0.05
    alternative: Annotated[
        Alternative,
        About(
            'Of the planned test, about b - a: ``"greater"`` plans to detect b above a (a '
            'positive ``difference``), ``"less"`` below (a negative one).'
        ),
    ] = "two-sided"
    mcnemar_method: Annotated[
        Literal["exact", "mid-p", "asymptotic"],
        About(
            "For 0/1 scores, the McNemar test planned for (``mcnemar``'s ``method``): "
            '``"exact"``, its default, and ``"mid-p"`` by the exact power of the test (a sum '
            "over the number of discordant items, "
            ":func:`pairedstats.core.power_mcnemar.mcnemar_exact_power`); "
            '``"asymptotic"`` by Connor\'s (1987) formula. The exact test needs a median 5% '
            "more items than Connor's plan (-3% to +10% for plans of 50 items or more; "
            "``validation/mcnemar_plan.py``). Other scores ignore it.",
            option=dict(metavar="METHOD", help="for 0/1 scores, the McNemar test to plan for"),
        ),
    ] = "exact"
    standard_deviation_level: Annotated[
        float | None,
        About(
            "Plan with a one-sided upper confidence limit, at this level in (0, 1), of the "
            "spread the table estimates, instead of the estimate itself: the chi-square "
            "limit of the standard deviation "
            "(:func:`pairedstats.core.power.standard_deviation_limit`, Browne 1995) or, for "
            "0/1 scores, the exact (Clopper-Pearson) limit of the discordant rate "
            "(:func:`pairedstats.core.power.discordant_rate_limit`). The plan then reaches "
            "``power`` with probability about this level over pilots, where the plain one "
            "does so about half the time; 0.8 is Browne's choice. The pilot is the "
            "comparison's own items, ``n_items`` (after ``missing`` handling), so no "
            "``pilot_items`` is needed, as :func:`pairedstats.items_for` needs. "
            "``standard_deviation_planned`` and ``discordant_rate_planned`` show the value "
            "planned with; ``detectable_difference`` uses it too.",
            option=dict(
                type=float,
                metavar="LEVEL",
                help="plan with the upper confidence limit of the spread at this level "
                "(default: the estimate)",
            ),
        ),
    ] = None


@dataclass(frozen=True, kw_only=True)
class Settings(Options, Compared):
    """What a plan reads: the keywords, checked, the design and the comparisons
    (:class:`~pairedstats.methods._shared.compared.Compared`)."""

    method_name = "items_for"


def check(design, options: Options, *, keep: bool) -> Settings:
    """The keywords of ``items_for`` and the design, which must hold one score column,
    checked: ``alpha`` in (0, 1), ``power`` in (``alpha``, 1), ``difference`` not 0 and of
    the sign of a one-sided ``alternative``; every message names the keyword, the rule and
    the value received. ``keep`` is accepted as every method's check accepts it: the result
    holds nothing it would keep."""
    found = compared(design, options.baseline, "items_for")
    difference, power, alpha, alternative = check_plan(
        options.difference, power=options.power, alpha=options.alpha,
        alternative=options.alternative,
    )  # fmt: skip
    level = check_level(options.standard_deviation_level)
    mcnemar_method = _validation.check_choice(options.mcnemar_method, "mcnemar_method",
                                              MCNEMAR_METHODS)  # fmt: skip
    return Settings.of(
        options, **found, difference=difference, power=power, alpha=alpha,
        alternative=alternative, standard_deviation_level=level, mcnemar_method=mcnemar_method,
    )  # fmt: skip
