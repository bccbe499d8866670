"""The paper table: systems x metrics, each mean with the marks (or letters) of a test.

``df.paired.report(item="query", system="run", score=["ndcg", "p10"], baseline="bm25")``
runs one existing method per metric (the paired bootstrap or the randomized Tukey HSD, through
the ``.paired`` accessor, with the same ``rng`` for every metric) and summarises its results
in a :class:`Report`: one row per system (per group), per metric the system's mean and

* with ``baseline=``: the comparison with the baseline (its ``difference``, the bootstrap's
  interval of that difference, and the p-value that decided), and a mark: ``†`` significantly
  better than the baseline, ``‡`` significantly worse. The family of a metric (its
  comparisons with the baseline, in one group) is controlled together: by ``adjust``
  (default Holm) for the bootstrap, by the many-to-one statistic for Tukey HSD. Metrics are
  separate families.
* without a baseline: compact letters (:func:`pairedstats.display.letters`) from the test of
  all pairs (Tukey HSD, or the bootstrap with ``adjust``): two systems share a letter
  exactly when the test did not find them different.

What a cell shows. A paired design compares systems on the same items, so the interval that
says something is the interval of a *difference*: the interval of one system's mean holds
the items' spread, which the pairing removes, and two overlapping per-system intervals do
not mean that the systems do not differ. The report therefore shows each system's mean, and
the interval of its difference from the baseline (bootstrap; ``intervals=True`` in the
displays), never a per-system interval of the mean. With ``adjust="max-t"`` or
``"bonferroni"`` the interval is the simultaneous one (``ci_low_adjusted``), which agrees
with the mark; with Holm it is the comparison's own interval, and the mark follows the
adjusted p-value.

Rendering. The LaTeX and HTML tables are laid out by :class:`pandas.io.formats.style.Styler`
(booktabs rules, escaping, HTML styles); the cells are formatted here (``digits`` decimals,
marks as superscripts, the best mean in bold). ``Styler`` needs jinja2, which pandas does not
install: it is the optional extra ``pairedstats[report]``, imported only when a LaTeX or HTML
table is asked for (``DataFrame.to_latex`` needs jinja2 as well in pandas 2, so it is no way
around it). Without jinja2, ``to_latex`` raises an ``ImportError`` naming the extra and
``_repr_html_`` returns None (notebooks then show the text table). The printed table is
``DataFrame.to_string`` and the Markdown table a pipe table, which need nothing more.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ... import display
from ..._validation import (
    check_choice,
    check_confidence_level,
    check_lower_is_better,
    check_progress,
)
from ...core.draws import root_entropy
from .._shared.registry import (
    INPUTS,
    NO_REPLICATE,
    PROGRESS,
    RNG,
    Keyword,
    baseline_keyword,
    columns_keyword,
)
from . import render as report_render

__all__ = ["KEYWORDS", "TESTS", "Report", "report"]

SUMMARY = """A systems x metrics table for a paper: each system's mean per metric, marked
against ``baseline`` (or with compact letters), from one test per metric.

Runs ``test`` (the paired bootstrap or the randomized Tukey HSD) on each metric with the same
``rng`` and summarises the results: ``to_frame()`` holds the unrounded numbers (per metric
the mean, the difference from the baseline with its interval and the p-value that decided,
the mark or the letters); ``str()``, ``to_markdown()``, ``to_latex()`` and ``_repr_html_()``
render it. See the report guide for what the marks mean."""

EXAMPLES = {
    "frame": """>>> import pairedstats
>>> runs = pairedstats.datasets.load_runs()
>>> rep = runs.paired.report(item="query", system="run", score=["ndcg", "p10"],
...                          baseline="bm25", by="collection", n_resamples=2000, rng=1)
>>> rep.to_frame().loc["robust04", ("ndcg", "mark")].to_dict()
{'bm25': '', 'bm25+rm3': '\u2020', 'dense': '\u2020', 'hybrid': '\u2020'}
>>> print(rep.to_latex().splitlines()[0])
\\begin{tabular}{llrr}""",
    "dataset": """>>> import numpy as np, xarray as xr
>>> scores = np.random.default_rng(0).normal(size=(30, 3)) + [0.0, 0.1, 0.8]
>>> ds = xr.Dataset({"acc": (("item", "system"), scores)}, coords={"system": ["a", "b", "c"]})
>>> rep = ds.paired.report(test="tukey_hsd", n_resamples=1000, rng=1)
>>> rep.to_frame()["acc"]["letters"].to_dict()
{'a': 'b', 'b': 'b', 'c': 'a'}""",
}

RETURNS = dict.fromkeys(
    ("frame", "dataset"),
    "Report\n    ``to_frame()``, ``str()``, ``to_markdown()``, ``to_latex()``, ``_repr_html_()``.",
)

#: The tests a report can summarise: the accessor method and its name in the notes.
TESTS = {"bootstrap": "paired bootstrap", "tukey_hsd": "randomized Tukey HSD"}
_ADJUSTED = {"holm": "Holm", "bonferroni": "Bonferroni", "max-t": "max-t",
             "fdr_bh": "Benjamini-Hochberg"}  # fmt: skip
BETTER, WORSE = "\u2020", "\u2021"  # dagger, double dagger
_LATEX_MARK = {BETTER: r"\dagger", WORSE: r"\ddagger"}

_SCORE = columns_keyword(
    "score",
    "The metrics: columns of a tidy table, or data variables of a Dataset (default: all); "
    "each is tested on its own (a wide table has one metric).",
    "score columns, one per metric (tidy tables)",
)
#: Keywords refused on purpose, with why (:func:`pairedstats.methods._shared.registry.refuse`).
REFUSES = {
    "replicate": "its tests (bootstrap or Tukey HSD per metric) take one score per item and "
    "system; the run-to-run (seed) variance of repeated runs would be left out. " + NO_REPLICATE
}

#: The report's keywords, declared once: the accessors' signatures, their docstrings and
#: the command line's options are made from them.
KEYWORDS = (
    baseline_keyword(
        "Mark every other system against this one (``†`` significantly better, ``‡`` "
        "significantly worse); default: compact letters from the test of all pairs."
    ),
    Keyword(
        "test", "bootstrap", '{"bootstrap", "tukey_hsd"}, default "bootstrap"',
        "The method run on each metric: the paired bootstrap, or the randomized Tukey HSD.",
        option=dict(type=str.lower, choices=tuple(TESTS), help="default: bootstrap"),
    ),
    Keyword(
        "adjust", "auto", '{"auto", "holm", "bonferroni", "max-t", "fdr_bh"} or None',
        'The bootstrap\'s adjustment over the comparisons of a metric; ``"auto"``: Holm. '
        "None: unadjusted marks (not with letters). Tukey HSD is adjusted by its statistic "
        'and takes only ``"auto"``.',
        option=dict(type=str.lower, help="bootstrap adjustment (default holm)"),
    ),
    Keyword(
        "confidence_level", 0.95, "float, default 0.95",
        "The level of the bootstrap's intervals; marks and letters decide at ``alpha = 1 - "
        "confidence_level``.",
        option=dict(type=float, metavar="LEVEL", help="default 0.95"),
    ),
    Keyword(
        "n_resamples", None, "int, optional",
        "Resamples (bootstrap) or trials (Tukey HSD); default: the method's own (10,000).",
        option=dict(type=int, metavar="N", help="default 10000"),
    ),
    RNG,
    PROGRESS,
    Keyword(
        "lower_is_better", (), "bool, str or list of str, optional",
        "Metrics whose lower values are better (losses, error rates), or True for all: "
        "their marks, letters (``a`` for the best), bold and rank sets read that way.",
        option=dict(nargs="*", metavar="METRIC",
                    help="metrics where lower is better (none named: all)"),
    ),
    Keyword(
        "digits", 3, "int, default 3",
        "Decimals shown by the displays (the numbers of ``to_frame`` are not rounded).",
        option=dict(type=int, metavar="D", help="decimals shown (default 3)"),
    ),
    Keyword(
        "bold_best", False, "bool, default False",
        "Show the best mean of each metric (per group) in bold (LaTeX, HTML, Markdown).",
        option=dict(action="store_true", help="best mean per metric in bold"),
    ),
    Keyword(
        "ranks", False, "bool, default False",
        "Add each system's rank set per metric, ``(rank_low-rank_high)`` after its mean: "
        "the ranks it may hold, simultaneous at ``confidence_level`` over the systems of a "
        "metric (``df.paired.rank``, from the bootstrap's max-t intervals of all pairs, "
        "same ``rng`` and ``n_resamples``).",
        option=dict(action="store_true", help="add each system's rank set per metric"),
    ),
)  # fmt: skip


def input_keywords(container: str) -> list[Keyword]:
    """The input keywords of the report on ``container`` (``"frame"`` or ``"dataset"``)."""
    table = INPUTS["paired"][container]
    names = ("item", "system", "score", "systems", "by", "missing")
    return [_SCORE if n == "score" else table[n] for n in names if n in table]


# ------------------------------------------------------------------------ computing
def _settings(baseline, test, adjust, confidence_level, n_resamples, lower_is_better, digits):
    test = check_choice(test, "test", tuple(TESTS))
    confidence_level = check_confidence_level(confidence_level)
    if adjust is not None:
        adjust = check_choice(adjust, "adjust", ("auto", *_ADJUSTED))
    if test == "tukey_hsd" and adjust not in ("auto", None):
        raise ValueError(
            f"`adjust`: tukey_hsd controls its family by its own statistic (the range, or "
            f"many-to-one with a baseline); got adjust={adjust!r}. Leave adjust='auto'"
        )
    if adjust == "auto":
        adjust = "holm" if test == "bootstrap" else None
    if test == "bootstrap" and baseline is None and adjust is None:
        raise ValueError(
            "`adjust`: letters need decisions over the family of all pairs; got "
            "adjust=None without a baseline. Give adjust='holm' (or another), a baseline, "
            "or test='tukey_hsd'"
        )
    if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= 15:
        raise ValueError(f"`digits` must be an integer from 0 to 15; got {digits!r}")
    return dict(
        baseline=baseline, test=test, adjust=adjust, confidence_level=confidence_level,
        n_resamples=n_resamples, lower_is_better=lower_is_better,
    )  # fmt: skip


def report(accessor, container: str, **keywords) -> Report:
    """The report of a ``.paired`` accessor (``container``: ``"frame"`` or ``"dataset"``):
    one call of the test per metric, with the same root entropy, then :class:`Report`."""
    given = {k.name: keywords.pop(k.name) for k in input_keywords(container)}
    digits, bold_best = keywords.pop("digits"), bool(keywords.pop("bold_best"))
    with_ranks = keywords.pop("ranks")
    if not isinstance(with_ranks, bool | np.bool_):
        raise TypeError(f"`ranks` must be True or False; got {with_ranks!r}.")
    entropy = root_entropy(keywords.pop("rng"))
    progress = check_progress(keywords.pop("progress"))
    settings = _settings(digits=digits, **keywords)
    score = given.pop("score")
    if score is None and container == "dataset":
        score = list(accessor._obj.data_vars)
    metrics = [score] if score is None or isinstance(score, str) else list(score)
    if not metrics or len(set(map(str, metrics))) != len(metrics):
        raise ValueError(f"`score`: give one or more distinct metrics; got {score!r}")
    names = ["score" if m is None else m for m in metrics]
    settings["lower_is_better"] = check_lower_is_better(settings["lower_is_better"], names)
    method = getattr(accessor, settings["test"])
    options = dict(baseline=settings["baseline"], rng=entropy, as_result=True, progress=progress)
    if settings["n_resamples"] is not None:
        options["n_resamples"] = settings["n_resamples"]
    if settings["test"] == "bootstrap":
        options.update(confidence_level=settings["confidence_level"], adjust=settings["adjust"])
    results = {("score" if m is None else m): method(**given, score=m, **options) for m in metrics}
    ranks = _ranks(accessor, given, metrics, settings, entropy) if with_ranks else None
    return Report(results=results, digits=digits, bold_best=bold_best,
                  seed_entropy=entropy, ranks=ranks, **settings)  # fmt: skip


def _ranks(accessor, given, metrics, settings, entropy) -> dict:
    """Metric -> its :class:`~pairedstats.methods.rank.run.RankResult` (``ranks=True``)."""
    options = dict(rng=entropy, confidence_level=settings["confidence_level"], as_result=True)
    if settings["n_resamples"] is not None:
        options["n_resamples"] = settings["n_resamples"]
    lower = settings["lower_is_better"]
    return {(key := "score" if m is None else m): accessor.rank(
        **given, score=m, lower_is_better=key in lower, **options) for m in metrics}  # fmt: skip


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


def _against_baseline(result, alpha: float, lower: bool):
    """Rows (group key, system, values) of one metric against the baseline."""
    flags = result.significant(None if result.interval else alpha).to_numpy()
    adjusted = getattr(result, "pvalue_adjusted", None)
    pvalue = np.asarray(result.pvalue if adjusted is None else adjusted, dtype=float)
    interval = _interval_columns(result)
    rows = []
    for g, key in enumerate(result.group_keys):
        base = dict(mean=float(result.mean_a[g, 0]), difference=math.nan, pvalue=math.nan,
                    mark="")  # fmt: skip
        if interval:
            base.update(ci_low=math.nan, ci_high=math.nan)
        rows.append((key, result.label_a[0], base))
        for c, system in enumerate(result.label_b):
            difference = float(result.difference[g, c])
            better = (difference < 0) if lower else (difference > 0)
            mark = (BETTER if better else WORSE) if flags[g, c] else ""
            values = dict(mean=float(result.mean_b[g, c]), difference=difference,
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


def _frame(results: dict, baseline, alpha: float, lower_is_better, ranks=None) -> object:
    """The report's numbers: rows (groups..., system), columns (metric, quantity)."""
    import pandas as pd

    blocks = []
    for metric, result in results.items():
        if baseline is None:
            rows, quantities = _letter_rows(result, alpha, metric in lower_is_better)
        else:
            rows, quantities = _against_baseline(result, alpha, metric in lower_is_better)
        if ranks is not None:
            rows, quantities = _with_ranks(rows, quantities, ranks[metric])
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


# ------------------------------------------------------------------------ the report
@dataclass(frozen=True, kw_only=True)
class Report:
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
    seed_entropy : int
        The root entropy of every metric's call (``rng=seed_entropy`` re-runs the report).
    ranks : dict or None
        With ``ranks=True``: metric -> its :class:`~pairedstats.methods.rank.run.RankResult`, whose
        rank sets the report shows.
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
    ranks: dict | None = None
    _table: object = field(default=None, repr=False, compare=False)

    def __post_init__(self):
        alpha = _alpha(self.confidence_level)
        table = _frame(self.results, self.baseline, alpha, self.lower_is_better, self.ranks)
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
            ``mark`` (``†`` better, ``‡`` worse, ``""``); the baseline's row has NaN there.
            Without a baseline: ``letters``. With ``ranks=True`` also ``rank_low`` and
            ``rank_high``, the system's rank set. ``attrs`` holds the settings.
        """
        frame = self._table.copy()
        frame.attrs.update(self.metadata)
        return frame

    @property
    def metadata(self) -> dict:
        """The settings that re-run the report (``rng=seed_entropy``)."""
        return dict(test=self.test, baseline=self.baseline, adjust=self.adjust,
                    confidence_level=self.confidence_level, n_resamples=self.n_resamples,
                    seed_entropy=self.seed_entropy, metrics=self.metrics)  # fmt: skip

    def notes(self, *, latex: bool = False, bold: bool = False) -> list[str]:
        """What the marks (or letters) mean, and with ``bold`` what the bold means: one
        sentence per line."""
        alpha = _alpha(self.confidence_level)
        p = f"$p < {alpha:g}$" if latex else f"p < {alpha:g}"
        name = TESTS[self.test]
        if self.adjust is not None:
            how = f"{_ADJUSTED[self.adjust]}-adjusted {p}"
        elif self.test == "tukey_hsd":
            how = p if self.baseline is None else f"many-to-one {p}"
        else:
            how = f"unadjusted, {p}"
        if latex:
            better, worse = (f"$^{{{_LATEX_MARK[m]}}}$" for m in (BETTER, WORSE))
            base = display._latex_escape(str(self.baseline))
        else:
            better, worse, base = BETTER, WORSE, str(self.baseline)
        if self.baseline is None:
            lines = [f"Systems sharing a letter are not significantly different ({name} of "
                     f"all pairs, {how}); a: {self._best_words(latex)}."]  # fmt: skip
        else:  # a mark is explained where it is used
            marks = set(self._table.xs("mark", axis=1, level="quantity").to_numpy().ravel())
            said = [f"{shown} significantly {word} than {base}"
                    for mark, shown, word in ((BETTER, better, "better"), (WORSE, worse, "worse"))
                    if mark in marks]  # fmt: skip
            said = said or [f"No system differs significantly from {base}"]
            lines = [f"{', '.join(said)} ({name}, {how})."]
        if self.ranks is not None:
            kind = "(low--high)" if latex else "(low-high)"
            lines.append(f"{kind}: the ranks a system may hold on the metric, "
                         f"{self.confidence_level:g} simultaneous rank sets (max-t bootstrap "
                         "intervals of all pairs).")  # fmt: skip
        if bold:
            lines.append(f"Bold: {self._best_words(latex)} of each metric.")
        return lines

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
