"""The ranking's run: the bootstrap of all pairs with ``adjust="max-t"``, obtained through
the registry on the same design, and the rank sets read from its simultaneous intervals by
label (:func:`ranks`)."""

from __future__ import annotations

import numpy as np

from ...core.intervals import comparison_tie_errors, magnitude_tie_errors
from ...core.summed import SummedDesign
from .._shared.registry import SPECS
from .._shared.runs import labelled_pairs, side_of
from .._shared.streaming import bootstrap_sums
from .result import RankResult
from .settings import Settings

__all__ = ["ranks", "run", "summed"]


def summed(design, s: Settings) -> SummedDesign:
    """The sums of the streaming road (the spec's ``summed``): the Poisson bootstrap's
    tallies of all pairs, which every bootstrap of the ranking reads (a slice of the items)."""
    return bootstrap_sums(design, s.rng, s.n_resamples)


def run(s: Settings) -> RankResult:
    """The ranking of ``s.design``: the bootstrap of all pairs with ``adjust="max-t"`` (and
    with ``simultaneous=False`` one per system as baseline), then :class:`RankResult`."""
    bootstrap = SPECS["bootstrap"]
    options = dict(s.bootstrap(), adjust="max-t")
    pairs = bootstrap.compute(s.design, keep=False, **options)
    systems, columns = labelled_pairs(pairs)
    if s.simultaneous:
        runs = (pairs,)
        against = _against_all(pairs, columns, systems)
    else:
        runs = tuple(bootstrap.compute(s.design, keep=False, baseline=x, **options)
                     for x in systems)  # fmt: skip
        against = [_against(r, labelled_pairs(r)[1], x, systems) for x, r in zip(systems, runs)]
    mean = np.stack([side_of(pairs, columns, x) for x in systems], axis=-1)
    difference, tie = _differences(pairs, columns, systems, s.design)
    sets = ranks(mean, against, s.lower_is_better, difference=difference, tie=tie)
    meta = s.metadata(adjust="max-t", cluster=pairs.metadata["cluster"],
                      strata=pairs.metadata["strata"])  # fmt: skip
    return RankResult(group_names=pairs.group_names, group_keys=pairs.group_keys,
                      systems=systems, mean=mean, **sets, comparisons=runs,
                      metadata=meta)  # fmt: skip


def _against(pairs, columns: dict, system, systems) -> tuple[np.ndarray, np.ndarray]:
    """The simultaneous intervals of ``mean_k - mean_system`` for every other system ``k``
    (in system order), looked up by label in ``pairs`` (``b - a``; a pair ``(k, system)``
    is negated): shape ``(n_groups, p - 1)``."""
    low, high = np.asarray(pairs.ci_low_adjusted), np.asarray(pairs.ci_high_adjusted)
    lows, highs = [], []
    for k in systems:
        if k == system:
            continue
        if (system, k) in columns:  # mean_k - mean_system
            c = columns[system, k]
            lows.append(low[:, c])
            highs.append(high[:, c])
        else:  # mean_system - mean_k, negated
            c = columns[k, system]
            lows.append(-high[:, c])
            highs.append(-low[:, c])
    return np.stack(lows, axis=-1), np.stack(highs, axis=-1)


def _against_all(pairs, columns: dict, systems) -> list[tuple[np.ndarray, np.ndarray]]:
    """:func:`_against` of every system, from index arrays (one pass over the columns)."""
    low, high = np.asarray(pairs.ci_low_adjusted), np.asarray(pairs.ci_high_adjusted)
    position = {x: j for j, x in enumerate(systems)}
    p = len(systems)
    column, negated = np.full((p, p), -1, dtype=np.intp), np.zeros((p, p), dtype=bool)
    index = np.array([(position[a], position[b], c) for (a, b), c in columns.items()],
                     dtype=np.intp).reshape(-1, 3)  # fmt: skip
    a, b, c = index.T
    column[b, a], negated[b, a] = c, True  # for b, the pair (a, b) read negated ...
    column[a, b], negated[a, b] = c, False  # ... unless the pair (b, a) is there too
    others = ~np.eye(p, dtype=bool)
    if (column[others] < 0).any():
        raise KeyError("a pair of systems without a comparison")
    column, negated = column[others].reshape(p, p - 1), negated[others].reshape(p, p - 1)
    lows = np.where(negated, -high[:, column], low[:, column])  # (n_groups, p, p - 1)
    highs = np.where(negated, -low[:, column], high[:, column])
    return [(lows[:, j], highs[:, j]) for j in range(p)]


def _differences(pairs, columns: dict, systems, design) -> tuple[np.ndarray, np.ndarray]:
    """``d[g, j, k] = mean_k - mean_j`` of every two systems, the bootstrap's estimates (the
    mean of the per-item differences: exact for integer scores at any offset, where the
    means themselves round), and the tie rule's error of each
    (:func:`~pairedstats.core.intervals.comparison_tie_errors`), both by label."""
    difference = np.asarray(pairs.difference, dtype=np.float64)
    position = {x: j for j, x in enumerate(systems)}  # in the result
    column = {x: j for j, x in enumerate(design.systems)}  # in the design's scores
    j = np.array([position[a] for a, _ in columns], dtype=np.intp)
    k = np.array([position[b] for _, b in columns], dtype=np.intp)
    c = np.fromiter(columns.values(), dtype=np.intp, count=len(columns))
    scored = [(column[a], column[b]) for a, b in columns]
    if isinstance(design, SummedDesign):  # each system's magnitudes, summed
        errors = np.stack([magnitude_tie_errors(s.largest, s.whole, scored, design.precision)
                           for s in design.groups])  # fmt: skip
    else:
        errors = np.stack([
            comparison_tie_errors(design.scores[design.group(g), :, 0], scored, design.precision)
            for g in range(difference.shape[0])
        ])  # fmt: skip
    p = len(systems)
    d = np.zeros((difference.shape[0], p, p))
    tie = np.zeros_like(d)
    d[:, j, k], d[:, k, j] = difference[:, c], -difference[:, c]
    tie[:, j, k] = tie[:, k, j] = errors
    return d, tie


def ranks(mean, against, lower_is_better: bool = False, difference=None, tie=0.0) -> dict:
    """Ranks and rank sets from the means and, per system, the intervals of the others'
    differences from it, their ties read by the tie rule of :mod:`pairedstats.core.ties`.

    Parameters
    ----------
    mean : ndarray, shape (n_groups, p)
    against : sequence of p pairs (low, high), each of shape (n_groups, p - 1)
        For system ``j``: the confidence intervals of ``mean_k - mean_j`` over the other
        systems ``k``. A NaN interval decides nothing.
    lower_is_better : bool
    difference : ndarray, shape (n_groups, p, p), optional
        ``mean_k - mean_j`` at ``[g, j, k]`` as estimated (default: from ``mean``); a system
        is ahead of another when its difference exceeds ``tie``.
    tie : float or ndarray, shape (n_groups, p, p)
        The error of each difference (0: exact). An interval end counts as above or below 0
        beyond it and the float rounding of the end (16 units of roundoff of its size), so
        that an end equal to 0 in exact arithmetic is read alike in any units.

    Returns
    -------
    dict
        ``rank``, ``rank_low``, ``rank_high`` (int64) and ``may_be_best`` (bool), each
        of shape (n_groups, p).

    Examples
    --------
    Three systems: the third is surely above both others, which cannot be told apart.

    >>> mean = np.array([[0.1, 0.2, 0.9]])
    >>> against = [(np.array([[-0.1, 0.5]]), np.array([[0.3, 1.1]])),
    ...            (np.array([[-0.3, 0.4]]), np.array([[0.1, 1.0]])),
    ...            (np.array([[-1.1, -1.0]]), np.array([[-0.5, -0.4]]))]
    >>> out = ranks(mean, against)
    >>> out["rank"].tolist(), out["rank_low"].tolist(), out["rank_high"].tolist()
    ([[3, 2, 1]], [[2, 2, 1]], [[3, 3, 1]])
    """
    mean = np.asarray(mean, dtype=float)
    p = mean.shape[-1]
    if difference is None:
        difference = mean[..., None, :] - mean[..., :, None]
    tie = np.broadcast_to(np.asarray(tie, dtype=float), np.shape(difference))
    off = ~np.eye(p, dtype=bool)  # the others of each system j, in system order
    others = tie[..., off].reshape(*tie.shape[:-2], p, p - 1)
    low = np.stack([np.asarray(a[0], dtype=float) for a in against], axis=-2)
    high = np.stack([np.asarray(a[1], dtype=float) for a in against], axis=-2)
    with np.errstate(invalid="ignore"):
        end = others + 16 * 2.0**-53 * np.fmax(np.abs(low), np.abs(high))
    above, below = low > end, high < -end  # NaN compares False: it decides nothing
    if lower_is_better:
        above, below = below, above
    sign = -1.0 if lower_is_better else 1.0
    ahead = sign * difference > tie  # [g, j, k]: k ahead of j
    rank_low = 1 + above.sum(axis=-1)
    return dict(
        rank=(1 + ahead.sum(axis=-1)).astype(np.int64),
        rank_low=rank_low.astype(np.int64),
        rank_high=(p - below.sum(axis=-1)).astype(np.int64),
        may_be_best=rank_low == 1,
    )
