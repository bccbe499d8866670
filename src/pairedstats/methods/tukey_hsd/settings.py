"""The Tukey HSD's keywords (:class:`Options`), checked into the frozen settings of one call.

:func:`check` is the one place where they are checked, for the functions and accessors built
from the spec and for :func:`pairedstats.tukey_hsd_run` alike; the run
(:mod:`pairedstats.methods.tukey_hsd.run`) reads only the :class:`Settings` it returns.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Literal, get_args

from ... import _validation
from ...core.design import PairedDesign
from ...inputs import check_design
from .._shared.keywords import Baseline, NResamples, Progress, Rng, Workers
from .._shared.options import About, Checked, OptionsRecord
from .result import Checkpoint

__all__ = ["METHODS", "Method", "Options", "Settings", "check", "one_column"]

#: ``method``: exact when the design allows it, always exact (or refused), always random.
Method = Literal["auto", "exact", "monte-carlo"]
METHODS = get_args(Method)


@dataclass(frozen=True, kw_only=True)
class Options(OptionsRecord):
    """The Tukey HSD's keywords, in signature order (the registry reads them)."""

    baseline: Annotated[
        Baseline,
        About(
            "Compare every other system with this one (a = baseline), the comparisons with "
            "it forming the family (many-vs-one statistic); default: all pairs, a before b "
            "in system order (range statistic)."
        ),
    ] = None
    n_resamples: Annotated[
        NResamples,
        About(
            'Trials (the "B" of the literature); at most ``10**9``.',
            option=dict(type=int, metavar="N", help="trials"),
        ),
    ] = 10_000
    rng: Rng = None
    method: Annotated[
        Method,
        About(
            '``"exact"``: the exact permutation p-value (every within-item arrangement), or '
            'a ValueError if the design is too large. ``"monte-carlo"``: random trials. '
            '``"auto"``: exact when the scores are on a grid whose dynamic programme has at '
            "most 2**22 states and 2e8 operations, or the arrangements (item 0 held fixed) "
            "number at most 2**18; Monte Carlo otherwise. The ``pvalue_method`` column says "
            "which was used (as the rank-sum test's ``method``).",
            option=dict(
                help="p-values: auto (exact when they can be computed; default), exact, "
                "monte-carlo"
            ),
        ),
    ] = "auto"
    monitor: Annotated[
        Callable[[Checkpoint], object] | None,
        About(
            "Called with a :class:`Checkpoint` every ``every`` trials and at the end.",
            recorded=False,
        ),
    ] = None
    every: Annotated[
        int | None,
        About(
            "Trials between checkpoints (default 1% of ``n_resamples``, in whole blocks).",
            recorded=False,
        ),
    ] = None
    progress: Progress = False
    workers: Workers = None


@dataclass(frozen=True, kw_only=True)
class Settings(Options, Checked):
    """What a Tukey HSD run reads: the keywords, checked, and what they give.

    ``method`` is the one asked for, in the user's words (lower case); which one each group
    used is its ``pvalue_method``. ``rng`` is the root entropy of the random streams.

    Attributes
    ----------
    design : PairedDesign
        The data, one score column.
    missing : {"raise", "complete"}
        The ``missing`` rule the design was read with (``design.missing``), whichever road
        read it: the accessors, the functions on arrays or :func:`pairedstats.tukey_hsd_run`.
    """

    method_name = "tukey_hsd"
    design: PairedDesign
    missing: str


def check(design: PairedDesign, options: Options, *, keep: bool) -> Settings:
    """Check every keyword of a call on ``design`` into its :class:`Settings`.

    Each refusal names the keyword, the rule and the value received. ``keep`` is the
    registry's request to keep what only a result object holds; a Tukey HSD result holds
    nothing beyond its columns, so it changes nothing.
    """
    n_resamples = _validation.check_n_resamples(options.n_resamples)
    method = _validation.check_choice(options.method, "method", METHODS)
    monitor = options.monitor
    if monitor is not None and not callable(monitor):
        raise TypeError(f"`monitor` must be a callable taking a Checkpoint; got {monitor!r}.")
    every = options.every
    if every is not None:
        every = _validation.check_n_resamples(every, "every")
    progress = _validation.check_progress(options.progress)
    workers = _validation.check_workers(options.workers)
    design = one_column(check_design(design), "design")
    baseline = _validation.check_baseline(options.baseline, design.systems)
    return Settings.of(
        options, baseline=baseline, n_resamples=n_resamples, method=method, every=every,
        progress=progress, workers=workers, rng=_validation.normalise_rng(options.rng),
        design=design, missing=design.missing,
    )  # fmt: skip


def one_column(design: PairedDesign, name: str) -> PairedDesign:
    """``design`` if it has one score column, else a ValueError naming ``name``."""
    if design.scores.shape[2] != 1:
        raise ValueError(
            f"`{name}` must have one score column for tukey_hsd; got "
            f"{design.scores.shape[2]} columns {design.columns!r}."
        )
    return design
