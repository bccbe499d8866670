"""The shared shape of all result objects.

Each method has one frozen, keyword-only dataclass that subclasses :class:`ComparisonResult`.
Its per-comparison quantities are arrays of shape ``(n_groups, n_comparisons)`` named in the
class variable ``_columns``; the base class turns them into a tidy table (one row per group
and comparison, label columns first), an :class:`xarray.Dataset` and a printed table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from .core.streams import canonical_bytes
from .display import latex_number, number_text, pvalue_bound_text

__all__ = ["ComparisonResult"]


@dataclass(frozen=True, kw_only=True)
class ComparisonResult:
    """Base class of the results: labels, metadata and the conversions.

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
    """

    group_names: tuple = ()
    group_keys: tuple = ((),)
    label_a: tuple
    label_b: tuple
    metadata: dict = field(default_factory=dict)

    _columns: ClassVar[tuple[str, ...]] = ()
    _label_columns: ClassVar[tuple[str, str]] = ("system_a", "system_b")
    _title: ClassVar[str] = ""

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

    # ------------------------------------------------------------------ tables
    def _column_arrays(self) -> dict[str, np.ndarray]:
        return {name: np.asarray(getattr(self, name)) for name in self._columns}

    def to_dataframe(self):
        """The result as a tidy table: one row per group and comparison.

        Returns
        -------
        pandas.DataFrame
            Group key columns first, then the two label columns, then the quantities in
            the order of the class's documentation. ``attrs`` holds the metadata.
        """
        import pandas as pd

        n_groups = len(self.group_keys)
        n_comp = len(self.label_a)
        data: dict[str, Any] = {}
        for j, name in enumerate(self.group_names):
            keys = [key[j] for key in self.group_keys]
            data[name] = np.repeat(_label_array(keys), n_comp)
        data[self._label_columns[0]] = np.tile(_label_array(self.label_a), n_groups)
        data[self._label_columns[1]] = np.tile(_label_array(self.label_b), n_groups)
        for name, values in self._column_arrays().items():
            data[name] = values.reshape(n_groups * n_comp)
        frame = pd.DataFrame(data)
        for name in (*self.group_names, *self._label_columns):
            frame[name] = frame[name].infer_objects()
        frame.attrs.update(self.metadata)
        return frame

    def to_dataset(self):
        """The result as an :class:`xarray.Dataset`.

        Labels keep their values and types: a coordinate whose labels are all of one plain
        type (text, integers, floats, booleans) has that type's dtype, any other (labels of
        mixed types, tuples) is an object coordinate holding the labels as given.

        Returns
        -------
        xarray.Dataset
            Dimensions: the group names (sweep dimensions or ``by=`` keys) and
            ``comparison``, with the two label coordinates along ``comparison``. With
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
        n_comp = len(self.label_a)
        coords = {
            self._label_columns[0]: ("comparison", _coordinate_values(self.label_a)),
            self._label_columns[1]: ("comparison", _coordinate_values(self.label_b)),
            "comparison": np.arange(n_comp),
        }
        arrays = self._column_arrays()
        names = list(self.group_names)
        # each group dimension: its labels in order of first appearance (typed, so that
        # 1 and "1" or True stay distinct), and each group's position along it
        levels, positions = [], []
        for j in range(len(names)):
            seen: dict[bytes, int] = {}
            values = []
            where = []
            for key in self.group_keys:
                code = canonical_bytes(key[j])
                if code not in seen:
                    seen[code] = len(values)
                    values.append(key[j])
                where.append(seen[code])
            levels.append(values)
            positions.append(np.asarray(where, dtype=np.intp))
        shape = tuple(len(v) for v in levels)
        full = int(np.prod(shape, dtype=np.int64)) == len(self.group_keys)
        dims = (*names, "comparison")
        data = {}
        for name, values in arrays.items():
            values = np.asarray(values).reshape(len(self.group_keys), n_comp)
            if not full:
                values = values.astype(_with_missing(values.dtype), copy=False)
            out = np.empty((*shape, n_comp), dtype=values.dtype)
            if not full:
                out[...] = np.nan
            out[(*positions, slice(None))] = values
            data[name] = (dims, out)
        coords.update({n: (n, _coordinate_values(v)) for n, v in zip(names, levels)})
        ds = xr.Dataset(data, coords=coords)
        ds.attrs.update({k: v for k, v in self.metadata.items() if v is not None})
        return ds

    # ----------------------------------------------------------------- display
    def _monte_carlo_zeros(self) -> np.ndarray:
        """Per row of :meth:`to_dataframe`, the trials of a Monte Carlo p-value of 0, else 0.

        A result whose p-values are Monte Carlo fractions (no +1) has a per-row
        ``n_resamples`` column, 0 where the p-value is exact: its p-value of 0 means that no
        trial reached the observed statistic, that is a p-value below ``1 / n_resamples``,
        and displays show that bound. An exact p-value is never 0 (the observed arrangement
        is one of those counted).
        """
        n_rows = len(self.group_keys) * len(self.label_a)
        if "pvalue" not in self._columns or "n_resamples" not in self._columns:
            return np.zeros(n_rows, dtype=np.int64)
        pvalue = np.asarray(self.pvalue, dtype=float).reshape(n_rows)
        trials = np.asarray(self.n_resamples, dtype=np.int64).reshape(n_rows)
        return np.where((pvalue == 0) & (trials > 0), trials, 0)

    def _display_frame(self, frame):
        """``frame`` (:meth:`to_dataframe`) with its quantities as displayed text."""
        shown = frame.copy()
        for name in frame.columns[len(self.group_names) + 2 :]:
            if frame[name].dtype.kind == "f":
                shown[name] = [number_text(v) for v in frame[name].tolist()]
        zeros = self._monte_carlo_zeros()
        for row in np.flatnonzero(zeros):
            shown.loc[row, "pvalue"] = pvalue_bound_text(int(zeros[row]))
        return shown

    def __str__(self) -> str:
        body = self._display_frame(self.to_dataframe()).to_string(index=False)
        meta = self._meta_line()
        lines = [self._title] if self._title else []
        if meta:
            lines.append(meta)
        lines.append(body)
        return "\n".join(lines)

    _printed_metadata: ClassVar[tuple[str, ...]] = (
        "method",
        "interval",
        "n_resamples",
        "confidence_level",
        "alternative",
        "seed_entropy",
    )

    def _meta_line(self) -> str:
        return ", ".join(
            f"{k}={v}" for k, v in self.metadata.items() if k in self._printed_metadata
        )

    def _repr_html_(self) -> str:
        import html

        frame = self._display_frame(self.to_dataframe())
        title = f"<p><b>{html.escape(self._title)}</b></p>" if self._title else ""
        meta = self._meta_line()
        meta = f"<p><small>{html.escape(meta)}</small></p>" if meta else ""
        return title + meta + frame.to_html(index=False)

    def to_markdown(self) -> str:
        """The result as a Markdown table (GitHub's pipe tables), numbers right-aligned.

        Numbers are shown as printed (6 significant digits, a Monte Carlo p-value of 0 as
        ``<1/n_resamples``); the result keeps full precision.

        Returns
        -------
        str

        Examples
        --------
        >>> import pairedstats
        >>> res = pairedstats.ranksum([1.0, 2, 3, 4, 5], [6.0, 7, 8, 9, 10])
        >>> print(res.to_markdown().splitlines()[2][:44])
        | a | b | 5 | 5 | 15 | 0 | 27.5 | 22.9167 |
        """
        frame = self.to_dataframe()
        shown = self._display_frame(frame)

        def row(cells):
            return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"

        rule = "|" + "|".join("---:" if _is_numeric(frame[c]) else "---" for c in frame) + "|"
        body = [row(cells) for cells in shown.itertuples(index=False)]
        return "\n".join([row(frame.columns), rule, *body])

    # ------------------------------------------------------------------ plots
    def plot(self, kind: str = "auto", **keywords):
        """Plot the result (needs matplotlib: ``pip install 'pairedstats[plot]'``).

        Parameters
        ----------
        kind : {"auto", "forest", "pvalues", "distribution"}
            ``forest``: differences with intervals (:func:`pairedstats.plotting.forest`);
            ``pvalues``: the p-value matrix of all pairs
            (:func:`pairedstats.plotting.pvalue_matrix`); ``distribution``: a bootstrap
            distribution with its interval (:func:`pairedstats.plotting.distribution`).
            ``auto``: ``forest`` for results with intervals, else ``pvalues``.
        **keywords
            Passed to the plotting function (``ax=``, ``group=``, ...).

        Returns
        -------
        matplotlib.axes.Axes
        """
        from . import plotting

        kinds = {
            "forest": plotting.forest,
            "pvalues": plotting.pvalue_matrix,
            "distribution": plotting.distribution,
        }
        if kind == "auto":
            kind = "forest" if "ci_low" in self._columns else "pvalues"
        if kind not in kinds:
            raise ValueError(
                f"`kind` must be 'auto', 'forest', 'pvalues' or 'distribution'; got {kind!r}"
            )
        return kinds[kind](self, **keywords)

    # ------------------------------------------------------------ significance
    def significant(self, alpha: float | None = None) -> np.ndarray:
        """Which comparisons are significant: booleans of shape (n_groups, n_comparisons).

        With a ``pvalue`` column (Tukey HSD, rank-sum): ``pvalue < alpha`` (default
        ``alpha=0.05``). With only an interval (bootstrap): the interval excludes 0, which
        is the two-sided decision at ``alpha = 1 - confidence_level``; another ``alpha``
        raises a ``ValueError`` (re-run with that confidence level instead).

        Parameters
        ----------
        alpha : float, optional
            Significance level, in (0, 1).

        Returns
        -------
        numpy.ndarray of bool
        """
        if alpha is not None and (
            isinstance(alpha, bool) or not isinstance(alpha, int | float) or not 0 < alpha < 1
        ):
            raise ValueError(f"`alpha` must be a number in (0, 1); got {alpha!r}")
        if "pvalue" in self._columns:
            level = 0.05 if alpha is None else float(alpha)
            return np.asarray(self.pvalue, dtype=float) < level
        if "ci_low" in self._columns and "ci_high" in self._columns:
            confidence = self.metadata.get("confidence_level")
            if alpha is not None and (confidence is None or abs((1 - confidence) - alpha) > 1e-12):
                raise ValueError(
                    f"`alpha`: this result has {confidence} confidence intervals, so it "
                    f"decides at alpha = 1 - {confidence}; got alpha={alpha!r}. Re-run with "
                    f"confidence_level={1 - alpha:g} instead"
                )
            low = np.asarray(self.ci_low, dtype=float)
            high = np.asarray(self.ci_high, dtype=float)
            return (low > 0) | (high < 0)
        raise TypeError(f"{type(self).__name__} has neither a pvalue nor an interval")

    # ------------------------------------------------------------------ LaTeX
    _latex_default: ClassVar[tuple[str, ...]] = (
        "n_a",
        "n_b",
        "mean_a",
        "mean_b",
        "difference",
        "shift",
        "ci_low",
        "ci_high",
        "pvalue",
    )

    def to_latex(
        self,
        columns=None,
        *,
        alpha: float | None = None,
        marker: str = "*",
        mark: str | None = None,
        digits: int = 3,
        header: dict | None = None,
        caption: str | None = None,
        label: str | None = None,
        note: bool = True,
    ) -> str:
        r"""The result as a LaTeX ``tabular`` (booktabs) with significance markers.

        A significant comparison (see :meth:`significant`: ``pvalue < alpha``, or an interval
        that excludes 0) gets ``marker`` as a superscript on its ``mark`` column, and a last
        row explains the marker. Numbers are formatted for display only: ``digits`` decimals,
        and ``digits`` significant digits for the nonzero numbers below ``10**-digits`` in
        magnitude (``$1.2\times10^{-5}$``, not ``$0.000$``); p-values below
        ``10**-digits`` print as ``<0.001``, and a Monte Carlo p-value of 0 (no trial reached
        the observed statistic) as the bound it stands for, ``<1/n_resamples`` rounded up
        (``$<0.0001$`` for 10,000 trials). The result keeps full precision. The table needs
        ``\usepackage{booktabs}``.

        Parameters
        ----------
        columns : list of str, optional
            Quantity columns to show after the group and label columns. Default: those of
            ``n_a, n_b, mean_a, mean_b, difference, shift, ci_low, ci_high, pvalue`` that
            the result has.
        alpha : float, optional
            Significance level (default 0.05 for p-values; interval-only results decide at
            their ``1 - confidence_level``).
        marker : str
            Superscript of significant comparisons (math mode), default ``"*"``.
        mark : str, optional
            Column that carries the marker: default ``difference`` (or ``shift``).
        digits : int
            Decimals of the floating-point columns (significant digits below
            ``10**-digits``).
        header : dict, optional
            Column name -> LaTeX header (used as given); default: the escaped column names.
        caption, label : str, optional
            When given, the tabular is wrapped in a ``table`` environment with them.
        note : bool
            Add the row explaining the marker (default True).

        Returns
        -------
        str

        Examples
        --------
        >>> import pairedstats
        >>> res = pairedstats.ranksum([1.0, 2, 3, 4, 5], [6.0, 7, 8, 9, 10])
        >>> print(res.to_latex(["n_a", "n_b", "shift", "pvalue"]))
        \begin{tabular}{llrrrr}
        \toprule
        group\_a & group\_b & n\_a & n\_b & shift & pvalue \\
        \midrule
        a & b & $5$ & $5$ & $5.000^{*}$ & $0.008$ \\
        \bottomrule
        \multicolumn{6}{l}{\footnotesize $^{*}$ $p < 0.05$} \\
        \end{tabular}
        """
        frame = self.to_dataframe()
        names = [*self.group_names, *self._label_columns]
        if columns is None:
            columns = [c for c in self._latex_default if c in self._columns]
        else:
            columns = [columns] if isinstance(columns, str) else list(columns)
            unknown = [c for c in columns if c not in frame.columns or c in names]
            if unknown:
                raise ValueError(
                    f"`columns`: no quantity column named {unknown[0]!r}; the result has "
                    + ", ".join(repr(c) for c in frame.columns if c not in names)
                )
        if mark is None:
            mark = next((c for c in ("difference", "shift") if c in columns), None)
        elif mark not in columns:
            raise ValueError(f"`mark`: {mark!r} is not one of the shown columns {columns}")
        if isinstance(digits, bool) or not isinstance(digits, int) or digits < 0:
            raise ValueError(f"`digits` must be a non-negative integer; got {digits!r}")
        flags = self.significant(alpha).reshape(-1)
        if "pvalue" in self._columns:
            rule = f"$p < {0.05 if alpha is None else alpha:g}$"
        else:
            rule = f"{self.metadata.get('confidence_level', 0.95) * 100:g}\\% interval excludes 0"
        header = header or {}
        shown = [*names, *columns]
        heads = [header.get(c, _latex_escape(str(c))) for c in shown]
        spec = "l" * len(names) + "".join("r" if _is_numeric(frame[c]) else "l" for c in columns)
        lines = [f"\\begin{{tabular}}{{{spec}}}", "\\toprule", " & ".join(heads) + r" \\"]
        lines.append("\\midrule")
        zeros = self._monte_carlo_zeros()
        for row, flag, trials in zip(frame.itertuples(index=False), flags, zeros.tolist()):
            values = dict(zip(frame.columns, row))
            cells = [_latex_escape(str(values[c])) for c in names]
            for c in columns:
                star = marker if (flag and c == mark) else None
                bound = trials if c == "pvalue" else 0
                cells.append(_latex_cell(values[c], c, digits, star, bound))
            lines.append(" & ".join(cells) + r" \\")
        lines.append("\\bottomrule")
        if note and mark is not None:
            lines.append(
                f"\\multicolumn{{{len(shown)}}}{{l}}{{\\footnotesize $^{{{marker}}}$ {rule}}}"
                r" \\"
            )
        lines.append("\\end{tabular}")
        body = "\n".join(lines)
        if caption is None and label is None:
            return body
        wrapped = ["\\begin{table}", "\\centering"]
        if caption is not None:
            wrapped.append(f"\\caption{{{caption}}}")
        if label is not None:
            wrapped.append(f"\\label{{{label}}}")
        return "\n".join([*wrapped, body, "\\end{table}"])


def _label_array(values) -> np.ndarray:
    """Labels as a 1-D object array, element by element: a tuple label stays one element
    (``np.asarray`` would make a list of pairs a 2-D array)."""
    values = list(values)
    out = np.empty(len(values), dtype=object)
    for i, value in enumerate(values):
        out[i] = value
    return out


_PLAIN = (str, bool, int, float)


def _coordinate_values(labels) -> np.ndarray:
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
    return _label_array(labels)


def _with_missing(dtype: np.dtype) -> np.dtype:
    """The dtype that holds ``dtype``'s values and NaN (as xarray's unstack promotes)."""
    if dtype.kind in "fc":
        return dtype
    if dtype.kind in "iu":
        return np.dtype(np.float64)
    return np.dtype(object)


_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def _latex_escape(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in text)


def _is_numeric(series) -> bool:
    return series.dtype.kind in "biuf"


def _latex_cell(value, column: str, digits: int, star: str | None, trials: int = 0) -> str:
    """One number in math mode (display formatting only), with an optional superscript;
    ``trials`` > 0 marks a Monte Carlo p-value of 0, shown as its bound."""
    if isinstance(value, str) or value is None:
        return _latex_escape(str(value))
    if isinstance(value, bool | np.bool_):
        return str(bool(value))
    if isinstance(value, int | np.integer):
        text = str(int(value))
    elif np.isnan(number := float(value)):
        return "--"
    elif np.isinf(number):
        text = f"{'-' if number < 0 else ''}\\infty"
    elif trials:
        text = pvalue_bound_text(trials, digits, latex=True)
    elif column.startswith("pvalue") and 0 < number < 10.0**-digits:
        text = f"<{10.0**-digits:.{digits}f}"
    else:
        text = latex_number(number, digits)
    if star:  # a power (1.2\times10^{-5}) is braced: no double superscript
        text = f"{{{text}}}^{{{star}}}" if "^" in text else f"{text}^{{{star}}}"
    return f"${text}$"
