"""xarray datasets: ``item`` and ``system`` dimensions; every other dimension is a sweep."""

from __future__ import annotations

import itertools

import numpy as np

from ..core.design import PairedDesign, unit_roundoff
from .labels import (
    as_list,
    check_labels,
    label_positions,
    object_array,
    pandas_module,
    quoted,
    select_systems,
)
from .paired import finish
from .repeats import dataset_cells, with_repeats
from .replicates import replicate_cells
from .scores import check_infinite, check_missing, check_missing_arg, numeric_scores

__all__ = ["design_from_dataset", "score_variables"]


def dimension_labels(ds, dim: str, arg: str) -> list:
    """The labels along ``dim`` (its coordinate, or positions): present, distinct, not empty.

    Every label keys something (a system, an item's place in the canonical order, a sweep
    cell's random streams), so a missing or repeated label is refused.
    """
    if ds.sizes[dim] == 0:
        raise ValueError(f"`{arg}`: dimension {dim!r} has length 0; there is nothing to compare.")
    labels = ds[dim].to_numpy().tolist() if dim in ds.coords else list(range(ds.sizes[dim]))
    check_labels(labels, arg, f"{dim!r} coordinate")
    codes, uniques = pandas_module().factorize(object_array(labels))
    if len(uniques) != len(labels):
        repeated = uniques[int(np.flatnonzero(np.bincount(codes) > 1)[0])]
        raise ValueError(
            f"`{arg}`: the coordinate {dim!r} has the label {repeated!r} more than once; each "
            "position along a dimension needs its own label."
        )
    return labels


def check_dims(ds, wanted: dict[str, str]) -> None:
    for arg, dim in wanted.items():
        if dim not in ds.dims:
            raise ValueError(
                f"`{arg}`: no dimension named {dim!r}; the dataset has the dimensions "
                f"{quoted(list(ds.dims), limit=30)}."
            )


def score_variables(ds, score, item, system) -> list:
    if score is None:
        names = [v for v in ds.data_vars if {item, system} <= set(ds[v].dims)]
        if not names:
            raise ValueError(
                f"`score`: no data variable has both the {item!r} and {system!r} dimensions; "
                f"the variables are {quoted(list(ds.data_vars), limit=30)}."
            )
        return names
    names = as_list(score, "score")
    unknown = [n for n in names if n not in ds.data_vars]
    if unknown:
        raise ValueError(
            f"`score`: no data variable named {quoted(unknown)}; the dataset has "
            f"{quoted(list(ds.data_vars), limit=30)}."
        )
    for n in names:
        if not {item, system} <= set(ds[n].dims):
            raise ValueError(
                f"`score`: variable {n!r} must have the dimensions {item!r} and {system!r}; "
                f"it has {tuple(ds[n].dims)}."
            )
    return names


def _item_coord(ds, name, item, arg):
    if name is None:
        return None
    if name not in ds.coords and name not in ds.data_vars:
        raise ValueError(
            f"`{arg}`: no coordinate named {name!r}; the dataset has "
            f"{quoted(list(ds.coords), limit=30)}."
        )
    values = ds[name]
    if values.dims != (item,):
        raise ValueError(
            f"`{arg}`: {name!r} must be a coordinate along {item!r} alone; it has dims "
            f"{values.dims}."
        )
    labels = object_array(values.to_numpy().tolist())
    check_labels(labels, arg, f"{name!r}")
    return labels


def design_from_dataset(
    ds,
    *,
    item="item",
    system="system",
    score=None,
    systems=None,
    cluster=None,
    strata=None,
    replicate=None,
    repeat=None,
    missing: str = "raise",
    columns_as_score: bool = False,
) -> PairedDesign:
    """Turn an :class:`xarray.Dataset` into a design whose groups are the sweep slices.

    ``item`` and ``system`` name dimensions. Every other dimension of the score variables
    is a sweep; several score variables add a ``score`` sweep unless ``columns_as_score``
    makes them the columns of one statistic. Group keys are the sweep coordinates.
    ``replicate`` names a dimension of repeated runs (seeds, epochs, folds): a system's
    replicates are the labels along it where it has scores (NaN elsewhere), read by the
    rules of :mod:`pairedstats.inputs.replicates`. ``repeat`` names the dimension of the
    repetitions of an r x k cross-validation: its cells with the ``item`` dimension (the
    folds) are the items (:mod:`pairedstats.inputs.repeats`).
    """
    missing = check_missing_arg(missing)
    if repeat is not None:
        ds, item = dataset_cells(ds, item, repeat)
    check_dims(ds, {"item": item, "system": system})

    names = score_variables(ds, score, item, system)
    _check_replicate_dim(ds, names, replicate, columns_as_score)
    available = dimension_labels(ds, system, "systems")
    chosen = select_systems(available, None if systems is None else as_list(systems, "systems"))
    # by position: a label list would be turned into one numpy array by `.sel`, which
    # makes 1 and "1" the same text and tuples rows
    sub = ds[names].isel({system: label_positions(available, chosen)})
    data = [sub[n] for n in names]
    import xarray as xr

    stacked = xr.concat(data, dim="__column").assign_coords(__column=names)
    # one variable, or the columns of a statistic: the variables are the last axis; several
    # variables otherwise: a leading "score" sweep and a last axis of one column
    as_columns = columns_as_score or len(names) == 1
    sweep = [d for d in stacked.dims if d not in (item, system, replicate, "__column")]
    if not as_columns:
        sweep = ["__column", *sweep]
        stacked = stacked.expand_dims("__one")
    last = "__column" if as_columns else "__one"
    if replicate is not None:
        stacked = stacked.transpose(*sweep, item, system, replicate, last)
        stacked = stacked.isel({last: 0})
    else:
        stacked = stacked.transpose(*sweep, item, system, last)
    if stacked.dtype.kind not in "biuf":
        raise TypeError(f"`score`: variables must be numeric; got dtype {stacked.dtype}.")
    for d in sweep:
        if d != "__column":
            dimension_labels(stacked, d, "score")
    arr = numeric_scores(stacked.values, "score", "the score variables")
    n_slices = int(np.prod(arr.shape[: len(sweep)]))
    n_items = arr.shape[len(sweep)]
    arr = arr.reshape(n_slices * n_items, len(chosen), arr.shape[-1])
    public = ["score" if d == "__column" else d for d in sweep]
    coords = [stacked[d].to_numpy().tolist() for d in sweep]
    group_keys = list(itertools.product(*coords))  # C order, as the reshape; [()] if no sweep
    group_code = np.repeat(np.arange(n_slices), n_items)
    item_labels = np.tile(object_array(dimension_labels(ds, item, "item")), n_slices)

    def where(idx):
        return f"item {item_labels[idx[0]]!r}, system {chosen[idx[1]]!r}"

    check_infinite(arr, "score", where)
    cells, rep_labels = None, ()
    if replicate is None:
        present = np.ones(arr.shape[:2], dtype=bool)
        complete = check_missing(present, arr, item_labels, chosen, "score", missing)
    else:
        arr, cells, rep_labels, complete = _replicate_cells(
            arr, dimension_labels(ds, replicate, "replicate"), chosen, item_labels, missing
        )
    cl = _item_coord(ds, cluster, item, "cluster")
    st = _item_coord(ds, strata, item, "strata")
    columns = names if as_columns else ["score"]
    design = finish(
        arr,
        item_labels,
        chosen,
        columns,
        group_code,
        public,
        group_keys,
        None if cl is None else np.tile(cl, n_slices),
        None if st is None else np.tile(st, n_slices),
        complete,
        "score",
        unit_roundoff(*(ds[n].dtype for n in names)),
        cells,
        rep_labels,
        missing=missing,
    )
    return design if repeat is None else with_repeats(design)


def _check_replicate_dim(ds, names, replicate, columns_as_score) -> None:
    """``replicate`` names a dimension of every score variable; the mean only."""
    if replicate is None:
        return
    check_dims(ds, {"replicate": replicate})
    if columns_as_score:
        raise ValueError(
            "`replicate`: repeated runs are averaged, so they work with the mean, without "
            "`statistic`."
        )
    lacking = [n for n in names if replicate not in ds[n].dims]
    if lacking:
        raise ValueError(
            f"`replicate`: the score variable(s) {quoted(lacking)} lack the dimension "
            f"{replicate!r} of the repeated runs."
        )


def _replicate_cells(arr, labels, systems, items, missing):
    """The observed (not NaN) cells of ``arr`` (rows, systems, replicates) as observations
    of :func:`pairedstats.inputs.replicates.replicate_cells`."""
    rows, sys_code, rep = np.nonzero(~np.isnan(arr))
    if rows.size == 0:
        raise ValueError("`replicate`: every score is missing (NaN).")
    return replicate_cells(
        rows, sys_code, object_array(labels)[rep], arr[rows, sys_code, rep], arr.shape[0],
        systems, items, missing,
    )  # fmt: skip
