"""The model confidence set against ``arch`` for ``run_all.py`` (and standalone).

Peer: ``arch.bootstrap.MCS`` (Kevin Sheppard's), with an iid bootstrap of the items (its
circular block bootstrap with blocks of one item, as ``tests/reference/mcs/`` uses it), on
the losses of ``p`` systems over ``n`` items; pairedstats: ``mcs()`` on the same losses as a
wide table (``lower_is_better=True``), the same statistic and number of resamples. Both
compute the whole set: every elimination and every system's MCS p-value.

Run standalone: ``python benchmark/mcs_cases.py [--quick]`` times the two in turn (warm
calls, interleaved, ratio of the minima).
"""

from __future__ import annotations

import sys

import numpy as np

#: arch's name of each statistic.
ARCH_METHOD = {"max": "max", "range": "R"}


def losses(n_items: int, n_systems: int) -> np.ndarray:
    """Losses of systems of close quality with a shared item effect, in no sorted order."""
    gen = np.random.default_rng(3)
    means = gen.permutation(np.linspace(0.0, 0.3, n_systems))
    return gen.normal(size=(n_items, 1)) + means + gen.normal(size=(n_items, n_systems))


def arch_call(x: np.ndarray, statistic: str, n_resamples: int):
    """``arch``'s set of the losses ``x`` as a zero-argument call."""
    from arch.bootstrap import MCS

    def call():
        mcs = MCS(x, size=0.1, reps=n_resamples, block_size=1, method=ARCH_METHOD[statistic],
                  bootstrap="cbb", seed=1)  # fmt: skip
        mcs.compute()
        return mcs.pvalues

    return call


def ours_call(x: np.ndarray, statistic: str, n_resamples: int):
    """pairedstats' set of the losses ``x`` (a wide table) as a zero-argument call."""
    import pandas as pd

    import pairedstats  # noqa: F401  (the accessor)

    names = [f"s{i:03d}" for i in np.random.default_rng(4).permutation(x.shape[1])]
    wide = pd.DataFrame(x, columns=names)
    return lambda: wide.paired.mcs(statistic=statistic, lower_is_better=True,
                                   n_resamples=n_resamples, rng=1)  # fmt: skip


#: What ``run_all.py`` reads of this module (``run_all._case_modules`` tells the format).
SIZES = {"quick": {"mcs": (500, 10, 500)}, "full": {"mcs": (1_000, 20, 1_000)}}
HEADLINES = (
    ("arch / pairedstats (timed in turn)", "mcs_arch_max", "mcs_ours_max", 3.0, False),
    ("arch / pairedstats (timed in turn)", "mcs_arch_range", "mcs_ours_range", 3.0, False),
)
PEER = "arch's `MCS`"


def add_cases(add, sizes: dict) -> None:
    """The set's cases, through ``run_all``'s ``add``."""
    n_items, n_systems, n_res = sizes["mcs"]
    group = f"model confidence set: {n_systems} systems x {n_items:,} items x {n_res:,} resamples"
    for statistic in ARCH_METHOD:
        peer = f"mcs_arch_{statistic}"
        add(peer, group, f"arch.bootstrap.MCS (method={ARCH_METHOD[statistic]!r}, iid)",
            lambda s=statistic: (arch_call(losses(n_items, n_systems), s, n_res), None),
            True, None)  # fmt: skip
        add(f"mcs_ours_{statistic}", group, f'pairedstats mcs(statistic="{statistic}")',
            lambda s=statistic: (ours_call(losses(n_items, n_systems), s, n_res), None),
            True, peer)  # fmt: skip


def main(quick: bool) -> None:
    from timing import interleaved

    n_items, n_systems, n_res = (500, 10, 500) if quick else (1_000, 20, 1_000)
    x = losses(n_items, n_systems)
    for statistic in ARCH_METHOD:
        interleaved(f"mcs {statistic} {n_systems} systems x {n_items} items x {n_res}",
                    {"arch": arch_call(x, statistic, n_res),
                     "pairedstats": ours_call(x, statistic, n_res)})  # fmt: skip


if __name__ == "__main__":
    main("--quick" in sys.argv)
