"""Plots of results (needs matplotlib: ``pip install 'pairedstats[plot]'``).

- :func:`forest`: each comparison's difference (b - a) with its interval, zero marked;
- :func:`pvalue_matrix`: the p-values of all pairs of systems as a symmetric heatmap;
- :func:`distribution`: a comparison's bootstrap distribution with its interval;
- :func:`critical_difference`: Demšar's diagram of a Friedman result (mean ranks, cliques);
- :func:`rank_intervals`: a ranking's rank sets, one row per system, that reads at hundreds
  of systems;
- :func:`posterior`: the probabilities of a better, practically equivalent, b better: the
  triangle of a Bayesian signed-rank result's posterior draws, or a stacked bar per
  comparison (``plotting/probabilities.py``).

Each function draws on ``ax`` (a new figure when omitted) and returns the Axes;
:func:`plot` chooses one by name (``result.plot(kind)`` calls it). The plots read what the
result class declares (its estimate, its interval), never its column names.
"""

from __future__ import annotations

import numbers

import numpy as np

from .._validation import check_alpha, plain
from ..core.draws import canonical_bytes
from ..display import cell_text, label_text, zero_bounds
from .probabilities import posterior

__all__ = [
    "critical_difference",
    "distribution",
    "forest",
    "plot",
    "posterior",
    "pvalue_matrix",
    "rank_intervals",
]


def _pyplot():
    try:
        import matplotlib.pyplot as plt
    except ImportError as err:
        raise ImportError(
            "pairedstats plotting needs matplotlib: python -m pip install 'pairedstats[plot]'"
        ) from err
    return plt


def new_axes(ax, size):
    """``ax``, or the Axes of a new figure of ``size`` inches (needs matplotlib)."""
    if ax is not None:
        return ax
    _, ax = _pyplot().subplots(figsize=size, layout="constrained")
    return ax


def _require(result, needed, what):
    """``needed``: what ``result`` must have (a name, or "interval" for a declared one)."""
    if needed == "interval":
        missing, text = getattr(result, "interval", None) is None, "an interval"
    else:
        missing, text = not hasattr(result, needed), repr(needed)
    if missing:
        raise TypeError(
            f"`result`: {what} needs a result with {text}; got {type(result).__name__}"
        )


def plot(result, kind: str = "auto", **keywords):
    """Plot a result (needs matplotlib: ``pip install 'pairedstats[plot]'``).

    Parameters
    ----------
    result : ComparisonResult
    kind : {"auto", "forest", "pvalues", "distribution", "critical_difference", "ranks", \
"posterior"}
        ``forest``: the estimates with their intervals (:func:`forest`); ``pvalues``: the
        p-value matrix of all pairs (:func:`pvalue_matrix`); ``distribution``: a bootstrap
        distribution with its interval (:func:`distribution`); ``critical_difference``:
        Demšar's diagram of a Friedman result (:func:`critical_difference`, which returns
        the figure); ``ranks``: a ranking's rank sets (:func:`rank_intervals`);
        ``posterior``: the probabilities of a better, equivalent, b better
        (:func:`posterior`). ``auto``: ``ranks`` for a ranking, ``critical_difference`` for
        a Friedman result, ``forest`` for a result class that declares an interval
        (bootstrap, rank-sum, the corrected t-test), ``posterior`` for one with posterior
        probabilities and no p-value (the Bayesian signed-rank test), else ``pvalues``.
    **keywords
        Passed to the plotting function (``ax=``, ``group=``, ...).

    Returns
    -------
    matplotlib.axes.Axes or matplotlib.figure.Figure
    """
    kinds = {"forest": forest, "pvalues": pvalue_matrix, "distribution": distribution,
             "critical_difference": critical_difference, "ranks": rank_intervals,
             "posterior": posterior}  # fmt: skip
    if kind == "auto":
        kind = "forest" if getattr(result, "interval", None) is not None else "pvalues"
        probabilities = getattr(result, "prob_b_better", None) is not None
        kind = "posterior" if kind == "pvalues" and probabilities else kind
        kind = "critical_difference" if hasattr(result, "cliques") else kind
        kind = "ranks" if hasattr(result, "rank_low") else kind
    if kind not in kinds:
        raise ValueError(
            "`kind` must be 'auto', 'forest', 'pvalues', 'distribution', "
            f"'critical_difference', 'ranks' or 'posterior'; got {kind!r}"
        )
    return kinds[kind](result, **keywords)


def group_index(result, group) -> int:
    """The position of the group ``group`` names: the one rule of every ``group=`` (the plots
    and :meth:`~pairedstats.FriedmanResult.cliques`).

    A value that is a group's label (its key tuple, or the one value of a one-name key;
    labels compared by value and type, as the library keys them, so ``1`` and ``1.0`` are
    one label and ``True`` another) is that group. An integer that is no label is a
    position only when no label is a number: with integer labels (``by=`` a column of fold
    numbers) an integer is always read as a label, and one that is not a label is refused.
    """
    keys = list(result.group_keys)
    labels = [key[0] if len(key) == 1 else key for key in keys]
    shown = [plain(x) for x in labels]
    numbered = any(isinstance(x, numbers.Number) for x in shown)
    where = f" ({', '.join(map(str, result.group_names))})" if result.group_names else ""
    if group is None:
        if len(keys) != 1:
            how = ("by its label" if numbered else "by its label or its position") + ": one of"
            raise ValueError(f"`group`: the result has {len(keys)} groups; choose one {how} "
                             f"{shown}{where}.")  # fmt: skip
        return 0
    # a key tuple, or one group label (which may itself be a tuple: by= a column of tuples)
    index = {canonical_bytes(key): g for g, key in enumerate(keys)}
    for key in [group, (group,)] if isinstance(group, tuple) else [(group,)]:
        if canonical_bytes(key) in index:
            return index[canonical_bytes(key)]
    is_int = isinstance(group, numbers.Integral) and not isinstance(group, bool | np.bool_)
    if is_int and numbered:
        raise ValueError(
            f"`group`: {plain(group)!r} is not a group label; the labels are {shown}{where}. "
            "The labels are numbers, so a number is read as a label, never as a position: "
            "give one of the labels."
        )
    if is_int:
        if not 0 <= group < len(keys):
            raise ValueError(f"`group`: position {group} is out of range for {len(keys)} groups; "
                             f"or give a label: one of {shown}{where}.")  # fmt: skip
        return int(group)
    raise ValueError(f"`group`: {plain(group)!r} is not a group label; the labels are "
                     f"{shown}{where}.")  # fmt: skip


def _row_labels(result) -> list[str]:
    labels = []
    for key in result.group_keys:
        prefix = ", ".join(label_text(k) for k in key)
        for a, b in zip(result.label_a, result.label_b):
            text = f"{label_text(b)} - {label_text(a)}"
            labels.append(f"{prefix}: {text}" if prefix else text)
    return labels


def forest(result, *, ax=None, color="C0", zero=True):
    """Forest plot: each comparison's difference (b - a) with its interval.

    One row per group and comparison, top to bottom in the order of
    :meth:`~pairedstats.ComparisonResult.to_dataframe`; a dot at the
    result's
    estimate (``difference``; rank-sum: ``shift``), a line along its interval (``ci_low``
    to ``ci_high``), and a dashed line at 0. The open side
    of a one-sided interval is drawn to just past the data and ends in an arrow head.

    Parameters
    ----------
    result : ComparisonResult
        A result with intervals (bootstrap, rank-sum).
    ax : matplotlib.axes.Axes, optional
        Where to draw (default: a new figure).
    color : str
        Colour of the dots and intervals.
    zero : bool
        Draw the vertical line at 0 (default True).

    Returns
    -------
    matplotlib.axes.Axes
    """
    _require(result, "interval", "a forest plot")
    centre = result.estimate
    columns = result.columns
    est = np.asarray(columns[centre], dtype=float)
    low, high = (np.asarray(columns[c], dtype=float) for c in result.interval)
    labels = _row_labels(result)
    n = len(est)
    ax = new_axes(ax, (6.0, 0.9 + 0.35 * n))
    y = np.arange(n)[::-1]
    # one-sided intervals: draw the open side to just past the data, with an arrow head
    values = np.concatenate([est, low[np.isfinite(low)], high[np.isfinite(high)], [0.0]])
    span = max(float(np.ptp(values)), 1e-12)
    left = np.where(np.isfinite(low), low, values.min() - 0.15 * span)
    right = np.where(np.isfinite(high), high, values.max() + 0.15 * span)
    ax.hlines(y, left, right, color=color, linewidth=2, label="interval", gid="interval")
    ax.plot(est, y, "o", color=color, label=centre, gid="estimate")
    if np.isinf(low).any():
        ax.plot(left[np.isinf(low)], y[np.isinf(low)], "<", color=color, gid="open_low")
    if np.isinf(high).any():
        ax.plot(right[np.isinf(high)], y[np.isinf(high)], ">", color=color, gid="open_high")
    if zero:
        ax.axvline(0.0, color="0.4", linestyle="--", linewidth=1, gid="zero")
    ax.set_yticks(y, labels)
    level = result.metadata.get("confidence_level")
    ax.set_xlabel(f"{centre} (b - a)" + (f", {level:.0%} interval" if level else ""))
    ax.set_ylim(-0.6, n - 0.4)
    return ax


def rank_intervals(result, *, group=None, ax=None, color="C0", best_color="C3"):
    """A ranking's rank sets: each system's ``[rank_low, rank_high]`` as a line, its rank as
    a dot, one row per system from the first rank down.

    The systems that may be best (``rank_low == 1``) are drawn in ``best_color``. The rows
    are ordered by rank, systems of equal rank by label, so that the figure is the same
    whatever the order of the systems in the call; the figure grows with the number of
    systems (a sixth of an inch a row) and its labels shrink beyond 60 systems, so that a
    leaderboard of a few hundred systems reads on a page that can be zoomed.

    Parameters
    ----------
    result : RankResult
        ``df.paired.rank(..., as_result=True)``.
    group : label, tuple or int, optional
        Which group, by the rule of every ``group=``: its label (the ``by=`` value, or
        the key tuple of several ``by=`` columns), or its position when no label is a
        number; an integer is read as a label first. Needed when there are several.
    ax : matplotlib.axes.Axes, optional
        Where to draw (default: a new figure).
    color, best_color : str
        Colours of the systems that are surely not best and of those that may be.

    Returns
    -------
    matplotlib.axes.Axes
    """
    _require(result, "rank_low", "a rank-interval plot")
    g = group_index(result, group)
    rank, low, high = (np.asarray(x)[g] for x in (result.rank, result.rank_low, result.rank_high))
    labels = [label_text(s) for s in result.systems]
    p = len(labels)
    order = sorted(range(p), key=lambda j: (rank[j], canonical_bytes(result.systems[j])))
    y = np.empty(p)
    y[order] = np.arange(p)[::-1]  # the first rank on top
    ax = new_axes(ax, (6.0, 0.9 + p / 6.0))
    best = low == 1
    for mask, colour, name in ((~best, color, "rank set"), (best, best_color, "may be best")):
        if mask.any():
            ax.hlines(y[mask], low[mask], high[mask], color=colour, linewidth=2, label=name,
                      gid="interval")  # fmt: skip
    ax.plot(rank, y, "o", color="0.15", markersize=3, label="rank", gid="estimate")
    size = 9.0 if p <= 60 else max(3.0, 540.0 / p)
    ax.set_yticks(y[order], [labels[j] for j in order], fontsize=size)
    ax.set_ylim(-0.6, p - 0.4)
    ax.set_xlim(0.4, p + 0.6)
    level = result.metadata.get("confidence_level")
    kind = "simultaneous" if result.metadata.get("simultaneous", True) else "marginal"
    ax.set_xlabel("rank (1 = best)" + (f", {level:.0%} {kind} rank sets" if level else ""))
    ax.grid(axis="x", color="0.9", linewidth=0.5)
    ax.legend(loc="upper right", fontsize=8)
    return ax


def pvalue_matrix(result, *, group=None, ax=None, alpha=0.05, annotate=True, cmap="viridis"):
    """Heatmap of the p-values of all pairs of systems (symmetric; empty diagonal).

    Parameters
    ----------
    result : ComparisonResult
        A result over all pairs with ``pvalue`` (Tukey HSD).
    group : label, tuple or int, optional
        Which group, by the rule of every ``group=``: its label (the ``by=`` value, or
        the key tuple of several ``by=`` columns), or its position when no label is a
        number; an integer is read as a label first. Needed when there are several.
    ax : matplotlib.axes.Axes, optional
        Where to draw (default: a new figure).
    alpha : float
        Cells with ``pvalue < alpha`` are annotated in bold.
    annotate : bool
        Write the p-values in the cells (default True), with 3 significant digits; a Monte
        Carlo p-value of 0 as the bound it stands for, ``<1/n_resamples`` (``<0.0001`` for
        10,000 trials), as every display shows it (:func:`pairedstats.display.cell_text`).
    cmap : str
        Colour map (of p in [0, 1]).

    Returns
    -------
    matplotlib.axes.Axes
        The image (``ax.images[0]``) holds the matrix, rows and columns in system order.
    """
    _require(result, "pvalue", "a p-value matrix")
    g = group_index(result, group)
    # systems keyed by value and type: 1 and True (or 1 and 1.0) are distinct labels
    index: dict[bytes, int] = {}
    systems = []
    for s in [*result.label_a, *result.label_b]:
        if index.setdefault(canonical_bytes(s), len(systems)) == len(systems):
            systems.append(s)
    k = len(systems)
    matrix = np.full((k, k), np.nan)
    pvalue = np.asarray(result.pvalue, dtype=float)[g]
    bounds = zero_bounds(result).get("pvalue")
    n_groups = len(result.group_keys)
    bounds = np.zeros(pvalue.size) if bounds is None else bounds.reshape(n_groups, -1)[g]
    texts = np.full((k, k), "", dtype=object)
    for c, (a, b) in enumerate(zip(result.label_a, result.label_b)):
        i, j = index[canonical_bytes(a)], index[canonical_bytes(b)]
        matrix[i, j] = matrix[j, i] = pvalue[c]
        text = cell_text(pvalue[c], digits=3, pvalue=True, bound=float(bounds[c]))
        texts[i, j] = texts[j, i] = text
    ax = new_axes(ax, (1.6 + 0.8 * k, 1.2 + 0.7 * k))
    image = ax.imshow(np.ma.masked_invalid(matrix), vmin=0.0, vmax=1.0, cmap=cmap)
    ax.figure.colorbar(image, ax=ax, label="p-value")
    ax.set_xticks(range(k), [label_text(s) for s in systems], rotation=45, ha="right")
    ax.set_yticks(range(k), [label_text(s) for s in systems])
    if annotate:
        for i in range(k):
            for j in range(k):
                if i != j and np.isfinite(matrix[i, j]):
                    p = matrix[i, j]
                    ax.text(j, i, texts[i, j], ha="center", va="center", fontsize=8,
                            color="white" if p < 0.5 else "black",
                            fontweight="bold" if p < alpha else "normal")  # fmt: skip
    key = result.group_keys[g]
    if key:
        ax.set_title(", ".join(f"{n}={label_text(v)}" for n, v in zip(result.group_names, key)))
    return ax


def comparison_index(result, comparison) -> int:
    """The position of the comparison ``comparison`` names: its position, or its
    ``(system_a, system_b)`` labels (the one rule of every ``comparison=``)."""
    pairs = list(zip(result.label_a, result.label_b))
    if isinstance(comparison, tuple):
        if comparison not in pairs:
            raise ValueError(f"`comparison`: {comparison!r} is not one of {pairs}")
        return pairs.index(comparison)
    if isinstance(comparison, int | np.integer) and 0 <= comparison < len(pairs):
        return int(comparison)
    raise ValueError(f"`comparison`: expected a position < {len(pairs)} or a pair; "
                     f"got {comparison!r}")  # fmt: skip


def _no_distribution(result) -> str:
    """Why ``result`` holds no bootstrap distribution, and how to get one."""
    counts = result.metadata.get("resampling") == "counts" and len(result.label_a) > 1
    if counts:
        return (
            "`result`: no bootstrap distribution to plot: with resampling='counts' and "
            f"{len(result.label_a)} comparisons each comparison is resampled on its own, so "
            "the replicates are not one joint distribution and are not kept. Re-run with "
            "resampling='index' (or 'auto') to keep them, or compare two systems "
            "(systems=[a, b]), whose one comparison keeps its replicates."
        )
    return (
        "`result`: no bootstrap distribution to plot: the call did not keep the replicates "
        "(the accessors keep them only with as_result=True; the functions always do). "
        "Re-run with as_result=True, e.g. "
        "df.paired.bootstrap(..., as_result=True).plot('distribution')."
    )


def distribution(result, *, comparison=0, group=None, ax=None, bins=60, color="C0"):
    """Histogram of one comparison's bootstrap distribution, with its interval.

    Vertical lines: ``ci_low`` and ``ci_high`` (solid), ``difference`` (dashed).

    Parameters
    ----------
    result : BootstrapResult
        With ``bootstrap_distribution`` (``as_result=True`` from the accessors). A result
        without one (a call that did not keep the replicates, or ``resampling="counts"``
        with several comparisons, whose replicates are not a joint distribution) raises a
        ``ValueError`` that says which and how to get them.
    comparison : int or tuple
        Position of the comparison, or its ``(system_a, system_b)`` labels.
    group : label, tuple or int, optional
        Which group, by the rule of every ``group=``: its label (the ``by=`` value, or
        the key tuple of several ``by=`` columns), or its position when no label is a
        number; an integer is read as a label first. Needed when there are several.
    ax : matplotlib.axes.Axes, optional
        Where to draw (default: a new figure).
    bins : int
        Histogram bins.
    color : str
        Colour of the histogram.

    Returns
    -------
    matplotlib.axes.Axes
    """
    _require(result, "bootstrap_distribution", "a distribution plot")
    if result.bootstrap_distribution is None:
        raise ValueError(_no_distribution(result))
    g, c = group_index(result, group), comparison_index(result, comparison)
    pairs = list(zip(result.label_a, result.label_b))
    draws = np.asarray(result.bootstrap_distribution[g][c], dtype=float)
    ax = new_axes(ax, (6.0, 3.5))
    ax.hist(draws, bins=bins, color=color, alpha=0.6, label=f"{len(draws)} resamples")
    names = (*result.interval, result.estimate)
    low, high, diff = (float(np.asarray(getattr(result, n))[g, c]) for n in names)
    level = result.metadata.get("confidence_level", 0.95)
    ax.axvline(low, color="k", linewidth=1.5, label=f"{level:.0%} interval", gid="ci_low")
    ax.axvline(high, color="k", linewidth=1.5, gid="ci_high")
    ax.axvline(diff, color="C3", linestyle="--", linewidth=1.5, label="difference",
               gid="difference")  # fmt: skip
    a, b = pairs[c]
    ax.set_xlabel(f"{label_text(b)} - {label_text(a)}")
    ax.set_ylabel("resamples")
    ax.legend(loc="best", fontsize=8)
    return ax


# ------------------------------------------------------------- critical-difference diagram
#: Heights of the diagram, in text rows (about 1.5 times the font size each).
_CD_ROW, _CD_NAME_ROW, _CD_CLIQUE_ROW = 1.5, 1.0, 0.7


def critical_difference(result, *, group=None, alpha=0.05, best="right", ax=None, width=6.0,
                        fontsize=10):  # fmt: skip
    """Demšar's (2006) critical-difference diagram of a Friedman result.

    The systems' mean ranks on an axis from 1 to ``k`` (the best end on the right, as in
    Demšar's figures); each name is written at the side of its half and joined to its mean
    rank by a line; a thick bar joins each clique, the largest sets of systems no pair of
    which differs at ``alpha`` (:meth:`~pairedstats.FriedmanResult.cliques`; a system that
    differs from every other has no bar). With ``posthoc="nemenyi"`` the critical
    difference at ``alpha`` is drawn above the axis: two systems further apart than it
    differ. Each clique's bar has a row of its own, a gap apart from the next. When
    cliques overlap (a system in two of them), or a clique of another test skips a system
    lying between its members (possible with ``"wilcoxon-holm"`` and ``"conover"``), every
    bar marks its members with dots, so that each clique reads on its own.

    Parameters
    ----------
    result : FriedmanResult
        ``df.paired.friedman(..., as_result=True)``.
    group : label, tuple or int, optional
        Which group, by the rule of every ``group=``: its label (the ``by=`` value, or
        the key tuple of several ``by=`` columns), or its position when no label is a
        number; an integer is read as a label first. Needed when there are several.
    alpha : float
        The level of the cliques and of the critical difference, strictly between 0 and 1
        (anything else is refused, a string with a ``TypeError``).
    best : {"right", "left"}
        Where rank 1 is.
    ax : matplotlib.axes.Axes, optional
        Where to draw (default: a new figure of ``width`` inches, as high as it needs).
    width : float
        The new figure's width in inches.
    fontsize : float
        The size of the names and numbers, in points.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (``fig.savefig("cd.pdf", bbox_inches="tight")`` for a paper). Its
        elements carry ids (``get_gid()``): ``"axis"`` (the line from 1 to ``k``),
        ``"system"`` (each name, a text) and ``"system-line"`` (its line, starting at its
        mean rank, labelled with the name), ``"clique"`` (one bar per clique, from its
        members' lowest to highest mean rank, each at its own height), ``"clique-member"``
        (the dots of a bar's members, at its height), ``"critical-difference"`` (the CD bar).
    """
    _require(result, "cliques", "a critical-difference diagram")
    alpha = check_alpha(alpha)
    if best not in ("right", "left"):
        raise ValueError(f"`best` must be 'right' or 'left'; got {best!r}")
    g = group_index(result, group)
    k = len(result.systems)
    mean = np.asarray(result.mean_rank, dtype=float)[g]
    cliques = [c for c in result._cliques(alpha, g) if len(c) > 1]
    cd = None
    if result.metadata.get("posthoc") == "nemenyi":
        cd = float(result.critical_difference(alpha)[g])
    # heights in text rows: the CD bar and the numbers above the axis (at 0), the cliques'
    # bars, then one row per name of the larger half
    top = 2 * _CD_ROW if cd is not None else 0.9 * _CD_ROW
    first = -_CD_CLIQUE_ROW * (len(cliques) + 1) - 0.5 * _CD_NAME_ROW
    bottom = first - ((k + 1) // 2 - 0.5) * _CD_NAME_ROW
    if ax is None:
        height = (top - bottom) * 1.5 * fontsize / 72.0
        ax = _pyplot().figure(figsize=(width, height)).add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_axis_off()
    ax.set_xticks([])
    ax.set_yticks([])
    _cd_axis(ax, k, cd, fontsize)
    index = {s: i for i, s in enumerate(result.systems)}
    overlap = any(a & b for c, a in enumerate(cliques) for b in cliques[c + 1 :])
    for c, clique in enumerate(cliques):
        _cd_clique(
            ax,
            [mean[index[s]] for s in clique],
            np.delete(mean, [index[s] for s in clique]),
            -_CD_CLIQUE_ROW * (c + 1),
            overlap,
        )
    _cd_names(ax, result.systems, mean, first, best, fontsize)
    _cd_limits(ax, k, best, (bottom, top))
    key = result.group_keys[g]
    if key:
        ax.set_title(", ".join(f"{n}={label_text(v)}" for n, v in zip(result.group_names, key)),
                     fontsize=fontsize)  # fmt: skip
    return ax.figure


def _cd_axis(ax, k: int, cd, fontsize) -> None:
    """The rank axis at height 0 with its ticks and numbers, and the CD bar above it."""
    ax.plot([1, k], [0, 0], color="k", linewidth=1.0, gid="axis", solid_capstyle="butt")
    for x in np.arange(1.0, k + 0.25, 0.5):
        whole = float(x).is_integer()
        ax.plot([x, x], [0, 0.25 if whole else 0.12], color="k", linewidth=1.0, gid="tick")
        if whole:
            ax.text(x, 0.35, f"{int(x)}", ha="center", va="bottom", fontsize=fontsize,
                    gid="tick-label")  # fmt: skip
    if cd is not None:
        y = _CD_ROW + 0.4
        ax.plot([k, k - cd], [y, y], color="k", linewidth=1.0, gid="critical-difference")
        for x in (k, k - cd):
            ax.plot([x, x], [y - 0.12, y + 0.12], color="k", linewidth=1.0, gid="cd-end")
        ax.text(k - cd / 2, y + 0.2, "CD", ha="center", va="bottom", fontsize=fontsize,
                gid="critical-difference-label")  # fmt: skip


def _cd_clique(ax, members, others, y: float, overlap: bool) -> None:
    """A clique's bar from its lowest to its highest mean rank; dots on its members when
    cliques ``overlap`` or a system outside it lies between them."""
    low, high = min(members), max(members)
    ax.plot([low, high], [y, y], color="k", linewidth=3.0, solid_capstyle="butt",
            gid="clique", zorder=3)  # fmt: skip
    if overlap or np.any((others > low) & (others < high)):
        ax.plot(members, [y] * len(members), "o", color="k", markersize=6, gid="clique-member",
                zorder=3)  # fmt: skip


def _cd_names(ax, systems, mean, first: float, best: str, fontsize) -> None:
    """Each name at the side of its half, joined to its mean rank: the best half on the
    ``best`` side, the extreme ranks nearest the axis (ties in mean rank keep the order of
    the systems)."""
    k = len(systems)
    order = np.argsort(mean, kind="stable")  # best first
    halves = (order[: (k + 1) // 2], order[(k + 1) // 2 :][::-1])  # each outermost first
    end = {"best": 1.0 - 0.2, "worst": k + 0.2}
    for half, side in zip(halves, ("best", "worst")):
        on_right = (side == "best") == (best == "right")
        for row, j in enumerate(half):
            y, name = first - row * _CD_NAME_ROW, label_text(systems[j])
            ax.plot([mean[j], mean[j], end[side]], [0, y, y], color="k", linewidth=0.8,
                    gid="system-line", label=name)  # fmt: skip
            ax.text(end[side], y, f" {name} ", ha="left" if on_right else "right",
                    va="center", fontsize=fontsize, gid="system")  # fmt: skip


def _cd_limits(ax, k: int, best: str, heights: tuple) -> None:
    """Limits that hold the names: the axis spans what the figure's width leaves once the
    widest name fits on each side."""
    fig = ax.figure
    renderer = fig.canvas.get_renderer()
    names = [t for t in ax.texts if t.get_gid() == "system"]
    widest = max(t.get_window_extent(renderer).width for t in names)
    pixels = ax.get_window_extent(renderer).width
    inner = (k - 1.0) + 0.4  # the axis and the lines' ends beyond it, in ranks
    share = min(2.0 * widest / pixels, 0.8)  # never more than 80% of the width for names
    margin = inner / (1.0 - share) * share / 2.0 + 0.05 * inner
    low, high = 1.0 - 0.2 - margin, k + 0.2 + margin
    ax.set_xlim((high, low) if best == "right" else (low, high))
    ax.set_ylim(*heights)
