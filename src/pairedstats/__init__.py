"""pairedstats: honest comparisons of systems measured on the same items.

``import pairedstats`` registers the ``.paired`` accessor on :class:`pandas.DataFrame`,
:class:`xarray.Dataset` and :class:`xarray.DataArray`::

    df.paired.bootstrap(item="query", system="run", score="ndcg", baseline="bm25")
    df.paired.tukey_hsd(item="query", system="run", score="ndcg")
    df.paired.ranksum(score="deviation", group="changed", a="unchanged", b="changed")
    df.paired.report(item="query", system="run", score=["ndcg", "p10"], baseline="bm25")
    df.paired.signrank(item="query", system="run", score="ndcg", baseline="bm25")
    df.paired.rank(item="query", system="run", score="ndcg")
    df.paired.mcs(item="query", system="run", score="ndcg")
    df.paired.items_for(0.02, item="query", system="run", score="ndcg", baseline="bm25")
    df.paired.mcnemar(item="question", system="model", score="correct", baseline="base")

The same methods exist as functions on arrays (:func:`bootstrap`, :func:`tukey_hsd`,
:func:`ranksum`, :func:`signrank`) returning result objects.
"""

from . import accessors as _accessors  # noqa: F401  (registers .paired)
from . import datasets, display, inputs
from ._paired import paired
from ._version import __version__
from .core.design import PairedDesign, TwoSampleDesign
from .core.montecarlo import HDIWidth, MonteCarloPValue, StandardError, trials_for
from .core.power import detectable_difference, items_for
from .inputs import DroppedDataWarning
from .methods._shared.results import ComparisonResult, IntervalRule, PValueRule
from .methods.bootstrap import (
    BootstrapResult,
    DegenerateBootstrapWarning,
    MissingStratumWarning,
    NaNReplicatesWarning,
    PointDistributionWarning,
    ResolutionWarning,
    SingleUnitWarning,
    bootstrap,
    bootstrap_design,
)
from .methods.friedman import FriedmanResult, friedman, friedman_design
from .methods.items_for import ItemsForResult, PlanningWarning
from .methods.mcnemar import McNemarResult, mcnemar, mcnemar_design
from .methods.mcs import MCSResult, McsResult
from .methods.rank import RankResult
from .methods.ranksum import RanksumConfidenceWarning, RanksumResult, ranksum, ranksum_design
from .methods.report import Report
from .methods.signrank import (
    SignrankConfidenceWarning,
    SignrankPassFailWarning,
    SignrankResult,
    signrank,
    signrank_design,
)
from .methods.tukey_hsd import (
    Checkpoint,
    TukeyHSDResult,
    TukeyHSDRun,
    tukey_hsd,
    tukey_hsd_design,
    tukey_hsd_run,
)

__all__ = [
    "BootstrapResult",
    "Checkpoint",
    "ComparisonResult",
    "DegenerateBootstrapWarning",
    "DroppedDataWarning",
    "FriedmanResult",
    "HDIWidth",
    "IntervalRule",
    "ItemsForResult",
    "MCSResult",
    "McNemarResult",
    "McsResult",
    "MissingStratumWarning",
    "MonteCarloPValue",
    "NaNReplicatesWarning",
    "PValueRule",
    "PairedDesign",
    "PlanningWarning",
    "PointDistributionWarning",
    "RankResult",
    "RanksumConfidenceWarning",
    "RanksumResult",
    "Report",
    "ResolutionWarning",
    "SignrankConfidenceWarning",
    "SignrankPassFailWarning",
    "SignrankResult",
    "SingleUnitWarning",
    "StandardError",
    "TukeyHSDResult",
    "TukeyHSDRun",
    "TwoSampleDesign",
    "__version__",
    "bootstrap",
    "bootstrap_design",
    "datasets",
    "detectable_difference",
    "display",
    "friedman",
    "friedman_design",
    "inputs",
    "items_for",
    "mcnemar",
    "mcnemar_design",
    "paired",
    "ranksum",
    "ranksum_design",
    "signrank",
    "signrank_design",
    "trials_for",
    "tukey_hsd",
    "tukey_hsd_design",
    "tukey_hsd_run",
]
