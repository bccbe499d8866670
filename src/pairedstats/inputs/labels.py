"""What a label may be, and the canonical order of items and systems.

A label names an item, a system, a cluster, a stratum, a rank-sum group, a ``by=`` group or a
sweep cell: any hashable value that is not missing. These rules are the same for every
container and every method.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Mapping, Set

import numpy as np

from ..core.draws import canonical_bytes

__all__ = ["canonical_ranks"]

_EXAMPLES = 5


def as_list(value, name: str) -> list:
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


def quoted(labels, limit: int = _EXAMPLES, show=repr) -> str:
    """The first ``limit`` of ``labels``, each written by ``show``, and how many in all."""
    labels = list(labels)
    text = ", ".join(show(x.item() if isinstance(x, np.generic) else x) for x in labels[:limit])
    if len(labels) > limit:
        text += f", ... ({len(labels)} in all)"
    return text


def pandas_module():
    import pandas

    return pandas


def check_labels(values, arg: str, what: str, items=None) -> None:
    """Labels must not be missing (NaN, None, NaT, pd.NA): each must name something."""
    missing = np.asarray(pandas_module().isna(object_array(values)), dtype=bool)
    if missing.any():
        first = int(np.argmax(missing))
        where = f"for item {items[first]!r}" if items is not None else f"at position {first}"
        raise ValueError(
            f"`{arg}`: {int(missing.sum())} {what} label(s) are missing (NaN or None), the "
            f"first {where}; every label must name something. Fill or drop those first."
        )


def object_array(values) -> np.ndarray:
    """A 1-D object array of ``values`` (tuples stay elements, not rows)."""
    values = values.tolist() if isinstance(values, np.ndarray) else list(values)
    if any(issubclass(kind, np.generic) for kind in set(map(type, values))):
        values = [v.item() if isinstance(v, np.generic) else v for v in values]
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


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
    mixed kinds) by their canonical encoding (:func:`pairedstats.core.draws.canonical_bytes`).

    Examples
    --------
    >>> canonical_ranks(["q10", "q2", "q1"]).tolist()
    [1, 2, 0]
    >>> canonical_ranks([3, "a", 1]).tolist()  # numbers before text
    [1, 2, 0]
    """
    values = object_array(labels)
    if set(map(type, values)) == {int} and len(values):  # integer ids: numpy's own order
        try:
            return np.unique(values.astype(np.int64), return_inverse=True)[1].reshape(-1)
        except OverflowError:  # beyond int64: the general road below
            pass
    pd = pandas_module()
    codes, uniques = pd.factorize(values, sort=False)
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


def select_systems(available: list, systems, arg: str = "systems") -> list:
    if systems is None:
        chosen = available
    else:
        chosen = as_list(systems, arg)
        known = set(available)
        unknown = [s for s in chosen if s not in known]
        if unknown:
            raise ValueError(
                f"`{arg}`: unknown system(s) {quoted(unknown)}; the systems are "
                f"{quoted(available, limit=30)}."
            )
    check_labels(chosen, arg, "system")
    codes, uniques = pandas_module().factorize(object_array(chosen))
    if len(uniques) < len(chosen):
        first = int(np.flatnonzero(np.bincount(codes) > 1)[0])
        same = [x for x, c in zip(chosen, codes) if c == first]
        raise ValueError(
            f"`{arg}`: the system labels {quoted(same)} are equal as values (1 == 1.0 == True), "
            "so tables and dictionaries would take them for one system; give them distinct "
            "labels."
        )
    if len(chosen) < 2:
        raise ValueError(
            f"`{arg}`: a comparison needs at least 2 systems; got {len(chosen)}"
            + (f" ({quoted(chosen)})" if chosen else "")
            + "."
        )
    return list(chosen)


def label_positions(available: list, chosen: list) -> list[int]:
    """The position of each of ``chosen`` among the distinct labels ``available``, matched
    by value and type (1 and "1" differ; tuples are labels)."""
    lookup = {canonical_bytes(x): i for i, x in enumerate(available)}
    out = []
    for x in chosen:
        position = lookup.get(canonical_bytes(x))
        out.append(available.index(x) if position is None else position)
    return out


def missing_keys_error(count: int, by: list) -> ValueError:
    """The error of ``count`` rows whose ``by=`` key has a missing value (counted over the
    whole table: the dask road counts them partition by partition)."""
    return ValueError(
        f"`by`: group keys must not be missing; {count} row(s) have a missing value in "
        f"{quoted(by)}."
    )


def missing_labels_error(arg: str, column, count: int) -> ValueError:
    """The error of a tidy table whose ``item`` or ``system`` column (``arg``) has ``count``
    missing labels (counted over the whole table)."""
    return ValueError(
        f"`{arg}`: column {column!r} has {count} missing value(s); every row needs an item "
        "and a system label."
    )
