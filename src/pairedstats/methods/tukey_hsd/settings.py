"""The Tukey HSD's keywords, validated into the frozen settings of one call.

:func:`check` is the one place where they are checked, for the functions and accessors built
from the spec and for :func:`pairedstats.tukey_hsd_run` alike; the run
(:mod:`pairedstats.methods.tukey_hsd.run`) reads only the :class:`Settings` it returns.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass

from ... import _validation
from ...core.design import PairedDesign
from ...inputs import check_design

__all__ = ["METHODS", "Settings", "check", "one_column"]

#: ``method``: exact when the design allows it, always exact (or refused), always random.
METHODS = ("auto", "exact", "monte-carlo")


@dataclass(frozen=True, kw_only=True)
class Settings:
    """A call's validated keywords (:func:`check`).

    Attributes
    ----------
    design : PairedDesign
        The data, one score column.
    baseline : hashable or None
        The system every other is compared with; None for all pairs.
    n_resamples : int
        Trials planned for the groups not computed exactly.
    method : {"auto", "exact", "monte-carlo"}
        The ``method`` asked for, in the user's words (lower case); which one each group
        used is its ``pvalue_method``.
    missing : {"raise", "complete"}
        The ``missing`` rule the design was read with (``design.missing``), whichever road
        read it: the accessors, the functions on arrays or :func:`pairedstats.tukey_hsd_run`.
    monitor : callable or None
        Shown a :class:`~pairedstats.Checkpoint` every ``every`` trials and at the end.
    every : int or None
        Trials between checkpoints (None: the run's default).
    progress : bool
        Whether to show a progress bar.
    workers : int or None
        Threads (None: the default of :func:`pairedstats.core.tukey.default_workers`).
    root : int
        The root entropy of the random streams, from ``rng``.
    """

    design: PairedDesign
    baseline: Hashable | None
    n_resamples: int
    method: str
    missing: str
    monitor: Callable | None
    every: int | None
    progress: bool
    workers: int | None
    root: int


def check(
    design: PairedDesign, *, keep: bool, baseline, n_resamples, rng, method, monitor, every,
    progress, workers,
) -> Settings:  # fmt: skip
    """Validate every keyword of a call on ``design`` into its :class:`Settings`.

    Each refusal names the keyword, the rule and the value received. ``keep`` is the
    registry's request to keep what only a result object holds; a Tukey HSD result holds
    nothing beyond its columns, so it changes nothing.
    """
    n_resamples = _validation.check_n_resamples(n_resamples)
    method = _validation.check_choice(method, "method", METHODS)
    if monitor is not None and not callable(monitor):
        raise TypeError(f"`monitor` must be a callable taking a Checkpoint; got {monitor!r}.")
    if every is not None:
        every = _validation.check_n_resamples(every, "every")
    progress = _validation.check_progress(progress)
    workers = _validation.check_workers(workers)
    design = one_column(check_design(design), "design")
    _validation.check_baseline(baseline, design.systems)
    return Settings(
        design=design, baseline=baseline, n_resamples=n_resamples, method=method,
        missing=design.missing, monitor=monitor, every=every, progress=progress, workers=workers,
        root=_validation.normalise_rng(rng),
    )  # fmt: skip


def one_column(design: PairedDesign, name: str) -> PairedDesign:
    """``design`` if it has one score column, else a ValueError naming ``name``."""
    if design.scores.shape[2] != 1:
        raise ValueError(
            f"`{name}` must have one score column for tukey_hsd; got "
            f"{design.scores.shape[2]} columns {design.columns!r}."
        )
    return design
