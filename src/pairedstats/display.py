"""Displays of results: tables (text, HTML, Markdown, LaTeX), how numbers are shown, and
the compact letter display.

The tables are functions of a result (:func:`text_table`, :func:`html_table`,
:func:`markdown_table`, :func:`latex_table`); a result's ``str()``, ``_repr_html_()``,
``to_markdown()`` and ``to_latex()`` call them. They read what the result class declares
(its label columns, estimate, Monte Carlo trials column, significance rule), never its
column names. Printed, Markdown and HTML tables show numbers with 6 significant digits;
LaTeX tables a fixed number of decimals, and significant digits for the nonzero numbers
below the last decimal. A Monte Carlo p-value
of 0 (no trial reached the observed statistic) is shown as the bound it stands for,
``<1/n_resamples`` (rounded up). Only displays change: tables keep every digit.

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


def latex_number(value: float, digits: int) -> str:
    r"""A finite float for LaTeX math mode: ``digits`` decimals, or ``digits`` significant
    digits for a nonzero number below the last decimal (``|value| < 10**-digits``), which
    the decimals would show as 0 or as a single digit.

    Examples
    --------
    >>> latex_number(0.04678, 3), latex_number(1.2e-5, 3), latex_number(-0.00042, 3)
    ('0.047', '1.2\\times10^{-5}', '-0.00042')
    >>> latex_number(0.0, 3)
    '0.000'
    """
    if value == 0 or abs(value) >= 10.0**-digits:
        return f"{value:.{digits}f}"
    return _latex_power(number_text(value, digits))


def pvalue_bound(trials: int, digits: int) -> float:
    """``1 / trials`` rounded up to ``digits`` significant digits.

    A Monte Carlo p-value (a fraction of ``trials``, no +1) of 0 stands for a p-value below
    this bound; rounding up keeps the displayed statement true.

    Examples
    --------
    >>> pvalue_bound(10_000, 6), pvalue_bound(3_000, 3), pvalue_bound(3_000, 6)
    (0.0001, 0.000334, 0.000333334)
    """
    context = decimal.Context(prec=max(digits, 1), rounding=decimal.ROUND_CEILING)
    return float(context.divide(decimal.Decimal(1), decimal.Decimal(int(trials))))


def pvalue_bound_text(trials: int, digits: int = TEXT_DIGITS, *, latex: bool = False) -> str:
    r"""How a Monte Carlo p-value of 0 from ``trials`` trials is shown: ``<`` its bound.

    Examples
    --------
    >>> pvalue_bound_text(10_000), pvalue_bound_text(500, 3)
    ('<0.0001', '<0.002')
    >>> pvalue_bound_text(1_000_000, 3, latex=True)
    '<1\\times10^{-6}'
    """
    text = number_text(pvalue_bound(trials, digits), digits)
    return "<" + (_latex_power(text) if latex else text)


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


def letters(result, alpha: float = 0.05):
    """Compact letter display of an all-pairs result (e.g. Tukey HSD).

    Two systems share a letter exactly when their comparison is not significant
    (``pvalue >= alpha``); the letter ``a`` goes to the group of the highest mean. With
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

    Returns
    -------
    pandas.DataFrame
        One row per group and system, highest mean first: the group keys, ``system``,
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
    columns = getattr(result, "columns", None)
    columns = columns if isinstance(columns, dict) else {}  # a result's, not a table's
    for name in ("pvalue", "mean_a", "mean_b"):
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
    mean_a = np.asarray(result.mean_a, dtype=float)
    mean_b = np.asarray(result.mean_b, dtype=float)
    rows = []
    for g, key in enumerate(result.group_keys):
        means = {}
        for c, (a, b) in enumerate(zip(label_a, label_b)):
            means[a], means[b] = mean_a[g, c], mean_b[g, c]
        different = [(a, b) for c, (a, b) in enumerate(zip(label_a, label_b))
                     if flags[g, c]]  # fmt: skip
        mean_list = [means[s] for s in systems]
        sets = letter_sets(systems, different, means=mean_list)
        for k in np.argsort(-np.asarray(mean_list), kind="stable"):
            s = systems[k]
            rows.append((*key, s, means[s], sets[s]))
    frame = pd.DataFrame(rows, columns=[*result.group_names, "system", "mean", "letters"])
    frame.attrs.update({"alpha": alpha, **result.metadata})
    return frame


# --------------------------------------------------------------------------- tables
def monte_carlo_zeros(result) -> np.ndarray:
    """Per row of ``result.to_dataframe()``, the trials of a Monte Carlo p-value of 0, else 0.

    A result class that declares a ``trials_column`` has Monte Carlo p-values (fractions of
    trials, no +1) with a per-row trial count, 0 where the p-value is exact: its p-value of 0
    means that no trial reached the observed statistic, that is a p-value below
    ``1 / trials``, and displays show that bound. An exact p-value is never 0 (the observed
    arrangement is one of those counted).
    """
    n_rows = len(result.group_keys) * len(result.label_a)
    if result.trials_column is None:
        return np.zeros(n_rows, dtype=np.int64)
    columns = result.columns
    pvalue = np.asarray(columns["pvalue"], dtype=float)
    trials = np.asarray(columns[result.trials_column], dtype=np.int64)
    return np.where((pvalue == 0) & (trials > 0), trials, 0)


def _shown(result):
    """``result.to_dataframe()`` and the same table with its quantities as displayed text."""
    frame = result.to_dataframe()
    shown = frame.copy()
    for name in result.columns:
        if frame[name].dtype.kind == "f":
            shown[name] = [number_text(v) for v in frame[name].tolist()]
    zeros = monte_carlo_zeros(result)
    for row in np.flatnonzero(zeros):
        shown.loc[row, "pvalue"] = pvalue_bound_text(int(zeros[row]))
    return frame, shown


def _settings_line(result) -> str:
    """The settings printed under the title, and the result's caveat, if any."""
    wanted = result.printed_metadata
    line = ", ".join(
        f"{k}={v}" for k, v in result.metadata.items() if k in wanted and v is not None
    )
    return "\n".join(part for part in (line, result.caveat) if part)


def text_table(result) -> str:
    """The printed table of a result: its title, its settings, then every row and column.

    Numbers have 6 significant digits, a Monte Carlo p-value of 0 is shown as
    ``<1/n_resamples``; pandas' display options (width, rows, columns) do not cut it.

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

    Numbers are shown as printed (6 significant digits, a Monte Carlo p-value of 0 as
    ``<1/n_resamples``); the result keeps full precision.

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
    explains the marker. Numbers are formatted for display only: ``digits`` decimals, and
    ``digits`` significant digits for the nonzero numbers below ``10**-digits`` in magnitude
    (``$1.2\times10^{-5}$``, not ``$0.000$``); p-values below ``10**-digits`` print as
    ``<0.001``, and a Monte Carlo p-value of 0 (no trial reached the observed statistic) as
    the bound it stands for, ``<1/n_resamples`` rounded up (``$<0.0001$`` for 10,000
    trials). The result keeps full precision. The table needs ``\usepackage{booktabs}``.

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
    zeros = monte_carlo_zeros(result)
    pvalues = set(result.pvalue_columns)
    for row, flag, trials in zip(frame.itertuples(index=False), flags, zeros.tolist()):
        values = dict(zip(frame.columns, row))
        cells = [_latex_escape(str(values[c])) for c in names]
        for c in columns:
            star = marker if (flag and c == mark) else None
            bound = trials if c == "pvalue" else 0
            cells.append(_latex_cell(values[c], c in pvalues, digits, star, bound))
        lines.append(" & ".join(cells) + r" \\")
    lines.append("\\bottomrule")
    if note and mark is not None:
        rule = result.significance_note(alpha)
        lines.append(
            f"\\multicolumn{{{len(shown)}}}{{l}}{{\\footnotesize $^{{{marker}}}$ {rule}}} \\\\"
        )
    lines.append("\\end{tabular}")
    return _latex_wrap("\n".join(lines), caption, label)


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


def _latex_cell(value, pvalue: bool, digits: int, star: str | None, trials: int = 0) -> str:
    """One number in math mode (display formatting only), with an optional superscript;
    ``pvalue``: the column holds p-values (small ones print as ``<0.001``); ``trials`` > 0
    marks a Monte Carlo p-value of 0, shown as its bound."""
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
    elif pvalue and 0 < number < 10.0**-digits:
        text = f"<{10.0**-digits:.{digits}f}"
    else:
        text = latex_number(number, digits)
    if star:  # a power (1.2\times10^{-5}) is braced: no double superscript
        text = f"{{{text}}}^{{{star}}}" if "^" in text else f"{text}^{{{star}}}"
    return f"${text}$"
