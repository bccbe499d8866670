"""The paper table: systems x metrics, each mean with the marks or letters of a test
(:mod:`.spec`)."""

from .result import Report
from .spec import SPEC

__all__ = ["SPEC", "Report"]
