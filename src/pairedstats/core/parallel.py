"""Threads for the compiled kernels, which release the GIL.

The methods cut their work into parts that write disjoint outputs (or their own outputs,
summed afterwards in a fixed order), so the number of threads never changes a number. A
process-wide pool is kept so that a call does not pay for starting threads (about 1 to
8 ms here for two threads, which a ``groupby().apply`` loop would pay per group).

A large kernel's work is cut into more parts than threads (:func:`n_parts`), and each
thread takes the next part when it is done with one (:func:`run_queued`): on a machine
whose cores are shared with other work, a core that runs slower for a while does fewer
parts instead of holding up the call with a fixed half of the work.

The pool is fork-safe: a child process made by ``fork`` (``multiprocessing``'s default on
Linux before Python 3.14) inherits the pool object but not its threads, so the child forgets
it and makes its own on first use.
"""

from __future__ import annotations

import itertools
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np

__all__ = [
    "PARTS_PER_WORKER",
    "default_workers",
    "n_parts",
    "run_in_parts",
    "run_parts",
    "run_queued",
    "scratch_array",
]

_POOL: ThreadPoolExecutor | None = None
_LOCK = threading.Lock()
#: Bytes kept free around a thread's scratch array: a cache line is 64 bytes on x86-64 and
#: most ARM cores, 128 on Apple's.
_LINE = 128
#: Most parts of a kernel's work per thread (:func:`n_parts`): enough that a thread slowed
#: by other work on its core leaves its share to the others.
PARTS_PER_WORKER = 8
#: Least work (random draws, or items x trials) of a part beyond one part per thread: a
#: part's fixed cost (a Python call, its seeds and scratch arrays) was up to 0.6 ms, about
#: 5% of 2**23 draws. Smaller calls are cut into one part per thread.
MIN_PART_WORK = 2**23


def scratch_array(shape, dtype, *, zeros: bool = False) -> np.ndarray:
    """An array for one thread's kernel to write, on cache lines of its own.

    Two threads' small arrays allocated one after the other can share a cache line; each
    write of one thread then takes the line from the other's core (false sharing). The
    Tukey HSD kernel writes its arranged row and sums for every item: one of its two
    threads took 1.5-2x as long as the other in 10 calls of 32, against 2 of 32 with its
    arrays on lines of their own (1000 items x 20 systems). The array is a view into an
    allocation with :data:`_LINE` bytes unused on each side.

    Examples
    --------
    >>> a = scratch_array((2, 3), np.float64, zeros=True)
    >>> a.shape, a.sum(), a.flags.c_contiguous
    ((2, 3), np.float64(0.0), True)
    """
    dtype = np.dtype(dtype)
    pad = -(-_LINE // dtype.itemsize)
    size = int(np.prod(shape, dtype=np.int64))
    make = np.zeros if zeros else np.empty
    return make(size + 2 * pad, dtype=dtype)[pad : pad + size].reshape(shape)


def default_workers(workers: int | None) -> int:
    """``workers`` or, if None, the number of CPUs this process may use.

    Examples
    --------
    >>> default_workers(3)
    3
    >>> default_workers(None) >= 1
    True
    """
    if workers is not None:
        return max(1, int(workers))
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def run_parts(calls: Sequence[Callable[[], object]]) -> list:
    """Run the zero-argument ``calls`` (in threads when more than one); their results.

    Up to :func:`default_workers` calls share the process-wide pool; more get a pool of
    their own for the duration of the call. Called from inside a pool thread, the calls
    run one after another (no nested waits on the shared pool).
    """
    calls = list(calls)
    if len(calls) <= 1 or threading.current_thread().name.startswith("pairedstats"):
        return [call() for call in calls]
    if len(calls) > default_workers(None):
        with ThreadPoolExecutor(len(calls), thread_name_prefix="pairedstats-extra") as pool:
            return list(pool.map(lambda call: call(), calls))
    return list(_shared().map(lambda call: call(), calls))


def n_parts(work: int, workers: int, units: int | None = None) -> int:
    """Parts to cut ``work`` (random draws, or items x trials) into for ``workers`` threads:
    one per thread, more (up to :data:`PARTS_PER_WORKER` each, and no more than ``units``,
    the pieces the work comes in) when each part still holds :data:`MIN_PART_WORK`.

    Examples
    --------
    >>> n_parts(10**9, 2), n_parts(10**6, 2), n_parts(10**9, 1), n_parts(10**9, 2, units=5)
    (16, 2, 1, 5)
    """
    if workers <= 1:
        return 1
    most = workers * PARTS_PER_WORKER if units is None else min(workers * PARTS_PER_WORKER, units)
    return max(workers, min(most, work // MIN_PART_WORK))


def run_queued(calls: Sequence[Callable[[], object]], workers: int | None) -> list:
    """Run the zero-argument ``calls`` on at most ``workers`` threads, each taking the next
    call in order when done with one; their results, in order.

    The calls must not depend on each other (each writes outputs of its own), so which
    thread runs which call changes no number. After a call raises, no further call starts.

    Examples
    --------
    >>> run_queued([lambda i=i: i * i for i in range(5)], 2)
    [0, 1, 4, 9, 16]
    """
    calls = list(calls)
    results: list = [None] * len(calls)
    order, lock, failed = itertools.count(), threading.Lock(), threading.Event()

    def runner() -> None:
        while not failed.is_set():
            with lock:
                i = next(order)
            if i >= len(calls):
                return
            try:
                results[i] = calls[i]()
            except BaseException:
                failed.set()
                raise

    run_parts([runner] * min(default_workers(workers), len(calls)))
    return results


def _forget_pool_in_child() -> None:
    global _POOL, _LOCK
    _POOL = None
    _LOCK = threading.Lock()


if hasattr(os, "register_at_fork"):  # pragma: no branch - POSIX
    os.register_at_fork(after_in_child=_forget_pool_in_child)


def _shared() -> ThreadPoolExecutor:
    global _POOL
    with _LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(default_workers(None), thread_name_prefix="pairedstats")
        return _POOL


def run_in_parts(n: int, workers: int | None, work: Callable[[slice], object]) -> None:
    """``work`` on consecutive slices of ``range(n)``, one per worker thread (the slices'
    results must not depend on each other).

    Examples
    --------
    >>> seen = []
    >>> run_in_parts(5, 2, lambda rows: seen.append((rows.start, rows.stop)))
    >>> sorted(seen)
    [(0, 2), (2, 5)]
    """
    cuts = np.linspace(0, n, min(n, default_workers(workers)) + 1).astype(int)
    run_parts([lambda s=slice(int(a), int(z)): work(s) for a, z in itertools.pairwise(cuts)])
