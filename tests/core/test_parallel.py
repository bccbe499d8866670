"""Threads of the compiled kernels: results in order, no nested waits on the shared pool."""

import threading

import numpy as np
import pytest

from pairedstats.core.parallel import (
    MIN_PART_WORK,
    PARTS_PER_WORKER,
    default_workers,
    n_parts,
    run_parts,
    run_queued,
    scratch_array,
)


def test_results_come_back_in_call_order():
    calls = [lambda i=i: i * i for i in range(3 * default_workers(None) + 1)]
    assert run_parts(calls) == [i * i for i in range(len(calls))]
    assert run_parts([]) == []


def test_calls_use_threads_and_nested_calls_run_inline():
    names = run_parts([lambda: threading.current_thread().name] * 2)
    if default_workers(None) >= 2:
        assert all(name.startswith("pairedstats") for name in names)
    inner = run_parts([lambda: run_parts([lambda: threading.current_thread().name] * 2)] * 2)
    for outer_names in inner:  # the inner calls ran in the thread of their outer call
        assert len(set(outer_names)) == 1


def test_queued_calls_run_once_each_on_at_most_the_given_threads():
    seen, lock = [], threading.Lock()

    def call(i):
        with lock:
            seen.append((i, threading.current_thread().name))
        return -i

    assert run_queued([lambda i=i: call(i) for i in range(23)], 2) == [-i for i in range(23)]
    assert sorted(i for i, _ in seen) == list(range(23))
    assert len({name for _, name in seen}) <= 2
    seen.clear()
    run_queued([lambda i=i: call(i) for i in range(5)], 1)  # one thread: inline, in order
    assert seen == [(i, threading.current_thread().name) for i in range(5)]
    assert run_queued([], 3) == []


def test_a_slow_thread_takes_fewer_queued_calls():
    # the first call holds its thread until every other call has run: a static split in
    # halves would wait for it with half the calls undone
    done, names = threading.Event(), []

    def first():
        assert done.wait(10), "the other thread did not take the remaining calls"
        return threading.current_thread().name

    def later(i):
        names.append(threading.current_thread().name)
        if i == 9:
            done.set()

    if default_workers(None) < 2:
        pytest.skip("needs two CPUs")
    out = run_queued([first] + [lambda i=i: later(i) for i in range(10)], 2)
    assert len(set(names)) == 1
    assert out[0] not in names


def test_parts_hold_enough_work_each():
    assert n_parts(10**12, 1) == 1
    assert n_parts(0, 3) == 3  # one per thread, however small
    assert n_parts(5 * MIN_PART_WORK, 2) == 5
    assert n_parts(10**12, 2) == 2 * PARTS_PER_WORKER


def test_a_failing_queued_call_stops_the_queue():
    ran = []

    def boom():
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        run_queued([boom] + [lambda i=i: ran.append(i) for i in range(100)], 1)
    assert ran == []


def test_default_workers():
    assert default_workers(0) == 1
    assert default_workers(5) == 5
    assert default_workers(None) >= 1


FORK_SCRIPT = """
import multiprocessing as mp, sys
import numpy as np
import pairedstats

def numbers(q=None):
    x = np.random.default_rng(0).normal(size=(40, 3))
    boot = pairedstats.bootstrap(x, n_resamples=600, rng=1, workers=2)
    hsd = pairedstats.tukey_hsd(x, n_resamples=600, rng=1, method="monte-carlo", workers=2)
    out = (boot.ci_low.tolist(), hsd.pvalue.tolist())
    if q is not None:
        q.put(out)
    return out

if __name__ == "__main__":
    parent = numbers()  # the parent's pool exists before the child starts
    ctx = mp.get_context(sys.argv[1])
    q = ctx.Queue()
    child = ctx.Process(target=numbers, args=(q,))
    child.start()
    child.join(60)
    if child.is_alive():
        child.kill()
        raise SystemExit("the child hung")
    assert q.get(timeout=5) == parent, "the child's numbers differ"
"""


@pytest.mark.parametrize(
    "start",
    # a new interpreter that imports the package takes seconds: the full run only
    [pytest.param(start, marks=pytest.mark.slow) for start in ("fork", "forkserver", "spawn")],
)  # fmt: skip
def test_a_child_process_computes_after_the_parent_used_the_pool(start, tmp_path):
    import multiprocessing
    import subprocess
    import sys

    if start not in multiprocessing.get_all_start_methods():
        pytest.skip(f"{start} is not available here")
    script = tmp_path / "fork_child.py"
    script.write_text(FORK_SCRIPT)
    run = subprocess.run(
        [sys.executable, str(script), start], capture_output=True, text=True, timeout=240
    )
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.uint32, np.int64, np.uint64])
@pytest.mark.parametrize("shape", [1, 7, (3, 6), (0,)])
def test_scratch_arrays_keep_their_cache_lines(shape, dtype):
    a = scratch_array(shape, dtype, zeros=True)
    assert a.shape == np.empty(shape).shape
    assert a.dtype == dtype
    assert a.flags.c_contiguous
    assert a.flags.writeable
    assert not a.any()
    if a.size == 0:  # nothing to write, no line to keep
        return
    start = a.__array_interface__["data"][0]
    base = a.base
    while base.base is not None:
        base = base.base
    first = base.__array_interface__["data"][0]
    # at least 128 bytes of the allocation unused before and after the array
    assert start - first >= 128
    assert first + base.nbytes - (start + a.nbytes) >= 128
