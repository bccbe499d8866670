"""Monte Carlo counting of the randomized Tukey HSD: the trials' layout and the batch runner.

A *trial* arranges the scores of every item at random (each of the ``k!`` within-item
arrangements equally likely) and records a statistic of the system sums: their range (all
pairs) or their largest distance from a baseline's sum (many-vs-one); a pair counts the
trials whose statistic reaches its threshold (:class:`pairedstats.core.tukey.TukeyGroup`).
Both statistics come from the same trials: the draws do not depend on the statistic.

Draws (part of the stream layout, :data:`pairedstats.core.draws.STREAM_VERSION`): trials are
cut into blocks of :func:`trials_per_block` trials, each block with its own generator of the
stream ``("tukey_hsd", group key)``; a trial takes the next draws of its block, bounded
integers of the 32-bit rule of :mod:`pairedstats.core.draws`. Which arrangement a trial's
draws give follows one of two layouts, chosen from the design's shape alone
(:func:`arrangement_layout`), never from the memory or the speed of a kernel:

* *table* (``n_items <= TABLE_MAX_ITEMS[k]``): a draw in ``[0, k! ** digits)`` holds the
  arrangement numbers of ``digits`` consecutive items, lowest digit first
  (:func:`table_params`);
* *shuffle* (otherwise): per item, the digits of a Fisher-Yates shuffle with radices
  ``k, ..., 2``, cut into chunks whose product fits ``2**31``, each chunk drawn from a stream
  of its own (the labels' words and the chunk number; :func:`shuffle_params`).

:class:`MonteCarloBatch` counts all Monte Carlo groups of a call (``by=`` groups, sweep cells)
in a few compiled calls per worker (:mod:`pairedstats.core.kernels`). ``tests/core`` checks the
kernels against the numpy reference engine (``tests/core/reference_engine.py``).
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np

from .draws import BLOCK, block_seeds, entropy_prefix, label_words
from .kernels import Groups, ShuffleLayout, Streams, TableLayout, offsets
from .parallel import default_workers, n_parts, run_queued, scratch_array

__all__ = [
    "DRAW_LIMIT",
    "TABLE_MAX_ITEMS",
    "MonteCarloBatch",
    "arrangement_layout",
    "count_trials",
    "permutations",
    "shuffle_params",
    "table_params",
    "trials_per_block",
]

#: Largest number of items of a design with ``k`` systems whose trials use the table layout
#: (``n * k! * (2, 4 or 6) <= 2**22``); more items, or more than 6 systems: the shuffle
#: layout. Part of the stream layout: changing it changes the numbers.
TABLE_MAX_ITEMS = {1: 2_097_152, 2: 1_048_576, 3: 174_762, 4: 43_690, 5: 5_825, 6: 970}
#: Bound of one draw: arrangement numbers (or shuffle digits) are packed below it.
DRAW_LIMIT = 2**31


def arrangement_layout(n: int, k: int) -> str:
    """``"table"`` or ``"shuffle"``: the layout of the trials of ``n`` items x ``k`` systems.

    Examples
    --------
    >>> arrangement_layout(970, 6), arrangement_layout(971, 6), arrangement_layout(5, 7)
    ('table', 'shuffle', 'shuffle')
    """
    return "table" if n <= TABLE_MAX_ITEMS.get(k, -1) else "shuffle"


def trials_per_block(n_draws: int) -> int:
    """Trials per block generator: about 2**20 draws, 256 to 8192 trials, a power of two.

    Part of the stream layout (with the draws per trial, it depends only on the numbers of
    items and systems).

    Examples
    --------
    >>> trials_per_block(1), trials_per_block(50), trials_per_block(10_000)
    (8192, 8192, 256)
    """
    size = BLOCK
    while size < 8192 and 2 * size * n_draws <= 2**20:
        size *= 2
    return size


@functools.lru_cache(maxsize=16)
def permutations(k: int) -> np.ndarray:
    """The ``k!`` arrangements of ``k`` systems, in ``itertools.permutations`` order."""
    out = np.array(list(itertools.permutations(range(k))), dtype=np.intp)
    out.flags.writeable = False
    return out


def table_params(n: int, k: int) -> tuple[int, int, int, int]:
    """``(digits, high, magic, shift)`` of the table layout of ``n`` items x ``k`` systems.

    A draw in ``[0, high)``, ``high = k! ** digits``, picks the arrangements of ``digits``
    items, lowest digit first; ``v // k! == (v * magic) >> shift`` for every draw.

    Examples
    --------
    >>> table_params(50, 5)
    (4, 207360000, 286331154, 35)
    """
    fact = math.factorial(k)
    digits = 1
    while fact ** (digits + 1) <= DRAW_LIMIT and digits < n:
        digits += 1
    high = fact**digits
    bits = max(1, math.ceil(math.log2(high)))
    shift = bits + max(1, math.ceil(math.log2(fact)))
    return digits, high, -(-(2**shift) // fact), shift


@functools.lru_cache(maxsize=16)
def shuffle_params(k: int) -> ShuffleLayout:
    """Fisher-Yates digits: radices ``k, ..., 2`` cut into chunks whose product fits a draw."""
    radices = np.arange(k, 1, -1, dtype=np.int64)
    ends, highs, product = [], [], 1
    for j, r in enumerate(radices.tolist()):
        if product * r > DRAW_LIMIT:
            ends.append(j)
            highs.append(product)
            product = 1
        product *= r
    ends.append(len(radices))
    highs.append(product)
    out = ShuffleLayout(
        radices=radices,
        magics=np.array([_magic(r)[0] for r in radices.tolist()], dtype=np.int64),
        shifts=np.array([_magic(r)[1] for r in radices.tolist()], dtype=np.int64),
        chunk_ends=np.array(ends, dtype=np.int64),
        chunk_highs=np.array(highs, dtype=np.int64),
    )
    for value in out:
        value.flags.writeable = False  # shared by every caller (cached)
    return out


def _magic(divisor: int, bits: int = 31) -> tuple[int, int]:
    """``(magic, shift)`` with ``v // divisor == (v * magic) >> shift`` for ``0 <= v < 2**bits``.

    With ``shift = bits + ceil(log2 divisor)`` and ``magic = ceil(2**shift / divisor)`` the
    error ``e = magic * divisor - 2**shift`` is below ``divisor``, so ``v * e < 2**shift``
    and the floor is exact; ``v * magic < 2**63`` fits an int64.
    """
    shift = bits + max(1, math.ceil(math.log2(divisor)))
    return -(-(2**shift) // divisor), shift


def draws_per_trial(n: int, k: int) -> int:
    """Bounded integers one trial draws (per chunk stream, for the shuffle layout: ``n``)."""
    if arrangement_layout(n, k) == "table":
        return -(-n // table_params(n, k)[0])
    return n * len(shuffle_params(k).chunk_highs)


class MonteCarloBatch:
    """Counts of trials whose statistic reaches each pair's difference, many groups at once.

    Group ``g`` draws its trials from the stream of ``root`` and ``labels[g]``, so its counts
    do not depend on the other groups, on the split of the trials into calls or on the
    number of workers. All groups of a layout and working dtype are counted by compiled calls
    over shares of their (group, block) tasks, up to
    :data:`~pairedstats.core.parallel.PARTS_PER_WORKER` per worker, taken by the threads in
    turn
    (:func:`pairedstats.core.kernels.tukey_table.table_counts`,
    :func:`~pairedstats.core.kernels.tukey_shuffle.shuffle_counts`).

    """

    def __init__(self, groups, root: int, labels):
        self.n_groups = len(groups)
        self.n_pairs = len(groups[0].thresholds) if groups else 0
        self._fused: list[dict] = []
        self._sizes = [BLOCK]
        members: dict[tuple, list] = {}
        for g, (group, lab) in enumerate(zip(groups, labels, strict=True)):
            kind = arrangement_layout(group.n_items, group.k)
            size = trials_per_block(draws_per_trial(group.n_items, group.k))
            self._sizes.append(size)
            key = (kind, group.values.dtype.kind)  # one batch per layout and working dtype
            members.setdefault(key, []).append((g, group, lab, size))
        for (kind, _), rows in members.items():
            self._fused.append(
                {
                    "kind": kind,
                    "index": np.array([g for g, *_ in rows], dtype=np.intp),
                    "n_items": np.array([row[1].n_items for row in rows], dtype=np.int64),
                    "sizes": np.array([row[3] for row in rows], dtype=np.int64),
                    "args": _kernel_args(kind, root, rows),
                }
            )

    def block_size(self) -> int:
        """The largest number of trials per block of the groups."""
        return max(self._sizes)

    def count(self, lo: int, hi: int, workers: int = 1) -> np.ndarray:
        """Counts ``(n_groups, n_pairs)`` over trials ``lo`` (inclusive) to ``hi``."""
        out = np.zeros((self.n_groups, self.n_pairs), dtype=np.int64)
        for batch in self._fused:
            # beyond one part per thread, no more parts than blocks (a part that splits a
            # block skips the draws of its first trials)
            blocks = int((-(-hi // batch["sizes"]) - lo // batch["sizes"]).sum())
            parts = n_parts((hi - lo) * int(batch["n_items"].sum()), workers, units=blocks)
            calls = [
                (t, scratch_array((len(t), self.n_pairs), np.int64, zeros=True))
                for t in _balanced_tasks(batch, lo, hi, parts)
            ]
            run_queued([functools.partial(_count_part, batch, t, c) for t, c in calls], workers)
            for t, c in calls:
                np.add.at(out, batch["index"][t[:, 0]], c)
        return out


def _count_part(batch: dict, tasks: np.ndarray, out: np.ndarray) -> None:
    """One worker's kernel call: ``out`` (tasks, pairs) counted over ``tasks``."""
    kernel, scratch = _kernel(batch["kind"])
    streams, groups, layout = batch["args"]
    chunks = 1 if batch["kind"] == "table" else len(layout.chunk_highs)
    seeds = task_seeds(streams, groups, tasks, chunks)
    kernel(seeds, groups, layout, tasks, out, *scratch(groups, layout, tasks))


def task_seeds(streams: Streams, groups: Groups, tasks: np.ndarray, chunks: int) -> np.ndarray:
    """The seed words of each task's block (:func:`pairedstats.core.draws.block_seeds`),
    ``(tasks, chunks, 4)``: group ``g`` has ``chunks`` streams, ``g * chunks + c`` (one for
    the table layout, one per chunk of radices for Fisher-Yates)."""
    g = tasks[:, 0]
    blocks = tasks[:, 1] // groups.block_sizes[g]
    stream = (g[:, None] * chunks + np.arange(chunks)).reshape(-1)
    words = block_seeds(streams.prefixes, streams.bounds, stream, np.repeat(blocks, chunks))
    return words.reshape(len(tasks), chunks, 4)


def _kernel(kind: str):
    """The kernel of a layout and the function of its scratch arrays,
    ``scratch(groups, layout, tasks)``."""
    if kind == "table":
        from .kernels import tukey_table as kernels

        return kernels.table_counts, kernels.scratch
    from .kernels import tukey_shuffle as kernels

    return kernels.shuffle_counts, kernels.scratch


def _balanced_tasks(batch: dict, lo: int, hi: int, parts: int) -> list[np.ndarray]:
    """The (group, first trial, end) tasks of trials ``lo:hi``, cut into ``parts`` parts.

    A task lies within one block of its group. The parts carry equal work (trials times
    items), a task being split at the trial where a cut falls: its second part then skips
    the draws of the first (about a tenth of the cost of counting them).
    """
    rows = []
    for g, (n, size) in enumerate(zip(batch["n_items"].tolist(), batch["sizes"].tolist())):
        for block in range(lo // size, -(-hi // size)):
            rows.append((g, max(lo, block * size), min(hi, (block + 1) * size), n))
    total = sum((z - a) * n for _, a, z, n in rows)
    out, current, p, done = [], [], 1, 0
    for g, a, z, n in rows:
        while p < parts and done + (z - a) * n > total * p // parts:
            cut = min(z, a + -(-(total * p // parts - done) // n))  # next part's first trial
            if cut > a:
                current.append((g, a, cut))
                done += (cut - a) * n
                a = cut
            out.append(current)
            current, p = [], p + 1
        if z > a:
            current.append((g, a, z))
            done += (z - a) * n
    out.append(current)
    return [np.array(c, dtype=np.int64) for c in out if c]


def _kernel_args(kind: str, root: int, rows) -> tuple:
    """``(streams, groups, layout)`` of a batch's kernel."""
    groups = [row[1] for row in rows]
    k = groups[0].k
    if kind == "table":
        words = [label_words(lab) for _, _, lab, _ in rows]
        params = np.array([table_params(grp.n_items, k) for grp in groups], dtype=np.int64)
        layout = TableLayout(permutations(k).astype(np.int64), *params.T.copy())
    else:
        layout = shuffle_params(k)
        chunks = range(len(layout.chunk_highs))
        words = [(*label_words(lab), c) for _, _, lab, _ in rows for c in chunks]
    prefixes = [entropy_prefix(root, w) for w in words]
    streams = Streams(np.concatenate(prefixes), offsets([len(p) for p in prefixes]))
    data = Groups(
        values=np.ascontiguousarray(np.concatenate([grp.values for grp in groups])),
        item_bounds=offsets([grp.n_items for grp in groups]),
        thresholds=np.stack([grp.thresholds for grp in groups]),
        block_sizes=np.array([row[3] for row in rows], dtype=np.int64),
        bases=np.array([-1 if grp.base is None else grp.base for grp in groups], dtype=np.int64),
    )
    return streams, data, layout


def count_trials(group, root: int, labels, lo: int, hi: int, *, workers=None) -> np.ndarray:
    """Per pair, the number of trials ``lo <= r < hi`` whose statistic reaches the threshold.

    Examples
    --------
    >>> from pairedstats.core.tukey import prepare_group
    >>> g = prepare_group(np.array([[1.0, 2.0], [1.0, 3.0], [5.0, 6.0]]), [(0, 1)])
    >>> int(count_trials(g, 1, ["tukey_hsd"], 0, 4000)[0])  # about a quarter of 4000
    1035
    """
    batch = MonteCarloBatch([group], root, [labels])
    return batch.count(lo, hi, default_workers(workers))[0]
