"""The command line's figures (``--plot FILE``) and the lines its text output adds to a
result's own (Nemenyi's critical difference of a Friedman result).

A command offers ``--plot`` when its result draws a figure with its ``plot()`` method, read
from the class its spec's ``run`` returns: the critical-difference diagram of a Friedman
result, the rank sets of a ranking, the forest plot of a result with intervals, the p-value
matrix of a result of all pairs with p-values. One figure per group, when the figure shows
one group (``cd.png`` of a result by collection: ``cd-robust04.png``, ``cd-trec8.png``).
"""

from __future__ import annotations

import inspect
import re
import sys
import typing
from pathlib import Path

from .display import label_text

#: The figure formats ``--plot`` writes, by the file name's extension.
PLOT_FORMATS = ("png", "pdf", "svg")

#: The figure of each kind of ``plot()``, in words (the help of ``--plot``).
FIGURES = {
    "critical_difference": "the critical-difference diagram (mean ranks and cliques)",
    "ranks": "the rank sets (one row per system)",
    "forest": "the forest plot (each difference with its interval)",
    "pvalues": "the matrix of the p-values of all pairs",
    "posterior": "the posterior probabilities of a better, equivalent, b better (one bar each)",
}

#: The kinds whose figure shows one group (the others draw every group in one figure).
ONE_GROUP = ("critical_difference", "ranks", "pvalues", "posterior")


def figure_kind(spec) -> str | None:
    """The kind of figure a command's result draws (a key of :data:`FIGURES`), or None.

    Read from the result class ``spec.run`` returns, as :func:`pairedstats.plotting.plot`
    chooses for ``kind="auto"``: a class with its own default kind draws that; otherwise
    cliques draw the critical-difference diagram, an interval the forest plot, a ``pvalue``
    column the p-value matrix, posterior probabilities their bars; a class without ``plot``
    (the report) or without any of these (the items needed) draws none.

    Examples
    --------
    >>> from pairedstats.methods._shared import registry
    >>> [figure_kind(registry.SPECS[n]) for n in ("friedman", "bootstrap", "items_for")]
    ['critical_difference', 'forest', None]
    """
    result = typing.get_type_hints(spec.run).get("return")
    plot = getattr(result, "plot", None)
    if not callable(plot):
        return None
    kind = inspect.signature(plot).parameters["kind"].default
    if kind != "auto":
        return kind if kind in FIGURES else None
    if hasattr(result, "cliques"):
        return "critical_difference"
    if getattr(result, "interval", None) is not None:
        return "forest"
    columns = getattr(result, "_columns", ())
    if "pvalue" in columns:
        return "pvalues"
    return "posterior" if "prob_b_better" in columns else None


def plot_help(kind: str) -> str:
    """The help of ``--plot`` for a figure of ``kind``."""
    per_group = (" (one file per group, named FILE-GROUP, when there are several)"
                 if kind in ONE_GROUP else "")  # fmt: skip
    return (f"also draw {FIGURES[kind]} into FILE: .png, .pdf or .svg{per_group}; needs "
            "matplotlib: pip install 'pairedstats[plot]'")  # fmt: skip


def check_plot(path) -> None:
    """``--plot``: a file named ``.png``, ``.pdf`` or ``.svg`` in an existing folder, and
    matplotlib installed; checked before the work starts."""
    if path is None:
        return
    path = Path(path)
    suffix = path.suffix.lower().lstrip(".")
    if suffix not in PLOT_FORMATS:
        raise ValueError(
            f"--plot: {str(path)!r} names no figure format; end the file name in "
            f"{', '.join('.' + f for f in PLOT_FORMATS)} (e.g. --plot figure.png)"
        )
    if path.is_dir():
        raise IsADirectoryError(f"--plot: {str(path)!r} is a folder; give a file name")
    if not path.parent.is_dir():
        raise FileNotFoundError(
            f"--plot: no folder {str(path.parent)!r} to write {path.name!r} in; create it first"
        )
    try:
        import matplotlib
    except ImportError as err:
        raise ImportError(
            "--plot needs matplotlib, an optional extra: python -m pip install 'pairedstats[plot]'"
        ) from err
    if "matplotlib.pyplot" not in sys.modules:  # a file, never a window
        matplotlib.use("Agg")


def _file_word(key: tuple) -> str:
    text = "-".join(label_text(value) for value in key)
    return re.sub(r"[^\w.+-]+", "_", text).strip("_") or "group"


def save_figures(result, path, kind: str) -> list[Path]:
    """Draw ``result``'s figure of ``kind`` and write it to ``path`` (its format by its
    extension); one file per group when the figure shows one group and there are several,
    the group's label added to the file name. Returns the files written."""
    import matplotlib.pyplot as plt

    path = Path(path)
    keys = list(result.group_keys)
    if kind not in ONE_GROUP or len(keys) == 1:
        targets = [(path, {})]
    else:
        targets = [(path.with_name(f"{path.stem}-{_file_word(key)}{path.suffix}"), {"group": key})
                   for key in keys]  # fmt: skip
    for target, group in targets:
        # the command line keeps no posterior draws: the probabilities as bars
        style = {"style": "bars"} if kind == "posterior" else {}
        drawn = result.plot(kind, **group, **style)
        figure = drawn if hasattr(drawn, "savefig") else drawn.figure
        try:
            figure.savefig(target, bbox_inches="tight")
        finally:
            plt.close(figure)
    return [target for target, _ in targets]


def critical_difference_lines(result, alpha: float = 0.05) -> str:
    """Nemenyi's critical difference of a Friedman result whose post-hoc test is Nemenyi's,
    at ``alpha`` (the level of the cliques its text shows), per group; ``""`` otherwise.

    Examples
    --------
    >>> import numpy as np, pairedstats
    >>> scores = np.random.default_rng(3).random((12, 4))
    >>> res = pairedstats.friedman(scores, posthoc="nemenyi")
    >>> print(critical_difference_lines(res))
    Nemenyi's critical difference at alpha = 0.05: CD = 1.354 (mean ranks further apart than CD differ)
    """  # noqa: E501
    if not callable(getattr(result, "critical_difference", None)):
        return ""
    if result.metadata.get("posthoc") != "nemenyi":
        return ""
    values = result.critical_difference(alpha)
    if len(values) == 1:
        shown = f"CD = {values[0]:.4g}"
    else:
        names = ", ".join(result.group_names)
        shown = "CD = " + "; ".join(
            f"{', '.join(label_text(v) for v in key)}: {cd:.4g}"
            for key, cd in zip(result.group_keys, values)
        )
        shown += f" (by {names})"
    return (f"Nemenyi's critical difference at alpha = {alpha:g}: {shown} (mean ranks further "
            "apart than CD differ)")  # fmt: skip
