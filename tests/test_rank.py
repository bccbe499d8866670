"""Rankings with uncertainty (``.paired.rank``): rank sets from the bootstrap's simultaneous
intervals, checked by a direct loop over its pairs, by designs whose answer is known, and by
a simulation of the simultaneous coverage."""

import doctest
import math

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from tests.data import unsorted_runs

import pairedstats
from pairedstats import cli

COLUMNS = ["system", "mean", "rank", "rank_low", "rank_high", "may_be_best"]


def _tidy(scores, systems=None, by=None):
    """A tidy table from scores (items, systems), or (groups, items, systems) with ``by``."""
    scores = np.asarray(scores, dtype=float)
    if scores.ndim == 2:
        scores = scores[None]
    n_groups, n_items, p = scores.shape
    systems = list(systems or [f"s{j}" for j in range(p)])
    rows = []
    for g in range(n_groups):
        for i in range(n_items):
            for j in range(p):
                rows.append((g, f"q{i}", systems[j], scores[g, i, j]))
    frame = pd.DataFrame(rows, columns=["group", "item", "system", "score"])
    return frame if by else frame.drop(columns="group")


def _sets_by_loop(bootstrap_frame, systems, lower=False):
    """Rank sets written out from the bootstrap's own simultaneous intervals, pair by pair."""
    surely_better = {s: 0 for s in systems}  # how many are surely better than s
    surely_worse = {s: 0 for s in systems}
    for row in bootstrap_frame.itertuples(index=False):
        # the interval is of mean_b - mean_a
        b_above = row.ci_low_adjusted > 0
        b_below = row.ci_high_adjusted < 0
        b_better, a_better = (b_below, b_above) if lower else (b_above, b_below)
        if b_better:
            surely_better[row.system_a] += 1
            surely_worse[row.system_b] += 1
        if a_better:
            surely_better[row.system_b] += 1
            surely_worse[row.system_a] += 1
    p = len(systems)
    return {s: (1 + surely_better[s], p - surely_worse[s]) for s in systems}


def _point_ranks(means: dict, lower=False):
    sign = -1 if lower else 1
    return {s: 1 + sum(sign * m > sign * means[s] for m in means.values()) for s in means}


def _sets(frame):
    return {r.system: (r.rank_low, r.rank_high) for r in frame.itertuples(index=False)}


@pytest.fixture(scope="module")
def runs():
    return unsorted_runs()


# ---------------------------------------------------------------- against a direct loop
@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize(
    ("p", "n_items", "seed"), [(2, 12, 0), (3, 15, 1), (4, 20, 2), (5, 25, 3)]
)
def test_rank_sets_equal_a_loop_over_the_bootstraps_intervals(p, n_items, seed, lower):
    rng = np.random.default_rng(seed)
    scores = rng.normal(size=(n_items, 1)) + rng.normal(size=(n_items, p)) * 0.5
    scores += np.linspace(0, 0.8, p)[rng.permutation(p)]
    df = _tidy(scores)
    keys = dict(item="item", system="system", score="score", n_resamples=999, rng=seed)
    boot = df.paired.bootstrap(**keys, adjust="max-t")
    out = df.paired.rank(**keys, lower_is_better=lower)
    systems = list(df.system.unique())
    assert list(out.columns) == COLUMNS
    assert out.system.tolist() == systems
    assert _sets(out) == _sets_by_loop(boot, systems, lower)
    means = df.groupby("system").score.mean()
    np.testing.assert_allclose(out["mean"], means[systems].to_numpy(), rtol=1e-12)
    assert dict(zip(out.system, out["rank"])) == _point_ranks(means.to_dict(), lower)
    assert (out.may_be_best == (out.rank_low == 1)).all()
    if p >= 3:  # some pair is told apart, some is not
        assert (out.rank_high - out.rank_low < p - 1).any(), out
        assert (out.rank_high > out.rank_low).any(), out


def test_every_systems_intervals_at_once_equal_them_system_by_system():
    from types import SimpleNamespace

    from pairedstats.methods.rank.run import _against, _against_all

    gen = np.random.default_rng(4)
    systems = ("c", "a", "d", "b")
    pairs = [("c", "a"), ("d", "c"), ("c", "b"), ("a", "d"), ("b", "a"), ("d", "b"), ("a", "c")]
    low = gen.normal(size=(2, len(pairs)))
    result = SimpleNamespace(ci_low_adjusted=low, ci_high_adjusted=low + 1.0)
    columns = {pair: c for c, pair in enumerate(pairs)}  # ("c", "a") and ("a", "c"): both
    for (lows, highs), x in zip(_against_all(result, columns, systems), systems, strict=True):
        want = _against(result, columns, x, systems)
        np.testing.assert_array_equal(lows, want[0])
        np.testing.assert_array_equal(highs, want[1])


def test_rank_sets_equal_the_loop_with_clusters_and_strata():
    rng = np.random.default_rng(7)
    n, p = 30, 4
    scores = rng.normal(size=(n, 1)) + rng.normal(size=(n, p)) * 0.4 + [0, 0.3, 0.3, 0.9]
    df = _tidy(scores)
    df["cluster"] = df.item.map({f"q{i}": i // 3 for i in range(n)})
    df["stratum"] = df.item.map({f"q{i}": "x" if i < 12 else "y" for i in range(n)})
    keys = dict(item="item", system="system", score="score", cluster="cluster",
                strata="stratum", n_resamples=999, rng=4)  # fmt: skip
    boot = df.paired.bootstrap(**keys, adjust="max-t", weights={"x": 0.5, "y": 0.5})
    out = df.paired.rank(**keys, weights={"x": 0.5, "y": 0.5})
    assert _sets(out) == _sets_by_loop(boot, list(df.system.unique()))
    assert out.attrs["cluster"]
    assert out.attrs["strata"]
    assert out.attrs["weights"] == {"x": 0.5, "y": 0.5}


def test_marginal_sets_equal_a_loop_over_each_baseline_and_nest_in_the_simultaneous(runs):
    keys = dict(item="query", system="run", score="ndcg", n_resamples=2000, rng=5)
    robust = runs[runs.collection == "robust04"]
    systems = list(robust.run.unique())
    marginal = robust.paired.rank(**keys, simultaneous=False)
    joint = robust.paired.rank(**keys)
    expected = {}
    for s in systems:
        boot = robust.paired.bootstrap(**keys, baseline=s, adjust="max-t")
        above = (boot.ci_low_adjusted > 0).sum()  # others surely above s
        below = (boot.ci_high_adjusted < 0).sum()
        expected[s] = (1 + above, len(systems) - below)
    assert _sets(marginal) == expected
    assert marginal.attrs["simultaneous"] is False
    # max over p - 1 comparisons of the same resamples <= max over all pairs: nested sets
    assert (marginal.rank_low >= joint.rank_low).all()
    assert (marginal.rank_high <= joint.rank_high).all()
    assert (marginal.rank_high - marginal.rank_low < joint.rank_high - joint.rank_low).any()


# ---------------------------------------------------------------- designs with a known answer
def test_one_clearly_dominant_system():
    rng = np.random.default_rng(11)
    scores = rng.normal(size=(40, 4)) * 0.1 + [0.0, 0.02, 0.01, 2.0]
    out = _tidy(scores).paired.rank(item="item", system="system", score="score",
                                    n_resamples=999, rng=1)  # fmt: skip
    best = out[out.system == "s3"].iloc[0]
    assert (best["rank"], best.rank_low, best.rank_high) == (1, 1, 1)
    assert out.may_be_best.tolist() == [False, False, False, True]
    others = out[out.system != "s3"]
    assert (others.rank_low >= 2).all()
    assert (others.rank_high == 4).all()


def test_systems_with_equal_means_may_take_every_rank():
    # every system's scores are the same integers, shifted along the items: equal means,
    # differences of mean exactly 0, so every interval holds 0 and every set is [1, p]
    values = np.arange(20.0) ** 2 % 7
    scores = np.stack([np.roll(values, 3 * j) for j in range(5)], axis=1)
    out = _tidy(scores).paired.rank(item="item", system="system", score="score",
                                    n_resamples=999, rng=2)  # fmt: skip
    assert out["rank"].tolist() == [1] * 5  # ties share the smaller rank
    assert out.rank_low.tolist() == [1] * 5
    assert out.rank_high.tolist() == [5] * 5
    assert out.may_be_best.all()


def test_systems_equal_in_distribution_have_wide_sets():
    scores = np.random.default_rng(3).normal(size=(30, 4))
    out = _tidy(scores).paired.rank(item="item", system="system", score="score",
                                    n_resamples=999, rng=3)  # fmt: skip
    assert out.rank_low.tolist() == [1] * 4
    assert out.rank_high.tolist() == [4] * 4
    assert sorted(out["rank"]) == [1, 2, 3, 4]


def test_simultaneous_coverage_of_the_true_ranks():
    """200 data sets of 4 systems (true means 0, 0, 0.5, 1.5: two tied), 40 items each, 499
    resamples: the share where every system's true rank set lies inside its rank set is at
    least confidence_level - 3 standard errors."""
    n_sets, n_items, level = 200, 40, 0.95
    mu = np.array([0.0, 0.0, 0.5, 1.5])
    rng = np.random.default_rng(2024)
    item = rng.normal(size=(n_sets, n_items, 1))
    scores = item + mu + rng.normal(size=(n_sets, n_items, 4))
    df = _tidy(scores, by=True)
    out = df.paired.rank(item="item", system="system", score="score", by="group",
                         n_resamples=499, confidence_level=level, rng=99)  # fmt: skip
    # the ranks a system could take: ties may be ordered either way
    true_low = {f"s{j}": 1 + int((mu > mu[j]).sum()) for j in range(4)}
    true_high = {f"s{j}": int((mu >= mu[j]).sum()) for j in range(4)}
    inside = (out.rank_low <= out.system.map(true_low)) & (
        out.rank_high >= out.system.map(true_high)
    )
    covered = inside.groupby(out.group).all()
    assert len(covered) == n_sets
    share = covered.mean()
    se = math.sqrt(level * (1 - level) / n_sets)
    assert share >= level - 3 * se, share
    # and the sets say something: the best system is often alone at the top
    assert (out[out.system == "s3"].rank_high == 1).mean() > 0.5


# ---------------------------------------------------------------- symmetries and roads
def test_lower_is_better_mirrors(runs):
    keys = dict(item="query", system="run", score="ndcg", by="collection", n_resamples=999)
    high = runs.paired.rank(**keys, rng=8)
    low = runs.paired.rank(**keys, rng=8, lower_is_better=True)
    p = runs.run.nunique()
    assert (low.rank_low == p + 1 - high.rank_high).all()
    assert (low.rank_high == p + 1 - high.rank_low).all()
    assert (low["rank"] == p + 1 - high["rank"]).all()  # no ties in these means
    negated = runs.assign(ndcg=-runs.ndcg).paired.rank(**keys, rng=8)
    pd.testing.assert_frame_equal(
        negated[["rank", "rank_low", "rank_high", "may_be_best"]],
        low[["rank", "rank_low", "rank_high", "may_be_best"]],
    )
    assert low.attrs["lower_is_better"] is True


def test_by_groups_equal_groupby_apply_and_each_groups_loop(runs):
    keys = dict(item="query", system="run", score="ndcg", n_resamples=999, rng=6)
    together = runs.paired.rank(**keys, by="collection")
    assert list(together.columns) == ["collection", *COLUMNS]
    # inside groupby().apply the group's key keys its streams, as by= does
    inside = runs.groupby("collection", sort=False).apply(
        lambda g: g.paired.rank(**keys), include_groups=False
    )
    pd.testing.assert_frame_equal(
        inside.reset_index(drop=True), together.drop(columns="collection")
    )
    # each group's sets are its own bootstrap's, and a separate call of one group gives
    # the sets of its own bootstrap (on streams without the group key)
    boot = runs.paired.bootstrap(**keys, by="collection", adjust="max-t")
    for name, part in runs.groupby("collection", sort=False):
        mine = together[together.collection == name]
        systems = list(part.run.unique())
        assert _sets(mine) == _sets_by_loop(boot[boot.collection == name], systems)
        alone = part.paired.rank(**keys)
        assert _sets(alone) == _sets_by_loop(part.paired.bootstrap(**keys, adjust="max-t"),
                                             systems)  # fmt: skip
        np.testing.assert_array_equal(alone["mean"], mine["mean"])
        np.testing.assert_array_equal(alone["rank"], mine["rank"])


def test_xarray_path_equals_the_pandas_path(runs):
    keys = dict(n_resamples=999, rng=9)
    frame = runs.paired.rank(item="query", system="run", score="ndcg", by="collection", **keys)
    # the same items in both collections: the query's position within its collection
    position = runs.groupby("collection", sort=False).cumcount() // runs.run.nunique()
    cube = runs.assign(item=position).set_index(["collection", "item", "run"]).ndcg
    ds = cube.to_xarray().rename(run="system").to_dataset(name="ndcg")
    ds = ds.reindex(collection=list(runs.collection.unique()), system=list(runs.run.unique()))
    out = ds.paired.rank(**keys)
    assert set(out.dims) == {"collection", "system"}
    for name in ("mean", "rank", "rank_low", "rank_high", "may_be_best"):
        for collection in frame.collection.unique():
            sub = frame[frame.collection == collection].set_index("system")[name]
            got = out[name].sel(collection=collection).to_series()
            np.testing.assert_array_equal(got[sub.index].to_numpy(), sub.to_numpy())
    array = ds.ndcg.paired.rank(**keys)
    xr.testing.assert_identical(array, out)
    result = ds.paired.rank(**keys, as_result=True)
    assert isinstance(result, pairedstats.RankResult)
    xr.testing.assert_identical(result.to_dataset(), out)


def test_lazy_dataset_is_ranked_as_in_memory():
    pytest.importorskip("dask")
    scores = np.random.default_rng(4).normal(size=(3, 25, 3)) + np.array([0, 0.2, 1.0])
    ds = xr.Dataset({"acc": (("seed", "item", "system"), scores)},
                    coords={"seed": [1, 2, 3], "system": ["a", "b", "c"]})  # fmt: skip
    eager = ds.paired.rank(n_resamples=500, rng=1)
    lazy = ds.chunk({"seed": 1}).paired.rank(n_resamples=500, rng=1)
    xr.testing.assert_identical(eager, lazy)
    assert eager["rank_low"].sel(seed=2, system="c").item() == 1


def test_result_object_table_and_metadata(runs):
    res = runs.paired.rank(item="query", system="run", score="ndcg", by="collection",
                           n_resamples=999, rng=10, as_result=True)  # fmt: skip
    assert res.systems == ("hybrid", "bm25", "dense", "bm25+rm3")  # the table's order
    assert res.rank.shape == (2, 4)
    assert not res.rank.flags.writeable
    assert len(res.comparisons) == 1
    assert res.comparisons[0].metadata["adjust"] == "max-t"
    assert res.metadata["method"] == "rank"
    assert res.metadata["seed_entropy"] == 10
    assert (res.rank_low <= res.rank).all()
    assert (res.rank <= res.rank_high).all()
    text = str(res)
    assert "0.95 simultaneous rank sets" in text
    assert "robust04" in text
    assert repr(res).startswith("<RankResult: 2 group(s) x 4 systems>")
    again = runs.paired.rank(item="query", system="run", score="ndcg", by="collection",
                             n_resamples=999, rng=res.metadata["seed_entropy"])  # fmt: skip
    pd.testing.assert_frame_equal(again, res.to_dataframe())
    marginal = runs.paired.rank(item="query", system="run", score="ndcg", n_resamples=999,
                                rng=1, simultaneous=False, as_result=True)  # fmt: skip
    assert [c.metadata["baseline"] for c in marginal.comparisons] == list(marginal.systems)
    assert "marginal" in str(marginal)


def test_incomplete_by_grid_becomes_nan_in_the_dataset():
    scores = np.random.default_rng(5).normal(size=(3, 10, 2))
    df = _tidy(scores, by=True)
    df["other"] = df.group.map({0: "x", 1: "y", 2: "x"})
    res = df.paired.rank(item="item", system="system", score="score", by=["group", "other"],
                         n_resamples=200, rng=1, as_result=True)  # fmt: skip
    ds = res.to_dataset()
    assert ds["rank"].dtype == np.float64
    assert np.isnan(ds["rank"].sel(group=0, other="y")).all()
    assert ds["rank"].sel(group=1, other="y").notnull().all()


# ---------------------------------------------------------------- errors, docs, command line
def test_errors():
    wide = pd.DataFrame({"a": [1.0, 2.0, 3.0]})
    with pytest.raises(ValueError, match="at least 2 systems"):
        wide.paired.rank(n_resamples=100, rng=1)
    two = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [2.0, 2.5, 3.5]})
    with pytest.raises(TypeError, match=r"rank: .*'baseline'.*its keywords are item, "):
        two.paired.rank(baseline="a")
    with pytest.raises(TypeError, match=r"rank: .*adjust"):
        two.paired.rank(adjust="holm")
    with pytest.raises(ValueError, match="`lower_is_better`: 'yes' is not one of the metrics"):
        two.paired.rank(lower_is_better="yes")
    with pytest.raises(TypeError, match="`lower_is_better` must be True, False, a metric's"):
        two.paired.rank(lower_is_better=2)
    with pytest.raises(TypeError, match="`simultaneous` must be True or False"):
        two.paired.rank(simultaneous=None)
    with pytest.raises(ValueError, match="confidence_level"):
        two.paired.rank(confidence_level=1.5)
    ds = xr.Dataset({"x": (("item", "system"), np.zeros((3, 2)))})
    with pytest.raises(TypeError, match=r"rank: .*its keywords are item, system"):
        ds.paired.rank(by="seed")


def test_accessor_docstrings_run():
    for method in (pd.DataFrame.paired.rank, xr.Dataset.paired.rank):
        assert "Mogstad, Romano, Shaikh and Wilhelm" in method.__doc__
        parsed = doctest.DocTestParser().get_doctest(method.__doc__, {}, "rank", None, 0)
        runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
        runner.run(parsed)
        assert runner.summarize(verbose=False).failed == 0


def test_command_line(tmp_path, capsys, runs):
    path = tmp_path / "runs.csv"
    runs.to_csv(path, index=False)
    common = [str(path), "--item", "query", "--system", "run", "--score", "ndcg",
              "--by", "collection", "--n-resamples", "999", "--rng", "3"]  # fmt: skip
    assert cli.main(["rank", *common, "--format", "csv"]) == 0
    table = pd.read_csv(__import__("io").StringIO(capsys.readouterr().out))
    expected = runs.paired.rank(item="query", system="run", score="ndcg", by="collection",
                                n_resamples=999, rng=3)  # fmt: skip
    assert list(table.columns) == ["collection", *COLUMNS]
    np.testing.assert_array_equal(table.rank_low, expected.rank_low)
    assert cli.main(["rank", *common, "--marginal", "--lower-is-better"]) == 0
    assert "marginal rank sets" in capsys.readouterr().out
    assert cli.main(["rank", *common, "--systems", "bm25"]) == 2
    assert "--systems: a comparison needs at least 2 systems" in capsys.readouterr().err


def test_report_shows_each_metrics_rank_sets(runs):
    keys = dict(item="query", system="run", by="collection", n_resamples=999)
    rep = runs.paired.report(**keys, score=["ndcg", "p10"], baseline="bm25", rng=12,
                             ranks=True, lower_is_better="p10")  # fmt: skip
    frame = rep.to_frame()
    for metric in ("ndcg", "p10"):
        alone = runs.paired.rank(**keys, score=metric, rng=12, lower_is_better=metric == "p10")
        alone = alone.set_index(["collection", "system"]).loc[frame.index]  # by label
        assert frame[(metric, "rank_low")].tolist() == alone.rank_low.tolist()
        assert frame[(metric, "rank_high")].tolist() == alone.rank_high.tolist()
        assert rep.ranks[metric].metadata["seed_entropy"] == 12
    low, high = frame.loc[("robust04", "bm25"), [("ndcg", "rank_low"), ("ndcg", "rank_high")]]
    shown = f"({low})" if low == high else f"({low}-{high})"
    assert f"0.456  {shown}" in str(rep)  # bm25 is the baseline: no mark
    assert "(low-high): the ranks a system may hold" in str(rep)
    assert shown.replace("-", "\\mbox{--}") in rep.to_latex()
    assert "\\mbox{--}" in rep.to_latex()
    plain = runs.paired.report(**keys, score=["ndcg"], baseline="bm25", rng=12)
    assert "rank_low" not in plain.to_frame()["ndcg"].columns
    assert plain.ranks is None
    default = runs.paired.report(item="query", system="run", score="ndcg", rng=12, ranks=True,
                                 systems=["bm25", "hybrid"])  # fmt: skip
    assert default.ranks["ndcg"].metadata["n_resamples"] == 10_000
    with pytest.raises(TypeError, match="`ranks` must be True or False"):
        runs.paired.report(**keys, score=["ndcg"], ranks="yes")
