"""Validated, container-free descriptions of the data a method runs on.

The input layer (:mod:`pairedstats.inputs`) turns arrays, pandas tables and xarray datasets
into these objects, public as :class:`pairedstats.PairedDesign` and
:class:`pairedstats.TwoSampleDesign`; the core methods read nothing else. This module imports
numpy only.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["PairedDesign", "TwoSampleDesign", "comparison_pairs", "unit_roundoff"]


def unit_roundoff(*dtypes) -> float:
    """The largest unit roundoff of scores given in ``dtypes``, once they are float64.

    Floating types keep their own precision (float32: ``2**-24``); everything else (float64,
    integers, Python numbers) is exact to float64's ``2**-53``.

    Examples
    --------
    >>> unit_roundoff(np.float32) == 2.0**-24, unit_roundoff(np.int64, np.float64) == 2.0**-53
    (True, True)
    """
    out = 2.0**-53
    for dtype in dtypes:
        try:
            dtype = np.dtype(getattr(dtype, "numpy_dtype", dtype))  # pandas' nullable types
        except TypeError:  # other pandas types (e.g. categories of numbers): exact
            continue
        if dtype.kind == "f":
            out = max(out, float(np.finfo(dtype).eps) / 2.0)
    return out


class _Labels:
    """A field of labels that may be given as a ``range`` and is then made an object array
    of its Python ints only when first read (the labels of 100,000 items cost a
    millisecond, and most calls never read them). The value is kept in the instance's
    ``__dict__`` under the field's own name (a data descriptor is read before it), so that
    ``vars(design)`` holds the fields as they are named."""

    def __set_name__(self, owner, name: str):
        self.key = name

    def __get__(self, obj, owner=None):
        if obj is None:  # asked for the field's default: it has none
            raise AttributeError(self.key)
        value = obj.__dict__[self.key]
        if isinstance(value, range):
            value = np.arange(value.start, value.stop, value.step, dtype=object)
            obj.__dict__[self.key] = value
        return value

    def __set__(self, obj, value):
        obj.__dict__[self.key] = value


@dataclass(frozen=True, kw_only=True)
class PairedDesign:
    """Items x systems scores, possibly in several groups.

    What every paired method runs on. The input layer makes it from an array
    (:func:`pairedstats.inputs.design_from_array`), a pandas table
    (:func:`~pairedstats.inputs.design_from_frame`) or an xarray dataset
    (:func:`~pairedstats.inputs.design_from_dataset`); one built by hand is held to the same
    rules when a method receives it (:func:`pairedstats.inputs.check_design`).

    Attributes
    ----------
    scores : ndarray of float64, shape (n_rows, n_systems, n_columns)
        One row per item; the rows of a group are contiguous. Finite, validated.
    systems : tuple
        System labels, in the order of ``scores``' second axis.
    columns : tuple of str
        Names of the score columns (the last axis).
    offsets : ndarray of int64, shape (n_groups + 1,)
        Rows ``offsets[g]:offsets[g + 1]`` belong to group ``g``.
    group_names : tuple of str
        Names of the grouping keys (``by=`` columns or sweep dimensions); empty if ungrouped.
    group_keys : tuple of tuple
        One key (a tuple with one label per group name) per group; ``((),)`` if ungrouped.
    items : ndarray
        The item label of each row. Given as a ``range`` (integer labels, as a RangeIndex
        holds them), it is made the object array of those Python ints when first read.
    cluster, strata : ndarray of int64 or None
        Per-row codes of the cluster and the stratum (codes index ``cluster_labels`` and
        ``strata_labels``); ``None`` when not given.
    cluster_labels, strata_labels : tuple
        The labels the codes of ``cluster`` and ``strata`` stand for.
    dropped : tuple of int
        Per group, the number of items removed by ``missing="complete"`` (empty: none);
        :meth:`n_dropped` reads it as an array.
    missing : {"raise", "complete"}
        The ``missing`` rule the scores were read with (``"raise"`` for a design built by
        hand): what a result's metadata reports.
    precision : float
        Unit roundoff of the scores as they were given, before they became float64:
        ``2**-53`` for float64 and integers, ``2**-24`` for float32, ``2**-11`` for float16.
        Decisions that depend on exact equality (ties) use it, so float32 scores on a grid
        are read as that grid.
    stream_prefix : tuple
        Labels put before every group key in the keys of the random streams: the key of the
        enclosing pandas group when a method is called inside ``groupby(...).apply``, so
        that its numbers equal those of ``by=`` (empty otherwise).
    replicates : tuple of ndarray or None
        With ``replicate=`` (repeated runs of each system: seeds, epochs, folds), per system
        its scores of each row and replicate, shape ``(n_rows, R_s)``, the columns in the
        canonical order of ``replicate_labels[s]``; ``scores`` then holds each row's mean
        over the system's replicates. None otherwise.
    replicate_labels : tuple of tuple
        Per system, the labels of its replicates (empty without ``replicate=``). Systems
        with equal labels have paired replicates; other systems' labels are disjoint.
    repeat : ndarray of int64 or None
        With ``repeat=`` (an r x k cross-validation), the per-row code of the repetition
        each item (fold) belongs to, indexing ``repeat_labels``; None otherwise.
    repeat_labels : tuple
        The labels the codes of ``repeat`` stand for, in the canonical order of labels.
    """

    scores: np.ndarray
    systems: tuple
    columns: tuple = ("score",)
    offsets: np.ndarray
    group_names: tuple = ()
    group_keys: tuple = ((),)
    items: np.ndarray = _Labels()
    cluster: np.ndarray | None = None
    cluster_labels: tuple = ()
    strata: np.ndarray | None = None
    strata_labels: tuple = ()
    dropped: tuple = ()
    missing: str = "raise"
    precision: float = 2.0**-53
    stream_prefix: tuple = ()
    replicates: tuple | None = None
    replicate_labels: tuple = ()
    repeat: np.ndarray | None = None
    repeat_labels: tuple = ()

    @property
    def n_groups(self) -> int:
        return len(self.offsets) - 1

    def stream_key(self, g: int) -> tuple:
        """The labels that key group ``g``'s random streams: prefix and group key."""
        return self.stream_prefix + tuple(self.group_keys[g])

    @property
    def n_systems(self) -> int:
        return len(self.systems)

    def group(self, g: int) -> slice:
        """The rows of group ``g``."""
        return slice(int(self.offsets[g]), int(self.offsets[g + 1]))

    def n_items(self) -> np.ndarray:
        """Items per group."""
        return np.diff(self.offsets)

    def n_dropped(self) -> np.ndarray:
        """Items dropped per group (int64, zeros when nothing was dropped)."""
        return _per_group(self.dropped, self.n_groups)


@dataclass(frozen=True, kw_only=True)
class TwoSampleDesign:
    """Two independent samples ``a`` and ``b``, possibly in several groups.

    Attributes
    ----------
    a, b : ndarray of float64
        The finite scores of each sample, all groups concatenated.
    a_offsets, b_offsets : ndarray of int64, shape (n_groups + 1,)
        ``a[a_offsets[g]:a_offsets[g + 1]]`` is group ``g``'s sample a.
    labels : tuple
        The labels of the two samples ``(a, b)``.
    column : str
        The name of the score.
    group_names, group_keys : tuple
        As in :class:`PairedDesign`.
    dropped : tuple of int
        Per group, the number of missing values removed (trailing NaN of unequal columns in
        a wide table, NaN padding in a dataset); :meth:`n_dropped` reads it as an array.
    precision : float
        Unit roundoff of the scores as given (:func:`unit_roundoff`): the tie rule of
        :mod:`pairedstats.core.ties` reads ties within it.
    """

    a: np.ndarray
    b: np.ndarray
    a_offsets: np.ndarray
    b_offsets: np.ndarray
    labels: tuple = ("a", "b")
    column: str = "score"
    group_names: tuple = ()
    group_keys: tuple = ((),)
    dropped: tuple = (0,)
    precision: float = 2.0**-53

    @property
    def n_groups(self) -> int:
        return len(self.a_offsets) - 1

    def n_dropped(self) -> np.ndarray:
        """Values dropped per group (int64, zeros when nothing was dropped)."""
        return _per_group(self.dropped, self.n_groups)

    def samples(self, g: int) -> tuple[np.ndarray, np.ndarray]:
        """The two samples of group ``g``."""
        a = self.a[self.a_offsets[g] : self.a_offsets[g + 1]]
        b = self.b[self.b_offsets[g] : self.b_offsets[g + 1]]
        return a, b


def _per_group(dropped: tuple, n_groups: int) -> np.ndarray:
    out = np.zeros(n_groups, dtype=np.int64)
    if any(dropped):
        out[:] = dropped
    return out


def comparison_pairs(
    systems: Sequence[Hashable], baseline: Hashable | None = None
) -> list[tuple[int, int]]:
    """Index pairs ``(a, b)`` of the comparisons, following the contract.

    With a baseline, one pair ``(baseline, other)`` per other system, in system order;
    otherwise all pairs with ``a`` before ``b`` in system order. Differences read b minus a.

    Examples
    --------
    >>> comparison_pairs(["x", "y", "z"])
    [(0, 1), (0, 2), (1, 2)]
    >>> comparison_pairs(["x", "y", "z"], baseline="y")
    [(1, 0), (1, 2)]
    """
    systems = list(systems)
    if baseline is None:
        k = len(systems)
        return [(i, j) for i in range(k) for j in range(i + 1, k)]
    base = systems.index(baseline)
    return [(base, j) for j in range(len(systems)) if j != base]
