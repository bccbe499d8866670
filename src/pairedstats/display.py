"""Displays of results: how numbers are shown, and the compact letter display.

Printed, Markdown and HTML tables show numbers with 6 significant digits; LaTeX tables
(:meth:`~pairedstats.results.ComparisonResult.to_latex`) a fixed number of decimals, and
significant digits for the nonzero numbers below the last decimal. A Monte Carlo p-value
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

__all__ = ["letters"]

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
        as_result=True)``).
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
        raise ValueError(f"`alpha` must be a number in (0, 1); got {alpha!r}")
    columns = getattr(result, "_columns", ())
    for name in ("pvalue", "mean_a", "mean_b"):
        if name not in columns:
            raise TypeError(
                f"`result`: letters need a result with {name!r} per pair "
                f"(e.g. a TukeyHSDResult); got {type(result).__name__}"
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
    pvalue = np.asarray(result.pvalue, dtype=float)
    mean_a = np.asarray(result.mean_a, dtype=float)
    mean_b = np.asarray(result.mean_b, dtype=float)
    rows = []
    for g, key in enumerate(result.group_keys):
        means = {}
        for c, (a, b) in enumerate(zip(label_a, label_b)):
            means[a], means[b] = mean_a[g, c], mean_b[g, c]
        different = [(a, b) for c, (a, b) in enumerate(zip(label_a, label_b))
                     if pvalue[g, c] < alpha]  # fmt: skip
        mean_list = [means[s] for s in systems]
        sets = letter_sets(systems, different, means=mean_list)
        for k in np.argsort(-np.asarray(mean_list), kind="stable"):
            s = systems[k]
            rows.append((*key, s, means[s], sets[s]))
    frame = pd.DataFrame(rows, columns=[*result.group_names, "system", "mean", "letters"])
    frame.attrs.update({"alpha": alpha, **result.metadata})
    return frame
