"""The bootstrap's run: every group of a call, from its validated :class:`Settings` to one
:class:`BootstrapResult`.

The core computes each group's replicates by the road that serves it
(:func:`pairedstats.core.bootstrap_design.design_replicates`: crossed, a batch of groups per
kernel call, or one group on its own); the run turns them into intervals, p-values and
effect sizes (:func:`pairedstats.core.summary.summarize`), collects them in an
:class:`~pairedstats.methods._shared.runs.Outputs` and warns once per kind of degenerate
design or distribution it found (:class:`Findings`).
"""

from __future__ import annotations

import numpy as np

from ...core.bootstrap import Replicates
from ...core.bootstrap_design import design_replicates
from ...core.derived import DerivedReplicates
from ...core.design import comparison_pairs
from ...core.draws.poisson import POISSON_STREAM_VERSION
from ...core.effects import PairedEffects, paired_effects
from ...core.margins import margin_names
from ...core.parallel import run_in_parts
from ...core.summary import Rule, Summary, margin_tests, summarize
from ...core.summed import SummedDesign, summed_design, summed_effects, summed_replicates
from .._shared.findings import binary_comparisons
from .._shared.margins import MARGIN_COLUMNS
from .._shared.runs import Outputs, ProgressBar, comparison_labels
from .._shared.streaming import bootstrap_sums
from .findings import Findings, design_findings, pass_fail, resolution
from .result import BootstrapResult
from .settings import Settings

__all__ = ["run", "summed"]


def run(s: Settings) -> BootstrapResult:
    """Bootstrap every group of ``s.design`` (the spec's ``run``).

    With ``s.keep`` false the replicates are dropped once a group's interval is computed and
    ``bootstrap_distribution`` is None: the accessors do so when they return a table, which
    keeps a sweep of 1,000 groups x 4 comparisons x 10,000 resamples from holding 320 MB.
    """
    design = s.design
    pairs = comparison_pairs(design.systems, s.baseline)
    if s.stream:
        return _summed(s, pairs)
    intervals, findings = _Intervals(s, pairs), Findings(design, pairs)
    groups = design_replicates(
        design, pairs, root=s.rng, n_resamples=s.n_resamples, weights=s.stratum_weights,
        statistic=s.statistic, resampling=s.resampling, influence=s.method == "bca",
        studentized=s.method == "studentized", workers=s.workers,
    )  # fmt: skip
    with ProgressBar(s.progress, total=design.n_groups, unit="group") as bar:
        for g, replicates, units in groups:
            if units is not None:
                design_findings(findings, g, units, s.stratum_weights)
                if units.clustered:
                    intervals.out.set(g, n_clusters=units.n_units)
            intervals.collect(g, replicates, pairs)
            bar.update(np.size(g))
    _report(s, intervals.out, findings, binary_comparisons(design, pairs, s.statistic))
    return _result(s, pairs, intervals)


def summed(design, s: Settings) -> SummedDesign:
    """The sums of the streaming road (the spec's ``summed``): the Poisson bootstrap's
    tallies of each group of ``design``, a slice of the table's items."""
    return bootstrap_sums(design, s.rng, s.n_resamples, s.baseline)


def _summed(s: Settings, pairs) -> BootstrapResult:
    """The Poisson bootstrap of sums (``stream=True``): each group's replicates and effect
    sizes from its :class:`~pairedstats.core.summed.GroupSums` (those of the dask road, or
    made here from the design in memory)."""
    summed = s.design
    if not isinstance(summed, SummedDesign):
        summed = summed_design(summed, pairs, root=s.rng, n_resamples=s.n_resamples,
                               workers=s.workers)  # fmt: skip
    intervals, findings = _Intervals(s, pairs), Findings(summed, pairs)
    binary = np.zeros((summed.n_groups, len(pairs)), dtype=bool)
    a, b = np.asarray(pairs, dtype=np.intp).reshape(-1, 2).T
    with ProgressBar(s.progress, total=summed.n_groups, unit="group") as bar:
        for g, sums in enumerate(summed.groups):
            replicates = summed_replicates(sums, pairs, summed.precision)
            effects = summed_effects(sums, pairs, summed.precision, stored=summed.pairs)
            intervals.collect(g, replicates, pairs, effects)
            binary[g] = sums.binary[a] & sums.binary[b]
            bar.update(1)
    _report(s, intervals.out, findings, binary)
    return _result(s, pairs, intervals)


class _Intervals:
    """The output arrays of a call and the intervals computed into them, group by group or
    a batch of groups at a time (row by row the same numbers)."""

    def __init__(self, s: Settings, pairs):
        design, k = s.design, len(pairs)
        self.s, self.out = s, Outputs(design.n_groups, k)
        self.rule = Rule(s.method, s.alternative, s.confidence_level, s.adjust, s.margin)
        for name in ("mean_a", "mean_b", "difference", "ci_low", "ci_high", "standard_error",
                     "pvalue"):  # fmt: skip
            self.out.add(name)
        if s.statistic is None:
            if s.weights is None:
                self.out.add("effect_size")
            for name in ("wins", "ties", "losses"):
                self.out.add(name, np.int64, 0)
        self.out.per_group("n_items", design.n_items(), np.int64)
        self.out.per_group("n_dropped", design.n_dropped(), np.int64)
        self.out.add("counts_path", bool, False)
        self.out.add("point", bool, False)
        self.out.add("n_nan", np.int64, 0)
        if design.cluster is not None:
            self.out.add("n_clusters", np.int64, 0)
        if s.method == "bca":
            self.out.add("bias_correction")
            self.out.add("acceleration")
        if s.adjust is not None:
            self.out.add("pvalue_adjusted")
        if s.adjust in ("max-t", "bonferroni"):
            self.out.add("ci_low_adjusted")
            self.out.add("ci_high_adjusted")
        if s.margin is not None:
            decision, pvalue = margin_names(s.alternative)
            self.out.add(decision, bool, False)
            self.out.add(pvalue)
            if s.adjust is not None:
                self.out.add(pvalue + "_adjusted")
        joint = s.resampling != "counts" or k == 1
        shape = (design.n_groups, k, s.n_resamples)
        self.replicates = np.empty(shape) if s.keep and joint else None

    def collect(self, g, reps: Replicates, pairs, effects: PairedEffects | None = None) -> None:
        """Group ``g``'s (or the batch of groups ``g``'s) estimates, effect sizes and
        intervals from their replicates; ``effects``: one group's, when they are not read
        from the design's scores."""
        self.out.set(g, mean_a=reps.stat_a, mean_b=reps.stat_b, difference=reps.estimate,
                     counts_path=reps.counts_path)  # fmt: skip
        for group in np.atleast_1d(g):
            self._effects(group, pairs, effects)
        self._intervals(g, reps)

    def _effects(self, g: int, pairs, effects: PairedEffects | None) -> None:
        """Group ``g``'s effect sizes and win/tie/loss counts (the default mean only)."""
        if self.s.statistic is not None:
            return
        design = self.s.design
        if effects is None:
            rows = design.scores[design.group(g), :, 0]
            effects = paired_effects(rows, pairs, design.precision)
        if self.s.weights is None:  # with weights the estimate is not the item mean
            self.out.set(g, effect_size=effects.effect_size)
        self.out.set(g, wins=effects.wins, ties=effects.ties, losses=effects.losses)

    def _intervals(self, g, reps: Replicates) -> None:
        """Intervals of group ``g`` (or of the groups ``g``, threads over the batch)."""
        if self.replicates is not None:
            self.replicates[g] = np.asarray(reps.replicates)
        parts = [reps.replicates, reps.estimate, reps.tie_error, reps.acceleration,
                 reps.replicate_se, reps.estimate_se]  # fmt: skip
        if np.ndim(g) == 0:  # one group: its comparisons, a block at a time
            self._store([g], self._summary(parts))
            return
        g = np.atleast_1d(g)

        def part(rows):
            self._store(g[rows], self._summary([_rows(x, rows) for x in parts]))

        run_in_parts(len(g), self.s.workers, part)

    def _summary(self, parts) -> Summary:
        reps, est, tie, a, rse, ese = parts
        studentized = None if rse is None else (rse, ese)
        return summarize(self.rule, reps, est, acceleration=a, tie=tie, se=studentized)

    def _store(self, g, summary: Summary) -> None:
        """The columns of the groups ``g`` from their ``summary``, field by field (those
        the settings ask for)."""
        s, out = self.s, self.out
        out.set(g, standard_error=summary.standard_error, ci_low=summary.ci_low,
                ci_high=summary.ci_high, pvalue=summary.pvalue, point=summary.point,
                n_nan=summary.n_nan)  # fmt: skip
        if s.method == "bca":
            out.set(g, bias_correction=summary.bias_correction,
                    acceleration=summary.acceleration)  # fmt: skip
        if s.adjust is not None:
            out.set(g, pvalue_adjusted=summary.pvalue_adjusted)
        if s.adjust in ("max-t", "bonferroni"):
            out.set(g, ci_low_adjusted=summary.ci_low_adjusted,
                    ci_high_adjusted=summary.ci_high_adjusted)  # fmt: skip
        if s.margin is not None:
            out.set(g, **margin_tests(summary, self.rule, s.n_resamples))


def _rows(x, rows):
    """Groups ``rows`` of a batch's field (the leading axis)."""
    if x is None:
        return None
    return x.groups(rows) if isinstance(x, DerivedReplicates) else x[rows]


def _report(s: Settings, out: Outputs, findings: Findings, binary: np.ndarray) -> None:
    """Warn once per kind of degenerate distribution found in the call; on 0/1 scores
    (``binary``, n_groups x k) the warning points to McNemar's test."""
    point, n_nan = out["point"], out["n_nan"]
    findings.comparisons("point", point)
    pass_fail(findings, point & binary, "point")
    findings.comparisons(
        "empty" if s.stream else "nan", n_nan > 0,
        lambda g, c: f" ({n_nan[g, c]} of {s.n_resamples} resamples)",
    )  # fmt: skip
    if s.method == "bca":
        for kind, mask in (("bca_z0", ~np.isfinite(out["bias_correction"]) & ~point),
                           ("bca_a", ~np.isfinite(out["acceleration"]) & ~point)):  # fmt: skip
            findings.comparisons(kind, mask)
            pass_fail(findings, mask & binary, kind)
    resolution(findings, out["pvalue"], s)
    findings.warn()


def _adjusted(s: Settings) -> str | None:
    """Which p-values ``pvalue_adjusted`` adjusts (the metadata's ``adjusted_pvalues``)."""
    if s.adjust is None:
        return None
    if s.adjust == "max-t":
        return "the joint resamples (step-down shares, not add-one)"
    added = 2 if s.alternative == "two-sided" else 1
    return f"add-one p-values (B p + {added}) / (B + 1), B = {s.n_resamples}"


def _result(s: Settings, pairs, intervals: _Intervals) -> BootstrapResult:
    """The result: the columns (those the settings made; ``point`` and ``n_nan`` are the
    warnings'), the labels and the metadata that re-run the call."""
    design, out = s.design, intervals.out
    meta = s.metadata(
        cluster=design.cluster is not None, strata=design.strata is not None,
        replicate=design.replicates is not None, adjusted_pvalues=_adjusted(s),
        **({"poisson_stream_version": POISSON_STREAM_VERSION} if s.stream else {}),
    )  # fmt: skip
    return BootstrapResult(
        **comparison_labels(design, pairs), metadata=meta,
        mean_a=out["mean_a"], mean_b=out["mean_b"], difference=out["difference"],
        ci_low=out["ci_low"], ci_high=out["ci_high"], standard_error=out["standard_error"],
        pvalue=out["pvalue"], n_items=out["n_items"], n_dropped=out["n_dropped"],
        counts_path=out["counts_path"], pvalue_adjusted=out.get("pvalue_adjusted"),
        ci_low_adjusted=out.get("ci_low_adjusted"), ci_high_adjusted=out.get("ci_high_adjusted"),
        effect_size=out.get("effect_size"), wins=out.get("wins"), ties=out.get("ties"),
        losses=out.get("losses"), n_clusters=out.get("n_clusters"),
        bias_correction=out.get("bias_correction"), acceleration=out.get("acceleration"),
        bootstrap_distribution=intervals.replicates,
        **{name: out.get(name) for name in MARGIN_COLUMNS},
    )  # fmt: skip
