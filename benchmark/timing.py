"""Timing in turn, for the standalone runs of the case modules.

``interleaved(title, calls)`` warms every call once, then times them in turn (``a, b, a, b,
...``) so that a change of the machine's load over the run touches all of them alike, and
prints each one's minimum and median and each one's minimum over the last one's (with a peer
first and pairedstats last: how many times faster pairedstats is).
"""

from __future__ import annotations

import time

import numpy as np


def interleaved(title: str, calls: dict, turns: int = 7) -> dict:
    """Time ``calls`` (name -> zero-argument call) in turn; return name -> list of seconds."""
    for call in calls.values():
        call()
    times = {name: [] for name in calls}
    for _ in range(turns):
        for name, call in calls.items():
            t0 = time.perf_counter()
            call()
            times[name].append(time.perf_counter() - t0)
    last = min(times[list(calls)[-1]])
    print(title)
    for name, seconds in times.items():
        best = min(seconds)
        print(f"  {name:<40} min {best:9.4f} s  median {np.median(seconds):9.4f} s  "
              f"min / last's min {best / last:7.2f}")  # fmt: skip
    return times
