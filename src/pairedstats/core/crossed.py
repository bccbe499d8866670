"""The crossed (pigeonhole) bootstrap of items and replicates: seeds and items in one interval.

Each system is scored on ``n`` items, each ``R`` times (training seeds, epochs, folds: the
*replicates*), a balanced array ``X_s`` of shape ``(n, R_s)`` per system. The estimate of a
comparison is the mean of ``X_b`` over its items and replicates minus that of ``X_a``. A
resample draws ``n`` items with replacement and, independently, ``R`` replicates with
replacement, and takes the mean over the drawn ``(item, replicate)`` cells: the two factors
are resampled *crossed*, as in the pigeonhole bootstrap of Owen (2007), so the interval of
``mean(b) - mean(a)`` covers both the sampling of the items and the run-to-run variation of
training. With counts ``c`` of the items and ``w`` of the replicates of a resample, the
replicate is ``c' X w / (n R)`` (no ``B x n x R`` array is formed: a block of resamples at a
time, ``(block, n)`` and ``(block, R)`` counts).

Paired and unpaired replicates
------------------------------
Each system's replicates are drawn from a stream keyed by the *set* of its replicate labels.
Two systems with the same set (the same seed labels, e.g. the same data order and
initialisation per seed) draw the same replicates: the seeds are paired and their
differences resampled. Two systems with disjoint sets draw their replicates independently
(unpaired). Partly overlapping sets are refused by the input layer
(:func:`pairedstats.inputs.check_design`).

Streams
-------
The items of group ``key`` are drawn from the stream ``("bootstrap", key)``, exactly as the
index path of :mod:`pairedstats.core.bootstrap` draws them (resample ``r``'s items are the
same units); the replicates of a set of labels from ``("bootstrap", key, "replicate",
labels)``, ``labels`` the tuple of the set's labels in canonical order, through
:class:`~pairedstats.core.draws.UnitDraws` with the same blocks. Nothing depends on the
order of the rows, of the replicates or of the other systems.

References
----------
Owen, A. B. (2007). The pigeonhole bootstrap. *The Annals of Applied Statistics* 1(2),
386-411. The variance of the pigeonhole bootstrap mean is mildly conservative for the
crossed random-effects model (it counts the interaction more than once).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np

from .bootstrap import Replicates
from .draws import UnitDraws, block_slices, entropy_prefix, label_words
from .groups import LABEL, reference_system
from .ties import magnitude_tie_error, tie_error

__all__ = ["REPLICATE", "crossed_replicates", "replicate_stream", "tie_errors", "unit_counts"]

#: The label that names the replicates' streams (after the method and group labels).
REPLICATE = "replicate"


def replicate_stream(group_key: Hashable, labels: tuple) -> tuple:
    """The labels of the stream of the replicates whose labels are ``labels`` (one set)."""
    return (LABEL, group_key, REPLICATE, tuple(labels))


def unit_counts(indices: np.ndarray, n: int) -> np.ndarray:
    """How often each unit is drawn in each resample: ``(m, n)`` float64 from ``(m, n')``.

    Examples
    --------
    >>> unit_counts(np.array([[0, 0, 2], [1, 2, 2]]), 3).tolist()
    [[2.0, 0.0, 1.0], [0.0, 1.0, 2.0]]
    """
    m = indices.shape[0]
    flat = (indices + n * np.arange(m)[:, None]).reshape(-1)
    return np.bincount(flat, minlength=m * n).reshape(m, n).astype(np.float64)


def _weighted(item_w: np.ndarray, x: np.ndarray, rep_w: np.ndarray) -> np.ndarray:
    """``sum_i sum_r item_w[:, i] x[i, r] rep_w[:, r]`` per resample (rows of the weights)."""
    return np.einsum("mr,mr->m", item_w @ x, rep_w)


def crossed_replicates(
    cells: Sequence[np.ndarray],
    labels: Sequence[tuple],
    pairs: Sequence[tuple[int, int]],
    *,
    group_key: Hashable,
    root: int,
    n_resamples: int,
    precision: float = 2.0**-53,
) -> Replicates:
    """Replicates of every comparison of one group, items and replicates resampled crossed.

    Parameters
    ----------
    cells : sequence of ndarray, each of shape (n, R_s)
        System ``s``'s scores of each item (rows) and replicate (columns), balanced and
        finite; the columns in the canonical order of ``labels[s]``.
    labels : sequence of tuple
        System ``s``'s replicate labels; systems with equal tuples share their replicate
        draws (paired), others draw their own.
    pairs : sequence of (a, b)
        The comparisons, b minus a.
    group_key, root, n_resamples
        The stream key of the group, the root entropy and the number of resamples.
    precision : float, default ``2**-53``
        The unit roundoff of the scores as given (:func:`tie_errors`).

    Returns
    -------
    Replicates
        ``stat_a``, ``stat_b``: each system's mean over its items and replicates;
        ``tie_error`` of :func:`tie_errors`; no counts path, influence values or standard
        errors.

    Examples
    --------
    >>> gen = np.random.default_rng(0)
    >>> x = [gen.normal(size=(6, 3)), gen.normal(size=(6, 3)) + 1.0]
    >>> out = crossed_replicates(x, [(1, 2, 3)] * 2, [(0, 1)], group_key=(), root=1,
    ...                          n_resamples=500)
    >>> out.replicates.shape, bool(np.isclose(out.estimate[0], (x[1] - x[0]).mean()))
    ((1, 500), True)
    """
    n = cells[0].shape[0]
    means = np.array([c.mean() for c in cells])
    sets = list(dict.fromkeys(tuple(t) for t in labels))
    set_of = [sets.index(tuple(t)) for t in labels]
    paired = [set_of[a] == set_of[b] for a, b in pairs]
    centred, estimate = _paired_systems(cells, set_of, pairs, paired), np.empty(len(pairs))
    for c, ((a, b), p) in enumerate(zip(pairs, paired, strict=True)):
        estimate[c] = (cells[b] - cells[a]).mean() if p else means[b] - means[a]
    alone = sorted({s for (a, b), p in zip(pairs, paired, strict=True) if not p for s in (a, b)})
    item_prefix = entropy_prefix(root, label_words((LABEL, group_key)))
    set_prefix = [entropy_prefix(root, label_words(replicate_stream(group_key, t))) for t in sets]
    reps = np.empty((len(pairs), n_resamples))
    for block, lo, hi in block_slices(n_resamples):
        m = hi - lo
        drawn = UnitDraws(item_prefix, block, n).fill(np.empty((m, n), dtype=np.int64))
        item_w = unit_counts(drawn, n) / n
        rep_w = []
        for t, prefix in zip(sets, set_prefix, strict=True):
            r = len(t)
            drawn_r = UnitDraws(prefix, block, r).fill(np.empty((m, r), dtype=np.int64))
            rep_w.append(unit_counts(drawn_r, r) / r)
        side = {s: _weighted(item_w, cells[s], rep_w[set_of[s]]) for s in alone}
        # paired: each system's centred cells weighted once, a comparison the difference
        own = {s: _weighted(item_w, y, rep_w[set_of[s]]) for s, y in centred.items()}
        for c, ((a, b), p) in enumerate(zip(pairs, paired, strict=True)):
            reps[c, lo:hi] = own[b] - own[a] if p else side[b] - side[a]
    for c, ((a, b), p) in enumerate(zip(pairs, paired, strict=True)):
        if p:  # replicates spread beyond rounding: not constant (else checked cell by cell)
            size = np.abs(centred[a]).max() + np.abs(centred[b]).max()
            spread = np.ptp(reps[c]) > 8.0 * cells[a].size * 2.0**-53 * size
            constant = not spread and np.ptp(cells[b] - cells[a]) == 0
        else:
            constant = np.ptp(cells[a]) == np.ptp(cells[b]) == 0
        if constant:  # every resample gives the estimate exactly
            reps[c] = estimate[c]
    a_idx, b_idx = [a for a, _ in pairs], [b for _, b in pairs]
    return Replicates(
        replicates=reps,
        estimate=estimate,
        stat_a=means[a_idx],
        stat_b=means[b_idx],
        tie_error=tie_errors(cells, labels, pairs, precision),
        counts_path=np.zeros(len(pairs), dtype=bool),
    )


def _paired_systems(cells, set_of, pairs, paired) -> dict:
    """The cells of each system of a paired comparison, minus those of its set's reference
    system (:func:`~pairedstats.core.groups.reference_system`, among the set's systems of
    paired comparisons): weighted once per resample, a paired comparison's replicate is the
    difference of two of them (``p`` systems weighted, not every pair). A comparison with
    the reference is its own difference ``X_b - X_a``, weighted as such."""
    out = {}
    for t in sorted({set_of[a] for (a, _), p in zip(pairs, paired, strict=True) if p}):
        inside = [(a, b) for (a, b), p in zip(pairs, paired, strict=True) if p and set_of[a] == t]
        members = sorted({s for pair in inside for s in pair})
        flat = np.column_stack([cells[s].reshape(-1) for s in members])
        local = [(members.index(a), members.index(b)) for a, b in inside]
        ref = members[reference_system(local, flat)]
        out.update({s: cells[s] - cells[ref] for s in members})
    return out


def tie_errors(cells, labels, pairs, precision: float = 2.0**-53) -> np.ndarray:
    """How far rounding can move each comparison's replicates (the tie rule of
    :mod:`pairedstats.core.ties`).

    Paired replicates resample the differences ``X_b - X_a`` of the cells: the rule on the
    two systems' cells (:func:`~pairedstats.core.ties.tie_error`). Unpaired ones subtract
    two means, each computed from one system's scores with a rounding that follows their
    size (:func:`~pairedstats.core.ties.magnitude_tie_error`).

    Examples
    --------
    >>> x = [np.array([[1.0, 2.0]]), np.array([[3.0, 2.0]]) + 2.0**50]
    >>> t = tie_errors([x[0] + 2.0**50, x[1]], [(1, 2), (1, 2)], [(0, 1)])
    >>> bool(t[0] == tie_errors([x[0], x[1] - 2.0**50], [(1, 2), (1, 2)], [(0, 1)])[0])
    True
    """
    out = []
    for a, b in pairs:
        if tuple(labels[a]) == tuple(labels[b]):
            out.append(tie_error(np.concatenate([cells[a], cells[b]]), precision))
        else:
            sizes = np.array([np.abs(cells[a]).max(), np.abs(cells[b]).max()])
            out.append(magnitude_tie_error(sizes, precision))
    return np.array(out)
