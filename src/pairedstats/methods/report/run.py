"""The report's run: one call of the test per metric, obtained through the registry on that
metric's design with the same root entropy, with ``ranks=True`` one ranking per metric and
with ``mcs=True`` one model confidence set per metric, summarised in a
:class:`~pairedstats.Report`."""

from __future__ import annotations

from .._shared.registry import SPECS
from .._shared.streaming import bootstrap_sums
from .result import Report
from .settings import Settings

__all__ = ["run", "summed"]


def run(s: Settings) -> Report:
    """The report of ``s``: each metric's test, then :class:`~pairedstats.Report`."""
    test = SPECS[s.test]
    wanted = dict(baseline=s.baseline, rng=s.rng, progress=s.progress, stream=s.stream,
                  confidence_level=s.confidence_level, adjust=s.adjust)  # fmt: skip
    if s.n_resamples is not None:
        wanted["n_resamples"] = s.n_resamples
    # the report's settings that the test takes (Tukey HSD: no level, no adjust; McNemar's
    # test: no resampling)
    own = {k.name for k in test.keywords}
    options = {k: v for k, v in wanted.items() if k in own}
    margins = {m: _margin(s, m, own) for m in s.designs}
    equivalence = s.margin_test == "equivalence"
    results = {m: test.compute(design, keep=True, **options,
                               **(margins[m] if equivalence else {}))
               for m, design in s.designs.items()}  # fmt: skip
    margin_results = None
    if not equivalence:  # one-sided at the margin, towards each metric's better side
        margin_results = {
            m: test.compute(design, keep=False, **options, **margins[m],
                            alternative="less" if m in s.lower_is_better else "greater")
            for m, design in s.designs.items() if margins[m]
        }  # fmt: skip
    ranks = _per_metric(s, "rank") if s.ranks else None
    mcs = _per_metric(s, "mcs") if s.mcs else None
    return Report(
        results=results, baseline=s.baseline, test=s.test, adjust=s.adjust,
        confidence_level=s.confidence_level, n_resamples=s.n_resamples,
        lower_is_better=s.lower_is_better, digits=s.digits, bold_best=s.bold_best,
        margin=s.margin, margin_test=s.margin_test, margin_results=margin_results,
        seed_entropy=s.rng if _drew(results, ranks, mcs) else None, ranks=ranks, mcs=mcs,
        stream=s.stream,
    )  # fmt: skip


def summed(designs: dict, s: Settings) -> dict:
    """The sums of the streaming road (the spec's ``summed``), metric by metric, of a slice
    of the items: McNemar's outcome products, or the bootstrap's tallies (of all pairs
    with ``ranks`` or ``mcs``, else of the report's comparisons)."""
    if s.test == "mcnemar":
        return {m: SPECS["mcnemar"].summed(design, s) for m, design in designs.items()}
    n = s.n_resamples or SPECS["bootstrap"].keyword("n_resamples").default
    baseline = None if s.ranks or s.mcs else s.baseline
    return {m: bootstrap_sums(design, s.rng, n, baseline) for m, design in designs.items()}


def _margin(s: Settings, metric, own: set) -> dict:
    """``{"margin": m}`` for the test of ``metric`` when the report has a margin for it and
    the test declares ``margin`` (the check refused a margin otherwise); else ``{}``."""
    m = s.margin.get(metric) if isinstance(s.margin, dict) else s.margin
    return {} if m is None or "margin" not in own else {"margin": m}


def _drew(results: dict, ranks, mcs) -> bool:
    """Whether the report drew at random: a ranking or best set (bootstrap), or a test
    that recorded and printed a seed (McNemar's test and exact Tukey HSD draw nothing)."""
    drawn = (r.metadata.get("seed_entropy") is not None and "seed_entropy" in r.printed_metadata
             for r in results.values())  # fmt: skip
    return ranks is not None or mcs is not None or any(drawn)


def _per_metric(s: Settings, name: str) -> dict:
    """Metric -> the result of the table of systems ``name`` on it: its
    :class:`~pairedstats.RankResult` (``ranks=True``) or :class:`~pairedstats.MCSResult`
    (``mcs=True``), at the report's level, ``rng`` and ``n_resamples``."""
    options = dict(rng=s.rng, confidence_level=s.confidence_level, stream=s.stream)
    if s.n_resamples is not None:
        options["n_resamples"] = s.n_resamples
    spec = SPECS[name]
    return {m: spec.compute(design, lower_is_better=m in s.lower_is_better, **options)
            for m, design in s.designs.items()}  # fmt: skip
