"""Sweeps at scale: ``by=`` in one call against a groupby-apply loop, and dask workers.

Run: ``python benchmark/bench_sweeps.py [--groups 1000] [--quick]``.

* bootstrap (10,000 resamples, baseline against 4 others) and Tukey HSD (10,000 trials) on
  ``groups x 200 items x 5 systems``: ``df.paired.<method>(by="group")`` against
  ``df.groupby("group").apply(<the single-group call>)``, same data, same seed, same run;
  and the rank-sum test of systems s0 and s4 as two samples of 200 scores per group;
* the same sweep as a dask-backed xarray Dataset computed on a ``distributed.LocalCluster``
  with 1 and then 2 worker processes (1 thread each).

Prints wall-clock times (best of ``--repeat``) and ratios.
"""

from __future__ import annotations

import argparse
import time
from functools import partial

import numpy as np
import xarray as xr

import pairedstats  # noqa: F401

N_ITEMS, SYSTEMS = 200, ["s0", "s1", "s2", "s3", "s4"]


def make_data(n_groups: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    difficulty = rng.random((n_groups, N_ITEMS, 1))
    effect = np.linspace(0, 0.04, len(SYSTEMS))
    scores = np.clip(
        difficulty + effect + rng.normal(0, 0.1, (n_groups, N_ITEMS, len(SYSTEMS))), 0, 1
    )
    ds = xr.Dataset(
        {"score": (("group", "item", "system"), scores)},
        coords={"group": np.arange(n_groups), "system": SYSTEMS},
    )
    tidy = ds["score"].to_dataframe().reset_index()
    return tidy, ds


def best(fn, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


CALLS = {
    "bootstrap": {"baseline": "s0", "n_resamples": 10_000},
    "tukey_hsd": {"n_resamples": 10_000},
}


def _call(frame, *, name, cols, kw):
    return getattr(frame.paired, name)(by="group", rng=1, **cols, **kw)


def bench_by(tidy, repeat):
    rows = []
    cols = {"item": "item", "system": "system", "score": "score"}
    for name, kw in CALLS.items():
        call = partial(_call, name=name, cols=cols, kw=kw)
        t_by, by = best(lambda call=call: call(tidy), repeat)

        def loop(call=call):
            return tidy.groupby("group", sort=False)[["group", "item", "system", "score"]].apply(
                call
            )

        t_loop, looped = best(loop, repeat)
        rows.append((name, t_by, t_loop, t_loop / t_by, _same(by, looped)))
    # rank-sum test of two of the systems as independent samples (200 scores each per group)
    two = tidy[tidy["system"].isin(["s0", "s4"])][["group", "system", "score"]]
    kw = {"score": "score", "group": "system", "a": "s0", "b": "s4"}
    t_by, by = best(lambda: two.paired.ranksum(by="group", **kw), repeat)
    t_loop, looped = best(
        lambda: two.groupby("group", sort=False)[["group", "system", "score"]].apply(
            lambda part: part.paired.ranksum(**kw)
        ),
        repeat,
    )
    rows.append(("ranksum", t_by, t_loop, t_loop / t_by, _same(by, looped)))
    return rows


def _same(by, looped) -> bool:
    """Every number of the by= table equals the loop's."""
    cols = [c for c in by.select_dtypes("number").columns if c in looped.columns]
    return np.array_equal(by[cols].to_numpy(), looped[cols].to_numpy(), equal_nan=True)


def bench_dask(ds, repeat, chunks):
    import distributed

    rows = []
    lazy_ds = ds.chunk({"group": chunks})
    for name, kw in CALLS.items():
        eager = getattr(ds.paired, name)(rng=1, **kw)
        times = {}
        for workers in (1, 2):
            with (
                distributed.LocalCluster(
                    n_workers=workers, threads_per_worker=1, processes=True,
                    dashboard_address=None,
                ) as cluster,
                distributed.Client(cluster),
            ):  # fmt: skip
                # warm every worker (imports, numba cache, thread pools): one chunk each
                warm = ds.isel(group=slice(0, 2 * workers)).chunk({"group": 1})
                getattr(warm.paired, name)(rng=1, **{**kw, "n_resamples": 500}).compute()
                lazy = getattr(lazy_ds.paired, name)
                t, out = best(lambda lazy=lazy, kw=kw: lazy(rng=1, **kw).compute(), repeat)
                times[workers] = t
                xr.testing.assert_equal(out, eager)
        rows.append((name, times[1], times[2], times[1] / times[2]))
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--groups", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="100 groups")
    parser.add_argument("--no-dask", action="store_true")
    parser.add_argument("--no-by", action="store_true", help="only the dask part")
    parser.add_argument("--resamples", type=int, default=10_000, help="resamples and trials")
    args = parser.parse_args()
    for kw in CALLS.values():
        kw["n_resamples"] = args.resamples
    n_groups = 100 if args.quick else args.groups
    tidy, ds = make_data(n_groups)
    shape = f"{n_groups} groups x {N_ITEMS} items x {len(SYSTEMS)} systems"
    print(f"{shape}, {args.resamples} resamples")
    print(f"{'method':10s} {'by= s':>8s} {'groupby-apply s':>16s} {'ratio':>6s}  same numbers")
    for name, t_by, t_loop, ratio, same in [] if args.no_by else bench_by(tidy, args.repeat):
        print(f"{name:10s} {t_by:8.2f} {t_loop:16.2f} {ratio:6.2f}  {same}")
    if not args.no_dask:
        print(
            f"\ndask LocalCluster, {max(1, n_groups // 8)} groups per chunk "
            "(processes, 1 thread each)"
        )
        print(f"{'method':10s} {'1 worker s':>10s} {'2 workers s':>11s} {'speed-up':>8s}")
        for name, t1, t2, speedup in bench_dask(ds, args.repeat, max(1, n_groups // 8)):
            print(f"{name:10s} {t1:10.2f} {t2:11.2f} {speedup:8.2f}")


if __name__ == "__main__":
    main()
