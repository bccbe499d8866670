"""The compiled half of :mod:`pairedstats.core.draws`: block generators and the one decoder.

A block's generator is ``PCG64(SeedSequence(root, spawn_key=(*label_words, block)))``.
Making one from Python costs about 25 us, so the kernels seed and run the generators
themselves, with numpy's documented algorithms:

* ``SeedSequence``: the entropy pool of 4 32-bit words is mixed from the run entropy (padded
  to 4 words when there is a spawn key) and the spawn key, with the hashmix and mix constants
  of O'Neill's ``seed_seq_fe`` as numpy uses them; ``generate_state`` hashes the pool again;
* ``PCG64``: the 128-bit LCG with multiplier ``0x2360ED051FC65DA44385DF649FCCF645`` and the
  XSL-RR output, seeded as numpy's ``pcg64_set_seed``.

A *stream state* is a uint64 array of ``STATE_WORDS`` words: the generator (``HI, LO,
INC_HI, INC_LO``), the decoder's carry (``WORD``, the current output, and ``LEFT``, how many
of its chunks are still unused), so that a block can be drawn in several calls with the same
numbers, and the seeding's scratch words (so that no compiled function here allocates: each
allocation would be one more function for numba to compile on a first call).

Every bounded draw follows Lemire's multiply-shift rejection (:func:`_accept`): a chunk
``x`` of ``width`` bits gives ``(x * n) >> width`` unless ``(x * n) mod 2**width < threshold``
(``threshold = 2**width mod n``). :func:`fill_units` lays the draws out contiguously (unit
indices of the bootstrap; 16- or 32-bit chunks), :func:`sum_units` consumes the same draws
without a buffer, adding up the values they pick (one column: no buffer to write and read
again). The Tukey kernels draw 32-bit chunks: :func:`fill_rows` lays them out in rows,
:func:`next_bounded` hands them over one at a time.

``tests/core/test_draws.py`` checks states and outputs against numpy itself and the decoders
against the numpy reference engine (``tests/core/reference_engine.py``). Everything a
function here reads is defined in this module (numba's cache does not track the globals of
other modules).
"""

from __future__ import annotations

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

__all__ = [
    "STATE_WORDS",
    "fill_rows",
    "fill_units",
    "next64",
    "next_bounded",
    "open_stream",
    "reset_stream",
    "seed",
    "sum_units",
    "unit_rule",
]

_jit = numba.njit(cache=True, nogil=True, inline="always")
#: The seeding steps, run once per block: compiled once each, not inlined into every caller.
_plain = numba.njit(cache=True, nogil=True)
_U64 = np.uint64
_MASK32, _MASK16 = _U64(0xFFFFFFFF), _U64(0xFFFF)
_MULT_A, _INIT_A = _U64(0x931E8875), _U64(0x43B0D7E5)
_MULT_B, _INIT_B = _U64(0x58F38DED), _U64(0x8B51F9DD)
_MIX_L, _MIX_R = _U64(0xCA01F9DD), _U64(0x4973F715)
_MULTIPLIER = 0x2360ED051FC65DA44385DF649FCCF645  # PCG64's 128-bit multiplier
_S16, _S32, _S48, _S58, _S63 = _U64(16), _U64(32), _U64(48), _U64(58), _U64(63)
_ONE, _ZERO = _U64(1), _U64(0)
#: Words of a stream state: generator 4, carry 2, seeding scratch 9 (:func:`seed`), padding.
STATE_WORDS = 16


@intrinsic
def _step(typingctx, hi, lo, inc_hi, inc_lo):
    """PCG64's LCG step ``(hi, lo) * M + (inc_hi, inc_lo) mod 2**128`` as one LLVM ``i128``
    multiply-add (the state and increment as pairs of uint64 words)."""
    pair = types.UniTuple(types.uint64, 2)
    sig = pair(types.uint64, types.uint64, types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        wide = ir.IntType(128)

        def join(high, low):
            shifted = builder.shl(builder.zext(high, wide), ir.Constant(wide, 64))
            return builder.or_(shifted, builder.zext(low, wide))

        state = builder.add(
            builder.mul(join(args[0], args[1]), ir.Constant(wide, _MULTIPLIER)),
            join(args[2], args[3]),
        )
        high = builder.trunc(builder.lshr(state, ir.Constant(wide, 64)), ir.IntType(64))
        return context.make_tuple(builder, pair, [high, builder.trunc(state, ir.IntType(64))])

    return sig, codegen


# ---------------------------------------------------------------- SeedSequence, PCG64
@_plain
def _hashmix(value, hc):
    # hc[0] is the running hash constant; all arithmetic modulo 2**32
    value = (value ^ hc[0]) & _MASK32
    hc[0] = (hc[0] * _MULT_A) & _MASK32
    value = (value * hc[0]) & _MASK32
    return value ^ (value >> _S16)


@_plain
def _mix(x, y):
    r = (_MIX_L * x - _MIX_R * y) & _MASK32
    return r ^ (r >> _S16)


@_plain
def _entropy(prefix, block, i):
    # word i of the assembled entropy: the prefix, then the words of the block number
    n = prefix.shape[0]
    if i < n:
        return _U64(prefix[i])
    if i == n:
        return _U64(block) & _MASK32
    return _U64(block) >> _S32


@_plain
def _pool(prefix, block, pool, hc):
    # SeedSequence's mixed entropy pool of 4 words, into pool (hc: the hash constant)
    length = prefix.shape[0] + (1 if _U64(block) >> _S32 == _ZERO else 2)
    hc[0] = _INIT_A
    for i in range(4):
        pool[i] = _hashmix(_entropy(prefix, block, i) if i < length else _ZERO, hc)
    for src in range(4):
        for dst in range(4):
            if src != dst:
                pool[dst] = _mix(pool[dst], _hashmix(pool[src], hc))
    for src in range(4, length):
        for dst in range(4):
            pool[dst] = _mix(pool[dst], _hashmix(_entropy(prefix, block, src), hc))


@_plain
def seed(prefix, block, work):
    """The PCG64 state ``(hi, lo, inc_hi, inc_lo)`` of block ``block``'s generator.

    ``work``: at least 9 uint64 scratch words (a stream state's ``[6:]``)."""
    pool, val = work[0:4], work[5:9]
    _pool(prefix, block, pool, work[4:5])
    # generate_state(4, uint64): 8 words of 32 bits cycling over the pool, paired low first
    h = _INIT_B
    for i in range(8):
        v = (pool[i % 4] ^ h) & _MASK32
        h = (h * _MULT_B) & _MASK32
        v = (v * h) & _MASK32
        v ^= v >> _S16
        if i % 2 == 0:
            val[i // 2] = v
        else:
            val[i // 2] |= v << _S32
    # pcg64_set_seed: initstate = val[0]:val[1], initseq = val[2]:val[3] (high:low)
    inc_hi = (val[2] << _ONE) | (val[3] >> _S63)
    inc_lo = (val[3] << _ONE) | _ONE
    hi, lo = _step(_ZERO, _ZERO, inc_hi, inc_lo)
    low = lo + val[1]
    hi = hi + val[0] + (_ONE if low < val[1] else _ZERO)
    hi, lo = _step(hi, low, inc_hi, inc_lo)
    return hi, lo, inc_hi, inc_lo


@_jit
def next64(hi, lo, inc_hi, inc_lo):
    """The next 64-bit output (``PCG64.random_raw``) and the new ``(hi, lo)``."""
    hi, lo = _step(hi, lo, inc_hi, inc_lo)
    x = hi ^ lo
    rot = hi >> _S58
    return (x >> rot) | (x << ((_U64(64) - rot) & _S63)), hi, lo


# ---------------------------------------------------------------------- stream states
@numba.njit(cache=True, nogil=True)
def reset_stream(state, prefix, block):  # pragma: no cover
    """Set ``state`` (``STATE_WORDS`` words) to the start of block ``block`` of the stream
    ``prefix``."""
    state[0], state[1], state[2], state[3] = seed(prefix, block, state[6:])
    state[4], state[5] = _ZERO, _ZERO


def open_stream(prefix, block) -> np.ndarray:
    """A new stream state (``STATE_WORDS`` words) at the start of block ``block``."""
    state = np.empty(STATE_WORDS, dtype=np.uint64)
    reset_stream(state, prefix, np.uint64(block))
    return state


@_jit
def _accept(x, n, mask, width, threshold):
    """Lemire's rule on a chunk ``x``: ``(unit, accepted)``."""
    m = x * n
    return m >> width, (m & mask) >= threshold


# --------------------------------------------------------------------------- decoders
@numba.njit(cache=True, nogil=True)
def unit_rule(n):
    """``(width, threshold)`` of the unit indices of ``n`` units (``1 <= n < 2**32``).

    Chunks of 16 bits up to 65,536 units, of 32 bits above; ``threshold = 2**width mod n``.
    """
    width = 16 if n <= 65536 else 32
    return width, (1 << width) % n


@_jit
def _fill_whole_words16(gen, buf, i, total, un, ut):
    # 16-bit chunks of whole words, branch-free: every chunk is written, i moves on if kept
    hi, lo, inc_hi, inc_lo = gen
    mask = _U64(0xFFFF)
    word = _ZERO
    while i + 4 <= total:
        word, hi, lo = next64(hi, lo, inc_hi, inc_lo)
        buf[i], ok = _accept(word & mask, un, mask, _S16, ut)
        i += ok
        buf[i], ok = _accept((word >> _S16) & mask, un, mask, _S16, ut)
        i += ok
        buf[i], ok = _accept((word >> _S32) & mask, un, mask, _S16, ut)
        i += ok
        buf[i], ok = _accept(word >> _S48, un, mask, _S16, ut)
        i += ok
    return i, hi, lo


@numba.njit(cache=True, nogil=True)
def fill_units(state, buf, total, n, width, threshold):  # pragma: no cover
    """Fill ``buf[:total]`` with the next ``total`` unit indices of the stream ``state``.

    Chunks of ``width`` (16 or 32) bits of each 64-bit output, lowest first, decoded by
    :func:`_accept`; the state's carry takes the next call on where this one stopped.
    """
    uw, un, ut = _U64(width), _U64(n), _U64(threshold)
    mask = _U64((1 << width) - 1)
    per_word = 64 // width
    hi, lo, inc_hi, inc_lo = state[0], state[1], state[2], state[3]
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
            i, hi, lo = _fill_whole_words16((hi, lo, inc_hi, inc_lo), buf, i, total, un, ut)
            if i == total:
                break
        word, hi, lo = next64(hi, lo, inc_hi, inc_lo)
        left = per_word
    state[0], state[1] = hi, lo
    state[4], state[5] = word, _U64(left)


@_jit
def _add_unit(v, m, mask, width, threshold, total):
    """:func:`_accept` on the product ``m = chunk * n``, adding the value of the unit to
    ``total`` when the chunk is accepted: ``(total, accepted)``. Branch-free (a rejected chunk
    adds ``0.0``, which leaves any sum that starts at ``0.0`` bit for bit unchanged)."""
    value = v[m >> width]
    ok = (m & mask) >= threshold
    return total + (value if ok else 0.0), ok


@numba.njit(cache=True, nogil=True)
def sum_units(state, v, n, width, threshold):  # pragma: no cover
    """``sum(v[u] for u in units)``, in draw order, over the next ``n`` unit indices of the
    stream ``state``: the indices :func:`fill_units` would write, decoded the same way (the
    carry included), so the sum has the bits of a buffered draw-order sum.

    The single-column path of the bootstrap kernel: the sum's chain of additions, not the
    generator, sets its pace, as in a kernel that draws with a cheaper generator.
    """
    uw, un, ut = _U64(width), _U64(n), _U64(threshold)
    mask = _U64((1 << width) - 1)
    hi, lo, inc_hi, inc_lo = state[0], state[1], state[2], state[3]
    word, left = state[4], np.int64(state[5])
    total, i = 0.0, 0
    while left > 0 and i < n:  # the chunks left in the current word
        total, ok = _add_unit(v, (word & mask) * un, mask, uw, ut, total)
        word >>= uw
        left -= 1
        i += ok
    if width == 32:
        while i + 2 <= n:
            word, hi, lo = next64(hi, lo, inc_hi, inc_lo)
            total, ok = _add_unit(v, (word & _MASK32) * un, _MASK32, _S32, ut, total)
            i += ok
            total, ok = _add_unit(v, (word >> _S32) * un, _MASK32, _S32, ut, total)
            i += ok
    else:
        while i + 4 <= n:
            word, hi, lo = next64(hi, lo, inc_hi, inc_lo)
            total, ok = _add_unit(v, (word & _MASK16) * un, _MASK16, _S16, ut, total)
            i += ok
            total, ok = _add_unit(v, ((word >> _S16) & _MASK16) * un, _MASK16, _S16, ut, total)
            i += ok
            total, ok = _add_unit(v, ((word >> _S32) & _MASK16) * un, _MASK16, _S16, ut, total)
            i += ok
            total, ok = _add_unit(v, (word >> _S48) * un, _MASK16, _S16, ut, total)
            i += ok
    while i < n:
        if left == 0:
            word, hi, lo = next64(hi, lo, inc_hi, inc_lo)
            left = 64 // width
        total, ok = _add_unit(v, (word & mask) * un, mask, uw, ut, total)
        word >>= uw
        left -= 1
        i += ok
    state[0], state[1] = hi, lo
    state[4], state[5] = word, _U64(left)
    return total


@numba.njit(cache=True, nogil=True)
def fill_rows(state, high, threshold, buf, count, rows, stride):  # pragma: no cover
    """The next ``count * rows`` bounded integers in ``[0, high)``, 32-bit chunks.

    Draw ``c`` of row ``t`` (rows of ``count`` draws, in stream order) goes to
    ``buf[c * stride + t]``; with ``stride == 0`` they are skipped.
    """
    hi, lo, inc_hi, inc_lo = state[0], state[1], state[2], state[3]
    word, left = state[4], state[5]
    uh, ut = _U64(high), _U64(threshold)
    for t in range(rows):
        c = 0
        while c < count:
            if left == _ZERO:
                word, hi, lo = next64(hi, lo, inc_hi, inc_lo)
                left = _U64(2)
            value, ok = _accept(word & _MASK32, uh, _MASK32, _S32, ut)
            word >>= _S32
            left -= _ONE
            if ok:
                if stride:
                    buf[c * stride + t] = value
                c += 1
    state[0], state[1] = hi, lo
    state[4], state[5] = word, left


@_jit
def next_bounded(state, high, threshold):
    """The next bounded integer in ``[0, high)`` of the stream ``state`` (uint64): the draw
    :func:`fill_rows` would write next (32-bit chunks, ``threshold = 2**32 mod high``)."""
    while True:
        if state[5] == _ZERO:
            word, state[0], state[1] = next64(state[0], state[1], state[2], state[3])
            left = _U64(2)
        else:
            word, left = state[4], state[5]
        value, ok = _accept(word & _MASK32, high, _MASK32, _S32, threshold)
        state[4], state[5] = word >> _S32, left - _ONE
        if ok:
            return value
