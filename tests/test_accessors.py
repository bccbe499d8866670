"""The accessors: thin, equal to the functions, and the invariances of the contract."""

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from tests.data import unsorted_runs

import pairedstats

PAIRED = ["bootstrap", "tukey_hsd"]
KW = {"bootstrap": {"n_resamples": 999}, "tukey_hsd": {"n_resamples": 999}}
NUMBERS = {
    "bootstrap": ["mean_a", "mean_b", "difference", "ci_low", "ci_high", "standard_error"],
    "tukey_hsd": ["mean_a", "mean_b", "difference", "pvalue", "pvalue_low", "pvalue_high"],
}


@pytest.fixture(scope="module")
def runs():
    return unsorted_runs()


def _wide(frame, collection):
    sub = frame[frame.collection == collection]
    return sub.pivot(index="query", columns="run", values="ndcg")[list(sub.run.unique())]


def test_accessors_only_store_the_object(runs):
    acc = runs.paired
    assert vars(acc) == {"_obj": runs}
    ds = xr.Dataset({"x": (("item", "system"), np.zeros((2, 2)))})
    assert vars(ds.paired) == {"_obj": ds}


@pytest.mark.parametrize("method", PAIRED)
def test_tidy_and_wide_give_identical_numbers(runs, method):
    tidy = runs[runs.collection == "msmarco"]
    a = getattr(tidy.paired, method)(item="query", system="run", score="ndcg", rng=3, **KW[method])
    b = getattr(_wide(runs, "msmarco").paired, method)(rng=3, **KW[method])
    pd.testing.assert_frame_equal(a[NUMBERS[method]], b[NUMBERS[method]])
    assert a["system_b"].tolist() == b["system_b"].tolist()


@pytest.mark.parametrize("method", PAIRED)
def test_a_group_does_not_depend_on_the_other_groups(runs, method):
    kw = {"item": "query", "system": "run", "score": "ndcg", "rng": 11, **KW[method]}
    both = getattr(runs.paired, method)(by="collection", **kw)
    alone = getattr(runs[runs.collection == "msmarco"].paired, method)(by="collection", **kw)
    reversed_ = getattr(runs.iloc[::-1].paired, method)(by="collection", **kw)
    part = both[both.collection == "msmarco"].reset_index(drop=True)
    pd.testing.assert_frame_equal(part[NUMBERS[method]], alone[NUMBERS[method]])
    assert reversed_["collection"].iloc[0] == "msmarco"


def test_a_comparison_does_not_depend_on_the_other_systems(runs):
    kw = {"item": "query", "system": "run", "score": "ndcg", "rng": 5, "n_resamples": 999}
    sub = runs[runs.collection == "robust04"]
    all_ = sub.paired.bootstrap(baseline="bm25", **kw)
    two = sub.paired.bootstrap(systems=["bm25", "dense"], **kw)
    row = all_[all_.system_b == "dense"].reset_index(drop=True)
    pd.testing.assert_frame_equal(row[NUMBERS["bootstrap"]], two[NUMBERS["bootstrap"]])


@pytest.mark.parametrize("method", PAIRED)
def test_metadata_reruns_the_call(runs, method):
    sub = runs[runs.collection == "robust04"]
    kw = {"item": "query", "system": "run", "score": "ndcg", **KW[method]}
    first = getattr(sub.paired, method)(rng=np.random.default_rng(8), **kw)
    attrs = first.attrs
    assert attrs["method"] in {"bootstrap", "tukey_hsd"}
    assert attrs["n_resamples"] == 999
    assert attrs["pairedstats_version"] == pairedstats.__version__
    assert attrs["stream_version"] == pairedstats.core.draws.STREAM_VERSION == 2
    again = getattr(sub.paired, method)(rng=attrs["seed_entropy"], **kw)
    pd.testing.assert_frame_equal(first, again)


@pytest.mark.parametrize("method", PAIRED)
def test_xarray_sweep_equals_pandas_on_each_slice(runs, method):
    frames = {c: _wide(runs, c) for c in ("robust04", "msmarco")}
    # same items on both slices, as a sweep needs: use positions as the item coordinate
    values = np.stack([f.to_numpy() for f in frames.values()])
    ds = xr.Dataset(
        {"ndcg": (("collection", "item", "system"), values)},
        coords={"collection": list(frames), "system": list(frames["msmarco"].columns)},
    )
    out = getattr(ds.paired, method)(rng=4, **KW[method])
    assert out["difference"].dims == ("collection", "comparison")
    for c, frame in frames.items():
        flat = frame.reset_index(drop=True).assign(collection=c)
        ref = getattr(flat.paired, method)(by="collection", rng=4, **KW[method])
        for name in NUMBERS[method]:
            np.testing.assert_array_equal(out[name].sel(collection=c).values, ref[name].values)


@pytest.mark.parametrize("method", PAIRED)
def test_accessor_equals_function(runs, method):
    wide = _wide(runs, "robust04")
    via_accessor = getattr(wide.paired, method)(rng=9, **KW[method])
    via_function = getattr(pairedstats, method)(
        wide.to_numpy(), systems=list(wide.columns), rng=9, **KW[method]
    ).to_dataframe()
    pd.testing.assert_frame_equal(via_accessor[NUMBERS[method]], via_function[NUMBERS[method]])


def test_ranksum_accessor_equals_function():
    ratings = pairedstats.datasets.load_ratings()
    frame = ratings.paired.ranksum(score="deviation", group="changed", a="unchanged", b="changed")
    a = ratings.deviation[ratings.changed == "unchanged"].to_numpy()
    b = ratings.deviation[ratings.changed == "changed"].to_numpy()
    res = pairedstats.ranksum(a, b).to_dataframe()
    cols = ["n_a", "n_b", "rank_sum_a", "u_a", "z", "pvalue", "shift", "ci_low", "ci_high"]
    pd.testing.assert_frame_equal(frame[cols], res[cols])
    assert frame[["group_a", "group_b"]].iloc[0].tolist() == ["unchanged", "changed"]


def test_ranksum_by_groups_in_any_row_order_equal_separate_calls():
    # rows of the groups interleaved and shuffled; each group's samples keep table order
    rng = np.random.default_rng(8)
    n = 90
    frame = pd.DataFrame(
        {
            "task": rng.choice(["t1", "t2", "t3"], n),
            "arm": rng.choice(["a", "b"], n),
            "score": rng.normal(size=n).round(1),
        }
    )
    by = frame.paired.ranksum(score="score", group="arm", a="a", b="b", by="task")
    assert by["task"].tolist() == list(dict.fromkeys(frame["task"]))
    cols = ["n_a", "n_b", "rank_sum_a", "u_a", "pvalue", "shift", "ci_low", "ci_high"]
    for task, row in by.set_index("task").iterrows():
        part = frame[frame.task == task]
        alone = pairedstats.ranksum(
            part.score[part.arm == "a"].to_numpy(), part.score[part.arm == "b"].to_numpy()
        ).to_dataframe()
        np.testing.assert_array_equal(
            row[cols].to_numpy(float), alone[cols].iloc[0].to_numpy(float)
        )


def test_baseline_error_through_the_accessor(runs):
    with pytest.raises(ValueError, match="`baseline` must be one of the systems"):
        runs.paired.bootstrap(
            item="query", system="run", score="ndcg", by="collection", baseline="bm26"
        )


def test_warnings_name_the_users_line(runs):
    """Functions and accessors alike attribute their warnings to the caller's line."""
    wide = _wide(runs, "msmarco")
    wide.iloc[0, 1] = np.nan
    calls = [
        lambda: wide.paired.bootstrap(missing="complete", n_resamples=200, rng=1),
        lambda: wide.paired.tukey_hsd(missing="complete", n_resamples=200, rng=1),
        lambda: pairedstats.tukey_hsd(wide.to_numpy(), missing="complete", n_resamples=200),
        lambda: pairedstats.ranksum([1.0, 2.0], [3.0, 4.0]),
        lambda: pd.DataFrame({"a": [1.0, 2.0], "b": [3.0, 4.0]}).paired.ranksum(),
    ]
    for call in calls:
        with pytest.warns(UserWarning, match=".") as caught:
            call()
        assert {w.filename for w in caught} == {__file__}, [w.filename for w in caught]


@pytest.mark.parametrize("method", PAIRED)
def test_a_dataarray_behaves_as_its_dataset(method):
    values = np.random.default_rng(4).random((2, 12, 3))
    da = xr.DataArray(values, dims=("seed", "item", "system"), name="ndcg",
                      coords={"seed": [1, 2], "system": ["a", "b", "c"]})  # fmt: skip
    got = getattr(da.paired, method)(rng=5, **KW[method])
    want = getattr(da.to_dataset().paired, method)(rng=5, **KW[method])
    xr.testing.assert_identical(got, want)
    unnamed = getattr(da.rename(None).paired, method)(rng=5, **KW[method])
    xr.testing.assert_identical(unnamed, want)


def test_a_dataarray_ranksum():
    da = xr.DataArray(np.arange(10.0).reshape(2, 5), dims=("group", "item"),
                      coords={"group": ["u", "v"]})  # fmt: skip
    got = da.paired.ranksum()
    want = da.to_dataset(name="score").paired.ranksum()
    xr.testing.assert_identical(got, want)
    assert float(got["shift"].item()) == 5.0


@pytest.mark.parametrize("method", PAIRED)
@pytest.mark.parametrize("keys", [["collection"], ["collection", "half"]])
def test_groupby_apply_equals_by_and_a_copy_equals_an_ungrouped_call(runs, method, keys):
    """API.md: inside ``groupby(key).apply`` the numbers equal ``by=key``; the group's key
    (pandas' ``name`` of the group frame) keys the streams, a plain copy of the rows does not."""
    table = runs.assign(half=np.where(runs["query"].rank(method="dense") % 2 == 0, "even", "odd"))
    kw = dict(item="query", system="run", score="ndcg", rng=5, **KW[method])
    by = getattr(table.paired, method)(by=keys, **kw)
    applied = table.groupby(keys if len(keys) > 1 else keys[0]).apply(
        lambda g: getattr(g.paired, method)(**kw)
    )
    applied = applied.reset_index(level=list(range(len(keys))))
    applied.columns = [*keys, *applied.columns[len(keys) :]]
    index = [*keys, "system_a", "system_b"]
    expected = by.set_index(index).sort_index()[NUMBERS[method]]
    pd.testing.assert_frame_equal(applied.set_index(index).sort_index()[NUMBERS[method]], expected)
    # the same rows outside groupby are an ungrouped table: other streams, other draws
    first = tuple(expected.index[0][: len(keys)])
    rows = table[(table[keys] == pd.Series(first, index=keys)).all(axis=1)].drop(columns=keys)
    alone = getattr(rows.copy().paired, method)(**kw).set_index(["system_a", "system_b"])
    drawn = NUMBERS[method][-3:]
    assert not np.array_equal(alone[drawn].to_numpy(), expected.loc[first][drawn].to_numpy())
