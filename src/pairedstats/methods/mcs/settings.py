"""The model confidence set's settings: its keywords checked once, and those it passes on
to the bootstrap whose joint replicates it reads."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from ... import _validation
from ...core.design import PairedDesign
from ...core.mcs import STATISTICS
from ...core.summed import SummedDesign
from .._shared.keywords import ConfidenceLevel, NResamples, Progress, Rng, Stream, Workers
from .._shared.options import About, Checked, OptionsRecord

__all__ = ["MAX_BYTES", "Options", "Settings", "check"]

#: The most memory ``statistic="range"``'s pair replicates may take (3 arrays of systems x
#: systems x resamples float64 per group): beyond it the call is refused with what to do
#: instead (``"max"`` holds systems x resamples).
MAX_BYTES = 4 * 2**30


@dataclass(frozen=True, kw_only=True)
class Options(OptionsRecord):
    """The model confidence set's keywords, in signature order (the registry reads them)."""

    confidence_level: Annotated[
        ConfidenceLevel,
        About(
            "The set holds the truly best system(s) with about this probability: systems are "
            "eliminated while the test's p-value is below ``1 - confidence_level``.",
            option=dict(type=float, metavar="LEVEL", help="level of the set"),
        ),
    ] = 0.9
    statistic: Annotated[
        Literal["max", "range"],
        About(
            '``"max"``: T_max, the largest studentized difference of a system\'s mean loss '
            "from the average of the systems left, which eliminates the system of the "
            'largest; ``"range"``: T_R, the largest studentized difference of two systems, '
            "which eliminates the worse of that pair.",
            option=dict(help="T_max or T_R"),
        ),
    ] = "max"
    n_resamples: Annotated[
        NResamples,
        About("Bootstrap resamples (one joint resampling of the units for all pairs)."),
    ] = 10_000
    rng: Rng = None
    lower_is_better: Annotated[
        bool | str,
        About(
            "The score is a loss (error rate, latency): the best system has the lowest mean. "
            "True, or the name of the ``score`` column.",
            option=dict(action="store_true", help="the lowest mean is best"),
        ),
    ] = False
    stream: Annotated[
        Stream,
        About(
            "The bootstrap's streaming road (:doc:`/dask`; the bootstrap's ``stream``): "
            "``True`` reads the set from the Poisson bootstrap of sums, whose numbers do not "
            "depend on how the rows are cut (a dask DataFrame read partition by partition, or "
            "a table in memory). Default: ``False`` on tables in memory; on a dask DataFrame, "
            "chosen by the workers' memory."
        ),
    ] = None
    progress: Progress = False
    workers: Workers = None


@dataclass(frozen=True, kw_only=True)
class Settings(Options, Checked):
    """What a model confidence set reads: the keywords, checked (``statistic`` in lower
    case, ``lower_is_better`` as a bool, ``rng`` as the root entropy of the random streams),
    and the design. Systems are eliminated while the test's p-value is below
    ``alpha = 1 - confidence_level``.

    Attributes
    ----------
    design : PairedDesign or SummedDesign
        The data (one score column), or its sums (the streaming road).
    """

    method_name = "mcs"
    design: PairedDesign | SummedDesign

    def bootstrap(self) -> dict:
        """The keywords of the bootstrap whose replicates the set reads (``n_resamples``,
        ``stream``, ``rng``, ``progress``, ``workers``), which the bootstrap checks again when
        it runs."""
        names = ("n_resamples", "stream", "rng", "progress", "workers")
        return {name: getattr(self, name) for name in names}


def check(design: PairedDesign | SummedDesign, options: Options, *, keep: bool) -> Settings:
    """The set's keywords checked; ``lower_is_better`` may name the score column, as the
    report's metrics. ``keep`` is not used: the result keeps the bootstrap it came from,
    with its replicates."""
    o = options
    if len(design.systems) < 2:
        raise ValueError(
            f"the model confidence set needs at least 2 systems; got {len(design.systems)}."
        )
    statistic = _validation.check_choice(o.statistic, "statistic", STATISTICS)
    if statistic == "range":
        _check_size(len(design.systems), o.n_resamples)
    lower = _validation.check_lower_is_better(o.lower_is_better, list(design.columns))
    return Settings.of(
        o, confidence_level=_validation.check_confidence_level(o.confidence_level),
        statistic=statistic, lower_is_better=bool(lower),
        n_resamples=_validation.check_n_resamples(
            o.n_resamples, maximum=_validation.MAX_BOOTSTRAP_RESAMPLES),
        rng=_validation.normalise_rng(o.rng), workers=_validation.check_workers(o.workers),
        progress=_validation.check_progress(o.progress), design=design,
        stream=True if isinstance(design, SummedDesign) else o.stream,
    )  # fmt: skip


def _check_size(p: int, n_resamples) -> None:
    """Refuse a ``"range"`` set whose pair replicates would take more than
    :data:`MAX_BYTES`."""
    try:
        need = 3 * p * p * int(n_resamples) * 8
    except (TypeError, ValueError):
        return  # the bootstrap says what is wrong with n_resamples
    if need > MAX_BYTES:
        raise ValueError(
            f"statistic='range' holds the bootstrap replicates of every pair of systems: "
            f"{p:,} systems x {int(n_resamples):,} resamples need about "
            f"{need / 2**30:,.0f} GiB (at most {MAX_BYTES / 2**30:,.0f} GiB). Use "
            "statistic='max' (the default, which holds one row per system), "
            "df.paired.rank() (its may_be_best is the systems that may be the best), or "
            "fewer resamples (n_resamples=) or systems (systems=)."
        )
