"""McNemar's test's keywords (:class:`Options`), checked into the frozen settings of one call
(:func:`check`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

import numpy as np

from ... import _validation
from ...core.design import PairedDesign
from ...core.inference import ALTERNATIVES
from ...core.mcnemar import METHODS
from ...core.mcnemar_pairs import outcome_products
from ...core.summed import SummedDesign
from .._shared.compared import Compared, compared
from .._shared.keywords import (
    Alternative,
    Baseline,
    ConfidenceLevel,
    Margin,
    PValueAdjust,
    Stream,
)
from .._shared.margins import check_margin
from .._shared.options import About, OptionsRecord

__all__ = ["Options", "Settings", "check"]


@dataclass(frozen=True, kw_only=True)
class Options(OptionsRecord):
    """McNemar's test's keywords, in signature order (the registry reads them)."""

    baseline: Baseline = None
    method: Annotated[
        Literal["exact", "mid-p", "asymptotic"],
        About(
            '``"exact"``: the binomial test of ``only_b`` among the ``only_a + only_b`` '
            "discordant items at probability 1/2 (two-sided: the doubled smaller tail, which "
            "at 1/2 is scipy's and R's binomial test); ``\"mid-p\"``: the same with half the "
            "probability of the observed count (Fagerland, Lydersen and Laake 2013 recommend "
            'it: the exact test is conservative); ``"asymptotic"``: McNemar\'s chi-square '
            "``(only_b - only_a)^2 / (only_a + only_b)`` without continuity correction "
            '(one-sided: its signed square root). With ``cluster`` only ``"asymptotic"``, the '
            "clustered test.",
            option=dict(
                help="the p-value: the exact binomial test, its mid-p version, or the chi-square"
            ),
        ),
    ] = "exact"
    margin: Annotated[
        Margin,
        About(
            "A margin m in (0, 1) in pass-rate units (0.05: five points of the difference "
            "``rate_b - rate_a``): adds the test against it at ``alpha = 1 - "
            "confidence_level`` by Tango's (1998) score test at ``-m`` and ``m``. With "
            '``alternative="greater"``, non-inferiority of b (``H0: b - a <= -m``; columns '
            '``noninferior``, ``pvalue_noninferiority``); with ``"less"``, the same when a '
            "lower rate is better (``H0: b - a >= m``); two-sided, equivalence by two "
            "one-sided tests (``H0: |b - a| >= m``; columns ``equivalent``, "
            "``pvalue_equivalence``: Tango's ``1 - 2 alpha`` interval inside ``(-m, m)``). "
            "``method`` does not enter: the margin's test is always Tango's score test, the "
            "inversion of the interval (with ``cluster``, Rao-Scott adjusted as the interval "
            "is). Default: none."
        ),
    ] = None
    alternative: Annotated[
        Alternative,
        About(
            'About b - a: ``"greater"`` means b\'s rate is the higher. One-sided alternatives '
            "give one-sided tests and intervals ``(low, 1)`` or ``(-1, high)``."
        ),
    ] = "two-sided"
    confidence_level: Annotated[
        ConfidenceLevel, About("The level of Tango's interval of the difference.")
    ] = 0.95
    adjust: Annotated[
        PValueAdjust,
        About(
            "Control over the comparisons of a group (the family), adding "
            "``pvalue_adjusted``: Holm's step-down or Bonferroni's family-wise error control "
            'of ``pvalue``, or Benjamini-Hochberg\'s false discovery rate (``"fdr_bh"``; '
            '``"fdr_by"``, Benjamini-Yekutieli\'s, under any dependence). With ``adjust``, '
            ":meth:`McNemarResult.significant` decides by ``pvalue_adjusted``; the intervals "
            "stay unadjusted.",
            option=dict(help="adjust the p-values (default: none, unadjusted)"),
        ),
    ] = None
    stream: Annotated[
        Stream,
        About(
            "The road of a dask DataFrame (:doc:`/dask`): ``True`` counts each partition's "
            "outcomes (the passes of each system and of each two systems together: exact "
            "sums) and tests the counts merged, ``False`` gathers each ``by=`` group's rows "
            "into one task; the numbers are the same on both roads, to the bit. Without "
            "``cluster``. Default: chosen by the workers' memory; a table in memory is "
            "counted as it is.",
            recorded=False,
        ),
    ] = None


@dataclass(frozen=True, kw_only=True)
class Settings(Options, Compared):
    """What a McNemar run reads: the keywords, checked, the design (its scores 0 or 1) and
    the comparisons (:class:`~pairedstats.methods._shared.compared.Compared`), and what
    they give (``method`` ``"asymptotic"`` is the clustered test when the design has
    clusters).

    Attributes
    ----------
    products : tuple of ndarray or None
        Per group, ``X^T X`` of its outcomes, counted with the 0/1 check in one pass
        (:func:`pairedstats.core.mcnemar_pairs.outcome_products`); None with a baseline,
        whose run counts its pairs alone.
    """

    method_name = "mcnemar"
    products: tuple | None


def check_binary(design: PairedDesign) -> None:
    """Every score of ``design`` is 0 or 1 (pass/fail outcomes), else a ValueError that names
    the first other value, where it is and how many there are."""
    scores = design.scores[:, :, 0]
    if not _binary(scores):
        bad = (scores != 0.0) & (scores != 1.0)
        row, system = np.argwhere(bad)[0]
        raise ValueError(
            "`score`: mcnemar compares pass/fail outcomes, so every score must be 0 or 1 "
            f"(bool, or the numbers 0 and 1); got {float(scores[row, system])!r} for item "
            f"{_validation.plain(design.items[row])!r} and system "
            f"{_validation.plain(design.systems[system])!r}, among {int(bad.sum())} such "
            "score(s). Turn the scores into outcomes first (e.g. `score >= threshold`)."
        )


def _binary(scores: np.ndarray) -> bool:
    """Whether every score is 0 or 1: the 0s and 1s counted in blocks of rows of about a
    megabyte (no temporary the size of the scores)."""
    step = max(1, 2**17 // max(1, scores.shape[1]))
    count = 0
    for start in range(0, scores.shape[0], step):
        block = scores[start : start + step]
        count += np.count_nonzero(block == 0.0) + np.count_nonzero(block == 1.0)
    return count == scores.size


def _binary_scores(design) -> bool:
    """Whether ``design`` is a paired design whose scores (every column) are all 0 or 1."""
    scores = getattr(design, "scores", None) if isinstance(design, PairedDesign) else None
    return (
        isinstance(scores, np.ndarray) and scores.ndim == 3 and scores.dtype.kind == "f"
        and _binary(scores.reshape(scores.shape[0], scores.shape[1] * scores.shape[2]))
    )  # fmt: skip


def _outcome_products(design) -> tuple | None:
    """Per group, ``X^T X`` of the outcomes of a paired design of one score column whose
    every score is 0 or 1 (:func:`outcome_products`: the check and the counts in one pass);
    None for any other design, which is checked as it is next."""
    scores = getattr(design, "scores", None) if isinstance(design, PairedDesign) else None
    if not (isinstance(scores, np.ndarray) and scores.ndim == 3 and scores.shape[2] == 1
            and scores.dtype.kind == "f"):  # fmt: skip
        return None
    at = np.asarray(design.offsets)
    if not (at.ndim == 1 and at.size > 1 and at.dtype.kind in "iu" and at[0] == 0
            and at[-1] == scores.shape[0] and bool(np.all(at[1:] >= at[:-1]))):  # fmt: skip
        return None
    out = []
    for g in range(at.size - 1):
        products = outcome_products(scores[at[g] : at[g + 1], :, 0])
        if products is None:
            return None
        out.append(products)
    return tuple(out)


def _margin(value) -> float | None:
    """``margin``: None, or a number in (0, 1) (a difference of pass rates lies in [-1, 1])."""
    margin = check_margin(value)
    if margin is not None and margin >= 1.0:
        raise ValueError(
            "`margin` must be < 1: it is in the units of the difference of pass rates, "
            f"which lies in [-1, 1] (0.05 is five points); got {margin!r}."
        )
    return margin


def check(design, options: Options, *, keep: bool) -> Settings:
    """The keywords of :func:`mcnemar` and :func:`mcnemar_design` and the design, which
    must hold one score column of 0/1 outcomes, checked; every message names the keyword,
    the rule and the value received. With clusters the test is asymptotic
    (``method="asymptotic"``). ``keep`` is accepted as every method's check accepts it: the
    result holds nothing it would keep."""
    if isinstance(design, SummedDesign):  # the streaming road: counted, checked 0/1
        products, binary = tuple(g.products for g in design.groups), True
    else:
        products = _outcome_products(design) if options.baseline is None else None
        binary = products is not None or _binary_scores(design)  # finite: not read again
    found = compared(design, options.baseline, "mcnemar", checked_finite=binary)
    if not binary:
        check_binary(found["design"])
    method = _validation.check_choice(options.method, "method", METHODS)
    if found["design"].cluster is not None and method != "asymptotic":
        raise ValueError(
            "`method`: with `cluster` the test is the clustered McNemar test (Durkalski et "
            "al. 2003), which is asymptotic; the exact and mid-p tests assume independent "
            f"items. Pass method='asymptotic'; got {method!r}."
        )
    return Settings.of(
        options,
        **found,
        method=method,
        margin=_margin(options.margin),
        alternative=_validation.check_choice(options.alternative, "alternative", ALTERNATIVES),
        confidence_level=_validation.check_confidence_level(options.confidence_level),
        adjust=_validation.check_pvalue_adjust(options.adjust),
        products=products,
        stream=None if options.stream is None else _validation.check_flag(options.stream,
                                                                          "stream"),
    )  # fmt: skip
