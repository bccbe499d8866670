"""The best set: the model confidence set of the systems (:mod:`.spec`)."""

from .result import McsResult
from .spec import SPEC

__all__ = ["SPEC", "McsResult"]
