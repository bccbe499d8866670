"""The report: a systems x metrics table built from the results of one test per metric,
joined on the systems' labels (:class:`Report`)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from ... import display
from ...core.rates import rate_interval
from .._shared.base import ReadOnlyResult
from .._shared.registry import SPECS
from .._shared.results import IntervalRule
from . import render as report_render

__all__ = ["BETTER", "EQUIVALENT", "IN_SET", "NONINFERIOR", "TESTS", "WORSE", "Report"]


class _Tests(Mapping):
    """Method name -> the name the report prints for it: every registered method whose spec
    sets ``report_test`` (:class:`~pairedstats.methods._shared.registry.MethodSpec`), in
    registration order, read from the registry whenever it is asked (a method registered
    later is one of them)."""

    def _now(self) -> dict:
        return {name: s.report_test for name, s in SPECS.items() if s.report_test is not None}

    def __getitem__(self, name: str) -> str:
        return self._now()[name]

    def __iter__(self):
        return iter(self._now())

    def __len__(self) -> int:
        return len(self._now())

    def __repr__(self) -> str:
        return f"TESTS({self._now()!r})"


#: The tests a report can summarise: the method's name and its name in the notes.
TESTS = _Tests()
ADJUSTED = {"holm": "Holm", "bonferroni": "Bonferroni", "max-t": "max-t",
             "fdr_bh": "Benjamini-Hochberg", "fdr_by": "Benjamini-Yekutieli"}  # fmt: skip
BETTER, WORSE = "\u2020", "\u2021"  # dagger, double dagger
EQUIVALENT = "\u2248"  # almost equal: equivalent to the baseline within the margin
NONINFERIOR = "\u2ab0"  # succeeds or equals: not worse than the baseline by the margin
IN_SET = "\u22c4"  # diamond: in the metric's best set (model confidence set)


def _alpha(confidence_level: float) -> float:
    """``1 - confidence_level`` without the float's tail (0.05, not 0.050000000000000044):
    a Monte Carlo p-value of exactly 0.05 is not below it."""
    return round(1.0 - confidence_level, 12)


def _interval_columns(result):
    if result.interval is None:
        return None
    if getattr(result, "ci_low_adjusted", None) is not None:
        return ("ci_low_adjusted", "ci_high_adjusted")
    return result.interval


def _against_baseline(result, alpha: float, lower: bool, margin=None):
    """Rows (group key, system, values) of one metric against the baseline; ``margin``: the
    metric's one-sided test against its margin (non-inferiority), or None."""
    # an interval rule decides at its own level; a p-value rule at the report's
    flags = result.significant(None if isinstance(result, IntervalRule) else alpha).to_numpy()
    side_a, side_b = (np.asarray(getattr(result, name)) for name in result.side_columns)
    adjusted = getattr(result, "pvalue_adjusted", None)
    pvalue = np.asarray(result.pvalue if adjusted is None else adjusted, dtype=float)
    interval = _interval_columns(result)
    # with a margin (two-sided): equivalent to the baseline, whichever direction is better
    equivalent = getattr(result, "equivalent", None)
    noninferior = None
    if margin is not None:  # the same design and baseline: the same labels, checked
        if (margin.group_keys, margin.label_b) != (result.group_keys, result.label_b):
            raise RuntimeError("the margin's test compares other systems than the report's")
        noninferior = margin.noninferior
    rows = []
    for g, key in enumerate(result.group_keys):
        base = dict(mean=float(side_a[g, 0]), difference=math.nan, pvalue=math.nan,
                    mark="")  # fmt: skip
        if interval:
            base.update(ci_low=math.nan, ci_high=math.nan)
        rows.append((key, result.label_a[0], base))
        for c, system in enumerate(result.label_b):
            difference = float(result.difference[g, c])
            better = (difference < 0) if lower else (difference > 0)
            mark = (BETTER if better else WORSE) if flags[g, c] else ""
            if equivalent is not None and equivalent[g, c]:
                mark += EQUIVALENT
            if noninferior is not None and noninferior[g, c]:
                mark += NONINFERIOR
            values = dict(mean=float(side_b[g, c]), difference=difference,
                          pvalue=float(pvalue[g, c]), mark=mark)  # fmt: skip
            if interval:
                values["ci_low"] = float(getattr(result, interval[0])[g, c])
                values["ci_high"] = float(getattr(result, interval[1])[g, c])
            rows.append((key, system, values))
    order = ["mean", "difference", "ci_low", "ci_high", "pvalue", "mark"]
    return rows, [q for q in order if q in rows[0][2]]


def _letter_rows(result, alpha: float, lower: bool):
    """Rows (group key, system, values) of one metric with its compact letters."""
    table = display.letters(result, alpha=alpha, lower_is_better=lower)
    found = {}
    for row in table.itertuples(index=False):
        key = tuple(row[: len(result.group_names)])
        found[key, row.system] = dict(mean=float(row.mean), letters=row.letters)
    systems = list(dict.fromkeys([*result.label_a, *result.label_b]))
    rows = [(key, s, found[tuple(key), s]) for key in result.group_keys for s in systems]
    return rows, ["mean", "letters"]


def _with_rates(rows, quantities, result, confidence_level: float):
    """Add each system's pass-rate interval ``rate_low, rate_high`` (Wilson; Clopper-Pearson
    at 0% and 100%: :func:`pairedstats.core.rates.rate_interval`) to the rows of a result of
    0/1 scores, found by label in its comparisons."""
    n_items = np.asarray(result.n_items)
    side = [np.asarray(getattr(result, name)) for name in result.side_columns]
    found = {}
    for g, key in enumerate(result.group_keys):
        for c, pair in enumerate(zip(result.label_a, result.label_b)):
            for system, rates in zip(pair, side):
                found[tuple(key), system] = (float(rates[g, c]), int(n_items[g, c]))
    for key, system, values in rows:
        rate, n = found[tuple(key), system]
        low, high = rate_interval(round(rate * n), n, confidence_level)
        values["rate_low"], values["rate_high"] = float(low), float(high)
    return rows, [*quantities, "rate_low", "rate_high"]


def _with_ranks(rows, quantities, ranking):
    """Add ``rank_low, rank_high`` of ``ranking`` (a RankResult) to each row."""
    found = {}
    for g, key in enumerate(ranking.group_keys):
        for j, system in enumerate(ranking.systems):
            found[tuple(key), system] = (int(ranking.rank_low[g, j]),
                                         int(ranking.rank_high[g, j]))  # fmt: skip
    for key, system, values in rows:
        values["rank_low"], values["rank_high"] = found[tuple(key), system]
    return rows, [*quantities, "rank_low", "rank_high"]


def _with_mcs(rows, quantities, best):
    """Add ``in_set, mcs_pvalue`` of ``best`` (an MCSResult) to each row."""
    found = {}
    for g, key in enumerate(best.group_keys):
        for j, system in enumerate(best.systems):
            found[tuple(key), system] = (bool(best.in_set[g, j]), float(best.mcs_pvalue[g, j]))
    for key, system, values in rows:
        values["in_set"], values["mcs_pvalue"] = found[tuple(key), system]
    return rows, [*quantities, "in_set", "mcs_pvalue"]


def _frame(results: dict, baseline, alpha: float, lower_is_better, ranks=None,
           mcs=None, margins=None) -> object:  # fmt: skip
    """The report's numbers: rows (groups..., system), columns (metric, quantity)."""
    import pandas as pd

    blocks = []
    for metric, result in results.items():
        if baseline is None:
            rows, quantities = _letter_rows(result, alpha, metric in lower_is_better)
        else:
            rows, quantities = _against_baseline(result, alpha, metric in lower_is_better,
                                                 (margins or {}).get(metric))  # fmt: skip
        if result.side_columns == ("rate_a", "rate_b"):  # 0/1 scores: each system's rate
            rows, quantities = _with_rates(rows, quantities, result, 1.0 - alpha)
        if ranks is not None:
            rows, quantities = _with_ranks(rows, quantities, ranks[metric])
        if mcs is not None:
            rows, quantities = _with_mcs(rows, quantities, mcs[metric])
        data = {(metric, q): [v[q] for _, _, v in rows] for q in quantities}
        blocks.append(pd.DataFrame(data, index=_label_index(rows, result.group_names)))
    # the metrics' blocks are joined on their labels (group keys, system), never on positions
    frame = pd.concat(blocks, axis=1, sort=False)
    frame.columns = pd.MultiIndex.from_tuples(frame.columns, names=["metric", "quantity"])
    return frame


def _label_index(rows, group_names):
    """The index of ``rows`` (group key, system, values): ``(groups..., system)``, or the
    system labels alone without groups, each row keeping its own labels."""
    import pandas as pd

    if not group_names:
        return pd.Index([s for _, s, _ in rows], name="system", tupleize_cols=False)
    names = [*group_names, "system"]
    return pd.MultiIndex.from_tuples([(*k, s) for k, s, _ in rows], names=names)


@dataclass(frozen=True, kw_only=True)
class Report(ReadOnlyResult):
    """A systems x metrics table: each system's mean per metric with the marks (against
    ``baseline``) or letters (all pairs) of a test. Made by ``df.paired.report(...)``.

    Attributes
    ----------
    results : dict
        Metric -> the result of the test on it (:class:`~pairedstats.BootstrapResult` or
        :class:`~pairedstats.TukeyHSDResult`), whose numbers the report shows.
    baseline : label or None
        The system the marks are about; None: letters.
    test : str
        ``"bootstrap"`` or ``"tukey_hsd"``.
    adjust : str or None
        The bootstrap's adjustment (None for Tukey HSD, adjusted by its statistic).
    confidence_level : float
        Marks and letters decide at ``alpha = 1 - confidence_level``.
    n_resamples : int or None
        As given (None: the method's default).
    lower_is_better : tuple of str
        Metrics whose lower values are better.
    digits : int
        Decimals of the displays.
    bold_best : bool
        Whether the displays show the best mean per metric in bold.
    seed_entropy : int or None
        The root entropy of every metric's call (``rng=seed_entropy`` re-runs the report);
        None when nothing was drawn at random (McNemar's test or exact Tukey HSD p-values,
        without ``ranks`` or ``mcs``), and then not printed.
    stream : bool or None
        The streaming road's numbers (``stream=True``: the Poisson bootstrap of sums,
        McNemar's counts summed), printed when given.
    ranks : dict or None
        With ``ranks=True``: metric -> its :class:`~pairedstats.RankResult`, whose
        rank sets the report shows.
    mcs : dict or None
        With ``mcs=True``: metric -> its :class:`~pairedstats.MCSResult`, whose best set
        the report marks (``\u22c4``).
    margin : float, dict or None
        The equivalence margin of every metric, or by metric (None: no equivalence test);
        the systems its test shows equivalent to the baseline are marked ``\u2248``.
    """

    results: dict
    baseline: object = None
    test: str = "bootstrap"
    adjust: str | None = None
    confidence_level: float = 0.95
    n_resamples: int | None = None
    lower_is_better: tuple = ()
    digits: int = 3
    bold_best: bool = False
    seed_entropy: int | None = None
    stream: bool | None = None
    ranks: dict | None = None
    mcs: dict | None = None
    margin: float | dict | None = None
    margin_test: str = "equivalence"
    margin_results: dict | None = None
    _table: object = field(default=None, repr=False, compare=False)

    def __post_init__(self):
        super().__post_init__()
        alpha = _alpha(self.confidence_level)
        table = _frame(self.results, self.baseline, alpha, self.lower_is_better, self.ranks,
                       self.mcs, self.margin_results)  # fmt: skip
        object.__setattr__(self, "_table", table)

    @property
    def metrics(self) -> list:
        """The metrics, in column order."""
        return list(self.results)

    @property
    def group_names(self) -> list:
        """The names of the group levels (``by=`` columns or sweep dimensions)."""
        return list(next(iter(self.results.values())).group_names)

    def to_frame(self):
        """The report's numbers, unrounded.

        Returns
        -------
        pandas.DataFrame
            One row per system (index ``system``, after the group levels with ``by=``);
            columns ``(metric, quantity)``: ``mean``, and against a baseline
            ``difference`` (system minus baseline), ``ci_low``, ``ci_high`` (bootstrap: the
            interval of the difference; simultaneous with max-t and Bonferroni), ``pvalue``
            (the p-value that decided: adjusted with ``adjust``; Tukey's many-to-one), and
            ``mark`` (``†`` better, ``‡`` worse, ``""``; with ``margin``, ``≈`` added for a
            system equivalent to the baseline); the baseline's row has NaN there.
            Without a baseline: ``letters``. With ``ranks=True`` also ``rank_low`` and
            ``rank_high``, the system's rank set; with ``mcs=True`` ``in_set`` and
            ``mcs_pvalue``, the model confidence set. ``attrs`` holds the settings.
        """
        frame = self._table.copy()
        frame.attrs.update(self.metadata)
        return frame

    @property
    def metadata(self) -> dict:
        """The settings that re-run the report (``rng=seed_entropy``)."""
        return dict(test=self.test, baseline=self.baseline, adjust=self.adjust,
                    confidence_level=self.confidence_level, n_resamples=self.n_resamples,
                    seed_entropy=self.seed_entropy, stream=self.stream, metrics=self.metrics,
                    lower_is_better=self.lower_is_better, margin=self.margin,
                    margin_test=self.margin_test,
                    ranks=self.ranks is not None, mcs=self.mcs is not None)  # fmt: skip

    def notes(self, *, latex: bool = False, bold: bool = False) -> list[str]:
        """What the marks (or letters) mean, and with ``bold`` what the bold means: one
        sentence per line."""
        alpha = _alpha(self.confidence_level)
        p = f"$p < {alpha:g}$" if latex else f"p < {alpha:g}"
        name = TESTS[self.test]
        if self.adjust is not None:
            how = f"{ADJUSTED[self.adjust]}-adjusted {p}"
        elif self.test == "tukey_hsd":
            how = p if self.baseline is None else f"many-to-one {p}"
        else:
            how = f"unadjusted, {p}"
        if latex:
            better, worse = (f"$^{{{report_render.LATEX_MARKS[m]}}}$" for m in (BETTER, WORSE))
            base = display._latex_escape(str(self.baseline))
        else:
            better, worse, base = BETTER, WORSE, str(self.baseline)
        if self.baseline is None:
            lines = [f"Systems sharing a letter are not significantly different ({name} of "
                     f"all pairs, {how}); a: {self._best_words(latex)}."]  # fmt: skip
        else:  # a mark is explained where it is used
            cells = self._table.xs("mark", axis=1, level="quantity").to_numpy().ravel()
            marks = set("".join(c for c in cells if isinstance(c, str)))  # each mark used
            said = [f"{shown} significantly {word} than {base}"
                    for mark, shown, word in ((BETTER, better, "better"), (WORSE, worse, "worse"))
                    if mark in marks]  # fmt: skip
            said = said or [f"No system differs significantly from {base}"]
            lines = [f"{', '.join(said)} ({name}, {how})."]
            if self.margin is not None:
                lines.append(self._equivalence_note(marks, base, how, latex))
        if self.ranks is not None:
            kind = "(low--high)" if latex else "(low-high)"
            lines.append(f"{kind}: the ranks a system may hold on the metric, "
                         f"{self.confidence_level:g} simultaneous rank sets (max-t bootstrap "
                         "intervals of all pairs).")  # fmt: skip
        if self.mcs is not None:
            shown, stat = ("$\\diamond$", "$T_{\\max}$") if latex else (IN_SET, "T_max")
            lines.append(f"{shown}: in the metric's {self.confidence_level:g} best set (model "
                         f"confidence set, {stat}), which holds the truly best system(s) with "
                         f"probability about {self.confidence_level:g}.")  # fmt: skip
        if self.ranks is not None and self.mcs is not None:
            lines.append(f"A rank set from 1 and {shown} are two answers to which system may "
                         f"be best, both at {self.confidence_level:g} here: they need not "
                         "agree (alone, rank and mcs default to 0.95 and 0.9).")  # fmt: skip
        if bold:
            lines.append(f"Bold: {self._best_words(latex)} of each metric.")
        return lines

    def _equivalence_note(self, marks: set, base: str, how: str, latex: bool) -> str:
        """The line of the margin's mark: equivalent to the baseline within the margin (two
        one-sided tests), or not worse than it by the margin (non-inferiority); said when no
        cell holds it too."""
        noninferiority = self.margin_test == "noninferiority"
        pm = "" if noninferiority else "$\\pm$" if latex else "\u00b1"
        if isinstance(self.margin, dict):
            within = ", ".join(f"{pm}{v:g} for {display._latex_escape(str(m)) if latex else m}"
                               for m, v in self.margin.items())  # fmt: skip
        else:
            within = f"{pm}{self.margin:g}"
        mark = NONINFERIOR if noninferiority else EQUIVALENT
        shown = f"$^{{{report_render.LATEX_MARKS[mark]}}}$" if latex else mark
        if noninferiority:
            test = f"one-sided test at the margin, {how}"
            said = f"not worse than {base} by {within} or more"
            if mark in marks:
                return f"{shown} {said} ({test})."
            return f"No system is shown {said} ({test})."
        test = f"two one-sided tests, {how}"
        if mark in marks:
            return f"{shown} equivalent to {base}, the difference within {within} ({test})."
        return f"No system is shown equivalent to {base} within {within} ({test})."

    def _best_words(self, latex: bool) -> str:
        """Which mean is the best, in words: the highest, the lowest, or per metric."""
        lower = [m for m in self.metrics if m in self.lower_is_better]
        if not lower:
            return "the highest mean"
        if len(lower) == len(self.metrics):
            return "the lowest mean"
        names = ", ".join(display._latex_escape(str(m)) if latex else str(m) for m in lower)
        return f"the best mean (the highest; the lowest for {names})"

    # ------------------------------------------------------------------ displays
    def __str__(self) -> str:
        return report_render.text(self)

    def __repr__(self) -> str:
        return f"<Report: {len(self.metrics)} metric(s), test={self.test}>\n{self}"

    def _repr_html_(self) -> str | None:
        return report_render.html(self)

    def to_markdown(self, *, digits=None, bold_best=None, intervals: bool = False) -> str:
        """The report as a Markdown (pipe) table with its notes: see :meth:`to_latex`."""
        return report_render.markdown(self, digits, bold_best, intervals)

    def to_latex(self, *, digits=None, bold_best=None, intervals: bool = False,
                 caption: str | None = None, label: str | None = None,
                 note: bool = True) -> str:  # fmt: skip
        r"""The report as a LaTeX ``tabular`` (booktabs), laid out by pandas' ``Styler``.

        Marks and letters are superscripts, and a last row says what they mean. Needs
        ``\usepackage{booktabs}``, and jinja2 (``pip install pairedstats[report]``).

        Parameters
        ----------
        digits : int, optional
            Decimals (default: the report's ``digits``).
        bold_best : bool, optional
            The best mean per metric (and group) in bold (default: the report's).
        intervals : bool
            Add the interval of the difference from the baseline (bootstrap) to each cell.
        caption, label : str, optional
            When given, the tabular is wrapped in a ``table`` environment with them.
        note : bool
            Add the rows saying what the marks (and the bold) mean (default True); without
            them, put ``" ".join(report.notes(latex=True))`` in the caption instead.

        Returns
        -------
        str
        """
        return report_render.latex(self, digits, bold_best, intervals, caption, label, note)
