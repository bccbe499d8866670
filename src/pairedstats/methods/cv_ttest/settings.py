"""The corrected resampled t-test's keywords (:class:`Options`), checked into the frozen
settings of one call (:func:`check`)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Annotated

import numpy as np

from ... import _validation
from ...core.inference import ALTERNATIVES
from ...inputs.paired import group_phrase
from .._shared.compared import Compared, compared
from .._shared.keywords import Alternative, Baseline, ConfidenceLevel, Margin, PValueAdjust
from .._shared.margins import check_margin
from .._shared.options import About, OptionsRecord

__all__ = ["Options", "Settings", "check"]


@dataclass(frozen=True, kw_only=True)
class Options(OptionsRecord):
    """The corrected t-test's keywords, in signature order (the registry reads them);
    ``test_fraction`` is required (given by position or by name)."""

    test_fraction: Annotated[
        float,
        About(
            "The share of the data in each test fold, in (0, 1): ``1/k`` for k-fold "
            "cross-validation, ``n_test / (n_train + n_test)`` in general. Its ratio to the "
            "training share, ``test_fraction / (1 - test_fraction)``, is the correction of "
            "the variance; there is no default (a guess would change every p-value).",
            option=dict(type=float, metavar="FRACTION", help="share of the data in a test fold"),
        ),
    ]
    baseline: Baseline = None
    rope: Annotated[
        float | None,
        About(
            "Half-width r > 0 of the region of practical equivalence, in the scores' units: "
            "adds the Bayesian correlated t-test's posterior probabilities "
            "``prob_a_better`` (mean difference below -r), ``prob_equivalent`` (within "
            "[-r, r]) and ``prob_b_better`` (above r). Default: none.",
            option=dict(type=float, metavar="R", help="region of practical equivalence"),
        ),
    ] = None
    margin: Margin = None
    alternative: Annotated[
        Alternative,
        About(
            'About the mean difference b - a: ``"greater"`` means b scores higher. A '
            "one-sided alternative gives the one-sided interval."
        ),
    ] = "two-sided"
    confidence_level: Annotated[
        ConfidenceLevel, About("Level of the corrected interval of the mean difference.")
    ] = 0.95
    adjust: Annotated[
        PValueAdjust,
        About(
            "Adjust the corrected p-values over the comparisons of each group "
            '(``pvalue_adjusted``): Holm, Bonferroni (family-wise error rate), ``"fdr_bh"`` '
            '(Benjamini-Hochberg) or ``"fdr_by"`` (Benjamini-Yekutieli), false discovery '
            "rate. Default: none."
        ),
    ] = None


@dataclass(frozen=True, kw_only=True)
class Settings(Options, Compared):
    """What a corrected t-test run reads: the keywords, checked, the design and the
    comparisons (:class:`~pairedstats.methods._shared.compared.Compared`)."""

    method_name = "cv_ttest"
    #: Per group, the repetitions r of an r x k cross-validation (with ``repeat``).
    n_repeats: np.ndarray | None = None


def _positive(value, name: str, upper: float = math.inf) -> float:
    try:
        x = float(value)
    except (TypeError, ValueError):
        x = math.nan
    if isinstance(value, bool) or not (0 < x < upper):
        where = "in (0, 1)" if upper == 1 else "a positive number"
        raise ValueError(f"`{name}` must be {where}; got {value!r}")
    return x


def _repeats(design) -> np.ndarray | None:
    """Per group, the number r of repetitions of an r x k cross-validation (None without
    ``repeat``), each repetition with the same number k of folds, else raise; the folds of
    every (group, repetition) counted at once."""
    if design.repeat is None:
        return None
    n_labels = len(design.repeat_labels)
    group = np.repeat(np.arange(design.n_groups), design.n_items())
    counts = np.bincount(group * n_labels + design.repeat, minlength=design.n_groups * n_labels)
    counts = counts.reshape(design.n_groups, n_labels)  # folds per (group, repetition)
    fewest = np.where(counts > 0, counts, np.iinfo(np.int64).max).min(axis=1)
    unequal = np.flatnonzero(fewest < counts.max(axis=1))
    if unequal.size:
        g = int(unequal[0])
        seen = np.flatnonzero(counts[g])
        sizes = ", ".join(f"{design.repeat_labels[i]!r}: {counts[g, i]}" for i in seen[:6])
        raise ValueError(
            "`repeat`: every repetition of an r x k cross-validation needs the same "
            f"number of folds{group_phrase(design.group_names, design.group_keys[g])}; "
            f"got {sizes}. Give each repetition its k folds (or drop the incomplete ones)."
        )
    out = np.count_nonzero(counts, axis=1).astype(np.int64)
    return out


def check(design, options: Options, *, keep: bool) -> Settings:
    """The keywords of :func:`cv_ttest` and :func:`cv_ttest_design` and the design (one score
    column), checked; every message names the keyword, the rule and the value received.
    ``keep`` is accepted as every method's check accepts it: the result keeps nothing more."""
    fields = compared(design, options.baseline, "cv_ttest")
    return Settings.of(
        options,
        **fields,
        n_repeats=_repeats(fields["design"]),
        test_fraction=_positive(options.test_fraction, "test_fraction", 1.0),
        rope=None if options.rope is None else _positive(options.rope, "rope"),
        margin=check_margin(options.margin),
        alternative=_validation.check_choice(options.alternative, "alternative", ALTERNATIVES),
        confidence_level=_validation.check_confidence_level(options.confidence_level),
        adjust=_validation.check_pvalue_adjust(options.adjust),
    )
