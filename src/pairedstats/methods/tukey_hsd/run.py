"""The randomized Tukey HSD run: every group of a call, from its validated
:class:`~pairedstats.methods.tukey_hsd.settings.Settings` to one :class:`TukeyHSDResult`.

Groups whose exact p-values can be computed are done when the run is made; the others are
counted together, trial block by trial block (:class:`pairedstats.core.tukey.MonteCarloBatch`),
so that a run can be stepped and watched (:class:`TukeyHSDRun`). The maths is in
:mod:`pairedstats.core.tukey`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..._validation import check_n_resamples
from ...core import tukey as core
from ...core.design import comparison_pairs
from ...core.draws import canonical_bytes
from ...core.groups import plain_mean
from ...core.montecarlo import MonteCarloPValue, hdi_of_counts
from ...inputs import canonical_ranks
from .._shared.runs import Outputs, ProgressBar, comparison_labels
from .result import Checkpoint, TukeyHSDResult
from .settings import Settings

__all__ = ["TukeyHSDRun", "run"]


def run(s: Settings) -> TukeyHSDResult:
    """Test every group of ``s.design`` (the spec's ``run``)."""
    return TukeyHSDRun(s).run(monitor=s.monitor, every=s.every, progress=s.progress)


def _canonical_order(systems) -> np.ndarray:
    """The positions of ``systems`` in the canonical order of their labels.

    The rule of the items (:func:`pairedstats.inputs.canonical_ranks`: by label, numbers
    first, then by type, then by value), labels that compare equal (``1`` and ``1.0``)
    parted by their canonical encoding. A trial shuffles each item's scores across the
    system positions, so Monte Carlo p-values follow this order, not the caller's.

    Examples
    --------
    >>> _canonical_order(["z", "x", "y"]).tolist()
    [1, 2, 0]
    >>> _canonical_order(["b", 10, 2]).tolist()  # numbers first
    [2, 1, 0]
    """
    systems = list(systems)
    ranks = canonical_ranks(systems).tolist()
    keys = [(r, canonical_bytes(s)) for r, s in zip(ranks, systems, strict=True)]
    return np.array(sorted(range(len(systems)), key=keys.__getitem__), dtype=np.intp)


class TukeyHSDRun:
    """A randomized Tukey HSD run that can be advanced in steps and looked at.

    Made from a call's :class:`~pairedstats.methods.tukey_hsd.settings.Settings` by
    :func:`pairedstats.tukey_hsd_run` (and by :func:`run`, which does all its trials). The
    run keeps one count per pair, not the trials, so its memory does not grow with the
    trials; however the trials are cut into steps, and at any number of workers, the counts
    are those of one :func:`pairedstats.tukey_hsd` call with the same ``rng``.

    Attributes
    ----------
    trials : int
        Trials done so far (the same in every Monte Carlo group).
    planned : int
        Trials the run does in all (0 when every group is computed exactly).
    done : bool
        ``trials == planned``.

    Examples
    --------
    >>> import numpy as np
    >>> from pairedstats import tukey_hsd_run
    >>> x = np.random.default_rng(0).normal(size=(30, 3)) + [0.0, 0.0, 0.5]
    >>> run = tukey_hsd_run(x, n_resamples=2_000, rng=1, method="monte-carlo")
    >>> run.step(512).trials
    512
    >>> [p.trials for p in run.pvalues()]
    [512, 512, 512]
    >>> result = run.result()          # does the remaining 1488 trials
    >>> int(result.n_resamples[0, 0])
    2000
    """

    def __init__(self, settings: Settings):
        design = self._design = settings.design
        self._settings = settings
        self._workers = core.default_workers(settings.workers)
        self._pairs = comparison_pairs(design.systems, settings.baseline)
        # the trials shuffle system positions: the columns are counted in the canonical
        # order of the system labels, so that the order of `systems=` (or of the columns)
        # changes no p-value; the pairs keep the caller's order and orientation
        order = _canonical_order(design.systems)
        position = np.empty_like(order)
        position[order] = np.arange(order.size)
        counted_pairs = [(position[a], position[b]) for a, b in self._pairs]
        # with a baseline, the family is its comparisons: the many-vs-one statistic
        base = None if settings.baseline is None else int(position[self._pairs[0][0]])
        x = design.scores[:, :, 0]
        self._groups, self._exact = [], []
        for g in range(design.n_groups):
            group = core.prepare_group(
                x[design.group(g)][:, order], counted_pairs, design.precision, base
            )
            self._groups.append(group)
            self._exact.append(self._exact_pvalues(g, group))
        self._methods = ["monte-carlo" if p is None else "exact" for p in self._exact]
        # all Monte Carlo groups are counted together: one compiled call per step and worker
        monte_carlo = [g for g, p in enumerate(self._exact) if p is None]
        self._monte_carlo = np.array(monte_carlo, dtype=np.intp)
        labels = [(core.STREAM_LABEL, design.stream_key(g)) for g in monte_carlo]
        self._batch = core.MonteCarloBatch(
            [self._groups[g] for g in monte_carlo], settings.rng, labels
        )
        self.planned = settings.n_resamples if monte_carlo else 0
        self._counts = np.zeros((design.n_groups, len(self._pairs)), dtype=np.int64)
        self._trials = 0

    def _exact_pvalues(self, g: int, group: core.TukeyGroup) -> np.ndarray | None:
        """Group ``g``'s exact p-values as ``method`` asks; None for Monte Carlo."""
        method = self._settings.method
        if method == "monte-carlo":
            return None
        p = core.exact_pvalues(group)
        if p is None and method == "exact":
            raise ValueError(
                "`method='exact'` needs a small design: the scores of group "
                f"{self._design.group_keys[g]!r} ({group.n_items} items x {group.k} "
                "systems) have too many arrangements for enumeration and are not on a "
                "small enough integer grid for the dynamic programme; use "
                "method='auto' or method='monte-carlo'."
            )
        return p

    @property
    def trials(self) -> int:
        return self._trials

    @property
    def done(self) -> bool:
        return self._trials >= self.planned

    def step(self, n_trials: int) -> TukeyHSDRun:
        """Do ``n_trials`` more trials (in every Monte Carlo group); return the run."""
        n_trials = check_n_resamples(n_trials, "n_trials")
        if self._trials + n_trials > self.planned:
            raise ValueError(
                f"`n_trials` must be at most the {self.planned - self._trials} trials left of "
                f"the {self.planned} planned; got {n_trials}."
            )
        lo, hi = self._trials, self._trials + n_trials
        self._counts[self._monte_carlo] += self._batch.count(lo, hi, self._workers)
        self._trials = hi
        return self

    def pvalues(self) -> tuple:
        """One :class:`MonteCarloPValue` per result row (None for exact groups)."""
        out = []
        for g, counts in enumerate(self._counts):
            for j in range(len(self._pairs)):
                if self._exact[g] is not None:
                    out.append(None)
                else:
                    out.append(MonteCarloPValue(int(counts[j]), self._trials))
        return tuple(out)

    def checkpoint(self) -> Checkpoint:
        """A copy of the state, as given to a monitor."""
        return Checkpoint(
            trials=self._trials, planned=self.planned, pvalues=self.pvalues(), done=self.done
        )

    def run(
        self,
        monitor: Callable[[Checkpoint], object] | None = None,
        every: int | None = None,
        progress: bool = False,
    ) -> TukeyHSDResult:
        """Do the remaining trials, showing a checkpoint every ``every`` trials; the result.

        ``every`` defaults to 1% of the planned trials rounded up to whole blocks of
        trials (256 to 8192, see :func:`pairedstats.core.tukey.trials_per_block`). The
        monitor and the progress bar only look; the result is the same
        without them.
        """
        left = self.planned - self._trials
        if monitor is None and not progress:
            every = max(1, left)  # nothing to show: one step
        elif every is None:
            size = self._batch.block_size()
            every = max(size, -(-max(1, self.planned // 100) // size) * size)
        with ProgressBar(progress, total=self.planned, initial=self._trials, unit="trial") as bar:
            while left > 0:
                n = min(every, left)
                self.step(n)
                left -= n
                bar.update(n)
                if monitor is not None:
                    monitor(self.checkpoint())
        return self._result()

    def result(self) -> TukeyHSDResult:
        """Do the remaining trials (if any) and return the result."""
        return self.run()

    def _result(self) -> TukeyHSDResult:
        design = self._design
        a = np.array([p[0] for p in self._pairs], dtype=np.intp)
        b = np.array([p[1] for p in self._pairs], dtype=np.intp)
        out = Outputs(design.n_groups, len(self._pairs))
        for name in ("mean_a", "mean_b", "difference", "pvalue", "pvalue_low", "pvalue_high",
                     "exceeding"):  # fmt: skip
            out.add(name)
        out.add("n_resamples", np.int64, 0)
        out.per_group("n_items", design.n_items(), np.int64)
        out.per_group("pvalue_method", self._methods, object)
        quanta = [np.nan if grp.quantum is None else grp.quantum for grp in self._groups]
        out.per_group("tie_quantum", quanta)
        out.per_group("n_dropped", design.n_dropped(), np.int64)
        x = design.scores[:, :, 0]
        for g in range(design.n_groups):
            scores = x[design.group(g)]
            means = scores.mean(axis=0)
            # the mean of the per-item differences, added as the bootstrap adds them: not
            # mean_b - mean_a, whose means of offset scores lose the digits of the differences
            out.set(g, mean_a=means[a], mean_b=means[b],
                    difference=plain_mean(scores[:, b] - scores[:, a]))  # fmt: skip
            if self._exact[g] is not None:
                p = self._exact[g]
                out.set(g, pvalue=p, pvalue_low=p, pvalue_high=p)
            else:
                counts = self._counts[g]
                out.set(g, pvalue=counts / self._trials, exceeding=counts,
                        n_resamples=self._trials)  # fmt: skip
        if self._monte_carlo.size:  # the intervals of MonteCarloPValue.hdi(), all at once
            mc = self._monte_carlo
            low, high = hdi_of_counts(self._counts[mc], self._trials)
            out.set(mc, pvalue_low=low, pvalue_high=high)
        # only call-level settings go to the metadata: per-group facts are columns, so
        # that results of separately computed chunks (dask) share their attributes
        meta = self._settings.metadata(
            missing=design.missing, score_precision=design.precision, confidence_level=0.95
        )
        if self._settings.method == "exact":  # the call never draws: no seed to re-run
            meta.pop("seed_entropy", None)
        return TukeyHSDResult(
            **comparison_labels(design, self._pairs), metadata=meta, **out.arrays,
        )  # fmt: skip
