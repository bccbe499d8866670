"""The paired sign test: the exact binomial test of the signs of b - a, with the
Clopper-Pearson interval of the win rate P(b > a | b != a) (:mod:`.spec`)."""

from .result import SigntestResult
from .spec import signtest, signtest_design

__all__ = ["SigntestResult", "signtest", "signtest_design"]
