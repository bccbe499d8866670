"""Label-keyed Poisson(1) weights: the Poisson bootstrap, each item's weight its own stream.

The Poisson bootstrap (Hanley & MacGibbon 2006; Chamandy, Muralidharan, Najmi & Naidu 2012)
replaces the multinomial counts of a resample of ``n`` items, which tie every item to all
the others, by independent Poisson(1) weights, one per item and resample. A weight is then a
pure function of the item, which is what a table read partition by partition needs: an item
gets the same weights whichever partition, batch or order it comes in, and nothing has to
know how many items there are.

The weight of item ``i`` in resample ``r`` of one call is defined here (version
:data:`POISSON_STREAM_VERSION`; a change of any step below changes the number):

1. The *item key*, 64 bits from the item's label (:func:`item_keys`): an integer label in
   ``[-2**63, 2**63)`` (Python or numpy, bools excluded; a float that is a whole number in
   that range counts as that integer, as in :func:`~pairedstats.core.draws.canonical_bytes`)
   is keyed by the first output of SplitMix64 seeded with its value (two's complement),
   ``mix(value + GAMMA)``; any other label by the first 8 bytes (little end first) of
   ``blake2b(canonical_bytes(label), digest_size=8)``, one hash per distinct label.
2. The *call key* (:func:`call_key`): the first 64-bit word of
   ``SeedSequence(root, spawn_key=label_words(labels)).generate_state(1, uint64)``, ``root``
   the call's root entropy (:func:`~pairedstats.core.draws.root_entropy`) and ``labels`` the
   method and the group's key, as for every other stream of the package.
3. The item's *stream*: SplitMix64 (Steele, Lea & Flood 2014) with the state
   ``mix(item_key ^ call_key)``; output ``r`` (from 0) is ``mix(state + (r + 1) * GAMMA)``,
   so any resample is computed directly, without the ones before it.
4. The *decoding*: a 64-bit output ``u`` gives the number of :data:`THRESHOLDS` at or below
   it, ``THRESHOLDS[w] = floor(F(w) * 2**64)`` with ``F`` the Poisson(1) distribution
   function, ``w = 0 .. 19``. Each weight ``w < 20`` then has exactly the probability
   ``(THRESHOLDS[w] - THRESHOLDS[w - 1]) / 2**64``, within ``2**-64`` of Poisson(1)'s; the
   weight 20 stands for the whole tail ``X >= 20`` (probability ``1.6e-19``), and no weight
   is above 20 (``P(X > 20) = 7.5e-21``, below the resolution ``2**-64 = 5.4e-20``).

``mix`` is SplitMix64's output function (Stafford's "variant 13") and ``GAMMA =
0x9E3779B97F4A7C15``. Two items' streams could overlap only if their states differed by a
multiple of ``GAMMA`` below the number of resamples apart: probability about
``items**2 * resamples / 2**64`` (``5e-3`` for ten million items and 1,000 resamples), and
then two weights of different resamples coincide, nothing more.

References: Hanley, J. A. & MacGibbon, B. (2006), Creating non-parametric bootstrap samples
using Poisson frequencies, *Computer Methods and Programs in Biomedicine* 83(1), 57-62;
Chamandy, N., Muralidharan, O., Najmi, A. & Naidu, S. (2012), Estimating uncertainty for
massive data streams, Google technical report; Steele, G. L., Lea, D. & Flood, C. H. (2014),
Fast splittable pseudorandom number generators, *OOPSLA 2014*, 453-472.

This module imports numpy and the standard library only. The compiled half
(:func:`pairedstats.core.draws.jit.poisson_weights`) draws the same weights in the kernels;
:func:`weights` is their definition in numpy.
"""

from __future__ import annotations

import hashlib
from collections.abc import Hashable, Sequence
from fractions import Fraction

import numpy as np

from . import canonical_bytes, label_words

__all__ = [
    "GAMMA",
    "MAX_WEIGHT",
    "POISSON_STREAM_VERSION",
    "THRESHOLDS",
    "call_key",
    "item_keys",
    "mix",
    "weights",
]

#: Version of the Poisson weights' layout (keys, stream, decoding); results record it.
POISSON_STREAM_VERSION = 1
#: SplitMix64's increment, the odd integer nearest ``2**64`` over the golden ratio.
GAMMA = 0x9E3779B97F4A7C15
_M1, _M2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
_U64 = np.uint64


def _poisson_thresholds(bits: int = 64) -> tuple[int, ...]:
    """``floor(F(w) * 2**bits)`` for the ``w`` whose tail ``1 - F(w)`` is at least
    ``2**-bits``, computed exactly: ``exp(-1)`` from its alternating series, with an error
    bound checked to leave every floor unambiguous."""
    terms = 40
    inv_e = Fraction(0)
    fact = 1
    for j in range(terms):
        fact = fact * j if j else 1
        inv_e += Fraction((-1) ** j, fact)
    err = Fraction(1, fact * terms)  # the next term bounds the error of the series
    scale = 1 << bits
    out, partial, fact = [], Fraction(0), 1
    for w in range(64):
        fact = fact * w if w else 1
        partial += Fraction(1, fact)
        value = inv_e * partial * scale
        lo, hi = (value - err * partial * scale), (value + err * partial * scale)
        if lo // 1 != hi // 1:
            raise ArithmeticError("the series of exp(-1) is too short")  # pragma: no cover
        if scale - value < 1:  # the tail beyond w is below the resolution
            break
        out.append(int(value // 1))
    return tuple(out)


#: ``floor(F(w) * 2**64)`` for ``w = 0 .. 19``, ``F`` the Poisson(1) distribution function:
#: a 64-bit output ``u`` decodes to the weight ``#{w : u >= THRESHOLDS[w]}``.
THRESHOLDS = np.array(_poisson_thresholds(), dtype=np.uint64)
#: The largest weight: it stands for Poisson(1)'s tail from it on.
MAX_WEIGHT = int(THRESHOLDS.size)


def mix(z) -> np.ndarray:
    """SplitMix64's output function on uint64 (an array; multiplication modulo ``2**64``).

    Examples
    --------
    >>> hex(int(mix(np.array([GAMMA], dtype=np.uint64))[0]))  # SplitMix64(0)'s first output
    '0xe220a8397b1dcdaf'
    """
    z = np.array(z, dtype=np.uint64, ndmin=1)
    z = (z ^ (z >> _U64(30))) * _U64(_M1)
    z = (z ^ (z >> _U64(27))) * _U64(_M2)
    return z ^ (z >> _U64(31))


def call_key(root: int, labels: Sequence[Hashable]) -> int:
    """The call key of the weights of the stream named by ``labels`` (step 2).

    Examples
    --------
    >>> call_key(7, ["bootstrap", ()]) == call_key(7, ("bootstrap", ()))
    True
    >>> call_key(7, ["bootstrap", ()]) != call_key(8, ["bootstrap", ()])
    True
    """
    seq = np.random.SeedSequence(int(root), spawn_key=label_words(labels))
    return int(seq.generate_state(1, np.uint64)[0])


def _integer_keys(values: np.ndarray) -> np.ndarray:
    """Step 1 for int64 values: ``mix(value + GAMMA)`` on their two's complement bits."""
    return mix(values.astype(np.int64).view(np.uint64) + _U64(GAMMA))


def _hashed_key(label: Hashable) -> int:
    digest = hashlib.blake2b(canonical_bytes(label), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def _object_keys(labels: np.ndarray) -> np.ndarray:
    """Step 1 label by label, each distinct text or bytes label hashed once."""
    out = np.empty(labels.size, dtype=np.uint64)
    seen: dict = {}
    low, high = -(1 << 63), 1 << 63
    for i, label in enumerate(labels.tolist()):
        if isinstance(label, np.generic):
            label = label.item()
        if isinstance(label, float) and label.is_integer() and low <= label < high:
            label = int(label)
        if isinstance(label, int) and not isinstance(label, bool) and low <= label < high:
            out[i] = _integer_keys(np.array([label]))[0]
        elif type(label) in (str, bytes):  # equal labels of these types encode alike
            key = seen.get(label)
            if key is None:
                key = seen[label] = _hashed_key(label)
            out[i] = key
        else:
            out[i] = _hashed_key(label)
    return out


def item_keys(labels) -> np.ndarray:
    """The 64-bit item keys (step 1) of a sequence of item labels: uint64, one per label.

    Integer arrays are keyed at numpy speed; text arrays hash each distinct label once
    (``numpy.unique``); other labels (a list, an object array) are taken one at a time.

    Examples
    --------
    >>> a = item_keys(np.array([3, 4]))
    >>> b = item_keys([3, np.int64(4)])
    >>> bool((a == b).all()), bool(item_keys(["3"])[0] != a[0])
    (True, True)
    """
    if not isinstance(labels, np.ndarray):
        arr = np.empty(len(labels), dtype=object)
        arr[:] = list(labels)
        labels = arr
    labels = labels.reshape(-1)
    kind = labels.dtype.kind
    if kind == "i" or (kind == "u" and labels.dtype.itemsize < 8):
        return _integer_keys(labels)
    if kind == "u":  # uint64: values from 2**63 on are hashed (no two labels share a key)
        small = labels < _U64(1 << 63)
        out = np.empty(labels.size, dtype=np.uint64)
        out[small] = _integer_keys(labels[small])
        out[~small] = _object_keys(labels[~small].astype(object))
        return out
    if kind in "US":
        uniq, inverse = np.unique(labels, return_inverse=True)
        return _object_keys(uniq.astype(object))[inverse.reshape(-1)]
    if kind == "O":  # Python ints (a design's item labels) keyed at numpy speed
        values = labels.tolist()
        if all(type(v) is int for v in values):
            try:
                return _integer_keys(np.array(values, dtype=np.int64))
            except OverflowError:  # some beyond int64: one at a time
                pass
    return _object_keys(labels.astype(object))


def weights(keys, key: int, n_resamples: int, start: int = 0) -> np.ndarray:
    """The weights (n, B) of items ``keys`` (uint64) in resamples ``start .. start + B - 1``
    of the call ``key``, uint8, all at once: the definition, in numpy (steps 3 and 4).

    Examples
    --------
    >>> w = weights(item_keys(["q1", "q2"]), call_key(7, ["bootstrap", ()]), 5)
    >>> w.shape, w.dtype.name
    ((2, 5), 'uint8')
    >>> bool((weights(item_keys(["q2"]), call_key(7, ["bootstrap", ()]), 3, 2) == w[1:, 2:]).all())
    True
    """
    keys = np.asarray(keys, dtype=np.uint64).reshape(-1)
    state = mix(keys ^ _U64(key))
    steps = (np.arange(start, start + n_resamples, dtype=np.uint64) + _U64(1)) * _U64(GAMMA)
    u = mix(state[:, None] + steps[None, :]).reshape(keys.size, n_resamples)
    return np.searchsorted(THRESHOLDS, u, side="right").astype(np.uint8)
