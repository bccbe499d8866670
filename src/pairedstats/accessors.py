"""The ``.paired`` accessors of :class:`pandas.DataFrame` and :class:`xarray.Dataset`.

They are stateless and thin: ``__init__`` only stores the object (pandas builds a new
accessor on every attribute access, and xarray turns an error in ``__init__`` into a
``RuntimeError``). A method turns column or dimension names into a design
(:mod:`pairedstats.inputs`), calls the method's functional API, and returns the result as a
``DataFrame`` (pandas) or ``Dataset`` (xarray). With ``as_result=True`` it returns the result
object itself (with, e.g., the bootstrap distribution).
"""

from __future__ import annotations

from functools import partial

import pandas as pd
import xarray as xr

from . import inputs
from .core.streams import root_entropy
from .inputs import sweeps

__all__ = ["PairedDataFrameAccessor", "PairedDatasetAccessor"]


@pd.api.extensions.register_dataframe_accessor("paired")
class PairedDataFrameAccessor:
    """Paired comparisons of the systems in a tidy or wide table.

    Tidy tables have one row per (item, system): name the columns with ``item=``,
    ``system=`` and ``score=``. Wide tables have one row per item and one column per system;
    items are the index (or ``item=``). ``by=`` runs the method per group.
    """

    def __init__(self, frame: pd.DataFrame):
        self._obj = frame

    def bootstrap(
        self,
        *,
        item=None,
        system=None,
        score=None,
        systems=None,
        baseline=None,
        by=None,
        cluster=None,
        strata=None,
        weights=None,
        statistic=None,
        n_resamples: int = 10_000,
        confidence_level: float = 0.95,
        method: str = "percentile",
        resampling: str = "auto",
        missing: str = "raise",
        rng=None,
        as_result: bool = False,
    ):
        """Paired bootstrap confidence intervals of b minus a.

        See :func:`pairedstats.bootstrap` for the keywords and the returned columns.

        Examples
        --------
        >>> import pairedstats
        >>> df = pairedstats.datasets.load_runs()
        >>> res = df.paired.bootstrap(item="query", system="run", score="ndcg",
        ...                           baseline="bm25", n_resamples=2000, rng=1)
        >>> list(res.columns[:4])
        ['system_a', 'system_b', 'mean_a', 'mean_b']
        """
        design = inputs.design_from_frame(
            self._obj, item=item, system=system, score=score, systems=systems, by=by,
            cluster=cluster, strata=strata, missing=missing,
        )  # fmt: skip
        result = _method("bootstrap")(
            design, baseline=baseline, weights=weights, statistic=statistic,
            n_resamples=n_resamples, confidence_level=confidence_level, method=method,
            resampling=resampling, rng=rng, keep_distribution=as_result,
        )  # fmt: skip
        return result if as_result else result.to_dataframe()

    def tukey_hsd(
        self,
        *,
        item=None,
        system=None,
        score=None,
        systems=None,
        by=None,
        n_resamples: int = 10_000,
        missing: str = "raise",
        rng=None,
        as_result: bool = False,
        **keywords,
    ):
        """Randomized Tukey HSD over all pairs of systems.

        See :func:`pairedstats.tukey_hsd` for the keywords (``exact``, ``monitor``,
        ``every``, ``progress``) and the returned columns.

        Examples
        --------
        >>> import pairedstats
        >>> df = pairedstats.datasets.load_runs()
        >>> res = df.paired.tukey_hsd(item="query", system="run", score="ndcg",
        ...                           n_resamples=2000, rng=1)
        >>> len(res)  # 4 runs: 6 pairs
        6
        """
        design = inputs.design_from_frame(
            self._obj, item=item, system=system, score=score, systems=systems, by=by,
            missing=missing,
        )  # fmt: skip
        result = _method("tukey_hsd")(design, n_resamples=n_resamples, rng=rng, **keywords)
        return result if as_result else result.to_dataframe()

    def ranksum(
        self,
        *,
        score=None,
        group=None,
        a=None,
        b=None,
        by=None,
        alternative: str = "two-sided",
        confidence_level: float = 0.95,
        method: str = "auto",
        correction: bool = True,
        as_result: bool = False,
    ):
        """Wilcoxon rank-sum test of b against a, with the Hodges-Lehmann shift.

        Tidy: ``group`` names the label column and ``score`` the scores; wide: ``a`` and
        ``b`` name two columns (unequal lengths by trailing NaN, counted and reported). See
        :func:`pairedstats.ranksum` for the returned columns.

        Examples
        --------
        >>> import pairedstats
        >>> df = pairedstats.datasets.load_ratings()
        >>> res = df.paired.ranksum(score="deviation", group="changed",
        ...                         a="unchanged", b="changed")
        >>> list(res.columns[:2])
        ['group_a', 'group_b']
        """
        design = inputs.two_sample_from_frame(self._obj, score=score, group=group, a=a, b=b, by=by)
        result = _method("ranksum")(
            design, alternative=alternative, confidence_level=confidence_level,
            method=method, correction=correction,
        )  # fmt: skip
        return result if as_result else result.to_dataframe()


def _method(name: str):
    """The design-level function of a method (imported on first use)."""
    if name == "bootstrap":
        from .bootstrap import bootstrap_design as run
    elif name == "tukey_hsd":
        from .tukey import tukey_hsd_design as run
    else:
        from .ranksum import ranksum_design as run
    return run


def _dataset_method(ds, *, name: str, design_kw: dict, method_kw: dict, as_result=False):
    """The in-memory path of a Dataset method: design, method, result (as a Dataset)."""
    build = inputs.two_sample_from_dataset if name == "ranksum" else inputs.design_from_dataset
    result = _method(name)(build(ds, **design_kw), **method_kw)
    return result if as_result else result.to_dataset()


def _dataset_result(ds, name, design_kw, method_kw, variables, core_dims, as_result):
    """Run in memory, or lazily chunk by chunk when the variables are dask arrays."""
    if as_result or not sweeps.is_lazy(ds, variables):
        return _dataset_method(
            ds, name=name, design_kw=design_kw, method_kw=method_kw, as_result=as_result
        )
    if name != "ranksum" and method_kw.get("workers") is None:
        # dask runs the chunks in parallel already: one thread per task avoids running
        # 2 threads in each of several worker processes (the counts do not depend on it)
        method_kw = {**method_kw, "workers": 1}
    eager = partial(_dataset_method, name=name, design_kw=design_kw, method_kw=method_kw)
    return sweeps.map_sweep(ds[variables], eager, core_dims)


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

    def bootstrap(
        self,
        *,
        item="item",
        system="system",
        score=None,
        systems=None,
        baseline=None,
        cluster=None,
        strata=None,
        weights=None,
        statistic=None,
        n_resamples: int = 10_000,
        confidence_level: float = 0.95,
        method: str = "percentile",
        resampling: str = "auto",
        missing: str = "raise",
        rng=None,
        as_result: bool = False,
    ):
        """Paired bootstrap over each sweep slice; see :func:`pairedstats.bootstrap`."""
        design_kw = dict(
            item=item, system=system, score=score, systems=systems, cluster=cluster,
            strata=strata, missing=missing, columns_as_score=statistic is not None,
        )  # fmt: skip
        method_kw = dict(
            baseline=baseline, weights=weights, statistic=statistic, n_resamples=n_resamples,
            confidence_level=confidence_level, method=method, resampling=resampling,
            rng=root_entropy(rng), keep_distribution=as_result,
        )  # fmt: skip
        variables = inputs.score_variables(self._obj, score, item, system)
        return _dataset_result(
            self._obj, "bootstrap", design_kw, method_kw, variables, (item, system), as_result
        )

    def tukey_hsd(
        self,
        *,
        item="item",
        system="system",
        score=None,
        systems=None,
        n_resamples: int = 10_000,
        missing: str = "raise",
        rng=None,
        as_result: bool = False,
        **keywords,
    ):
        """Randomized Tukey HSD over each sweep slice; see :func:`pairedstats.tukey_hsd`."""
        design_kw = dict(item=item, system=system, score=score, systems=systems, missing=missing)
        method_kw = dict(n_resamples=n_resamples, rng=root_entropy(rng), **keywords)
        variables = inputs.score_variables(self._obj, score, item, system)
        return _dataset_result(
            self._obj, "tukey_hsd", design_kw, method_kw, variables, (item, system), as_result
        )

    def ranksum(
        self,
        *,
        score=None,
        group="group",
        a=None,
        b=None,
        item="item",
        alternative: str = "two-sided",
        confidence_level: float = 0.95,
        method: str = "auto",
        correction: bool = True,
        as_result: bool = False,
    ):
        """Rank-sum test along ``item``, swept over the other dimensions.

        ``group`` is a dimension holding the two labels, or a coordinate along ``item``;
        see :func:`pairedstats.ranksum`.
        """
        design_kw = dict(score=score, group=group, a=a, b=b, item=item)
        method_kw = dict(
            alternative=alternative, confidence_level=confidence_level, method=method,
            correction=correction,
        )  # fmt: skip
        variables = [score] if score is not None else list(self._obj.data_vars)
        core = (item, group) if group in self._obj.dims else (item,)
        return _dataset_result(self._obj, "ranksum", design_kw, method_kw, variables, core,
                               as_result)  # fmt: skip


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

    def bootstrap(self, **keywords):
        """:meth:`PairedDatasetAccessor.bootstrap` on this array."""
        return self._dataset().bootstrap(**keywords)

    def tukey_hsd(self, **keywords):
        """:meth:`PairedDatasetAccessor.tukey_hsd` on this array."""
        return self._dataset().tukey_hsd(**keywords)

    def ranksum(self, **keywords):
        """:meth:`PairedDatasetAccessor.ranksum` on this array."""
        return self._dataset().ranksum(**keywords)
