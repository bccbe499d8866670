"""McNemar's test of paired pass/fail outcomes, with Tango's score interval of the difference
of the two rates (:mod:`.spec`)."""

from .result import McNemarResult
from .spec import mcnemar, mcnemar_design

__all__ = ["McNemarResult", "mcnemar", "mcnemar_design"]
