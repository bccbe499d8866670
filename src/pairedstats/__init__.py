"""pairedstats: honest comparisons of systems measured on the same items.

``import pairedstats`` registers the ``.paired`` accessor on :class:`pandas.DataFrame` and
:class:`xarray.Dataset`::

    df.paired.bootstrap(item="query", system="run", score="ndcg", baseline="bm25")
    df.paired.tukey_hsd(item="query", system="run", score="ndcg")
    df.paired.ranksum(score="deviation", group="changed", a="unchanged", b="changed")

The same methods exist as functions on arrays (:func:`bootstrap`, :func:`tukey_hsd`,
:func:`ranksum`) returning result objects.
"""

from . import accessors as _accessors  # noqa: F401  (registers .paired)
from . import datasets
from ._inputs import DroppedDataWarning
from ._version import __version__

__all__ = ["DroppedDataWarning", "__version__", "datasets"]
