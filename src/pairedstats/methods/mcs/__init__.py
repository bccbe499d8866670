"""The best set: the model confidence set of the systems (:mod:`.spec`)."""

from . import spec  # noqa: F401  (registers)
from .result import MCSResult

__all__ = ["MCSResult"]
