"""Displays of results: the compact letter display of all-pairs comparisons.

A compact letter display gives each system one or more letters so that two systems share a
letter exactly when the test did **not** find them different (Piepho 2004, the
insert-and-absorb algorithm). It summarises a Tukey HSD table of all pairs in one column.
"""

from __future__ import annotations

import string

import numpy as np

__all__ = ["letters"]

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
