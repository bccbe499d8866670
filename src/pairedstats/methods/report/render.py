"""The displays of a :class:`~pairedstats.Report`: text, Markdown, HTML and LaTeX.

Each cell is put together here (the mean, the mark or letters, the best mean in bold,
optionally the interval of the difference from the baseline), its numbers shown by the one
display rule (:func:`pairedstats.display.cell_text`, ``digits`` decimals); the layout is
pandas': the printed table is ``DataFrame.to_string``, the HTML and LaTeX tables are
:class:`pandas.io.formats.style.Styler`'s (which needs jinja2, the extra
``pairedstats[report]``), the Markdown table a pipe table. Numbers are rounded here only:
``Report.to_frame()`` keeps every digit.
"""

from __future__ import annotations

import math
from html import escape

from ... import display

__all__ = ["LATEX_MARKS", "cells", "html", "latex", "markdown", "text"]

#: The LaTeX of each mark a cell can carry: better, worse (dagger, double dagger),
#: equivalent, not worse by the margin.
LATEX_MARKS = {"\u2020": r"\dagger", "\u2021": r"\ddagger", "\u2248": r"\approx",
               "\u2ab0": r"\succeq"}  # fmt: skip


def _best(report) -> dict:
    """Metric -> booleans per row: the best mean of the metric within its group."""
    table = report._table
    levels = list(range(table.index.nlevels - 1))
    out = {}
    for metric in report.metrics:
        means = table[(metric, "mean")]
        how = "min" if metric in report.lower_is_better else "max"
        if levels:
            best = means.groupby(level=levels, sort=False).transform(how)
        else:
            best = getattr(means, how)()
        out[metric] = (means == best).to_numpy()
    return out


def _bold(report, bold_best) -> bool:
    return report.bold_best if bold_best is None else bool(bold_best)


def cells(report, kind: str, digits=None, bold_best=None, intervals: bool = False):
    """The shown table: the report's index as text (each label by
    :func:`pairedstats.display.label_text`, never rounded), one column of formatted cells
    per metric.

    ``kind``: ``"text"``, ``"markdown"``, ``"html"`` (bold is then a style, not text) or
    ``"latex"`` (each cell in math mode).
    """
    import pandas as pd

    digits = report.digits if digits is None else digits
    if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= 15:
        raise ValueError(f"`digits` must be an integer from 0 to 15; got {digits!r}")
    bold = _bold(report, bold_best)
    best = _best(report) if bold and kind != "html" else {}
    table = report._table
    shown = {}
    for metric in report.metrics:
        part = table[metric]
        column = []
        for i, row in enumerate(part.itertuples(index=False)):
            values = row._asdict()
            strong = bool(best.get(metric, [False] * len(part))[i])
            column.append(_cell(values, kind, digits, strong, intervals))
        if kind == "text":  # left-aligned text: the numbers' decimals line up
            width = max(map(len, column))
            column = [c.ljust(width) for c in column]
        shown[metric] = column
    index = table.index
    levels = [[display.label_text(v) for v in index.get_level_values(j).tolist()]
              for j in range(index.nlevels)]  # fmt: skip
    if index.nlevels > 1:
        return pd.DataFrame(shown, index=pd.MultiIndex.from_arrays(levels, names=index.names))
    return pd.DataFrame(shown, index=pd.Index(levels[0], name=index.name))


def _cell(values: dict, kind: str, digits: int, strong: bool, intervals: bool) -> str:
    def shown(name, sign=False):  # the one display rule, with ``digits`` decimals
        return display.cell_text(values[name], digits=digits, latex=kind == "latex",
                                 decimals=True, sign=sign)  # fmt: skip

    number = shown("mean")
    tag = values.get("mark") or values.get("letters") or ""
    span = ""
    if intervals and "rate_low" in values:  # 0/1 scores: the system's own rate interval
        span = f" [{shown('rate_low')}, {shown('rate_high')}]"
    elif intervals and "ci_low" in values and not math.isnan(values["ci_low"]):
        span = f" [{shown('ci_low', sign=True)}, {shown('ci_high', sign=True)}]"
    if "rank_low" in values:
        low, high = values["rank_low"], values["rank_high"]
        dash = "\\mbox{--}" if kind == "latex" else "-"
        span += f" ({low})" if low == high else f" ({low}{dash}{high})"
    if values.get("in_set"):  # in the metric's best set (model confidence set)
        span += "~\\diamond" if kind == "latex" else " \u22c4"
    if kind == "latex":
        if strong:
            number = f"\\mathbf{{{number}}}"
        if tag:  # a number with a power of ten is braced: one superscript each
            marks = "letters" not in values
            tag = "".join(map(LATEX_MARKS.get, tag)) if marks else f"\\mathrm{{{tag}}}"
            number = (f"{{{number}}}" if "^" in number else number) + f"^{{{tag}}}"
        return f"${number}{span.replace(' ', '~', 1)}$"
    if kind == "html":
        return f"{number}<sup>{tag}</sup>{span}" if tag else number + span
    if strong:  # markdown; text shows no bold
        number = f"**{number}**" if kind == "markdown" else number
    if "letters" in values:
        tag = f"<sup>{tag}</sup>" if kind == "markdown" else f" {tag}"
    elif kind == "text":
        tag = tag or " "  # decimals stay aligned with the marked cells
    return number + tag + span


def _title(report) -> str:
    settings = [f"test={report.test}"]
    if report.baseline is not None:
        settings.append(f"baseline={report.baseline}")
    for name in ("adjust", "confidence_level", "n_resamples", "stream", "seed_entropy"):
        value = getattr(report, name)
        if value is not None:
            settings.append(f"{name}={value}")
    return "Mean per system\n" + ", ".join(settings)


def text(report) -> str:
    """The printed report: title and settings, the table, what the marks mean."""
    shown = cells(report, "text")
    body = shown.to_string()
    return "\n".join([_title(report), body, *report.notes()])


def markdown(report, digits=None, bold_best=None, intervals=False) -> str:
    """The report as a Markdown pipe table, then its notes as a paragraph."""
    shown = cells(report, "markdown", digits, bold_best, intervals).reset_index()
    labels = len(shown.columns) - len(report.metrics)

    def row(items):
        return "| " + " | ".join(str(c).replace("|", "\\|") for c in items) + " |"

    rule = "|" + "|".join(["---"] * labels + ["---:"] * len(report.metrics)) + "|"
    lines = [row(shown.columns), rule, *(row(r) for r in shown.itertuples(index=False))]
    notes = report.notes(bold=_bold(report, bold_best))
    return "\n".join([*lines, "", " ".join(notes)])


def _styler(frame):
    try:
        import jinja2  # noqa: F401
    except ImportError:
        raise ImportError(
            "LaTeX and HTML tables of a report are laid out by pandas' Styler, which needs "
            "jinja2: python -m pip install 'pairedstats[report]' (or jinja2)"
        ) from None
    return frame.style


def html(report) -> str | None:
    """The report as an HTML table (Styler), the notes as its caption; None without jinja2
    (a notebook then shows the printed table)."""
    shown = cells(report, "html")
    try:
        styler = _styler(shown)
    except ImportError:
        return None
    best = _best(report) if report.bold_best else {}

    def weight(column):
        flags = best.get(column.name, [False] * len(column))
        return ["font-weight: bold" if f else "" for f in flags]

    styler = styler.apply(weight).format_index(escape="html", axis=0)
    caption = escape(" ".join(report.notes(bold=report.bold_best)))
    styler = styler.format_index(escape="html", axis=1).set_caption(caption)
    return styler.to_html()


def latex(report, digits=None, bold_best=None, intervals=False, caption=None, label=None,
          note=True):  # fmt: skip
    """The report as a booktabs tabular (Styler): label columns, one column per metric, a
    rule between groups, and (``note``) a last row per note."""
    shown = cells(report, "latex", digits, bold_best, intervals).reset_index()
    labels = len(shown.columns) - len(report.metrics)
    groups = labels - 1
    keys = [key[:groups] if groups else () for key in report._table.index]  # labels, not text
    for j in range(labels):  # labels are text: escaped; a group's name only on its first row
        shown.iloc[:, j] = [display._latex_escape(v) for v in shown.iloc[:, j]]
    for i in range(len(keys) - 1, 0, -1):
        if keys[i] == keys[i - 1]:
            shown.iloc[i, :groups] = ""
    styler = _styler(shown).hide(axis="index")
    styler = styler.format_index(escape="latex", axis=1)
    spec = "l" * labels + "r" * len(report.metrics)
    lines = styler.to_latex(hrules=True, column_format=spec).rstrip("\n").split("\n")
    start = lines.index("\\midrule") + 1
    for i in range(len(keys) - 1, 0, -1):
        if keys[i] != keys[i - 1]:
            lines.insert(start + i, "\\midrule")
    end = lines.index("\\bottomrule") + 1
    notes = [f"\\multicolumn{{{len(shown.columns)}}}{{l}}{{\\footnotesize {n}}} \\\\"
             for n in report.notes(latex=True, bold=_bold(report, bold_best)) if note]  # fmt: skip
    lines[end:end] = notes
    return display._latex_wrap("\n".join(lines), caption, label)
