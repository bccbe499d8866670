"""The model confidence set's settings: its keywords checked once, and those it passes on
to the bootstrap whose joint replicates it reads."""

from __future__ import annotations

from dataclasses import dataclass

from ... import _validation
from ...core.design import PairedDesign
from ...core.draws import root_entropy
from ...core.mcs import STATISTICS

__all__ = ["MAX_BYTES", "Settings", "check"]

#: The most memory ``statistic="range"``'s pair replicates may take (3 arrays of systems x
#: systems x resamples float64 per group): beyond it the call is refused with what to do
#: instead (``"max"`` holds systems x resamples).
MAX_BYTES = 4 * 2**30


@dataclass(frozen=True, kw_only=True)
class Settings:
    """The model confidence set's validated settings.

    Attributes
    ----------
    design : PairedDesign
        The data (one score column).
    confidence_level : float
        The set holds the best system(s) with about this probability; systems are
        eliminated while the test's p-value is below ``alpha = 1 - confidence_level``.
    statistic : {"max", "range"}
        ``T_max`` or ``T_R``, with its elimination rule.
    lower_is_better : bool
        The score is a loss (else its negative is).
    bootstrap : dict
        The keywords of the bootstrap (``n_resamples``, ``rng`` as its root entropy,
        ``progress``, ``workers``), which the bootstrap checks when it runs.
    """

    design: PairedDesign
    confidence_level: float
    statistic: str
    lower_is_better: bool
    bootstrap: dict


def check(design: PairedDesign, *, keep: bool, confidence_level, statistic, lower_is_better,
          rng, **bootstrap) -> Settings:  # fmt: skip
    """The set's keywords checked; ``lower_is_better`` may name the score column, as the
    report's metrics. ``keep`` is not used: the result keeps the bootstrap it came from,
    with its replicates."""
    if len(design.systems) < 2:
        raise ValueError(
            f"the model confidence set needs at least 2 systems; got {len(design.systems)}."
        )
    statistic = _validation.check_choice(statistic, "statistic", STATISTICS)
    if statistic == "range":
        _check_size(len(design.systems), bootstrap.get("n_resamples"))
    lower = _validation.check_lower_is_better(lower_is_better, list(design.columns))
    return Settings(
        design=design,
        confidence_level=_validation.check_confidence_level(confidence_level),
        statistic=statistic,
        lower_is_better=bool(lower),
        bootstrap=dict(bootstrap, rng=root_entropy(rng)),
    )


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
