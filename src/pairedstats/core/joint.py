"""The max-t adjustment (:func:`pairedstats.core.adjust.max_t`) over the joint replicates of
a family read a block of comparisons at a time, so that memory stays bounded whatever the
number of comparisons (499,500 for 1,000 systems).

Two passes: the max statistic of every resample (a running maximum,
:func:`update_top`; :func:`pairedstats.core.summary.summarize` takes it while it reads the
blocks for the intervals), then the step-down p-values in decreasing order of ``t``, read
from the smallest ``t`` up. Each pass over a block is one compiled pass
(:mod:`pairedstats.core.kernels.maxt`): the ties snapped, the studentized deviations and
their maxima, without forming the deviations. Maxima are exact, so the numbers are those of
one pass over all replicates at once.

numpy and the core only.
"""

from __future__ import annotations

import numpy as np

from . import checks
from .adjust import MaxT, comparison_blocks, signed, take_columns

__all__ = ["max_t_blocks", "update_top"]

#: The kernels' code for each alternative: the deviation ``|z|``, ``z`` or ``-z``.
SIGNS = {"two-sided": 0, "greater": 1, "less": 2}


def _spread(est, se) -> np.ndarray:
    """The comparisons in the max: in the family (finite estimate and standard error) with
    replicates that spread (``se > 0``)."""
    return np.isfinite(est) & np.isfinite(se) & (se > 0)


def _flat(x, shape, dtype=np.float64) -> np.ndarray:
    """``x`` broadcast to ``shape`` (..., m) as a writable C-contiguous (G, m) array."""
    out = np.require(np.broadcast_to(np.asarray(x, dtype=dtype), shape), requirements=["C", "W"])
    return out.reshape(-1, shape[-1])


def update_top(top, reps, est, se, alternative: str, snap=None) -> None:
    """``top`` (..., B) becomes, in each resample, the max of itself and the studentized
    deviations of the comparisons of ``reps`` (..., m, B), estimates and standard errors
    ``est``, ``se`` (..., m) (the max statistic of :func:`pairedstats.core.adjust.max_t`,
    NaN propagated as ``numpy.maximum`` does). ``snap``: ``(value, tol)`` (..., m), each
    replicate within ``tol`` of ``value`` read as ``value`` (None: as they are).
    """
    from .kernels.maxt import block_top

    reps = np.require(reps, dtype=np.float64, requirements=["C", "W"])
    value, tol = (0.0, -np.inf) if snap is None else snap
    shape, n_resamples = reps.shape[:-1], reps.shape[-1]
    flat = top.reshape(-1, n_resamples)  # a view: ``top`` is C-contiguous
    block_top(reps.reshape(-1, shape[-1], n_resamples), _flat(value, shape), _flat(tol, shape),
              _flat(est, shape), _flat(se, shape), _flat(_spread(est, se), shape, np.bool_),
              SIGNS[alternative], flat)  # fmt: skip


def max_t_blocks(rows, estimates, standard_errors, confidence_level, alternative, *,
                 top=None, snap=None) -> MaxT:  # fmt: skip
    """:func:`pairedstats.core.adjust.max_t` with the replicates read block by block:
    ``rows(idx)`` gives those of the comparisons ``idx`` (a slice, or indices (..., m)),
    shape (..., m, B), each block holding at most
    :data:`~pairedstats.core.adjust.BLOCK_CELLS` replicates.

    ``snap``: ``(value, tol)`` (..., k), a replicate within ``tol`` of ``value`` read as
    ``value`` (:func:`pairedstats.core.inference.snap_bounds`; None: as they are). ``top``:
    the max statistic (..., B) when already taken (:func:`update_top` over every block, on
    the replicates as ``snap`` reads them); else a first pass takes it.
    """
    est = np.asarray(estimates, dtype=np.float64)
    se = np.asarray(standard_errors, dtype=np.float64)
    level = checks.probability(confidence_level, "confidence_level")
    member, spread = np.isfinite(est) & np.isfinite(se), _spread(est, se)
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where(spread, signed(est, alternative) / se, 0.0)
    # a point comparison: t is +inf on the side of the alternative (p = 0), else -inf (p = 1)
    point = member & (se == 0)
    t = np.where(point, np.where(signed(est, alternative) > 0, np.inf, -np.inf), t)
    t = np.where(member, t, -np.inf)
    k, lead = est.shape[-1], int(np.prod(est.shape[:-1], dtype=np.int64))
    snap = (np.zeros(est.shape), np.full(est.shape, -np.inf)) if snap is None else snap
    if top is None:
        n_resamples = rows(slice(0, min(k, 1))).shape[-1]
        top = np.full((*est.shape[:-1], n_resamples), -np.inf)
        for part in comparison_blocks(k, n_resamples, lead):
            cut = (take_columns(x, part) for x in snap)
            update_top(top, rows(part), est[..., part], se[..., part], alternative, tuple(cut))
    n_resamples = top.shape[-1]
    blocks = comparison_blocks(k, n_resamples, lead)
    some = spread.any(axis=-1)
    # the max over the family in each resample, (..., B); 0 where there is none to take
    crit = np.where(some, np.quantile(np.where(some[..., None], top, 0.0), level, axis=-1),
                    np.nan)  # fmt: skip
    with np.errstate(invalid="ignore"):
        half = np.where(point, 0.0, crit[..., None] * se)
    low = np.where(member, est - half, np.nan)
    high = np.where(member, est + half, np.nan)
    if alternative == "greater":
        high = np.where(member, np.inf, np.nan)
    elif alternative == "less":
        low = np.where(member, -np.inf, np.nan)
    p = _step_down(rows, t, (est, se, spread, *snap), alternative, blocks, top)
    return MaxT(np.asarray(crit), low, high, np.where(member, p, np.nan))


def _reached(t_sorted, top) -> int:
    """How many comparisons at the start of the order (largest ``t`` first), in every
    family, have a ``t`` above every resample's max statistic ``top`` (..., B): their
    step-down p-values are 0 exactly (a max over fewer comparisons is no larger). None in a
    family with a NaN max statistic (a NaN hides the max over the comparisons after it)."""
    with np.errstate(invalid="ignore"):
        bound = np.where(np.isnan(top).any(axis=-1), np.inf, top.max(axis=-1, initial=-np.inf))
    return int((t_sorted > bound[..., None]).sum(axis=-1).min(initial=t_sorted.shape[-1]))


def _step_down(rows, t, fields, alternative, blocks, top) -> np.ndarray:
    """Step-down p-values: ``rows(idx)`` (..., m, B) the replicates of the comparisons
    ``idx``, ``t`` (..., k) observed, ``fields`` ``(est, se, spread, value, tol)`` (..., k).
    Read in decreasing order of ``t`` from its end, a block at a time (the running maximum
    over the comparisons after each one carried between blocks), down to the comparisons
    that no resample reaches (:func:`_reached`)."""
    from .kernels.maxt import step_down

    order = np.argsort(-t, axis=-1, kind="stable")  # largest t first
    t_sorted = np.take_along_axis(t, order, axis=-1)
    raw = np.zeros(t.shape)
    after = np.full(top.shape, -np.inf)  # max over the later ones
    flat_after, skip = after.reshape(-1, top.shape[-1]), _reached(t_sorted, top)
    for part in reversed(blocks):
        if part.stop <= skip:
            break
        idx = order[..., max(part.start, skip) : part.stop]
        reps = np.require(rows(idx), dtype=np.float64, requirements=["C", "W"])
        shape = reps.shape[:-1]
        est, se, spread, value, tol = (np.take_along_axis(x, idx, -1) for x in fields)
        out = np.empty(shape)
        step_down(reps.reshape(-1, shape[-1], reps.shape[-1]), _flat(value, shape),
                  _flat(tol, shape), _flat(est, shape), _flat(se, shape),
                  _flat(spread, shape, np.bool_), _flat(np.take_along_axis(t, idx, -1), shape),
                  SIGNS[alternative], flat_after, out.reshape(-1, shape[-1]))  # fmt: skip
        raw[..., max(part.start, skip) : part.stop] = out
    stepped = np.maximum.accumulate(raw, axis=-1)
    out = np.empty_like(stepped)
    np.put_along_axis(out, order, stepped, axis=-1)
    return out
