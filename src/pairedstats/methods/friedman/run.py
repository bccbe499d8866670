"""Friedman's run: every group of a paired design ranked within each data set, the Friedman
and Iman-Davenport tests, and the post-hoc test of all pairs (:func:`run`). The numbers come
from :mod:`pairedstats.core.friedman`; the Wilcoxon-Holm post-hoc takes the signed-rank
p-values of all pairs at once from :mod:`pairedstats.core.signrank_pairs` and Holm's
step-down from :mod:`pairedstats.core.adjust`."""

from __future__ import annotations

import numpy as np

from ...core import friedman as core
from ...core.adjust import adjust_pvalues
from ...core.design import comparison_pairs
from ...core.signrank_pairs import signrank_pvalues
from ...core.ties import row_score_errors
from .._shared.runs import Outputs, comparison_labels
from .result import FriedmanResult
from .settings import Settings

__all__ = ["run"]

#: The columns of one value per group (the Friedman test's), and their dtypes.
_GROUP_COLUMNS = {"n_datasets": np.int64, "friedman": np.float64,
                  "pvalue_friedman": np.float64, "iman_davenport": np.float64,
                  "pvalue_iman_davenport": np.float64}  # fmt: skip


def _goodness(design, lower_is_better: bool) -> np.ndarray:
    """The scores oriented so that higher is better (negation is exact)."""
    return -design.scores if lower_is_better else design.scores


def _wilcoxon(design, goodness: np.ndarray, pairs) -> np.ndarray:
    """The two-sided signed-rank p-value of every pair in every group, ``(n_groups,
    n_pairs)``, of the scores oriented higher-is-better: R's ``wilcox.test`` defaults (exact
    below 50 non-zero differences without ties or zeros, else normal with the continuity
    correction), zeros and ties by the package's tie rule at the design's precision."""
    out = np.empty((design.n_groups, len(pairs)))
    for g in range(design.n_groups):
        out[g] = signrank_pvalues(goodness[design.group(g)], pairs,
                                  precision=design.precision).pvalue  # fmt: skip
    return out


def _posthoc(s: Settings, ranks, test, pairs) -> tuple[np.ndarray, np.ndarray | None]:
    """One group's pair p-values and, for Nemenyi, its single-step adjusted ones."""
    if s.posthoc == "nemenyi":
        res = core.nemenyi(test.mean_ranks, test.n_datasets, pairs)
        return res.pvalue, res.pvalue_single_step
    return core.conover(ranks, pairs).pvalue, None


def run(s: Settings) -> FriedmanResult:
    """Rank, test and compare every group of ``s.design``."""
    design = s.design
    pairs = comparison_pairs(design.systems)
    a = np.array([p[0] for p in pairs], dtype=np.intp)
    b = np.array([p[1] for p in pairs], dtype=np.intp)
    out = Outputs(design.n_groups, len(pairs))
    for name in ("mean_rank_a", "mean_rank_b", "difference", "pvalue", "pvalue_adjusted"):
        out.add(name)
    for name, dtype in _GROUP_COLUMNS.items():
        out.add(name, dtype, 0 if dtype is np.int64 else np.nan)
    out.per_group("n_dropped", design.n_dropped(), np.int64)
    mean_rank = np.empty((design.n_groups, design.n_systems))
    goodness = _goodness(design, s.lower_is_better)[:, :, 0]
    single = np.empty(out.shape)
    for g in range(design.n_groups):
        x = goodness[design.group(g)]
        ranks = core.within_ranks(-x, row_score_errors(x, design.precision))
        test = core.friedman_test(ranks, tie_correction=s.tie_correction)
        mean_rank[g] = test.mean_ranks
        out.set(g, mean_rank_a=test.mean_ranks[a], mean_rank_b=test.mean_ranks[b],
                difference=test.mean_ranks[b] - test.mean_ranks[a],
                n_datasets=test.n_datasets, friedman=test.statistic,
                pvalue_friedman=test.pvalue, iman_davenport=test.iman_davenport,
                pvalue_iman_davenport=test.pvalue_iman_davenport)  # fmt: skip
        if s.posthoc != "wilcoxon-holm" and pairs:
            out["pvalue"][g], adjusted = _posthoc(s, ranks, test, pairs)
            single[g] = np.nan if adjusted is None else adjusted
    if s.posthoc == "wilcoxon-holm":
        out["pvalue"][...] = _wilcoxon(design, goodness, pairs)
    # Nemenyi's family-wise p-values are the studentized range's; the others are Holm's
    holm = adjust_pvalues(out["pvalue"], "holm")
    out["pvalue_adjusted"][...] = single if s.posthoc == "nemenyi" else holm
    meta = s.metadata(score_precision=design.precision)
    return FriedmanResult(**comparison_labels(design, pairs), systems=tuple(design.systems),
                          mean_rank=mean_rank, metadata=meta, **out.arrays)  # fmt: skip
