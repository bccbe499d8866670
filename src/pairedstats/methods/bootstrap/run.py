"""The bootstrap's run: every group of a call, from its validated :class:`Settings` to one
:class:`BootstrapResult` (the maths in :mod:`pairedstats.core.bootstrap`)."""

from __future__ import annotations

import numpy as np

from ... import _validation
from ...core import bootstrap as _core
from ...core import crossed as _crossed
from ...core.design import comparison_pairs
from ...core.effects import paired_effects
from ...core.intervals import comparison_tie_errors
from ...core.parallel import run_in_parts
from ...core.summary import Rule, summarize
from .._shared.runs import Outputs, ProgressBar, comparison_labels
from .findings import Findings, design_findings
from .result import BootstrapResult
from .settings import Settings

__all__ = ["run"]


def _batched_groups(design, pairs, statistic, resampling, method) -> dict[int, np.ndarray]:
    """Groups whose replicates one kernel call computes for all of them (``by=`` sweeps).

    The mean of unclustered, unstratified items on the index path; BCa keeps the per-group
    path (its jackknife). The numbers are the same either way: streams are keyed by group key.
    """
    if statistic is not None or design.cluster is not None or design.strata is not None:
        return {}
    if design.replicates is not None:
        return {}
    if method == "bca" or resampling == "counts":
        return {}
    return {
        g: _core.pair_differences(design.scores[design.group(g), :, 0], pairs)
        for g in range(design.n_groups)
    }


class _Intervals:
    """The output arrays of a call and the intervals computed into them, group by group or
    a batch of groups at a time (row by row the same numbers)."""

    def __init__(self, s: Settings, pairs):
        design, k = s.design, len(pairs)
        self.s, self.out = s, Outputs(design.n_groups, k)
        self.rule = Rule(s.method, s.alternative, s.confidence_level, s.adjust)
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
        joint = s.resampling != "counts" or k == 1
        shape = (design.n_groups, k, s.n_resamples)
        self.replicates = np.empty(shape) if s.keep and joint else None

    def effects(self, g, scores, pairs) -> None:
        """Group ``g``'s effect sizes and win/tie/loss counts (the default mean only)."""
        if self.s.statistic is not None:
            return
        effects = paired_effects(scores, pairs, self.s.design.precision)
        if self.s.weights is not None:
            del effects["effect_size"]
        self.out.set(g, **effects)

    def finish(self, g, reps, est, tie, a=None, se=None) -> None:
        """Intervals of group ``g`` (or of the groups ``g``) from replicates ``(..., k, B)``;
        ``tie`` bounds the rounding of each comparison's replicates (:func:`_tie_errors`),
        ``a`` is BCa's acceleration, ``se`` the studentized ``(replicate_se, estimate_se)``."""
        if self.replicates is not None:
            self.replicates[g] = reps
        scalar = np.ndim(g) == 0
        g, parts = np.atleast_1d(g), [reps, est, tie, a, *(se or (None, None))]
        parts = [None if x is None else (np.asarray(x)[None] if scalar else x) for x in parts]

        def part(rows):
            reps, est, tie, a, rse, ese = (None if x is None else x[rows] for x in parts)
            studentized = None if rse is None else (rse, ese)
            self.out.set(g[rows], **summarize(self.rule, reps, est, acceleration=a, tie=tie,
                                              se=studentized))  # fmt: skip

        run_in_parts(len(g), self.s.workers, part)


def run(s: Settings) -> BootstrapResult:
    """Bootstrap every group of ``s.design`` (the spec's ``run``): batched where one kernel
    call serves many, else one by one.

    With ``s.keep`` false the replicates are dropped once a group's interval is computed and
    ``bootstrap_distribution`` is None: the accessors do so when they return a table, which
    keeps a sweep of 1,000 groups x 4 comparisons x 10,000 resamples from holding 320 MB.
    """
    design = s.design
    pairs = comparison_pairs(design.systems, s.baseline)
    intervals, findings = _Intervals(s, pairs), Findings(design, pairs)
    fast = _batched_groups(design, pairs, s.statistic, s.resampling, s.method)
    with ProgressBar(s.progress, total=design.n_groups, unit="group") as bar:
        _run_batches(s, pairs, fast, intervals, bar)
        for g in (g for g in range(design.n_groups) if g not in fast):
            _run_group(s, pairs, g, intervals, findings)
            bar.update(1)
    _report(s, intervals.out, findings)
    return _result(s, pairs, intervals)


def _run_batches(s: Settings, pairs, fast: dict, intervals: _Intervals, bar) -> None:
    """The groups of ``fast`` (their per-item differences), many per kernel call."""
    design = s.design
    a_idx, b_idx = [a for a, _ in pairs], [b for _, b in pairs]
    keys = {g: design.stream_key(g) for g in fast}
    studentized = s.method == "studentized"
    batches = _core.mean_replicates_batches(
        fast, keys, root=s.root, n_resamples=s.n_resamples, workers=s.workers,
        studentized=studentized,
    )  # fmt: skip
    for batch, reps in batches:
        reps, se = (reps[0], reps[1:]) if studentized else (reps, None)
        for g in batch:
            means = _core.plain_mean(design.scores[design.group(g), :, 0])
            intervals.out.set(g, mean_a=means[a_idx], mean_b=means[b_idx],
                              difference=_core.plain_mean(fast[g]))  # fmt: skip
            intervals.effects(g, design.scores[design.group(g), :, 0], pairs)
        ties = np.array([_tie_errors(s, g, pairs) for g in batch])
        intervals.finish(np.array(batch), reps, intervals.out["difference"][batch], ties, se=se)
        bar.update(len(batch))


def _run_group(s: Settings, pairs, g: int, intervals: _Intervals, findings) -> None:
    """Group ``g`` on its own: clusters, strata, ``statistic``, BCa or the counts path."""
    design, rows = s.design, s.design.group(g)
    if design.replicates is not None:
        return _run_crossed(s, pairs, g, intervals)
    group = _core.GroupData(
        design.scores[rows], pairs,
        cluster=None if design.cluster is None else design.cluster[rows],
        strata=None if design.strata is None else design.strata[rows],
        strata_labels=design.strata_labels, weights=s.weights, systems=design.systems,
        precision=design.precision,
    )  # fmt: skip
    design_findings(findings, g, group, s.weights)
    intervals.effects(g, design.scores[rows, :, 0], pairs)
    out = _core.group_replicates(
        group, group_key=design.stream_key(g), root=s.root, n_resamples=s.n_resamples,
        statistic=s.statistic, resampling=s.resampling, influence=s.method == "bca",
        studentized=s.method == "studentized", workers=s.workers,
    )  # fmt: skip
    intervals.out.set(g, mean_a=out["stat_a"], mean_b=out["stat_b"],
                      difference=out["estimate"], counts_path=out["counts_path"])  # fmt: skip
    if design.cluster is not None:
        intervals.out.set(g, n_clusters=group.n_units)
    sides = None if s.statistic is None else (out["stat_a"], out["stat_b"])
    ties = out["tie_error"] if "tie_error" in out else _tie_errors(s, g, pairs, sides)
    se = (out["replicate_se"], out["estimate_se"]) if "replicate_se" in out else None
    intervals.finish(g, out["replicates"], out["estimate"], ties, out.get("acceleration"), se)


def _run_crossed(s: Settings, pairs, g: int, intervals: _Intervals) -> None:
    """Group ``g`` with replicates: items and replicates resampled crossed."""
    design, rows = s.design, s.design.group(g)
    cells = [c[rows] for c in design.replicates]
    intervals.effects(g, design.scores[rows, :, 0], pairs)
    out = _crossed.crossed_replicates(
        cells, design.replicate_labels, pairs, group_key=design.stream_key(g), root=s.root,
        n_resamples=s.n_resamples,
    )  # fmt: skip
    intervals.out.set(g, mean_a=out["stat_a"], mean_b=out["stat_b"], difference=out["estimate"])
    ties = _crossed.tie_errors(cells, design.replicate_labels, pairs, design.precision)
    intervals.finish(g, out["replicates"], out["estimate"], ties)


def _tie_errors(s: Settings, g: int, pairs, statistics=None) -> np.ndarray:
    """Per comparison, how far the rounding of the scores as given can move a replicate
    (:func:`pairedstats.core.intervals.comparison_tie_errors`)."""
    scores = s.design.scores[s.design.group(g), :, 0]
    return comparison_tie_errors(scores, pairs, s.design.precision, statistics)


def _report(s: Settings, out: Outputs, findings: Findings) -> None:
    """Warn once per kind of degenerate distribution found in the call."""
    point, n_nan = out["point"], out["n_nan"]
    findings.comparisons("point", point)
    findings.comparisons(
        "nan", n_nan > 0, lambda g, c: f" ({n_nan[g, c]} of {s.n_resamples} resamples)"
    )
    if s.method == "bca":
        findings.comparisons("bca_z0", ~np.isfinite(out["bias_correction"]) & ~point)
        findings.comparisons("bca_a", ~np.isfinite(out["acceleration"]) & ~point)
    findings.warn()


def _result(s: Settings, pairs, intervals: _Intervals) -> BootstrapResult:
    """The result: the columns, the labels and the metadata that re-run the call."""
    design, columns = s.design, dict(intervals.out.arrays)
    for name in ("point", "n_nan"):
        del columns[name]
    statistic = s.statistic
    weights = None if s.weights is None else {
        design.strata_labels[c]: w for c, w in s.weights.items()}  # fmt: skip
    meta = _validation.metadata(
        "bootstrap", interval=s.method, alternative=s.alternative, adjust=s.adjust,
        n_resamples=s.n_resamples, confidence_level=s.confidence_level, seed_entropy=s.root,
        baseline=s.baseline, resampling=s.resampling,
        statistic=None if statistic is None else getattr(statistic, "__name__", repr(statistic)),
        weights=weights, cluster=design.cluster is not None, strata=design.strata is not None,
        replicate=design.replicates is not None,
    )  # fmt: skip
    return BootstrapResult(
        **comparison_labels(design, pairs), metadata=meta,
        bootstrap_distribution=intervals.replicates, **columns,
    )  # fmt: skip
