"""Randomized Tukey HSD: which pairs of systems differ, with the multiplicity handled.

Functional API on arrays (:func:`tukey_hsd`), on designs (:func:`tukey_hsd_design`, which
the accessors call), and a run that can be stepped and watched (:func:`tukey_hsd_run`).
All pairs (the range statistic) or, with ``baseline=``, the comparisons with one system
(the many-vs-one statistic). The maths is in :mod:`pairedstats.core.tukey`; the result
type in :mod:`pairedstats.methods.tukey_hsd.result`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..._validation import (
    check_baseline,
    check_choice,
    check_n_resamples,
    check_progress,
    check_workers,
    metadata,
    normalise_rng,
)
from ...core import tukey as core
from ...core.design import PairedDesign, comparison_pairs
from ...core.draws import canonical_bytes
from ...core.groups import plain_mean
from ...core.montecarlo import MonteCarloPValue, hdi_of_counts
from ...inputs import canonical_ranks, check_design, design_from_array
from .._shared.registry import (
    NO_REPLICATE,
    PAIRED_INPUTS,
    PROGRESS,
    RNG,
    WORKERS,
    Keyword,
    MethodSpec,
    array_function,
    baseline_keyword,
    design_function,
    register,
)
from .._shared.runs import Outputs, ProgressBar, comparison_labels
from .result import Checkpoint, TukeyHSDResult

__all__ = ["Checkpoint", "TukeyHSDResult", "TukeyHSDRun", "tukey_hsd", "tukey_hsd_design",
           "tukey_hsd_run"]  # fmt: skip


# -------------------------------------------------------------------- validation
def _tukey_hsd_iv(
    scores, arg, n_resamples, rng, exact, missing, monitor, every, progress, workers, baseline
):
    """Check every keyword; return the design and the normalised settings.

    ``scores`` is a design (read from ``arg``: "design", or "scores" for an array)."""
    n_resamples = check_n_resamples(n_resamples)  # at most MAX_RESAMPLES
    exact = _METHOD[check_choice(exact, "method", tuple(_METHOD))]
    missing = check_choice(missing, "missing", ("raise", "complete"))
    if monitor is not None and not callable(monitor):
        raise TypeError(f"`monitor` must be a callable taking a Checkpoint; got {monitor!r}.")
    if every is not None:
        every = check_n_resamples(every, "every")
    progress = check_progress(progress)
    workers = check_workers(workers)
    design = _one_column(check_design(scores), arg)
    check_baseline(baseline, design.systems)
    root = normalise_rng(rng)
    return (design, n_resamples, exact, missing, monitor, every, progress, workers, root,
            baseline)  # fmt: skip


def _one_column(design: PairedDesign, arg: str) -> PairedDesign:
    if design.scores.shape[2] != 1:
        raise ValueError(
            f"`{arg}` must have one score column for tukey_hsd; got "
            f"{design.scores.shape[2]} columns {design.columns!r}."
        )
    return design


#: ``method`` -> how the run decides per group: exact when it can ("auto"), always, never.
_METHOD = {"auto": "auto", "exact": True, "monte-carlo": False}
_REQUESTED = {"auto": "auto", True: "exact", False: "monte-carlo"}


# -------------------------------------------------------------------------- run
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

    Made by :func:`tukey_hsd_run`. The run keeps one count per pair, not the trials, so
    its memory does not grow with the trials; however the trials are cut into steps, and
    at any number of workers, the counts are those of one :func:`tukey_hsd` call with the
    same ``rng``.

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

    def __init__(self, design, n_resamples, exact, root, workers, missing, baseline=None):
        self._design = design
        self._root = root
        self._workers = core.default_workers(workers)
        self._setting = {"method": _REQUESTED[exact], "missing": missing, "baseline": baseline}
        self._pairs = comparison_pairs(design.systems, baseline)
        # the trials shuffle system positions: the columns are counted in the canonical
        # order of the system labels, so that the order of `systems=` (or of the columns)
        # changes no p-value; the pairs keep the caller's order and orientation
        order = _canonical_order(design.systems)
        position = np.empty_like(order)
        position[order] = np.arange(order.size)
        counted_pairs = [(position[a], position[b]) for a, b in self._pairs]
        # with a baseline, the family is its comparisons: the many-vs-one statistic
        base = None if baseline is None else int(position[self._pairs[0][0]])
        x = design.scores[:, :, 0]
        self._groups = []
        self._exact = []
        methods = []
        monte_carlo, labels = [], []
        for g in range(design.n_groups):
            prepared = core.prepare_group(
                x[design.group(g)][:, order], counted_pairs, design.precision, base
            )
            self._groups.append(prepared)
            p = None
            if exact is True or exact == "auto":
                p = core.exact_pvalues(prepared)
                if p is None and exact is True:
                    raise ValueError(
                        "`method='exact'` needs a small design: the scores of group "
                        f"{design.group_keys[g]!r} ({prepared.n_items} items x {prepared.k} "
                        "systems) have too many arrangements for enumeration and are not on a "
                        "small enough integer grid for the dynamic programme; use "
                        "method='auto' or method='monte-carlo'."
                    )
            self._exact.append(p)
            methods.append("exact" if p is not None else "monte-carlo")
            if p is None:
                monte_carlo.append(g)
                labels.append((core.STREAM_LABEL, design.stream_key(g)))
        self._methods = methods
        # all Monte Carlo groups are counted together: one compiled call per step and worker
        self._monte_carlo = np.array(monte_carlo, dtype=np.intp)
        self._batch = core.MonteCarloBatch([self._groups[g] for g in monte_carlo], root, labels)
        self.planned = n_resamples if monte_carlo else 0
        self._counts = np.zeros((design.n_groups, len(self._pairs)), dtype=np.int64)
        self._trials = 0

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
        meta = metadata(
            "tukey_hsd", n_resamples=self.planned, seed_entropy=self._root,
            method_requested=self._setting["method"], missing=self._setting["missing"],
            baseline=self._setting["baseline"], score_precision=design.precision,
            confidence_level=0.95,
        )  # fmt: skip
        return TukeyHSDResult(
            **comparison_labels(design, self._pairs), metadata=meta, **out.arrays,
        )  # fmt: skip


# ---------------------------------------------------------------------- public
def tukey_hsd_run(
    scores,
    *,
    systems=None,
    baseline=None,
    n_resamples: int = 10_000,
    rng=None,
    method: str = "auto",
    missing: str = "raise",
    workers: int | None = None,
) -> TukeyHSDRun:
    """Make a :class:`TukeyHSDRun`; ``scores`` is an array or a ``PairedDesign``.

    The keywords are those of :func:`tukey_hsd`. Groups computed exactly are done when the
    run is made.
    """
    if isinstance(scores, PairedDesign):
        design, arg = scores, "design"
    else:
        design, arg = _read(scores, systems=systems, missing=missing), "scores"
    design, n_resamples, exact, missing, _, _, _, workers, root, baseline = _tukey_hsd_iv(
        design, arg, n_resamples, rng, method, missing, None, None, False, workers, baseline
    )
    return TukeyHSDRun(design, n_resamples, exact, root, workers, missing, baseline)


def _compute(
    design: PairedDesign, keep: bool, *, baseline, n_resamples, rng, method, monitor, every,
    progress, workers,
) -> TukeyHSDResult:  # fmt: skip
    """Validate the keywords and test every group of ``design`` (the spec's ``run``)."""
    design, n_resamples, exact, missing, monitor, every, progress, workers, root, baseline = (
        _tukey_hsd_iv(design, "design", n_resamples, rng, method, "raise", monitor, every,
                      progress, workers, baseline)
    )  # fmt: skip
    run = TukeyHSDRun(design, n_resamples, exact, root, workers, missing, baseline)
    return run.run(monitor=monitor, every=every, progress=progress)


def _read(scores, *, systems, missing) -> PairedDesign:
    return _one_column(design_from_array(scores, systems=systems, missing=missing), "scores")


_SAKAI = """
    >>> import numpy as np
    >>> from pairedstats import tukey_hsd
    >>> x = [.7, .3, .2, .6, .4, .4, 0, .7, .1, .3, .5, .4, 0, .6, .5, .3, .1, .5, .2, .1]
    >>> y = [.5, .1, 0, .2, .4, .3, 0, .5, .3, .3, .4, .4, .1, .4, .2, .1, .1, .6, .3, .2]
"""

SPEC = register(
    MethodSpec(
        name="tukey_hsd",
        command="tukey-hsd",
        summary="Randomized Tukey HSD test of the systems scored on the same items: all pairs, "
        "or each system against a baseline.",
        description="""
        In each trial the scores are shuffled across systems independently within every item
        and the range (largest minus smallest) of the system means is recorded. A pair's
        p-value is the fraction of trials whose range is at least the pair's observed
        ``|mean_b - mean_a|`` (Carterette 2012; Sakai 2018); no +1 is added, so a 0 means
        the exact p-value is probably below about ``3 / n_resamples`` (``pvalue_high``). The
        range statistic accounts for testing all pairs. With two systems it is Fisher's
        paired randomization (sign-flip) test. The null hypothesis is that the systems are
        interchangeable within items, not that their means are equal: systems of equal means
        and unequal spreads are rejected more often than ``alpha``.

        Ties follow the differences of the scores, not their size (the tie rule every method
        shares): any scale, any offset that float64 adds exactly, any dtype. Each item's
        scores are shifted so that the smallest is 0; such a difference errs by at most
        ``error = 16 * u * (max - min of the scores)``, ``u`` the unit roundoff of the dtype
        the scores were given in (``2**-53`` for float64 and integers, ``2**-24`` for
        float32). When
        every difference is within ``error`` of a multiple of a common step (0.1, 0.05, 1/3,
        1e-11...) and its ``N`` distinct multiples, the largest ``K``, are too many for
        chance (``K * (4 * error / step)**(N - 1) <= 1e-3``), the scores are compared as
        integers and the step is the ``tie_quantum`` column. Otherwise they are compared as
        float sums, and a range counts when it is at least the observed difference minus
        the bound on the error of the sums, ``4 * n_items * (error + 2**-53 * L)``, ``L``
        the largest possible system sum. The trials follow the systems' labels in their
        sorted order, so any order of the same systems gives the same p-values.

        With ``baseline=X`` the family is the comparisons ``(X, b)`` of every other system
        ``b`` with ``X``, and each trial records the largest ``|mean_j - mean_X|`` over the
        systems ``j`` other than ``X`` instead of the range: the randomization analogue of
        Dunnett's many-to-one test. The trials are those of the all-pairs test (same
        ``rng``, same draws), whose range is never below that statistic: against a baseline
        a pair's p-value is at most its all-pairs p-value, and with two systems the two
        tests are the same. The tie rule, the exact path and the Monte Carlo columns are
        those of all pairs.""",
        road="paired",
        inputs=PAIRED_INPUTS,
        keywords=(
            baseline_keyword(
                "Compare every other system with this one (a = baseline), the comparisons "
                "with it forming the family (many-vs-one statistic); default: all pairs, a "
                "before b in system order (range statistic)."
            ),
            Keyword(
                "n_resamples",
                10_000,
                "int, default 10_000",
                'Trials (the "B" of the literature); at most ``10**9``.',
                option=dict(type=int, metavar="N", help="trials (default 10000)"),
            ),
            RNG,
            Keyword(
                "method",
                "auto",
                '{"auto", "exact", "monte-carlo"}, default "auto"',
                '``"exact"``: the exact permutation p-value (every within-item arrangement), '
                'or a ValueError if the design is too large. ``"monte-carlo"``: random '
                'trials. ``"auto"``: exact when the scores are on a grid whose dynamic '
                "programme has at most 2**22 states and 2e8 operations, or the arrangements "
                "(item 0 held fixed) number at most 2**18; Monte Carlo otherwise. The "
                "``pvalue_method`` column says which was used (as the rank-sum test's "
                "``method``).",
                option=dict(
                    type=str.lower,
                    choices=tuple(_METHOD),
                    help="p-values: auto (exact when they can be computed; default), exact, "
                    "monte-carlo",
                ),
            ),
            Keyword(
                "monitor",
                None,
                "callable, optional",
                "Called with a :class:`Checkpoint` every ``every`` trials and at the end.",
            ),
            Keyword(
                "every",
                None,
                "int, optional",
                "Trials between checkpoints (default 1% of ``n_resamples``, in whole blocks).",
            ),
            PROGRESS,
            WORKERS,
        ),
        check=None,
        run=_compute,
        refuses={
            "replicate": (
                "Tukey's randomization of the systems within items does not account for the "
                "run-to-run (seed) variance of repeated runs. " + NO_REPLICATE
            )
        },
        returns="""
        TukeyHSDResult
            One row per pair ``(a, b)``, a before b in system order, per group (with
            ``baseline``: one row per other system ``b``, in system order, ``a`` the
            baseline).
            ``to_dataframe()`` gives the columns ``system_a, system_b, mean_a, mean_b,
            difference, pvalue, pvalue_low, pvalue_high, n_resamples, exceeding, n_items,
            pvalue_method, tie_quantum, n_dropped``.""",
        examples={
            "array": _SAKAI
            + """
            Sakai (2018), Table 5.1, two of the systems: the exact Fisher p-value is
            135/2048.

            >>> res = tukey_hsd(np.column_stack([x, y]), systems=["X", "Y"])
            >>> float(res.pvalue[0, 0] * 2048), res.pvalue_method[0, 0]
            (135.0, 'exact')
            >>> res = tukey_hsd(np.column_stack([x, y]).astype(np.float32))  # the same grid
            >>> float(res.pvalue[0, 0] * 2048), float(res.tie_quantum[0, 0])
            (135.0, 0.1)
            >>> res = tukey_hsd(np.column_stack([x, y]), rng=1, method="monte-carlo",
            ...                 n_resamples=20_000)
            >>> print(f"{res.pvalue[0, 0]:.3f}")
            0.065

            Against a baseline, only its comparisons form the family; with a third system
            Z (Y plus 0.1 on every item), Y's comparisons with X and Z:

            >>> z = np.column_stack([x, y, np.add(y, 0.1)])
            >>> res = tukey_hsd(z, systems=["X", "Y", "Z"], baseline="Y")
            >>> res.label_a, res.label_b, res.pvalue.round(4).tolist()
            (('Y', 'Y'), ('X', 'Z'), [[0.0458, 0.0037]])
            >>> tukey_hsd(z, systems=["X", "Y", "Z"]).pvalue.round(4).tolist()  # X-Y, X-Z, Y-Z
            [[0.0642, 0.771, 0.0054]]""",
            "design": """
            >>> import numpy as np
            >>> from pairedstats import tukey_hsd_design
            >>> from pairedstats.inputs import design_from_array
            >>> d = design_from_array(np.array([[1, 2, 4], [2, 3, 3], [1, 3, 5], [0, 2, 4.]]))
            >>> tukey_hsd_design(d).pvalue.round(4).tolist()  # exact: 216 arrangements
            [[0.4907, 0.0093, 0.4907]]""",
            "frame": """
            >>> import pairedstats
            >>> df = pairedstats.datasets.load_runs()
            >>> res = df.paired.tukey_hsd(item="query", system="run", score="ndcg",
            ...                           n_resamples=2000, rng=1)
            >>> len(res)  # 4 runs: 6 pairs
            6
            >>> res = df.paired.tukey_hsd(item="query", system="run", score="ndcg",
            ...                           baseline="bm25", n_resamples=2000, rng=1)
            >>> res[["system_a", "system_b"]].to_numpy().tolist()  # bm25 against the others
            [['bm25', 'bm25+rm3'], ['bm25', 'dense'], ['bm25', 'hybrid']]""",
            "dataset": """
            >>> import numpy as np, xarray as xr
            >>> import pairedstats
            >>> p10 = np.random.default_rng(0).integers(0, 11, (2, 30, 3)) / 10
            >>> ds = xr.Dataset({"p10": (("dataset", "item", "system"), p10)},
            ...                 coords={"dataset": ["x", "y"], "system": ["a", "b", "c"]})
            >>> res = ds.paired.tukey_hsd(n_resamples=1000, rng=1)
            >>> dict(res["pvalue"].sizes)
            {'dataset': 2, 'comparison': 3}""",
        },
    )
)
tukey_hsd = array_function(SPEC, _read, __name__)
tukey_hsd_design = design_function(SPEC, __name__)
