"""The randomized Tukey HSD, declared once: its spec (keywords, documentation, examples), the
array reader, and the public functions on arrays (:func:`tukey_hsd`), on designs
(:func:`tukey_hsd_design`, which the accessors call) and the run that can be stepped and
watched (:func:`tukey_hsd_run`).

All pairs (the range statistic) or, with ``baseline=``, the comparisons with one system (the
many-vs-one statistic). The keywords are checked in :mod:`.settings`, the groups run in
:mod:`.run`, the maths is in :mod:`pairedstats.core.tukey`.
"""

from __future__ import annotations

from ...core.design import PairedDesign
from ...inputs import design_from_array
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
from .run import TukeyHSDRun, run
from .settings import METHODS, check, one_column

__all__ = ["SPEC", "tukey_hsd", "tukey_hsd_design", "tukey_hsd_run"]


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

    The keywords are those of :func:`tukey_hsd`, checked by the same rules. Groups computed
    exactly are done when the run is made.
    """
    if not isinstance(scores, PairedDesign):
        scores = _read(scores, systems=systems, missing=missing)
    settings = check(
        scores, keep=False, baseline=baseline, n_resamples=n_resamples, rng=rng,
        method=method, monitor=None, every=None, progress=False, workers=workers,
    )  # fmt: skip
    return TukeyHSDRun(settings)


def _read(scores, *, systems, missing) -> PairedDesign:
    return one_column(design_from_array(scores, systems=systems, missing=missing), "scores")


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
                option=dict(type=int, metavar="N", help="trials (default: 10,000)"),
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
                    choices=METHODS,
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
        check=check,
        run=run,
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
        report_test="randomized Tukey HSD",
    )
)
tukey_hsd = array_function(SPEC, _read, __name__)
tukey_hsd_design = design_function(SPEC, __name__)
