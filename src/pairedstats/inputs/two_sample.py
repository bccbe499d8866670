"""The two independent samples of the rank-sum test, from arrays, tables and datasets."""

from __future__ import annotations

import itertools

import numpy as np

from ..core._warn import warn
from ..core.design import TwoSampleDesign, unit_roundoff
from .datasets import check_dims, dimension_labels
from .frames import check_by, check_columns, group_codes
from .labels import (
    as_list,
    check_labels,
    label_positions,
    object_array,
    pandas_module,
    quoted,
)
from .paired import DroppedDataWarning, group_phrase
from .scores import numeric_scores

__all__ = [
    "check_two_sample",
    "missing_group_labels_error",
    "two_sample_from_arrays",
    "two_sample_from_dataset",
    "two_sample_from_frame",
]


def _finite_sample(values, arg: str, label) -> tuple[np.ndarray, int]:
    if np.ndim(values) != 1:
        raise ValueError(f"`{arg}` must be one-dimensional; got shape {np.shape(values)}.")
    arr = numeric_scores(values, arg, f"the scores of {label!r}")
    if np.isinf(arr).any():
        raise ValueError(
            f"`{arg}`: scores must be finite; group {label!r} has {int(np.isinf(arr).sum())} "
            "infinite value(s)."
        )
    return arr, int(np.isnan(arr).sum())


def two_sample_from_arrays(a, b, *, labels=("a", "b")) -> TwoSampleDesign:
    """Two 1-D samples (NaN not allowed) as a one-group design.

    Examples
    --------
    >>> d = two_sample_from_arrays([1.0, 2.0], [3.0, 4.0, 5.0])
    >>> d.samples(0)[1].tolist()
    [3.0, 4.0, 5.0]
    """
    xa, na = _finite_sample(a, "a", labels[0])
    xb, nb = _finite_sample(b, "b", labels[1])
    for arg, x, n, label, given in (("a", xa, na, labels[0], a), ("b", xb, nb, labels[1], b)):
        if n:
            kind = "NaN or masked" if isinstance(given, np.ma.MaskedArray) else "NaN"
            raise ValueError(
                f"`{arg}`: scores must not be {kind}; group {label!r} has {n} {kind} "
                "value(s). Remove them first (the test needs every value)."
            )
        if x.size == 0:
            raise ValueError(
                f"`{arg}`: each group needs at least 1 value; group {label!r} has none (`{arg}` "
                "is empty)."
            )
    precision = unit_roundoff(*(np.asarray(x).dtype for x in (a, b)))
    return _two_sample([xa], [xb], labels, "score", [], [()], [0], precision)


def _two_sample(list_a, list_b, labels, column, group_names, group_keys, dropped, precision):
    off = lambda parts: np.concatenate([[0], np.cumsum([len(p) for p in parts])]).astype(np.int64)
    design = TwoSampleDesign(
        a=np.concatenate(list_a),
        b=np.concatenate(list_b),
        a_offsets=off(list_a),
        b_offsets=off(list_b),
        labels=tuple(labels),
        column=column,
        group_names=tuple(group_names),
        group_keys=tuple(group_keys),
        dropped=tuple(int(d) for d in dropped),
        precision=precision,
    )
    return check_two_sample(design, "score")


def check_two_sample(design, arg: str = "design") -> TwoSampleDesign:
    """The rules of the two samples, for a design given as it is: finite scores and at least
    one value in each sample of each group.

    Examples
    --------
    >>> d = TwoSampleDesign(a=np.array([1.0]), b=np.array([]), a_offsets=np.array([0, 1]),
    ...                     b_offsets=np.array([0, 0]))
    >>> check_two_sample(d)
    Traceback (most recent call last):
    ...
    ValueError: `design`: each group needs at least 1 value; group 'b' has none.
    """
    if not isinstance(design, TwoSampleDesign):
        raise TypeError(
            f"`design` must be a TwoSampleDesign; got {type(design).__name__}. Make one with "
            "pairedstats.inputs.two_sample_from_arrays, two_sample_from_frame or "
            "two_sample_from_dataset."
        )
    for side, values in zip(design.labels, (design.a, design.b), strict=True):
        bad = int(np.count_nonzero(~np.isfinite(values)))
        if bad:
            raise ValueError(
                f"`{arg}`: scores must be finite; group {side!r} has {bad} NaN or infinite "
                "value(s)."
            )
    for g in range(design.n_groups):
        for side, sample in zip(design.labels, design.samples(g), strict=True):
            if sample.size < 1:
                where = group_phrase(design.group_names, design.group_keys[g])
                raise ValueError(
                    f"`{arg}`: each group needs at least 1 value; group {side!r} has none{where}."
                )
    return design


def _pick_labels(available: list, a, b, arg: str):
    if a is None and b is None:
        if len(available) != 2:
            raise ValueError(
                f"`a`, `b`: {arg} has {len(available)} labels ({quoted(available)}); name the two "
                "to compare with `a=` and `b=`."
            )
        return available[0], available[1]
    if a is None or b is None:
        raise ValueError(f"`a`, `b`: give both or neither; got a={a!r}, b={b!r}.")
    unknown = [x for x in (a, b) if x not in available]
    if unknown:
        raise ValueError(
            f"`a`, `b`: unknown label(s) {quoted(unknown)}; {arg} has {quoted(available, 30)}."
        )
    if a == b:
        raise ValueError(f"`a`, `b`: the two groups must differ; got {a!r} twice.")
    return a, b


def _trailing_nan(x: np.ndarray, arg: str, label) -> np.ndarray:
    nan = np.isnan(x)
    if not nan.any():
        return x
    last = len(x) - int(np.argmax(~nan[::-1])) if (~nan).any() else 0
    if nan[:last].any():
        raise ValueError(
            f"`{arg}`: column {label!r} has NaN before its last value ({int(nan[:last].sum())} "
            "inside the column); in a wide table only trailing NaN (unequal lengths) are "
            "allowed. Use a tidy table with a group column instead."
        )
    return x[:last]


def _rows_by_code(code: np.ndarray, n_groups: int) -> list[np.ndarray]:
    """The row numbers of each group code, in table order (one sort, not a scan per group)."""
    order = np.argsort(code, kind="stable")
    bounds = np.searchsorted(code[order], np.arange(n_groups + 1))
    return [order[lo:hi] for lo, hi in itertools.pairwise(bounds.tolist())]


def missing_group_labels_error(group, count: int) -> ValueError:
    """The error of a tidy table whose ``group`` column has ``count`` missing labels
    (counted over the whole table)."""
    return ValueError(f"`group`: column {group!r} has {count} missing label(s).")


def two_sample_from_frame(frame, *, score=None, group=None, a=None, b=None, by=None,
                          group_order=None):  # fmt: skip
    """The two samples of the rank-sum test from a tidy or a wide table.

    Tidy: ``group`` names the column of group labels and ``score`` the scores; ``a`` and
    ``b`` pick the two labels (default: the only two, in order of appearance). NaN scores
    are an error. Wide: ``a`` and ``b`` name two columns (default: the only two numeric
    ones); unequal lengths are given by trailing NaN, which are counted and reported.
    ``group_order`` (tidy tables) gives the group labels of a larger table that ``frame``
    holds some ``by=`` groups of, in that table's order of first appearance
    (:mod:`pairedstats.dask_frames`), so ``a`` and ``b`` are picked as in the whole table.
    """
    by = as_list(by, "by")
    if group is not None:
        if score is None:
            raise ValueError("A tidy table needs `score` with `group`; got score=None.")
        check_columns(frame, {"score": [score], "group": [group], "by": by})
        check_by(frame, by, {"group": [group], "score": [score]})
        if frame[group].isna().any():
            raise missing_group_labels_error(group, int(frame[group].isna().sum()))
        # labels coded once, compared by code: `labels == la` would compare a tuple label
        # element by element
        label_code, uniques = pandas_module().factorize(object_array(frame[group].tolist()))
        available = list(uniques)
        if group_order is not None:  # coded among the whole table's labels
            available = list(group_order)
            positions = label_positions(available, list(uniques))
            label_code = np.asarray(positions, dtype=np.int64)[label_code]
        la, lb = _pick_labels(available, a, b, f"column {group!r}")
        code_a, code_b = label_positions(available, [la, lb])
        is_a, is_b = label_code == code_a, label_code == code_b
        values = numeric_scores(frame[score], "score", f"column {score!r}")
        nan = np.isnan(values) & (is_a | is_b)
        if nan.any():
            raise ValueError(
                f"`score`: column {score!r} has {int(nan.sum())} NaN or missing value(s) in "
                f"groups {la!r} and {lb!r}; remove them first (the number removed is yours "
                "to report)."
            )
        if np.isinf(values).any():
            raise ValueError(
                f"`score`: scores must be finite; column {score!r} has "
                f"{int(np.isinf(values).sum())} infinite value(s)."
            )
        code, keys = group_codes(frame, by)
        rows = _rows_by_code(code, len(keys))
        list_a = [values[r[is_a[r]]] for r in rows]
        list_b = [values[r[is_b[r]]] for r in rows]
        return _two_sample(list_a, list_b, (la, lb), score, by, keys, [0] * len(keys),
                           unit_roundoff(frame[score].dtype))  # fmt: skip
    reserved = set(by)
    numeric = [c for c in frame.columns if c not in reserved and frame[c].dtype.kind in "biuf"]
    if a is None and b is None:
        check_columns(frame, {"by": by})
        la, lb = _pick_labels(numeric, None, None, "the table's numeric columns")
    else:
        named = {"a": [a] if a is not None else [], "b": [b] if b is not None else []}
        check_columns(frame, {**named, "by": by})
        check_by(frame, by, named)
        la, lb = _pick_labels(list(frame.columns), a, b, "the table")
    xa_all = numeric_scores(frame[la], "a", f"column {la!r}")
    xb_all = numeric_scores(frame[lb], "b", f"column {lb!r}")
    code, keys = group_codes(frame, by)
    list_a, list_b, dropped = [], [], []
    for r in _rows_by_code(code, len(keys)):
        xa = _trailing_nan(xa_all[r], "a", la)
        xb = _trailing_nan(xb_all[r], "b", lb)
        for x, arg, label in ((xa, "a", la), (xb, "b", lb)):
            if np.isinf(x).any():
                raise ValueError(f"`{arg}`: scores must be finite; column {label!r} has inf.")
        dropped.append(2 * len(r) - len(xa) - len(xb))
        list_a.append(xa)
        list_b.append(xb)
    if sum(dropped):
        warn(
            f"ranksum: {sum(dropped)} trailing NaN value(s) of the wide table were not scores "
            f"(unequal group sizes) and were left out: column {la!r} keeps "
            f"{sum(map(len, list_a))}, column {lb!r} keeps {sum(map(len, list_b))} value(s).",
            DroppedDataWarning,
        )
    return _two_sample(list_a, list_b, (la, lb), "score", by, keys, dropped,
                       unit_roundoff(frame[la].dtype, frame[lb].dtype))  # fmt: skip


def two_sample_from_dataset(ds, *, score=None, group="group", a=None, b=None, item="item"):
    """The two samples of the rank-sum test from an :class:`xarray.Dataset`.

    ``group`` is either a dimension whose coordinate holds the labels (values along
    ``item``; NaN padding for unequal sizes is counted and reported) or a coordinate along
    ``item`` labelling each value. Every other dimension is a sweep.
    """
    check_dims(ds, {"item": item})
    if score is None:
        names = [v for v in ds.data_vars if item in ds[v].dims]
        if len(names) != 1:
            raise ValueError(
                f"`score`: name the score variable; the dataset has {quoted(list(ds.data_vars))}."
            )
        score = names[0]
    if score not in ds.data_vars:
        raise ValueError(
            f"`score`: no data variable named {score!r}; the dataset has "
            f"{quoted(list(ds.data_vars), limit=30)}."
        )
    var = ds[score]
    # every group label must be present, as in a table's group column: an item whose label
    # is missing would be left out of both samples unseen (or NaN read as a third group)
    if group in var.dims:
        available = dimension_labels(ds, group, "group")
        la, lb = _pick_labels(available, a, b, f"dimension {group!r}")
        sides = [var.isel({group: i}) for i in label_positions(available, [la, lb])]
    elif group in ds.coords and ds[group].dims == (item,):
        labels = object_array(ds[group].to_numpy().tolist())
        check_labels(labels, "group", f"{group!r} coordinate")
        # labels coded once, compared by code: `labels == la` would compare a tuple label
        # element by element
        code, uniques = pandas_module().factorize(labels)
        available = list(uniques)
        la, lb = _pick_labels(available, a, b, f"coordinate {group!r}")
        sides = [
            var.isel({item: np.flatnonzero(code == c)})
            for c in label_positions(available, [la, lb])
        ]
    else:
        raise ValueError(
            f"`group`: {group!r} is neither a dimension of {score!r} nor a coordinate along "
            f"{item!r}; the dataset has dims {quoted(list(ds.dims))} and coords "
            f"{quoted(list(ds.coords))}."
        )
    sweep = [d for d in sides[0].dims if d != item]
    sides = [s.transpose(*sweep, item) for s in sides]
    if sides[0].dtype.kind not in "biuf":
        raise TypeError(f"`score`: variable {score!r} must be numeric; got {sides[0].dtype}.")
    arrs = [np.asarray(s.values, dtype=np.float64) for s in sides]
    n_slices = int(np.prod(arrs[0].shape[:-1]))
    flat = [x.reshape(n_slices, x.shape[-1]) for x in arrs]
    keys = list(itertools.product(*[sides[0][d].to_numpy().tolist() for d in sweep]))
    list_a, list_b, dropped = [], [], []
    for s in range(n_slices):
        xa, xb = flat[0][s], flat[1][s]
        if np.isinf(xa).any() or np.isinf(xb).any():
            raise ValueError(f"`score`: scores must be finite; {score!r} has infinite values.")
        dropped.append(int(np.isnan(xa).sum() + np.isnan(xb).sum()))
        list_a.append(xa[~np.isnan(xa)])
        list_b.append(xb[~np.isnan(xb)])
    if sum(dropped):
        warn(
            f"ranksum: {sum(dropped)} NaN value(s) of {score!r} were padding (unequal group "
            "sizes) and were left out.",
            DroppedDataWarning,
        )
    return _two_sample(list_a, list_b, (la, lb), score, sweep, keys, dropped,
                       unit_roundoff(*(s.dtype for s in sides)))  # fmt: skip
