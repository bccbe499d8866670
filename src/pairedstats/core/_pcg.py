"""numpy's ``SeedSequence`` and ``PCG64``, compiled by numba, for use inside kernels.

A block's generator is ``PCG64(SeedSequence(root, spawn_key=(*label_words, block)))``
(:func:`pairedstats.core.streams.words_generator`). Making one from Python costs about 25 us,
so a kernel that covers thousands of (group, block) streams seeds and runs the generators
itself. The functions follow numpy's documented algorithms:

* ``SeedSequence``: the entropy pool of 4 32-bit words is mixed from the run entropy (padded
  to 4 words when there is a spawn key) and the spawn key, with the hashmix and mix constants
  of O'Neill's ``seed_seq_fe`` as numpy uses them; ``generate_state`` hashes the pool again;
* ``PCG64``: the 128-bit LCG with multiplier ``0x2360ED051FC65DA44385DF649FCCF645`` and the
  XSL-RR output, seeded as numpy's ``pcg64_set_seed``.

``tests/core/test_kernels.py`` checks states and outputs against numpy itself for many seeds
and block numbers. Call them from compiled code, where their arguments are typed uint64. The
64 x 64 -> 128-bit product is one LLVM ``mul i128`` (a numba intrinsic).

This module imports numba; the core imports it lazily, from inside its kernels' builders.
:func:`pairedstats.core.streams.entropy_prefix` makes the entropy these kernels take.
"""

from __future__ import annotations

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

__all__ = ["next64", "seed"]


@intrinsic
def mulhi(typingctx, a, b):
    """The high 64 bits of the 128-bit product of two uint64."""
    sig = types.uint64(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        wide = ir.IntType(128)
        x = builder.zext(args[0], wide)
        y = builder.zext(args[1], wide)
        high = builder.lshr(builder.mul(x, y), ir.Constant(wide, 64))
        return builder.trunc(high, ir.IntType(64))

    return sig, codegen


_jit = numba.njit(cache=True, nogil=True, inline="always")
_U64 = np.uint64
_MASK32 = _U64(0xFFFFFFFF)
_MULT_A, _INIT_A = _U64(0x931E8875), _U64(0x43B0D7E5)
_MULT_B, _INIT_B = _U64(0x58F38DED), _U64(0x8B51F9DD)
_MIX_L, _MIX_R = _U64(0xCA01F9DD), _U64(0x4973F715)
_M_HI, _M_LO = _U64(0x2360ED051FC65DA4), _U64(0x4385DF649FCCF645)
_S16, _S32, _S58, _S63, _ONE, _ZERO = _U64(16), _U64(32), _U64(58), _U64(63), _U64(1), _U64(0)


@_jit
def _hashmix(value, hc):
    # hc[0] is the running hash constant; all arithmetic modulo 2**32
    value = (value ^ hc[0]) & _MASK32
    hc[0] = (hc[0] * _MULT_A) & _MASK32
    value = (value * hc[0]) & _MASK32
    return value ^ (value >> _S16)


@_jit
def _mix(x, y):
    r = (_MIX_L * x - _MIX_R * y) & _MASK32
    return r ^ (r >> _S16)


@_jit
def _entropy(prefix, block, i):
    # word i of the assembled entropy: the prefix, then the words of the block number
    n = prefix.shape[0]
    if i < n:
        return _U64(prefix[i])
    if i == n:
        return _U64(block) & _MASK32
    return _U64(block) >> _S32


@_jit
def _step(hi, lo, inc_hi, inc_lo):
    # (hi, lo) * M + (inc_hi, inc_lo) modulo 2**128
    new_lo = lo * _M_LO
    new_hi = mulhi(lo, _M_LO) + lo * _M_HI + hi * _M_LO
    low = new_lo + inc_lo
    return new_hi + inc_hi + (_ONE if low < new_lo else _ZERO), low


@_jit
def seed(prefix, block):
    """The state ``(hi, lo, inc_hi, inc_lo)`` of block ``block``'s generator."""
    length = prefix.shape[0] + (1 if _U64(block) >> _S32 == _ZERO else 2)
    pool = np.empty(4, dtype=np.uint64)
    hc = np.empty(1, dtype=np.uint64)
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
    # generate_state(4, uint64): 8 words of 32 bits cycling over the pool, paired low first
    val = np.empty(4, dtype=np.uint64)
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
