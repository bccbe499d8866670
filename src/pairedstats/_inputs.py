"""The input layer: pandas tables, xarray datasets and arrays become validated designs.

One function per shape, shared by every method:

* :func:`design_from_frame`: tidy (``item``, ``system``, ``score`` columns) or wide (items as
  rows, systems as columns) tables, with ``systems=``, ``by=``, ``cluster=``, ``strata=``;
* :func:`design_from_dataset`: an :class:`xarray.Dataset` with ``item`` and ``system``
  dimensions; every other dimension is a sweep, flattened into groups;
* :func:`design_from_array`: the array API;
* :func:`two_sample_from_frame`, :func:`two_sample_from_dataset`,
  :func:`two_sample_from_arrays`: the two independent samples of the rank-sum test.

Every check raises an error that names the argument, the rule and what was received. Nothing
is dropped silently: ``missing="complete"`` drops incomplete items and says how many
(:class:`DroppedDataWarning`).
"""

from __future__ import annotations

import itertools
import numbers
from collections.abc import Iterable, Mapping, Set
from dataclasses import replace

import numpy as np

from ._validation import check_choice
from .core._warn import warn
from .core.design import PairedDesign, TwoSampleDesign, unit_roundoff
from .core.streams import canonical_bytes

__all__ = [
    "DroppedDataWarning",
    "design_from_array",
    "design_from_dataset",
    "design_from_frame",
    "two_sample_from_arrays",
    "two_sample_from_dataset",
    "two_sample_from_frame",
]

_EXAMPLES = 5


class DroppedDataWarning(UserWarning):
    """Data were dropped because the caller asked for it (``missing="complete"``)."""


# --------------------------------------------------------------------------- helpers
def _as_list(value, name: str) -> list:
    """Names or labels as a list: one label, or any ordered collection of them.

    A string (or any non-iterable) is one label; a list, tuple, numpy array, pandas Index or
    Series, range, ... is a collection (a tuple label is given inside a list). Sets and
    mappings have no order and are refused: the order of systems decides the pairs.
    """
    if value is None:
        return []
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        return [value]
    if isinstance(value, (Set, Mapping)):
        raise TypeError(
            f"`{name}` must be a label or an ordered collection of labels (a list); got a "
            f"{type(value).__name__}, which has no order."
        )
    out = [x.item() if isinstance(x, np.generic) else x for x in value]
    if len(set(map(repr, out))) != len(out):
        raise ValueError(f"`{name}` names a column more than once; got {out!r}.")
    return out


def _fmt(labels, limit: int = _EXAMPLES) -> str:
    labels = list(labels)
    text = ", ".join(repr(x.item() if isinstance(x, np.generic) else x) for x in labels[:limit])
    if len(labels) > limit:
        text += f", ... ({len(labels)} in all)"
    return text


def _check_columns(frame, wanted: dict[str, list]) -> None:
    """Every name in ``wanted`` (argument -> names) must name exactly one column of
    ``frame``, and no index level (a name that is both is ambiguous)."""
    index_names = {n for n in frame.index.names if n is not None}
    for arg, names in wanted.items():
        for name in names:
            try:
                loc = frame.columns.get_loc(name)
            except (KeyError, TypeError, ValueError):
                loc = None
            if loc is None:
                raise ValueError(
                    f"`{arg}`: no column named {name!r}; the table has the columns "
                    f"{_fmt(frame.columns, limit=30)}."
                )
            if not isinstance(loc, (int, np.integer)):
                kind = (
                    "names a level of the MultiIndex columns, not one column: name a column "
                    f"by its full tuple, and give tuple names inside a list ({arg}=[('a', "
                    "'b'), ...]): a bare tuple is read as several names"
                    if isinstance(frame.columns, _pandas().MultiIndex)
                    else "names several columns of the table: rename the duplicates first"
                )
                raise ValueError(f"`{arg}`: {name!r} {kind}.")
            if name in index_names:
                raise ValueError(
                    f"`{arg}`: {name!r} names both a column and an index level, so the table "
                    "does not say which holds the labels; rename one of them (e.g. "
                    "df.rename_axis(index=None))."
                )


def _pandas():
    import pandas

    return pandas


def _check_labels(values, arg: str, what: str, items=None) -> None:
    """Labels must not be missing (NaN, None, NaT, pd.NA): each must name something."""
    missing = np.asarray(_pandas().isna(_object_array(values)), dtype=bool)
    if missing.any():
        first = int(np.argmax(missing))
        where = f"for item {items[first]!r}" if items is not None else f"at position {first}"
        raise ValueError(
            f"`{arg}`: {int(missing.sum())} {what} label(s) are missing (NaN or None), the "
            f"first {where}; every label must name something. Fill or drop those first."
        )


def _object_array(values) -> np.ndarray:
    """A 1-D object array of ``values`` (tuples stay elements, not rows)."""
    values = values.tolist() if isinstance(values, np.ndarray) else list(values)
    values = [v.item() if isinstance(v, np.generic) else v for v in values]
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


#: Largest magnitude of an integer score: above it, float64 does not hold every integer.
_EXACT_INT = 2**53


def _numeric(values, arg: str, what: str) -> np.ndarray:
    """Scores as float64, or a TypeError/ValueError saying which value cannot be one.

    Integers must be exact as floats (magnitude at most 2**53); pandas' nullable types
    (Int64, Float64, boolean) turn their missing values into NaN.
    """
    pd = _pandas()
    if isinstance(values, (pd.Series, pd.Index)) and values.dtype.kind in "biuf":
        values = values.to_numpy(dtype=np.float64 if values.hasnans else None, na_value=np.nan)
    arr = np.asarray(values)
    if arr.dtype.kind in "iu":
        _check_exact_ints(arr, arg, what)
    if arr.dtype.kind in "biuf":
        return arr.astype(np.float64, copy=False)
    if arr.dtype.kind == "c":
        raise TypeError(f"`{arg}`: {what} must be real numbers; got complex values.")
    flat = arr.reshape(-1)
    out = np.empty(flat.size)
    for i, v in enumerate(flat.tolist()):
        if v is None or v is pd.NA:
            out[i] = np.nan
            continue
        if isinstance(v, (str, bytes)) or not isinstance(v, numbers.Real):
            raise TypeError(
                f"`{arg}`: {what} must be numeric; got dtype {arr.dtype} with the non-numeric "
                f"value {v!r}. Convert the column first (e.g. pandas.to_numeric)."
            )
        if isinstance(v, numbers.Integral) and abs(int(v)) > _EXACT_INT:
            _check_exact_ints(np.array([int(v)], dtype=object), arg, what)
        out[i] = float(v)
    return out.reshape(arr.shape)


def _check_exact_ints(arr: np.ndarray, arg: str, what: str) -> None:
    big = arr[(arr > _EXACT_INT) | (arr < -_EXACT_INT)] if arr.size else arr
    if big.size:
        raise ValueError(
            f"`{arg}`: {what} must be integers of magnitude at most 2**53, which float64 "
            f"holds exactly; got {int(big.flat[0])}, whose differences would be rounded. "
            "Subtract a common offset first (e.g. the column's minimum) or divide by a "
            "power of ten."
        )


def _check_infinite(scores: np.ndarray, arg: str, where) -> None:
    inf = np.isinf(scores)
    if inf.any():
        idx = np.argwhere(inf)
        raise ValueError(
            f"`{arg}`: scores must be finite; got {int(inf.sum())} infinite value(s), the first "
            f"at {where(idx[0])}. Replace or remove them before the comparison."
        )


def _check_missing(present: np.ndarray, scores: np.ndarray, items, systems, arg, missing):
    """Return the mask of complete rows; raise unless ``missing='complete'``."""
    nan = np.isnan(scores).any(axis=-1) & present
    absent = ~present
    bad = nan | absent
    if not bad.any():
        return np.ones(len(items), dtype=bool)
    if missing == "complete":
        return ~bad.any(axis=1)
    parts = []
    if nan.any():
        per_sys = nan.sum(axis=0)
        listing = ", ".join(f"{systems[j]!r}: {int(c)}" for j, c in enumerate(per_sys) if c)
        r, s = np.argwhere(nan)[0]
        parts.append(
            f"{int(nan.sum())} NaN or missing score(s) (by system: {listing}; the first for "
            f"item {items[r]!r} and system {systems[s]!r})"
        )
    if absent.any():
        r, s = np.argwhere(absent)[0]
        n_items = int(absent.any(axis=1).sum())
        parts.append(
            f"{int(absent.sum())} (item, system) pair(s) with no row: {n_items} item(s) are "
            f"missing for some systems (the first: item {items[r]!r} has no score for system "
            f"{systems[s]!r})"
        )
    raise ValueError(
        f"`{arg}`: every item needs a score for every system; found "
        + " and ".join(parts)
        + ". Fix the data, or pass missing='complete' to keep only the items scored for "
        "every system (the number dropped is reported)."
    )


def _check_missing_arg(missing) -> str:
    return check_choice(missing, "missing", ("raise", "complete"))


def _label_kind(label) -> tuple:
    if isinstance(label, numbers.Real) and not isinstance(label, (bool, np.bool_)):
        return (0, "")
    return (1, type(label).__name__)


def canonical_ranks(labels) -> np.ndarray:
    """Each label's rank in the canonical order of items.

    Items are sorted by label, so the rows of a table (and the draws that follow items)
    do not depend on the order the rows came in. Labels of several kinds that do not
    compare with each other (numbers mixed with text) are sorted numbers first, then by
    the name of their type, then by value; values that still do not compare (tuples of
    mixed kinds) by their canonical encoding (:func:`pairedstats.core.streams.canonical_bytes`).

    Examples
    --------
    >>> canonical_ranks(["q10", "q2", "q1"]).tolist()
    [1, 2, 0]
    >>> canonical_ranks([3, "a", 1]).tolist()  # numbers before text
    [1, 2, 0]
    """
    pd = _pandas()
    codes, uniques = pd.factorize(_object_array(labels), sort=False)
    index = pd.Index(uniques, tupleize_cols=False).infer_objects()
    try:
        order = np.asarray(index.argsort(), dtype=np.intp)
    except TypeError:  # labels of several kinds: numbers first, then by type, then value
        kinds = [_label_kind(u) for u in uniques]
        try:
            order = np.array(sorted(range(len(uniques)), key=lambda i: (kinds[i], uniques[i])))
        except TypeError:
            keys = [(kinds[i], canonical_bytes(u)) for i, u in enumerate(uniques)]
            order = np.array(sorted(range(len(uniques)), key=keys.__getitem__))
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return rank[codes]


def _finish(
    scores,
    items,
    systems,
    columns,
    group_code,
    group_names,
    group_keys,
    cluster,
    strata,
    complete,
    score_arg,
    precision: float = 2.0**-53,
) -> PairedDesign:
    """Check the labels, drop incomplete rows (if asked), put the rows in their canonical
    order (by group, then item label), check sizes and magnitudes, build the design."""
    _check_labels(items, "item", "item")
    _check_labels(systems, "systems", "system")
    for arg, values, what in (("cluster", cluster, "cluster"), ("strata", strata, "stratum")):
        if values is not None:
            _check_labels(values, arg, what, items)
    _check_group_keys(group_names, group_keys)
    n_groups = len(group_keys)
    dropped_by_group = np.zeros(n_groups, dtype=np.int64)
    if not complete.all():
        np.add.at(dropped_by_group, group_code[~complete], 1)
        keep = complete
        scores, items, group_code = scores[keep], items[keep], group_code[keep]
        cluster = None if cluster is None else cluster[keep]
        strata = None if strata is None else strata[keep]
        where = "" if not group_names else " across groups"
        warn(
            f"missing='complete' dropped {int((~complete).sum())} of {len(complete)} item(s)"
            f"{where} that lacked a score for some system.",
            DroppedDataWarning,
        )
    ranks = canonical_ranks(items)
    order = np.lexsort((ranks, group_code))
    scores, items, group_code = scores[order], items[order], group_code[order]
    _check_unique_items(items, ranks[order], group_code, group_names, group_keys)
    counts = np.bincount(group_code, minlength=n_groups)
    small = np.flatnonzero(counts < 2)
    if small.size:
        g = small[0]
        where = f" in group {dict(zip(group_names, group_keys[g]))}" if group_names else ""
        raise ValueError(
            f"`{score_arg}`: a comparison needs at least 2 items{where}; got {int(counts[g])}."
        )
    offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    _check_magnitude(scores, int(counts.max()), score_arg)

    def codes(values):
        if values is None:
            return None, ()
        values = _object_array(values)[order]
        labels = tuple(dict.fromkeys(values.tolist()))
        lookup = {v: i for i, v in enumerate(labels)}
        return np.array([lookup[v] for v in values.tolist()], dtype=np.int64), labels

    cluster_codes, cluster_labels = codes(cluster)
    strata_codes, strata_labels = codes(strata)
    return PairedDesign(
        scores=np.ascontiguousarray(scores, dtype=np.float64),
        systems=tuple(systems),
        columns=tuple(columns),
        offsets=offsets,
        group_names=tuple(group_names),
        group_keys=tuple(group_keys),
        items=items,
        cluster=cluster_codes,
        cluster_labels=cluster_labels,
        strata=strata_codes,
        strata_labels=strata_labels,
        dropped=int(dropped_by_group.sum()),
        dropped_by_group=tuple(int(x) for x in dropped_by_group),
        precision=precision,
    )


def _check_group_keys(group_names, group_keys) -> None:
    for j, name in enumerate(group_names):
        _check_labels([key[j] for key in group_keys], "by", f"{name!r} group")


def _where(group_names, key) -> str:
    return f" in group {dict(zip(group_names, key))}" if group_names else ""


def _check_unique_items(items, ranks, group_code, group_names, group_keys) -> None:
    """Rows sorted by (group, item rank): an item label seen twice in a group is refused."""
    same = (ranks[1:] == ranks[:-1]) & (group_code[1:] == group_code[:-1])
    if same.any():
        first = int(np.argmax(same))
        where = _where(group_names, group_keys[group_code[first]])
        raise ValueError(
            f"`item`: each item must have one row; found {int(same.sum())} duplicated item "
            f"label(s){where} (the first: {items[first]!r}). Aggregate or remove the "
            "duplicates first."
        )


def _check_magnitude(scores: np.ndarray, n_items: int, arg: str) -> None:
    """Sums of ``n_items`` scores and differences of two must stay finite."""
    largest = float(np.nanmax(np.abs(scores))) if scores.size else 0.0
    if largest > np.finfo(np.float64).max / (2.0 * (n_items + 1)):
        raise ValueError(
            f"`{arg}`: scores as large as {largest:.3g} overflow when summed over "
            f"{n_items} items; rescale them first (e.g. divide by 1e{int(np.log10(largest))})."
        )


def _select_systems(available: list, systems, arg: str = "systems") -> list:
    if systems is None:
        chosen = available
    else:
        chosen = _as_list(systems, arg)
        known = set(available)
        unknown = [s for s in chosen if s not in known]
        if unknown:
            raise ValueError(
                f"`{arg}`: unknown system(s) {_fmt(unknown)}; the systems are "
                f"{_fmt(available, limit=30)}."
            )
    codes, uniques = _pandas().factorize(_object_array(chosen))
    if len(uniques) < len(chosen):
        first = int(np.flatnonzero(np.bincount(codes) > 1)[0])
        same = [x for x, c in zip(chosen, codes) if c == first]
        raise ValueError(
            f"`{arg}`: the system labels {_fmt(same)} are equal as values (1 == 1.0 == True), "
            "so tables and dictionaries would take them for one system; give them distinct "
            "labels."
        )
    if len(chosen) < 2:
        raise ValueError(
            f"`{arg}`: a comparison needs at least 2 systems; got {len(chosen)}"
            + (f" ({_fmt(chosen)})" if chosen else "")
            + "."
        )
    return list(chosen)


def _group_codes(frame, by: list):
    """Per-row group codes and the keys, in order of first appearance."""
    if not by:
        return np.zeros(len(frame), dtype=np.int64), [()]
    nulls = frame[by].isna().any(axis=1)
    if nulls.any():
        raise ValueError(
            f"`by`: group keys must not be missing; {int(nulls.sum())} row(s) have a missing "
            f"value in {_fmt(by)}."
        )
    grouped = frame.groupby(by, sort=False, dropna=False)
    code = grouped.ngroup().to_numpy(np.int64)
    first = np.unique(code, return_index=True)[1]
    columns = [frame[b].iloc[first].tolist() for b in by]  # Python scalars, one call each
    keys = [
        tuple(k.item() if isinstance(k, np.generic) else k for k in key) for key in zip(*columns)
    ]
    return code, keys


def _per_item_label(frame, rows, column: str, arg: str, item_name: str):
    """The value of ``column`` for each design row; it must be constant within an item."""
    values = frame[column]
    if values.isna().any():
        raise ValueError(
            f"`{arg}`: column {column!r} has {int(values.isna().sum())} missing value(s); "
            "every item needs a label."
        )
    out = np.empty(rows.max() + 1, dtype=object)
    out[rows] = values.to_numpy(dtype=object)
    check = values.groupby(rows).nunique()
    bad = check[check > 1]
    if len(bad):
        raise ValueError(
            f"`{arg}`: column {column!r} must have one value per item; {len(bad)} item(s) "
            f"have several (for example {item_name} number {int(bad.index[0])})."
        )
    return out


# --------------------------------------------------------------------------- pandas
def design_from_frame(
    frame,
    *,
    item=None,
    system=None,
    score=None,
    systems=None,
    by=None,
    cluster=None,
    strata=None,
    missing: str = "raise",
) -> PairedDesign:
    """Turn a tidy or wide :class:`pandas.DataFrame` into a :class:`PairedDesign`.

    Tidy when ``system`` is given (then ``item`` and ``score`` are required too): one row
    per (item, system). Wide otherwise: one row per item, one column per system; items are
    the index or the column ``item``; systems are the remaining numeric columns or
    ``systems``.

    Examples
    --------
    >>> import pandas as pd
    >>> tidy = pd.DataFrame({"q": [1, 1, 2, 2], "run": ["a", "b", "a", "b"],
    ...                      "ndcg": [0.5, 0.7, 0.2, 0.3]})
    >>> d = design_from_frame(tidy, item="q", system="run", score="ndcg")
    >>> d.systems, d.scores[:, :, 0].tolist()
    (('a', 'b'), [[0.5, 0.7], [0.2, 0.3]])
    >>> wide = tidy.pivot(index="q", columns="run", values="ndcg")
    >>> design_from_frame(wide).scores[:, :, 0].tolist()
    [[0.5, 0.7], [0.2, 0.3]]
    """
    missing = _check_missing_arg(missing)
    by = _as_list(by, "by")
    systems = None if systems is None else _as_list(systems, "systems")
    if system is not None:
        design = _tidy(frame, item, system, score, systems, by, cluster, strata, missing)
    elif score is not None:
        raise ValueError(
            f"`score`: got score={score!r} but no `system=`, so the table would be read as "
            "wide (one column per system), where the scores are the system columns and "
            "`score` names nothing. For a tidy table (one row per item and system) pass "
            "`item=` and `system=` too; for a wide table drop `score`."
        )
    else:
        design = _wide(frame, item, systems, by, cluster, strata, missing)
    return replace(design, stream_prefix=_enclosing_group(frame))


def _enclosing_group(frame) -> tuple:
    """The key of the pandas group ``frame`` is, inside ``groupby(...).apply``, as a tuple.

    pandas hands each group to the applied function with its key as the attribute ``name``
    (a tuple when grouping by several keys). Keying the random streams by it makes the
    numbers of ``df.groupby(key).apply(lambda g: g.paired.<method>(...))`` equal those of
    ``by=key``, whose streams are keyed by the same tuple. Any other frame has no such
    attribute and keys its streams by its own ``by=`` groups alone.
    """
    if "name" not in vars(frame):
        return ()
    name = vars(frame)["name"]
    key = name if isinstance(name, tuple) else (name,)
    key = tuple(k.item() if isinstance(k, np.generic) else k for k in key)
    _check_labels(list(key), "by", "pandas group key (the frame's `name` inside groupby)")
    return key


def _tidy(frame, item, system, score, systems, by, cluster, strata, missing):
    if item is None or score is None:
        raise ValueError(
            "A tidy table needs `item`, `system` and `score` column names; got "
            f"item={item!r}, system={system!r}, score={score!r}."
        )
    score_cols = _as_list(score, "score")
    wanted = {"item": [item], "system": [system], "score": score_cols, "by": by}
    if cluster is not None:
        wanted["cluster"] = [cluster]
    if strata is not None:
        wanted["strata"] = [strata]
    _check_columns(frame, wanted)
    for arg, col in (("item", item), ("system", system)):
        if frame[col].isna().any():
            raise ValueError(
                f"`{arg}`: column {col!r} has {int(frame[col].isna().sum())} missing "
                "value(s); every row needs an item and a system label."
            )
    # system labels coded once (in order of first appearance), not row by row in Python
    label_code, labels = frame[system].factorize(sort=False)
    available = list(labels)
    chosen = _select_systems(available, systems)
    code_of = {s: i for i, s in enumerate(chosen)}
    sys_code = np.array([code_of.get(s, -1) for s in available], dtype=np.int64)[label_code]
    if systems is not None:
        keep = sys_code >= 0
        frame, sys_code = frame[keep], sys_code[keep]
    group_code_rows, group_keys = _group_codes(frame, by)
    values = np.stack([_numeric(frame[c], "score", f"column {c!r}") for c in score_cols], axis=-1)
    rows = frame.groupby([*by, item], sort=False).ngroup().to_numpy(np.int64)
    n_rows = int(rows.max()) + 1
    cell = rows * len(chosen) + sys_code
    dup = np.bincount(cell, minlength=n_rows * len(chosen))[cell] > 1
    if dup.any():
        first = frame.iloc[int(np.flatnonzero(dup)[0])]
        label = ", ".join(f"{c}={first[c]!r}" for c in [*by, item, system])
        raise ValueError(
            f"`item`/`system`: each (item, system) pair must have one row; found "
            f"{int(dup.sum())} rows in duplicated pairs (the first: {label}). Aggregate or "
            "remove the duplicates first."
        )
    first_row = np.unique(rows, return_index=True)[1]
    item_labels = frame[item].to_numpy(dtype=object)[first_row]

    def where(idx):
        r = idx[0]
        return f"item {frame[item].iloc[r]!r}, system {frame[system].iloc[r]!r}"

    _check_infinite(values, "score", where)
    scores = np.full((n_rows, len(chosen), len(score_cols)), np.nan)
    scores[rows, sys_code] = values
    present = np.zeros((n_rows, len(chosen)), dtype=bool)
    present[rows, sys_code] = True
    complete = _check_missing(present, scores, item_labels, chosen, "score", missing)
    group_code = np.empty(n_rows, dtype=np.int64)
    group_code[rows] = group_code_rows
    cl = None if cluster is None else _per_item_label(frame, rows, cluster, "cluster", "item")
    st = None if strata is None else _per_item_label(frame, rows, strata, "strata", "item")
    return _finish(
        scores,
        item_labels,
        chosen,
        score_cols,
        group_code,
        by,
        group_keys,
        cl,
        st,
        complete,
        "score",
        unit_roundoff(*(frame[c].dtype for c in score_cols)),
    )


def _wide(frame, item, systems, by, cluster, strata, missing):
    wanted = {"by": by}
    for arg, name in (("item", item), ("cluster", cluster), ("strata", strata)):
        if name is not None:
            wanted[arg] = [name]
    if systems is not None:
        wanted["systems"] = _as_list(systems, "systems")
    _check_columns(frame, wanted)
    reserved = [n for n in (item, cluster, strata, *by) if n is not None]
    if systems is None:
        available = [c for c in frame.columns if c not in reserved]
        _check_wide_columns(frame, available, reserved, item)
    else:
        available = _as_list(systems, "systems")
    chosen = _select_systems(available, systems)
    clash = [c for c in chosen if c in reserved]
    if clash:
        raise ValueError(f"`systems`: {_fmt(clash)} also named as item, by, cluster or strata.")
    values = np.stack([_numeric(frame[c], "systems", f"column {c!r}") for c in chosen], axis=1)[
        :, :, None
    ]
    items = (frame[item] if item is not None else frame.index).to_numpy(dtype=object)
    _check_labels(items, "item", "item")

    def where(idx):
        return f"item {items[idx[0]]!r}, system {chosen[idx[1]]!r}"

    _check_infinite(values, "score", where)
    present = np.ones(values.shape[:2], dtype=bool)
    complete = _check_missing(present, values, items, chosen, "score", missing)
    group_code, group_keys = _group_codes(frame, by)
    cl = None if cluster is None else frame[cluster].to_numpy(dtype=object)
    st = None if strata is None else frame[strata].to_numpy(dtype=object)
    return _finish(
        values, items, chosen, ["score"], group_code, by, group_keys, cl, st, complete, "score",
        unit_roundoff(*(frame[c].dtype for c in chosen)),
    )  # fmt: skip


def _check_wide_columns(frame, candidates: list, reserved: list, item) -> None:
    """The rules of a wide reading without ``systems=``: every column that is not named as
    item, by, cluster or strata is a system, so each must hold scores.

    * a column that is not numeric (text, dates, categories, or numbers with one "n/a")
      is refused: it is not a system, and dropping it silently would hide it;
    * with a default RangeIndex and no ``item=``, a column that looks like the items' labels
      (distinct integers, or a name pandas gives an unnamed index column) is refused: read
      from a CSV, the id column would otherwise become a system;
    * an index whose name is also a column's is ambiguous.
    """
    pd = _pandas()
    fix = (
        "Name the system columns with systems=[...], or, for a tidy table (one row per item "
        "and system), pass item=, system= and score=."
    )
    repeated = [c for c in dict.fromkeys(candidates) if candidates.count(c) > 1]
    if repeated:
        raise ValueError(
            f"`systems`: the table has several columns named {_fmt(repeated)}; each system "
            "needs its own column name. Rename the duplicates first."
        )
    words = [c for c in candidates if frame[c].dtype.kind not in "biufc"]
    if words:
        c = words[0]
        sample = _first_non_numeric(frame[c])
        raise TypeError(
            f"`systems`: in a wide table every column but the item, by, cluster and strata "
            f"columns is a system, and {_fmt(words)} {'is' if len(words) == 1 else 'are'} not "
            f"numeric (column {c!r} has dtype {frame[c].dtype}"
            + (f" and the value {sample!r}" if sample is not None else "")
            + "). If it labels the items pass item=; if its scores have a non-numeric marker, "
            "convert them (pandas.to_numeric(errors='coerce') makes them NaN, which `missing=` "
            "then handles). " + fix
        )
    if item is not None:
        return
    clash = [n for n in frame.index.names if n is not None and n in frame.columns]
    if clash:
        raise ValueError(
            f"`item`: the index and a column are both named {clash[0]!r}; say which holds the "
            f"items: item={clash[0]!r} for the column, or drop the column."
        )
    default = isinstance(frame.index, pd.RangeIndex) and frame.index.name is None
    if default and frame.index.start == 0 and frame.index.step == 1:
        ids = [
            c for c in candidates
            if str(c).startswith("Unnamed:")
            or (frame[c].dtype.kind in "iu" and len(frame) > 1 and frame[c].is_unique)
        ]  # fmt: skip
        if ids:
            raise ValueError(
                f"`item`: the table has a default RangeIndex and column {ids[0]!r} looks like "
                "the items' labels (distinct integers, or an unnamed index written to a file), "
                f"so it cannot be read as a system. Pass item={ids[0]!r} if it labels the "
                "items (or set it as the index), or name the system columns with "
                "systems=[...] (the rows are then the items)."
            )


def _first_non_numeric(series):
    """The first value of a non-numeric column that is not a number, or None."""
    for value in series.tolist():
        if value is None or isinstance(value, (bool, np.bool_)):
            continue
        if not isinstance(value, numbers.Real):
            return value
    return None


# --------------------------------------------------------------------------- arrays
def design_from_array(
    scores,
    *,
    systems=None,
    columns=None,
    groups=None,
    items=None,
    cluster=None,
    strata=None,
    missing: str = "raise",
) -> PairedDesign:
    """Turn an array of shape (n_items, n_systems[, n_columns]) into a design.

    Examples
    --------
    >>> d = design_from_array([[0.5, 0.7], [0.2, 0.3], [0.4, 0.4]], systems=["a", "b"])
    >>> d.systems, d.n_items().tolist()
    (('a', 'b'), [3])
    """
    missing = _check_missing_arg(missing)
    precision = unit_roundoff(np.asarray(scores).dtype)
    arr = _numeric(scores, "scores", "the scores")
    if arr.ndim == 2:
        arr = arr[:, :, None]
    if arr.ndim != 3:
        raise ValueError(
            "`scores` must have shape (n_items, n_systems) or (n_items, n_systems, n_columns); "
            f"got shape {np.shape(scores)}."
        )
    n, k = arr.shape[:2]
    systems = list(range(k)) if systems is None else _as_list(systems, "systems")
    if len(systems) != k:
        raise ValueError(
            f"`systems` must name each of the {k} columns of `scores`; got {len(systems)} names."
        )
    _select_systems(systems, None)
    columns = (
        [f"score{c}" if arr.shape[2] > 1 else "score" for c in range(arr.shape[2])]
        if columns is None
        else _as_list(columns, "columns")
    )
    items = np.arange(n, dtype=object) if items is None else _object_array(items)
    extras = {"items": items, "groups": groups, "cluster": cluster, "strata": strata}
    for name, values in extras.items():
        if values is not None and len(values) != n:
            raise ValueError(f"`{name}` must have one entry per item ({n}); got {len(values)}.")

    def where(idx):
        return f"row {idx[0]}, system {systems[idx[1]]!r}"

    _check_infinite(arr, "scores", where)
    present = np.ones((n, k), dtype=bool)
    complete = _check_missing(present, arr, items, systems, "scores", missing)
    if groups is None:
        group_code, group_keys, group_names = np.zeros(n, dtype=np.int64), [()], []
    else:
        groups = _object_array(groups).tolist()
        labels = list(dict.fromkeys(groups))
        lookup = {v: i for i, v in enumerate(labels)}
        group_code = np.array([lookup[v] for v in groups], dtype=np.int64)
        group_keys, group_names = [(v,) for v in labels], ["group"]
    return _finish(
        arr,
        items,
        systems,
        columns,
        group_code,
        group_names,
        group_keys,
        None if cluster is None else _object_array(cluster),
        None if strata is None else _object_array(strata),
        complete,
        "scores",
        precision,
    )


# --------------------------------------------------------------------------- xarray
def _coordinate(ds, dim: str, arg: str) -> list:
    """The labels along ``dim`` (its coordinate, or positions): present, distinct, not empty.

    Every label keys something (a system, an item's place in the canonical order, a sweep
    cell's random streams), so a missing or repeated label is refused.
    """
    if ds.sizes[dim] == 0:
        raise ValueError(f"`{arg}`: dimension {dim!r} has length 0; there is nothing to compare.")
    labels = ds[dim].to_numpy().tolist() if dim in ds.coords else list(range(ds.sizes[dim]))
    _check_labels(labels, arg, f"{dim!r} coordinate")
    codes, uniques = _pandas().factorize(_object_array(labels))
    if len(uniques) != len(labels):
        repeated = uniques[int(np.flatnonzero(np.bincount(codes) > 1)[0])]
        raise ValueError(
            f"`{arg}`: the coordinate {dim!r} has the label {repeated!r} more than once; each "
            "position along a dimension needs its own label."
        )
    return labels


def _positions(available: list, chosen: list) -> list[int]:
    """The position of each of ``chosen`` among the distinct labels ``available``, matched
    by value and type (1 and "1" differ; tuples are labels)."""
    lookup = {canonical_bytes(x): i for i, x in enumerate(available)}
    out = []
    for x in chosen:
        position = lookup.get(canonical_bytes(x))
        out.append(available.index(x) if position is None else position)
    return out


def _check_dims(ds, wanted: dict[str, str]) -> None:
    for arg, dim in wanted.items():
        if dim not in ds.dims:
            raise ValueError(
                f"`{arg}`: no dimension named {dim!r}; the dataset has the dimensions "
                f"{_fmt(list(ds.dims), limit=30)}."
            )


def score_variables(ds, score, item, system) -> list:
    if score is None:
        names = [v for v in ds.data_vars if {item, system} <= set(ds[v].dims)]
        if not names:
            raise ValueError(
                f"`score`: no data variable has both the {item!r} and {system!r} dimensions; "
                f"the variables are {_fmt(list(ds.data_vars), limit=30)}."
            )
        return names
    names = _as_list(score, "score")
    unknown = [n for n in names if n not in ds.data_vars]
    if unknown:
        raise ValueError(
            f"`score`: no data variable named {_fmt(unknown)}; the dataset has "
            f"{_fmt(list(ds.data_vars), limit=30)}."
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
            f"{_fmt(list(ds.coords), limit=30)}."
        )
    values = ds[name]
    if values.dims != (item,):
        raise ValueError(
            f"`{arg}`: {name!r} must be a coordinate along {item!r} alone; it has dims "
            f"{values.dims}."
        )
    labels = _object_array(values.to_numpy().tolist())
    _check_labels(labels, arg, f"{name!r}")
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
    missing: str = "raise",
    columns_as_score: bool = False,
) -> PairedDesign:
    """Turn an :class:`xarray.Dataset` into a design whose groups are the sweep slices.

    ``item`` and ``system`` name dimensions. Every other dimension of the score variables
    is a sweep; several score variables add a ``score`` sweep unless ``columns_as_score``
    makes them the columns of one statistic. Group keys are the sweep coordinates.
    """
    missing = _check_missing_arg(missing)
    _check_dims(ds, {"item": item, "system": system})
    names = score_variables(ds, score, item, system)
    available = _coordinate(ds, system, "systems")
    chosen = _select_systems(available, None if systems is None else _as_list(systems, "systems"))
    # by position: a label list would be turned into one numpy array by `.sel`, which
    # makes 1 and "1" the same text and tuples rows
    sub = ds[names].isel({system: _positions(available, chosen)})
    data = [sub[n] for n in names]
    import xarray as xr

    stacked = xr.concat(data, dim="__column").assign_coords(__column=names)
    # one variable, or the columns of a statistic: the variables are the last axis; several
    # variables otherwise: a leading "score" sweep and a last axis of one column
    as_columns = columns_as_score or len(names) == 1
    sweep = [d for d in stacked.dims if d not in (item, system, "__column")]
    if not as_columns:
        sweep = ["__column", *sweep]
        stacked = stacked.expand_dims("__one")
    stacked = stacked.transpose(*sweep, item, system, "__column" if as_columns else "__one")
    if stacked.dtype.kind not in "biuf":
        raise TypeError(f"`score`: variables must be numeric; got dtype {stacked.dtype}.")
    for d in sweep:
        if d != "__column":
            _coordinate(stacked, d, "score")
    arr = _numeric(stacked.values, "score", "the score variables")
    n_slices = int(np.prod(arr.shape[: len(sweep)]))
    n_items = arr.shape[len(sweep)]
    arr = arr.reshape(n_slices * n_items, len(chosen), arr.shape[-1])
    public = ["score" if d == "__column" else d for d in sweep]
    coords = [stacked[d].to_numpy().tolist() for d in sweep]
    group_keys = list(itertools.product(*coords))  # C order, as the reshape; [()] if no sweep
    group_code = np.repeat(np.arange(n_slices), n_items)
    item_labels = np.tile(_object_array(_coordinate(ds, item, "item")), n_slices)

    def where(idx):
        return f"item {item_labels[idx[0]]!r}, system {chosen[idx[1]]!r}"

    _check_infinite(arr, "score", where)
    present = np.ones(arr.shape[:2], dtype=bool)
    complete = _check_missing(present, arr, item_labels, chosen, "score", missing)
    cl = _item_coord(ds, cluster, item, "cluster")
    st = _item_coord(ds, strata, item, "strata")
    columns = names if as_columns else ["score"]
    design = _finish(
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
    )
    return design


# --------------------------------------------------------------------------- two samples
def _finite_sample(values, arg: str, label) -> tuple[np.ndarray, int]:
    if np.ndim(values) != 1:
        raise ValueError(f"`{arg}` must be one-dimensional; got shape {np.shape(values)}.")
    arr = _numeric(values, arg, f"the scores of {label!r}")
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
    for arg, n, label in (("a", na, labels[0]), ("b", nb, labels[1])):
        if n:
            raise ValueError(
                f"`{arg}`: scores must not be NaN; group {label!r} has {n} NaN value(s). "
                "Remove them first (the test needs every value)."
            )
    return _two_sample([xa], [xb], labels, "score", [], [()], [0])


def _two_sample(list_a, list_b, labels, column, group_names, group_keys, dropped):
    for g, (xa, xb) in enumerate(zip(list_a, list_b)):
        for x, label in ((xa, labels[0]), (xb, labels[1])):
            if x.size < 1:
                where = f" in group {dict(zip(group_names, group_keys[g]))}" if group_names else ""
                raise ValueError(
                    f"`score`: each group needs at least 1 value; group {label!r} has none{where}."
                )
    off = lambda parts: np.concatenate([[0], np.cumsum([len(p) for p in parts])]).astype(np.int64)
    return TwoSampleDesign(
        a=np.concatenate(list_a),
        b=np.concatenate(list_b),
        a_offsets=off(list_a),
        b_offsets=off(list_b),
        labels=tuple(labels),
        column=column,
        group_names=tuple(group_names),
        group_keys=tuple(group_keys),
        dropped=tuple(int(d) for d in dropped),
    )


def _pick_labels(available: list, a, b, arg: str):
    if a is None and b is None:
        if len(available) != 2:
            raise ValueError(
                f"`a`, `b`: {arg} has {len(available)} labels ({_fmt(available)}); name the two "
                "to compare with `a=` and `b=`."
            )
        return available[0], available[1]
    if a is None or b is None:
        raise ValueError(f"`a`, `b`: give both or neither; got a={a!r}, b={b!r}.")
    unknown = [x for x in (a, b) if x not in available]
    if unknown:
        raise ValueError(
            f"`a`, `b`: unknown label(s) {_fmt(unknown)}; {arg} has {_fmt(available, 30)}."
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


def two_sample_from_frame(frame, *, score=None, group=None, a=None, b=None, by=None):
    """The two samples of the rank-sum test from a tidy or a wide table.

    Tidy: ``group`` names the column of group labels and ``score`` the scores; ``a`` and
    ``b`` pick the two labels (default: the only two, in order of appearance). NaN scores
    are an error. Wide: ``a`` and ``b`` name two columns (default: the only two numeric
    ones); unequal lengths are given by trailing NaN, which are counted and reported.
    """
    by = _as_list(by, "by")
    if group is not None:
        if score is None:
            raise ValueError("A tidy table needs `score` with `group`; got score=None.")
        _check_columns(frame, {"score": [score], "group": [group], "by": by})
        if frame[group].isna().any():
            raise ValueError(
                f"`group`: column {group!r} has {int(frame[group].isna().sum())} missing label(s)."
            )
        # labels coded once, compared by code: `labels == la` would compare a tuple label
        # element by element
        label_code, uniques = _pandas().factorize(_object_array(frame[group].tolist()))
        available = list(uniques)
        la, lb = _pick_labels(available, a, b, f"column {group!r}")
        code_a, code_b = _positions(available, [la, lb])
        is_a, is_b = label_code == code_a, label_code == code_b
        values = _numeric(frame[score], "score", f"column {score!r}")
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
        code, keys = _group_codes(frame, by)
        rows = _rows_by_code(code, len(keys))
        list_a = [values[r[is_a[r]]] for r in rows]
        list_b = [values[r[is_b[r]]] for r in rows]
        return _two_sample(list_a, list_b, (la, lb), score, by, keys, [0] * len(keys))
    reserved = set(by)
    numeric = [c for c in frame.columns if c not in reserved and frame[c].dtype.kind in "biuf"]
    if a is None and b is None:
        _check_columns(frame, {"by": by})
        la, lb = _pick_labels(numeric, None, None, "the table's numeric columns")
    else:
        _check_columns(
            frame, {"a": [a] if a is not None else [], "b": [b] if b is not None else [], "by": by}
        )
        la, lb = _pick_labels(list(frame.columns), a, b, "the table")
    xa_all = _numeric(frame[la], "a", f"column {la!r}")
    xb_all = _numeric(frame[lb], "b", f"column {lb!r}")
    code, keys = _group_codes(frame, by)
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
    return _two_sample(list_a, list_b, (la, lb), "score", by, keys, dropped)


def two_sample_from_dataset(ds, *, score=None, group="group", a=None, b=None, item="item"):
    """The two samples of the rank-sum test from an :class:`xarray.Dataset`.

    ``group`` is either a dimension whose coordinate holds the labels (values along
    ``item``; NaN padding for unequal sizes is counted and reported) or a coordinate along
    ``item`` labelling each value. Every other dimension is a sweep.
    """
    _check_dims(ds, {"item": item})
    if score is None:
        names = [v for v in ds.data_vars if item in ds[v].dims]
        if len(names) != 1:
            raise ValueError(
                f"`score`: name the score variable; the dataset has {_fmt(list(ds.data_vars))}."
            )
        score = names[0]
    if score not in ds.data_vars:
        raise ValueError(
            f"`score`: no data variable named {score!r}; the dataset has "
            f"{_fmt(list(ds.data_vars), limit=30)}."
        )
    var = ds[score]
    if group in var.dims:
        available = list(ds[group].to_numpy().tolist())
        la, lb = _pick_labels(available, a, b, f"dimension {group!r}")
        sides = [var.isel({group: i}) for i in _positions(available, [la, lb])]
    elif group in ds.coords and ds[group].dims == (item,):
        available = list(dict.fromkeys(ds[group].to_numpy().tolist()))
        la, lb = _pick_labels(available, a, b, f"coordinate {group!r}")
        labels = ds[group].to_numpy()
        sides = [
            var.isel({item: np.flatnonzero(labels == la)}),
            var.isel({item: np.flatnonzero(labels == lb)}),
        ]
    else:
        raise ValueError(
            f"`group`: {group!r} is neither a dimension of {score!r} nor a coordinate along "
            f"{item!r}; the dataset has dims {_fmt(list(ds.dims))} and coords "
            f"{_fmt(list(ds.coords))}."
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
    return _two_sample(list_a, list_b, (la, lb), score, sweep, keys, dropped)
