"""Wilcoxon signed-rank test of the paired differences b - a, with the paired
Hodges-Lehmann shift.

The maths lives in :mod:`pairedstats.core.signrank`; this module validates, loops over the
groups and comparisons of a :class:`~pairedstats.core.design.PairedDesign` and returns a
:class:`SignrankResult`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ... import _validation
from ...core import signrank as _core
from ...core._warn import warn
from ...core.design import PairedDesign, comparison_pairs
from ...core.ties import tie_error
from ...inputs import check_design, design_from_array
from .._shared.registry import (
    CORRECTION,
    NO_REPLICATE,
    PAIRED_INPUTS,
    PROGRESS,
    RANK_TEST_ALTERNATIVE,
    RANK_TEST_METHODS,
    SHIFT_CONFIDENCE_LEVEL,
    MethodSpec,
    array_function,
    baseline_keyword,
    design_function,
    rank_test_method_keyword,
    register,
)
from .._shared.results import RankTestResult
from .._shared.runs import Outputs, ProgressBar, comparison_labels

__all__ = ["SignrankConfidenceWarning", "SignrankResult", "signrank", "signrank_design"]


_METHODS = RANK_TEST_METHODS


class SignrankConfidenceWarning(UserWarning):
    """The requested confidence level cannot be reached with so few non-zero differences.

    On the exact path the reported interval is the widest one the Walsh averages allow (R's
    choice), its guaranteed coverage in ``ci_coverage``; on the asymptotic path an end whose
    normal score never reaches its quantile is the extreme Walsh average (``ci_coverage`` is
    NaN).
    """


@dataclass(frozen=True, kw_only=True)
class SignrankResult(RankTestResult):
    """Result of :func:`signrank` and :func:`signrank_design`.

    Every attribute below is a read-only array of shape ``(n_groups, n_comparisons)``. A
    comparison is significant when ``pvalue < alpha`` (:meth:`significant`). Besides those
    of :class:`~pairedstats.methods._shared.results.RankTestResult` (``null_mean`` and
    ``null_variance``
    are ``n (n + 1) / 4`` and the tie-corrected ``n (n + 1) (2n + 1) / 24 - sum(t^3 - t) /
    48``, ``n`` non-zero differences, ``t`` the sizes of the groups of tied ``|b - a|``;
    ``shift`` is the paired Hodges-Lehmann estimate, the median of the Walsh averages
    ``(d_i + d_j) / 2``, ``i <= j``, of the non-zero differences ``d = b - a``;
    ``ci_coverage`` is NaN on the asymptotic path when the level cannot be reached):

    Attributes
    ----------
    n_items : ndarray of int
        Items of the comparison (zero differences included).
    n_zeros : ndarray of int
        Items with ``b == a`` (within the tie error of the differences, see
        :mod:`pairedstats.core.ties`): dropped before ranking, as R's ``wilcox.test`` does;
        the test, the shift and the interval are those of the ``n_items - n_zeros`` others.
    statistic : ndarray
        ``V``: the sum of the ranks of the positive differences, ranks of ``|b - a|``
        ascending with midranks for ties (R's ``V``; scipy's ``r_plus``).
    n_dropped : ndarray of int
        Items removed from the group by ``missing="complete"``.
    """

    n_items: np.ndarray
    n_zeros: np.ndarray
    statistic: np.ndarray
    n_dropped: np.ndarray

    _columns: ClassVar[tuple[str, ...]] = (
        "n_items",
        "n_zeros",
        "statistic",
        *RankTestResult.test_columns,
        "n_dropped",
        "method",
    )
    summary_columns: ClassVar[tuple[str, ...]] = ("n_items", "shift", "ci_low", "ci_high",
                                                  "pvalue")  # fmt: skip
    title: ClassVar[str] = "Wilcoxon signed-rank test, Hodges-Lehmann shift of b - a"


def _signrank_iv(design, baseline, alternative, confidence_level, method, correction):
    """Validate the keywords of :func:`signrank` and :func:`signrank_design`."""
    design = check_design(design)
    if design.scores.shape[2] != 1:
        raise ValueError(
            "`score` must name one score column for signrank; got "
            f"{design.scores.shape[2]} columns {tuple(design.columns)!r}."
        )
    baseline = _validation.check_baseline(baseline, design.systems)
    checked = _validation.check_rank_test(alternative, confidence_level, method, correction,
                                          _METHODS)  # fmt: skip
    return design, baseline, *checked


def _compute(design: PairedDesign, keep: bool, *, progress, **keywords) -> SignrankResult:
    """Validate the keywords and test every comparison of every group (the spec's ``run``)."""
    settings = _signrank_iv(design, **keywords)
    return _run(*settings, progress=_validation.check_progress(progress))


def _read(scores, *, systems, missing) -> PairedDesign:
    return design_from_array(scores, systems=systems, missing=missing)


#: Column dtypes other than float64.
_DTYPES = {"method": object, "n_items": np.int64, "n_zeros": np.int64, "n_dropped": np.int64}


def _run(design, baseline, alternative, confidence_level, method, correction, progress=False):
    pairs = comparison_pairs(design.systems, baseline)
    out = Outputs(design.n_groups, len(pairs))
    for name in SignrankResult._columns:
        out.add(name, _DTYPES.get(name, np.float64), None if name == "method" else 0)
    out.per_group("n_dropped", design.n_dropped(), np.int64)
    unreached = []
    with ProgressBar(progress, total=design.n_groups, unit="group") as bar:
        for g in range(design.n_groups):
            scores = design.scores[design.group(g), :, 0]
            for c, (ia, ib) in enumerate(pairs):
                row = _core.signrank_1d(
                    scores[:, ib] - scores[:, ia], alternative=alternative,
                    confidence_level=confidence_level, method=method, correction=correction,
                    tie=tie_error(scores[:, [ia, ib]], design.precision),
                )  # fmt: skip
                if not row.level_reached:
                    unreached.append((g, c, row))
                out.set((g, c), **{k: getattr(row, k) for k in out.arrays if k != "n_dropped"})
            bar.update(1)
    if unreached:
        _warn_unreached(design, pairs, unreached, confidence_level)
    meta = _validation.metadata(
        "signrank", alternative=alternative, confidence_level=confidence_level,
        method_requested=method, correction=correction, baseline=baseline,
    )  # fmt: skip
    return SignrankResult(**comparison_labels(design, pairs), metadata=meta, **out.arrays)


def _warn_unreached(design, pairs, unreached, confidence_level) -> None:
    g, c, row = unreached[0]
    where = f" in group {design.group_keys[g]!r}" if design.group_names else ""
    a, b = (design.systems[i] for i in pairs[c])
    n = row.n_items - row.n_zeros
    warn(
        f"confidence_level={confidence_level} cannot be reached with {n} non-zero "
        f"differences in {len(unreached)} comparison(s), e.g. {a!r} vs {b!r}{where}: the "
        "widest interval of the Walsh averages is reported there (see `ci_coverage`).",
        SignrankConfidenceWarning,
    )


_SUMMARY = (
    "Wilcoxon signed-rank test of the paired differences b - a, with the paired "
    "Hodges-Lehmann shift."
)

SPEC = register(
    MethodSpec(
        name="signrank",
        command="signrank",
        summary=_SUMMARY,
        description="""
        Zero differences are dropped (R's rule; their number is the ``n_zeros`` column); the
        absolute differences are ranked (midranks for ties) and ``statistic`` is R's ``V``,
        the sum of the ranks of the positive differences. ``shift`` is the median of the
        Walsh averages of the differences, with its distribution-free confidence
        interval.""",
        road="paired",
        inputs=PAIRED_INPUTS,
        keywords=(
            baseline_keyword(
                "Compare every other system with this one (a = baseline); default: all "
                "pairs, a before b in system order."
            ),
            RANK_TEST_ALTERNATIVE,
            SHIFT_CONFIDENCE_LEVEL,
            rank_test_method_keyword(
                '``"exact"``: the exact null of ``V`` (given the tied midranks when '
                '``|b - a|`` has ties); ``"asymptotic"``: the normal approximation with the '
                'tie-corrected variance. ``"auto"`` follows R: exact with fewer than 50 '
                "non-zero differences and neither ties nor zeros, asymptotic otherwise. "
                '``"exact"`` is refused beyond about 1,250 non-zero differences.'
            ),
            CORRECTION,
            PROGRESS,
        ),
        check=None,
        run=_compute,
        refuses={
            "replicate": (
                "the signed-rank test treats each item's difference as one exact observation, "
                "which leaves out the run-to-run (seed) variance of repeated runs. " + NO_REPLICATE
            )
        },
        returns="""
        SignrankResult
            One row per comparison and group: ``system_a, system_b, n_items, n_zeros,
            statistic, z, pvalue, shift, ci_low, ci_high`` and more (see the result's
            attributes).""",
        warns="""
        SignrankConfidenceWarning
            When ``confidence_level`` cannot be reached with so few non-zero differences.""",
        notes="""
        The interval is made of order statistics of the ``n (n + 1) / 2`` Walsh averages
        (never formed: they are selected with a few ``O(n)`` passes over the sorted
        differences). On the exact path their ranks are R's exact critical values
        (``qsignrank``); on the asymptotic path they are the Walsh averages where R's
        normal score crosses its quantile, so the intervals of R's
        ``wilcox.test(b, a, paired=TRUE, conf.int=TRUE)`` are reproduced (R finds the
        asymptotic ends with ``uniroot`` to within 1e-4; these are the exact Walsh
        averages). The shift is always the median of the Walsh averages; on its asymptotic
        path R reports instead a root of the normal statistic, which can differ by up to
        half a gap between the middle Walsh averages.""",
        examples={
            "array": """
            >>> import numpy as np
            >>> from pairedstats import signrank
            >>> scores = np.array([[1.83, 0.878], [0.50, 0.647], [1.62, 0.598], [2.48, 2.05],
            ...                    [1.68, 1.06], [1.88, 1.29], [1.55, 1.06], [3.06, 3.14],
            ...                    [1.30, 1.29]])  # Hamilton depression scale, two visits
            >>> res = signrank(scores, systems=["before", "after"])
            >>> print(res.method[0, 0], res.statistic[0, 0], round(res.pvalue[0, 0], 4))
            exact 5.0 0.0391
            >>> print(round(res.shift[0, 0], 3), round(res.ci_low[0, 0], 3),
            ...       round(res.ci_high[0, 0], 3))
            -0.46 -0.786 -0.01""",
            "design": """
            >>> import numpy as np
            >>> from pairedstats import signrank_design
            >>> from pairedstats.inputs import design_from_array
            >>> a = np.array([2, 4, 1, 3, 5, 6, 2, 8, 4, 1])  # grades
            >>> b = np.array([5, 4, 6, 7, 9, 5, 2, 9, 8, 3])
            >>> res = signrank_design(design_from_array(np.column_stack([a, b])))
            >>> int(res.n_zeros[0, 0]), float(res.statistic[0, 0]), str(res.method[0, 0])
            (2, 34.5, 'asymptotic')""",
            "frame": """
            >>> import pairedstats
            >>> df = pairedstats.datasets.load_runs()
            >>> res = df.paired.signrank(item="query", system="run", score="ndcg",
            ...                          baseline="bm25")
            >>> list(res.columns[:2])
            ['system_a', 'system_b']""",
            "dataset": """
            >>> import numpy as np, xarray as xr
            >>> import pairedstats
            >>> scores = np.random.default_rng(4).random((2, 30, 3))
            >>> ds = xr.Dataset({"f1": (("fold", "item", "system"), scores)},
            ...                 coords={"fold": [0, 1], "system": ["x", "y", "z"]})
            >>> res = ds.paired.signrank(baseline="x")
            >>> dict(res["pvalue"].sizes)
            {'fold': 2, 'comparison': 2}""",
        },
    )
)
signrank = array_function(SPEC, _read, __name__)
signrank_design = design_function(SPEC, __name__)
