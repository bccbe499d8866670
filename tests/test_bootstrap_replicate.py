"""``bootstrap(..., replicate=...)``: seeds and items in one interval.

The numbers of the crossed resampling are proved in ``tests/core/test_crossed.py`` (exact
enumeration, the exact variance); here: every container reads the same design (tidy, shuffled
rows, xarray, arrays: the same bits), paired and unpaired replicates, the refusals, and the
coverage of the interval in simulation against the item-only interval.
"""

import numpy as np
import pandas as pd
import pytest
import xarray as xr

import pairedstats
from pairedstats.core.bootstrap import mean_replicates_many
from pairedstats.core.crossed import crossed_replicates
from pairedstats.core.intervals import percentile_interval

GEN = np.random.default_rng(11)
N_ITEMS, SEEDS = 15, [0, 1, 2, 3]
# (item, system, seed): an item effect, a system effect and seed-to-seed variation
CELLS = (
    GEN.normal(size=(N_ITEMS, 1, 1))
    + np.array([0.0, 0.3, 0.1])[None, :, None]
    + 0.4 * GEN.normal(size=(1, 3, 4))
    + 0.2 * GEN.normal(size=(N_ITEMS, 3, 4))
)
SYSTEMS = ["a", "b", "c"]


def tidy(cells=CELLS, seeds=SEEDS, systems=SYSTEMS) -> pd.DataFrame:
    i, s, r = np.meshgrid(np.arange(cells.shape[0]), np.arange(cells.shape[1]),
                          np.arange(cells.shape[2]), indexing="ij")  # fmt: skip
    return pd.DataFrame({
        "item": [f"q{k}" for k in i.ravel()], "run": np.array(systems)[s.ravel()],
        "seed": np.array(seeds)[r.ravel()], "acc": cells.ravel(),
    })  # fmt: skip


KW = dict(item="item", system="run", score="acc", replicate="seed", n_resamples=1500, rng=3)


def test_tidy_shuffled_xarray_and_array_give_the_same_bits():
    df = tidy()
    ref = df.paired.bootstrap(**KW, as_result=True)
    shuffled = df.sample(frac=1.0, random_state=1).paired.bootstrap(
        **KW, systems=SYSTEMS, as_result=True
    )
    ds = xr.Dataset(
        {"acc": (("item", "system", "seed"), CELLS)},
        coords={"item": [f"q{k}" for k in range(N_ITEMS)], "system": SYSTEMS, "seed": SEEDS},
    )
    from_ds = ds.paired.bootstrap(replicate="seed", n_resamples=1500, rng=3, as_result=True)
    arr = pairedstats.bootstrap(CELLS, systems=SYSTEMS, replicate=SEEDS, n_resamples=1500,
                                rng=3)  # fmt: skip
    for other in (shuffled, from_ds):
        assert np.array_equal(other.bootstrap_distribution, ref.bootstrap_distribution)
        assert np.array_equal(other.ci_low, ref.ci_low)
    # array items are 0..n-1 (another canonical order than "q0", "q1", "q10", ...)
    np.testing.assert_allclose(arr.difference, ref.difference, rtol=0, atol=1e-15)
    lazy = ds.chunk({"item": 5}).paired.bootstrap(replicate="seed", n_resamples=1500, rng=3)
    np.testing.assert_array_equal(lazy["ci_low"].values, ref.ci_low[0])


def test_estimate_and_means_are_over_items_and_replicates():
    res = tidy().paired.bootstrap(**KW, as_result=True)
    means = CELLS.mean(axis=(0, 2))
    np.testing.assert_allclose(res.mean_a[0], means[[0, 0, 1]], rtol=1e-14)
    np.testing.assert_allclose(res.mean_b[0], means[[1, 2, 2]], rtol=1e-14)
    np.testing.assert_allclose(res.difference[0], (means[[1, 2, 2]] - means[[0, 0, 1]]),
                               atol=1e-15)  # fmt: skip
    assert res.metadata["replicate"] is True
    # wins, ties, losses and the effect size read each item's mean over its replicates
    item_means = CELLS.mean(axis=2)
    assert res.wins[0, 0] == int((item_means[:, 1] > item_means[:, 0]).sum())


def test_wider_than_the_item_only_interval_with_seed_variance():
    df = tidy()
    crossed = df.paired.bootstrap(**KW, baseline="a")
    averaged = df.groupby(["item", "run"], as_index=False)["acc"].mean()
    items_only = averaged.paired.bootstrap(item="item", system="run", score="acc",
                                           baseline="a", n_resamples=1500, rng=3)  # fmt: skip
    np.testing.assert_allclose(crossed["difference"], items_only["difference"], atol=1e-14)
    assert (crossed["standard_error"] > items_only["standard_error"]).all()


@pytest.mark.parametrize("method", ["percentile", "basic"])
def test_pvalue_inverts_the_interval(method):
    res = tidy().paired.bootstrap(**KW, method=method, as_result=True)
    excludes = (res.ci_low > 0) | (res.ci_high < 0)
    assert ((res.pvalue < 0.05) == excludes).all()
    if method == "basic":
        est = res.difference
        q = np.quantile(res.bootstrap_distribution, [0.025, 0.975], axis=-1)
        np.testing.assert_allclose(res.ci_low, 2 * est - q[1], atol=1e-14)


def test_paired_and_unpaired_replicates():
    df = tidy(CELLS[:, :2], systems=SYSTEMS[:2])
    paired = df.paired.bootstrap(**KW, as_result=True)
    # system b's runs relabelled: disjoint labels, each system's runs drawn on their own
    unpaired_df = df.assign(seed=np.where(df["run"] == "b", df["seed"] + 100, df["seed"]))
    unpaired = unpaired_df.paired.bootstrap(**KW, as_result=True)
    assert paired.difference[0, 0] == pytest.approx(unpaired.difference[0, 0], abs=1e-15)
    assert not np.array_equal(paired.bootstrap_distribution, unpaired.bootstrap_distribution)
    # the same numbers as the core with each system's labels (items in canonical order)
    order = np.argsort([f"q{k}" for k in range(N_ITEMS)], kind="stable")
    cells = [CELLS[order, 0], CELLS[order, 1]]
    core = crossed_replicates(cells, [(0, 1, 2, 3), (100, 101, 102, 103)], [(0, 1)],
                              group_key=(), root=3, n_resamples=1500)  # fmt: skip
    np.testing.assert_allclose(unpaired.bootstrap_distribution[0], core.replicates,
                               rtol=0, atol=1e-14)  # fmt: skip


def test_by_groups_equal_groupby_apply():
    df = pd.concat([tidy().assign(task="x"), tidy(CELLS[::-1] + 1).assign(task="y")])
    by = df.paired.bootstrap(**KW, by="task")
    loop = df.groupby("task").apply(lambda g: g.paired.bootstrap(**KW), include_groups=False)
    np.testing.assert_array_equal(by["ci_low"].to_numpy(), loop["ci_low"].to_numpy())


# ------------------------------------------------------------------ refusals
def test_partly_overlapping_replicates_are_refused():
    df = tidy(CELLS[:, :2], systems=SYSTEMS[:2])
    df = df.assign(seed=np.where((df["run"] == "b") & (df["seed"] == 3), 9, df["seed"]))
    with pytest.raises(ValueError, match=r"share some replicate labels but not all \(3 shared"):
        df.paired.bootstrap(**KW)


def test_missing_cells_are_counted_or_dropped():
    df = tidy().drop(index=[5, 17, 30])
    with pytest.raises(ValueError, match=r"found 3 missing \(item, system, replicate\) cell"):
        df.paired.bootstrap(**KW)
    with pytest.warns(pairedstats.inputs.DroppedDataWarning, match="dropped"):
        res = df.paired.bootstrap(**KW, missing="complete")
    assert (res["n_items"] == N_ITEMS - 3).all()
    assert (res["n_dropped"] == 3).all()


def test_duplicated_cells_and_wide_tables_are_refused():
    df = tidy()
    with pytest.raises(ValueError, match="each \\(item, system, replicate\\) must have one row"):
        pd.concat([df, df.iloc[:1]]).paired.bootstrap(**KW)
    with pytest.raises(ValueError, match="repeated runs are read from a tidy table"):
        df.pivot_table(index="item", columns="run", values="acc").paired.bootstrap(
            replicate="seed"
        )


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"method": "bca"}, "not available with `replicate`"),
        ({"method": "studentized"}, "not available with `replicate`"),
        ({"resampling": "counts"}, "not available with `replicate`"),
        ({"statistic": np.median}, "a `statistic` is not supported"),
    ],
)
def test_unsupported_settings_are_refused(extra, message):
    with pytest.raises(ValueError, match=message):
        tidy().paired.bootstrap(**KW, **extra)


def test_cluster_with_replicate_is_refused():
    df = tidy().assign(topic=lambda d: d["item"].str[:2])
    with pytest.raises(ValueError, match="cannot be combined with `cluster`"):
        df.paired.bootstrap(**KW, cluster="topic")


@pytest.mark.parametrize("method", ["tukey_hsd", "signrank", "report", "rank"])
def test_other_methods_refuse_replicate_saying_why(method):
    with pytest.raises(TypeError, match=r"does not take `replicate`: .*seed.*variance"):
        getattr(tidy().paired, method)(item="item", system="run", score="acc", replicate="seed")


def test_a_design_with_replicates_is_refused_by_other_methods():
    design = pairedstats.inputs.design_from_array(CELLS, systems=SYSTEMS, replicate=SEEDS)
    with pytest.raises(ValueError, match="holds repeated runs"):
        pairedstats.tukey_hsd_design(design, n_resamples=100, rng=1)


def test_array_shape_is_checked():
    with pytest.raises(ValueError, match=r"shape \(n_items, n_systems, n_replicates\)"):
        pairedstats.bootstrap(CELLS[:, :, 0], replicate=[1])
    with pytest.raises(ValueError, match="must label each of the 4 runs"):
        pairedstats.bootstrap(CELLS, replicate=[1, 2])


# ------------------------------------------------------------------ coverage
def _coverage(n_seeds: int, n_sets: int, seed: int, n_items: int = 30, B: int = 1000):
    """Coverage of the 95% percentile intervals of the mean difference, crossed and
    item-only, with seed variance of the mean equal to the item-level one."""
    gen = np.random.default_rng(seed)
    sd_item, sd_noise = 1.0, 0.3
    sd_seed = sd_item * np.sqrt(n_seeds / n_items)
    hits = np.zeros(2, dtype=int)
    seeds = tuple(range(n_seeds))
    for k in range(n_sets):
        d = (0.5 + sd_item * gen.normal(size=(n_items, 1)) + sd_seed * gen.normal(size=n_seeds)
             + sd_noise * gen.normal(size=(n_items, n_seeds)))  # fmt: skip
        crossed = crossed_replicates([np.zeros_like(d), d], [seeds, seeds], [(0, 1)],
                                     group_key=(k,), root=7, n_resamples=B)  # fmt: skip
        crossed = crossed.replicates
        items = mean_replicates_many([d.mean(axis=1, keepdims=True)], [(k,)], root=7,
                                     n_resamples=B)[0]  # fmt: skip
        for j, reps in enumerate((crossed, items)):
            low, high = percentile_interval(reps, 0.95)
            hits[j] += bool(low[0] <= 0.5 <= high[0])
    return hits / n_sets


@pytest.mark.slow
def test_coverage_crossed_holds_the_level_and_items_only_undercovers():
    n_sets = 300
    se = np.sqrt(0.95 * 0.05 / n_sets)
    crossed10, items10 = _coverage(10, n_sets, seed=1)
    assert crossed10 >= 0.95 - 3 * se  # 10 seeds
    assert items10 < 0.95 - 3 * se
    crossed5, items5 = _coverage(5, n_sets, seed=2)
    assert items5 < 0.95 - 3 * se
    # 5 seeds: the crossed interval is a little short (the bootstrap of 5 seeds sees
    # (R - 1) / R of their variance), far closer to the level than the item-only one
    assert crossed5 - items5 > 3 * se


def test_swapped_systems_negate_the_replicates_exactly():
    df = tidy()
    ab = df.paired.bootstrap(**KW, systems=["a", "b"], as_result=True)
    ba = df.paired.bootstrap(**KW, systems=["b", "a"], as_result=True)
    assert np.array_equal(ab.bootstrap_distribution, -ba.bootstrap_distribution)
    assert ab.ci_low[0, 0] == -ba.ci_high[0, 0]


def test_constant_differences_warn_of_a_point():
    grid = np.round(CELLS[:, :1] * 8) / 8  # b - a = 0.5 exactly in every cell
    cells = np.repeat(grid, 2, axis=1) + np.array([0.0, 0.5])[None, :, None]
    with pytest.warns(pairedstats.PointDistributionWarning):
        res = pairedstats.bootstrap(cells, systems=["a", "b"], replicate=SEEDS, rng=1,
                                    n_resamples=300)  # fmt: skip
    assert res.ci_low[0, 0] == res.ci_high[0, 0] == pytest.approx(0.5, abs=1e-15)
