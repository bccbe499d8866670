"""The report's settings: its keywords checked once, against the metrics' designs."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ... import _validation
from ...core.draws import root_entropy
from .._shared.registry import SPECS
from .result import ADJUSTED, TESTS

__all__ = ["Settings", "check"]


@dataclass(frozen=True, kw_only=True)
class Settings:
    """The report's validated settings.

    Attributes
    ----------
    designs : dict
        Metric -> its design (one score column each, read on its own).
    baseline : label or None
        The system marks are about; None: letters.
    test : str
        The method run on each metric (a registered method: ``"bootstrap"``,
        ``"tukey_hsd"``).
    adjust : str or None
        The bootstrap's adjustment (``"auto"`` resolved: Holm for the bootstrap, None for
        Tukey HSD, adjusted by its statistic).
    confidence_level : float
    n_resamples : int or None
        None: the test's own default.
    lower_is_better : tuple
        The metrics whose lower values are better.
    digits : int
    bold_best, ranks, mcs, progress : bool
    entropy : int
        The root entropy of every metric's call.
    """

    designs: dict
    baseline: object
    test: str
    adjust: str | None
    confidence_level: float
    n_resamples: int | None
    lower_is_better: tuple
    digits: int
    bold_best: bool
    ranks: bool
    mcs: bool
    progress: bool
    entropy: int


def _adjust(adjust, test: str, baseline):
    """``adjust`` for ``test``: ``"auto"`` is Holm for a test that takes an adjustment (the
    bootstrap, McNemar's test), None for the Tukey HSD (its statistic controls the family)."""
    adjusts = "adjust" in {k.name for k in SPECS[test].keywords}
    if adjust is not None:
        adjust = _validation.check_choice(adjust, "adjust", ("auto", *ADJUSTED))
    if not adjusts and adjust not in ("auto", None):
        raise ValueError(
            f"`adjust`: {test} controls its family by its own statistic (the range, or "
            f"many-to-one with a baseline); got adjust={adjust!r}. Leave adjust='auto'"
        )
    if adjust == "auto":
        adjust = "holm" if adjusts else None
    if adjusts and baseline is None and adjust is None:
        raise ValueError(
            "`adjust`: letters need decisions over the family of all pairs; got "
            "adjust=None without a baseline. Give adjust='holm' (or another), a baseline, "
            "or test='tukey_hsd'"
        )
    if adjust == "max-t" and test != "bootstrap":
        raise ValueError(
            f"`adjust`: max-t needs the bootstrap's joint replicates; {test} takes 'holm', "
            "'bonferroni', 'fdr_bh' or 'fdr_by'"
        )
    return adjust


def check(designs: dict, *, keep: bool, baseline, test, adjust, confidence_level, n_resamples,
          rng, progress, lower_is_better, digits, bold_best, ranks, mcs) -> Settings:  # fmt: skip
    """The report's keywords checked (each metric's test checks its own when it runs);
    ``keep`` is not used: a report keeps its tests' results."""
    test = _validation.check_choice(test, "test", tuple(TESTS))
    if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= 15:
        raise ValueError(f"`digits` must be an integer from 0 to 15; got {digits!r}")
    for name, flag in (("ranks", ranks), ("mcs", mcs)):
        if not isinstance(flag, bool | np.bool_):
            raise TypeError(f"`{name}` must be True or False; got {flag!r}.")
    return Settings(
        designs=designs, baseline=baseline, test=test, adjust=_adjust(adjust, test, baseline),
        confidence_level=_validation.check_confidence_level(confidence_level),
        n_resamples=n_resamples,
        lower_is_better=_validation.check_lower_is_better(lower_is_better, list(designs)),
        digits=digits, bold_best=bool(bold_best), ranks=bool(ranks), mcs=bool(mcs),
        progress=_validation.check_progress(progress), entropy=root_entropy(rng),
    )  # fmt: skip
