"""The Wilcoxon signed-rank test of paired differences b - a, with the paired Hodges-Lehmann
shift (:mod:`.spec`)."""

from .findings import SignrankConfidenceWarning, SignrankPassFailWarning
from .result import SignrankResult
from .spec import signrank, signrank_design

__all__ = [
    "SignrankConfidenceWarning",
    "SignrankPassFailWarning",
    "SignrankResult",
    "signrank",
    "signrank_design",
]
