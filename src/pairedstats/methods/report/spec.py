"""The paper table: systems x metrics, each mean with the marks (or letters) of a test.

``df.paired.report(item="query", system="run", score=["ndcg", "p10"], baseline="bm25")``
runs one existing method per metric (the paired bootstrap or the randomized Tukey HSD,
obtained through the registry on each metric's design, with the same ``rng`` for every
metric) and summarises its results in a :class:`~pairedstats.Report`: one row per system
(per group), per metric the system's mean and

* with ``baseline=``: the comparison with the baseline (its ``difference``, the bootstrap's
  interval of that difference, and the p-value that decided), and a mark: ``†`` significantly
  better than the baseline, ``‡`` significantly worse. The family of a metric (its
  comparisons with the baseline, in one group) is controlled together: by ``adjust``
  (default Holm) for the bootstrap, by the many-to-one statistic for Tukey HSD. Metrics are
  separate families.
  With ``margin=``, ``≈`` marks a system equivalent to the baseline within the margin (two
  one-sided tests by the metric's test, adjusted as the marks).
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
marks as superscripts, the best mean in bold; :mod:`.render`). ``Styler`` needs jinja2,
which pandas does not install: it is the optional extra ``pairedstats[report]``, imported
only when a LaTeX or HTML table is asked for (``DataFrame.to_latex`` needs jinja2 as well in
pandas 2, so it is no way around it). Without jinja2, ``to_latex`` raises an ``ImportError``
naming the extra and ``_repr_html_`` returns None (notebooks then show the text table). The
printed table is ``DataFrame.to_string`` and the Markdown table a pipe table, which need
nothing more.
"""

from __future__ import annotations

from .._shared.keywords import NO_REPLICATE, columns_keyword
from .._shared.registry import MethodSpec, register
from .run import run, summed
from .settings import Options, check

__all__ = ["SPEC"]

SUMMARY_FIRST = """A systems x metrics table for a paper: each system's mean per metric, marked
against ``baseline`` (or with compact letters), from one test per metric."""
DESCRIPTION = """Runs ``test`` (the paired bootstrap or the randomized Tukey HSD) on each
metric with the same ``rng`` and summarises the results: ``to_frame()`` holds the unrounded
numbers (per metric the mean, the difference from the baseline with its interval and the
p-value that decided, the mark or the letters); ``str()``, ``to_markdown()``, ``to_latex()``
and ``_repr_html_()`` render it. See the report guide for what the marks mean."""

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

SPEC = register(
    MethodSpec(
        name="report",
        command="report",
        summary=" ".join(SUMMARY_FIRST.split()),
        description=DESCRIPTION,
        road="paired",
        inputs={
            "frame": ("item", "system", "score", "systems", "by", "missing"),
            "dataset": ("item", "system", "score", "systems", "missing"),
        },
        options=Options,
        check=check,
        run=run,
        returns=RETURNS,
        examples=EXAMPLES,
        refuses=REFUSES,
        table=False,
        metrics=True,
        lazy=False,
        formats=("text", "csv", "markdown", "latex"),
        input_docs={"score": _SCORE},
        summed=summed,
    )
)
