"""Wilcoxon rank-sum (Mann-Whitney) test with the Hodges-Lehmann shift of b - a.

The maths lives in :mod:`pairedstats.core.ranksum`; this module validates, loops over the
groups of a :class:`~pairedstats.core.design.TwoSampleDesign` and returns a
:class:`RanksumResult`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ... import _validation
from ...core import ranksum as _core
from ...core._warn import warn
from ...core.design import TwoSampleDesign
from ...inputs import check_two_sample, two_sample_from_arrays
from .._shared import registry as registry
from .._shared.registry import MethodSpec, array_function, design_function, register
from .._shared.results import RankTestResult
from .._shared.runs import Outputs, ProgressBar, comparison_labels

__all__ = ["RanksumConfidenceWarning", "RanksumResult", "ranksum", "ranksum_design"]


_METHODS = registry.RANK_TEST_METHODS


class RanksumConfidenceWarning(UserWarning):
    """The requested confidence level cannot be reached with so few values.

    The reported interval is the widest one the order statistics allow (R's choice); its
    guaranteed coverage is in the ``ci_coverage`` column.
    """


@dataclass(frozen=True, kw_only=True)
class RanksumResult(RankTestResult):
    """Result of :func:`ranksum` and :func:`ranksum_design`.

    Every attribute below is a read-only array of shape ``(n_groups, 1)``: one row per
    group, one comparison (b minus a). The comparison is significant when
    ``pvalue < alpha`` (:meth:`significant`). Besides those of
    :class:`~pairedstats.methods._shared.results.RankTestResult` (``null_mean`` and
    ``null_variance`` are
    of ``rank_sum_a``; ``z`` is 0 when all values are tied, then every arrangement gives
    the observed statistic and the p-value is 1, as in scipy; ``shift`` is the median of
    all ``b_j - a_i``):

    Attributes
    ----------
    n_a, n_b : ndarray of int
        Sample sizes.
    rank_sum_a : ndarray
        Sum of the pooled ascending ranks of ``a`` (midranks for ties).
    u_a : ndarray
        ``rank_sum_a - n_a (n_a + 1) / 2``: pairs with ``a_i > b_j`` plus half the tied pairs
        (R's ``W`` of ``wilcox.test(a, b)``, scipy's ``U1`` of ``mannwhitneyu(a, b)``).
    common_language : ndarray
        ``P(b > a) + P(b = a) / 2`` over all pairs, ``1 - u_a / (n_a n_b)``.
    rank_biserial : ndarray
        ``2 common_language - 1``, in ``[-1, 1]``, positive when b tends to exceed a.
    """

    n_a: np.ndarray
    n_b: np.ndarray
    rank_sum_a: np.ndarray
    u_a: np.ndarray
    common_language: np.ndarray
    rank_biserial: np.ndarray

    _columns: ClassVar[tuple[str, ...]] = (
        "n_a",
        "n_b",
        "rank_sum_a",
        "u_a",
        *RankTestResult.test_columns,
        "common_language",
        "rank_biserial",
        "method",
    )
    label_columns: ClassVar[tuple[str, str]] = ("group_a", "group_b")
    summary_columns: ClassVar[tuple[str, ...]] = ("n_a", "n_b", "shift", "ci_low", "ci_high",
                                                  "pvalue")  # fmt: skip
    title: ClassVar[str] = "Wilcoxon rank-sum test, Hodges-Lehmann shift of b - a"


def _ranksum_iv(a, b, design, alternative, confidence_level, method, correction):
    """Validate the arguments of :func:`ranksum` (``a``, ``b``) or :func:`ranksum_design`."""
    alternative, confidence_level, method, correction = _validation.check_rank_test(
        alternative, confidence_level, method, correction, _METHODS
    )
    design = two_sample_from_arrays(a, b) if design is None else check_two_sample(design)
    return design, alternative, confidence_level, method, correction


def _compute(
    design: TwoSampleDesign, keep: bool, *, alternative, confidence_level, method, correction,
    progress,
) -> RanksumResult:  # fmt: skip
    """Validate the keywords and test every group of ``design`` (the spec's ``run``)."""
    design, alternative, confidence_level, method, correction = _ranksum_iv(
        None, None, design, alternative, confidence_level, method, correction
    )
    progress = _validation.check_progress(progress)
    return _run(design, alternative, confidence_level, method, correction, progress)


def _read(a, b) -> TwoSampleDesign:
    return two_sample_from_arrays(a, b)


#: Column dtypes other than float64.
_DTYPES = {"method": object, "n_a": np.int64, "n_b": np.int64}


def _warn_level(design, g: int, row, confidence_level: float) -> None:
    where = f" in group {design.group_keys[g]!r}" if design.group_names else ""
    warn(
        f"confidence_level={confidence_level} cannot be reached with n_a={row.n_a} "
        f"and n_b={row.n_b}{where}: the widest interval of the differences is "
        f"reported; it covers with probability {row.ci_coverage:.4g}.",
        RanksumConfidenceWarning,
    )


def _run(design, alternative, confidence_level, method, correction, progress=False):
    out = Outputs(design.n_groups, 1)
    for name in RanksumResult._columns:
        out.add(name, _DTYPES.get(name, np.float64), None if name == "method" else 0)
    with ProgressBar(progress, total=design.n_groups, unit="group") as bar:
        for g in range(design.n_groups):
            a, b = design.samples(g)
            row = _core.ranksum_1d(
                a, b, alternative=alternative, confidence_level=confidence_level,
                method=method, correction=correction,
            )  # fmt: skip
            if not row.level_reached:
                _warn_level(design, g, row, confidence_level)
            out.set(g, **{name: getattr(row, name) for name in out.arrays})
            bar.update(1)
    meta = _validation.metadata(
        "ranksum", alternative=alternative, confidence_level=confidence_level,
        method_requested=method, correction=correction,
    )  # fmt: skip
    return RanksumResult(**comparison_labels(design, [(0, 1)]), metadata=meta, **out.arrays)


SPEC = register(
    MethodSpec(
        name="ranksum",
        command="ranksum",
        summary="Wilcoxon rank-sum (Mann-Whitney) test of two samples, with the "
        "Hodges-Lehmann shift.",
        description="""
        The ranks ascend (midranks for ties); ``u_a = rank_sum_a - n_a (n_a + 1) / 2``; the
        shift is the median of all differences ``b_j - a_i`` (Hodges-Lehmann), with its
        distribution-free confidence interval; ``z > 0`` when b tends to exceed a.""",
        road="two-sample",
        inputs={
            "frame": ("score", "group", "a", "b", "by"),
            "dataset": ("score", "group", "a", "b", "item"),
            "array": ("a", "b"),
        },
        keywords=(
            registry.RANK_TEST_ALTERNATIVE,
            registry.SHIFT_CONFIDENCE_LEVEL,
            registry.rank_test_method_keyword(
                '``"exact"``: the exact null without ties, the exact conditional null given '
                'the tied midranks with ties (as R\'s coin); ``"asymptotic"``: the normal '
                'approximation with the tie-corrected variance. ``"auto"`` uses the exact '
                "distribution whenever its cost (:func:`pairedstats.core.ranksum.exact_cost`) "
                "is at most ``AUTO_EXACT_BUDGET`` = 2e7 operations (no ties: up to about "
                "90 x 90; with ties: about 60 x 60), the normal approximation otherwise."
            ),
            registry.CORRECTION,
            registry.PROGRESS,
        ),
        check=None,
        run=_compute,
        returns="""
        RanksumResult
            One row per group: ``group_a, group_b, n_a, n_b, rank_sum_a, u_a, z, pvalue,
            shift, ci_low, ci_high`` and more (see the result's attributes).""",
        warns="""
        RanksumConfidenceWarning
            When ``confidence_level`` cannot be reached on the exact path with so few
            values.""",
        notes="""
        The interval is made of order statistics of the ``n_a n_b`` differences
        ``b_j - a_i`` (never formed: they are selected in ``O((n_a + n_b) log(n_a + n_b))``).
        On the exact path the ranks are R's exact critical values (``qwilcox``); on the
        asymptotic path they are the differences where R's normal score crosses its
        quantile, so the intervals of R's ``wilcox.test(b, a, conf.int=TRUE)`` are
        reproduced (R finds the asymptotic ends with ``uniroot`` to within 1e-4; ours are
        the exact differences). The shift is always the median of the differences; on its
        asymptotic path R reports instead a root of the normal statistic, which can differ
        by up to half a gap between the middle differences.""",
        examples={
            "array": """
            >>> import numpy as np
            >>> from pairedstats import ranksum
            >>> a = np.array([1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30])
            >>> b = np.array([0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29])
            >>> res = ranksum(a, b)
            >>> print(res.method[0, 0], res.u_a[0, 0], round(res.pvalue[0, 0], 4))
            exact-conditional 58.0 0.1299
            >>> print(round(res.shift[0, 0], 3), round(res.ci_low[0, 0], 3),
            ...       round(res.ci_high[0, 0], 3))
            -0.56 -1.183 0.37""",
            "design": """
            >>> import numpy as np
            >>> from pairedstats import ranksum_design
            >>> from pairedstats import TwoSampleDesign
            >>> design = TwoSampleDesign(
            ...     a=np.array([1.0, 2.0, 3.0, 4.0, 10.0, 11.0, 12.0]),
            ...     b=np.array([5.0, 6.0, 7.0, 13.0, 14.0, 15.0, 16.0]),
            ...     a_offsets=np.array([0, 4, 7]), b_offsets=np.array([0, 3, 7]),
            ...     labels=("before", "after"), group_names=("site",),
            ...     group_keys=(("x",), ("y",)))
            >>> res = ranksum_design(design, confidence_level=0.9)
            >>> res.to_dataframe()[["site", "group_a", "u_a", "shift", "pvalue"]].round(4)
              site group_a  u_a  shift  pvalue
            0    x  before  0.0    3.5  0.0571
            1    y  before  0.0    3.5  0.0571""",
            "frame": """
            >>> import pairedstats
            >>> df = pairedstats.datasets.load_ratings()
            >>> res = df.paired.ranksum(score="deviation", group="changed",
            ...                         a="unchanged", b="changed")
            >>> list(res.columns[:2])
            ['group_a', 'group_b']""",
            "dataset": """
            >>> import numpy as np, xarray as xr
            >>> import pairedstats
            >>> ds = xr.Dataset({"x": (("site", "group", "item"),
            ...                        np.arange(24.0).reshape(2, 2, 6) ** 1.1)},
            ...                 coords={"site": ["p", "q"], "group": ["a", "b"]})
            >>> res = ds.paired.ranksum(a="a", b="b")
            >>> res["u_a"].values.ravel().tolist()
            [0.0, 0.0]""",
        },
    )
)
ranksum = array_function(SPEC, _read, __name__)
ranksum_design = design_function(SPEC, __name__)
