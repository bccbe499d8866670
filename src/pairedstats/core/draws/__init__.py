"""The one source of random draws: label-keyed streams, bounded integers and unit indices.

Every random number pairedstats draws comes from a stream that is a pure function of

* the *root entropy*, a non-negative integer taken once per call from the user's ``rng``
  (:func:`root_entropy`), and recorded in the result so that the call can be re-run;
* the *labels* of what is being resampled: the method, the group keys of ``by=``, the sweep
  coordinates of an xarray dataset, stratum labels, ... (:func:`label_words`);
* the *block number*: resamples (or trials) are cut into blocks of a fixed size that is part
  of the contract (``BLOCK``; Tukey trials: :func:`pairedstats.core.tukey_mc.trials_per_block`),
  each block with a generator of its own,
  ``SFC64(SeedSequence(root, spawn_key=(*label_words, block)))`` (:func:`block_generator`).

Because nothing depends on the position of a group in the call, on how many other groups or
comparisons there are, on the batch size used to process blocks or on the number of threads,
the numbers of one slice are the same whatever else is computed with it.

:func:`block_seeds` computes the ``SeedSequence`` words of many blocks at once (numpy's
documented algorithm, vectorized over blocks); the compiled kernels set and run the block
generators from them, and decode their 64-bit outputs with one rule, Lemire's
multiply-shift rejection (:mod:`pairedstats.core.draws.jit`):

* *unit indices* (the bootstrap): 16-bit chunks of each word (32-bit chunks above 65,536
  units), lowest first; a chunk ``x`` of width ``w`` gives ``(x * n) >> w`` unless
  ``(x * n) mod 2**w < 2**w mod n`` (rejected);
* *bounded integers* (Tukey trials): the same rule on 32-bit halves, low half first.

``STREAM_VERSION`` names this layout (the generator, the keys, the blocks and the decoding);
results record it, and it changes whenever a change of the layout changes the numbers of a
call. Version 1 drew from ``PCG64``; version 2 draws from ``SFC64`` (Doty-Humphrey's Small
Fast Chaotic generator as numpy implements it: no multiplication per output, where PCG64's
128-bit step needs three), with everything else unchanged.

The Poisson bootstrap's weights are not drawn from blocks: each item has a stream of its own,
keyed by the call and the item's label (:mod:`pairedstats.core.draws.poisson`,
``POISSON_STREAM_VERSION``), so that a table read in partitions needs no positions.

This module imports numpy and the standard library only; :mod:`~pairedstats.core.draws.jit`
(numba) is imported by the kernels, lazily.
"""

from __future__ import annotations

import hashlib
from collections.abc import Hashable, Iterable, Sequence

import numpy as np

__all__ = [
    "BLOCK",
    "STREAM_VERSION",
    "UnitDraws",
    "block_generator",
    "block_seeds",
    "block_slices",
    "canonical_bytes",
    "entropy_prefix",
    "label_words",
    "resample_indices",
    "root_entropy",
]

#: Version of the stream layout (generator, keys, blocks, decoding); results record it.
STREAM_VERSION = 2

#: Number of resamples (or trials) drawn from one block generator. Part of the
#: reproducibility contract: changing it changes the numbers.
BLOCK = 256


def root_entropy(rng) -> int:
    """Turn the user's ``rng`` into the root entropy of all streams of one call.

    Parameters
    ----------
    rng : None, int, sequence of int, numpy.random.SeedSequence, BitGenerator or Generator
        Anything :func:`numpy.random.default_rng` accepts (SPEC 7).

    Returns
    -------
    int
        A non-negative integer. Seed material (an int, a sequence of ints or a
        ``SeedSequence``) maps to the entropy of ``numpy.random.SeedSequence(rng)``, so
        passing the returned value back as ``rng`` re-runs the call exactly. A ``Generator``
        or ``BitGenerator`` is advanced by one draw of 128 bits. ``None`` takes fresh
        entropy from the operating system.

    Examples
    --------
    >>> root_entropy(12345)
    12345
    >>> root_entropy(root_entropy(None)) > 0
    True
    """
    if rng is None:
        return int(np.random.SeedSequence().entropy)
    if isinstance(rng, np.random.SeedSequence):
        if rng.spawn_key:
            # A spawned child: fold its spawn key in so that siblings differ.
            words = rng.generate_state(4, np.uint32)
            return _words_to_int(words)
        return _entropy_to_int(rng.entropy)
    if isinstance(rng, np.random.Generator):
        rng = rng.bit_generator
    if isinstance(rng, np.random.BitGenerator):
        words = np.random.Generator(rng).integers(0, 2**32, size=4, dtype=np.uint64)
        return _words_to_int(words)
    if isinstance(rng, (bool, np.bool_)):
        raise TypeError(f"`rng` must be a seed or a numpy Generator; got {rng!r}.")
    try:
        seq = np.random.SeedSequence(rng)
    except (TypeError, ValueError) as exc:
        raise TypeError(
            "`rng` must be None, a non-negative int, a sequence of such ints, a "
            f"numpy.random.SeedSequence, BitGenerator or Generator; got {rng!r}."
        ) from exc
    return _entropy_to_int(seq.entropy)


def _entropy_to_int(entropy) -> int:
    if isinstance(entropy, (int, np.integer)):
        return int(entropy)
    # a sequence of ints: pack it as SeedSequence does, 32-bit words little end first
    words = np.random.SeedSequence(entropy).generate_state(4, np.uint32)
    return _words_to_int(words)


def _words_to_int(words) -> int:
    value = 0
    for i, w in enumerate(np.asarray(words, dtype=np.uint64).tolist()):
        value |= int(w) << (32 * i)
    return value


def canonical_bytes(label: Hashable) -> bytes:
    """A byte string for a label, stable across processes and numpy versions, and injective.

    Each label is tagged by its kind (``s:`` text, ``i:`` integer, ``f:`` float, ...); the
    elements of a tuple are length-prefixed, so no two distinct tuples share an encoding
    (``("a,s:b", "c")`` and ``("a", "b,s:c")`` differ). Labels of other types carry their
    type's name, so two objects that merely print alike do not collide.
    """
    if isinstance(label, np.generic):
        label = label.item()
    if isinstance(label, tuple):
        parts = (canonical_bytes(x) for x in label)
        return b"(" + b"".join(str(len(p)).encode() + b":" + p for p in parts) + b")"
    if isinstance(label, bool):
        return b"b:" + str(label).encode()
    if isinstance(label, int):
        return b"i:" + str(label).encode()
    if isinstance(label, float):
        if label.is_integer():
            # 1.0 and 1 name the same coordinate in most user data
            return b"i:" + str(int(label)).encode()
        return b"f:" + float(label).hex().encode()
    if isinstance(label, str):
        return b"s:" + label.encode("utf-8", "surrogatepass")
    if isinstance(label, bytes):
        return b"y:" + label
    if label is None:
        return b"n:"
    kind = f"{type(label).__module__}.{type(label).__qualname__}".encode()
    # datetimes, pandas Timestamps, Periods, ...: their ISO text is stable
    iso = getattr(label, "isoformat", None)
    text = str(iso()) if callable(iso) else str(label)
    return b"r:" + str(len(kind)).encode() + b":" + kind + text.encode("utf-8", "surrogatepass")


def label_words(labels: Iterable[Hashable]) -> tuple[int, ...]:
    """Hash a sequence of labels to spawn-key words (one 64-bit word per label).

    Examples
    --------
    >>> label_words(["bootstrap", "dataset-1"]) == label_words(("bootstrap", "dataset-1"))
    True
    >>> label_words([1]) == label_words([1.0]) == label_words([np.int64(1)])
    True
    """
    out = []
    for label in labels:
        digest = hashlib.blake2b(canonical_bytes(label), digest_size=8).digest()
        out.append(int.from_bytes(digest, "little"))
    return tuple(out)


def block_generator(root: int, labels: Sequence[Hashable], block: int) -> np.random.Generator:
    """The generator of block number ``block`` of the stream named by ``labels``.

    Resample ``r`` of a stream is the ``r % BLOCK``-th resample drawn, in order, from block
    ``r // BLOCK``. A method that draws the same amount per resample from the block
    generator therefore gives resample ``r`` the same numbers however the blocks are
    batched, and a shorter final block is the prefix of a full one.
    """
    return _words_generator(root, label_words(labels), block)


def _words_generator(root: int, words: tuple[int, ...], block: int) -> np.random.Generator:
    seq = np.random.SeedSequence(int(root), spawn_key=(*words, int(block)))
    return np.random.Generator(np.random.SFC64(seq))


def _int_words(value: int) -> list[int]:
    """numpy's ``_int_to_uint32_array``: little-endian 32-bit words, ``[0]`` for 0."""
    if value == 0:
        return [0]
    out = []
    while value:
        out.append(value & 0xFFFFFFFF)
        value >>= 32
    return out


def entropy_prefix(root: int, words: tuple[int, ...]) -> np.ndarray:
    """The entropy words of :func:`block_generator`'s seed sequence, but the block number.

    numpy assembles the entropy of ``SeedSequence(root, spawn_key=key)`` as the 32-bit words
    of ``root`` (padded to 4 words when there is a spawn key) followed by those of each key
    word. :func:`block_seeds` appends the block's words.

    Examples
    --------
    >>> entropy_prefix(5, (1, 2**32 + 7)).tolist()
    [5, 0, 0, 0, 1, 7, 1]
    """
    run = _int_words(int(root))
    run += [0] * max(0, 4 - len(run))
    for w in words:
        run += _int_words(int(w))
    return np.array(run, dtype=np.uint32)


#: SeedSequence's hash constants (O'Neill's ``seed_seq_fe``, as numpy uses them).
_INIT_A, _MULT_A, _INIT_B, _MULT_B = 0x43B0D7E5, 0x931E8875, 0x8B51F9DD, 0x58F38DED
_MIX_L, _MIX_R = np.uint32(0xCA01F9DD), np.uint32(0x4973F715)


class _Hash:
    """``hashmix`` of numpy's ``SeedSequence`` on uint32 arrays. Its hash constant moves the
    same way whatever the values, so one instance serves many seed sequences at once."""

    def __init__(self, init: int, mult: int):
        self.constant, self.mult = init, mult

    def __call__(self, value: np.ndarray) -> np.ndarray:
        value = value ^ np.uint32(self.constant)
        self.constant = (self.constant * self.mult) & 0xFFFFFFFF
        value = value * np.uint32(self.constant)
        return value ^ (value >> np.uint32(16))


def _mix(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    r = _MIX_L * x - _MIX_R * y
    return r ^ (r >> np.uint32(16))


def block_seeds(prefixes: np.ndarray, bounds: np.ndarray, streams, blocks) -> np.ndarray:
    """``SeedSequence(entropy).generate_state(4, uint64)`` of many blocks: ``(N, 4)`` uint64.

    Row ``i`` is block ``blocks[i]`` of stream ``streams[i]``, whose entropy prefix is
    ``prefixes[bounds[s]:bounds[s + 1]]`` (:func:`entropy_prefix`); the block number's words
    are appended as numpy appends the last spawn-key word. The pool of 4 words is mixed from
    the entropy and hashed again (O'Neill's ``seed_seq_fe``), each step on all rows of one
    entropy length at once.

    Examples
    --------
    >>> prefix = entropy_prefix(7, label_words(["bootstrap"]))
    >>> words = block_seeds(prefix, np.array([0, prefix.size]), [0], [3])
    >>> seq = np.random.SeedSequence(7, spawn_key=(*label_words(["bootstrap"]), 3))
    >>> bool((words[0] == seq.generate_state(4, np.uint64)).all())
    True
    """
    prefixes = np.asarray(prefixes, dtype=np.uint32)
    bounds = np.asarray(bounds, dtype=np.int64)
    streams = np.asarray(streams, dtype=np.int64).reshape(-1)
    blocks = np.asarray(blocks, dtype=np.uint64).reshape(-1)
    starts, sizes = bounds[streams], (bounds[1:] - bounds[:-1])[streams]
    high = (blocks >> np.uint64(32)).astype(np.uint32)
    lengths = sizes + np.where(high > 0, 2, 1)
    out = np.empty((streams.size, 4), dtype=np.uint64)
    for length in np.unique(lengths).tolist():
        rows = np.flatnonzero(lengths == length)
        n = sizes[rows][:, None]
        cols = np.arange(length)
        words = prefixes[np.minimum(starts[rows][:, None] + cols, max(prefixes.size - 1, 0))]
        words = np.where(cols < n, words, 0)
        words = np.where(cols == n, (blocks[rows] & np.uint64(0xFFFFFFFF))[:, None], words)
        words = np.where(cols == n + 1, high[rows][:, None], words).astype(np.uint32)
        hashmix = _Hash(_INIT_A, _MULT_A)
        zero = np.zeros(rows.size, dtype=np.uint32)
        pool = [hashmix(words[:, i] if i < length else zero) for i in range(4)]
        for src in range(4):
            for dst in range(4):
                if src != dst:
                    pool[dst] = _mix(pool[dst], hashmix(pool[src]))
        for src in range(4, length):
            for dst in range(4):
                pool[dst] = _mix(pool[dst], hashmix(words[:, src]))
        generate = _Hash(_INIT_B, _MULT_B)  # generate_state: 8 words, paired low first
        state = [generate(pool[i % 4]).astype(np.uint64) for i in range(8)]
        for j in range(4):
            out[rows, j] = state[2 * j] | (state[2 * j + 1] << np.uint64(32))
    return out


def block_slices(n: int, start: int = 0) -> list[tuple[int, int, int]]:
    """Blocks ``(block, lo, hi)`` covering resamples ``start`` to ``n``.

    ``lo`` and ``hi`` are resample numbers; ``start`` must be a multiple of ``BLOCK``.

    Examples
    --------
    >>> block_slices(600)
    [(0, 0, 256), (1, 256, 512), (2, 512, 600)]
    """
    if start % BLOCK:
        raise ValueError(f"start must be a multiple of {BLOCK}; got {start}")
    return [
        (b, lo, min(lo + BLOCK, n)) for b, lo in enumerate(range(start, n, BLOCK), start // BLOCK)
    ]


class UnitDraws:
    """The unit indices of one block of one stream, drawn in order.

    Successive :meth:`fill` calls go on where the previous one stopped, so a block's
    resamples are the same however they are cut into batches.

    Parameters
    ----------
    prefix : ndarray of uint32
        :func:`entropy_prefix` of the stream.
    block : int
    n : int
        Units to draw from (and per resample).
    """

    def __init__(self, prefix: np.ndarray, block: int, n: int):
        from . import jit

        if not 1 <= n < (1 << 32):
            raise ValueError(f"the number of resampled units must be in [1, 2**32); got {n}")
        self.n = int(n)
        self.width, self.threshold = jit.unit_rule(self.n)
        self._jit = jit
        self._state = jit.open_stream(prefix, np.uint64(block))

    def fill(self, out: np.ndarray) -> np.ndarray:
        """Fill ``out`` (rows, n) of int64 with the next resamples' unit indices."""
        flat = out.reshape(-1)  # out is C-contiguous: a view
        self._jit.fill_units(self._state, flat, flat.size, self.n, self.width, self.threshold)
        return out


def resample_indices(
    root: int, labels: Sequence[Hashable], n: int, n_resamples: int
) -> np.ndarray:
    """The unit indices of resamples ``0..n_resamples-1`` of the stream ``labels``.

    Resample ``r`` takes the next ``n`` accepted units of block ``r // BLOCK``.

    Examples
    --------
    >>> a = resample_indices(7, ["bootstrap", ()], 4, 600)
    >>> b = resample_indices(7, ["bootstrap", ()], 4, 300)
    >>> bool((a[:300] == b).all()), a.shape
    (True, (600, 4))
    """
    prefix = entropy_prefix(root, label_words(labels))
    out = np.empty((n_resamples, n), dtype=np.int64)
    for block, lo, hi in block_slices(n_resamples):
        UnitDraws(prefix, block, n).fill(out[lo:hi])
    return out
