"""The report's keywords (:class:`Options`), checked once against the metrics' designs into
the frozen settings of one call (:func:`check`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Literal

import numpy as np

from ... import _validation
from ...core.draws import root_entropy
from ...core.summed import SummedDesign
from .._shared.keywords import (
    Baseline,
    ConfidenceLevel,
    EveryIfNoneNamed,
    Progress,
    Rng,
    Stream,
)
from .._shared.margins import check_margin
from .._shared.options import About, Checked, OptionsRecord
from .._shared.registry import SPECS
from .result import ADJUSTED, TESTS

__all__ = ["Options", "Settings", "check"]


def _adjust_option(text: str):
    """``--adjust``: a name, or ``none`` for unadjusted marks (None)."""
    return None if text.lower() == "none" else text.lower()


@dataclass(frozen=True, kw_only=True)
class Options(OptionsRecord):
    """The report's keywords, in signature order (the registry reads them)."""

    baseline: Annotated[
        Baseline,
        About(
            "Mark every other system against this one (``†`` significantly better, ``‡`` "
            "significantly worse); default: compact letters from the test of all "
            "pairs."
        ),
    ] = None
    test: Annotated[
        Literal["bootstrap", "tukey_hsd", "mcnemar"],
        About(
            "The method run on each metric: the paired bootstrap, the randomized Tukey HSD, "
            "or McNemar's test for 0/1 (pass/fail) scores, whose report adds each system's "
            "pass-rate interval (``rate_low``, ``rate_high``: Wilson's, exact at 0% and 100%; "
            "shown with ``intervals=True``).",
            option=dict(type=str.lower, choices=TESTS, help="the test of each metric"),
        ),
    ] = "bootstrap"
    adjust: Annotated[
        Literal["auto", "holm", "bonferroni", "max-t", "fdr_bh", "fdr_by"] | None,
        About(
            "The adjustment over the comparisons of a metric (bootstrap, McNemar's test; "
            'max-t the bootstrap\'s only); ``"auto"``: Holm. None: unadjusted marks (not '
            'with letters). Tukey HSD is adjusted by its statistic and takes only ``"auto"``.',
            # no choices: ``none`` is None (unadjusted), checked with the others by check()
            option=dict(
                type=_adjust_option,
                choices=None,
                help="bootstrap adjustment (default holm; none: unadjusted)",
            ),
            type='{"auto", "holm", "bonferroni", "max-t", "fdr_bh", "fdr_by"} or None',
        ),
    ] = "auto"
    confidence_level: Annotated[
        ConfidenceLevel,
        About(
            "The level of the bootstrap's intervals; marks and letters decide at ``alpha = 1 "
            "- confidence_level``."
        ),
    ] = 0.95
    margin: Annotated[
        float | Mapping[str, float] | None,
        About(
            "An equivalence margin m > 0 in the units of the metric (one number for every "
            "metric, or ``{metric: m}``; a metric left out has none): each metric's test "
            "also tests the equivalence of each system with the baseline, ``H0: |b - a| >= "
            "m``, by two one-sided tests at ``alpha = 1 - confidence_level`` (adjusted as "
            "``adjust``), and the cells of the systems shown equivalent are marked ``≈`` "
            "(whichever direction is better). Needs ``baseline`` and a ``test`` that takes "
            '``margin``; not with ``adjust="max-t"``.',
            option=dict(type=float, metavar="M", help="equivalence margin: mark ≈"),
            type="float, dict or None",
        ),
    ] = None
    margin_test: Annotated[
        Literal["equivalence", "noninferiority"],
        About(
            'What ``margin`` tests: ``"equivalence"`` (``≈``, above), or '
            '``"noninferiority"``: each system is not worse than the baseline by ``m`` or '
            "more, ``H0: b - a <= -m`` (``H0: b - a >= m`` for a metric in "
            "``lower_is_better``), by the test's one-sided test at the margin, and its cells "
            "are marked ``⪰``. The marks ``†`` and ``‡`` stay two-sided: the one-sided test "
            "is a second call of the test, with the same ``rng``.",
            option=dict(
                choices=("equivalence", "noninferiority"), help="what the margin tests (≈ or ⪰)"
            ),
        ),
    ] = "equivalence"
    n_resamples: Annotated[
        int | None,
        About(
            "Resamples (bootstrap) or trials (Tukey HSD); default: the method's own (10,000).",
            option=dict(type=int, metavar="N", help="resamples (default: 10,000)"),
        ),
    ] = None
    stream: Annotated[
        Stream,
        About(
            "The streaming road (:doc:`/dask`), passed to each metric's test, ranking and "
            "best set: the bootstrap (the Poisson bootstrap of sums) or McNemar's test (its "
            "counts summed; with ``ranks`` or ``mcs`` the bootstrap's sums are read for them "
            "too, so McNemar's test is then not available on it); Tukey HSD has none. "
            "Default: ``False`` on tables in memory; on a dask DataFrame, chosen by the "
            "workers' memory."
        ),
    ] = None
    rng: Rng = None
    progress: Progress = False
    lower_is_better: Annotated[
        bool | str | Sequence[str],
        About(
            "Metrics whose lower values are better (losses, error rates), or True for all: "
            "their marks, letters (``a`` for the best), bold and rank sets read that way.",
            option=dict(
                nargs="*",
                metavar="METRIC",
                action=EveryIfNoneNamed,
                help="metrics where lower is better (none named: all)",
            ),
            type="bool, str or list of str, optional",
        ),
    ] = ()
    digits: Annotated[
        int,
        About(
            "Decimals shown by the displays (the numbers of ``to_frame`` are not rounded).",
            option=dict(type=int, metavar="D", help="decimals shown"),
            recorded=False,
        ),
    ] = 3
    bold_best: Annotated[
        bool,
        About(
            "Show the best mean of each metric (per group) in bold (LaTeX, HTML, Markdown).",
            option=dict(action="store_true", help="best mean per metric in bold"),
            recorded=False,
        ),
    ] = False
    ranks: Annotated[
        bool,
        About(
            "Add each system's rank set per metric, ``(rank_low-rank_high)`` after its mean: "
            "the ranks it may hold, simultaneous at ``confidence_level`` over the systems of "
            "a metric (``df.paired.rank``, from the bootstrap's max-t intervals of all pairs, "
            "same ``rng`` and ``n_resamples``).",
            option=dict(action="store_true", help="add each system's rank set per metric"),
        ),
    ] = False
    mcs: Annotated[
        bool,
        About(
            "Mark the systems in each metric's best set, ``\u22c4`` at the end of the cell: "
            "the model confidence set at ``confidence_level``, which holds the truly best "
            "system(s) with about that probability (``df.paired.mcs``, T_max, same ``rng`` "
            "and ``n_resamples``).",
            option=dict(
                action="store_true", help="mark each metric's best set (model confidence set)"
            ),
        ),
    ] = False


@dataclass(frozen=True, kw_only=True)
class Settings(Options, Checked):
    """The report's keywords, checked (``adjust``: ``"auto"`` resolved, Holm for a test
    that takes an adjustment, None for Tukey HSD, adjusted by its statistic; ``rng``: the
    root entropy of every metric's call; ``lower_is_better``: the tuple of the metrics
    whose lower values are better), and the metrics' designs.

    Attributes
    ----------
    designs : dict
        Metric -> its design (one score column each, read on its own).
    """

    method_name = "report"
    designs: dict


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


def _margin_test(margin_test, margin) -> str:
    """``margin_test``: one of the two names, and not without a margin."""
    checked = _validation.check_choice(margin_test, "margin_test",
                                       ("equivalence", "noninferiority"))  # fmt: skip
    if checked != "equivalence" and margin is None:
        raise ValueError(
            f"`margin_test`: {checked!r} tests against a margin; give margin=m (in the "
            "metric's units) too."
        )
    return checked


def _margin(margin, test: str, baseline, metrics: list):
    """``margin`` checked: None, a number (every metric) or ``{metric: number}``; it needs a
    baseline (the mark is about it) and a test that declares ``margin``."""
    if margin is None:
        return None
    if baseline is None:
        raise ValueError(
            "`margin`: the report marks the systems equivalent to the baseline (≈); "
            f"without a baseline there is none. Give baseline=..., or drop margin={margin!r}."
        )
    if "margin" not in {k.name for k in SPECS[test].keywords}:
        takes = [name for name in TESTS if "margin" in {k.name for k in SPECS[name].keywords}]
        raise ValueError(
            f"`margin`: test={test!r} has no test against a margin; got margin={margin!r}. "
            f"Use test= one of {takes}, or drop margin."
        )
    if not isinstance(margin, Mapping):
        return check_margin(margin)
    unknown = [m for m in margin if m not in metrics]
    if unknown:
        raise ValueError(
            f"`margin`: {unknown!r} are not metrics of the report; the metrics are {metrics!r}."
        )
    return {m: check_margin(margin[m]) for m in metrics if m in margin}


def _stream(options: Options, test: str, designs: dict) -> bool | None:
    """``stream`` checked: True for the streaming road's sums (the designs of a dask
    DataFrame's streaming road); a test without a streaming road (Tukey HSD), or McNemar's
    with ``ranks`` or ``mcs`` (which read the bootstrap's sums), refuses it."""
    summed = any(isinstance(d, SummedDesign) for d in designs.values())
    stream = True if summed else options.stream
    if stream is None:
        return None
    stream = _validation.check_flag(stream, "stream")
    if stream and SPECS[test].summed is None:
        raise ValueError(
            f"`stream=True`: the report's test {test!r} has no streaming road; use "
            "test='bootstrap' or test='mcnemar', or stream=False."
        )
    if stream and test == "mcnemar" and (options.ranks or options.mcs):
        raise ValueError(
            "`stream=True`: with McNemar's test the streaming road sums pass/fail counts, "
            "which the ranks and the best set (bootstraps of means) do not read; use "
            "test='bootstrap', or drop ranks and mcs, or stream=False."
        )
    return stream


def check(designs: dict, options: Options, *, keep: bool) -> Settings:
    """The report's keywords checked (each metric's test checks its own when it runs);
    ``keep`` is not used: a report keeps its tests' results."""
    test = _validation.check_choice(options.test, "test", tuple(TESTS))
    digits = options.digits
    if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= 15:
        raise ValueError(f"`digits` must be an integer from 0 to 15; got {digits!r}")
    for name in ("ranks", "mcs"):
        if not isinstance(getattr(options, name), bool | np.bool_):
            raise TypeError(f"`{name}` must be True or False; got {getattr(options, name)!r}.")
    stream = _stream(options, test, designs)
    return Settings.of(
        options,
        stream=stream,
        test=test,
        margin=_margin(options.margin, test, options.baseline, list(designs)),
        margin_test=_margin_test(options.margin_test, options.margin),
        adjust=_adjust(options.adjust, test, options.baseline),
        confidence_level=_validation.check_confidence_level(options.confidence_level),
        rng=root_entropy(options.rng),
        progress=_validation.check_progress(options.progress),
        lower_is_better=_validation.check_lower_is_better(options.lower_is_better, list(designs)),
        bold_best=bool(options.bold_best),
        ranks=bool(options.ranks),
        mcs=bool(options.mcs),
        designs=designs,
    )
