"""Dask-backed datasets: lazy, chunk by chunk, and the same numbers as in memory."""

import numpy as np
import pytest
import xarray as xr

import pairedstats  # noqa: F401  (registers .paired)

dask = pytest.importorskip("dask")


@pytest.fixture(scope="module")
def sweep():
    rng = np.random.default_rng(2024)
    difficulty = rng.random((1, 1, 25, 1))
    values = np.clip(difficulty + rng.normal(0, 0.1, (4, 3, 25, 3)), 0, 1).round(2)
    return xr.Dataset(
        {"acc": (("seed", "lr", "item", "system"), values)},
        coords={"seed": [1, 2, 3, 4], "system": ["base", "new", "newer"]},  # lr: no coordinate
    )


def _check_same(eager, lazy):
    assert lazy["difference"].chunks is not None  # still lazy
    xr.testing.assert_equal(eager, lazy.compute())


@pytest.mark.parametrize("chunks", [{"seed": 1}, {"seed": 3, "lr": 2}, {"item": 5}])
def test_bootstrap_lazy_equals_in_memory(sweep, chunks):
    kw = {"baseline": "base", "n_resamples": 600, "rng": 12}
    _check_same(sweep.paired.bootstrap(**kw), sweep.chunk(chunks).paired.bootstrap(**kw))


@pytest.mark.parametrize("chunks", [{"seed": 1}, {"lr": 1, "system": 1}])
def test_tukey_lazy_equals_in_memory(sweep, chunks):
    kw = {"n_resamples": 600, "rng": 3}
    _check_same(sweep.paired.tukey_hsd(**kw), sweep.chunk(chunks).paired.tukey_hsd(**kw))


def test_ranksum_lazy_equals_in_memory():
    rng = np.random.default_rng(5)
    ds = xr.Dataset(
        {"x": (("seed", "group", "item"), rng.normal(size=(4, 2, 12)))},
        coords={"group": ["control", "treated"]},
    )
    eager = ds.paired.ranksum(score="x")
    lazy = ds.chunk({"seed": 1}).paired.ranksum(score="x")
    assert lazy["pvalue"].chunks is not None
    xr.testing.assert_identical(eager, lazy.compute())


def test_lazy_with_a_generator_seed_is_seeded_once(sweep):
    lazy = sweep.chunk({"seed": 1}).paired.bootstrap(n_resamples=300, rng=np.random.default_rng(1))
    root = lazy.attrs["seed_entropy"]
    eager = sweep.paired.bootstrap(n_resamples=300, rng=root)
    xr.testing.assert_equal(eager, lazy.compute())


@pytest.mark.slow
def test_distributed_local_cluster_gives_the_same_numbers(sweep):
    distributed = pytest.importorskip("distributed")
    kw = {"baseline": "base", "n_resamples": 400, "rng": 99}
    eager = sweep.paired.bootstrap(**kw)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster),
    ):
        lazy = sweep.chunk({"seed": 1}).paired.bootstrap(**kw)
        computed = lazy.compute()
    xr.testing.assert_equal(eager, computed)
