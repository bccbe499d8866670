"""Displays of results: tables (text, HTML, Markdown, LaTeX), how numbers are shown, and
the compact letter display.

The tables are functions of a result (:func:`text_table`, :func:`html_table`,
:func:`markdown_table`, :func:`latex_table`): a result's ``str()``, ``repr()``,
``_repr_html_()``, ``to_markdown()`` and ``to_latex()``, and the command line's text,
Markdown and LaTeX formats. They read what the result class declares (label, p-value and
count columns, estimate, significance rule, ``pvalue_bounds()``), never column names.

One rule, :func:`cell_text`, shows every number of every display (the ranking's printed
table and the p-value matrix's cells too): a count is an integer (``1164``, not ``1164.0``;
Tukey HSD's ``exceeding`` is a float only to hold NaN); other numbers have 6 significant
digits in text, ``digits`` decimals in LaTeX. A p-value of 0 estimated from ``B`` random
draws is shown as the bound it stands for, ``<1/B`` rounded up (``<0.0001`` for 10,000):
its 0 says that no draw reached the observed statistic, an estimate below the resolution
``1/B`` of ``B`` draws, not a p-value of 0 (the exact p-value is likely below about
``3/B``: Tukey HSD's ``pvalue_high``). Tukey HSD's p-value is a share of its trials. The
bootstrap's is read off its ``n_resamples`` replicates (the interval inverted,
:mod:`pairedstats.core.inference`): its 0 says that the replicates put 0 outside the
interval at every level they resolve, and they resolve no level finer than one replicate
in ``n_resamples``; so it is shown as ``<1/n_resamples`` too. Holm's, Bonferroni's and
Benjamini-Hochberg's adjusted p-values multiply by at most the family size ``m``: theirs
is ``<m/B``; Benjamini-Yekutieli's, ``<m c(m)/B`` with ``c(m) = sum_{i<=m} 1/i``; max-t's,
a share of the joint replicates, ``<1/B``. A rank test's normal p-value is 0 only where it
underflowed, below the smallest positive double: ``<4.94066e-324``
(:mod:`pairedstats.core.ranktest`). An exact p-value is never
0. Only displays change: CSV and JSON are data (:func:`data_table`), 0 stays 0.

A compact letter display gives each system one or more letters so that two systems share a
letter exactly when the test did **not** find them different (Piepho 2004, the
insert-and-absorb algorithm). It summarises a Tukey HSD table of all pairs in one column.
"""

from __future__ import annotations

import decimal
import math
import string

import numpy as np

from ._validation import plain

__all__ = ["html_table", "latex_table", "letters", "markdown_table", "text_table"]

TEXT_DIGITS = 6
"""Significant digits of printed, Markdown and HTML tables."""


def label_text(label) -> str:
    """A system's or group's label as every display shows it: ``str`` of the value, never
    rounded (a float keeps its shortest round-trip digits); a tuple's numpy scalars plain.

    >>> label_text(0.1234561), label_text(np.float32(0.1)), label_text(("a", np.int64(1)))
    ('0.1234561', '0.1', "('a', 1)")
    """
    return str(tuple(map(plain, label)) if isinstance(label, tuple) else label)


def number_text(value: float, digits: int = TEXT_DIGITS) -> str:
    """A float as text with ``digits`` significant digits (``NaN``, ``inf`` spelled out).

    Examples
    --------
    >>> number_text(0.1234567), number_text(1.2e-5), number_text(300.0), number_text(-0.5)
    ('0.123457', '1.2e-05', '300', '-0.5')
    """
    if math.isnan(value):
        return "NaN"
    return f"{value:.{max(digits, 1)}g}"


def _latex_power(text: str) -> str:
    mantissa, _, exponent = text.partition("e")
    return f"{mantissa}\\times10^{{{int(exponent)}}}" if exponent else text


def latex_number(value: float, digits: int, *, latex: bool = True) -> str:
    r"""A finite float with ``digits`` decimals, or ``digits`` significant digits for a
    nonzero number below the last decimal (``|value| < 10**-digits``), which the decimals
    would show as 0 or as a single digit: for LaTeX math mode, or as text (``latex=False``).

    Examples
    --------
    >>> latex_number(0.04678, 3), latex_number(1.2e-5, 3), latex_number(-0.00042, 3)
    ('0.047', '1.2\\times10^{-5}', '-0.00042')
    >>> latex_number(0.0, 3), latex_number(1.2e-5, 3, latex=False)
    ('0.000', '1.2e-05')
    """
    if value == 0 or abs(value) >= 10.0**-digits:
        return f"{value:.{digits}f}"
    text = number_text(value, digits)
    return _latex_power(text) if latex else text


def rounded_up(value: float, digits: int) -> float:
    """``value`` (positive) rounded up to ``digits`` significant digits.

    Rounded from its shortest decimal (``repr``): ``1 / 10_000`` is 0.0001, not the binary
    float just above it. The bound a p-value of 0 stands for is rounded up, so that the
    displayed statement (``<0.000333334`` for ``1 / 3000``) stays true.

    Examples
    --------
    >>> rounded_up(1 / 10_000, 6), rounded_up(1 / 3_000, 3), rounded_up(1 / 3_000, 6)
    (0.0001, 0.000334, 0.000333334)
    """
    context = decimal.Context(prec=max(digits, 1), rounding=decimal.ROUND_CEILING)
    return float(context.plus(decimal.Decimal(repr(float(value)))))


def bound_text(bound: float, digits: int = TEXT_DIGITS, *, latex: bool = False) -> str:
    r"""How a p-value of 0 that stands for a p-value below ``bound`` is shown: ``<`` the
    bound rounded up to ``digits`` significant digits.

    Examples
    --------
    >>> bound_text(1 / 10_000), bound_text(1 / 500, 3), bound_text(3 / 10_000)
    ('<0.0001', '<0.002', '<0.0003')
    >>> bound_text(1 / 1_000_000, 3, latex=True)
    '<1\\times10^{-6}'
    """
    text = number_text(rounded_up(bound, digits), digits)
    return "<" + (_latex_power(text) if latex else text)


def cell_text(value, *, digits: int = TEXT_DIGITS, latex: bool = False, count: bool = False,
              pvalue: bool = False, bound: float = 0.0, decimals: bool = False,
              sign: bool = False) -> str:  # fmt: skip
    r"""How one value of a table is shown: the one rule of every display.

    ``digits``: significant digits of text, decimals in LaTeX (``latex``: math mode without
    the ``$``; NaN as ``--``, p-values below ``10**-digits`` as ``<0.001``) and in text with
    ``decimals`` (a report's cells); ``sign``: ``+`` before a number that is not negative.
    ``count``: the value counts something, shown as an integer. ``pvalue``: the value is a
    p-value, whose 0 stands for a p-value below ``bound`` when ``bound > 0`` (``1 /
    n_resamples`` for one estimated from random draws), shown as ``<`` the bound rounded up.

    Examples
    --------
    >>> cell_text(0.0, pvalue=True, bound=1e-4), cell_text(0.0, pvalue=True)
    ('<0.0001', '0')
    >>> cell_text(1164.0, count=True), cell_text(1164000.0, count=True)
    ('1164', '1164000')
    >>> cell_text(0.0, latex=True, digits=3, pvalue=True, bound=1e-4)
    '<0.0001'
    >>> cell_text(0.0004, latex=True, digits=3, pvalue=True)
    '<0.001'
    >>> cell_text(0.04678, latex=True, digits=3), cell_text(float("nan"), latex=True)
    ('0.047', '--')
    >>> cell_text(0.04678, decimals=True, digits=3), cell_text(0.0, decimals=True, sign=True)
    ('0.047', '+0.000000')
    """
    if value is None or isinstance(value, str):
        return _latex_escape(str(value)) if latex else str(value)
    if isinstance(value, bool | np.bool_):
        return str(bool(value))
    number = float(value)
    if math.isnan(number):
        return "--" if latex else "NaN"
    if math.isinf(number):
        sign = "-" if number < 0 else ""
        return sign + ("\\infty" if latex else "inf")
    if count or isinstance(value, int | np.integer):
        return str(int(value)) if isinstance(value, int | np.integer) else f"{number:.0f}"
    if pvalue and number == 0 and bound > 0:
        return bound_text(bound, digits, latex=latex)
    if not (latex or decimals):
        text = number_text(number, digits)
    elif pvalue and 0 < number < 10.0**-digits:
        return f"<{10.0**-digits:.{digits}f}"
    else:
        text = latex_number(number, digits, latex=latex)
    return "+" + text if sign and not text.startswith("-") else text


_ALPHABET = string.ascii_lowercase + string.ascii_uppercase


def _letter(k: int) -> str:
    if k < len(_ALPHABET):
        return _ALPHABET[k]
    return _letter(k // len(_ALPHABET) - 1) + _ALPHABET[k % len(_ALPHABET)]


def letter_sets(systems, different, means=None) -> dict:
    """Letters of systems given which pairs differ (Piepho's insert-and-absorb).

    Parameters
    ----------
    systems : sequence of hashable
        The systems, each once.
    different : iterable of (system, system)
        The pairs found different.
    means : sequence of float, optional
        One mean per system; the letter ``a`` goes to the column holding the highest mean
        (then ``b`` ...). Default: the order of ``systems``.

    Returns
    -------
    dict
        System -> its letters (a string, letters in alphabetical order).

    Examples
    --------
    >>> letter_sets("ABCD", [("A", "C"), ("A", "D"), ("B", "D")], means=[4, 3, 2, 1])
    {'A': 'a', 'B': 'ab', 'C': 'bc', 'D': 'c'}
    """
    systems = list(systems)
    if len(set(systems)) != len(systems):
        raise ValueError(f"`systems` must be distinct; got {systems!r}")
    index = {s: i for i, s in enumerate(systems)}
    n = len(systems)
    if means is None:
        rank = np.arange(n, dtype=float)
    else:
        means = np.asarray(means, dtype=float)
        if means.shape != (n,):
            raise ValueError(f"`means` must have one value per system ({n}); got {means.shape}")
        # rank 0 = highest mean; ties keep the order of `systems`
        rank = np.empty(n)
        rank[np.argsort(-means, kind="stable")] = np.arange(n)
    columns: list[frozenset] = [frozenset(range(n))]
    for a, b in different:
        i, j = index[a], index[b]
        if i == j:
            raise ValueError(f"a system cannot differ from itself: {a!r}")
        split = []
        for col in columns:
            if i in col and j in col:
                split += [col - {i}, col - {j}]
            else:
                split.append(col)
        # absorb: drop duplicates and columns contained in another column
        unique = list(dict.fromkeys(split))
        columns = [c for c in unique if not any(c < other for other in unique)]
    # letter order: by the best-ranked member, then by the next ones
    columns.sort(key=lambda col: sorted(rank[k] for k in col))
    out = {}
    for k in np.argsort(rank, kind="stable"):
        out[systems[k]] = "".join(_letter(c) for c, col in enumerate(columns) if k in col)
    return {s: out[s] for s in systems}


def letters(result, alpha: float = 0.05, *, lower_is_better: bool = False):
    """Compact letter display of an all-pairs result (e.g. Tukey HSD).

    Two systems share a letter exactly when their comparison is not significant
    (``pvalue >= alpha``); the letter ``a`` goes to the group of the best mean: the
    highest, or the lowest with ``lower_is_better=True`` (losses, error rates). With
    Monte Carlo p-values, pairs whose ``pvalue_low``/``pvalue_high`` straddle ``alpha`` are
    decided by the estimate itself: check them with more trials.

    Parameters
    ----------
    result : ComparisonResult
        A result over all pairs of systems with ``pvalue``, ``mean_a`` and ``mean_b``
        (:class:`pairedstats.TukeyHSDResult`, e.g. ``df.paired.tukey_hsd(...,
        as_result=True)``), or a bootstrap over all pairs with ``adjust`` (decided by its
        adjusted p-values, at ``alpha = 1 - confidence_level``).
    alpha : float
        Significance level, in (0, 1).
    lower_is_better : bool
        A lower mean is better: ``a`` goes to the lowest mean, and rows list it first.

    Returns
    -------
    pandas.DataFrame
        One row per group and system, best mean first: the group keys, ``system``,
        ``mean`` and ``letters``.

    Examples
    --------
    >>> import pairedstats
    >>> runs = pairedstats.datasets.load_runs()
    >>> hsd = runs.paired.tukey_hsd(item="query", system="run", score="p10",
    ...                             n_resamples=2000, rng=1, as_result=True)
    >>> table = pairedstats.display.letters(hsd)
    >>> table[["system", "letters"]].to_dict("list")
    {'system': ['hybrid', 'dense', 'bm25+rm3', 'bm25'], 'letters': ['a', 'ab', 'b', 'b']}
    """
    import pandas as pd

    if isinstance(alpha, bool) or not isinstance(alpha, int | float) or not 0 < alpha < 1:
        raise ValueError(f"`alpha` must be a number in (0, 1); got {plain(alpha)!r}")
    if not isinstance(lower_is_better, bool | np.bool_):
        raise TypeError(f"`lower_is_better` must be True or False; got {plain(lower_is_better)!r}")
    columns = getattr(result, "columns", None)
    columns = columns if isinstance(columns, dict) else {}  # a result's, not a table's
    side = getattr(result, "side_columns", ("mean_a", "mean_b"))  # a system's mean or rate
    for name in ("pvalue", *side):
        if name not in columns:
            raise TypeError(
                f"`result`: letters need a result with {name!r} per pair "
                f"(e.g. a TukeyHSDResult); got {type(result).__name__}"
            )
    if getattr(result, "interval", None) and "pvalue_adjusted" not in columns:
        raise TypeError(
            "`result`: letters need decisions that hold over the family of all pairs; "
            f"this {type(result).__name__} has unadjusted p-values. Re-run with "
            "adjust='holm' (or 'max-t', 'bonferroni'), or use tukey_hsd"
        )
    label_a, label_b = list(result.label_a), list(result.label_b)
    systems = list(dict.fromkeys(label_a + label_b))
    pairs = {frozenset(p) for p in zip(label_a, label_b)}
    n = len(systems)
    if len(pairs) != n * (n - 1) // 2 or len(pairs) != len(label_a):
        raise ValueError(
            "`result`: letters need every pair of systems once (all pairs, no baseline); "
            f"got {len(label_a)} comparisons of {n} systems"
        )
    flags = result.significant(alpha).to_numpy()
    mean_a, mean_b = (np.asarray(columns[name], dtype=float).reshape(len(result.group_keys), -1)
                      for name in side)  # fmt: skip
    rows = []
    for g, key in enumerate(result.group_keys):
        means = {}
        for c, (a, b) in enumerate(zip(label_a, label_b)):
            means[a], means[b] = mean_a[g, c], mean_b[g, c]
        different = [(a, b) for c, (a, b) in enumerate(zip(label_a, label_b))
                     if flags[g, c]]  # fmt: skip
        merit = np.array([means[s] for s in systems]) * (-1.0 if lower_is_better else 1.0)
        sets = letter_sets(systems, different, means=merit)
        for k in np.argsort(-merit, kind="stable"):
            s = systems[k]
            rows.append((*key, s, means[s], sets[s]))
    frame = pd.DataFrame(rows, columns=[*result.group_names, "system", "mean", "letters"])
    frame.attrs.update({"alpha": alpha, "lower_is_better": bool(lower_is_better),
                        **result.metadata})  # fmt: skip
    return frame


# --------------------------------------------------------------------------- tables
def zero_bounds(result) -> dict[str, np.ndarray]:
    """``result.pvalue_bounds()``: per p-value column, per row of the table, the bound its 0
    stands for (``1 / n_resamples``, ...), 0 where a 0 would be exact."""
    return {k: np.asarray(v, dtype=float) for k, v in result.pvalue_bounds().items()}


def counts(result) -> set:
    """The columns of ``result`` that hold counts: its integer columns and the ones it
    declares in ``count_columns`` (floats that hold NaN where there is no count)."""
    declared = set(getattr(result, "count_columns", ()))
    return declared | {k for k, v in result.columns.items() if np.asarray(v).dtype.kind in "iu"}


def text_cells(frame, columns, *, count=(), pvalue=(), bounds=None, digits=TEXT_DIGITS,
               latex=False):  # fmt: skip
    """A copy of ``frame`` whose ``columns`` hold their values as displayed
    (:func:`cell_text`): ``count`` and ``pvalue`` name the columns of counts and of
    p-values, ``bounds`` maps a p-value column to the per-row bounds of its zeros."""
    shown = frame.copy()
    bounds = bounds or {}
    for name in columns:
        if not latex and frame[name].dtype.kind in "biu":
            continue  # as cell_text shows them; pandas' own column keeps its alignment
        zero = bounds.get(name, np.zeros(len(frame)))
        shown[name] = [
            cell_text(v, digits=digits, latex=latex, count=name in count,
                      pvalue=name in pvalue, bound=float(b))
            for v, b in zip(frame[name].tolist(), zero.tolist())
        ]  # fmt: skip
    return shown


def _shown(result):
    """``result.to_dataframe()`` (labels as :func:`label_text`), and it with shown numbers."""
    frame = result.to_dataframe()
    for name in (*result.group_names, *result.label_columns):
        frame[name] = [label_text(v) for v in frame[name].tolist()]
    shown = text_cells(frame, list(result.columns), count=counts(result),
                       pvalue=set(result.pvalue_columns), bounds=zero_bounds(result))  # fmt: skip
    return frame, shown


def data_table(result):
    """The table of the command line's CSV and JSON formats: ``result.to_dataframe()``
    with every digit (a p-value of 0 is 0), and the count columns as integers (pandas'
    nullable ``Int64`` where a count can be missing: Tukey HSD's ``exceeding`` of an exact
    p-value)."""
    frame = result.to_dataframe()
    for name in counts(result):
        if frame[name].dtype.kind == "f":
            frame[name] = frame[name].astype("Int64")
    return frame


def _settings_line(result) -> str:
    """The settings printed under the title, and the result's caveat, if any."""
    wanted = result.printed_metadata
    line = ", ".join(
        f"{k}={v}" for k, v in result.metadata.items() if k in wanted and v is not None
    )
    return "\n".join(part for part in (line, result.caveat) if part)


def text_table(result) -> str:
    """The printed table of a result: its title, its settings, then every row and column.

    Numbers are shown by :func:`cell_text` (6 significant digits, counts as integers, a
    p-value of 0 from ``B`` random draws as ``<1/B``); pandas' display options (width,
    rows, columns) do not cut it.

    Returns
    -------
    str
    """
    body = _shown(result)[1].to_string(index=False)
    meta = _settings_line(result)
    return "\n".join([line for line in (result.title, meta) if line] + [body])


def html_table(result) -> str:
    """The table of :func:`text_table` as HTML (title, settings, then the table).

    A plain ``DataFrame.to_html`` table: it needs nothing beyond pandas (a ``Styler``
    needs jinja2), and notebooks style it as any DataFrame.

    Returns
    -------
    str
    """
    import html

    title = f"<p><b>{html.escape(result.title)}</b></p>" if result.title else ""
    meta = _settings_line(result)
    meta = f"<p><small>{html.escape(meta)}</small></p>" if meta else ""
    return title + meta + _shown(result)[1].to_html(index=False)


def markdown_table(result) -> str:
    """The result as a Markdown table (GitHub's pipe tables), numbers right-aligned.

    Numbers are shown as printed (:func:`cell_text`: 6 significant digits, counts as
    integers, a p-value of 0 from ``B`` random draws as ``<1/B``); the result keeps full
    precision.

    Returns
    -------
    str
    """
    frame, shown = _shown(result)

    def row(cells):
        return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"

    rule = "|" + "|".join("---:" if _is_numeric(frame[c]) else "---" for c in frame) + "|"
    body = [row(cells) for cells in shown.itertuples(index=False)]
    return "\n".join([row(frame.columns), rule, *body])


def _latex_columns(result, frame, columns, mark) -> tuple[list, str | None]:
    """The shown quantity columns and the column of the marker, checked."""
    names = [*result.group_names, *result.label_columns]
    if columns is None:
        columns = list(result.summary_columns)
    else:
        columns = [columns] if isinstance(columns, str) else list(columns)
        unknown = [c for c in columns if c not in frame.columns or c in names]
        if unknown:
            raise ValueError(
                f"`columns`: no quantity column named {unknown[0]!r}; the result has "
                + ", ".join(repr(c) for c in frame.columns if c not in names)
            )
    if mark is None:
        mark = result.estimate if result.estimate in columns else None
    elif mark not in columns:
        raise ValueError(f"`mark`: {mark!r} is not one of the shown columns {columns}")
    return columns, mark


def _latex_wrap(body: str, caption: str | None, label: str | None) -> str:
    if caption is None and label is None:
        return body
    wrapped = ["\\begin{table}", "\\centering"]
    if caption is not None:
        wrapped.append(f"\\caption{{{caption}}}")
    if label is not None:
        wrapped.append(f"\\label{{{label}}}")
    return "\n".join([*wrapped, body, "\\end{table}"])


def latex_table(
    result,
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

    A significant comparison (the result's own rule, ``result.significant(alpha)``:
    ``pvalue < alpha`` for Tukey HSD and rank-sum, an interval that excludes 0 for the
    bootstrap) gets ``marker`` as a superscript on its ``mark`` column, and a last row
    explains the marker when a row carries it. Numbers are formatted for display only
    (:func:`cell_text`): ``digits`` decimals, and ``digits`` significant digits for the
    nonzero numbers below ``10**-digits`` in magnitude (``$1.2\times10^{-5}$``, not
    ``$0.000$``); counts as integers; p-values below ``10**-digits`` print as ``<0.001``,
    and a p-value of 0 from ``B`` random draws (Tukey HSD's trials, the bootstrap's
    replicates) as the bound it stands for, ``<1/B`` rounded up (``$<0.0001$`` for 10,000).
    The result keeps full precision. The table needs ``\usepackage{booktabs}``.

    Parameters
    ----------
    result : ComparisonResult
    columns : list of str, optional
        Quantity columns to show after the group and label columns. Default: the result
        class's ``summary_columns`` (e.g. ``mean_a, mean_b, difference, ci_low, ci_high``).
    alpha : float, optional
        Significance level (default 0.05 for p-values; interval-only results decide at
        their ``1 - confidence_level``).
    marker : str
        Superscript of significant comparisons (math mode), default ``"*"``.
    mark : str, optional
        Column that carries the marker: default the result's estimate (``difference``, or
        ``shift`` for rank-sum) when shown.
    digits : int
        Decimals of the floating-point columns (significant digits below
        ``10**-digits``).
    header : dict, optional
        Column name -> LaTeX header (used as given); default: the escaped column names.
    caption, label : str, optional
        When given, the tabular is wrapped in a ``table`` environment with them.
    note : bool
        Add the row explaining the marker (default True) when a row carries it.

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
    frame = result.to_dataframe()
    columns, mark = _latex_columns(result, frame, columns, mark)
    if isinstance(digits, bool) or not isinstance(digits, int) or digits < 0:
        raise ValueError(f"`digits` must be a non-negative integer; got {plain(digits)!r}")
    flags = result.significant(alpha).to_numpy().reshape(-1)
    names = [*result.group_names, *result.label_columns]
    shown = [*names, *columns]
    heads = [(header or {}).get(c, _latex_escape(str(c))) for c in shown]
    spec = "l" * len(names) + "".join("r" if _is_numeric(frame[c]) else "l" for c in columns)
    lines = [f"\\begin{{tabular}}{{{spec}}}", "\\toprule", " & ".join(heads) + r" \\"]
    lines.append("\\midrule")
    texts = text_cells(frame, columns, count=counts(result), pvalue=set(result.pvalue_columns),
                       bounds=zero_bounds(result), digits=digits, latex=True)  # fmt: skip
    for r, flag in enumerate(flags):
        cells = [_latex_escape(label_text(frame[c].iloc[r])) for c in names]
        for c in columns:
            star = marker if (flag and c == mark) else None
            cells.append(_latex_cell(texts[c].iloc[r], _is_numeric(frame[c]), star))
        lines.append(" & ".join(cells) + r" \\")
    lines.append("\\bottomrule")
    if note and mark is not None and flags.any():
        rule = result.significance_note(alpha)
        lines.append(
            f"\\multicolumn{{{len(shown)}}}{{l}}{{\\footnotesize $^{{{marker}}}$ {rule}}} \\\\"
        )
    lines.append("\\end{tabular}")
    return _latex_wrap("\n".join(lines), caption, label)


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                  "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                  "^": r"\textasciicircum{}"}  # fmt: skip


def _latex_escape(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in text)


def _is_numeric(series) -> bool:
    return series.dtype.kind in "biuf"


def _latex_cell(text: str, number: bool, star: str | None) -> str:
    """One cell shown by :func:`cell_text` (``latex=True``): a number in math mode, with an
    optional superscript; text (labels, names) as it is."""
    if not number or text in ("True", "False", "None", "--"):
        return text
    if star:  # a power (1.2\times10^{-5}) is braced: no double superscript
        text = f"{{{text}}}^{{{star}}}" if "^" in text else f"{text}^{{{star}}}"
    return f"${text}$"
