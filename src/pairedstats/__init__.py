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

On :class:`dask.dataframe.DataFrame` (``pip install "pairedstats[dask]"``) the same
accessor computes each ``by=`` group as a task of its own, with the pandas road's numbers
(:mod:`pairedstats.dask_frames`); ``import pairedstats`` does not import dask itself.

Evaluation logs of language-model harnesses are read as tidy tables by
:func:`read_lm_eval` (lm-evaluation-harness) and :func:`read_inspect` (inspect-ai).

The same methods exist as functions on arrays (:func:`bootstrap`, :func:`tukey_hsd`,
:func:`ranksum`, :func:`signrank`) returning result objects.
"""

from . import accessors as _accessors  # noqa: F401  (registers .paired)
from . import dask_frames as _dask_frames
from . import datasets, display, inputs
from . import methods as _methods
from ._paired import paired
from ._version import __version__
from .core.design import PairedDesign, TwoSampleDesign
from .core.montecarlo import HDIWidth, MonteCarloPValue, StandardError, trials_for
from .core.power import detectable_difference, items_for
from .harnesses import read_inspect, read_lm_eval
from .inputs import DroppedDataWarning
from .methods._shared.results import ComparisonResult, IntervalRule, PValueRule

# dask DataFrames: now if dask.dataframe is imported, else when it is (dask is an extra)
_dask_frames.install()

#: The method folders' public names (:data:`pairedstats.methods.EXPORTS`), found, not listed.
globals().update(_methods.EXPORTS)

__all__ = [
    "ComparisonResult",
    "DroppedDataWarning",
    "HDIWidth",
    "IntervalRule",
    "MonteCarloPValue",
    "PValueRule",
    "PairedDesign",
    "StandardError",
    "TwoSampleDesign",
    "__version__",
    "datasets",
    "detectable_difference",
    "display",
    "inputs",
    "items_for",
    "paired",
    "read_inspect",
    "read_lm_eval",
    "trials_for",
]
__all__ += _methods.EXPORTS
__all__.sort()
