"""The best set: the model confidence set of the systems (:mod:`.spec`)."""

from .result import MCSResult, McsResult
from .spec import SPEC

__all__ = ["SPEC", "MCSResult", "McsResult"]
