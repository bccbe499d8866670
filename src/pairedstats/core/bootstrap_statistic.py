"""The bootstrap of a general ``statistic``: replicates, estimates and influence values.

``statistic(*columns, axis=-1)`` is recomputed on every resample of the items (the units of
:mod:`pairedstats.core.bootstrap`'s index path, the same draws as the mean's).
"""

from __future__ import annotations

import contextlib
import functools
import numbers
from collections.abc import Callable

import numpy as np

from .draws import BLOCK, UnitDraws, block_slices, entropy_prefix, label_words
from .groups import stream_labels
from .intervals import jackknife_influence

__all__ = [
    "per_resample",
    "rows_per_batch",
    "statistic_estimates",
    "statistic_influence",
    "statistic_replicates",
]

#: Target size in bytes of one batch of per-resample work arrays.
_BATCH_BYTES = 8 << 20


def rows_per_batch(width: int) -> int:
    """Resamples per batch of work arrays of ``width`` floats each (at most a block)."""
    return int(max(1, min(BLOCK, _BATCH_BYTES // max(1, 8 * width))))


class _ContractError(ValueError):
    """``statistic`` returned something other than what the contract asks for."""


def per_resample(statistic: Callable) -> Callable:
    """A vectorized form of a ``statistic`` that takes no ``axis``.

    The returned function takes ``(*columns, axis=-1)`` and calls ``statistic(*columns)``
    once per resample (row) on 1-D columns, as scipy does with ``vectorized=False``: one
    Python call per resample and system instead of one per batch.

    Examples
    --------
    >>> f = per_resample(lambda x: float(x.max()))
    >>> f(np.array([[1.0, 3.0], [2.0, 0.0]]), axis=-1).tolist()
    [3.0, 2.0]
    """

    def vectorized(*columns, axis=-1):
        rows = columns[0].shape[:-1]
        out = np.empty(rows, dtype=object)  # as returned: _real_values says what is not real
        for r in np.ndindex(rows):
            value = statistic(*(c[r] for c in columns))
            if np.ndim(value) != 0:
                raise _ContractError(
                    "`statistic` (no `axis` parameter: called once per resample on 1-D "
                    f"columns) must return one number; got an array of shape {np.shape(value)}."
                )
            out[r] = value
        return out

    return functools.wraps(statistic)(vectorized)


def system_statistic(statistic, group, system, idx, what="resamples"):
    """``statistic`` of one system's columns at items ``idx``: one value per row of ``idx``.

    Checks the contract: the statistic must not raise on the sample and must return shape
    ``idx.shape[:-1]`` (one value per resample along the last axis).
    """
    scores = group.scores
    cols = [scores[:, system, c][idx] for c in range(scores.shape[2])]
    where = f"{what} of system {group.systems[system]!r}"
    try:
        returned = statistic(*cols, axis=-1)
    except _ContractError:
        raise
    except Exception as exc:
        raise ValueError(
            f"`statistic` raised {type(exc).__name__} on the {where}: {exc}. It must take one "
            "array per score column (and `axis`, if it has that parameter) and return the "
            "metric."
        ) from exc
    value = _real_values(returned, where)
    expected = idx.shape[:-1]
    if value.shape != expected:
        raise ValueError(
            "`statistic` must return one value per resample along the last axis: on the "
            f"{where}, given columns of shape {cols[0].shape}, it returned shape {value.shape}; "
            f"expected {expected}. Reduce along `axis` (e.g. `np.mean(x, axis=axis)`), or "
            "define `statistic` without an `axis` parameter to have it called once per "
            "resample."
        )
    return value


#: The types of one real number a statistic called once per resample may return.
_REAL = numbers.Real


def _real_values(returned, where: str) -> np.ndarray:
    """What ``statistic`` returned on the ``where``, as float64: real numbers, NaN where it is
    undefined (counted and warned about by the run).

    Anything else is refused and named: None and complex values are not a metric's values
    (read as floats they would become NaN, or lose their imaginary part), and an infinite
    value makes the differences of the replicates infinite or NaN (inf - inf), so the
    interval and the p-value would be read from values that are not numbers.
    """
    arr = np.asarray(returned)
    if arr.dtype.kind == "O":
        values = arr.reshape(-1).tolist()
        if all(issubclass(t, _REAL) for t in set(map(type, values))):  # the common case
            arr = np.asarray(values, dtype=np.float64).reshape(arr.shape)
        elif any(v is None for v in values):
            raise TypeError(
                f"`statistic` returned None on the {where}; it must return a real number "
                "for each resample (NaN where the metric is undefined)."
            )
        else:  # complex numbers, text, 0-d arrays: their own dtype, checked below
            with contextlib.suppress(ValueError):  # arrays of several shapes: not numbers
                arr = np.asarray([np.asarray(v) for v in values]).reshape(arr.shape)
    if arr.dtype.kind == "c":
        flat = arr.reshape(-1)
        imaginary = np.flatnonzero(flat.imag)
        first = complex(flat[imaginary[0]] if imaginary.size else flat[0])
        raise TypeError(
            f"`statistic` returned complex values on the {where} (e.g. {first!r}); it must "
            "return real numbers (take the real part or the modulus, if that is the metric)."
        )
    if arr.dtype.kind not in "biuf":
        example = arr.reshape(-1)[:1].tolist()[0] if arr.size else None  # 'a', not np.str_
        raise TypeError(
            f"`statistic` must return real numbers; on the {where} it returned {example!r} "
            f"(a {type(example).__name__})."
        )
    value = arr.astype(np.float64)
    inf = np.isinf(value)
    if inf.any():
        raise ValueError(
            f"`statistic` returned an infinite value ({float(value[inf][0])!r}) on the "
            f"{where}; the differences of the systems would be infinite or undefined. Return "
            "finite numbers, or NaN where the metric is undefined (those comparisons are then "
            "NaN, with a warning)."
        )
    return value


def stratum_prefixes(group, group_key, root) -> list[np.ndarray]:
    return [
        entropy_prefix(root, label_words(stream_labels(group_key, key, group.stratified)))
        for key in group.stratum_keys
    ]


def _item_replicates(group, statistic, systems, prefixes, n_resamples, rows, per_system):
    # unclustered: the items of each stratum drawn in batches of `rows` resamples per block
    strata = range(len(group.stratum_keys))
    items_of_stratum = [np.flatnonzero(group.item_stratum == h) for h in strata]
    for block, lo, hi in block_slices(n_resamples):
        streams = [UnitDraws(prefixes[h], block, group.strata_sizes[h]) for h in strata]
        for start in range(lo, hi, rows):
            stop = min(start + rows, hi)
            parts = []
            for h in strata:
                ih = np.empty((stop - start, group.strata_sizes[h]), dtype=np.int64)
                parts.append(items_of_stratum[h][streams[h].fill(ih)])
            idx = np.concatenate(parts, axis=1)
            for s in systems:
                per_system[s][start:stop] = system_statistic(statistic, group, s, idx)


def _cluster_replicates(group, statistic, systems, prefixes, n_resamples, per_system):
    # clustered: the clusters of each stratum drawn, their items gathered resample by resample
    order, starts = group.item_order, group.unit_starts
    sizes = group.unit_sizes.astype(np.int64)
    for block, lo, hi in block_slices(n_resamples):
        parts = []
        for h in range(len(group.stratum_keys)):
            uh = np.empty((hi - lo, group.strata_sizes[h]), dtype=np.int64)
            UnitDraws(prefixes[h], block, group.strata_sizes[h]).fill(uh)
            parts.append(uh + group.strata_bounds[h])
        units = np.concatenate(parts, axis=1)
        for r in range(hi - lo):
            u = units[r]
            lens = sizes[u]
            base = np.repeat(starts[u] - np.concatenate([[0], np.cumsum(lens)[:-1]]), lens)
            idx = order[base + np.arange(int(lens.sum()))]
            for s in systems:
                per_system[s][lo + r] = system_statistic(statistic, group, s, idx)


def statistic_replicates(group, statistic, group_key, root, n_resamples, batch_rows=None):
    """Replicates (k, B) of ``statistic(b) - statistic(a)`` on resampled items.

    The items (or clusters) are drawn as the mean's index path draws them
    (:class:`pairedstats.core.draws.UnitDraws`), in batches of ``batch_rows`` resamples
    (by default about 8 MB of work arrays), which changes no number.
    """
    systems = sorted({s for p in group.pairs for s in p})
    per_system = {s: np.empty(n_resamples) for s in systems}
    prefixes = stratum_prefixes(group, group_key, root)
    if group.clustered:
        _cluster_replicates(group, statistic, systems, prefixes, n_resamples, per_system)
    else:
        rows = batch_rows or rows_per_batch(group.n_items * max(1, group.scores.shape[2]) * 2)
        _item_replicates(group, statistic, systems, prefixes, n_resamples, rows, per_system)
    return np.stack([per_system[b] - per_system[a] for a, b in group.pairs])


def statistic_estimates(group, statistic):
    """The statistic of each system of the comparisons, on the sample."""
    systems = sorted({s for p in group.pairs for s in p})
    idx = np.arange(group.n_items)
    return {s: float(system_statistic(statistic, group, s, idx, "sample")) for s in systems}


_LEAVE_ONE_OUT = "leave-one-out samples"


def statistic_influence(group, statistic):
    """Leave-one-unit-out influence values (k, n_units) of statistic(b) - statistic(a)."""
    systems = sorted({s for p in group.pairs for s in p})
    n_units = group.n_units
    leave = {s: np.empty(n_units) for s in systems}
    scores = group.scores
    if not group.clustered:
        # units are items, ordered by stratum: unit u is item item_of_unit[u]
        item_of_unit = np.empty(group.n_items, dtype=np.int64)
        item_of_unit[group.unit_of_item] = np.arange(group.n_items)
        n = group.n_items
        rows = rows_per_batch(n * max(1, scores.shape[2]) * 2)
        base = np.arange(n - 1)
        for lo in range(0, n_units, rows):
            hi = min(lo + rows, n_units)
            out = item_of_unit[lo:hi]
            idx = base[None, :] + (base[None, :] >= out[:, None])
            for s in systems:
                leave[s][lo:hi] = system_statistic(statistic, group, s, idx, _LEAVE_ONE_OUT)
    else:
        for u in range(n_units):
            keep = np.flatnonzero(group.unit_of_item != u)
            for s in systems:
                leave[s][u] = system_statistic(statistic, group, s, keep, _LEAVE_ONE_OUT)
    values = np.stack([leave[b] - leave[a] for a, b in group.pairs])
    return jackknife_influence(values, group.strata_sizes)
