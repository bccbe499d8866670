"""The ranking: each system's rank with the set of ranks it may hold (:mod:`.spec`)."""

from . import spec  # noqa: F401  (registers)
from .result import RankResult

__all__ = ["RankResult"]
