"""The resampling units of one bootstrap group: items or clusters, strata and weights.

:class:`GroupData` turns one group's scores and its cluster and stratum codes into the units
the replicates are drawn from; :func:`mean_influence` gives the jackknife influence values of
its (stratified) ratio estimator in closed form. numpy only.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np

from .adjust import comparison_blocks
from .draws import label_words
from .intervals import jackknife_influence
from .pairs import difference_means

__all__ = [
    "LABEL",
    "GroupData",
    "canonical_sign",
    "centred_scores",
    "constant_pairs",
    "mean_influence",
    "pair_differences",
    "pair_values",
    "plain_mean",
    "reference_system",
    "stream_labels",
]

#: First label of every bootstrap stream.
LABEL = "bootstrap"


def stream_labels(group_key: Hashable, stratum_key: Hashable, stratified: bool) -> tuple:
    """The labels of the stream of a group (of a stratum of a group, with strata)."""
    if stratified:
        return (LABEL, group_key, stratum_key)
    return (LABEL, group_key)


def pair_differences(scores: np.ndarray, pairs: Sequence[tuple[int, int]]) -> np.ndarray:
    """Per item b - a of each comparison (a, b) of ``scores`` (n_items, n_systems).

    Examples
    --------
    >>> pair_differences(np.array([[1.0, 3.0, 4.0]]), [(0, 1), (0, 2)]).tolist()
    [[2.0, 3.0]]
    """
    return scores[:, [b for _, b in pairs]] - scores[:, [a for a, _ in pairs]]


def reference_system(pairs: Sequence[tuple[int, int]], scores: np.ndarray) -> int:
    """The system the others are centred on (:func:`centred_scores`): the ``a`` of every
    comparison when they share one (the baseline; the one comparison of two systems), else
    the compared system whose squared scores ``(n_items, n_systems)`` come first item by
    item (the smallest first square, then the smallest second among those tied, ...; the
    first in the call of systems tied throughout).

    The choice reads the scores, not the labels or the order of the systems, and squares
    them so that negated scores (a loss for a gain, ``lower_is_better``) choose the same
    system: renaming, reordering or negating the scores changes no bit, and reversing a
    comparison negates its replicates exactly (systems tied throughout have the same
    scores up to signs; only their order in the call chooses between them).

    Examples
    --------
    >>> x = np.array([[0.5, 0.2, -0.2], [0.1, 0.9, 0.3]])
    >>> reference_system([(1, 0), (1, 2)], x), reference_system([(0, 1), (0, 2), (1, 2)], x)
    (1, 2)
    >>> reference_system([(0, 1), (0, 2), (1, 2)], -x)
    2
    """
    first = {a for a, _ in pairs}
    if len(first) == 1:
        return next(iter(first))
    candidates = np.array(sorted({s for pair in pairs for s in pair}))
    for row in scores:
        values = row[candidates] ** 2
        candidates = candidates[values == values.min()]
        if candidates.size == 1:
            break
    return int(candidates[0])


def centred_scores(scores: np.ndarray, ref: int) -> np.ndarray:
    """Each system's scores minus those of system ``ref`` (:func:`reference_system`), item
    by item: ``(n_items, n_systems)``.

    The mean's replicates are computed per system on these columns and each comparison's
    is a difference of two of them (:func:`pair_values`): a call of ``p`` systems resamples
    ``p`` columns, whatever its number of comparisons. Centring on one system keeps the sums
    of the size of the differences (scores offset by ``2**50`` stay exact), and a comparison
    with the reference is its own difference, summed as such.

    Examples
    --------
    >>> centred_scores(np.array([[2.0, 3.0, 7.0]]), 1).tolist()
    [[-1.0, 0.0, 4.0]]
    """
    return scores - scores[:, [ref]]


def pair_values(per_system: np.ndarray, pairs: Sequence[tuple[int, int]]) -> np.ndarray:
    """Each comparison's ``b - a`` of per-system values ``(..., n_systems, B)``:
    ``(..., k, B)``.

    Examples
    --------
    >>> pair_values(np.array([[1.0], [3.0], [6.0]]), [(0, 1), (2, 1)]).tolist()
    [[2.0], [-3.0]]
    """
    a = [p[0] for p in pairs]
    b = [p[1] for p in pairs]
    return per_system[..., b, :] - per_system[..., a, :]


def constant_pairs(spread, scores, pairs, ref: int, item_stratum=None) -> np.ndarray:
    """Which comparisons have the same difference ``b - a`` on every item (of every stratum):
    their replicates are the estimate exactly, whatever the rounding of the sums.

    Comparisons whose replicates spread (``max - min``, ``spread`` (k,)) beyond what
    rounding can make of constant differences (``8 n u`` times the largest scores of the two
    systems centred on system ``ref``) are not constant; the few others are checked item by
    item on ``scores`` ``(n_items, n_systems)``.

    Examples
    --------
    >>> x = np.array([[0.0, 1.0, 5.0], [2.0, 3.0, 4.0]])
    >>> constant_pairs(np.array([0.0, 1.0]), x, [(0, 1), (0, 2)], 0).tolist()
    [True, False]
    """
    n = scores.shape[0]
    xt = np.ascontiguousarray(scores.T)  # each system's scores in a row: fast reductions
    y = np.abs(xt - xt[ref]).max(axis=1, initial=0.0)
    a = np.array([p[0] for p in pairs])
    b = np.array([p[1] for p in pairs])
    bound = 8.0 * n * 2.0**-53 * (y[a] + y[b])
    with np.errstate(invalid="ignore"):
        candidate = np.flatnonzero(~(np.asarray(spread) > bound))
    strata = np.zeros(n, dtype=np.int64) if item_stratum is None else item_stratum
    out = np.zeros(len(pairs), dtype=bool)
    for c in candidate:
        d = scores[:, b[c]] - scores[:, a[c]]
        out[c] = all(np.ptp(d[strata == h]) == 0 for h in np.unique(strata))
    return out


def canonical_sign(a: Hashable, b: Hashable) -> float:
    """+1.0 if the comparison of ``a`` and ``b`` is drawn as ``b - a``, -1.0 if as ``a - b``.

    The order of two labels is that of their :func:`~pairedstats.core.draws.label_words`,
    which does not depend on the order of the systems in a call: ``(a, b)`` and ``(b, a)``
    are drawn the same way.

    Examples
    --------
    >>> canonical_sign("x", "y") == -canonical_sign("y", "x")
    True
    """
    return 1.0 if label_words((a,)) <= label_words((b,)) else -1.0


def _by_first_appearance(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each value's rank in order of first appearance, and the values in that order.

    >>> ranks, values = _by_first_appearance(np.array([7, 3, 7, 5]))
    >>> ranks.tolist(), values.tolist()
    ([0, 1, 0, 2], [7, 3, 5])
    """
    uniq, first, inv = np.unique(codes, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    return rank[inv.reshape(-1)], uniq[order]


class GroupData:
    """The resampling units of one group, ready for the replicate computation.

    Parameters
    ----------
    scores : ndarray, shape (n_items, n_systems, n_columns)
    pairs : sequence of (a, b) system indices
    cluster : ndarray of int, shape (n_items,), optional
        Cluster code of each item; units are clusters, in order of first appearance.
    strata : ndarray of int, shape (n_items,), optional
        Stratum code of each item; clusters must be nested in strata.
    strata_labels : sequence, optional
        Label of each stratum code (the stream key).
    weights : mapping stratum code -> weight, optional
        Population weights (normalised here over the strata present); sample proportions
        when None.
    systems : sequence, optional
        Label of each system (default: its index). They fix each comparison's canonical
        orientation on the counts path (:attr:`orientation`) and name systems in messages.
    precision : float, default ``2**-53``
        Unit roundoff of the scores as given (:attr:`PairedDesign.precision
        <pairedstats.core.design.PairedDesign.precision>`): it sets BCa's tie tolerance
        (:func:`tie_error`).
    """

    def __init__(
        self,
        scores: np.ndarray,
        pairs: Sequence[tuple[int, int]],
        *,
        cluster: np.ndarray | None = None,
        strata: np.ndarray | None = None,
        strata_labels: Sequence[Hashable] = (),
        weights: dict | None = None,
        systems: Sequence[Hashable] | None = None,
        precision: float = 2.0**-53,
    ):
        self.scores = scores
        self.precision = float(precision)
        self.pairs = list(pairs)
        self.systems = list(range(scores.shape[1])) if systems is None else list(systems)
        #: per comparison, +1 if it is drawn as b - a on the counts path, -1 if as a - b
        self.orientation = np.array([canonical_sign(self.systems[a], self.systems[b])
                                     for a, b in self.pairs])  # fmt: skip
        #: the system the mean's per-system sums are centred on (:func:`reference_system`)
        self.reference = reference_system(self.pairs, scores[:, :, 0])
        n = scores.shape[0]
        self.n_items = n
        # strata, in order of first appearance within the group
        if strata is None:
            s_codes = np.zeros(n, dtype=np.int64)
            self.stratum_keys: list = [None]
        else:
            s_codes, firsts = _by_first_appearance(strata)
            self.stratum_keys = [strata_labels[int(c)] for c in firsts]
            self._stratum_codes = [int(c) for c in firsts]
        # units: items or clusters, ordered by stratum, then first appearance
        if cluster is None:
            unit_of_item = np.arange(n)
        else:
            unit_of_item, _ = _by_first_appearance(cluster)
        n_units = int(unit_of_item.max()) + 1 if n else 0
        unit_stratum = np.full(n_units, -1, dtype=np.int64)
        unit_stratum[unit_of_item] = s_codes
        if cluster is not None:
            check = unit_stratum[unit_of_item] != s_codes
            if check.any():
                raise ValueError("each cluster must lie within one stratum")
        # reorder units by stratum (stable)
        perm = np.argsort(unit_stratum, kind="stable")
        new_id = np.empty_like(perm)
        new_id[perm] = np.arange(n_units)
        self.unit_of_item = new_id[unit_of_item]
        self.unit_stratum = unit_stratum[perm]
        self.n_units = n_units
        self.clustered = cluster is not None
        self.stratified = strata is not None
        self.strata_sizes = np.bincount(self.unit_stratum, minlength=len(self.stratum_keys))
        self.strata_bounds = np.concatenate([[0], np.cumsum(self.strata_sizes)])
        self.unit_sizes = np.bincount(self.unit_of_item, minlength=n_units).astype(np.float64)
        items_per_stratum = np.bincount(s_codes, minlength=len(self.stratum_keys))
        if weights is None:
            w = items_per_stratum / float(n)
        else:
            w = np.array([float(weights[c]) for c in self._stratum_codes])
            w = w / w.sum()
        self.weights = w
        self.item_stratum = s_codes
        # items ordered by unit, for the general statistic with clusters
        self.item_order = np.argsort(self.unit_of_item, kind="stable")
        self.unit_starts = np.concatenate([[0], np.cumsum(self.unit_sizes.astype(np.int64))])

    # -- the mean
    def differences(self, column: int = 0) -> np.ndarray:
        """Per item, per comparison b - a, shape (n_items, n_comp)."""
        return pair_differences(self.scores[:, :, column], self.pairs)

    def pair_estimate(self) -> np.ndarray:
        """Each comparison's (stratified) mean of ``b - a``, shape (n_comp,), computed
        without forming every comparison's differences at once."""
        x = self.scores[:, :, 0]
        if len(self.stratum_keys) == 1:  # weight 1: the plain mean's bits
            return difference_means(x, self.pairs)
        out = np.empty(len(self.pairs))
        for part in comparison_blocks(len(self.pairs), x.shape[0]):  # 64 MB at a time
            out[part] = self.stratified_mean(pair_differences(x, self.pairs[part]))
        return out

    def centred(self) -> np.ndarray:
        """Per item, each system's score minus the reference system's
        (:func:`centred_scores`), shape (n_items, n_systems)."""
        return centred_scores(self.scores[:, :, 0], self.reference)

    def unit_sums(self, values: np.ndarray) -> np.ndarray:
        """Sum of ``values`` (n_items, k) per unit, shape (n_units, k)."""
        out = np.zeros((self.n_units, values.shape[1]))
        if self.clustered:
            np.add.at(out, self.unit_of_item, values)
        else:
            out[self.unit_of_item] = values
        return out

    def stratified_mean(self, values: np.ndarray) -> np.ndarray:
        """The weighted combination of stratum item means of ``values`` (n_items, k)."""
        k = len(self.stratum_keys)
        sums = np.zeros((k, values.shape[1]))
        np.add.at(sums, self.item_stratum, values)
        counts = np.bincount(self.item_stratum, minlength=k).astype(np.float64)
        means = sums / counts[:, None]
        # stratum by stratum, elementwise: a column's bits do not depend on the other columns
        # (a matrix product's may, through its vector lanes)
        out = self.weights[0] * means[0]
        for w, m in zip(self.weights[1:], means[1:], strict=True):
            out += w * m
        return out


def mean_influence(group: GroupData, sums: np.ndarray) -> np.ndarray:
    """Jackknife influence values of the (stratified) ratio estimator, shape (k, n_units).

    Leave-one-unit-out in closed form: removing unit ``u`` of stratum ``h`` changes only that
    stratum's ratio, to ``(S_h - s_u) / (N_h - m_u)``.

    A comparison's values come from its own column by the same operations in the same order
    whatever the other columns: the stratum totals ``S_h`` are summed along the contiguous
    rows of the transposed sums. Summed down the columns of the ``(n, k)`` sums, one column
    would be added pairwise and several row after row, and another system in the call would
    move the acceleration by an ulp.
    """
    k = sums.shape[1]
    leave = np.empty((k, group.n_units))
    for h in range(len(group.stratum_keys)):
        lo, hi = group.strata_bounds[h], group.strata_bounds[h + 1]
        s = sums[lo:hi]
        m = group.unit_sizes[lo:hi]
        S, N = np.ascontiguousarray(s.T).sum(axis=-1), m.sum()
        if hi - lo > 1:
            leave[:, lo:hi] = group.weights[h] * ((S[None, :] - s) / (N - m)[:, None]).T
        else:
            leave[:, lo:hi] = group.weights[h] * (S / N)[:, None]
        # other strata are unchanged: a constant shift, irrelevant to the influence values
    return jackknife_influence(leave, group.strata_sizes)


def plain_mean(values: np.ndarray) -> np.ndarray:
    """Column means of ``values`` (n, k) as :meth:`GroupData.stratified_mean` computes them
    for one stratum (same additions in the same order, so the same bits).

    Examples
    --------
    >>> plain_mean(np.array([[1.0, 2.0], [3.0, 6.0]])).tolist()
    [2.0, 4.0]
    """
    sums = np.zeros((1, values.shape[1]))
    np.add.at(sums, np.zeros(values.shape[0], dtype=np.intp), values)
    return 1.0 * (sums[0] / float(values.shape[0]))
