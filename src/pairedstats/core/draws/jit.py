"""The compiled half of :mod:`pairedstats.core.draws`: block generators and the one decoder.

A block's generator is ``SFC64(SeedSequence(root, spawn_key=(*label_words, block)))``.
Making one from Python costs about 25 us, so the kernels run the generators themselves:
:func:`pairedstats.core.draws.block_seeds` computes the ``SeedSequence`` words of many blocks
at once with numpy, and :func:`start_stream` sets ``SFC64`` from them as numpy's
``sfc64_set_seed`` does (three words and a counter of 1, then twelve outputs discarded).
An output is ``a + b + counter``, the next state ``(b ^ (b >> 11), c + (c << 3),
rotl(c, 24) + output, counter + 1)``: additions, shifts and a rotation, no multiplication
(so the only multiplications of a draw are those of the decoder). Seeding outside the
kernels keeps what numba compiles on a first call small.

A *stream state* is a uint64 array of ``STATE_WORDS`` (6) words: the generator (``a, b, c``
and the counter) and the decoder's carry (``WORD``, the current output, and ``LEFT``, how
many of its chunks are still unused), so that a block can be drawn in several calls with the
same numbers. No compiled function here allocates (each allocation would be one more
function to compile).

Every bounded draw follows Lemire's multiply-shift rejection (:func:`_accept`): a chunk
``x`` of ``width`` bits gives ``(x * n) >> width`` unless ``(x * n) mod 2**width < threshold``
(``threshold = 2**width mod n``). :func:`fill_units` lays the draws out contiguously (unit
indices of the bootstrap; 16- or 32-bit chunks), :func:`sum_units` consumes the same draws
without a buffer of indices, adding up the values they pick (one column: no buffer to write
and read again), in blocks summed as if no chunk were rejected and summed again by the rule
when one was. The Tukey kernels draw 32-bit chunks: :func:`fill_rows` lays them out in rows,
:func:`next_bounded` hands them over one at a time.

The Poisson bootstrap's weights (:mod:`pairedstats.core.draws.poisson`, which defines them
in numpy) are not drawn from block generators: each item's stream is SplitMix64 from its own
state (:func:`poisson_state`), read at any resample directly (:func:`poisson_weight`); the
decoding table is an argument (``THRESHOLDS``), so that it is defined once.

``tests/core/test_draws.py`` checks states and outputs against numpy itself and the decoders
against the numpy reference engine (``tests/core/reference_engine.py``). Everything a
function here reads is defined in this module (numba's cache does not track the globals of
other modules).
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = [
    "PER_BLOCK",
    "STATE_WORDS",
    "fill_rows",
    "fill_units",
    "mix64",
    "next64",
    "next_bounded",
    "open_stream",
    "poisson_state",
    "poisson_weight",
    "poisson_weights",
    "seed",
    "start_stream",
    "sum_units",
    "unit_rule",
]

#: Inlined helpers and compiled draw loops, without numba's reference counting (nothing here
#: allocates); the compiled ones also without a C callback wrapper (nothing takes their
#: address): both would only cost compile time on a first call.
_jit = numba.njit(cache=True, nogil=True, inline="always", _nrt=False)
_compiled = numba.njit(cache=True, nogil=True, no_cfunc_wrapper=True, _nrt=False)
_U64 = np.uint64
_MASK32, _MASK16 = _U64(0xFFFFFFFF), _U64(0xFFFF)
_S3, _S11, _S16, _S24 = _U64(3), _U64(11), _U64(16), _U64(24)
_S32, _S40, _S48 = _U64(32), _U64(40), _U64(48)
_ONE, _ZERO = _U64(1), _U64(0)
#: Words of a stream state: the generator (4) and the decoder's carry (2).
STATE_WORDS = 6


# ---------------------------------------------------------------------------- SFC64
@_jit
def next64(gen):
    """The next 64-bit output of SFC64 (``SFC64.random_raw``) and the new state
    ``(a, b, c, counter)``."""
    a, b, c, w = gen
    out = a + b + w
    return out, (b ^ (b >> _S11), c + (c << _S3), ((c << _S24) | (c >> _S40)) + out, w + _ONE)


@_jit
def seed(words):
    """The SFC64 state ``(a, b, c, counter)`` from ``SeedSequence.generate_state(4, uint64)``
    (:func:`pairedstats.core.draws.block_seeds`), as numpy's ``sfc64_set_seed``: ``a, b, c``
    the first three words (numpy's SFC64 takes ``generate_state(3, uint64)``, the first three
    of these four), the counter 1, then twelve outputs discarded."""
    gen = words[0], words[1], words[2], _ONE
    for _ in range(12):
        _, gen = next64(gen)
    return gen


# ---------------------------------------------------------------------- stream states
@_jit
def start_stream(state, words):
    """Set ``state`` to the start of the block whose seed words are ``words`` (4 uint64)."""
    state[0], state[1], state[2], state[3] = seed(words)
    state[4], state[5] = _ZERO, _ZERO


@_compiled
def _start(state, words):  # pragma: no cover
    start_stream(state, words)


def open_stream(prefix, block) -> np.ndarray:
    """A new stream state at the start of block ``block`` of the stream ``prefix``."""
    from . import block_seeds

    bounds = np.array([0, prefix.size], dtype=np.int64)
    words = block_seeds(prefix, bounds, np.zeros(1, dtype=np.int64), np.array([block]))[0]
    state = np.empty(STATE_WORDS, dtype=np.uint64)
    _start(state, words)
    return state


@_jit
def _accept(x, n, mask, width, threshold):
    """Lemire's rule on a chunk ``x``: ``(unit, accepted)``."""
    m = x * n
    return m >> width, (m & mask) >= threshold


# --------------------------------------------------------------------------- decoders
@_jit
def unit_rule(n):
    """``(width, threshold)`` of the unit indices of ``n`` units (``1 <= n < 2**32``).

    Chunks of 16 bits up to 65,536 units, of 32 bits above; ``threshold = 2**width mod n``.
    """
    width = 16 if n <= 65536 else 32
    return width, (1 << width) % n


@_jit
def _fill_whole_words16(gen, buf, i, total, un, ut):
    # 16-bit chunks of whole words, branch-free: every chunk is written, i moves on if kept
    mask = _U64(0xFFFF)
    word = _ZERO
    while i + 4 <= total:
        word, gen = next64(gen)
        buf[i], ok = _accept(word & mask, un, mask, _S16, ut)
        i += ok
        buf[i], ok = _accept((word >> _S16) & mask, un, mask, _S16, ut)
        i += ok
        buf[i], ok = _accept((word >> _S32) & mask, un, mask, _S16, ut)
        i += ok
        buf[i], ok = _accept(word >> _S48, un, mask, _S16, ut)
        i += ok
    return i, gen


@_compiled
def fill_units(state, buf, total, n, width, threshold):  # pragma: no cover
    """Fill ``buf[:total]`` with the next ``total`` unit indices of the stream ``state``.

    Chunks of ``width`` (16 or 32) bits of each 64-bit output, lowest first, decoded by
    :func:`_accept`; the state's carry takes the next call on where this one stopped.
    """
    uw, un, ut = _U64(width), _U64(n), _U64(threshold)
    mask = _U64((1 << width) - 1)
    per_word = 64 // width
    gen = state[0], state[1], state[2], state[3]
    word, left = state[4], np.int64(state[5])
    i = 0
    while True:
        while left > 0 and i < total:  # the chunks left in the current word
            unit, ok = _accept(word & mask, un, mask, uw, ut)
            word >>= uw
            left -= 1
            if ok:
                buf[i] = unit
                i += 1
        if i == total:
            break
        if width == 16:
            i, gen = _fill_whole_words16(gen, buf, i, total, un, ut)
            if i == total:
                break
        word, gen = next64(gen)
        left = per_word
    state[0], state[1], state[2], state[3] = gen
    state[4], state[5] = word, _U64(left)


@_jit
def _add_unit(v, m, mask, width, threshold, total):
    """:func:`_accept` on the product ``m = chunk * n``, adding the value of the unit to
    ``total`` when the chunk is accepted: ``(total, accepted)``. Branch-free (a rejected chunk
    adds ``0.0``, which leaves any sum that starts at ``0.0`` bit for bit unchanged)."""
    value = v[m >> width]
    ok = (m & mask) >= threshold
    return total + (value if ok else 0.0), ok


@_compiled
def _add_words(v, un, width, gen, words, total, rest):  # pragma: no cover
    """The values of every chunk of the next ``words`` outputs added to ``total`` in draw
    order as if no chunk were rejected: ``(total, gen, low)``, ``low`` the smallest
    ``(chunk * n) mod 2**width`` (a chunk was rejected if it is below the threshold).

    Nothing on the chain of additions tests a chunk: each chunk's remainder is stored in
    ``rest`` (uint32, ``PER_BLOCK`` entries; a truncating store, no arithmetic) and their
    minimum is taken after the loop, in a pass the compiler vectorizes (comparisons, not
    ``min``: each builtin would be one more function to compile)."""
    if width == 32:
        for j in range(words):
            word, gen = next64(gen)
            m0, m1 = (word & _MASK32) * un, (word >> _S32) * un
            rest[2 * j], rest[2 * j + 1] = np.uint32(m0), np.uint32(m1)
            total += v[m0 >> _S32]
            total += v[m1 >> _S32]
    else:
        for j in range(words):
            word, gen = next64(gen)
            m0, m1 = (word & _MASK16) * un, ((word >> _S16) & _MASK16) * un
            m2, m3 = ((word >> _S32) & _MASK16) * un, (word >> _S48) * un
            rest[4 * j], rest[4 * j + 1] = np.uint32(m0 & _MASK16), np.uint32(m1 & _MASK16)
            rest[4 * j + 2], rest[4 * j + 3] = np.uint32(m2 & _MASK16), np.uint32(m3 & _MASK16)
            total += v[m0 >> _S16]
            total += v[m1 >> _S16]
            total += v[m2 >> _S16]
            total += v[m3 >> _S16]
    low = np.uint32(0xFFFFFFFF)
    for j in range(words * (64 // width)):
        r = rest[j]
        low = low if low < r else r
    return total, gen, _U64(low)


@_compiled
def _add_words_by_rule(v, un, width, ut, gen, words, total, i):  # pragma: no cover
    """As :func:`_add_words`, each chunk by Lemire's rule (a rejected one adds nothing and
    does not count): ``(total, gen, i)``, ``i`` moved on by the accepted chunks."""
    if width == 32:
        for _ in range(words):
            word, gen = next64(gen)
            total, ok = _add_unit(v, (word & _MASK32) * un, _MASK32, _S32, ut, total)
            i += ok
            total, ok = _add_unit(v, (word >> _S32) * un, _MASK32, _S32, ut, total)
            i += ok
    else:
        for _ in range(words):
            word, gen = next64(gen)
            total, ok = _add_unit(v, (word & _MASK16) * un, _MASK16, _S16, ut, total)
            i += ok
            total, ok = _add_unit(v, ((word >> _S16) & _MASK16) * un, _MASK16, _S16, ut, total)
            i += ok
            total, ok = _add_unit(v, ((word >> _S32) & _MASK16) * un, _MASK16, _S16, ut, total)
            i += ok
            total, ok = _add_unit(v, (word >> _S48) * un, _MASK16, _S16, ut, total)
            i += ok
    return total, gen, i


#: Whole 64-bit outputs :func:`sum_units` adds up at most before it checks for a rejected
#: chunk; fewer when a rejection is more likely (expected rejected chunks per block 1/16),
#: none below :data:`_FEWEST` (the check would cost more than it saves).
_BLOCK, _FEWEST = 64, 8
#: Entries of the scratch array :func:`sum_units` takes (one per chunk of a block).
PER_BLOCK = 4 * _BLOCK


@_compiled
def sum_units(state, v, n, width, threshold, rest):  # pragma: no cover
    """``sum(v[u] for u in units)``, in draw order, over the next ``n`` unit indices of the
    stream ``state``: the indices :func:`fill_units` would write, decoded the same way (the
    carry included), so the sum has the bits of a buffered draw-order sum.

    The single-column path of the bootstrap kernel. Whole outputs are taken in blocks,
    first as if every chunk were accepted (:func:`_add_words`); a block that held a rejected
    chunk is added again from its start by the rule (:func:`_add_words_by_rule`), so the sum
    is the same either way. The blocks are sized so that about one in 16 is added twice;
    when they would hold fewer than :data:`_FEWEST` outputs (16-bit chunks with
    ``2**16 mod n > 128``) every output is added by the rule at once. ``rest``: a uint32
    scratch array of :data:`PER_BLOCK` entries.
    """
    uw, un, ut = _U64(width), _U64(n), _U64(threshold)
    mask = _U64((1 << width) - 1)
    per_word = 64 // width
    block = (1 << width) // (16 * per_word * (threshold if threshold > 0 else 1))
    block = _BLOCK if block > _BLOCK else (block if block >= _FEWEST else 0)
    gen = state[0], state[1], state[2], state[3]
    word, left = state[4], np.int64(state[5])
    total, i = 0.0, 0
    while left > 0 and i < n:  # the chunks left in the current word
        total, ok = _add_unit(v, (word & mask) * un, mask, uw, ut, total)
        word >>= uw
        left -= 1
        i += ok
    while i + per_word <= n:  # whole words, as long as all their chunks may be needed
        words = (n - i) // per_word
        if block > 0:
            words = words if words < block else block
            start = gen, total
            total, gen, low = _add_words(v, un, width, gen, words, total, rest)
            if low >= ut:
                i += words * per_word
                continue
            gen, total = start  # a rejected chunk: the block again, by the rule
        total, gen, i = _add_words_by_rule(v, un, width, ut, gen, words, total, i)
    while i < n:
        if left == 0:
            word, gen = next64(gen)
            left = per_word
        total, ok = _add_unit(v, (word & mask) * un, mask, uw, ut, total)
        word >>= uw
        left -= 1
        i += ok
    state[0], state[1], state[2], state[3] = gen
    state[4], state[5] = word, _U64(left)
    return total


@_compiled
def fill_rows(state, high, threshold, buf, count, rows, stride):  # pragma: no cover
    """The next ``count * rows`` bounded integers in ``[0, high)``, 32-bit chunks.

    Draw ``c`` of row ``t`` (rows of ``count`` draws, in stream order) goes to
    ``buf[c * stride + t]``; with ``stride == 0`` they are skipped.
    """
    gen = state[0], state[1], state[2], state[3]
    word, left = state[4], state[5]
    uh, ut = _U64(high), _U64(threshold)
    for t in range(rows):
        c = 0
        while c < count:
            if left == _ZERO:
                word, gen = next64(gen)
                left = _U64(2)
            value, ok = _accept(word & _MASK32, uh, _MASK32, _S32, ut)
            word >>= _S32
            left -= _ONE
            if ok:
                if stride:
                    buf[c * stride + t] = value
                c += 1
    state[0], state[1], state[2], state[3] = gen
    state[4], state[5] = word, left


@_jit
def next_bounded(state, high, threshold):
    """The next bounded integer in ``[0, high)`` of the stream ``state`` (uint64): the draw
    :func:`fill_rows` would write next (32-bit chunks, ``threshold = 2**32 mod high``)."""
    while True:
        if state[5] == _ZERO:
            word, gen = next64((state[0], state[1], state[2], state[3]))
            state[0], state[1], state[2], state[3] = gen
            left = _U64(2)
        else:
            word, left = state[4], state[5]
        value, ok = _accept(word & _MASK32, high, _MASK32, _S32, threshold)
        state[4], state[5] = word >> _S32, left - _ONE
        if ok:
            return value


# ------------------------------------------------------------------ Poisson(1) weights
#: SplitMix64's increment and output multipliers (:mod:`pairedstats.core.draws.poisson`).
_GAMMA = _U64(0x9E3779B97F4A7C15)
_MIX1, _MIX2 = _U64(0xBF58476D1CE4E5B9), _U64(0x94D049BB133111EB)
_S27, _S30, _S31 = _U64(27), _U64(30), _U64(31)


@_jit
def mix64(z):
    """SplitMix64's output function (Stafford's variant 13) of a uint64."""
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@_jit
def poisson_state(item_key, call_key):
    """The SplitMix64 state of an item's weights in one call: ``mix(item_key ^ call_key)``."""
    return mix64(_U64(item_key) ^ _U64(call_key))


@_jit
def _poisson_output(state, r):
    """Output ``r`` (from 0) of SplitMix64 from ``state``: ``mix(state + (r + 1) * GAMMA)``
    (``state`` taken as uint64: a Python int below ``2**63`` arrives as int64)."""
    return mix64(_U64(state) + _U64(r + 1) * _GAMMA)


@_jit
def _first_eight(u, thresholds):
    """How many of the first eight entries of ``thresholds`` are at or below ``u``: the
    weight when it is below 8 (all but ``1.0e-5`` of them), without a branch."""
    w = np.int64(u >= thresholds[0]) + np.int64(u >= thresholds[1])
    w += np.int64(u >= thresholds[2]) + np.int64(u >= thresholds[3])
    w += np.int64(u >= thresholds[4]) + np.int64(u >= thresholds[5])
    return w + np.int64(u >= thresholds[6]) + np.int64(u >= thresholds[7])


@_jit
def poisson_weight(state, r, thresholds):
    """The weight (int64) of resample ``r`` of the stream ``state``: output ``r`` of
    SplitMix64 decoded by the table ``thresholds`` (uint64, ascending, at least 8 entries;
    ``THRESHOLDS``), the number of its entries at or below the output."""
    u = _poisson_output(state, r)
    w = _first_eight(u, thresholds)
    if w == 8:
        while w < thresholds.size and u >= thresholds[w]:
            w += 1
    return w


@_compiled
def poisson_weights(state, start, thresholds, out):  # pragma: no cover
    """``out[j]``: the weight of resample ``start + j`` of the stream ``state``
    (:func:`poisson_weight`). A first pass decodes every output by the first eight entries
    (no branch: the compiler vectorizes it), a second finishes the weights of 8 or more."""
    for j in range(out.size):
        out[j] = _first_eight(_poisson_output(state, start + j), thresholds)
    for j in range(out.size):
        if out[j] == 8:
            out[j] = poisson_weight(state, start + j, thresholds)
