"""Arrays of shape (n_items, n_systems[, n_columns]): the array API of every paired method."""

from __future__ import annotations

import numpy as np

from ..core.design import PairedDesign, unit_roundoff
from .labels import as_list, check_labels, object_array, select_systems
from .paired import finish
from .repeats import with_repeats
from .scores import check_infinite, check_missing, check_missing_arg, numeric_scores

__all__ = ["design_from_array"]


def design_from_array(
    scores,
    *,
    systems=None,
    columns=None,
    groups=None,
    items=None,
    cluster=None,
    strata=None,
    replicate=None,
    repeat=None,
    missing: str = "raise",
) -> PairedDesign:
    """Turn an array of shape (n_items, n_systems[, n_columns]) into a design.

    ``systems`` labels the columns (default ``0, 1, ...``); ``items``, ``groups``,
    ``cluster`` and ``strata`` give one label per row and follow the rules of table columns.
    Every paired method reads its array argument through this function, so an array is
    accepted or refused with the same message by all of them. With ``replicate`` (the labels
    of repeated runs), ``scores`` has shape (n_items, n_systems, n_replicates): the last
    axis holds the runs, NaN where a system has no such run (a system's replicates are the
    labels where it has scores; :mod:`pairedstats.inputs.replicates`). With ``repeat`` (one
    repetition label per row), the items are the ``(repetition, item)`` cells of an r x k
    cross-validation (:mod:`pairedstats.inputs.repeats`).

    Examples
    --------
    >>> d = design_from_array([[0.5, 0.7], [0.2, 0.3], [0.4, 0.4]], systems=["a", "b"])
    >>> d.systems, d.n_items().tolist()
    (('a', 'b'), [3])
    """
    missing = check_missing_arg(missing)
    arr, precision = _score_array(scores)
    if replicate is not None:
        if np.ndim(scores) != 3 or columns is not None:
            raise ValueError(
                "`replicate`: repeated runs need `scores` of shape (n_items, n_systems, "
                f"n_replicates), one label per run in `replicate`; got shape {np.shape(scores)}."
            )
        replicate = as_list(replicate, "replicate")
        if len(replicate) != arr.shape[2]:
            raise ValueError(
                f"`replicate` must label each of the {arr.shape[2]} runs (the last axis of "
                f"`scores`); got {len(replicate)} labels."
            )
    n, k = arr.shape[:2]
    systems = list(range(k)) if systems is None else as_list(systems, "systems")
    if len(systems) != k:
        raise ValueError(
            f"`systems` must name each of the {k} columns of `scores`; got {len(systems)} names."
        )
    select_systems(systems, None)
    if replicate is not None:
        return _with_replicates(arr, replicate, systems, items, groups, cluster, strata,
                                missing, precision)  # fmt: skip
    columns = (
        [f"score{c}" if arr.shape[2] > 1 else "score" for c in range(arr.shape[2])]
        if columns is None
        else as_list(columns, "columns")
    )
    if len(columns) != arr.shape[2]:
        raise ValueError(
            f"`columns` must name each of the {arr.shape[2]} score columns of `scores`; got "
            f"{len(columns)} names."
        )
    items = np.arange(n, dtype=object) if items is None else object_array(items)
    extras = {"items": items, "groups": groups, "cluster": cluster, "strata": strata,
              "repeat": repeat}  # fmt: skip
    for name, values in extras.items():
        if values is not None and len(values) != n:
            raise ValueError(f"`{name}` must have one entry per item ({n}); got {len(values)}.")
    if repeat is not None:
        check_labels(object_array(repeat), "repeat", "repetition")
        items = object_array(zip(object_array(repeat).tolist(), items.tolist(), strict=True))

    def where(idx):
        return f"row {idx[0]}, system {systems[idx[1]]!r}"

    check_infinite(arr, "scores", where)
    present = np.ones((n, k), dtype=bool)
    complete = check_missing(present, arr, items, systems, "scores", missing)
    if groups is None:
        group_code, group_keys, group_names = np.zeros(n, dtype=np.int64), [()], []
    else:
        groups = object_array(groups).tolist()
        labels = list(dict.fromkeys(groups))
        lookup = {v: i for i, v in enumerate(labels)}
        group_code = np.array([lookup[v] for v in groups], dtype=np.int64)
        group_keys, group_names = [(v,) for v in labels], ["group"]
    cluster, strata = (None if x is None else object_array(x) for x in (cluster, strata))
    design = finish(
        arr, items, systems, columns, group_code, group_names, group_keys, cluster, strata,
        complete, "scores", precision, missing=missing,
    )  # fmt: skip
    return design if repeat is None else with_repeats(design)


def _with_replicates(arr, replicate, systems, items, groups, cluster, strata, missing,
                     precision) -> PairedDesign:  # fmt: skip
    """An array of runs (n_items, n_systems, n_replicates), through the tidy rules."""
    from .replicates import replicate_cells

    n = arr.shape[0]
    items = np.arange(n, dtype=object) if items is None else object_array(items)
    for name, values in {"items": items, "groups": groups, "cluster": cluster,
                         "strata": strata}.items():  # fmt: skip
        if values is not None and len(values) != n:
            raise ValueError(f"`{name}` must have one entry per item ({n}); got {len(values)}.")
    check_infinite(arr, "scores", lambda idx: f"row {idx[0]}, system {systems[idx[1]]!r}")
    rows, sys_code, rep = np.nonzero(~np.isnan(arr))
    means, cells, labels, complete = replicate_cells(
        rows, sys_code, object_array(replicate)[rep], arr[rows, sys_code, rep], n, systems,
        items, missing,
    )  # fmt: skip
    if groups is None:
        group_code, group_keys, group_names = np.zeros(n, dtype=np.int64), [()], []
    else:
        groups = object_array(groups).tolist()
        keys = list(dict.fromkeys(groups))
        group_code = np.array([keys.index(v) for v in groups], dtype=np.int64)
        group_keys, group_names = [(v,) for v in keys], ["group"]
    cluster, strata = (None if x is None else object_array(x) for x in (cluster, strata))
    return finish(
        means, items, systems, ["score"], group_code, group_names, group_keys, cluster,
        strata, complete, "scores", precision, cells, labels, missing=missing,
    )  # fmt: skip


_SHAPES = "(n_items, n_systems) or (n_items, n_systems, n_columns)"


def _score_array(scores) -> tuple[np.ndarray, float]:
    """The scores as a float64 array of 3 dimensions, and the unit roundoff of their dtype.

    A masked array (or a list of them) keeps its mask: masked cells are missing scores
    (:func:`pairedstats.inputs.scores._masked`), where ``np.asarray`` would read the data
    under the mask.
    """
    masked = isinstance(scores, np.ma.MaskedArray) or (
        isinstance(scores, (list, tuple)) and any(isinstance(r, np.ma.MaskedArray) for r in scores)
    )
    try:
        given = np.ma.asarray(scores) if masked else np.asarray(scores)
    except ValueError:  # ragged nested sequences
        raise ValueError(
            f"`scores` must have shape {_SHAPES}; got a ragged sequence (rows of different "
            "lengths). Give one score per item and system."
        ) from None
    if given.ndim not in (2, 3):
        raise ValueError(
            f"`scores` must have shape {_SHAPES}; got {given.ndim} dimensions {given.shape}."
        )
    arr = numeric_scores(given, "scores", "the scores")
    return (arr[:, :, None] if arr.ndim == 2 else arr), unit_roundoff(given.dtype)
