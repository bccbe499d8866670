"""The ranking: each system's rank with the set of ranks it may hold (:mod:`.spec`)."""

from .result import RankResult
from .run import ranks
from .spec import SPEC

__all__ = ["SPEC", "RankResult", "ranks"]
