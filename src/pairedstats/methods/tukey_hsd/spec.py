"""The randomized Tukey HSD, declared once: its spec (keywords, documentation, examples), the
array reader, and the public functions on arrays (:func:`tukey_hsd`), on designs
(:func:`tukey_hsd_design`, which the accessors call) and the run that can be stepped and
watched (:func:`tukey_hsd_run`).

All pairs (the range statistic) or, with ``baseline=``, the comparisons with one system (the
many-vs-one statistic). The keywords are checked in :mod:`.settings`, the groups run in
:mod:`.run`, the maths is in :mod:`pairedstats.core.tukey`.
"""

from __future__ import annotations

import inspect

from ...core.design import PairedDesign
from ...inputs import design_from_array
from .._shared.keywords import NO_REPLICATE, PAIRED_INPUTS
from .._shared.registry import (
    MethodSpec,
    annotations,
    array_function,
    bind,
    design_function,
    register,
    signature,
)
from .run import TukeyHSDRun, run
from .settings import Options, check, one_column

__all__ = ["SPEC", "tukey_hsd", "tukey_hsd_design", "tukey_hsd_run"]

#: The keywords a stepping run takes when it is run (:meth:`TukeyHSDRun.run`), not made.
_RUN_KEYWORDS = ("monitor", "every", "progress")


def tukey_hsd_run(*args, **kwargs) -> TukeyHSDRun:
    """Make a :class:`TukeyHSDRun`; ``scores`` is an array or a ``PairedDesign``.

    The keywords are those of :func:`tukey_hsd`, with its defaults, checked by the same
    rules; ``monitor``, ``every`` and ``progress`` are given to :meth:`TukeyHSDRun.run`.
    Groups computed exactly are done when the run is made.
    """
    for name in _RUN_KEYWORDS:
        if name in kwargs:
            raise TypeError(f"tukey_hsd_run: `{name}` is given to the run's run(), not here.")
    keywords = bind(SPEC, "array", args, kwargs)
    scores, systems, missing = (keywords.pop(k) for k in ("scores", "systems", "missing"))
    if not isinstance(scores, PairedDesign):
        scores = _read(scores, systems=systems, missing=missing)
    return TukeyHSDRun(check(scores, Options(**keywords), keep=False))


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
        options=Options,
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
tukey_hsd = array_function(SPEC, __name__, _read)
tukey_hsd_design = design_function(SPEC, __name__)


def _run_signature() -> inspect.Signature:
    """:func:`tukey_hsd`'s signature without the keywords of the run's ``run()``, ``scores``
    an array or a design."""
    sig = signature(SPEC, "array")
    params = [p for p in sig.parameters.values() if p.name not in _RUN_KEYWORDS]
    params[0] = params[0].replace(annotation=params[0].annotation | PairedDesign)
    return sig.replace(parameters=params, return_annotation=TukeyHSDRun)


tukey_hsd_run.__signature__ = _run_signature()
tukey_hsd_run.__annotations__ = {**annotations(tukey_hsd_run.__signature__), "return": TukeyHSDRun}
