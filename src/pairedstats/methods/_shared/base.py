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

__all__ = ["GroupedResult", "ReadOnlyResult"]


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
