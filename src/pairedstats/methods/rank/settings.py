"""The ranking's settings: its keywords checked once, and those it passes on to the
bootstrap of all pairs."""

from __future__ import annotations

from dataclasses import dataclass

from ... import _validation
from ...core.design import PairedDesign
from ...core.draws import root_entropy

__all__ = ["Settings", "check"]


@dataclass(frozen=True, kw_only=True)
class Settings:
    """The ranking's validated settings.

    Attributes
    ----------
    design : PairedDesign
        The data (one score column).
    lower_is_better : bool
        Rank the lowest mean first.
    simultaneous : bool
        Rank sets that hold together (else each on its own).
    bootstrap : dict
        The keywords of the bootstrap of all pairs the sets come from (``n_resamples``,
        ``confidence_level``, ``weights``, ``rng`` as its root entropy, ``progress``,
        ``workers``), which the bootstrap checks when it runs.
    """

    design: PairedDesign
    lower_is_better: bool
    simultaneous: bool
    bootstrap: dict


def check(design: PairedDesign, *, keep: bool, lower_is_better, simultaneous, rng,
          **bootstrap) -> Settings:  # fmt: skip
    """The ranking's keywords checked; ``lower_is_better`` may name the score column, as the
    report's metrics. ``keep`` is not used: the ranking keeps its bootstrap results, without
    their replicates."""
    lower = _validation.check_lower_is_better(lower_is_better, list(design.columns))
    return Settings(
        design=design, lower_is_better=bool(lower),
        simultaneous=_validation.check_flag(simultaneous, "simultaneous"),
        bootstrap=dict(bootstrap, rng=root_entropy(rng)),
    )  # fmt: skip
