"""The paper table: systems x metrics, each mean with the marks or letters of a test
(:mod:`.spec`)."""

from . import spec  # noqa: F401  (registers)
from .result import Report

__all__ = ["Report"]
