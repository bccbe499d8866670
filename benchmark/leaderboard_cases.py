"""Leaderboard cases for ``run_all.py``: many systems on the same items.

The floor of a leaderboard's bootstrap is a matrix product: draw each resample's
multinomial counts of the items (``Generator.multinomial``, ``B x n``) and multiply them by
the scores (``n x p``): every system's resampled sum, with no labels, streams, pairs or
intervals. The library's ``rank()`` and ``bootstrap(adjust="max-t")`` over all pairs of
``p`` systems are timed against it in turn (a headline figure), and ``rank()`` of 1,000
systems once, with its peak memory.
"""

from __future__ import annotations

import numpy as np


def scores(n_items: int, n_systems: int) -> np.ndarray:
    """Scores in [0, 1] of systems of close quality, named in no sorted order."""
    gen = np.random.default_rng(0)
    x = gen.beta(2, 5, size=(n_items, n_systems)) + gen.normal(0, 0.02, n_systems)
    return np.clip(x, 0.0, 1.0)


def _wide(n_items: int, n_systems: int):
    import pandas as pd

    names = [f"m{i:04d}" for i in np.random.default_rng(1).permutation(n_systems)]
    return pd.DataFrame(scores(n_items, n_systems), columns=names)


#: What ``run_all.py`` reads of this module (``run_all._case_modules`` tells the format):
#: the sizes ``add_cases`` reads, the headline figures and memory goal, the repeats of the
#: large case (about a minute each), and no peer but the floor.
SIZES = {
    "quick": {"leaderboard": (2_000, 30, 300), "leaderboard_large": (2_000, 200, 300)},
    "full": {"leaderboard": (10_000, 100, 1_000), "leaderboard_large": (10_000, 1_000, 1_000)},
}
HEADLINES = (
    ("pairedstats / counts x scores floor", "leaderboard_rank", "floor_leaderboard", 2.0, True),
    ("pairedstats / counts x scores floor", "leaderboard_maxt", "floor_leaderboard", 2.0, True),
    ("pairedstats, seconds", "leaderboard_large_rank", None, 60.0, True),
)
MEMORY = (("leaderboard_large_rank", 1536.0),)
REPEATS = {"leaderboard_large_rank": 1}
PEER = None


def add_cases(add, sizes: dict) -> None:
    """The leaderboard cases, through ``run_all``'s ``add``."""
    n_items, n_systems, n_res = sizes["leaderboard"]
    group = f"leaderboard: {n_systems} systems x {n_items:,} items x {n_res:,} resamples"

    def floor():
        x = scores(n_items, n_systems)
        gen = np.random.default_rng(2)
        uniform = np.full(n_items, 1.0 / n_items)
        return lambda: gen.multinomial(n_items, uniform, size=n_res).astype(float) @ x

    add("floor_leaderboard", group, "floor: multinomial counts (B x n) @ scores (n x p)",
        lambda: (floor(), None), True, None)  # fmt: skip
    calls = {
        "leaderboard_rank": ("pairedstats rank() (all pairs, max-t rank sets)",
                             lambda w: w.paired.rank(n_resamples=n_res, rng=1)),
        "leaderboard_maxt": ('pairedstats bootstrap(adjust="max-t"), all pairs',
                             lambda w: w.paired.bootstrap(adjust="max-t", n_resamples=n_res,
                                                          rng=1)),
        "leaderboard_baseline": ("pairedstats bootstrap(baseline=...)",
                                 lambda w: w.paired.bootstrap(baseline=w.columns[0],
                                                              n_resamples=n_res, rng=1)),
    }  # fmt: skip
    for name, (label, call) in calls.items():
        add(name, group, label, lambda call=call: (_timed_call(call, n_items, n_systems), None),
            True, "floor_leaderboard")  # fmt: skip

    large = sizes["leaderboard_large"]
    group = f"leaderboard: {large[1]:,} systems x {large[0]:,} items x {large[2]:,} resamples"
    add("leaderboard_large_rank", group, "pairedstats rank() (all pairs, max-t rank sets)",
        lambda: (_timed_call(lambda w: w.paired.rank(n_resamples=large[2], rng=1),
                             large[0], large[1]), None), False, None)  # fmt: skip


def _timed_call(call, n_items: int, n_systems: int):
    """``call`` on the wide table of ``n_systems`` x ``n_items``, as a zero-argument call."""
    wide = _wide(n_items, n_systems)
    return lambda: call(wide)
