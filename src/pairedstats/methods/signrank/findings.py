"""The signed-rank test's warnings: a confidence level that so few non-zero differences cannot
reach, and pass/fail (0/1) scores, on which the test is McNemar's without its interval; found
in the comparisons of a call and warned once per kind (:class:`Findings`)."""

from __future__ import annotations

from typing import ClassVar

from .._shared.findings import Findings as _Findings
from .._shared.findings import binary_comparisons, listing

__all__ = ["Findings", "SignrankConfidenceWarning", "SignrankPassFailWarning"]


class SignrankConfidenceWarning(UserWarning):
    """The requested confidence level cannot be reached with so few non-zero differences.

    On the exact path the reported interval is the widest one the Walsh averages allow (R's
    choice), its guaranteed coverage in ``ci_coverage``; on the asymptotic path an end whose
    normal score never reaches its quantile is the extreme Walsh average (``ci_coverage`` is
    NaN).
    """


class SignrankPassFailWarning(UserWarning):
    """The scores of a comparison are all 0 or 1 (pass/fail).

    Every difference is -1, 0 or +1: the zeros (the items both systems pass or both fail) are
    dropped and the others share one rank, so the test is the sign test of the discordant
    items (McNemar's test) and the shift is -1, 0 or +1 (or half-way). ``mcnemar`` gives that
    test with an interval of the difference of the pass rates.
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
        "pass_fail": (
            SignrankPassFailWarning,
            "Scores all 0 or 1 (pass/fail)",
            "The items both systems pass or both fail are zero differences, dropped (their "
            "number is `n_zeros`), and the others all have size 1: the test is the sign test "
            "of the discordant items, McNemar's test, and the shift is -1, 0 or +1 (or "
            "half-way), which says nothing about how much the pass rates differ. "
            "df.paired.mcnemar(...) tests such a comparison, exactly or asymptotically, with "
            "Tango's interval of the difference of the pass rates.",
        ),
    }

    def pass_fail(self, pairs) -> None:
        """The comparisons whose two systems' scores are all 0 or 1, in every group (the
        bootstrap's rule, :func:`~pairedstats.methods._shared.findings.binary_comparisons`)."""
        self.comparisons("pass_fail", binary_comparisons(self.design, pairs, None))

    def level(self, g: int, nonzero: dict[int, int], confidence_level: float) -> None:
        """Group ``g``'s comparisons whose interval does not reach ``confidence_level``:
        comparison index -> its number of non-zero differences."""
        if nonzero:
            parts = [f"{n} non-zero differences for {self.names[c]}" for c, n in nonzero.items()]
            self.add("level", g, f"confidence_level={confidence_level} cannot be reached "
                                 f"with {listing(parts)}")  # fmt: skip
