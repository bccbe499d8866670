"""The base of every result: a frozen record of a computation whose arrays are read-only
(:class:`ReadOnlyResult`), and the labels and metadata of a result made group by group
(:class:`GroupedResult`).

Results have three shapes, all on :class:`ReadOnlyResult`: the comparison tables (one row
per group and comparison, :class:`~pairedstats.methods._shared.results.ComparisonResult`),
the system tables (one row per group and system,
:class:`~pairedstats.methods._shared.results.SystemTable`), both a :class:`GroupedResult`,
and the report (a systems x metrics table, :class:`~pairedstats.methods.report.result.Report`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

__all__ = ["GroupedResult", "ReadOnlyResult", "concat_groups"]


@dataclass(frozen=True, kw_only=True)
class ReadOnlyResult:
    """A result: frozen, keyword-only, and its arrays read-only once made.

    Every field that holds a :class:`numpy.ndarray` is made read-only
    (``flags.writeable = False``) when the result is made: a result is a record of a
    computation. A subclass that defines its own ``__post_init__`` calls this one.

    Examples
    --------
    >>> @dataclass(frozen=True, kw_only=True)
    ... class Counts(ReadOnlyResult):
    ...     wins: np.ndarray
    >>> Counts(wins=np.arange(3)).wins.flags.writeable
    False
    """

    def __post_init__(self):
        for item in dataclasses.fields(self):
            value = getattr(self, item.name)
            if isinstance(value, np.ndarray):
                value.flags.writeable = False


@dataclass(frozen=True, kw_only=True)
class GroupedResult(ReadOnlyResult):
    """A result made group by group: its arrays have one row per group (their first axis).

    Attributes
    ----------
    group_names : tuple of str
        Names of the grouping keys (``by=`` columns or sweep dimensions); empty without
        groups.
    group_keys : tuple of tuple
        One key per group, in the order of the arrays' first axis (``((),)``: one group,
        no key).
    metadata : dict
        What is needed to re-run the call: method, n_resamples, confidence level, seed
        entropy, package version, and method-specific settings. Copied to
        ``DataFrame.attrs`` and ``Dataset.attrs``.
    """

    group_names: tuple = ()
    group_keys: tuple = ((),)
    metadata: dict = field(default_factory=dict)


# ------------------------------------------------------------------ results of parts
def concat_groups(parts: list, keys: list):
    """One result of the same call run on disjoint sets of groups (``parts``, results of one
    type, each of some ``by=`` groups of a table: the dask road runs each on its own), its
    groups in the order of ``keys`` (every group key of the table, in the table's order).

    A field that holds one row per group (the arrays, ``group_keys``) is joined and put in
    that order, by the groups' keys (never by the parts' order); the results a result holds
    (the report's per metric, the comparisons of a ranking) are joined alike; any other
    field is the call's (labels, metadata) and must be the same in every part, or missing
    (None) in some: then the others' value. A tuple of results that a part made with
    settings of its own (the comparisons of a best set, against a reference system chosen
    from the part's first item) keeps each part's, in the order of their first groups.

    Examples
    --------
    >>> @dataclass(frozen=True, kw_only=True)
    ... class Means(GroupedResult):
    ...     mean: np.ndarray
    >>> a = Means(group_keys=(("x",),), mean=np.array([[1.0]]), metadata={"n": 2})
    >>> b = Means(group_keys=(("y",), ("z",)), mean=np.array([[2.0], [3.0]]), metadata={"n": 2})
    >>> both = concat_groups([b, a], [("x",), ("z",), ("y",)])
    >>> both.group_keys, both.mean[:, 0].tolist(), both.metadata
    ((('x',), ('z',), ('y',)), [1.0, 3.0, 2.0], {'n': 2})
    """
    position = {tuple(k): i for i, k in enumerate(keys)}
    return _joined(list(parts), position)


def _joined(parts: list, position: dict):
    first = parts[0]
    if isinstance(first, GroupedResult):
        sizes = [len(p.group_keys) for p in parts]
        found = [tuple(k) for p in parts for k in p.group_keys]
        order = np.argsort([position[k] for k in found], kind="stable")
    else:
        sizes, order = None, None
    values = {}
    for item in dataclasses.fields(first):
        if not item.compare:  # derived from the others (the report's table)
            continue
        got = [getattr(p, item.name) for p in parts]
        values[item.name] = _joined_field(item.name, got, sizes, order, position)
    return type(first)(**values)


def _joined_field(name: str, got: list, sizes, order, position: dict):
    present = [v for v in got if v is not None]
    if not present:
        return None
    if isinstance(present[0], ReadOnlyResult) and len(present) == len(got):
        return _joined(got, position)
    if isinstance(present[0], dict) and any(isinstance(v, ReadOnlyResult)
                                            for v in present[0].values()):  # fmt: skip
        return {k: _joined([v[k] for v in got], position) for k in got[0]}
    if isinstance(present[0], tuple) and present[0] and isinstance(present[0][0], ReadOnlyResult):
        try:
            return tuple(_joined(list(each), position) for each in zip(*got))
        except ValueError:  # made with other settings per part (the best set's reference)
            first = lambda r: min(position[tuple(k)] for k in r.group_keys)
            return tuple(sorted((r for v in got for r in v), key=first))
    if sizes is not None and name == "group_keys":
        keys = [k for v in got for k in v]
        return tuple(keys[i] for i in order)
    rows = sizes is not None and len(present) == len(got)
    if rows and all(isinstance(v, np.ndarray) and v.ndim and v.shape[0] == n
                    for v, n in zip(got, sizes)):  # fmt: skip
        return np.concatenate(got, axis=0)[order]
    if all(_same(present[0], v) for v in present):
        return present[0]
    raise ValueError(f"the parts of the result differ in {name!r}: {present!r}")


def _same(a, b) -> bool:
    """Whether two values of a call's field are equal (arrays and dicts of arrays too)."""
    if a is b or (isinstance(a, float) and isinstance(b, float) and a != a and b != b):
        return True  # NaN: the same missing value
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return bool(np.array_equal(np.asarray(a), np.asarray(b)))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return repr(a) == repr(b)
