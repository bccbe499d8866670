"""Threads of the compiled kernels: results in order, no nested waits on the shared pool."""

import threading

from pairedstats.core.parallel import default_workers, run_parts


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


def test_default_workers():
    assert default_workers(0) == 1
    assert default_workers(5) == 5
    assert default_workers(None) >= 1
