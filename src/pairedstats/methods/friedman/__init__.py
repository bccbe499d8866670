"""Friedman's test over many data sets, the post-hoc tests of all pairs and the cliques
(:mod:`.spec`)."""

from .result import FriedmanResult
from .spec import friedman, friedman_design

__all__ = ["FriedmanResult", "friedman", "friedman_design"]
