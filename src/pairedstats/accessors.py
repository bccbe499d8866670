"""The ``.paired`` accessors of :class:`pandas.DataFrame`, :class:`xarray.Dataset` and
:class:`xarray.DataArray`, built from the method specs
(:mod:`pairedstats.methods._shared.registry`).

They are stateless and thin: ``__init__`` only stores the object (pandas builds a new
accessor on every attribute access, and xarray turns an error in ``__init__`` into a
``RuntimeError``). A method reads the container into a design (:mod:`pairedstats.inputs`),
runs the spec on it and returns the result as a ``DataFrame`` (pandas) or ``Dataset``
(xarray); with ``as_result=True`` it returns the result object itself. Every keyword of a
method is declared once, in its spec: the signatures and docstrings here are generated.
"""

from __future__ import annotations

from functools import partial

import pandas as pd
import xarray as xr

from . import (
    inputs,
    methods,  # noqa: F401  (imports every method: registers its spec)
)
from .core.draws import root_entropy
from .inputs import sweeps
from .methods._shared import registry

# the classes (the type stubs are written for each); call_arguments, read_design and
# finish_method serve the dask DataFrame accessor too (pairedstats.dask_frames)
__all__ = ["PairedDataArrayAccessor", "PairedDataFrameAccessor", "PairedDatasetAccessor"]

#: How each road reads each container into a design.
_READ = {
    ("paired", "frame"): inputs.design_from_frame,
    ("paired", "dataset"): inputs.design_from_dataset,
    ("two-sample", "frame"): inputs.two_sample_from_frame,
    ("two-sample", "dataset"): inputs.two_sample_from_dataset,
}


@pd.api.extensions.register_dataframe_accessor("paired")
class PairedDataFrameAccessor:
    """Paired comparisons of the systems in a tidy or wide table.

    Tidy tables have one row per (item, system): name the columns with ``item=``,
    ``system=`` and ``score=``. Wide tables have one row per item and one column per system;
    items are the index (or ``item=``). ``by=`` runs the method per group.
    """

    def __init__(self, frame: pd.DataFrame):
        self._obj = frame


@xr.register_dataset_accessor("paired")
class PairedDatasetAccessor:
    """Paired comparisons along the ``item`` and ``system`` dimensions of a Dataset.

    Every other dimension is a sweep (seeds, hyper-parameters, datasets): the result is a
    ``Dataset`` over those dimensions plus a ``comparison`` dimension. Several score
    variables add a ``score`` dimension. A dask-backed Dataset stays lazy: the result is
    computed chunk by chunk of the sweep dimensions, with the same numbers as in memory.
    """

    def __init__(self, dataset: xr.Dataset):
        self._obj = dataset


@xr.register_dataarray_accessor("paired")
class PairedDataArrayAccessor:
    """The Dataset accessor on a DataArray: ``da.paired.<method>(...)`` is
    ``da.to_dataset().paired.<method>(...)``, the array being the score variable (named
    ``da.name``, or ``"score"`` when it has no name).

    Examples
    --------
    >>> import numpy as np, xarray as xr
    >>> da = xr.DataArray(np.arange(12.0).reshape(6, 2) ** 1.5, dims=("item", "system"),
    ...                   coords={"system": ["a", "b"]}, name="ndcg")
    >>> res = da.paired.bootstrap(n_resamples=500, rng=1)
    >>> float(res["difference"].item()) == float((da.sel(system="b") - da.sel(system="a")).mean())
    True
    """

    def __init__(self, array: xr.DataArray):
        self._obj = array

    def _dataset(self) -> PairedDatasetAccessor:
        name = self._obj.name if self._obj.name is not None else "score"
        return PairedDatasetAccessor(self._obj.to_dataset(name=name))


# ------------------------------------------------------------------ the generated methods
def _frame_method(spec: registry.MethodSpec):
    def method(self, *args, **kwargs):
        given, keywords, as_result = call_arguments(spec, "frame", args, kwargs)
        result = spec.execute(read_design(spec, "frame", self._obj, given), as_result, keywords)
        return result if as_result else result.to_dataframe()

    return finish_method(method, spec, "frame")


def _dataset_method(spec: registry.MethodSpec):
    def method(self, *args, **kwargs):
        given, keywords, as_result = call_arguments(spec, "dataset", args, kwargs)
        seed, threads, columns = spec.role("seed"), spec.role("threads"), spec.role("columns")
        if seed is not None:  # one root for every chunk of a lazy sweep
            keywords[seed] = root_entropy(keywords[seed])
        ds = self._obj
        if spec.road == "paired":
            given["columns_as_score"] = columns is not None and keywords[columns] is not None
            variables = inputs.score_variables(ds, given["score"], given["item"], given["system"])
            core = (given["item"], given["system"])
            core = (*core, *(given[k] for k in ("replicate", "repeat") if given.get(k)))
        else:
            score, group, item = given["score"], given["group"], given["item"]
            variables = [score] if score is not None else list(ds.data_vars)
            core = (item, group) if group in ds.dims else (item,)
        if as_result or not spec.lazy or not sweeps.is_lazy(ds, variables):
            return _eager(ds, name=spec.name, given=given, keywords=keywords, keep=as_result)
        if threads is not None and keywords[threads] is None:
            # dask runs the chunks in parallel already: one thread per task avoids running
            # 2 threads in each of several worker processes (the numbers do not depend on it)
            keywords[threads] = 1
        eager = partial(_eager, name=spec.name, given=given, keywords=keywords)
        return sweeps.map_sweep(ds[variables], eager, core)

    return finish_method(method, spec, "dataset")


def _dataarray_method(spec: registry.MethodSpec):
    def method(self, *args, **kwargs):
        return getattr(self._dataset(), spec.name)(*args, **kwargs)

    return finish_method(method, spec, "dataset")


def read_design(spec, container: str, obj, given: dict, **reader):
    """The design of a call; for a method of several metrics (``spec.metrics``), one design
    per metric, ``{metric: design}``, each read on its own (its missing values, its dtype).
    ``reader``: further keywords of the reader (the labels of the whole table, which the dask
    road gives the reading of some of its groups)."""
    read = partial(_READ[spec.road, container], **reader)
    if not spec.metrics:
        return read(obj, **given)
    score = given["score"]
    if score is None and container == "dataset":
        score = list(obj.data_vars)
    metrics = [score] if score is None or isinstance(score, str) else list(score)
    if not metrics or len(set(map(str, metrics))) != len(metrics):
        raise ValueError(f"`score`: give one or more distinct metrics; got {score!r}")
    return {("score" if m is None else m): read(obj, **{**given, "score": m}) for m in metrics}


def _eager(ds, *, name: str, given: dict, keywords: dict, keep: bool = False):
    """The in-memory path of a Dataset method: design, method, result (as a Dataset)."""
    spec = registry.SPECS[name]
    result = spec.execute(read_design(spec, "dataset", ds, given), keep, keywords)
    return result if keep else result.to_dataset()


def call_arguments(spec, container, args, kwargs) -> tuple[dict, dict, bool]:
    """The call's input keywords, its method keywords (a required one may come by position,
    ``Keyword.positional``), and whether it returns the result object (``as_result=True``,
    or a method without a table)."""
    arguments = registry.bind(spec, container, args, kwargs)
    as_result = bool(arguments.pop("as_result", True))
    names = spec.inputs[container]
    given = {k: arguments.pop(k) for k in names}
    return given, arguments, as_result


def finish_method(method, spec, container):
    method.__name__ = method.__qualname__ = spec.name
    method.__doc__ = registry.docstring(spec, container)
    method.__signature__ = registry.signature(spec, container, self_=True)
    method.__annotations__ = registry.annotations(method.__signature__)
    return method


for _spec in registry.SPECS.values():
    setattr(PairedDataFrameAccessor, _spec.name, _frame_method(_spec))
    setattr(PairedDatasetAccessor, _spec.name, _dataset_method(_spec))
    setattr(PairedDataArrayAccessor, _spec.name, _dataarray_method(_spec))
