"""What the methods of one row per comparison of paired scores share in their settings: the
design (one score column, checked) and the comparisons, of a baseline or of all pairs
(:class:`Compared`, :func:`compared`)."""

from __future__ import annotations

from dataclasses import dataclass

from ... import _validation
from ...core.design import PairedDesign, comparison_pairs
from ...core.summed import SummedDesign
from ...inputs import check_design, check_summed
from .options import Checked

__all__ = ["Compared", "compared"]


@dataclass(frozen=True, kw_only=True)
class Compared(Checked):
    """The base of the ``Settings`` of a method of one row per comparison of paired scores:
    ``class Settings(Options, Compared)``.

    Attributes
    ----------
    design : PairedDesign or SummedDesign
        The scores (one score column), checked; or their sums (the streaming road).
    pairs : tuple of (int, int)
        The comparisons ``(a, b)``, system indices, b - a
        (:func:`pairedstats.core.design.comparison_pairs`).
    """

    design: PairedDesign | SummedDesign
    pairs: tuple[tuple[int, int], ...]


def compared(design, baseline, method: str, **check) -> dict:
    """The fields of :class:`Compared` and the checked ``baseline``: ``design`` checked
    (:func:`pairedstats.inputs.check_design` with ``check``) to hold one score column, and
    the comparisons of ``baseline`` (one of its systems) or of all pairs."""
    if isinstance(design, SummedDesign):  # the streaming road's sums: of one column
        design = check_summed(design)
    elif check_design(design, **check).scores.shape[2] != 1:
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
