"""The compiled half of :mod:`pairedstats.core.draws`: block generators and the one decoder.

A block's generator is ``PCG64(SeedSequence(root, spawn_key=(*label_words, block)))``.
Making one from Python costs about 25 us, so the kernels run the generators themselves:
:func:`pairedstats.core.draws.block_seeds` computes the ``SeedSequence`` words of many blocks
at once with numpy, and :func:`start_stream` sets ``PCG64`` from them as numpy's
``pcg64_set_seed`` does (the 128-bit LCG with multiplier
``0x2360ED051FC65DA44385DF649FCCF645`` and the XSL-RR output). Seeding outside the kernels
keeps what numba compiles on a first call small.

A *stream state* is a uint64 array of ``STATE_WORDS`` (6) words: the generator (``HI, LO,
INC_HI, INC_LO``) and the decoder's carry (``WORD``, the current output, and ``LEFT``, how
many of its chunks are still unused), so that a block can be drawn in several calls with the
same numbers. No compiled function here allocates (each allocation would be one more
function to compile).

Every bounded draw follows Lemire's multiply-shift rejection (:func:`_accept`): a chunk
``x`` of ``width`` bits gives ``(x * n) >> width`` unless ``(x * n) mod 2**width < threshold``
(``threshold = 2**width mod n``). :func:`fill_units` lays the draws out contiguously (unit
indices of the bootstrap; 16- or 32-bit chunks), :func:`sum_units` consumes the same draws
without a buffer, adding up the values they pick (one column: no buffer to write and read
again), in blocks summed as if no chunk were rejected and summed again by the rule when one
was. The Tukey kernels draw 32-bit chunks: :func:`fill_rows` lays them out in rows,
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
_MULTIPLIER = 0x2360ED051FC65DA44385DF649FCCF645  # PCG64's 128-bit multiplier
_S16, _S32, _S48, _S58, _S63 = _U64(16), _U64(32), _U64(48), _U64(58), _U64(63)
_ONE, _ZERO = _U64(1), _U64(0)
#: Words of a stream state: the generator (4) and the decoder's carry (2).
STATE_WORDS = 6


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


# ---------------------------------------------------------------------------- PCG64
@_jit
def seed(words):
    """The PCG64 state ``(hi, lo, inc_hi, inc_lo)`` from ``SeedSequence.generate_state(4,
    uint64)`` (:func:`pairedstats.core.draws.block_seeds`), as ``pcg64_set_seed``:
    initstate ``words[0]:words[1]``, initseq ``words[2]:words[3]`` (high:low)."""
    inc_hi = (words[2] << _ONE) | (words[3] >> _S63)
    inc_lo = (words[3] << _ONE) | _ONE
    hi, lo = _step(_ZERO, _ZERO, inc_hi, inc_lo)
    low = lo + words[1]
    hi = hi + words[0] + (_ONE if low < words[1] else _ZERO)
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


@_compiled
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


@_compiled
def _add_words(v, un, width, gen, words, total):  # pragma: no cover
    """The values of every chunk of the next ``words`` outputs added to ``total`` in draw
    order as if no chunk were rejected: ``(total, hi, lo, low)``, ``low`` the smallest
    ``(chunk * n) mod 2**width`` (a chunk was rejected if it is below the threshold).
    No test or select per chunk on the chain of additions, only a running minimum
    (comparisons, not ``min``: each builtin would be one more function to compile)."""
    hi, lo, inc_hi, inc_lo = gen
    low = _MASK32
    if width == 32:
        for _ in range(words):
            word, hi, lo = next64(hi, lo, inc_hi, inc_lo)
            m0, m1 = (word & _MASK32) * un, (word >> _S32) * un
            r0, r1 = m0 & _MASK32, m1 & _MASK32
            low = low if low < r0 else r0
            low = low if low < r1 else r1
            total += v[m0 >> _S32]
            total += v[m1 >> _S32]
    else:
        for _ in range(words):
            word, hi, lo = next64(hi, lo, inc_hi, inc_lo)
            m0, m1 = (word & _MASK16) * un, ((word >> _S16) & _MASK16) * un
            m2, m3 = ((word >> _S32) & _MASK16) * un, (word >> _S48) * un
            r0, r1, r2, r3 = m0 & _MASK16, m1 & _MASK16, m2 & _MASK16, m3 & _MASK16
            r0 = r0 if r0 < r1 else r1
            r2 = r2 if r2 < r3 else r3
            r0 = r0 if r0 < r2 else r2
            low = low if low < r0 else r0
            total += v[m0 >> _S16]
            total += v[m1 >> _S16]
            total += v[m2 >> _S16]
            total += v[m3 >> _S16]
    return total, hi, lo, low


@_compiled
def _add_words_by_rule(v, un, width, ut, gen, words, total, i):  # pragma: no cover
    """As :func:`_add_words`, each chunk by Lemire's rule (a rejected one adds nothing and
    does not count): ``(total, hi, lo, i)``, ``i`` moved on by the accepted chunks."""
    hi, lo, inc_hi, inc_lo = gen
    if width == 32:
        for _ in range(words):
            word, hi, lo = next64(hi, lo, inc_hi, inc_lo)
            total, ok = _add_unit(v, (word & _MASK32) * un, _MASK32, _S32, ut, total)
            i += ok
            total, ok = _add_unit(v, (word >> _S32) * un, _MASK32, _S32, ut, total)
            i += ok
    else:
        for _ in range(words):
            word, hi, lo = next64(hi, lo, inc_hi, inc_lo)
            total, ok = _add_unit(v, (word & _MASK16) * un, _MASK16, _S16, ut, total)
            i += ok
            total, ok = _add_unit(v, ((word >> _S16) & _MASK16) * un, _MASK16, _S16, ut, total)
            i += ok
            total, ok = _add_unit(v, ((word >> _S32) & _MASK16) * un, _MASK16, _S16, ut, total)
            i += ok
            total, ok = _add_unit(v, (word >> _S48) * un, _MASK16, _S16, ut, total)
            i += ok
    return total, hi, lo, i


#: Whole 64-bit outputs :func:`sum_units` adds up at most before it checks for a rejected
#: chunk; fewer when a rejection is more likely (expected rejected chunks per block 1/16),
#: none below :data:`_FEWEST` (the check would cost more than it saves).
_BLOCK, _FEWEST = 64, 8


@_compiled
def sum_units(state, v, n, width, threshold):  # pragma: no cover
    """``sum(v[u] for u in units)``, in draw order, over the next ``n`` unit indices of the
    stream ``state``: the indices :func:`fill_units` would write, decoded the same way (the
    carry included), so the sum has the bits of a buffered draw-order sum.

    The single-column path of the bootstrap kernel. Whole outputs are taken in blocks,
    first as if every chunk were accepted (:func:`_add_words`); a block that held a rejected
    chunk is added again from its start by the rule (:func:`_add_words_by_rule`), so the sum
    is the same either way. The blocks are sized so that about one in 16 is added twice;
    when they would hold fewer than :data:`_FEWEST` outputs (16-bit chunks with
    ``2**16 mod n > 128``) every output is added by the rule at once.
    """
    uw, un, ut = _U64(width), _U64(n), _U64(threshold)
    mask = _U64((1 << width) - 1)
    per_word = 64 // width
    block = (1 << width) // (16 * per_word * (threshold if threshold > 0 else 1))
    block = _BLOCK if block > _BLOCK else (block if block >= _FEWEST else 0)
    hi, lo, inc_hi, inc_lo = state[0], state[1], state[2], state[3]
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
            start = hi, lo, total
            total, hi, lo, low = _add_words(v, un, width, (hi, lo, inc_hi, inc_lo), words, total)
            if low >= ut:
                i += words * per_word
                continue
            hi, lo, total = start  # a rejected chunk: the block again, by the rule
        gen = hi, lo, inc_hi, inc_lo
        total, hi, lo, i = _add_words_by_rule(v, un, width, ut, gen, words, total, i)
    while i < n:
        if left == 0:
            word, hi, lo = next64(hi, lo, inc_hi, inc_lo)
            left = per_word
        total, ok = _add_unit(v, (word & mask) * un, mask, uw, ut, total)
        word >>= uw
        left -= 1
        i += ok
    state[0], state[1] = hi, lo
    state[4], state[5] = word, _U64(left)
    return total


@_compiled
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
