"""Designs reduced to sums: what the streaming road keeps of each group's items.

The bootstrap of means with Poisson weights (:mod:`pairedstats.core.streaming`) needs of a
group's items x systems table only sums: per resample and system, the weighted sum of the
scores and of the weights. What a bootstrap result reports beside its intervals reduces to
sums too: the point estimates (the plain sums), the win/tie/loss counts (integers), Cohen's
``d_z`` (the sums of each comparison's differences and of their squares), the tie rule's
magnitudes (each system's largest ``|x|`` and whether its scores are all integers: a maximum
and a logical and) and whether scores are 0/1. :class:`GroupSums` holds them for one group's
rows, from any slice of its items, and adds two slices of disjoint items
(:meth:`GroupSums.merge`); :class:`SummedDesign` is a design made of them, one per group,
which the bootstrap reads in place of a :class:`~pairedstats.core.design.PairedDesign`.

A table larger than memory is reduced slice by slice, each slice holding whole items (every
score of an item: the win/tie/loss counts and the differences need an item's scores
together), and the slices' sums are merged; a table in memory is one slice. The weights are
keyed by the item labels, so the numbers do not depend on how the items are sliced (up to
the compensated sums' rare last bit: :mod:`pairedstats.core.streaming`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from .bootstrap import Replicates
from .draws.poisson import item_keys
from .effects import PairedEffects, paired_effects, standardized
from .intervals import magnitude_tie_errors, system_magnitudes
from .streaming import PoissonTallies, compensated_sums, merge_compensated, poisson_means
from .ties import magnitude_difference_error

__all__ = [
    "GroupSums",
    "OutcomeSums",
    "SummedDesign",
    "merge_summed",
    "oriented",
    "summed_design",
    "summed_effects",
    "summed_reference",
    "summed_replicates",
    "summed_tie_error",
]

#: The name that keys the Poisson weights' streams (with the group's key).
STREAM = "bootstrap-poisson"
#: Bytes of the differences held at once (a batch of items x comparisons).
ROW_BYTES = 2**22


@dataclass(frozen=True, eq=False)
class GroupSums:
    """The sums of one group's items (a slice of them, or all).

    Attributes
    ----------
    tallies : PoissonTallies
        The Poisson bootstrap's per-system sums of every resample, and the plain sums.
    n_items, n_dropped : int
        The items summed, and those ``missing="complete"`` dropped.
    largest : ndarray, shape (k,)
        Each system's largest ``|score|`` (0 without items).
    whole, binary : ndarray of bool, shape (k,)
        Whether each system's scores are all integers, all 0 or 1.
    signs : ndarray of int64, shape (3, P)
        Each comparison's wins, ties and losses (:func:`~pairedstats.core.effects.paired_effects`).
    moments : ndarray, shape (2, 2 * P)
        Compensated sums (running sums, their errors) of each comparison's differences
        ``b - a`` (the first ``P``) and of their squares.
    """

    tallies: PoissonTallies
    n_items: int
    n_dropped: int
    largest: np.ndarray
    whole: np.ndarray
    binary: np.ndarray
    signs: np.ndarray
    moments: np.ndarray

    @classmethod
    def of(cls, scores, items, pairs: Sequence[tuple[int, int]], *, key: int,
           n_resamples: int, precision: float = 2.0**-53, n_dropped: int = 0,
           workers: int | None = 1) -> GroupSums:  # fmt: skip
        """The sums of the items ``items`` (labels) whose scores are ``scores`` (n, k),
        finite, for the comparisons ``pairs`` and the Poisson weights of the call key
        ``key`` (:func:`pairedstats.core.draws.poisson.call_key`).

        Examples
        --------
        >>> x = np.array([[0.2, 0.5], [0.4, 0.4], [0.1, 0.6]])
        >>> s = GroupSums.of(x, ["q1", "q2", "q3"], [(0, 1)], key=7, n_resamples=4)
        >>> s.n_items, s.signs[:, 0].tolist()
        (3, [2, 1, 0])
        """
        x = np.asarray(scores, dtype=np.float64)
        n, k = x.shape
        tallies = PoissonTallies(key, np.zeros((3, k, n_resamples)), np.zeros((2, k)),
                                 np.zeros(k, dtype=np.int64))  # fmt: skip
        tallies.add(np.repeat(item_keys(items), k), np.tile(np.arange(k), n), x.reshape(-1),
                    workers=workers)  # fmt: skip
        a, b = (np.array([p[i] for p in pairs], dtype=np.intp) for i in (0, 1))
        moments = np.zeros((2, 2 * len(pairs)))
        first, second = moments[:, : len(pairs)], moments[:, len(pairs) :]
        step = max(1, ROW_BYTES // (8 * max(1, len(pairs))))
        for lo in range(0, n, step):  # the differences of a batch of items at a time
            d = x[lo : lo + step, b] - x[lo : lo + step, a]
            compensated_sums(d, out=first)  # in place: views of ``moments``
            compensated_sums(d * d, out=second)
        effects = paired_effects(x, pairs, precision) if n else None
        signs = (np.zeros((3, len(pairs)), dtype=np.int64) if effects is None else
                 np.stack([effects.wins, effects.ties, effects.losses]))  # fmt: skip
        largest, whole = system_magnitudes(x)
        binary = ((x == 0.0) | (x == 1.0)).all(axis=0)
        return cls(tallies, n, int(n_dropped), largest, whole, binary, signs, moments)

    def merge(self, other: GroupSums) -> GroupSums:
        """The sums of the items of both (disjoint slices of one group)."""
        return GroupSums(
            self.tallies.merge(other.tallies), self.n_items + other.n_items,
            self.n_dropped + other.n_dropped, np.maximum(self.largest, other.largest),
            self.whole & other.whole, self.binary & other.binary, self.signs + other.signs,
            merge_compensated(self.moments, other.moments),
        )  # fmt: skip


@dataclass(frozen=True, kw_only=True)
class SummedDesign:
    """A design of summed groups: a :class:`~pairedstats.core.design.PairedDesign`'s labels,
    and per group its :class:`GroupSums` instead of its scores (one score column, no
    clusters, strata, replicates or repetitions).

    Attributes
    ----------
    groups : tuple of GroupSums
        One per group, in the order of ``group_keys``.
    systems, columns, group_names, group_keys, precision, missing, stream_prefix
        As in :class:`~pairedstats.core.design.PairedDesign`.
    pairs : tuple of (int, int)
        The comparisons the sums were made for.
    """

    groups: tuple
    systems: tuple
    pairs: tuple
    columns: tuple = ("score",)
    group_names: tuple = ()
    group_keys: tuple = ((),)
    precision: float = 2.0**-53
    missing: str = "raise"
    stream_prefix: tuple = ()
    cluster = strata = replicates = repeat = None

    @property
    def n_groups(self) -> int:
        return len(self.groups)

    @property
    def n_systems(self) -> int:
        return len(self.systems)

    @classmethod
    def like(cls, design, groups: Sequence, pairs: Sequence = ()) -> SummedDesign:
        """The summed design of ``groups`` (one per group of ``design``, a
        :class:`~pairedstats.core.design.PairedDesign`), with ``design``'s labels."""
        return cls(
            groups=tuple(groups), systems=tuple(design.systems), pairs=tuple(map(tuple, pairs)),
            columns=tuple(design.columns), group_names=tuple(design.group_names),
            group_keys=tuple(map(tuple, design.group_keys)), precision=design.precision,
            missing=design.missing, stream_prefix=tuple(design.stream_prefix),
        )  # fmt: skip

    def stream_key(self, g: int) -> tuple:
        """The labels that key group ``g``'s random streams: prefix and group key."""
        return self.stream_prefix + tuple(self.group_keys[g])

    def n_items(self) -> np.ndarray:
        """Items per group."""
        return np.array([s.n_items for s in self.groups], dtype=np.int64)

    def n_dropped(self) -> np.ndarray:
        """Items dropped per group."""
        return np.array([s.n_dropped for s in self.groups], dtype=np.int64)


def merge_summed(
    parts: Sequence[SummedDesign], keys: Sequence[tuple] | None = None
) -> SummedDesign:
    """The design of the items of all ``parts`` (the sums of disjoint items of one call),
    its groups in the order of ``keys`` (default: their order of first appearance in the
    parts); a group's sums are merged in the parts' order.

    Examples
    --------
    >>> from pairedstats.core.design import PairedDesign
    >>> def design(rows, items):
    ...     return PairedDesign(scores=np.array(rows, dtype=float)[:, :, None],
    ...                         systems=("b", "a"), offsets=np.array([0, len(rows)]),
    ...                         items=np.array(items))
    >>> one = summed_design(design([[1, 2], [3, 5]], [7, 8]), [(0, 1)], root=1, n_resamples=3)
    >>> two = summed_design(design([[2, 2]], [9]), [(0, 1)], root=1, n_resamples=3)
    >>> whole = summed_design(design([[1, 2], [3, 5], [2, 2]], [7, 8, 9]), [(0, 1)], root=1,
    ...                       n_resamples=3)
    >>> merged = merge_summed([one, two])
    >>> bool((merged.groups[0].tallies.sums == whole.groups[0].tallies.sums).all())
    True
    """
    first = parts[0]
    found: dict[tuple, GroupSums] = {}
    for part in parts:
        if (part.systems, part.pairs) != (first.systems, first.pairs):
            raise ValueError("only sums of the same systems and comparisons can be merged")
        for key, sums in zip(part.group_keys, part.groups, strict=True):
            found[key] = found[key].merge(sums) if key in found else sums
    keys = list(found) if keys is None else [tuple(k) for k in keys if tuple(k) in found]
    return replace(first, groups=tuple(found[k] for k in keys), group_keys=tuple(keys),
                   precision=max(p.precision for p in parts))  # fmt: skip


def summed_design(design, pairs: Sequence[tuple[int, int]], *, root: int, n_resamples: int,
                  workers: int | None = 1) -> SummedDesign:  # fmt: skip
    """The :class:`SummedDesign` of a :class:`~pairedstats.core.design.PairedDesign` (one
    score column) for the comparisons ``pairs``, the Poisson weights of each group keyed by
    ``root`` (the call's root entropy) and the group's key.

    Examples
    --------
    >>> from pairedstats.core.design import PairedDesign
    >>> d = PairedDesign(scores=np.array([[[0.2], [0.5]], [[0.4], [0.4]], [[0.1], [0.6]]]),
    ...                  systems=("b", "a"), offsets=np.array([0, 3]), items=np.arange(3))
    >>> summed_design(d, [(0, 1)], root=1, n_resamples=5).n_items().tolist()
    [3]
    """
    from .draws.poisson import call_key

    groups = []
    dropped = design.n_dropped()
    for g in range(design.n_groups):
        rows = design.group(g)
        groups.append(GroupSums.of(
            design.scores[rows, :, 0], np.asarray(design.items)[rows], pairs,
            key=call_key(root, [STREAM, design.stream_key(g)]), n_resamples=n_resamples,
            precision=design.precision, n_dropped=int(dropped[g]), workers=workers,
        ))  # fmt: skip
    return SummedDesign.like(design, groups, pairs)


@dataclass(frozen=True, eq=False)
class OutcomeSums:
    """The sums of one group's pass/fail outcomes (a slice of its items, or all): ``X^T X``
    of the items x systems outcomes (int64, :func:`~pairedstats.core.mcnemar_pairs.
    outcome_products`: each system's passes on the diagonal, the items two systems both
    pass off it), exact in any order of adding; the items summed and those dropped."""

    products: np.ndarray
    n_items: int
    n_dropped: int

    def merge(self, other: OutcomeSums) -> OutcomeSums:
        """The sums of the items of both (disjoint slices of one group)."""
        return OutcomeSums(self.products + other.products, self.n_items + other.n_items,
                           self.n_dropped + other.n_dropped)  # fmt: skip


def summed_replicates(sums: GroupSums, pairs, precision: float = 2.0**-53) -> Replicates:
    """The bootstrap replicates of ``b - a`` of each comparison from a group's sums: each
    resample's ratio means (:func:`~pairedstats.core.streaming.poisson_means`), subtracted;
    the estimates are the differences of the plain means.

    Examples
    --------
    >>> x = np.array([[0.2, 0.5], [0.4, 0.4], [0.1, 0.6], [0.3, 0.2]])
    >>> s = GroupSums.of(x, ["q1", "q2", "q3", "q4"], [(0, 1)], key=7, n_resamples=6)
    >>> reps = summed_replicates(s, [(0, 1)])
    >>> reps.replicates.shape, round(float(reps.estimate[0]), 12)
    ((1, 6), 0.175)
    """
    means, estimates = poisson_means(sums.tallies)
    a, b = (np.array([p[i] for p in pairs], dtype=np.intp) for i in (0, 1))
    return Replicates(
        replicates=np.ascontiguousarray((means[:, b] - means[:, a]).T),
        estimate=estimates[b] - estimates[a], stat_a=estimates[a], stat_b=estimates[b],
        tie_error=magnitude_tie_errors(sums.largest, sums.whole, pairs, precision),
        counts_path=np.zeros(len(pairs), dtype=bool),
    )  # fmt: skip


def summed_reference(sums: GroupSums) -> int:
    """The system the others are centred on from a group's sums: the one whose squared mean
    is the smallest (the first in the call among those tied), which neither the labels, nor
    the order of the systems, nor negating the scores change (as
    :func:`~pairedstats.core.groups.reference_system` on the scores).

    Examples
    --------
    >>> x = np.array([[0.5, -0.2, 0.3], [0.1, 0.1, 0.3]])
    >>> summed_reference(GroupSums.of(x, [1, 2], [(0, 1)], key=1, n_resamples=2))
    1
    """
    totals = sums.tallies.totals[0] + sums.tallies.totals[1]
    return int(np.argmin((totals / max(sums.n_items, 1)) ** 2))


def summed_tie_error(sums: GroupSums, precision: float = 2.0**-53) -> float:
    """:func:`~pairedstats.core.ties.tie_error` of a group's scores from its sums: each
    system's largest magnitude and whether its scores are all integers.

    Examples
    --------
    >>> from pairedstats.core.ties import tie_error
    >>> x = np.array([[0.5, -0.7], [0.1, 0.2]])
    >>> s = GroupSums.of(x, [1, 2], [(0, 1)], key=1, n_resamples=2)
    >>> summed_tie_error(s) == tie_error(x)
    True
    """
    largest = float(sums.largest.max(initial=0.0))
    return 2.0 * magnitude_difference_error(largest, bool(sums.whole.all()), precision)


def oriented(stored: Sequence[tuple[int, int]], pairs) -> tuple[np.ndarray, np.ndarray]:
    """Where each comparison ``(a, b)`` of ``pairs`` is among the comparisons ``stored``
    (the sums' order), and whether it is stored the other way, ``(b, a)``.

    Examples
    --------
    >>> at, flip = oriented([(0, 1), (0, 2), (1, 2)], [(1, 0), (1, 2)])
    >>> at.tolist(), flip.tolist()
    ([0, 2], [True, False])
    """
    have = np.asarray(stored, dtype=np.int64).reshape(-1, 2)
    want = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    width = int(max(have.max(initial=0), want.max(initial=0))) + 1
    codes = have[:, 0] * width + have[:, 1]  # one integer per ordered pair
    order = np.argsort(codes, kind="stable")
    at, flip = np.empty(len(want), dtype=np.intp), np.zeros(len(want), dtype=bool)
    found = np.zeros(len(want), dtype=bool)
    for reverse in (True, False):  # a pair stored both ways is read forwards
        a, b = (want[:, 1], want[:, 0]) if reverse else (want[:, 0], want[:, 1])
        wanted = a * width + b
        place = np.minimum(np.searchsorted(codes[order], wanted), max(len(codes) - 1, 0))
        hit = codes[order][place] == wanted if len(codes) else np.zeros(len(want), bool)
        at[hit], flip[hit] = order[place[hit]], reverse
        found |= hit
    if not found.all():
        a, b = (int(v) for v in want[np.argmin(found)])
        raise ValueError(f"no sums of the comparison {(a, b)}: they were made for {stored}")
    return at, flip


def summed_effects(sums: GroupSums, pairs, precision: float = 2.0**-53,
                   stored=None) -> PairedEffects:  # fmt: skip
    """Each comparison's ``d_z`` and win/tie/loss counts from a group's sums: the rules of
    :func:`~pairedstats.core.effects.paired_effects`, the mean and the sum of squared
    deviations from the sums of the differences and of their squares (which loses digits
    when the mean difference is many times its standard deviation: ``d_z`` keeps about
    ``16 - 2 log10 |d_z|`` digits).

    Examples
    --------
    >>> x = np.array([[0.2, 0.5], [0.4, 0.4], [0.1, 0.6], [0.3, 0.2]])
    >>> s = GroupSums.of(x, ["q1", "q2", "q3", "q4"], [(0, 1)], key=7, n_resamples=2)
    >>> d = x[:, 1] - x[:, 0]
    >>> bool(np.isclose(summed_effects(s, [(0, 1)]).effect_size[0], d.mean() / d.std(ddof=1)))
    True
    """
    n = sums.n_items
    at, flip = oriented(pairs if stored is None else stored, pairs)
    tol = magnitude_tie_errors(sums.largest, sums.whole, pairs, precision)
    total = sums.moments[0] + sums.moments[1]
    first, second = np.where(flip, -total[at], total[at]), total[total.size // 2 + at]
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = first / n
        effect = standardized(mean, np.maximum(second - first * mean, 0.0), n, tol)
    wins, ties, losses = sums.signs[:, at]
    wins, losses = np.where(flip, losses, wins), np.where(flip, wins, losses)
    return PairedEffects(effect_size=effect, wins=wins, ties=ties, losses=losses)
