"""The ``.paired`` accessor of dask DataFrames (``pairedstats.dask_frames``): the numbers of
the pandas road on ``ddf.compute()``, bit for bit, for every method's default call, with and
without ``by=``, in any partitioning or order of partitions and rows; the pandas road's
errors; Parquet; and its registration in either order of the imports, without ``import
pairedstats`` importing dask. On a distributed LocalCluster (2 workers of 1 thread)."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from tests import specs

import pairedstats
from pairedstats.methods._shared import registry

distributed = pytest.importorskip("distributed")
dd = pytest.importorskip("dask.dataframe")
dask = pytest.importorskip("dask")

SYSTEMS = ["zeta", "alpha", "mid"]  # never sorted
GROUPS = ["u", "k", "m"]
N_ITEMS = 12


def _paired(binary: bool) -> pd.DataFrame:
    rng = np.random.default_rng(44)
    n = len(GROUPS) * N_ITEMS * len(SYSTEMS)
    score = rng.normal(size=n) + np.tile([0.0, 0.4, 0.7], n // 3)
    return pd.DataFrame({
        "g": np.repeat(GROUPS, N_ITEMS * len(SYSTEMS)),
        "item": np.tile(np.repeat([f"q{i}" for i in range(N_ITEMS)][::-1], 3), len(GROUPS)),
        "system": SYSTEMS * (n // 3),
        "score": (score > 0.3).astype(float) if binary else score,
    })  # fmt: skip


def _two_sample() -> pd.DataFrame:
    rng = np.random.default_rng(45)
    n = 60
    return pd.DataFrame({"g": np.repeat(GROUPS, n // 3), "x": rng.normal(size=n),
                         "side": np.tile(["b", "a", "b", "a", "a"], n // 5)})  # fmt: skip


def _call(name: str, by: str | None = "g"):
    """The method's default call (tests/specs.py) on its table: (table, keywords)."""
    spec = registry.SPECS[name]
    kw = specs.keywords(spec, rng=5, n_resamples=200)
    if spec.road == "two-sample":
        return _two_sample(), {"score": "x", "group": "side", "by": by, **kw}
    table = _paired(spec.binary_scores)
    return table, {"item": "item", "system": "system", "score": "score", "by": by, **kw}


def _table(result):
    return result.to_frame() if hasattr(result, "to_frame") else result


def _same(ddf, name: str, kw: dict):
    got = _table(getattr(ddf.paired, name)(**kw))
    want = _table(getattr(ddf.compute().paired, name)(**kw))
    pd.testing.assert_frame_equal(got, want, check_exact=True)
    assert got.attrs == want.attrs
    return got


def _partitionings(table: pd.DataFrame):
    """The same rows as dask DataFrames of 1, 3 and 7 partitions, the 7 partitions in
    another order, and the rows shuffled."""
    yield "1", dd.from_pandas(table, npartitions=1, sort=False)
    yield "3", dd.from_pandas(table, npartitions=3, sort=False)
    seven = dd.from_pandas(table, npartitions=7, sort=False)
    yield "7", seven
    yield "7-reordered", dd.concat([seven.partitions[i] for i in (4, 0, 6, 2, 5, 1, 3)])
    rows = table.sample(frac=1.0, random_state=3).reset_index(drop=True)
    yield "rows-shuffled", dd.from_pandas(rows, npartitions=3, sort=False)


#: The partitionings every method runs in (bootstrap and Tukey HSD: all of them).
HARDEST = ("7-reordered", "rows-shuffled")


#: The methods the quick loop checks; every other one is checked in the full run (slow).
QUICK = ("signtest", "cv_ttest")


@pytest.mark.parametrize("name", [
    n if n in QUICK else pytest.param(n, marks=pytest.mark.slow) for n in registry.SPECS
])  # fmt: skip
def test_every_method_equals_the_pandas_road_in_every_partitioning(client, name):
    table, kw = _call(name)
    for label, ddf in _partitionings(table):
        if label in HARDEST or name in ("bootstrap", "tukey_hsd"):
            got = _same(ddf, name, kw)
            assert len(got) >= len(GROUPS), label
    _same(dd.from_pandas(table[table.g == "k"], npartitions=3, sort=False), name,
          {**kw, "by": None})  # fmt: skip


def test_groups_follow_the_table_s_order_of_first_appearance(client):
    table, kw = _call("bootstrap")
    rows = table.sample(frac=1.0, random_state=8).reset_index(drop=True)
    got = rows.pipe(dd.from_pandas, npartitions=5, sort=False).paired.bootstrap(**kw)
    assert list(dict.fromkeys(got["g"])) == list(dict.fromkeys(rows["g"]))
    assert list(dict.fromkeys(got["system_a"])) == list(dict.fromkeys(rows["system"]))[:2]


def test_result_objects_equal_the_pandas_road_s(client):
    table, kw = _call("bootstrap")
    ddf = dd.from_pandas(table, npartitions=4, sort=False)
    got = ddf.paired.bootstrap(**kw, as_result=True)
    want = table.paired.bootstrap(**kw, as_result=True)
    assert got.group_keys == want.group_keys == (("u",), ("k",), ("m",))
    np.testing.assert_array_equal(got.bootstrap_distribution, want.bootstrap_distribution)
    assert got.metadata == want.metadata
    table, kw = _call("report")
    report = dd.from_pandas(table, npartitions=4, sort=False).paired.report(
        **{**kw, "baseline": "zeta"}, ranks=True, mcs=True
    )
    pd.testing.assert_frame_equal(
        report.to_frame(), table.paired.report(**{**kw, "baseline": "zeta"}, ranks=True,
                                               mcs=True).to_frame(), check_exact=True,
    )  # fmt: skip


def test_a_group_without_a_system_is_read_as_in_the_whole_table(client):
    table, kw = _call("signtest")
    table = table[~((table.g == "k") & (table.system == "mid"))]
    ddf = dd.from_pandas(table, npartitions=3, sort=False)
    with pytest.raises(ValueError, match="missing") as want:
        table.paired.signtest(**kw)
    with pytest.raises(ValueError, match="missing") as got:
        ddf.paired.signtest(**kw)
    assert str(got.value) == str(want.value)
    _same(ddf, "signtest", {**kw, "systems": ["alpha", "zeta"]})


def _broken():
    table, kw = _call("bootstrap")
    duplicated = pd.concat([table, table[(table.g == "m")].head(2)], ignore_index=True)
    missing_cell = table.drop(index=[40])
    nan_items = table.astype({"item": object})
    nan_items.loc[[3, 80], "item"] = None
    nan_keys = table.astype({"g": object})
    nan_keys.loc[[5, 90], "g"] = None
    words = table.astype({"score": object})
    words.loc[50, "score"] = "n/a"
    return [
        ("duplicates", duplicated, kw),
        ("missing cell", missing_cell, kw),
        ("unknown score column", table, {**kw, "score": "ndcg"}),
        ("unknown by column", table, {**kw, "by": ["g", "fold"]}),
        ("by is the system", table, {**kw, "by": "system"}),
        ("missing items", nan_items, kw),
        ("missing keys", nan_keys, kw),
        ("non-numeric scores", words, kw),
        ("unknown system", table, {**kw, "systems": ["zeta", "omega"]}),
        ("unknown keyword value", table, {**kw, "missing": "drop"}),
    ]


def test_a_column_named_as_the_road_s_own_is_refused(client):
    table, kw = _call("signtest")
    ddf = dd.from_pandas(table.assign(__pairedstats_row__=1), npartitions=2, sort=False)
    with pytest.raises(ValueError, match="`by`: the table has a column named '__pairedstats_row"):
        ddf.paired.signtest(**kw)


@pytest.mark.parametrize(("case", "table", "kw"), _broken(), ids=[c[0] for c in _broken()])
def test_errors_are_the_pandas_road_s(client, case, table, kw):
    # one group at fault (dask would make text of every score of an object column)
    with dask.config.set({"dataframe.convert-string": False}):
        ddf = dd.from_pandas(table, npartitions=3, sort=False)
    with pytest.raises((ValueError, TypeError)) as want:
        ddf.compute().paired.bootstrap(**kw)
    with pytest.raises(want.type) as got:
        ddf.paired.bootstrap(**kw)
    assert str(got.value) == str(want.value), case


def test_ranksum_groups_without_a_side_are_read_as_in_the_whole_table(client):
    table, kw = _call("ranksum")
    table = table[~((table.g == "m") & (table.side == "a"))]
    with pytest.raises(ValueError, match="none") as want:
        table.paired.ranksum(**kw)
    with pytest.raises(ValueError, match="none") as got:
        dd.from_pandas(table, npartitions=3, sort=False).paired.ranksum(**kw)
    assert str(got.value) == str(want.value)


def test_read_from_parquet(client, tmp_path):
    table, kw = _call("tukey_hsd")
    path = tmp_path / "scores.parquet"
    table.to_parquet(path, row_group_size=25)
    ddf = dd.read_parquet(path, split_row_groups=True)
    got = _same(ddf, "tukey_hsd", kw)
    want = table.paired.tukey_hsd(**kw)
    pd.testing.assert_frame_equal(got, want, check_exact=True)


def test_wide_tables_by_groups(client):
    table, _ = _call("bootstrap")
    wide = table.pivot(index=["g", "item"], columns="system", values="score")[SYSTEMS]
    wide = wide.reset_index()
    _same(dd.from_pandas(wide, npartitions=4, sort=False), "bootstrap",
          {"item": "item", "by": "g", "rng": 5, "n_resamples": 200})  # fmt: skip


def test_the_accessor_has_the_pandas_signatures_and_docs():
    import inspect

    acc = pairedstats.dask_frames.PairedDaskDataFrameAccessor
    for name in registry.SPECS:
        mine, theirs = getattr(acc, name), getattr(pairedstats.accessors.PairedDataFrameAccessor,
                                                   name)  # fmt: skip
        assert inspect.signature(mine) == inspect.signature(theirs)
        assert mine.__doc__ == theirs.__doc__


#: A fresh process: pairedstats imported without dask, then dask.dataframe; or the reverse.
_ORDERS = {
    "pairedstats first": "import sys\nimport pairedstats\n"
    "assert not [m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')]\n"
    "import dask.dataframe as dd\n",
    "dask first": "import dask.dataframe as dd\nimport pairedstats\n",
}
_USE = (
    "import pandas as pd\n"
    "frame = pd.DataFrame({'a': [1.0, 2.0, 3.5], 'b': [1.5, 2.5, 3.0]})\n"
    "ddf = dd.from_pandas(frame, npartitions=2)\n"
    "print(type(ddf.paired).__name__, ddf.paired.signtest()['wins'].tolist())\n"
)


@pytest.mark.slow  # two fresh interpreters
@pytest.mark.parametrize("order", list(_ORDERS))
def test_registered_whichever_import_comes_first(order):
    src = str(Path(pairedstats.__file__).parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", _ORDERS[order] + _USE], capture_output=True,
                         text=True, env=env, check=False)  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["PairedDaskDataFrameAccessor", "[2]"]


@pytest.mark.slow
def test_clusters_strata_replicates_repeats_and_several_keys(client):
    table, kw = _call("bootstrap")
    rng = np.random.default_rng(9)
    item_number = table["item"].str[1:].astype(int)
    table = table.assign(
        h=np.where(np.arange(len(table)) % 2, 7, 3)[item_number],  # integer keys, per item
        topic=(item_number // 3).astype(str),
        stratum=np.where(item_number < 6, "hard", "easy"),
        seed=0,
        p10=rng.integers(0, 11, size=len(table)) / 10,
    )
    calls = {
        "cluster and strata": ("bootstrap", {**kw, "cluster": "topic", "strata": "stratum"}),
        "two keys": ("bootstrap", {**kw, "by": ["h", "g"]}),
        "rank by two keys": ("rank", {**kw, "by": ["g", "h"]}),
        "report of two metrics": ("report", {**kw, "score": ["score", "p10"], "baseline": "mid"}),
    }
    seeds = pd.concat([table.assign(seed=s, score=table.score + rng.normal(size=len(table)))
                       for s in (11, 4)], ignore_index=True)  # fmt: skip
    folds = table.assign(rep=item_number % 2, fold=item_number // 2).drop(columns="item")
    for case, (name, call) in calls.items():
        _same(dd.from_pandas(table, npartitions=5, sort=False), name, call)
        assert case
    _same(dd.from_pandas(seeds, npartitions=6, sort=False), "bootstrap",
          {**kw, "replicate": "seed"})  # fmt: skip
    cv = {"item": "fold", "system": "system", "score": "score", "by": "g", "repeat": "rep",
          "test_fraction": 0.2}  # fmt: skip
    _same(dd.from_pandas(folds, npartitions=4, sort=False), "cv_ttest", cv)


def test_the_best_set_s_result_object(client):
    table, kw = _call("mcs")
    got = dd.from_pandas(table, npartitions=5, sort=False).paired.mcs(**kw, as_result=True)
    want = table.paired.mcs(**kw, as_result=True)
    assert got.group_keys == want.group_keys
    for name in ("mean", "in_set", "mcs_pvalue", "eliminated"):
        np.testing.assert_array_equal(getattr(got, name), getattr(want, name))
    keys = [k for part in got.comparisons for k in part.group_keys]
    assert sorted(keys) == sorted(want.group_keys)


def test_warnings_are_issued_at_the_caller_s_line(client):
    table, kw = _call("signtest")
    table = table.drop(index=[40, 41])  # group "k" loses an item's scores
    ddf = dd.from_pandas(table, npartitions=3, sort=False)
    whole = {**kw, "by": None, "missing": "complete"}
    whole_table = table[table.g == "k"]
    with pytest.warns(pairedstats.DroppedDataWarning) as want:
        whole_table.paired.signtest(**whole)
    with pytest.warns(pairedstats.DroppedDataWarning) as got:
        dd.from_pandas(whole_table, npartitions=3, sort=False).paired.signtest(**whole)
    assert [str(w.message) for w in got] == [str(w.message) for w in want]
    assert got[0].filename == __file__
    with pytest.warns(pairedstats.DroppedDataWarning) as got:  # the task of group "k"'s
        table_got = ddf.paired.signtest(**kw, missing="complete")
    assert [w.filename for w in got] == [__file__]
    assert str(got[0].message).startswith("missing='complete' dropped 1 of ")
    with pytest.warns(pairedstats.DroppedDataWarning):
        table_want = table.paired.signtest(**kw, missing="complete")
    pd.testing.assert_frame_equal(table_got, table_want, check_exact=True)


def test_categories_integer_items_float_keys_and_wide_indexes(client):
    table, kw = _call("bootstrap")
    categories = table.astype({"g": "category", "system": "category"})
    rows = categories.sample(frac=1.0, random_state=2).reset_index(drop=True)
    _same(dd.from_pandas(rows, npartitions=5, sort=False), "bootstrap", kw)
    table, kw = _call("signrank")
    numbers = table.assign(item=table["item"].str[1:].astype(int),
                           g=table["g"].map({"u": 2.5, "k": 0.5, "m": 1.5}))  # fmt: skip
    _same(dd.from_pandas(numbers, npartitions=4, sort=False), "signrank", kw)
    wide = numbers.pivot(index=["g", "item"], columns="system", values="score")[SYSTEMS]
    wide = wide.reset_index().set_index("item")  # the items are the index
    _same(dd.from_pandas(wide, npartitions=3, sort=False), "signrank", {"by": "g"})
