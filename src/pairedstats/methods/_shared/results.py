"""The shared shape of all result objects: the data, its columns, a table and a Dataset.

Each method has one frozen, keyword-only dataclass that subclasses :class:`ComparisonResult`.
Its per-comparison quantities are arrays of shape ``(n_groups, n_comparisons)`` named in the
class variable ``_columns``; the base turns them into :attr:`~ComparisonResult.columns`, a
tidy table (:meth:`~ComparisonResult.to_dataframe`) and an :class:`xarray.Dataset`
(:meth:`~ComparisonResult.to_dataset`). Each result class declares what the displays and
plots need (its label columns, its estimate, its interval, its significance rule); the
tables are functions of :mod:`pairedstats.display` and the plots of
:mod:`pairedstats.plotting`. The arrays of a result are read-only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ... import display
from ...core.draws import canonical_bytes
from ...core.ranktest import underflow_bounds
from .base import GroupedResult

__all__ = [
    "ComparisonResult",
    "IntervalRule",
    "PValueRule",
    "RankTestResult",
    "SystemTable",
    "labelled_flags",
    "labelled_frame",
]


@dataclass(frozen=True, kw_only=True)
class ComparisonResult(GroupedResult):
    """Base class of the comparison results: labels, metadata, columns and the conversions.

    Attributes
    ----------
    group_names : tuple of str
        Names of the grouping keys (``by=`` columns or sweep dimensions).
    group_keys : tuple of tuple
        One key per group, in the order of the arrays' first axis.
    label_a, label_b : tuple
        For each comparison, the labels of its two sides (b minus a).
    metadata : dict
        What is needed to re-run the call: method, n_resamples, confidence level, seed
        entropy, package version, and method-specific settings. Copied to
        ``DataFrame.attrs`` and ``Dataset.attrs``.

    The group labels, the metadata and the read-only rule of its arrays are
    :class:`~pairedstats.methods._shared.base.GroupedResult`'s.

    Notes
    -----
    What a result class declares (class variables):

    ``label_columns``
        The names of the two label columns (``("system_a", "system_b")``; rank-sum:
        ``("group_a", "group_b")``); they index the comparison dimension of
        :meth:`to_dataset`.
    ``estimate``
        The column the comparison is about (``"difference"``; rank-sum: ``"shift"``):
        the dot of a forest plot, the column that carries a table's significance marker.
    ``interval``
        The two columns of its confidence interval, or None.
    ``pvalue_columns``
        The columns that hold p-values (tables print those below ``10**-digits`` as a
        bound).
    ``trials_column``
        The per-row count of Monte Carlo trials when ``pvalue`` holds Monte Carlo fractions
        (0 where exact), or None: a p-value of 0 is then shown as ``<1/trials``
        (:meth:`pvalue_bounds`).
    ``count_columns``
        Float columns that hold counts (NaN where there is none, e.g. Tukey HSD's
        ``exceeding``): displays show them as integers, as the integer columns.
    ``summary_columns``
        The columns a LaTeX table shows by default.
    ``title``, ``printed_metadata``
        The first line of a printed table, and the settings printed under it.

    Its significance rule is its method :meth:`significant` (see :class:`PValueRule` and
    :class:`IntervalRule`).
    """

    label_a: tuple
    label_b: tuple

    _columns: ClassVar[tuple[str, ...]] = ()
    label_columns: ClassVar[tuple[str, str]] = ("system_a", "system_b")
    estimate: ClassVar[str] = "difference"
    #: The columns of each side's own number (a system's mean; a pass rate for 0/1 scores).
    side_columns: ClassVar[tuple[str, str]] = ("mean_a", "mean_b")
    interval: ClassVar[tuple[str, str] | None] = None
    trials_column: ClassVar[str | None] = None
    count_columns: ClassVar[tuple[str, ...]] = ()
    pvalue_columns: ClassVar[tuple[str, ...]] = ()
    summary_columns: ClassVar[tuple[str, ...]] = ()
    title: ClassVar[str] = ""
    printed_metadata: ClassVar[tuple[str, ...]] = (
        "method",
        "method_requested",
        "n_resamples",
        "confidence_level",
        "alternative",
        "adjust",
        "seed_entropy",
    )

    def __init_subclass__(cls, **kwargs):
        # The printed table is the repr (in a terminal, and IPython's text/plain): the
        # generated dataclass repr would dump every array, the bootstrap distribution too.
        # Set before @dataclass runs, which keeps a __repr__ the class already defines.
        super().__init_subclass__(**kwargs)
        if "__repr__" not in cls.__dict__:
            cls.__repr__ = ComparisonResult._table_repr

    def _table_repr(self) -> str:
        n_groups, n_comp = len(self.group_keys), len(self.label_a)
        return f"<{type(self).__name__}: {n_groups} group(s) x {n_comp} comparison(s)>\n{self}"

    # ----------------------------------------------------------------- columns
    @property
    def columns(self) -> dict[str, np.ndarray]:
        """The quantity columns: name -> 1-D read-only array, in documented order.

        One value per row of :meth:`to_dataframe` (group-major, comparisons in order); a
        column the call did not compute (None, e.g. ``n_clusters`` without ``cluster``) is
        left out.
        """
        n_rows = len(self.group_keys) * len(self.label_a)
        out = {}
        for name in self._columns:
            value = getattr(self, name)
            if value is not None:
                out[name] = np.asarray(value).reshape(n_rows)
        return out

    def to_dataframe(self):
        """The result as a tidy table: one row per group and comparison.

        Returns
        -------
        pandas.DataFrame
            Group key columns first, then the two label columns, then :attr:`columns`
            (writable copies). ``attrs`` holds the metadata.
        """

        n_groups = len(self.group_keys)
        n_comp = len(self.label_a)
        data: dict[str, Any] = {}
        for j, name in enumerate(self.group_names):
            keys = [key[j] for key in self.group_keys]
            data[name] = np.repeat(label_array(keys), n_comp)
        data[self.label_columns[0]] = np.tile(label_array(self.label_a), n_groups)
        data[self.label_columns[1]] = np.tile(label_array(self.label_b), n_groups)
        for name, values in self.columns.items():
            data[name] = values.copy()
        return labelled_frame(data, (*self.group_names, *self.label_columns), self.metadata)

    def to_dataset(self):
        """The result as an :class:`xarray.Dataset`.

        Labels keep their values and types: a coordinate whose labels are all of one plain
        type (text, integers, floats, booleans) has that type's dtype, any other (labels of
        mixed types, tuples) is an object coordinate holding the labels as given.

        Returns
        -------
        xarray.Dataset
            Dimensions: the group names (sweep dimensions or ``by=`` keys) and
            ``comparison``, indexed by the two label coordinates (a MultiIndex:
            ``res.sel(system_b="x")``, ``res.sel(system_a="x", system_b="y")``). With
            ``by=`` keys that do not form a full grid, the missing cells are NaN (integers
            and booleans then become floats and objects).
        """
        import xarray as xr

        named = [n for n in self.group_names if isinstance(n, tuple)]
        if named:
            raise ValueError(
                f"`by`: the group column {named[0]!r} has a tuple name (a MultiIndex column), "
                "which xarray cannot take as a dimension name. Use to_dataframe(), or give "
                "the column a flat name first (e.g. df.columns = ['_'.join(map(str, c)) for "
                "c in df.columns])."
            )
        names = list(self.group_names)
        levels, positions = group_grid(self.group_keys, len(names))
        shape = tuple(len(v) for v in levels)
        full = int(np.prod(shape, dtype=np.int64)) == len(self.group_keys)
        n_comp = len(self.label_a)
        dims = (*names, "comparison")
        data = {}
        for name, values in self.columns.items():
            values = values.reshape(len(self.group_keys), n_comp)
            if not full:
                values = values.astype(_with_missing(values.dtype), copy=False)
            out = np.empty((*shape, n_comp), dtype=values.dtype)
            if not full:
                out[...] = np.nan
            out[(*positions, slice(None))] = values
            data[name] = (dims, out)
        coords = {n: (n, coordinate_values(v)) for n, v in zip(names, levels)}
        ds = xr.Dataset(data, coords=coords)
        pairs = comparison_coordinates(self.label_columns, self.label_a, self.label_b)
        ds = ds.assign_coords(pairs)
        ds.attrs.update({k: v for k, v in self.metadata.items() if v is not None})
        return ds

    # ----------------------------------------------------------------- decisions
    def significant(self, alpha: float | None = None) -> np.ndarray:
        """Which comparisons are significant: booleans of shape (n_groups, n_comparisons).

        Each result class has its own rule (:class:`PValueRule`, :class:`IntervalRule`).
        """
        raise TypeError(f"{type(self).__name__} declares no significance rule")

    @property
    def caveat(self) -> str | None:
        """A line the displays print under the settings, or None (e.g. that several
        comparisons are unadjusted)."""
        return None

    def significance_note(self, alpha: float | None = None) -> str:
        """The rule of :meth:`significant` as a LaTeX table note (e.g. ``$p < 0.05$``)."""
        raise TypeError(f"{type(self).__name__} declares no significance rule")

    def pvalue_bounds(self) -> dict[str, np.ndarray]:
        """What a p-value of 0 stands for: per p-value column estimated from random draws,
        one float per row of :meth:`to_dataframe`, the bound below which the p-value lies at
        the draws' resolution (``1 / trials``), 0 where a 0 would be exact. Displays show
        such a 0 as ``<`` its bound (:mod:`pairedstats.display`).

        Here: ``pvalue``, with a ``trials_column`` (Monte Carlo fractions of that many
        trials, 0 trials where exact); none without one.
        """
        if self.trials_column is None:
            return {}
        trials = np.asarray(self.columns[self.trials_column], dtype=float)
        with np.errstate(divide="ignore"):
            return {"pvalue": np.where(trials > 0, 1.0 / trials, 0.0)}

    # ------------------------------------------------- displays and plots (delegations)
    def __str__(self) -> str:
        return display.text_table(self)

    def _repr_html_(self) -> str:
        return display.html_table(self)

    def to_markdown(self) -> str:
        """The result as a Markdown table: :func:`pairedstats.display.markdown_table`.

        Examples
        --------
        >>> import pairedstats
        >>> res = pairedstats.ranksum([1.0, 2, 3, 4, 5], [6.0, 7, 8, 9, 10])
        >>> print(res.to_markdown().splitlines()[2][:44])
        | a | b | 5 | 5 | 15 | 0 | 27.5 | 22.9167 |
        """
        return display.markdown_table(self)

    #: The result as a LaTeX table with significance markers
    #: (:func:`pairedstats.display.latex_table`, whose keywords it takes).
    to_latex = display.latex_table

    def plot(self, kind: str = "auto", **keywords):
        """Plot the result: :func:`pairedstats.plotting.plot`."""
        from ... import plotting

        return plotting.plot(self, kind, **keywords)


def check_alpha(alpha) -> None:
    """``alpha`` of a significance rule: None (the default 0.05) or a number in (0, 1)."""
    if alpha is not None and (
        isinstance(alpha, bool) or not isinstance(alpha, int | float) or not 0 < alpha < 1
    ):
        raise ValueError(f"`alpha` must be a number in (0, 1); got {alpha!r}")


class PValueRule:
    """Significance by p-value: ``pvalue < alpha`` (default ``alpha=0.05``).

    Mixed into the results with a ``pvalue`` column that decides (Tukey HSD, rank-sum).
    """

    def significant(self, alpha: float | None = None):
        """Which comparisons are significant: ``pvalue < alpha``.

        Parameters
        ----------
        alpha : float, optional
            Significance level, in (0, 1); default 0.05.

        Returns
        -------
        pandas.DataFrame of bool
            :func:`labelled_flags`.
        """
        check_alpha(alpha)
        flags = np.asarray(self.pvalue, dtype=float) < (0.05 if alpha is None else float(alpha))
        return labelled_flags(self, flags)

    def significance_note(self, alpha: float | None = None) -> str:
        """The rule as a LaTeX table note, ``$p < alpha$``."""
        return f"$p < {0.05 if alpha is None else alpha:g}$"


class IntervalRule:
    """Significance by interval: the confidence interval excludes 0.

    That is the two-sided decision at ``alpha = 1 - confidence_level``; mixed into the
    results decided by their interval (bootstrap).
    """

    def significant(self, alpha: float | None = None):
        """Which comparisons are significant: the interval excludes 0.

        Parameters
        ----------
        alpha : float, optional
            Must be ``1 - confidence_level`` when given (the interval decides at that
            level); another value raises a ``ValueError`` (re-run with that confidence
            level instead).

        Returns
        -------
        pandas.DataFrame of bool
            One row per group, one column per comparison (:func:`labelled_flags`);
            ``.to_numpy()`` is the ``(n_groups, n_comparisons)`` array.
        """
        check_alpha(alpha)
        confidence = self.metadata.get("confidence_level")
        if alpha is not None and (confidence is None or abs((1 - confidence) - alpha) > 1e-12):
            raise ValueError(
                f"`alpha`: this result has {confidence} confidence intervals, so it "
                f"decides at alpha = 1 - {confidence}; got alpha={alpha!r}. Re-run with "
                f"confidence_level={1 - alpha:g} instead"
            )
        low, high = (np.asarray(getattr(self, c), dtype=float) for c in self.interval)
        return labelled_flags(self, (low > 0) | (high < 0))

    def significance_note(self, alpha: float | None = None) -> str:
        """The rule as a LaTeX table note, ``95\\% interval excludes 0``."""
        return f"{self.metadata.get('confidence_level', 0.95) * 100:g}\\% interval excludes 0"


@dataclass(frozen=True, kw_only=True)
class RankTestResult(PValueRule, ComparisonResult):
    """What the rank tests' results share (rank-sum, signed-rank): arrays of shape
    ``(n_groups, n_comparisons)``, significant when ``pvalue < alpha``.

    Attributes
    ----------
    null_mean, null_variance : ndarray
        Null mean and tie-corrected null variance of the rank statistic.
    z : ndarray
        Normal score, positive when b tends to exceed a; continuity-corrected (0.5 toward
        the null for the chosen ``alternative``) when ``correction=True``.
    pvalue : ndarray
        p-value for ``alternative`` (about b - a) by the method in ``method``.
    shift : ndarray
        The Hodges-Lehmann estimate of the shift of b - a.
    ci_low, ci_high : ndarray
        Distribution-free interval for the shift (one end infinite for one-sided
        alternatives).
    ci_coverage : ndarray
        Coverage the interval guarantees for continuous data: on the exact path
        ``1 - P(miss)`` from the exact null; on the asymptotic path the nominal level.
    method : ndarray of str
        ``"exact"``, ``"exact-conditional"`` (exact given the tied midranks) or
        ``"asymptotic"``: what each comparison used.
    """

    null_mean: np.ndarray
    null_variance: np.ndarray
    z: np.ndarray
    pvalue: np.ndarray
    shift: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    ci_coverage: np.ndarray
    method: np.ndarray

    #: The shared columns, in the order a subclass's ``_columns`` shows them.
    test_columns: ClassVar[tuple[str, ...]] = (
        "null_mean", "null_variance", "z", "pvalue", "shift", "ci_low", "ci_high", "ci_coverage",
    )  # fmt: skip
    estimate: ClassVar[str] = "shift"
    interval: ClassVar[tuple[str, str]] = ("ci_low", "ci_high")
    pvalue_columns: ClassVar[tuple[str, ...]] = ("pvalue",)
    printed_metadata = ("alternative", "confidence_level", "method_requested", "correction")

    def pvalue_bounds(self) -> dict[str, np.ndarray]:
        """A normal p-value of 0 underflowed: it stands for one below the smallest positive
        double (:func:`pairedstats.core.ranktest.underflow_bounds`)."""
        return {"pvalue": underflow_bounds(self.columns["pvalue"], self.columns["method"])}


@dataclass(frozen=True, kw_only=True)
class SystemTable(GroupedResult):
    """The table of a result with one row per system (per group): the ranking's, the best
    set's. The class lists its quantities in ``_system_columns``, each an array of shape
    ``(n_groups, n_systems)`` (read-only once made, as every result's arrays).

    Attributes
    ----------
    group_names, group_keys, metadata
        As in :class:`~pairedstats.methods._shared.base.GroupedResult`.
    systems : tuple
        The system labels, in system order (the arrays' last axis).
    """

    systems: tuple

    _system_columns: ClassVar[tuple] = ()

    @property
    def columns(self) -> dict:
        """The quantity columns: name -> 1-D array, one value per row of ``to_dataframe()``
        (group-major, systems in order)."""
        return {name: np.asarray(getattr(self, name)).reshape(-1) for name in self._system_columns}

    def _system_frame(self):
        """The group keys, ``system`` and the columns, one row per group and system, with
        the metadata in ``attrs``."""

        n_groups, p = len(self.group_keys), len(self.systems)
        data = {}
        for j, name in enumerate(self.group_names):
            data[name] = np.repeat(label_array([key[j] for key in self.group_keys]), p)
        data["system"] = np.tile(label_array(self.systems), n_groups)
        data.update({k: v.copy() for k, v in self.columns.items()})
        return labelled_frame(data, (*self.group_names, "system"), self.metadata)

    def to_dataset(self):
        """The table as an :class:`xarray.Dataset`.

        Returns
        -------
        xarray.Dataset
            The variables of :attr:`columns` over the group dimensions (sweep dimensions or
            ``by=`` keys) and ``system``. ``by=`` keys that do not form a full grid leave
            NaN in the missing cells.
        """
        import xarray as xr

        names = list(self.group_names)
        levels, positions = group_grid(self.group_keys, len(names))
        shape = tuple(len(v) for v in levels)
        full = int(np.prod(shape, dtype=np.int64)) == len(self.group_keys)
        data = {}
        for name in self._system_columns:
            values = np.asarray(getattr(self, name))
            if not full:
                values = values.astype(_with_missing(values.dtype))
            out = np.empty((*shape, len(self.systems)), dtype=values.dtype)
            if not full:
                out[...] = np.nan
            out[(*positions, slice(None))] = values
            data[name] = ((*names, "system"), out)
        coords = {n: (n, coordinate_values(v)) for n, v in zip(names, levels)}
        coords["system"] = ("system", coordinate_values(self.systems))
        ds = xr.Dataset(data, coords=coords)
        ds.attrs.update({k: v for k, v in self.metadata.items() if v is not None})
        return ds


def labelled_flags(result, flags: np.ndarray):
    """``(n_groups, n_comparisons)`` decisions as a table: one row per group (indexed by the
    group keys, or one unnamed row without groups), one column per comparison (indexed by
    the two label columns, e.g. ``system_a`` and ``system_b``).

    ``flags.loc[:, ("bm25", "dense")]`` selects a comparison, ``flags.loc[("robust04",)]``
    a group, ``flags.to_numpy()`` the array.
    """
    import pandas as pd

    columns = pd.MultiIndex.from_tuples(
        list(zip(result.label_a, result.label_b, strict=True)), names=list(result.label_columns)
    )
    if result.group_names:
        index = pd.MultiIndex.from_tuples(result.group_keys, names=list(result.group_names))
    else:
        index = pd.RangeIndex(1)
    return pd.DataFrame(np.asarray(flags, dtype=bool), index=index, columns=columns)


def comparison_coordinates(names: tuple[str, str], label_a, label_b):
    """The coordinates of the comparison dimension: ``names`` indexed together.

    A MultiIndex over the two label coordinates, so that ``sel`` takes either or both.
    Labels that pandas cannot keep apart in an index level (``1`` and ``True``, ``1`` and
    ``1.0`` on one side) give the two coordinates without an index.

    Returns
    -------
    xarray.Coordinates
    """
    import pandas as pd
    import xarray as xr
    from xarray.indexes import PandasMultiIndex

    values = [coordinate_values(label_a), coordinate_values(label_b)]
    levels, codes = [], []
    for side in values:
        level, code = _factorize(side)
        levels.append(pd.Index(level, dtype=object, tupleize_cols=False))
        codes.append(code)
    if not all(level.is_unique for level in levels):
        return xr.Coordinates({n: ("comparison", v) for n, v in zip(names, values)})
    index = pd.MultiIndex(levels=levels, codes=codes, names=list(names))
    dtypes = {n: v.dtype for n, v in zip(names, values)}
    return xr.Coordinates.from_xindex(PandasMultiIndex(index, "comparison", dtypes))


def labelled_frame(data: dict, labels, metadata: dict):
    """A result's table from its columns ``data``: the label columns ``labels`` keep their
    labels' own types (object arrays inferred back: integers stay integers), ``attrs`` the
    metadata."""
    import pandas as pd

    frame = pd.DataFrame(data)
    for name in labels:
        frame[name] = frame[name].infer_objects()
    frame.attrs.update(metadata)
    return frame


def _factorize(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct labels (by value and type, in order of appearance) and each one's code."""
    seen: dict[bytes, int] = {}
    level = []
    codes = np.empty(len(values), dtype=np.intp)
    for i, value in enumerate(values.tolist()):
        code = seen.setdefault(canonical_bytes(value), len(level))
        if code == len(level):
            level.append(value)
        codes[i] = code
    return label_array(level), codes


def group_grid(group_keys, n_names: int) -> tuple[list[list], list[np.ndarray]]:
    """Each group dimension's labels in order of first appearance (typed, so that 1 and
    "1" or True stay distinct), and each group's position along it."""
    levels, positions = [], []
    for j in range(n_names):
        seen: dict[bytes, int] = {}
        values = []
        where = []
        for key in group_keys:
            code = seen.setdefault(canonical_bytes(key[j]), len(values))
            if code == len(values):
                values.append(key[j])
            where.append(code)
        levels.append(values)
        positions.append(np.asarray(where, dtype=np.intp))
    return levels, positions


def label_array(values) -> np.ndarray:
    """Labels as a 1-D object array, element by element: a tuple label stays one element
    (``np.asarray`` would make a list of pairs a 2-D array)."""
    values = list(values)
    out = np.empty(len(values), dtype=object)
    for i, value in enumerate(values):
        out[i] = value
    return out


_PLAIN = (str, bool, int, float)


def coordinate_values(labels) -> np.ndarray:
    """Labels as the values of an xarray coordinate, each keeping its type.

    Labels all of one plain type get that type's numpy dtype (as ``np.asarray`` gives);
    labels of mixed types or of other types (tuples, ...) an object array of the labels as
    given: ``np.asarray([1, "1"])`` would turn 1 into "1", and tuples into rows.
    """
    labels = [x.item() if isinstance(x, np.generic) else x for x in labels]
    kinds = {type(x) for x in labels}
    if len(kinds) == 1 and next(iter(kinds)) in _PLAIN:
        values = np.asarray(labels)
        if values.ndim == 1 and values.dtype != object:
            return values
    return label_array(labels)


def _with_missing(dtype: np.dtype) -> np.dtype:
    """The dtype that holds ``dtype``'s values and NaN (as xarray's unstack promotes)."""
    if dtype.kind in "fc":
        return dtype
    if dtype.kind in "iu":
        return np.dtype(np.float64)
    return np.dtype(object)
