"""The paired bootstrap (:mod:`.spec`): confidence intervals and p-values of the differences
b minus a, items (or clusters, within strata) resampled once for every system."""

from .findings import (
    DegenerateBootstrapWarning,
    MissingStratumWarning,
    NaNReplicatesWarning,
    PointDistributionWarning,
    ResolutionWarning,
    SingleUnitWarning,
)
from .result import BootstrapResult
from .spec import bootstrap, bootstrap_design

__all__ = [
    "BootstrapResult",
    "DegenerateBootstrapWarning",
    "MissingStratumWarning",
    "NaNReplicatesWarning",
    "PointDistributionWarning",
    "ResolutionWarning",
    "SingleUnitWarning",
    "bootstrap",
    "bootstrap_design",
]
