"""The rank-sum test's warning: a confidence level that so few values cannot reach, found in
the groups of a call and warned once (:class:`Findings`)."""

from __future__ import annotations

from typing import ClassVar

from ...core.ranksum import RanksumTest
from .._shared.findings import Findings as _Findings

__all__ = ["Findings", "RanksumConfidenceWarning"]


class RanksumConfidenceWarning(UserWarning):
    """The requested confidence level cannot be reached with so few values.

    The reported interval is the widest one the order statistics allow (R's choice); its
    guaranteed coverage is in the ``ci_coverage`` column.
    """


class Findings(_Findings):
    """The groups of a rank-sum call whose interval cannot reach the confidence level,
    warned once (:class:`pairedstats.methods._shared.findings.Findings`)."""

    KINDS: ClassVar[dict[str, tuple[type, str, str]]] = {
        "level": (
            RanksumConfidenceWarning,
            "Confidence level out of reach",
            "The widest interval of the differences is reported there; its guaranteed "
            "coverage is in `ci_coverage`.",
        ),
    }

    def level(self, g: int, test: RanksumTest, confidence_level: float) -> None:
        """Group ``g``'s test, whose interval does not reach ``confidence_level``."""
        self.add(
            "level", g,
            f"confidence_level={confidence_level} cannot be reached with n_a={test.n_a} and "
            f"n_b={test.n_b}; the widest interval covers with probability "
            f"{test.ci_coverage:.4g}",
        )  # fmt: skip
