"""``pairedstats.paired(obj)``: the ``.paired`` accessor of a DataFrame, Dataset or DataArray,
typed for type checkers and IDEs.

``df.paired`` is registered at run time (``pandas.api.extensions.register_dataframe_accessor``,
``xarray.register_dataset_accessor``), which no type checker can see: to mypy, pyright or an
IDE, a ``DataFrame`` has no attribute ``paired``, so neither completion nor keyword checks
reach its methods. ``paired(df)`` returns the same accessor, declared as the accessor class,
whose methods the stubs (``accessors.pyi``, written by ``python -m pairedstats._stubs``)
spell out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, overload

import pandas as pd
import xarray as xr

if TYPE_CHECKING:
    from .accessors import (
        PairedDataArrayAccessor,
        PairedDataFrameAccessor,
        PairedDatasetAccessor,
    )

__all__ = ["paired"]


# xarray first: without pandas-stubs, pandas is untyped and a DataFrame is Any to a type
# checker, which an overload taking a DataFrame would match whatever the argument.
@overload
def paired(obj: xr.Dataset) -> PairedDatasetAccessor: ...
@overload
def paired(obj: xr.DataArray) -> PairedDataArrayAccessor: ...
@overload
def paired(obj: pd.DataFrame) -> PairedDataFrameAccessor: ...
def paired(obj):
    """The ``.paired`` accessor of ``obj``, typed: ``pairedstats.paired(df).bootstrap(...)``
    is ``df.paired.bootstrap(...)``, with the method's keywords known to type checkers and
    IDEs.

    Parameters
    ----------
    obj : pandas.DataFrame, xarray.Dataset or xarray.DataArray
        The data.

    Returns
    -------
    PairedDataFrameAccessor, PairedDatasetAccessor or PairedDataArrayAccessor
        ``obj.paired``.

    Examples
    --------
    >>> import pairedstats
    >>> runs = pairedstats.datasets.load_runs()
    >>> table = pairedstats.paired(runs).bootstrap(
    ...     item="query", system="run", score="ndcg", baseline="bm25", by="collection",
    ...     n_resamples=1000, rng=1)
    >>> table.equals(runs.paired.bootstrap(
    ...     item="query", system="run", score="ndcg", baseline="bm25", by="collection",
    ...     n_resamples=1000, rng=1))
    True
    """
    if not isinstance(obj, pd.DataFrame | xr.Dataset | xr.DataArray):
        raise TypeError(
            "paired() takes a pandas DataFrame, an xarray Dataset or an xarray DataArray; "
            f"got {type(obj).__name__}."
        )
    return obj.paired
