"""The randomized Tukey HSD test (:mod:`.spec`): which pairs of systems differ, or which
systems differ from a baseline, with the multiplicity handled."""

from .result import Checkpoint, TukeyHSDResult
from .run import TukeyHSDRun
from .spec import tukey_hsd, tukey_hsd_design, tukey_hsd_run

__all__ = ["Checkpoint", "TukeyHSDResult", "TukeyHSDRun", "tukey_hsd", "tukey_hsd_design",
           "tukey_hsd_run"]  # fmt: skip
