"""Repetitions of a cross-validation (``repeat=``): the items of an r x k cross-validation
are its (repetition, fold) cells.

A tidy or wide table names the repetition in a column and the fold in ``item``; an xarray
Dataset has a dimension of repetitions beside the folds; an array gives one repetition label
per row. Each container is read as a table of cells: the item labels become the pairs
``(repetition, fold)`` (an array keeps its row numbers), and the design records the
repetition of each row (``PairedDesign.repeat``, codes into ``repeat_labels``, in the
canonical order of labels). A method that reads the repetitions (the corrected resampled
t-test) checks that every repetition has the same folds' count.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..core.design import PairedDesign
from .labels import canonical_ranks, check_labels, object_array, quoted

__all__ = ["dataset_cells", "frame_cells", "with_repeats"]


def frame_cells(frame, item, repeat):
    """``(frame, item)``: the table with one column of ``(repeat, item)`` pairs in place of
    the two columns, and that column's name (the pair of the two names).

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"rep": [0, 0, 1], "fold": [0, 1, 0], "acc": [0.8, 0.7, 0.9]})
    >>> cells, key = frame_cells(t, "fold", "rep")
    >>> key, cells[key].tolist()
    (('rep', 'fold'), [(0, 0), (0, 1), (1, 0)])
    """
    if item is None:
        raise ValueError(
            f"`repeat`: got repeat={repeat!r} but no `item=`; the items of an r x k "
            "cross-validation are (repetition, fold) cells: name the fold column in `item`."
        )
    _check_names(item, repeat, list(frame.columns), "column")
    check_labels(frame[repeat].to_numpy(dtype=object), "repeat", "repetition")
    key = (repeat, item)
    if key in frame.columns:
        raise ValueError(f"`repeat`: the table already has a column named {key!r}.")
    pairs = object_array(zip(frame[repeat].tolist(), frame[item].tolist(), strict=True))
    cells = frame.drop(columns=[repeat, item])
    cells[key] = pairs
    return cells, key


def dataset_cells(ds, item: str, repeat: str):
    """``(ds, item)``: the Dataset with its ``repeat`` and ``item`` dimensions stacked into
    one dimension of ``(repeat, item)`` cells, and that dimension's name."""
    _check_names(item, repeat, list(ds.dims), "dimension")
    key = f"{repeat}_{item}"
    while key in ds.dims or key in ds.variables:
        key = f"_{key}"
    for name in (repeat, item):
        if name not in ds.coords:
            ds = ds.assign_coords({name: np.arange(ds.sizes[name])})
    stacked = ds.stack({key: (repeat, item)})
    pairs = object_array(stacked.indexes[key].tolist())
    return stacked.drop_vars([key, repeat, item]).assign_coords({key: pairs}), key


def _check_names(item, repeat, names: list, what: str) -> None:
    """``repeat`` and ``item`` name two different ones of ``names`` (columns or dimensions)."""
    for arg, name in (("repeat", repeat), ("item", item)):
        if name not in names:
            raise ValueError(f"`{arg}`: no {what} {name!r}; the {what}s are {quoted(names)}.")
    if repeat == item:
        raise ValueError(f"`repeat` and `item` name the same {what} {item!r}.")


def with_repeats(design: PairedDesign, labels=None) -> PairedDesign:
    """``design`` with the repetition of each row recorded: ``labels`` (one per row; by
    default the first element of each ``(repetition, fold)`` item label), coded in the
    canonical order of labels.

    Examples
    --------
    >>> d = PairedDesign(scores=np.zeros((4, 2, 1)), systems=("a", "b"),
    ...                  offsets=np.array([0, 4]), items=object_array(
    ...                      [(1, 0), (1, 1), (0, 0), (0, 1)]))
    >>> r = with_repeats(d)
    >>> r.repeat.tolist(), r.repeat_labels
    ([1, 1, 0, 0], (0, 1))
    """
    if labels is None:
        labels = [cell[0] for cell in design.items]
    labels = object_array(labels)
    check_labels(labels, "repeat", "repetition")
    distinct = list(dict.fromkeys(labels.tolist()))
    ordered = [distinct[i] for i in np.argsort(canonical_ranks(distinct), kind="stable")]
    code_of = {label: code for code, label in enumerate(ordered)}
    codes = np.fromiter((code_of[label] for label in labels), np.int64, len(labels))
    return replace(design, repeat=codes, repeat_labels=tuple(ordered))
