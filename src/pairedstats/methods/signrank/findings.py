"""The signed-rank test's warning: a confidence level that so few non-zero differences cannot
reach, found in the comparisons of a call and warned once (:class:`Findings`)."""

from __future__ import annotations

from typing import ClassVar

from .._shared.findings import Findings as _Findings
from .._shared.findings import listing

__all__ = ["Findings", "SignrankConfidenceWarning"]


class SignrankConfidenceWarning(UserWarning):
    """The requested confidence level cannot be reached with so few non-zero differences.

    On the exact path the reported interval is the widest one the Walsh averages allow (R's
    choice), its guaranteed coverage in ``ci_coverage``; on the asymptotic path an end whose
    normal score never reaches its quantile is the extreme Walsh average (``ci_coverage`` is
    NaN).
    """


class Findings(_Findings):
    """The comparisons of a signed-rank call whose interval cannot reach the confidence
    level, warned once (:class:`pairedstats.methods._shared.findings.Findings`)."""

    KINDS: ClassVar[dict[str, tuple[type, str, str]]] = {
        "level": (
            SignrankConfidenceWarning,
            "Confidence level out of reach",
            "The widest interval of the Walsh averages is reported there (see `ci_coverage`).",
        ),
    }

    def level(self, g: int, nonzero: dict[int, int], confidence_level: float) -> None:
        """Group ``g``'s comparisons whose interval does not reach ``confidence_level``:
        comparison index -> its number of non-zero differences."""
        if nonzero:
            parts = [f"{n} non-zero differences for {self.names[c]}" for c, n in nonzero.items()]
            self.add("level", g, f"confidence_level={confidence_level} cannot be reached "
                                 f"with {listing(parts)}")  # fmt: skip
