"""pandas tables: tidy (one row per item and system) or wide (one column per system)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .._validation import plain
from ..core.design import PairedDesign, unit_roundoff
from .labels import (
    as_list,
    check_labels,
    missing_keys_error,
    missing_labels_error,
    pandas_module,
    quoted,
    select_systems,
)
from .paired import finish
from .repeats import frame_cells, with_repeats
from .replicates import replicate_cells
from .scores import (
    EXACT_INT,
    check_exact_ints,
    check_infinite,
    check_missing,
    check_missing_arg,
    finite_sum,
    first_non_number,
    numeric_scores,
)

__all__ = ["design_from_frame"]


def check_columns(frame, wanted: dict[str, list]) -> None:
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
                    f"{quoted(frame.columns, limit=30)}."
                )
            if not isinstance(loc, (int, np.integer)):
                kind = (
                    "names a level of the MultiIndex columns, not one column: name a column "
                    f"by its full tuple, and give tuple names inside a list ({arg}=[('a', "
                    "'b'), ...]): a bare tuple is read as several names"
                    if isinstance(frame.columns, pandas_module().MultiIndex)
                    else "names several columns of the table: rename the duplicates first"
                )
                raise ValueError(f"`{arg}`: {name!r} {kind}.")
            if name in index_names:
                raise ValueError(
                    f"`{arg}`: {name!r} names both a column and an index level, so the table "
                    "does not say which holds the labels; rename one of them (e.g. "
                    "df.rename_axis(index=None))."
                )


def check_by(frame, by: list, named: dict) -> None:
    """A ``by=`` column is none of the columns named by ``named`` (keyword -> column names),
    all of which name one column of ``frame`` (:func:`check_columns`).

    ``by=`` splits the table into groups compared on their own: grouped by the system (or
    the rank-sum group) column, each group holds one system; by the scores, one score; by
    the items, one item. The tables that follow would be refused for missing systems or too
    few items, which would not say why.
    """
    for name in by:
        where = frame.columns.get_loc(name)
        for arg, columns in named.items():
            if any(frame.columns.get_loc(c) == where for c in columns):
                raise ValueError(
                    f"`by`: {plain(name)!r} is also the `{arg}` column; `by=` names the "
                    "columns whose values split the table into groups, each compared on its "
                    f"own, so each group would hold one {arg} value. Drop {plain(name)!r} "
                    f"from `by` (or name another column for `{arg}`)."
                )


def group_codes(frame, by: list):
    """Per-row group codes and the keys, in order of first appearance."""
    if not by:
        return np.zeros(len(frame), dtype=np.int64), [()]
    nulls = frame[by].isna().any(axis=1)
    if nulls.any():
        raise missing_keys_error(int(nulls.sum()), by)
    grouped = frame.groupby(by, sort=False, dropna=False)
    code = grouped.ngroup().to_numpy(np.int64)
    first = np.unique(code, return_index=True)[1]
    columns = [frame[b].iloc[first].tolist() for b in by]  # Python scalars, one call each
    keys = [
        tuple(k.item() if isinstance(k, np.generic) else k for k in key) for key in zip(*columns)
    ]
    return code, keys


def _per_item_label(frame, rows, column: str, arg: str, item_labels):
    """The value of ``column`` for each design row; it must be constant within an item
    (``item_labels``: each design row's item, which a message names)."""
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
            f"have several (for example the item {plain(item_labels[int(bad.index[0])])!r})."
        )
    return out


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
    replicate=None,
    repeat=None,
    missing: str = "raise",
    system_order=None,
    items_slice: bool = False,
) -> PairedDesign:
    """Turn a tidy or wide :class:`pandas.DataFrame` into a :class:`PairedDesign`.

    Tidy when ``system`` is given (then ``item`` and ``score`` are required too): one row
    per (item, system). Wide otherwise: one row per item, one column per system; items are
    the index or the column ``item``; systems are the remaining numeric columns or
    ``systems``. ``replicate`` (tidy tables) names the column of the repeated runs: one row
    per (item, system, replicate) (:mod:`pairedstats.inputs.replicates`); ``repeat`` names
    the column of the repetition of an r x k cross-validation, whose items are the
    (repetition, ``item``) cells (:mod:`pairedstats.inputs.repeats`). ``system_order``
    (tidy tables): the systems of a larger table whose groups (or items: ``items_slice``,
    the streaming road, where a group may hold one item) ``frame`` holds, in its order of
    first appearance (:mod:`pairedstats.dask_frames` reads a dask DataFrame in pieces).

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
    missing = check_missing_arg(missing)
    by = as_list(by, "by")
    systems = None if systems is None else as_list(systems, "systems")
    if repeat is not None:
        frame, item = frame_cells(frame, item, repeat)
    if system is not None:
        design = _tidy(frame, item, system, score, systems, by, cluster, strata, missing,
                       replicate, system_order, items_slice)  # fmt: skip
    elif score is not None:
        raise ValueError(
            f"`score`: got score={score!r} but no `system=`, so the table would be read as "
            "wide (one column per system), where the scores are the system columns and "
            "`score` names nothing. For a tidy table (one row per item and system) pass "
            "`item=` and `system=` too; for a wide table drop `score`."
        )
    elif replicate is not None:
        raise ValueError(
            f"`replicate`: got replicate={replicate!r} but no `system=`; repeated runs are "
            "read from a tidy table, one row per (item, system, replicate): pass `item=`, "
            "`system=` and `score=` too."
        )
    else:
        design = _wide(frame, item, systems, by, cluster, strata, missing)
    design = design if repeat is None else with_repeats(design)
    prefix = _enclosing_group(frame)
    return replace(design, stream_prefix=prefix) if prefix else design


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
    check_labels(list(key), "by", "pandas group key (the frame's `name` inside groupby)")
    return key


def _tidy(frame, item, system, score, systems, by, cluster, strata, missing, replicate=None,
          system_order=None, items_slice=False):  # fmt: skip
    if item is None or score is None:
        raise ValueError(
            "A tidy table needs `item`, `system` and `score` column names; got "
            f"item={item!r}, system={system!r}, score={score!r}."
        )
    score_cols = as_list(score, "score")
    wanted = {"item": [item], "system": [system], "score": score_cols, "by": by}
    for arg, name in (("cluster", cluster), ("strata", strata), ("replicate", replicate)):
        if name is not None:
            wanted[arg] = [name]
    if replicate is not None and len(score_cols) != 1:
        raise ValueError(
            "`replicate`: repeated runs are averaged, so they need one score column (the "
            f"mean, without `statistic`); got score={score!r}."
        )
    check_columns(frame, wanted)
    check_by(frame, by, {k: v for k, v in wanted.items() if k not in ("by", "cluster", "strata")})
    for arg, col in (("item", item), ("system", system)):
        if frame[col].isna().any():
            raise missing_labels_error(arg, col, int(frame[col].isna().sum()))
    # system labels coded once (in order of first appearance), not row by row in Python
    label_code, labels = frame[system].factorize(sort=False)
    available = list(labels) if system_order is None else list(system_order)
    chosen = select_systems(available, systems)
    code_of = {s: i for i, s in enumerate(chosen)}
    sys_code = np.array([code_of.get(s, -1) for s in labels], dtype=np.int64)[label_code]
    if systems is not None:
        keep = sys_code >= 0
        frame, sys_code = frame[keep], sys_code[keep]
    group_code_rows, group_keys = group_codes(frame, by)
    values = np.stack(
        [numeric_scores(frame[c], "score", f"column {c!r}") for c in score_cols], axis=-1
    )
    rows = frame.groupby([*by, item], sort=False).ngroup().to_numpy(np.int64)
    n_rows = int(rows.max()) + 1
    if replicate is not None:
        return _tidy_replicates(frame, item, system, score_cols, chosen, by, group_keys,
                                cluster, strata, missing, replicate, values, rows, sys_code,
                                group_code_rows)  # fmt: skip
    cell = rows * len(chosen) + sys_code
    per_cell = np.bincount(cell, minlength=n_rows * len(chosen))
    if per_cell.max() > 1:
        keys = [*by, item, system]
        dup = per_cell[cell] > 1
        raise _duplicated(frame, dup, cell, keys, [*keys, *score_cols, cluster, strata])
    item_labels = _checked_items(frame, item, system, rows, values)
    scores = np.full((n_rows, len(chosen), len(score_cols)), np.nan)
    scores.reshape(-1, len(score_cols))[cell] = values  # row rows[i], system sys_code[i]
    present = per_cell.reshape(n_rows, len(chosen)) > 0
    complete = check_missing(present, scores, item_labels, chosen, "score", missing)
    group_code = np.empty(n_rows, dtype=np.int64)
    group_code[rows] = group_code_rows
    cl = None if cluster is None else _per_item_label(frame, rows, cluster, "cluster", item_labels)
    st = None if strata is None else _per_item_label(frame, rows, strata, "strata", item_labels)
    return finish(scores, item_labels, chosen, score_cols, group_code, by, group_keys, cl, st,
                  complete, "score", unit_roundoff(*(frame[c].dtype for c in score_cols)),
                  missing=missing, items_slice=items_slice)  # fmt: skip


def _duplicated(frame, dup, cell, keys: list, used: list) -> ValueError:
    """The error of rows that share an (item, system) pair: the first pair, and the columns
    (other than ``used``) in which the rows of a pair differ, with the keyword that reads such
    a column (repeated runs, or groups); the rows are not averaged or dropped unasked."""
    where = np.flatnonzero(dup)
    # each column's own value: a row as one Series would turn integer labels into floats
    label = ", ".join(f"{c}={plain(frame[c].iloc[int(where[0])])!r}" for c in keys)
    rows, pairs = frame.iloc[where], cell[where]
    used_at = {frame.columns.get_loc(u) for u in used if u is not None}
    differ = []
    for at, c in enumerate(frame.columns):
        if at in used_at:
            continue
        try:
            if (rows.iloc[:, at].groupby(pairs).nunique(dropna=False) > 1).any():
                differ.append(c)
        except TypeError:  # unhashable values: not a column of labels
            continue
    if differ:
        c = plain(differ[0])
        how = (
            f"; the rows of a pair differ in {'column' if len(differ) == 1 else 'columns'} "
            f"{quoted(differ)}. If {c!r} labels repeated runs of each system (seeds, folds), "
            f"pass replicate={c!r} (the bootstrap); if it splits the table into separate "
            f"comparisons, pass by={c!r}; otherwise aggregate or remove the duplicates first."
        )
    else:
        how = (
            "; the rows of a pair differ in no other column. Aggregate or remove the "
            "duplicates first."
        )
    return ValueError(
        f"`item`/`system`: each (item, system) pair must have one row; found {int(dup.sum())} "
        f"rows in duplicated pairs (the first: {label}){how}"
    )


def _checked_items(frame, item, system, rows, values) -> np.ndarray:
    """The item label of each design row (its first table row), once the scores are checked
    finite (a message names the item and system of the first infinite one)."""
    first_row = _first_rows(rows)

    def where(idx):
        r = idx[0]
        return f"item {plain(frame[item].iloc[r])!r}, system {plain(frame[system].iloc[r])!r}"

    check_infinite(values, "score", where)
    return frame[item].take(first_row).to_numpy(dtype=object)


def _first_rows(rows: np.ndarray) -> np.ndarray:
    """The first table row of each design row (``rows``: the design row of each table row).

    Codes numbered in order of first appearance (``groupby(sort=False).ngroup()``) first
    appear where they exceed every code before them: one pass. Where that does not give
    each code once, in order, the codes are in another order, sorted by :func:`np.unique`.
    """
    if rows.size:
        first = np.flatnonzero(np.r_[True, rows[1:] > np.maximum.accumulate(rows)[:-1]])
        if first.size == int(rows.max()) + 1 and np.array_equal(
            rows[first], np.arange(first.size)
        ):
            return first
    return np.unique(rows, return_index=True)[1]


def _tidy_replicates(
    frame, item, system, score_cols, chosen, by, group_keys, cluster, strata, missing,
    replicate, values, rows, sys_code, group_code_rows,
):  # fmt: skip
    """The tidy road with ``replicate``: one row per (item, system, replicate)."""
    n_rows = int(rows.max()) + 1
    item_labels = _checked_items(frame, item, system, rows, values)
    means, cells, labels, complete = replicate_cells(
        rows, sys_code, frame[replicate].to_numpy(dtype=object), values[:, 0], n_rows, chosen,
        item_labels, missing,
    )  # fmt: skip
    group_code = np.empty(n_rows, dtype=np.int64)
    group_code[rows] = group_code_rows
    cl = None if cluster is None else _per_item_label(frame, rows, cluster, "cluster", "item")
    st = None if strata is None else _per_item_label(frame, rows, strata, "strata", "item")
    return finish(
        means, item_labels, chosen, score_cols, group_code, by, group_keys, cl, st, complete,
        "score", unit_roundoff(*(frame[c].dtype for c in score_cols)), cells, labels,
        missing=missing,
    )  # fmt: skip


def _wide(frame, item, systems, by, cluster, strata, missing):
    wanted = {"by": by}
    for arg, name in (("item", item), ("cluster", cluster), ("strata", strata)):
        if name is not None:
            wanted[arg] = [name]
    if systems is not None:
        wanted["systems"] = as_list(systems, "systems")
    check_columns(frame, wanted)
    reserved = [n for n in (item, cluster, strata, *by) if n is not None]
    if systems is None:
        available = [c for c in frame.columns if c not in reserved]
        _check_wide_columns(frame, available, reserved, item)
    else:
        available = as_list(systems, "systems")
    chosen = select_systems(available, systems)
    clash = [c for c in chosen if c in reserved]
    if clash:
        raise ValueError(f"`systems`: {quoted(clash)} also named as item, by, cluster or strata.")
    scores, whole, dtypes = _system_rows(frame, chosen)
    values = scores[:, :, None]  # the design's own (finish keeps it)
    labels = frame[item] if item is not None else frame.index
    items = _item_labels(labels)
    ranks = _integer_ranks(labels)
    if ranks is None:  # integers of a numpy dtype are never missing
        check_labels(items, "item", "item")

    def where(idx):
        return f"item {items[idx[0]]!r}, system {chosen[idx[1]]!r}"

    if whole or finite_sum(values):  # no NaN nor infinity (integers never have one)
        complete = np.ones(len(items), dtype=bool)
    else:
        check_infinite(values, "score", where)
        present = np.ones(values.shape[:2], dtype=bool)
        complete = check_missing(present, values, items, chosen, "score", missing)
    group_code, group_keys = group_codes(frame, by)
    cl = None if cluster is None else frame[cluster].to_numpy(dtype=object)
    st = None if strata is None else frame[strata].to_numpy(dtype=object)
    return finish(
        values, items, chosen, ["score"], group_code, by, group_keys, cl, st, complete, "score",
        unit_roundoff(*dtypes), missing=missing, item_ranks=ranks, fresh=True, bounded=whole,
    )  # fmt: skip


def _system_rows(frame, chosen: list) -> tuple[np.ndarray, bool, list]:
    """The systems' scores as float64, one row per item and one column per system (a
    C-ordered array of its own), whether every column holds integers or bools of a numpy
    dtype (finite, never missing, exact: checked here), and the columns' dtypes.

    Columns of one numpy dtype are read as one block (one pass that converts and transposes
    it); others one at a time (:func:`numeric_scores`'s rules)."""
    block = _one_block(frame, chosen)
    if block is not None:
        dtypes = [block.dtype] * len(chosen)
        if block.dtype.kind == "f":
            return _own(block.astype(np.float64, copy=False)), False, dtypes
        if block.dtype.itemsize <= 4 or _exact(block):  # 32 bits and less are exact
            return _own(block), True, dtypes
    out = np.empty((len(chosen), len(frame)))
    whole, dtypes = True, []
    for j, c in enumerate(chosen):
        column = frame[c]
        dtypes.append(getattr(column, "dtype", None))  # None: several columns of that name
        if column.ndim == 1 and isinstance(column.dtype, np.dtype) and column.dtype.kind in "biu":
            values = column.to_numpy()
            if values.dtype.itemsize > 4:  # 32 bits and less are exact in float64
                check_exact_ints(values, "systems", f"column {c!r}")
            out[j] = values
        else:
            whole = False
            out[j] = numeric_scores(column, "systems", f"column {c!r}")
    return _own(out.T), whole, dtypes


def _one_block(frame, chosen: list) -> np.ndarray | None:
    """The columns ``chosen`` as one items x systems array when they share a numpy dtype of
    numbers or bools and name distinct columns (often a view of the table's own block),
    else None. All the columns, in order (the labels the same values of the same types), are
    the table's own array."""
    if not (chosen and frame.columns.is_unique):
        return None
    names = list(frame.columns)
    every = len(names) == len(chosen) and all(
        type(a) is type(b) and a == b for a, b in zip(names, chosen)
    )
    at = slice(None) if every else frame.columns.get_indexer(chosen)
    if not every and (at < 0).any():
        return None
    kinds = set(frame.dtypes.iloc[at].tolist())
    dtype = kinds.pop() if len(kinds) == 1 else None
    if not (isinstance(dtype, np.dtype) and dtype.kind in "biuf"):
        return None
    block = (frame if every else frame.iloc[:, at]).to_numpy()
    return block if block.dtype == dtype and block.shape == (len(frame), len(chosen)) else None


def _exact(values: np.ndarray) -> bool:
    """Whether integers are all of magnitude at most 2**53 (exact in float64): their least
    and largest, in pieces of half a megabyte (the largest read from the cache)."""
    flat = values.ravel(order="K")  # a view of a block in either order
    step = 2**16
    return all(
        flat[i : i + step].min() >= -EXACT_INT and flat[i : i + step].max() <= EXACT_INT
        for i in range(0, flat.size, step)
    )


def _own(values: np.ndarray) -> np.ndarray:
    """``values`` (items x systems) as a C-ordered float64 array of its own: one pass (bools
    read as their bytes, 0 and 1, which numpy converts three times as fast)."""
    out = np.empty(values.shape)
    if values.dtype == bool and values.size and values.view(np.uint8).max() <= 1:
        values = values.view(np.uint8)
    out[...] = values
    return out


def _item_labels(labels) -> np.ndarray | range:
    """Item labels as an object array, or a RangeIndex's as a ``range`` (the design makes
    it the array of those Python ints when it is read: :class:`PairedDesign`)."""
    if isinstance(labels, pandas_module().RangeIndex):
        return range(labels.start, labels.stop, labels.step)
    return labels.to_numpy(dtype=object)


def _integer_ranks(labels) -> np.ndarray | range | None:
    """The canonical ranks of item labels held as integers of a numpy dtype (an index or
    column of ints: never missing, ordered as numbers, as :func:`canonical_ranks` orders
    them), without making Python objects of them: a ``range`` when they are in increasing
    order already (as a RangeIndex is); None for any other labels."""
    if not (isinstance(labels.dtype, np.dtype) and labels.dtype.kind in "iu"):
        return None
    if isinstance(labels, pandas_module().RangeIndex) and labels.step > 0:
        return range(len(labels))
    values = labels.to_numpy()
    if values.size < 2 or bool(np.all(values[1:] > values[:-1])):  # sorted, as a RangeIndex
        return range(values.size)
    return np.unique(values, return_inverse=True)[1].reshape(-1)


def _distinct(column) -> bool:
    """Whether a column of integers holds distinct values: not when its first values repeat
    one, nor when its range is shorter than the column (the pigeonhole principle), else by
    hashing."""
    if isinstance(column.dtype, np.dtype):
        values = column.to_numpy()
        head = values[:16].tolist()
        if len(set(head)) < len(head):
            return False
        if int(values.max()) - int(values.min()) < len(values) - 1:
            return False
    return bool(column.is_unique)


def _check_wide_columns(frame, candidates: list, reserved: list, item) -> None:
    """The rules of a wide reading without ``systems=``: every column that is not named as
    item, by, cluster or strata is a system, so each must hold scores.

    * a column that is not numeric (text, dates, categories, or numbers with one "n/a")
      is refused: it is not a system, and dropping it silently would hide it;
    * with a default RangeIndex and no ``item=``, a column that looks like the items' labels
      (distinct integers, or a name pandas gives an unnamed index column) is refused: read
      from a CSV, the id column would otherwise become a system;
    * a column named as pandas names an empty header cell (``Unnamed: 0``) is refused with
      ``item=`` too: it is an index written to a file, not a system;
    * an index whose name is also a column's is ambiguous.
    """
    pd = pandas_module()
    fix = (
        "Name the system columns with systems=[...], or, for a tidy table (one row per item "
        "and system), pass item=, system= and score=."
    )
    repeated = [c for c in dict.fromkeys(candidates) if candidates.count(c) > 1]
    if repeated:
        raise ValueError(
            f"`systems`: the table has several columns named {quoted(repeated)}; each system "
            "needs its own column name. Rename the duplicates first."
        )
    dtypes = dict(zip(frame.columns, frame.dtypes))  # the names are distinct (above)
    words = [c for c in candidates if dtypes[c].kind not in "biufc"]
    if words:
        c = words[0]
        sample = first_non_number(frame[c].tolist())
        raise TypeError(
            f"`systems`: in a wide table every column but the item, by, cluster and strata "
            f"columns is a system, and {quoted(words)} {'is' if len(words) == 1 else 'are'} not "
            f"numeric (column {c!r} has dtype {frame[c].dtype}"
            + (f" and the value {sample!r}" if sample is not None else "")
            + "). If it labels the items pass item=; if its scores have a non-numeric marker, "
            "convert them (pandas.to_numeric(errors='coerce') makes them NaN, which `missing=` "
            "then handles). " + fix
        )
    unnamed = [c for c in candidates if str(c).startswith("Unnamed:")]
    if item is not None and unnamed:
        raise ValueError(
            f"`systems`: column {unnamed[0]!r} has no name of its own (pandas names so a "
            "column whose header cell is empty, such as an index written to a CSV file), so "
            "it cannot be read as a system. Remove it (DataFrame.to_csv(index=False) writes "
            "no such column), or name the system columns with systems=[...]."
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
        block = _one_block(frame, candidates)  # the first values of each column, at once
        heads = [None] * len(candidates) if block is None else block[:16].T.tolist()
        ids = [
            c for c, head in zip(candidates, heads)
            if str(c).startswith("Unnamed:")
            or (dtypes[c].kind in "iu" and len(frame) > 1
                and (head is None or len(set(head)) == len(head)) and _distinct(frame[c]))
        ]  # fmt: skip
        if ids:
            raise ValueError(
                f"`item`: the table has a default RangeIndex and column {ids[0]!r} looks like "
                "the items' labels (distinct integers, or an unnamed index written to a file), "
                f"so it cannot be read as a system. Pass item={ids[0]!r} if it labels the "
                "items (or set it as the index), or name the system columns with "
                "systems=[...] (the rows are then the items)."
            )
