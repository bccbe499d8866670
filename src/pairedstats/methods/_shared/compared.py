"""What the methods of one row per comparison of paired scores share in their settings: the
design (one score column, checked) and the comparisons, of a baseline or of all pairs
(:class:`Compared`, :func:`compared`)."""

from __future__ import annotations

from dataclasses import dataclass

from ... import _validation
from ...core.design import PairedDesign, comparison_pairs
from ...inputs import check_design
from .options import Checked

__all__ = ["Compared", "compared"]


@dataclass(frozen=True, kw_only=True)
class Compared(Checked):
    """The base of the ``Settings`` of a method of one row per comparison of paired scores:
    ``class Settings(Options, Compared)``.

    Attributes
    ----------
    design : PairedDesign
        The scores (one score column), checked.
    pairs : tuple of (int, int)
        The comparisons ``(a, b)``, system indices, b - a
        (:func:`pairedstats.core.design.comparison_pairs`).
    """

    design: PairedDesign
    pairs: tuple[tuple[int, int], ...]


def compared(design, baseline, method: str, **check) -> dict:
    """The fields of :class:`Compared` and the checked ``baseline``: ``design`` checked
    (:func:`pairedstats.inputs.check_design` with ``check``) to hold one score column, and
    the comparisons of ``baseline`` (one of its systems) or of all pairs."""
    design = check_design(design, **check)
    if design.scores.shape[2] != 1:
        raise ValueError(
            f"`score` must name one score column for {method}; got "
            f"{design.scores.shape[2]} columns {tuple(design.columns)!r}."
        )
    baseline = _validation.check_baseline(baseline, design.systems)
    return {
        "design": design,
        "baseline": baseline,
        "pairs": tuple(comparison_pairs(design.systems, baseline)),
    }
