"""Plots of posterior probabilities (a better, practically equivalent, b better): the triangle
of a Bayesian signed-rank result's posterior draws, and stacked bars of the three
probabilities of each comparison (the corrected t-test with a rope, or any result with the
three columns) (:func:`posterior`)."""

from __future__ import annotations

import numpy as np

from ..display import label_text

__all__ = ["barycentric", "posterior"]

#: The three outcomes, their result columns and colours (a better, equivalent, b better).
_OUTCOMES = (("a_better", "prob_a_better", "C0"), ("equivalent", "prob_equivalent", "0.65"),
             ("b_better", "prob_b_better", "C3"))  # fmt: skip
_HEIGHT = np.sqrt(3.0) / 2.0


def barycentric(p) -> np.ndarray:
    """Points of the triangle for probabilities ``(p_a_better, p_equivalent, p_b_better)``
    (rows summing to 1): the corner "a better" at (0, 0), "b better" at (1, 0) and
    "equivalent" at (1/2, sqrt(3)/2); each point is the mean of the corners weighted by its
    three probabilities.

    Parameters
    ----------
    p : array_like, shape (n, 3)

    Returns
    -------
    ndarray, shape (n, 2)

    Examples
    --------
    >>> barycentric([[1, 0, 0], [0, 0, 1], [0.25, 0.5, 0.25]]).round(4).tolist()
    [[0.0, 0.0], [1.0, 0.0], [0.5, 0.433]]
    """
    p = np.asarray(p, dtype=float).reshape(-1, 3)
    return np.column_stack([p[:, 2] + 0.5 * p[:, 1], _HEIGHT * p[:, 1]])


def posterior(result, *, comparison=None, group=None, ax=None, style="auto", markersize=2.0,
              alpha=0.1):  # fmt: skip
    """The posterior probabilities of a better, practically equivalent, b better.

    ``style="triangle"`` (a Bayesian signed-rank result that kept its posterior draws,
    ``as_result=True``): each draw of ``(p_a_better, p_equivalent, p_b_better)`` is a point of
    the triangle (:func:`barycentric`) whose corners are labelled by system a's name, "rope"
    and system b's name; the lines from the centre split it where each of the three is the
    largest, so the share of the points in each region is ``prob_a_better``,
    ``prob_equivalent`` and ``prob_b_better``. ``style="bars"`` (a corrected t-test with
    ``rope=``, or any result with the three columns): one horizontal bar per comparison of
    the group, its three parts as long as the three probabilities, system a's name on the
    left, system b's on the right. ``"auto"``: the triangle when the draws are kept and the
    comparison is named (or is the only one), else the bars of every comparison.

    Parameters
    ----------
    result : BayesSignrankResult or CvTtestResult
    comparison : tuple or int, optional
        The triangle's comparison: its ``(system_a, system_b)`` labels, or its position;
        needed by the triangle when the group has several comparisons.
    group : label, tuple or int, optional
        Which group, by the rule of every ``group=`` (needed when there are several).
    ax : matplotlib.axes.Axes, optional
        Where to draw (default: a new figure).
    style : {"auto", "triangle", "bars"}
    markersize, alpha : float
        Size and opacity of the triangle's points.

    Returns
    -------
    matplotlib.axes.Axes
    """
    from . import comparison_index, group_index, new_axes

    if style not in ("auto", "triangle", "bars"):
        raise ValueError(f"`style` must be 'auto', 'triangle' or 'bars'; got {style!r}")
    if not hasattr(result, "label_a"):
        raise TypeError(
            "`result`: a posterior plot needs a result object, not a table: call the method "
            f"with as_result=True; got {type(result).__name__}"
        )
    draws = getattr(result, "posterior", None)
    several = len(result.label_a) > 1 and comparison is None
    if style == "auto":
        style = "triangle" if draws is not None and not several else "bars"
    if getattr(result, "prob_b_better", None) is None:
        raise TypeError(
            "`result`: a posterior plot needs a result with the probabilities prob_a_better, "
            "prob_equivalent and prob_b_better (bayes_signrank, or cv_ttest with rope=); got "
            f"{type(result).__name__}" + (" without rope=" if hasattr(result, "t") else "")
        )
    g = group_index(result, group)
    if style == "bars":
        return _bars(result, g, new_axes(ax, (6.0, 1.0 + 0.4 * len(result.label_a))))
    if draws is None:
        raise ValueError(
            "`result`: no posterior draws to plot as a triangle: keep them with "
            "as_result=True (df.paired.bayes_signrank(..., as_result=True)), or draw the "
            "probabilities as bars (style='bars')"
        )
    if several:
        raise ValueError(
            f"`comparison`: the triangle shows one of the {len(result.label_a)} comparisons; "
            "name it, comparison=(system_a, system_b)"
        )
    c = comparison_index(result, 0 if comparison is None else comparison)
    ax = new_axes(ax, (5.0, 4.6))
    return _triangle(result, np.asarray(draws[g][c], dtype=float), g, c, ax, markersize, alpha)


def _triangle(result, draws, g: int, c: int, ax, markersize: float, alpha: float):
    a, b = label_text(result.label_a[c]), label_text(result.label_b[c])
    xy = barycentric(draws)
    ax.plot(xy[:, 0], xy[:, 1], "o", markersize=markersize, alpha=alpha, color="C0",
            markeredgewidth=0, zorder=3, gid="draws")  # fmt: skip
    corners = np.array([[0.0, 0.0], [1.0, 0.0], [0.5, _HEIGHT], [0.0, 0.0]])
    ax.plot(corners[:, 0], corners[:, 1], color="k", linewidth=1, gid="simplex")
    centre = corners[:3].mean(axis=0)
    for i in range(3):  # the borders of the regions where each probability is the largest
        middle = (corners[i] + corners[i + 1]) / 2
        ax.plot([centre[0], middle[0]], [centre[1], middle[1]], color="0.5", linewidth=0.8,
                linestyle="--", gid=f"region_{i}")  # fmt: skip
    probs = [float(np.asarray(getattr(result, column))[g, c]) for _, column, _ in _OUTCOMES]
    texts = ((a, (-0.03, -0.05), "right", "top"), ("rope", (0.5, _HEIGHT + 0.04), "center",
             "bottom"), (b, (1.03, -0.05), "left", "top"))  # fmt: skip
    for (name, _, _), (text, where, ha, va), prob in zip(_OUTCOMES, texts, probs, strict=True):
        ax.text(*where, f"{text}\n{prob:.3f}" if va == "top" else f"{text}  {prob:.3f}",
                ha=ha, va=va, gid=f"corner_{name}")  # fmt: skip
    ax.set_xlim(-0.3, 1.3)
    ax.set_ylim(-0.2, _HEIGHT + 0.15)
    ax.set_aspect("equal")
    ax.set_axis_off()
    rope = result.metadata.get("rope")
    ax.set_title(f"{b} - {a}: {len(draws)} posterior draws" + (f", rope {rope:g}" if rope else ""))
    return ax


def _bars(result, g: int, ax):
    n = len(result.label_a)
    y = np.arange(n)[::-1]
    left = np.zeros(n)
    for name, column, color in _OUTCOMES:
        width = np.asarray(getattr(result, column), dtype=float)[g]
        label = {"a_better": "a (left) better", "equivalent": "practically equivalent",
                 "b_better": "b (right) better"}[name]  # fmt: skip
        ax.barh(y, width, left=left, color=color, height=0.6, label=label, gid=name)
        for yi, x0, w in zip(y, left, width, strict=True):
            if w >= 0.08:
                ax.text(x0 + w / 2, yi, f"{w:.2f}", ha="center", va="center", fontsize=8,
                        color="white" if name != "equivalent" else "black")  # fmt: skip
        left = left + width
    ax.set_yticks(y, [label_text(a) for a in result.label_a])
    right = ax.secondary_yaxis("right")
    right.set_yticks(y, [label_text(b) for b in result.label_b])
    ax.set_xlim(0.0, 1.0)
    ax.set_ylim(-0.6, n - 0.4)
    rope = result.metadata.get("rope")
    ax.set_xlabel("posterior probability" + (f" (rope {rope:g})" if rope else ""))
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=3, fontsize=8, frameon=False)
    return ax
