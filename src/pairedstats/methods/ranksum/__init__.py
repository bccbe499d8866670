"""The Wilcoxon rank-sum (Mann-Whitney) test of two samples, with the Hodges-Lehmann shift of
b - a (:mod:`.spec`)."""

from .findings import RanksumConfidenceWarning
from .result import RanksumResult
from .spec import ranksum, ranksum_design

__all__ = ["RanksumConfidenceWarning", "RanksumResult", "ranksum", "ranksum_design"]
