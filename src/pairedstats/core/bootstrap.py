"""The paired bootstrap: replicates of every comparison of a group.

Everything here works on validated ndarrays and returns :class:`Replicates`: the replicates,
the estimates and what the intervals need of them (each comparison's tie error, BCa's
acceleration, the studentized standard errors). Which of these roads serves which group of a
design is decided in :mod:`pairedstats.core.bootstrap_design`; the method
(:mod:`pairedstats.methods.bootstrap`) validates the keywords and collects the intervals. The
intervals are in :mod:`pairedstats.core.intervals`, the resampling units in
:mod:`pairedstats.core.groups`, a general statistic in :mod:`pairedstats.core.bootstrap_statistic`
(the names the layer above uses are re-exported here). numpy only; the kernel
(:mod:`pairedstats.core.kernels.bootstrap`) imports numba, lazily.

The studentized interval (:mod:`pairedstats.core.studentized`) needs a standard error of
every replicate, from its own resample (``studentized=True``): for the mean, the kernel sums
per-unit moment columns beside the differences over the same drawn units (the replicates
are the same bits); for a general statistic, each resample's jackknife
(:mod:`pairedstats.core.statistic_jackknife`).

Resampling streams
------------------
The draws of a group (a stratum of a group, with ``strata``) come from the streams named
``("bootstrap", group_key)`` (``("bootstrap", group_key, stratum_label)``) under the root
entropy, cut into blocks of :data:`~pairedstats.core.draws.BLOCK` resamples, each block with
its own generator (:func:`~pairedstats.core.draws.block_generator`). Two ways of drawing
exist, both exact (equal in distribution to drawing ``n`` units uniformly with replacement):

*index path* (all statistics; ``resampling="index"`` and ``"auto"``): the block generator's
64-bit outputs are cut into 16-bit chunks (32-bit chunks when there are more than 65,536
units), lowest bits first; a chunk ``x`` of width ``w`` gives the unit ``(x * n) >> w`` unless
``(x * n) mod 2**w < 2**w mod n``, in which case it is rejected (Lemire's unbiased
multiply-shift rule). Resample ``r`` of the block takes the next ``n`` accepted units. The
draws are shared by every comparison of the group, so the resamples of a comparison do not
depend on which other systems are in the call, and the replicates of several comparisons are
jointly those of one resampling of the items (``D(a, c) = D(a, b) + D(b, c)`` resample by
resample). The mean's kernel sums each system's scores centred on one system
(:func:`~pairedstats.core.groups.reference_system`), and a comparison's replicate is the
difference of its two systems' sums over the drawn size
(:class:`~pairedstats.core.derived.DerivedReplicates`): exact to the bit against a baseline,
with two systems and on integer scores, the same to rounding otherwise.

*counts path* (the mean, ``resampling="counts"`` only): resampling ``n`` units is the same in
distribution as drawing the multinomial counts of their distinct values,
``Generator.multinomial(n, p_values)`` per resample: a handful of binomials instead of ``n``
draws when the values are few (accuracies, 0/1 indicators, grades). The stream is keyed
exactly as on the index path but the numbers differ from it. Each comparison draws its own
counts over its own distinct values: the replicates of one comparison are exact, those of
several comparisons are *not* jointly resampled (marginal resampling). A comparison is drawn
in a canonical orientation, ``b - a`` when the system labels are in the order of
:func:`~pairedstats.core.draws.label_words` and ``a - b`` (then negated) otherwise, so that
``(a, b)`` and ``(b, a)`` draw the same counts and give exactly negated replicates.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from .bootstrap_statistic import (
    per_resample,
    statistic_estimates,
    statistic_influence,
    statistic_replicates,
)
from .counts import counts_ratios
from .derived import DerivedReplicates
from .draws import (
    BLOCK,
    block_seeds,
    block_slices,
    entropy_prefix,
    label_words,
    resample_indices,
)
from .groups import (
    LABEL,
    GroupData,
    canonical_sign,
    centred_scores,
    constant_pairs,
    mean_influence,
    pair_differences,
    pair_values,
    plain_mean,
    reference_system,
    stream_labels,
)
from .intervals import (
    acceleration,
    basic_interval,
    bca_interval,
    bias_correction,
    comparison_tie_errors,
    jackknife_influence,
    percentile_interval,
    standard_error,
    tie_error,
)
from .kernels import Streams, Units, offsets
from .pairs import constant_differences, difference_means
from .parallel import default_workers, n_parts, run_queued
from .statistic_jackknife import statistic_estimate_se, statistic_replicate_se
from .studentized import (
    moment_columns,
    moment_variance,
    studentized_interval,
    studentized_replicates,
)

__all__ = [
    "LABEL",
    "GroupData",
    "Replicates",
    "acceleration",
    "basic_interval",
    "bca_interval",
    "bias_correction",
    "canonical_sign",
    "group_replicates",
    "jackknife_influence",
    "mean_influence",
    "mean_replicates_batches",
    "mean_replicates_many",
    "pair_differences",
    "per_resample",
    "percentile_interval",
    "plain_mean",
    "resample_indices",
    "standard_error",
    "studentized_interval",
    "studentized_replicates",
    "tie_error",
]


@dataclass(frozen=True, kw_only=True)
class Replicates:
    """The replicates of the comparisons of one group (or of a batch of groups) and what the
    intervals need of them.

    The shapes are those of one group; a batch of groups (:func:`mean_replicates_batches`)
    adds a leading axis of groups to each.

    Attributes
    ----------
    replicates : ndarray, shape (k, B)
        Each comparison's bootstrap replicates of ``b - a``.
    estimate : ndarray, shape (k,)
        Each comparison's estimate, ``stat_b - stat_a`` (for the mean, the mean difference).
    stat_a, stat_b : ndarray, shape (k,)
        The statistic of each comparison's two systems.
    tie_error : ndarray, shape (k,)
        How far the rounding of the scores as given can move each comparison's replicates
        (:func:`~pairedstats.core.intervals.comparison_tie_errors`, the tie rule of
        :mod:`pairedstats.core.ties`).
    counts_path : ndarray of bool, shape (k,)
        Whether each comparison was drawn on the counts path (``resampling="counts"``).
    influence : ndarray, shape (k, n_units), or None
        The jackknife influence values of the resampled units (asked with ``influence``).
    acceleration : ndarray, shape (k,), or None
        BCa's acceleration from ``influence`` (asked with ``influence``).
    replicate_se : ndarray, shape (k, B), or None
        The standard error of each replicate, from its own resample (asked with
        ``studentized``).
    estimate_se : ndarray, shape (k,), or None
        The standard error of the estimate (asked with ``studentized``).
    """

    replicates: np.ndarray
    estimate: np.ndarray
    stat_a: np.ndarray
    stat_b: np.ndarray
    tie_error: np.ndarray
    counts_path: np.ndarray
    influence: np.ndarray | None = None
    acceleration: np.ndarray | None = None
    replicate_se: np.ndarray | None = None
    estimate_se: np.ndarray | None = None


def _run_tasks(fn, n_tasks: int, nw: int, draws: int) -> None:
    """Call ``fn(lo, hi)`` on contiguous parts of ``range(n_tasks)`` (``draws`` random draws
    in all), taken in turn by ``nw <= n_tasks`` threads
    (:func:`pairedstats.core.parallel.run_queued`)."""
    parts = n_parts(draws, nw, units=n_tasks)
    cuts = [n_tasks * i // parts for i in range(parts + 1)]
    run_queued([lambda lo=lo, hi=hi: fn(lo, hi) for lo, hi in itertools.pairwise(cuts) if hi > lo],
               nw)  # fmt: skip


def stream_sums(labels, values, n_resamples: int, root: int, workers=None) -> np.ndarray:
    """Index-path replicate sums of many streams: ``(S, k, B)``.

    Stream ``s`` (labels ``labels[s]``) resamples the rows of ``values[s]`` (n_s, k);
    ``out[s, q, r]`` is the draw-order sum of column ``q`` over resample ``r``'s units
    (:func:`pairedstats.core.kernels.bootstrap.stream_sums`, or ``column_sums`` for one
    column: the same bits). A stream's sums depend on its labels, its values, the root and
    ``r`` only.
    """
    from .kernels import bootstrap as kernels

    prefixes = [entropy_prefix(root, label_words(lab)) for lab in labels]
    streams = Streams(np.concatenate(prefixes), offsets([p.size for p in prefixes]))
    units = Units(
        np.ascontiguousarray(np.concatenate(values), dtype=np.float64),
        offsets([v.shape[0] for v in values]),
    )
    out = np.empty((len(values), values[0].shape[1], n_resamples))
    n_blocks = len(block_slices(n_resamples))
    n_tasks = len(values) * n_blocks
    nw = min(default_workers(workers), n_tasks)

    def part(lo, hi):
        tasks = np.arange(lo, hi)  # task t: block t % n_blocks of stream t // n_blocks
        seeds = block_seeds(streams.prefixes, streams.bounds, tasks // n_blocks, tasks % n_blocks)
        state, buf, dst = kernels.scratch(units)  # each thread its own
        if out.shape[1] == 1:
            kernels.column_sums(seeds, units, n_resamples, BLOCK, lo, hi, out, state, buf)
        else:
            kernels.stream_sums(seeds, units, n_resamples, BLOCK, lo, hi, out, state, buf, dst)

    _run_tasks(part, n_tasks, nw, n_resamples * units.values.shape[0])
    return out


def _stratum_draws(group, h, sums, group_key, root, n_resamples, workers, moments=None):
    """Index path: stratum ``h``'s resampled sums (q, B) of the columns of ``sums`` (each
    system's, centred) and the drawn size (the drawn clusters' sizes (B,), or the number of
    items); with ``moments`` (the stratum's units' :func:`moment_columns`), also their sums
    (B, m) over the same draws (else None). The extra columns change no sum: the kernel sums
    every column over one set of drawn units."""
    lo, hi = group.strata_bounds[h], group.strata_bounds[h + 1]
    s, m, n = sums[lo:hi], group.unit_sizes[lo:hi], hi - lo
    vals = np.column_stack([s, m]) if group.clustered else s
    if moments is not None:
        vals = np.column_stack([vals, moments])
    labels = stream_labels(group_key, group.stratum_keys[h], group.stratified)
    acc = stream_sums([labels], [vals], n_resamples, root, workers)[0]
    q = s.shape[1]
    size = acc[q] if group.clustered else float(n)
    rest = acc[q + 1 :] if group.clustered else acc[q:]
    return acc[:q], size, None if moments is None else rest.T


def _with_reference(drawn: np.ndarray, ref: int) -> np.ndarray:
    """The resampled sums (p - 1, B) of the systems but the reference, with the reference's
    (its centred scores are 0, and so are its sums) as row ``ref``: (p, B)."""
    return np.insert(drawn, ref, 0.0, axis=0)


def _centred_unit_sums(group, d):
    """Unit sums (n_units, k) of ``d`` minus its stratum's item mean, item by item.

    Each column is reduced as one contiguous row (:func:`_column_sums`), so that a
    comparison's numbers do not depend on the other comparisons of the call.
    """
    centre = np.zeros((len(group.stratum_keys), d.shape[1]))
    for h in range(len(group.stratum_keys)):
        rows = d[group.item_stratum == h]
        centre[h] = _column_sums(rows) / rows.shape[0]
    return group.unit_sums(d - centre[group.item_stratum])


def _column_sums(values: np.ndarray) -> np.ndarray:
    """Sums of the columns of ``values`` (n, q), each added as one contiguous row."""
    return np.ascontiguousarray(values.T).sum(axis=-1)


def _mean_replicates(group, group_key, root, n_resamples, resampling, workers,
                     studentized=False):  # fmt: skip
    """The mean's replicates (k, B) (:class:`~pairedstats.core.derived.DerivedReplicates` on
    the index path), estimates (k,), the unit sums the influence values are computed from
    and the studentized standard errors (or None).

    On the index path the units' sums are each system's, centred on the reference system
    (:func:`~pairedstats.core.groups.centred_scores`), and a comparison's replicates are the
    difference of its two systems' resampled sums over the drawn size, weighted over the
    strata: the kernel sums one column per system, however many comparisons, and the
    replicates are made when read. The counts path draws each comparison's own counts, on
    its differences.
    """
    k = len(group.pairs)
    estimate = group.pair_estimate()
    x = group.scores[:, :, 0]
    if resampling == "counts":
        sums = group.unit_sums(group.differences())
        total = np.zeros((n_resamples, k))
        for h in range(len(group.stratum_keys)):
            total += group.weights[h] * counts_ratios(group, h, sums, group_key, root,
                                                      n_resamples)  # fmt: skip
        reps = np.ascontiguousarray(total.T)
        constant = constant_pairs(np.ptp(reps, axis=-1), x, group.pairs, group.reference,
                                  group.item_stratum)  # fmt: skip
        reps[constant] = estimate[constant, None]
        return reps, estimate, sums, None
    sums = group.unit_sums(group.centred())
    var, est_var = np.zeros((n_resamples, k)), np.zeros(k)
    centred = _centred_unit_sums(group, group.differences()) if studentized else None
    terms = []
    others = np.delete(sums, group.reference, axis=1)  # the reference's sums are 0
    for h in range(len(group.stratum_keys)):
        w = group.weights[h]
        lo, hi = group.strata_bounds[h], group.strata_bounds[h + 1]
        sizes = group.unit_sizes[lo:hi] if group.clustered else None
        moments = moment_columns(centred[lo:hi], sizes) if studentized else None
        drawn, size, acc = _stratum_draws(group, h, others, group_key, root, n_resamples,
                                          workers, moments)  # fmt: skip
        terms.append((w, _with_reference(drawn, group.reference), size))
        if studentized:
            var += w * w * moment_variance(acc, hi - lo, k, size if group.clustered else None)
            est_var += w * w * moment_variance(_column_sums(moments), hi - lo, k,
                                               None if sizes is None else sizes.sum())  # fmt: skip
    pairs = np.array(group.pairs, dtype=np.intp).reshape(-1, 2)
    draft = DerivedReplicates(tuple(terms), pairs, np.zeros(k, dtype=bool), np.zeros(k))
    # degenerate: every stratum's differences constant -> the estimate exactly
    constant = constant_pairs(draft.spread(), x, group.pairs, group.reference,
                              group.item_stratum)  # fmt: skip
    reps = DerivedReplicates(draft.terms, pairs, constant, np.where(constant, estimate, 0.0))
    if not studentized:
        return reps, estimate, sums, None
    var[:, constant], est_var[constant] = 0.0, 0.0
    return reps, estimate, sums, (np.sqrt(var.T), np.sqrt(est_var))


#: Groups per kernel call of :func:`mean_replicates_batches` (bounds its work arrays).
GROUP_BATCH = 64


def mean_replicates_batches(
    scores: Mapping[int, np.ndarray],
    group_keys: Mapping[int, Hashable],
    pairs: Sequence[tuple[int, int]],
    *,
    precision: float = 2.0**-53,
    root: int,
    n_resamples: int,
    workers=None,
    studentized: bool = False,
) -> Iterator[tuple[list, Replicates]]:
    """The mean's replicates of many unclustered, unstratified groups,
    :data:`GROUP_BATCH` per kernel call (:func:`mean_replicates_many`).

    ``scores`` and ``group_keys`` map each group to its scores ``(n_items, n_systems)`` and
    its stream key; ``precision`` is the unit roundoff of the scores as given. Yields
    ``(groups, replicates)``: the :class:`Replicates` of a batch of groups, each field with
    a leading axis of ``len(groups)``, equal row by row to what :func:`group_replicates`
    gives each group on its own (``resampling="index"``); a group's numbers do not depend on
    its batch.
    """
    a_idx, b_idx = [a for a, _ in pairs], [b for _, b in pairs]
    order = list(scores)
    for start in range(0, len(order), GROUP_BATCH):
        batch = order[start : start + GROUP_BATCH]
        reps, se = _many(
            [scores[g] for g in batch], [group_keys[g] for g in batch], root=root,
            n_resamples=n_resamples, workers=workers, studentized=studentized, pairs=pairs,
        )  # fmt: skip
        se = (None, None) if se is None else se
        means = np.array([plain_mean(scores[g]) for g in batch])
        estimate = np.array([difference_means(scores[g], pairs) for g in batch])
        yield batch, Replicates(
            replicates=reps, estimate=estimate,
            stat_a=means[:, a_idx], stat_b=means[:, b_idx],
            tie_error=np.array([comparison_tie_errors(scores[g], pairs, precision)
                                for g in batch]),
            counts_path=np.zeros((len(batch), len(pairs)), dtype=bool),
            replicate_se=se[0], estimate_se=se[1],
        )  # fmt: skip


def mean_replicates_many(
    values: Sequence[np.ndarray],
    group_keys: Sequence[Hashable],
    *,
    root: int,
    n_resamples: int,
    workers: int | None = None,
    studentized: bool = False,
    pairs: Sequence[tuple[int, int]] | None = None,
):
    """Index-path replicates of many unclustered, unstratified groups in one kernel call.

    Without ``pairs``, ``values[g]`` (n_g, k) are group ``g``'s per-item differences, one
    column per comparison. With ``pairs``, ``values[g]`` (n_g, p) are its systems' scores:
    the kernel resamples each system's, centred on the group's
    :func:`~pairedstats.core.groups.reference_system`
    (:func:`~pairedstats.core.groups.centred_scores`), and each comparison ``(a, b)`` is the
    difference of two systems' replicates (:func:`~pairedstats.core.groups.pair_values`):
    ``p`` columns summed, whatever the number of comparisons. Returns (G, k, B), equal to
    what :func:`group_replicates` gives each group on its own (``resampling="index"``): the
    streams are keyed by each group's key, never by its position.

    With ``studentized``, returns ``(replicates, replicate_se, estimate_se)``: also the
    standard error ``sd(ddof=1) / sqrt(n)`` of each resample's mean of the differences
    (G, k, B), from the same draws (the kernel sums the moment columns of
    :func:`~pairedstats.core.studentized.moment_columns` of each comparison's differences
    beside the values; the replicates are the same bits), and the estimate's (G, k); equal
    to :func:`group_replicates`' ``replicate_se`` and ``estimate_se``.

    Examples
    --------
    >>> gen = np.random.default_rng(0)
    >>> d = [gen.normal(size=(30, 2)), gen.normal(size=(12, 2))]
    >>> both = mean_replicates_many(d, ["x", "y"], root=1, n_resamples=500)
    >>> alone = mean_replicates_many(d[1:], ["y"], root=1, n_resamples=500)
    >>> both.shape, bool((both[1] == alone[0]).all())
    ((2, 2, 500), True)
    >>> reps, se, est_se = mean_replicates_many(d, ["x", "y"], root=1, n_resamples=500,
    ...                                         studentized=True)
    >>> bool((reps == both).all()), se.shape, est_se.shape
    (True, (2, 2, 500), (2, 2))

    Three systems from their three columns: against a baseline (system 1) each comparison
    is its own difference, summed as such; all pairs are differences of two systems'
    sums, centred on one of them, equal to rounding:

    >>> x = [gen.normal(size=(30, 3))]
    >>> def both_roads(pairs):
    ...     derived = mean_replicates_many(x, ["x"], root=1, n_resamples=500, pairs=pairs)
    ...     direct = mean_replicates_many([pair_differences(x[0], pairs)], ["x"], root=1,
    ...                                   n_resamples=500)
    ...     return derived, direct
    >>> derived, direct = both_roads([(1, 0), (1, 2)])
    >>> bool((derived == direct).all())
    True
    >>> derived, direct = both_roads([(0, 1), (0, 2), (1, 2)])
    >>> bool(np.allclose(derived, direct, rtol=0, atol=1e-15))
    True
    """
    reps, se = _many(values, group_keys, root=root, n_resamples=n_resamples, workers=workers,
                     studentized=studentized, pairs=pairs)  # fmt: skip
    reps = np.asarray(reps)
    return (reps, *se) if studentized else reps


def _many(values, group_keys, *, root, n_resamples, workers, studentized, pairs):
    """:func:`mean_replicates_many`, the replicates of comparisons (with ``pairs``) as
    :class:`~pairedstats.core.derived.DerivedReplicates`; and ``(replicate_se,
    estimate_se)`` (with ``studentized``, else None)."""
    labels = [(LABEL, key) for key in group_keys]
    refs = [None if pairs is None else reference_system(pairs, v) for v in values]
    # the reference's centred column is 0: the kernel sums the others
    columns = (list(values) if pairs is None
               else [np.delete(centred_scores(v, r), r, axis=1)
                     for v, r in zip(values, refs, strict=True)])  # fmt: skip
    q = columns[0].shape[1]
    k = q if pairs is None else len(pairs)
    if studentized:
        diffs = values if pairs is None else [pair_differences(v, pairs) for v in values]
        moments = [moment_columns(d - _column_sums(d) / d.shape[0]) for d in diffs]
        columns = [np.column_stack([c, m]) for c, m in zip(columns, moments, strict=True)]
    out = stream_sums(labels, columns, n_resamples, root, workers)
    sizes = np.array([c.shape[0] for c in columns]).astype(np.float64)[:, None, None]
    if studentized:
        var = moment_variance(np.moveaxis(out[:, q:], 1, -1), sizes, k)
        est_var = np.stack([moment_variance(_column_sums(m), m.shape[0], k) for m in moments])
        out = out[:, :q]
    if pairs is None:
        out /= sizes
        fixed = np.stack([np.ptp(v, axis=0) == 0 for v in values])
        reps = out
    else:  # the difference of the sums, then the division
        out = np.stack([_with_reference(out[g, :q], r) for g, r in enumerate(refs)])
        index = np.array(pairs, dtype=np.intp).reshape(-1, 2)
        # degenerate: the differences constant -> the estimate exactly (read on the scores,
        # each comparison up to its first item that differs)
        fixed = np.stack([constant_differences(v, pairs, workers) for v in values])
        value = np.zeros((len(values), k))
        for g in np.flatnonzero(fixed.any(axis=-1)):
            value[g] = np.where(fixed[g], difference_means(values[g], pairs), 0.0)
        reps = DerivedReplicates(((None, out, sizes),), index, fixed, value)
    for g, v in enumerate(values):
        if fixed[g].any() and pairs is None:
            out[g, fixed[g]] = plain_mean(v)[fixed[g], None]
        if studentized:
            var[g, :, fixed[g]], est_var[g, fixed[g]] = 0.0, 0.0
    if not studentized:
        return reps, None
    return reps, (np.moveaxis(np.sqrt(var), -1, 1), np.sqrt(est_var))


def group_replicates(
    group: GroupData,
    *,
    group_key: Hashable,
    root: int,
    n_resamples: int,
    statistic: Callable | None = None,
    resampling: str = "index",
    influence: bool = False,
    studentized: bool = False,
    workers: int | None = None,
    batch_rows: int | None = None,
) -> Replicates:
    """Replicates and estimates of every comparison of one group.

    Parameters
    ----------
    statistic : callable, optional
        Vectorized (``statistic(*columns, axis=-1)``; see :func:`per_resample`); the mean
        when None.
    resampling : {"index", "counts", "auto"}
        "counts" (the mean only) draws each comparison's multinomial counts; any other value
        the shared unit indices (the module docstring).
    influence : bool
        Also compute what BCa needs besides the replicates and their tie errors: the
        jackknife influence values and the acceleration (:func:`acceleration` with the
        group's units per stratum).
    studentized : bool
        Also compute what the studentized (bootstrap-t) interval needs
        (:func:`pairedstats.core.studentized.studentized_interval`): a standard error of
        each replicate, from the same resample, and of the estimate. For the mean, the
        linearization standard error of the (stratified) ratio estimator
        (:func:`~pairedstats.core.studentized.ratio_variance`; ``sd / sqrt(n)`` for items),
        summed by the kernel over the same draws (the replicates are the same bits as
        without it). For ``statistic``, the jackknife of each resample
        (:mod:`pairedstats.core.statistic_jackknife`: about ``0.632 n`` evaluations of the
        statistic per resample and system). Needs the shared unit indices: refused with
        ``resampling="counts"``.

    Returns
    -------
    Replicates
        ``influence`` and ``acceleration`` are None unless asked (``influence``), so are
        ``replicate_se`` and ``estimate_se`` (``studentized``). The tie errors are those of
        :func:`~pairedstats.core.intervals.comparison_tie_errors`: of each comparison's two
        systems' scores, or, with ``statistic``, of the two sides' statistics (each computed
        from one system's scores, with a rounding that follows its own size).

    Examples
    --------
    >>> scores = np.random.default_rng(0).normal(size=(20, 2, 1))
    >>> out = group_replicates(GroupData(scores, [(0, 1)]), group_key="g", root=1,
    ...                        n_resamples=300, studentized=True)
    >>> out.replicate_se.shape, out.estimate_se.shape, out.acceleration
    ((1, 300), (1,), None)
    >>> d = scores[:, 1, 0] - scores[:, 0, 0]
    >>> bool(np.isclose(out.estimate_se[0], d.std(ddof=1) / np.sqrt(20), rtol=1e-13))
    True
    """
    if studentized and resampling == "counts":
        raise ValueError(
            "the studentized interval needs each resample's standard error, from the unit "
            "indices shared by every comparison; resampling='counts' draws counts of "
            "distinct values instead. Use resampling='index' (or 'auto')."
        )
    a_idx = [p[0] for p in group.pairs]
    b_idx = [p[1] for p in group.pairs]
    counts = statistic is None and resampling == "counts"
    if statistic is None:
        reps, estimate, sums, se = _mean_replicates(
            group, group_key, root, n_resamples, resampling, workers, studentized
        )
        means = group.stratified_mean(group.scores[:, :, 0])
        stat_a, stat_b = means[a_idx], means[b_idx]
    else:
        values = statistic_estimates(group, statistic)
        stat_a = np.array([values[a] for a in a_idx])
        stat_b = np.array([values[b] for b in b_idx])
        estimate = stat_b - stat_a
        reps = statistic_replicates(group, statistic, group_key, root, n_resamples, batch_rows)
        se = None
        if studentized:
            se = (
                statistic_replicate_se(group, statistic, group_key, root, n_resamples,
                                       batch_rows),
                statistic_estimate_se(group, statistic),
            )  # fmt: skip
    L = None
    if influence and statistic is None:
        if resampling != "counts":  # each system's, centred: the comparisons' unit sums
            sums = pair_values(sums.T, group.pairs).T
        L = mean_influence(group, sums)
    elif influence:
        L = statistic_influence(group, statistic)
    sides = None if statistic is None else (stat_a, stat_b)
    return Replicates(
        replicates=reps, estimate=estimate, stat_a=stat_a, stat_b=stat_b,
        tie_error=comparison_tie_errors(group.scores[:, :, 0], group.pairs, group.precision,
                                        sides),
        counts_path=np.full(len(group.pairs), counts), influence=L,
        acceleration=None if L is None else acceleration(L, group.strata_sizes),
        replicate_se=None if se is None else se[0], estimate_se=None if se is None else se[1],
    )  # fmt: skip
