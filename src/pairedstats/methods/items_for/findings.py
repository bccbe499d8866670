"""The plan's warning: comparisons whose items needed (or detectable difference) the table
cannot estimate, found in the groups of a call and warned once per kind (:class:`Findings`)."""

from __future__ import annotations

from typing import ClassVar

from .._shared.findings import Findings as _Findings
from .._shared.findings import listing

__all__ = ["Findings", "PlanningWarning"]


class PlanningWarning(UserWarning):
    """The table cannot give the items needed (or the detectable difference) of some
    comparisons: those cells are NaN."""


class Findings(_Findings):
    """What the comparisons of a plan showed, warned once per kind
    (:class:`pairedstats.methods._shared.findings.Findings`)."""

    KINDS: ClassVar[dict[str, tuple[type, str, str]]] = {
        "no_spread": (
            PlanningWarning,
            "No spread of the per-item differences",
            "Every item gives the same difference b - a (for 0/1 scores: no item on which "
            "the systems differ), so the table says nothing of the spread a plan needs; "
            "`n_items_needed` and `detectable_difference` are NaN there. Plan from "
            "pairedstats.items_for(difference, standard_deviation=...) with a spread from "
            "elsewhere.",
        ),
        "beyond": (
            PlanningWarning,
            "The difference exceeds the discordant rate",
            "Two pass rates differ by at most the share of items on which the systems "
            "differ; at the discordant rate of the table no number of items shows that "
            "difference, so `n_items_needed` is NaN there.",
        ),
        "too_many": (
            PlanningWarning,
            "More than 1,000,000,000 items would be needed",
            "The difference is too small against the spread of the differences; "
            "`n_items_needed` is NaN there.",
        ),
        "undetectable": (
            PlanningWarning,
            "No difference is detectable at the table's size",
            "At the table's discordant rate, no difference of pass rates that it allows "
            "reaches the power with so few items; `detectable_difference` is NaN there.",
        ),
    }

    def flag(self, kind: str, g: int, comparisons: list[int]) -> None:
        """Group ``g``'s ``comparisons`` (indices) of ``kind``."""
        if comparisons:
            self.add(kind, g, "for " + listing([self.names[c] for c in comparisons]))
