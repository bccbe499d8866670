"""The streaming road: the bootstrap of means with Poisson weights, reduced to sums.

- ``stream=True`` on a table in memory against first principles: the numpy definition of
  the weights (``core.draws.poisson.weights``, not the compiled kernel), the weighted means
  and numpy's quantiles; its effect sizes and win/tie/loss counts against the in-memory
  road's.
- Invariances: the rows' order, the items cut into any slices, a and b swapped, other
  groups present.
- On dask DataFrames (a distributed LocalCluster): bit equality with the pandas road's
  ``stream=True`` in every partitioning, order of partitions and of rows; the memory budget
  choosing the road; the refusals and the pandas road's errors.
"""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pairedstats
from pairedstats.core.draws import root_entropy
from pairedstats.core.draws.poisson import call_key, item_keys, weights
from pairedstats.core.summed import STREAM, GroupSums, merge_summed, summed_design
from pairedstats.inputs import design_from_frame

SYSTEMS = ["zeta", "alpha", "mid"]  # never sorted
GROUPS = ["u", "k"]


def _table(n_items=30, seed=5, groups=GROUPS) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for g in groups:
        effect = rng.normal(size=n_items)
        for i in rng.permutation(n_items):
            for s, shift in zip(SYSTEMS, (0.0, 0.3, 0.1), strict=True):
                rows.append((g, f"q{i}", s, effect[i] + shift + rng.normal(0, 0.5)))
    return pd.DataFrame(rows, columns=["g", "item", "system", "score"])


KW = dict(item="item", system="system", score="score", n_resamples=999, rng=7)


def _first_principles(frame: pd.DataFrame, group_key: tuple, a: str, b: str, level=0.95):
    """The percentile interval of b - a from the numpy definition of the weights."""
    wide = frame.pivot(index="item", columns="system", values="score")
    key = call_key(root_entropy(KW["rng"]), [STREAM, group_key])
    w = weights(item_keys(wide.index.to_numpy()), key, KW["n_resamples"]).astype(float)
    means = (w.T @ wide[[a, b]].to_numpy()) / w.sum(axis=0)[:, None]
    reps = means[:, 1] - means[:, 0]
    tail = (1 - level) / 2
    return np.quantile(reps, [tail, 1 - tail]), reps


def test_stream_equals_first_principles():
    frame = _table()
    got = frame.paired.bootstrap(**KW, by="g", stream=True)
    memory = frame.paired.bootstrap(**KW, by="g")
    for key in GROUPS:
        rows = frame[frame["g"] == key]
        for _, row in got[got["g"] == key].iterrows():
            (low, high), reps = _first_principles(rows, (key,), row["system_a"], row["system_b"])
            assert row["ci_low"] == pytest.approx(low, abs=1e-12)
            assert row["ci_high"] == pytest.approx(high, abs=1e-12)
            assert row["standard_error"] == pytest.approx(reps.std(ddof=1), rel=1e-10)
            wide = rows.pivot(index="item", columns="system", values="score")
            d = wide[row["system_b"]] - wide[row["system_a"]]
            assert row["difference"] == pytest.approx(d.mean(), abs=1e-14)
            assert row["effect_size"] == pytest.approx(d.mean() / d.std(ddof=1), rel=1e-12)
    # the in-memory road's counts, effect sizes and point estimates; other intervals
    for column in ("wins", "ties", "losses", "n_items", "system_a", "system_b"):
        assert got[column].tolist() == memory[column].tolist()
    for column in ("difference", "effect_size", "mean_a", "mean_b"):
        np.testing.assert_allclose(got[column], memory[column], rtol=1e-12, atol=1e-15)
    assert not np.array_equal(got["ci_low"], memory["ci_low"])


def test_pvalue_inverts_the_interval():
    """The p-value is below 1 - level exactly when the interval excludes 0; adjustments
    and max-t give their columns."""
    frame = _table(n_items=40)
    out = frame.paired.bootstrap(**KW, stream=True, adjust="max-t", by="g")
    excludes = (out["ci_low"] > 0) | (out["ci_high"] < 0)
    assert ((out["pvalue"] < 0.05) == excludes).all()
    assert (out["ci_low_adjusted"] <= out["ci_low"]).all()
    assert (out["ci_high_adjusted"] >= out["ci_high"]).all()
    holm = frame.paired.bootstrap(**KW, stream=True, adjust="holm", by="g")
    assert holm["pvalue"].tolist() == out["pvalue"].tolist()
    assert (holm["pvalue_adjusted"] >= holm["pvalue"]).all()


def test_metadata_and_result_object():
    frame = _table(groups=["u"])
    res = frame.paired.bootstrap(**KW, stream=True, as_result=True)
    assert res.metadata["stream"] is True
    assert res.metadata["poisson_stream_version"] == 1
    assert res.bootstrap_distribution.shape == (1, 3, KW["n_resamples"])
    assert "poisson_stream_version" not in frame.paired.bootstrap(**KW, as_result=True).metadata


def test_empty_resamples_warn():
    """With few items some Poisson resamples hold no item: their means are undefined, and
    the warning says so (not the `statistic` one)."""
    frame = _table(n_items=3, groups=["u"])
    with pytest.warns(pairedstats.NaNReplicatesWarning, match="every item drew weight 0"):
        out = frame.paired.bootstrap(**KW, stream=True)
    assert out["ci_low"].isna().all()


def test_slices_merge_to_the_whole():
    """Sums of any slices of the items, merged in any order, are those of the whole."""
    frame = _table(groups=["u"])
    design = design_from_frame(frame, item="item", system="system", score="score")
    pairs = [(0, 1), (0, 2), (1, 2)]
    whole = summed_design(design, pairs, root=3, n_resamples=64).groups[0]
    rng = np.random.default_rng(0)
    x, items = design.scores[:, :, 0], np.asarray(design.items)
    for _ in range(5):
        cut = np.sort(rng.choice(np.arange(1, len(items)), size=3, replace=False))
        key = call_key(3, [STREAM, ()])
        parts = [GroupSums.of(x[s], items[s], pairs, key=key, n_resamples=64)
                 for s in np.split(rng.permutation(len(items)), cut)]  # fmt: skip
        merged = parts[0]
        for p in parts[1:]:
            merged = p.merge(merged)
        np.testing.assert_array_equal(merged.tallies.sums, whole.tallies.sums)
        np.testing.assert_array_equal(merged.tallies.weights, whole.tallies.weights)
        np.testing.assert_array_equal(merged.signs, whole.signs)
        np.testing.assert_allclose(merged.moments.sum(axis=0), whole.moments.sum(axis=0),
                                   rtol=1e-15)  # fmt: skip
        assert merged.n_items == whole.n_items


def _by_label(table: pd.DataFrame) -> pd.DataFrame:
    """The rows in the order of their labels (the systems' order is the table's)."""
    return table.sort_values(["g", "system_a", "system_b"]).reset_index(drop=True)


def test_a_slice_of_items_may_hold_one_item_of_a_group():
    """The reader of a partition of the streaming road (``items_slice``) takes a group of
    one item, which a table is refused (its slices' sums are checked when merged)."""
    one = _table(n_items=1, groups=["u"])
    kw = dict(item="item", system="system", score="score", by="g")
    with pytest.raises(ValueError, match="at least 2 items"):
        design_from_frame(one, **kw)
    design = design_from_frame(one, **kw, items_slice=True)
    assert design.n_items().tolist() == [1]
    summed = summed_design(design, [(0, 1)], root=1, n_resamples=4)
    with pytest.raises(ValueError, match="at least 2 items in group"):
        pairedstats.bootstrap_design(summed, n_resamples=4, rng=1)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(15, 30))
def test_invariances(seed, n):
    """Rows in any order, a and b swapped (the baseline), another group present: the same
    numbers (negated for the swap), labels travelling with them."""
    frame = _table(n_items=n, seed=seed, groups=["u"])
    call = dict(KW, baseline="zeta", by="g", stream=True)
    base = frame.paired.bootstrap(**call)
    shuffled = frame.sample(frac=1, random_state=seed)
    again = shuffled.paired.bootstrap(**call)
    pd.testing.assert_frame_equal(_by_label(base), _by_label(again), check_exact=False,
                                  rtol=1e-13, atol=1e-15)  # fmt: skip
    other = pd.concat([_table(n_items=n + 2, seed=seed + 1, groups=["v"]), frame])
    both = other.paired.bootstrap(**call)
    alone = both[both["g"] == "u"].reset_index(drop=True)
    pd.testing.assert_frame_equal(base, alone, check_exact=False, rtol=1e-13, atol=1e-15)
    swapped = frame.paired.bootstrap(**{**call, "baseline": "alpha"})
    row = swapped[swapped["system_b"] == "zeta"].iloc[0]
    ref = base[base["system_b"] == "alpha"].iloc[0]
    assert row["difference"] == pytest.approx(-ref["difference"], abs=1e-15)
    assert row["ci_low"] == pytest.approx(-ref["ci_high"], abs=1e-13)
    assert row["ci_high"] == pytest.approx(-ref["ci_low"], abs=1e-13)
    assert (row["wins"], row["losses"]) == (ref["losses"], ref["wins"])


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (dict(method="bca"), "BCa's acceleration needs each item's jackknife influence"),
        (dict(method="studentized"), "each resample's standard error"),
        (dict(resampling="counts"), "leave resampling='auto'"),
        (dict(statistic=lambda x, axis=-1: x.mean(axis=axis)), "`statistic` is not supported"),
        (dict(strata="g"), "`strata` is not supported"),
        (dict(stream="yes"), "stream"),
    ],
)
def test_refusals(extra, message):
    frame = _table(groups=["u"])
    with pytest.raises((ValueError, TypeError), match=message):
        frame.paired.bootstrap(**{**KW, "stream": True, **extra})


def test_merge_refuses_other_comparisons():
    frame = _table(groups=["u"])
    design = design_from_frame(frame, item="item", system="system", score="score")
    one = summed_design(design, [(0, 1)], root=1, n_resamples=4)
    two = summed_design(design, [(0, 2)], root=1, n_resamples=4)
    with pytest.raises(ValueError, match="same systems and comparisons"):
        merge_summed([one, two])


# ------------------------------------------------------------------ on dask DataFrames
distributed = pytest.importorskip("distributed")
dask = pytest.importorskip("dask")
dd = pytest.importorskip("dask.dataframe")
dask_frames = pytest.importorskip("pairedstats.dask_frames")


@pytest.fixture(autouse=True)
def _small_tasks(monkeypatch):
    """Tasks of 25 rows on the streaming road: the small tables of these tests are shuffled
    into many partitions, some holding one item of a group, most a part of it."""
    monkeypatch.setattr(dask_frames, "STREAM_ROWS", 25)


DASK_CALLS = [dict(), dict(baseline="mid"), dict(adjust="max-t", by="g"),
              dict(by="g", baseline="alpha", alternative="greater")]  # fmt: skip


@pytest.mark.parametrize("call", DASK_CALLS)
def test_dask_equals_pandas_stream(client, call):
    frame = _table(n_items=40)
    if "by" not in call:
        frame = frame[frame["g"] == "u"]
    for n, seed in ((1, 0), (3, 1), (7, 2)):
        rows = frame.sample(frac=1, random_state=seed)
        ddf = dd.from_pandas(rows, npartitions=n, sort=False)
        parts = [ddf.get_partition(i) for i in reversed(range(ddf.npartitions))]
        for table in (ddf, dd.concat(parts)):
            expected = table.compute().paired.bootstrap(**KW, **call, stream=True)
            got = table.paired.bootstrap(**KW, **call, stream=True)
            pd.testing.assert_frame_equal(got, expected, check_exact=True)


@pytest.mark.slow  # eight shuffles on the cluster
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), parts=st.integers(1, 6), n=st.integers(15, 30),
       task_rows=st.sampled_from([3, 7, 50, 250_000]))  # fmt: skip
def test_dask_partitions_never_matter(client, seed, parts, n, task_rows):
    """Any partitioning, any order of the rows and of the partitions, any size of the
    shuffle's tasks: the numbers of the table in memory (in that order) with
    ``stream=True``, bit for bit."""
    dask_frames.STREAM_ROWS = task_rows  # the fixture puts it back after the test
    rows = _table(n_items=n, seed=seed).sample(frac=1, random_state=seed)
    ddf = dd.from_pandas(rows, npartitions=parts, sort=False)
    order = np.random.default_rng(seed).permutation(ddf.npartitions)
    shuffled = dd.concat([ddf.get_partition(int(i)) for i in order])
    expected = shuffled.compute().paired.bootstrap(**KW, by="g", adjust="max-t", stream=True)
    got = shuffled.paired.bootstrap(**KW, by="g", adjust="max-t", stream=True)
    pd.testing.assert_frame_equal(got, expected, check_exact=True)


def test_dask_stream_as_result(client):
    frame = _table(n_items=20)
    ddf = dd.from_pandas(frame, npartitions=3)
    got = ddf.paired.bootstrap(**KW, by="g", stream=True, as_result=True)
    expected = frame.paired.bootstrap(**KW, by="g", stream=True, as_result=True)
    assert got.metadata == expected.metadata
    np.testing.assert_array_equal(got.bootstrap_distribution, expected.bootstrap_distribution)


def test_budget_chooses_the_road(client):
    frame = _table(n_items=20)  # two groups of 60 rows
    ddf = dd.from_pandas(frame, npartitions=3)
    memory = frame.paired.bootstrap(**KW, by="g")
    stream = frame.paired.bootstrap(**KW, by="g", stream=True)
    limit = min(w["memory_limit"] for w in client.scheduler_info()["workers"].values())
    assert dask_frames.worker_memory() == limit
    assert dask_frames.largest_group(ddf, ["g"]) == 60
    assert dask_frames.largest_group(ddf, []) == 120
    assert dask_frames.memory_share() == dask_frames.MEMORY_SHARE
    pd.testing.assert_frame_equal(ddf.paired.bootstrap(**KW, by="g"), memory, check_exact=True)
    # a budget of 59 rows: the streaming road, unless the call asks for the in-memory one
    share = 59 * dask_frames.MEMORY_PER_ROW / limit
    with dask.config.set({"pairedstats.memory-share": share}):
        got = ddf.paired.bootstrap(**KW, by="g", as_result=True)
        assert got.metadata["stream"] is True
        pd.testing.assert_frame_equal(got.to_dataframe(), stream, check_exact=True)
        kept = ddf.paired.bootstrap(**KW, by="g", stream=False)
        pd.testing.assert_frame_equal(kept, memory, check_exact=True)
        # a method without a streaming road refuses the group rather than load it
        with pytest.raises(MemoryError, match="needs every item of a group at once"):
            ddf.paired.signrank(item="item", system="system", score="score", by="g")
    with dask.config.set({"pairedstats.memory-share": 61 * dask_frames.MEMORY_PER_ROW / limit}):
        ddf.paired.signrank(item="item", system="system", score="score", by="g")
    with pytest.raises(TypeError, match="signrank does not take `stream`: it has no stream"):
        ddf.paired.signrank(item="item", system="system", score="score", stream=True)


def test_dask_stream_errors(client):
    frame = _table(n_items=10)
    twice = pd.concat([frame, frame.iloc[[4]]])
    ddf = dd.from_pandas(twice, npartitions=3)
    with pytest.raises(ValueError, match="duplicated pairs") as expected:
        twice.paired.bootstrap(**KW, by="g", stream=True)
    with pytest.raises(ValueError, match="duplicated pairs") as got:
        ddf.paired.bootstrap(**KW, by="g", stream=True)
    assert str(got.value) == str(expected.value)
    missing = dd.from_pandas(frame.drop(index=7), npartitions=2)
    with pytest.raises(ValueError, match="missing"):
        missing.paired.bootstrap(**KW, by="g", stream=True)
    wide = dd.from_pandas(frame[frame["g"] == "u"].pivot(index="item", columns="system",
                                                        values="score").reset_index(),
                          npartitions=2)  # fmt: skip
    with pytest.raises(ValueError, match="reads a tidy table"):
        wide.paired.bootstrap(item="item", n_resamples=99, rng=1, stream=True)
    with pytest.raises(ValueError, match="BCa"):  # before any row is read
        dd.from_pandas(frame, npartitions=2).paired.bootstrap(**KW, stream=True, method="bca")
    with pytest.raises(ValueError, match="no column named 'nope'"):
        dd.from_pandas(frame, npartitions=2).paired.bootstrap(
            **{**KW, "score": "nope"}, stream=True)  # fmt: skip


def test_dask_stream_missing_complete_warns(client):
    frame = _table(n_items=12)
    frame.loc[frame.index[5], "score"] = np.nan
    with pytest.warns(pairedstats.DroppedDataWarning) as expected_warning:
        expected = frame.paired.bootstrap(**KW, by="g", stream=True, missing="complete")
    with pytest.warns(pairedstats.DroppedDataWarning) as got_warning:
        got = dd.from_pandas(frame, npartitions=3).paired.bootstrap(
            **KW, by="g", stream=True, missing="complete")  # fmt: skip
    # one warning for the whole table, with its counts, as the pandas road's
    assert [str(w.message) for w in got_warning] == [str(w.message) for w in expected_warning]
    pd.testing.assert_frame_equal(got, expected, check_exact=True)
    assert got["n_dropped"].tolist() == [1, 1, 1, 0, 0, 0]
    # a group whose every item is dropped: the pandas road's error, not a missing row
    frame.loc[frame["g"] == "k", "score"] = np.nan
    with (pytest.warns(pairedstats.DroppedDataWarning) as expected_warning,
          pytest.raises(ValueError, match="at least 2 items") as expected_error):  # fmt: skip
        frame.paired.bootstrap(**KW, by="g", stream=True, missing="complete")
    with (pytest.warns(pairedstats.DroppedDataWarning) as got_warning,
          pytest.raises(ValueError, match="at least 2 items") as got_error):  # fmt: skip
        dd.from_pandas(frame, npartitions=3).paired.bootstrap(
            **KW, by="g", stream=True, missing="complete")  # fmt: skip
    assert str(got_error.value) == str(expected_error.value)
    assert [str(w.message) for w in got_warning] == [str(w.message) for w in expected_warning]


# ------------------------------------------------------------------ McNemar's counts
def _outcomes(n_items=25, seed=3) -> pd.DataFrame:
    frame = _table(n_items=n_items, seed=seed)
    return frame.assign(score=(frame["score"] > 0.2).astype(float))


MCNEMAR_CALLS = [dict(), dict(baseline="mid", method="mid-p"),
                 dict(adjust="holm", margin=0.1, alternative="greater")]  # fmt: skip


@pytest.mark.parametrize("call", MCNEMAR_CALLS)
def test_mcnemar_stream_equals_memory(client, call):
    """McNemar's counts are exact sums: the streaming road's numbers are the in-memory
    road's, to the bit, in any partitioning."""
    frame = _outcomes()
    kw = dict(item="item", system="system", score="score", by="g", **call)
    assert frame.paired.mcnemar(**kw, stream=True).equals(frame.paired.mcnemar(**kw))
    for n, seed in ((1, 0), (4, 1)):
        rows = frame.sample(frac=1, random_state=seed)
        expected = rows.paired.mcnemar(**kw)
        ddf = dd.from_pandas(rows, npartitions=n, sort=False)
        got = ddf.paired.mcnemar(**kw, stream=True)
        pd.testing.assert_frame_equal(got, expected, check_exact=True)


def test_mcnemar_stream_refusals(client):
    frame = _outcomes(n_items=8)
    ddf = dd.from_pandas(frame.assign(score=frame["score"] * 0.5), npartitions=2)
    with pytest.raises(ValueError, match="must be 0 or 1") as expected:
        frame.assign(score=frame["score"] * 0.5).paired.mcnemar(
            item="item", system="system", score="score", by="g")  # fmt: skip
    with pytest.raises(ValueError, match="must be 0 or 1") as got:
        ddf.paired.mcnemar(item="item", system="system", score="score", by="g", stream=True)
    assert str(got.value).split("; got")[0] == str(expected.value).split("; got")[0]
    clustered = dd.from_pandas(frame.assign(topic=frame["item"].str[:2]), npartitions=2)
    with pytest.raises(ValueError, match="`cluster` is not supported"):
        clustered.paired.mcnemar(item="item", system="system", score="score", cluster="topic",
                                 method="asymptotic", stream=True)  # fmt: skip


# ------------------------------------------------------------------ the ranking and the best set
@pytest.mark.parametrize(
    ("name", "extra"),
    [("rank", {}), ("rank", {"simultaneous": False}), ("mcs", {}),
     ("mcs", {"statistic": "range", "lower_is_better": True})],
)  # fmt: skip
def test_rank_and_mcs_streamed(client, name, extra):
    rows = _table(n_items=40).sample(frac=1, random_state=4)
    ddf = dd.from_pandas(rows, npartitions=4, sort=False)
    expected = getattr(rows.paired, name)(**KW, by="g", stream=True, **extra)
    got = getattr(ddf.paired, name)(**KW, by="g", stream=True, **extra)
    pd.testing.assert_frame_equal(got, expected, check_exact=True)
    res = getattr(rows.paired, name)(**KW, by="g", stream=True, as_result=True, **extra)
    assert all(c.metadata["stream"] is True for c in res.comparisons)


def test_mcs_stream_equals_first_principles():
    """The best set's p-values from the Poisson replicates of the numpy weights, centred on
    the system of smallest squared mean, through the set's core."""
    from pairedstats.core.mcs import system_confidence_set
    from pairedstats.core.ties import tie_error

    frame = _table(n_items=50, groups=["u"])
    got = frame.paired.mcs(**KW, stream=True)
    wide = frame.pivot(index="item", columns="system", values="score")[SYSTEMS]
    x = wide.to_numpy()
    key = call_key(root_entropy(KW["rng"]), [STREAM, ()])
    w = weights(item_keys(wide.index.to_numpy()), key, KW["n_resamples"]).astype(float)
    means = (w.T @ x) / w.sum(axis=0)[:, None]
    point = x.mean(axis=0)
    ref = int(np.argmin(point**2))
    loss = -(point - point[ref])
    replicates = -(means - means[:, [ref]]).T
    found = system_confidence_set(loss, replicates, "max", tie_error(x))
    np.testing.assert_allclose(got["mcs_pvalue"], found.pvalue, rtol=0, atol=1e-12)
    assert got["system"].tolist() == SYSTEMS


# ------------------------------------------------------------------ the report
def _two_metrics(n_items=30) -> pd.DataFrame:
    frame = _table(n_items=n_items)
    return frame.assign(passed=(frame["score"] > 0.2).astype(float))


@pytest.mark.parametrize(
    "extra",
    [dict(baseline="alpha"), dict(baseline="alpha", ranks=True, mcs=True),
     dict(baseline="alpha", margin=0.5, margin_test="noninferiority"), dict()],
)  # fmt: skip
def test_report_streamed(client, extra):
    """The report's marks, letters, rank sets and best sets on the streaming road: those of
    the table in memory with ``stream=True``, bit for bit; each metric's test is the
    bootstrap's streaming road."""
    rows = _two_metrics().sample(frac=1, random_state=5)
    kw = dict(item="item", system="system", score=["score", "passed"], by="g",
              n_resamples=999, rng=3, **extra)  # fmt: skip
    expected = rows.paired.report(**kw, stream=True)
    got = dd.from_pandas(rows, npartitions=3, sort=False).paired.report(**kw, stream=True)
    pd.testing.assert_frame_equal(got.to_frame(), expected.to_frame(), check_exact=True)
    assert str(got) == str(expected)
    assert "stream=True" in str(got).splitlines()[1]
    if "baseline" not in extra:
        return
    for metric, result in got.results.items():  # each metric's test alone
        alone = rows.paired.bootstrap(item="item", system="system", score=metric, by="g",
                                      n_resamples=999, rng=3, stream=True, baseline="alpha",
                                      adjust="holm")  # fmt: skip
        pd.testing.assert_frame_equal(result.to_dataframe()[alone.columns], alone)


def test_report_mcnemar_streamed(client):
    rows = _two_metrics().sample(frac=1, random_state=6)
    kw = dict(item="item", system="system", score="passed", by="g", test="mcnemar",
              baseline="mid")  # fmt: skip
    expected = rows.paired.report(**kw)
    got = dd.from_pandas(rows, npartitions=3, sort=False).paired.report(**kw, stream=True)
    pd.testing.assert_frame_equal(got.to_frame(), expected.to_frame(), check_exact=True)
    with pytest.raises(ValueError, match="McNemar's test the streaming road sums pass/fail"):
        rows.paired.report(**kw, stream=True, ranks=True)
    with pytest.raises(ValueError, match="'tukey_hsd' has no streaming road"):
        rows.paired.report(**{**kw, "test": "tukey_hsd", "score": "score"}, stream=True)


def test_stream_on_a_dataset():
    """An xarray sweep (chunked or not; its systems and groups in sorted order) gives the
    numbers of the tidy table, by label: the weights are keyed by the group's key and the
    items' labels, and a comparison the other way round is negated."""
    frame = _table(n_items=30)
    ds = frame.set_index(["g", "item", "system"])["score"].to_xarray().to_dataset(name="score")
    kw = dict(item="item", system="system", score="score", n_resamples=999, rng=7, stream=True)
    table = frame.paired.bootstrap(**KW, by="g", stream=True).set_index(
        ["g", "system_a", "system_b"])  # fmt: skip
    for sweep in (ds, ds.chunk({"g": 1})):
        out = sweep.paired.bootstrap(**kw)[["ci_low", "ci_high", "wins", "losses"]]
        got = out.to_dataframe().reset_index().set_index(["g", "system_a", "system_b"])
        for (g, a, b), row in table.iterrows():
            if (g, a, b) in got.index:
                cell = got.loc[(g, a, b)]
                assert (cell["ci_low"], cell["wins"]) == (row["ci_low"], row["wins"])
            else:  # (b, a): b - a negated
                cell = got.loc[(g, b, a)]
                assert cell["ci_high"] == pytest.approx(-row["ci_low"], abs=1e-15)
                assert cell["losses"] == row["wins"]


def test_docs_show_the_committed_benchmark():
    """docs/dask.md shows the committed run of benchmark/bench_dask.py (100 million rows),
    whose two roads agree on every difference (the point estimates are sums on both)."""
    import importlib.util
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location(
        "bench_dask", root / "benchmark" / "bench_dask.py"
    )
    cases = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cases)
    result = json.loads((root / "benchmark" / "results" / "dask_streaming.json").read_text())
    assert cases.docs_table((root / "docs" / "dask.md").read_text()) == cases.report(result)
    assert result["rows"] == 100_000_000
    stream, memory = result["streaming"], result["memory"]
    assert len(stream["difference"]) == 45
    np.testing.assert_allclose(stream["difference"], memory["difference"], rtol=1e-10)
