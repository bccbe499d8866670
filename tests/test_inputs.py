"""The input layer: parsing of tidy, wide, xarray and array inputs, and every error message."""

import numpy as np
import pandas as pd
import pytest
import xarray as xr

from pairedstats import DroppedDataWarning
from pairedstats._inputs import (
    design_from_array,
    design_from_dataset,
    design_from_frame,
    two_sample_from_arrays,
    two_sample_from_dataset,
    two_sample_from_frame,
)


@pytest.fixture
def tidy():
    rng = np.random.default_rng(42)
    rows = []
    for g in ("g1", "g2"):
        for q in range(5):
            for s in ("x", "y", "z"):
                rows.append((g, f"q{q}", s, float(rng.integers(0, 20)) / 20, q % 2))
    return pd.DataFrame(rows, columns=["ds", "query", "run", "ndcg", "cl"])


def wide_of(tidy, group="g1"):
    sub = tidy[tidy.ds == group]
    return sub.pivot(index="query", columns="run", values="ndcg")[["x", "y", "z"]]


# ----------------------------------------------------------------------------- parsing
def test_tidy_parsing_orders_and_groups(tidy):
    d = design_from_frame(tidy, item="query", system="run", score="ndcg", by="ds")
    assert d.systems == ("x", "y", "z")
    assert d.group_names == ("ds",)
    assert d.group_keys == (("g1",), ("g2",))
    assert d.offsets.tolist() == [0, 5, 10]
    expect = wide_of(tidy, "g2").to_numpy()
    np.testing.assert_array_equal(d.scores[5:, :, 0], expect)
    assert list(d.items[:5]) == [f"q{i}" for i in range(5)]


def test_tidy_and_wide_give_the_same_design(tidy):
    d_tidy = design_from_frame(tidy[tidy.ds == "g1"], item="query", system="run", score="ndcg")
    d_wide = design_from_frame(wide_of(tidy))
    np.testing.assert_array_equal(d_tidy.scores, d_wide.scores)
    assert d_tidy.systems == d_wide.systems
    assert list(d_tidy.items) == list(d_wide.items)


def test_tidy_order_is_first_appearance_and_systems_select(tidy):
    shuffled = tidy.iloc[::-1]
    d = design_from_frame(shuffled, item="query", system="run", score="ndcg", by="ds")
    assert d.systems == ("z", "y", "x")
    assert d.group_keys == (("g2",), ("g1",))
    d = design_from_frame(
        tidy, item="query", system="run", score="ndcg", systems=["z", "x"], by="ds"
    )
    assert d.systems == ("z", "x")
    np.testing.assert_array_equal(d.scores[:5, 0, 0], wide_of(tidy)["z"].to_numpy())


def test_wide_with_item_column_and_by(tidy):
    wide = tidy.pivot(index=["ds", "query"], columns="run", values="ndcg").reset_index()
    d = design_from_frame(wide, item="query", by="ds")
    assert d.systems == ("x", "y", "z")
    assert d.group_keys == (("g1",), ("g2",))
    d2 = design_from_frame(tidy, item="query", system="run", score="ndcg", by="ds")
    np.testing.assert_array_equal(d.scores, d2.scores)


def test_wide_refuses_a_non_numeric_column_unless_systems_name_the_systems(tidy):
    wide = wide_of(tidy).assign(note="text")
    with pytest.raises(
        TypeError, match=r"`systems`: in a wide table every column .* 'note' is not"
    ):
        design_from_frame(wide)
    assert design_from_frame(wide, systems=["y", "x"]).systems == ("y", "x")


def test_several_score_columns(tidy):
    tidy = tidy.assign(p10=tidy.ndcg * 2)
    d = design_from_frame(tidy, item="query", system="run", score=["ndcg", "p10"], by="ds")
    assert d.columns == ("ndcg", "p10")
    np.testing.assert_array_equal(d.scores[..., 1], 2 * d.scores[..., 0])


def test_cluster_and_strata_codes(tidy):
    d = design_from_frame(
        tidy, item="query", system="run", score="ndcg", by="ds", cluster="cl", strata="ds"
    )
    assert d.cluster.tolist() == [0, 1, 0, 1, 0] * 2
    assert d.cluster_labels == (0, 1)
    assert d.strata.tolist() == [0] * 5 + [1] * 5
    assert d.strata_labels == ("g1", "g2")


def test_array_design():
    d = design_from_array(
        np.arange(12.0).reshape(4, 3), systems=["a", "b", "c"], groups=[1, 2, 1, 2]
    )
    assert d.group_keys == ((1,), (2,))
    np.testing.assert_array_equal(d.scores[:, 0, 0], [0.0, 6.0, 3.0, 9.0])
    assert list(d.items) == [0, 2, 1, 3]


def test_dataset_sweeps_flatten_to_groups():
    rng = np.random.default_rng(0)
    values = rng.random((2, 3, 6, 4))
    ds = xr.Dataset(
        {"acc": (("seed", "lr", "item", "system"), values)},
        coords={"seed": [10, 20], "lr": [0.1, 0.01, 0.001], "system": list("abcd")},
    )
    d = design_from_dataset(ds)
    assert d.group_names == ("seed", "lr")
    assert d.group_keys[:4] == ((10, 0.1), (10, 0.01), (10, 0.001), (20, 0.1))
    assert d.offsets.tolist() == list(range(0, 37, 6))
    np.testing.assert_array_equal(d.scores[d.group(4), :, 0], values[1, 1])
    d = design_from_dataset(ds, systems=["d", "a"])
    np.testing.assert_array_equal(d.scores[:6, :, 0], values[0, 0][:, [3, 0]])


def test_dataset_several_variables_add_a_score_sweep():
    rng = np.random.default_rng(1)
    ds = xr.Dataset(
        {v: (("item", "system"), rng.random((5, 2))) for v in ("tp", "fp")},
        coords={"system": ["m1", "m2"]},
    )
    d = design_from_dataset(ds)
    assert d.group_names == ("score",)
    assert d.group_keys == (("tp",), ("fp",))
    np.testing.assert_array_equal(d.scores[5:, :, 0], ds.fp.values)
    d = design_from_dataset(ds, columns_as_score=True)
    assert d.group_names == ()
    assert d.columns == ("tp", "fp")
    np.testing.assert_array_equal(d.scores[..., 1], ds.fp.values)


def test_two_sample_tidy_wide_and_dataset():
    frame = pd.DataFrame({"g": ["u", "c", "u", "c", "u"], "x": [1.0, 2.0, 3.0, 4.0, 5.0]})
    t = two_sample_from_frame(frame, score="x", group="g")
    assert t.labels == ("u", "c")
    assert [s.tolist() for s in t.samples(0)] == [[1.0, 3.0, 5.0], [2.0, 4.0]]
    t = two_sample_from_frame(frame, score="x", group="g", a="c", b="u")
    assert t.samples(0)[0].tolist() == [2.0, 4.0]
    wide = pd.DataFrame({"u": [1.0, 3.0, 5.0], "c": [2.0, 4.0, np.nan]})
    with pytest.warns(DroppedDataWarning, match="1 trailing NaN"):
        t = two_sample_from_frame(wide)
    assert t.dropped == (1,)
    assert [s.tolist() for s in t.samples(0)] == [[1.0, 3.0, 5.0], [2.0, 4.0]]
    ds = xr.Dataset(
        {"x": (("seed", "group", "item"), np.arange(12.0).reshape(2, 2, 3))},
        coords={"seed": [1, 2], "group": ["u", "c"]},
    )
    t = two_sample_from_dataset(ds, score="x")
    assert t.group_keys == ((1,), (2,))
    assert t.samples(1)[1].tolist() == [9.0, 10.0, 11.0]
    ds2 = xr.Dataset({"x": ("item", [1.0, 2.0, 3.0])}, coords={"g": ("item", ["u", "c", "u"])})
    t = two_sample_from_dataset(ds2, group="g")
    assert [s.tolist() for s in t.samples(0)] == [[1.0, 3.0], [2.0]]


def test_missing_complete_drops_and_says_how_many(tidy):
    tidy = tidy.copy()
    tidy.loc[3, "ndcg"] = np.nan  # g1, q1, x
    tidy = tidy.drop(index=[7])  # g1, q2, y
    with pytest.warns(DroppedDataWarning, match="dropped 2 of 10 item"):
        d = design_from_frame(
            tidy, item="query", system="run", score="ndcg", by="ds", missing="complete"
        )
    assert d.dropped == 2
    assert d.dropped_by_group == (2, 0)
    assert d.offsets.tolist() == [0, 3, 8]
    assert list(d.items[:3]) == ["q0", "q3", "q4"]


# ----------------------------------------------------------------------------- messages
def _tidy_call(frame, **kw):
    args = {"item": "query", "system": "run", "score": "ndcg"}
    args.update(kw)
    return design_from_frame(frame, **args)


def _with(frame, **changes):
    frame = frame.copy()
    for (row, col), value in changes.get("cells", {}).items():
        frame.loc[row, col] = value
    return frame


CASES = [
    # (id, mutate frame, keywords, error type, message regex)
    (
        "missing-arg",
        None,
        {"missing": "drop"},
        ValueError,
        "`missing` must be one of 'raise', 'complete'; got 'drop'",
    ),
    (
        "unknown-score",
        None,
        {"score": "map"},
        ValueError,
        r"`score`: no column named 'map'; the table has the columns "
        r"'ds', 'query', 'run', 'ndcg', 'cl'",
    ),
    ("unknown-item", None, {"item": "topic"}, ValueError, "`item`: no column named 'topic'"),
    ("unknown-system", None, {"system": "model"}, ValueError, "`system`: no column named 'model'"),
    ("unknown-by", None, {"by": ["ds", "split"]}, ValueError, "`by`: no column named 'split'"),
    ("unknown-cluster", None, {"cluster": "doc"}, ValueError, "`cluster`: no column named 'doc'"),
    ("unknown-strata", None, {"strata": "s"}, ValueError, "`strata`: no column named 's'"),
    ("by-twice", None, {"by": ["ds", "ds"]}, ValueError, "`by` names a column more than once"),
    (
        "tidy-needs-all",
        None,
        {"score": None},
        ValueError,
        "A tidy table needs `item`, `system` and `score` column names; got item='query', "
        "system='run', score=None",
    ),
    (
        "unknown-systems",
        None,
        {"systems": ["x", "w"]},
        ValueError,
        "`systems`: unknown system\\(s\\) 'w'; the systems are 'x', 'y', 'z'",
    ),
    (
        "one-system",
        None,
        {"systems": ["x"]},
        ValueError,
        "`systems`: a comparison needs at least 2 systems; got 1 \\('x'\\)",
    ),
    (
        "non-numeric",
        lambda f: f.assign(ndcg=f.ndcg.astype(object).where(f.index != 4, "high")),
        {},
        TypeError,
        "`score`: column 'ndcg' must be numeric; got dtype object with the "
        "non-numeric value 'high'",
    ),
    (
        "infinite",
        lambda f: _with(f, cells={(5, "ndcg"): np.inf}),
        {"by": "ds"},
        ValueError,
        "`score`: scores must be finite; got 1 infinite value\\(s\\), the first at item 'q1', "
        "system 'z'",
    ),
    (
        "nan",
        lambda f: _with(f, cells={(3, "ndcg"): np.nan, (4, "ndcg"): np.nan}),
        {"by": "ds"},
        ValueError,
        "found 2 NaN or missing score\\(s\\) \\(by system: 'x': 1, 'y': 1; the first for "
        "item 'q1' and system 'x'\\).*missing='complete'",
    ),
    (
        "absent-pair",
        lambda f: f.drop(index=[7]),
        {"by": "ds"},
        ValueError,
        "1 \\(item, system\\) pair\\(s\\) with no row: 1 item\\(s\\) are missing for some systems "
        "\\(the first: item 'q2' has no score for system 'y'\\)",
    ),
    (
        "duplicate",
        lambda f: pd.concat([f, f.iloc[[0]]]),
        {"by": "ds"},
        ValueError,
        "each \\(item, system\\) pair must have one row; found 2 rows in duplicated pairs "
        "\\(the first: ds='g1', query='q0', run='x'\\)",
    ),
    (
        "duplicate-across-groups",
        None,
        {},
        ValueError,
        "found 30 rows in duplicated pairs \\(the first: query='q0', run='x'\\)",
    ),
    (
        "one-item",
        lambda f: f[f["query"] == "q0"],
        {"by": "ds"},
        ValueError,
        "`score`: a comparison needs at least 2 items in group \\{'ds': 'g1'\\}; got 1",
    ),
    (
        "missing-item-label",
        lambda f: _with(f, cells={(0, "query"): None}),
        {"by": "ds"},
        ValueError,
        "`item`: column 'query' has 1 missing value\\(s\\)",
    ),
    (
        "missing-group-key",
        lambda f: _with(f, cells={(0, "ds"): None}),
        {"by": "ds"},
        ValueError,
        "`by`: group keys must not be missing; 1 row\\(s\\) have a missing value in 'ds'",
    ),
    (
        "cluster-not-per-item",
        lambda f: _with(f, cells={(0, "cl"): 7}),
        {"by": "ds", "cluster": "cl"},
        ValueError,
        "`cluster`: column 'cl' must have one value per item; 1 item\\(s\\) have several",
    ),
    (
        "cluster-missing",
        lambda f: _with(f, cells={(0, "cl"): np.nan}),
        {"by": "ds", "cluster": "cl"},
        ValueError,
        "`cluster`: column 'cl' has 1 missing value",
    ),
]


@pytest.mark.parametrize(
    ("case", "mutate", "kw", "exc", "match"), CASES, ids=[c[0] for c in CASES]
)
def test_tidy_errors(tidy, case, mutate, kw, exc, match):
    frame = tidy if mutate is None else mutate(tidy)
    with pytest.raises(exc, match=match):
        _tidy_call(frame, **kw)


def test_wide_errors(tidy):
    wide = wide_of(tidy)
    with pytest.raises(ValueError, match=r"a comparison needs at least 2 systems; got 1 \('x'\)"):
        design_from_frame(wide[["x"]])
    with pytest.raises(TypeError, match=r"'n' is not numeric \(column 'n' has dtype .* 'a'\)"):
        design_from_frame(wide[["x"]].assign(n="a"))
    with pytest.raises(ValueError, match="`systems`: no column named 'w'"):
        design_from_frame(wide, systems=["x", "w"])
    with pytest.raises(
        ValueError,
        match=r"each item must have one row; found 1 duplicated item "
        r"label\(s\) \(the first: 'q0'\)",
    ):
        design_from_frame(pd.concat([wide, wide.iloc[[0]]]))
    with pytest.raises(ValueError, match=r"`score`: got score=\['a', 'b'\] but no `system=`"):
        design_from_frame(wide, score=["a", "b"])
    with pytest.raises(
        ValueError, match="`systems`: 'x' also named as item, by, cluster or strata"
    ):
        design_from_frame(wide.reset_index(), item="x", systems=["x", "y"])
    with pytest.raises(TypeError, match="`systems`: column 'y' must be numeric; got dtype object"):
        design_from_frame(wide.assign(y="a"), systems=["x", "y"])
    bad = wide.copy()
    bad.iloc[2, 1] = np.nan
    with pytest.raises(
        ValueError,
        match="found 1 NaN or missing score\\(s\\) \\(by system: 'y': 1;"
        " the first for item 'q2' and system 'y'\\)",
    ):
        design_from_frame(bad)
    with pytest.raises(TypeError, match="must be real numbers; got complex"):
        design_from_frame(wide.astype(complex))


def test_array_errors():
    with pytest.raises(
        ValueError,
        match="`scores` must have shape \\(n_items, n_systems\\) or "
        "\\(n_items, n_systems, n_columns\\); got shape \\(4,\\)",
    ):
        design_from_array(np.zeros(4))
    with pytest.raises(
        ValueError, match="`systems` must name each of the 3 columns of `scores`; got 2 names"
    ):
        design_from_array(np.zeros((4, 3)), systems=["a", "b"])
    with pytest.raises(ValueError, match="`groups` must have one entry per item \\(4\\); got 3"):
        design_from_array(np.zeros((4, 3)), groups=[1, 2, 3])
    with pytest.raises(ValueError, match="a comparison needs at least 2 systems; got 1"):
        design_from_array(np.zeros((4, 1)))
    with pytest.raises(ValueError, match="a comparison needs at least 2 items; got 1"):
        design_from_array(np.zeros((1, 2)))
    with pytest.raises(TypeError, match="`scores`: the scores must be numeric"):
        design_from_array([["a", "b"], ["c", "d"]])


def test_dataset_errors():
    ds = xr.Dataset(
        {"acc": (("item", "system"), np.zeros((3, 2))), "label": ("item", ["a", "b", "c"])},
        coords={"system": ["m1", "m2"], "doc": ("item", [1, 1, 2])},
    )
    with pytest.raises(
        ValueError,
        match="`item`: no dimension named 'example'; the dataset has the "
        "dimensions 'item', 'system'",
    ):
        design_from_dataset(ds, item="example")
    with pytest.raises(
        ValueError, match="`score`: no data variable named 'loss'; the dataset has 'acc', 'label'"
    ):
        design_from_dataset(ds, score="loss")
    with pytest.raises(
        ValueError,
        match="`score`: variable 'label' must have the dimensions "
        "'item' and 'system'; it has \\('item',\\)",
    ):
        design_from_dataset(ds, score="label")
    with pytest.raises(ValueError, match="`cluster`: no coordinate named 'thread'"):
        design_from_dataset(ds, cluster="thread")
    with pytest.raises(
        ValueError, match="`cluster`: 'acc' must be a coordinate along 'item' alone"
    ):
        design_from_dataset(ds, cluster="acc")
    assert design_from_dataset(ds, cluster="doc").cluster.tolist() == [0, 0, 1]
    with pytest.raises(ValueError, match="`systems`: unknown system\\(s\\) 'm3'"):
        design_from_dataset(ds, systems=["m1", "m3"])
    nan = ds.copy(deep=True)
    nan["acc"][1, 1] = np.nan
    with pytest.raises(ValueError, match="found 1 NaN or missing score\\(s\\)"):
        design_from_dataset(nan, score="acc")
    empty = xr.Dataset({"x": ("item", [1.0])})
    with pytest.raises(ValueError, match="`system`: no dimension named 'system'"):
        design_from_dataset(empty)


def test_two_sample_errors():
    frame = pd.DataFrame({"g": ["u", "c", "v"], "x": [1.0, 2.0, 3.0]})
    with pytest.raises(
        ValueError,
        match="`a`, `b`: column 'g' has 3 labels \\('u', 'c', 'v'\\); "
        "name the two to compare with `a=` and `b=`",
    ):
        two_sample_from_frame(frame, score="x", group="g")
    with pytest.raises(ValueError, match="`a`, `b`: give both or neither; got a='u', b=None"):
        two_sample_from_frame(frame, score="x", group="g", a="u")
    with pytest.raises(ValueError, match="`a`, `b`: unknown label\\(s\\) 'w'"):
        two_sample_from_frame(frame, score="x", group="g", a="u", b="w")
    with pytest.raises(ValueError, match="the two groups must differ; got 'u' twice"):
        two_sample_from_frame(frame, score="x", group="g", a="u", b="u")
    with pytest.raises(ValueError, match="A tidy table needs `score` with `group`"):
        two_sample_from_frame(frame, group="g")
    with pytest.raises(ValueError, match="`group`: no column named 'grp'"):
        two_sample_from_frame(frame, score="x", group="grp")
    nan = frame.assign(x=[1.0, np.nan, 3.0])
    with pytest.raises(
        ValueError,
        match="`score`: column 'x' has 1 NaN or missing value\\(s\\) in groups 'u' and 'c'",
    ):
        two_sample_from_frame(nan, score="x", group="g", a="u", b="c")
    inner = pd.DataFrame({"a": [1.0, np.nan, 2.0], "b": [1.0, 2.0, 3.0]})
    with pytest.raises(ValueError, match="`a`: column 'a' has NaN before its last value"):
        two_sample_from_frame(inner)
    empty = pd.DataFrame({"a": [np.nan, np.nan], "b": [1.0, 2.0]})
    with (
        pytest.raises(ValueError, match="each group needs at least 1 value; group 'a' has none"),
        pytest.warns(DroppedDataWarning),
    ):
        two_sample_from_frame(empty)
    with pytest.raises(ValueError, match="`b`: scores must not be NaN; group 'b' has 1 NaN"):
        two_sample_from_arrays([1.0], [np.nan])
    with pytest.raises(ValueError, match="`a`: scores must be finite; group 'a' has 1 infinite"):
        two_sample_from_arrays([np.inf], [1.0])
    ds = xr.Dataset({"x": ("item", [1.0, 2.0])})
    with pytest.raises(
        ValueError,
        match="`group`: 'group' is neither a dimension of 'x' nor a coordinate along 'item'",
    ):
        two_sample_from_dataset(ds)


def test_remaining_messages():
    ds = xr.Dataset(
        {"acc": (("item", "system"), np.zeros((3, 2))), "label": ("item", ["a", "b", "c"])},
        coords={"system": ["m1", "m2"]},
    )
    with pytest.raises(ValueError, match="`score`: no data variable has both the 'item' and "
                       "'system' dimensions; the variables are 'label'"):  # fmt: skip
        design_from_dataset(ds[["label"]].assign_coords(system=["m1", "m2"]))
    text = ds.assign(acc=(("item", "system"), np.array([["a", "b"]] * 3)))
    with pytest.raises(TypeError, match="`score`: variables must be numeric; got dtype <U1"):
        design_from_dataset(text, score="acc")
    wide = pd.DataFrame({"q": ["a", None], "x": [1.0, 2.0], "y": [1.0, 3.0]})
    with pytest.raises(ValueError, match=r"`item`: 1 item label\(s\) are missing \(NaN or None\)"):
        design_from_frame(wide, item="q")
    strata = pd.DataFrame({"x": [1.0, 2.0], "y": [1.0, 3.0], "s": ["u", None]})
    with pytest.raises(
        ValueError,
        match=r"`strata`: 1 stratum label\(s\) are missing \(NaN or None\), the first for item",
    ):
        design_from_frame(strata, strata="s")
    groups = pd.DataFrame({"g": ["u", None, "c"], "x": [1.0, 2.0, 3.0]})
    with pytest.raises(ValueError, match="`group`: column 'g' has 1 missing label"):
        two_sample_from_frame(groups, score="x", group="g")
    inf = pd.DataFrame({"g": ["u", "c"], "x": [1.0, np.inf]})
    with pytest.raises(ValueError, match="`score`: scores must be finite; column 'x' has 1"):
        two_sample_from_frame(inf, score="x", group="g")
    wide_inf = pd.DataFrame({"a": [1.0, np.inf], "b": [1.0, 2.0]})
    with pytest.raises(ValueError, match="`a`: scores must be finite; column 'a' has inf"):
        two_sample_from_frame(wide_inf)
    two = xr.Dataset(
        {"x": (("group", "item"), [[1.0, np.inf], [2.0, 3.0]]), "y": ("item", [1.0, 2.0])},
        coords={"group": ["u", "c"]},
    )
    with pytest.raises(ValueError, match="`score`: name the score variable; the dataset has "
                       "'x', 'y'"):  # fmt: skip
        two_sample_from_dataset(two)
    with pytest.raises(ValueError, match="`score`: no data variable named 'z'"):
        two_sample_from_dataset(two, score="z")
    with pytest.raises(ValueError, match="`score`: scores must be finite; 'x' has infinite"):
        two_sample_from_dataset(two, score="x")
    labels = two.assign(x=(("group", "item"), [["p", "q"], ["r", "s"]]))
    with pytest.raises(TypeError, match="`score`: variable 'x' must be numeric; got <U1"):
        two_sample_from_dataset(labels, score="x")


# ------------------------------------------------- tables read as meant, or refused
def _csv_round_trip(frame: pd.DataFrame) -> pd.DataFrame:
    import io

    return pd.read_csv(io.StringIO(frame.to_csv(index=False)))


@pytest.fixture
def scores_with_ids():
    rng = np.random.default_rng(5)
    return pd.DataFrame(
        {"query": np.arange(101, 131), "bm25": rng.random(30), "dense": rng.random(30) + 0.1}
    )


def test_an_id_column_read_from_a_file_is_not_a_system(scores_with_ids):
    read = _csv_round_trip(scores_with_ids)
    with pytest.raises(ValueError, match="`item`: the table has a default RangeIndex and column"):
        design_from_frame(read)
    named = design_from_frame(read, item="query")
    assert named.systems == ("bm25", "dense")
    indexed = design_from_frame(read.set_index("query"))
    np.testing.assert_array_equal(named.scores, indexed.scores)
    # systems= says which columns are systems: the rows are the items
    assert design_from_frame(read, systems=["bm25", "dense"]).systems == ("bm25", "dense")
    # the CSV of a frame written with its index has an 'Unnamed: 0' column
    import io

    with_index = pd.read_csv(io.StringIO(scores_with_ids.set_index("query").to_csv()))
    assert design_from_frame(with_index.set_index("query")).systems == ("bm25", "dense")
    unnamed = pd.read_csv(io.StringIO(scores_with_ids.to_csv()))
    with pytest.raises(ValueError, match="column 'Unnamed: 0' looks like the items' labels"):
        design_from_frame(unnamed.drop(columns="query"))


def test_text_columns_and_marker_cells_are_refused_not_dropped(scores_with_ids):
    labelled = scores_with_ids.assign(query="q" + scores_with_ids["query"].astype(str))
    with pytest.raises(TypeError, match=r"'query' is not numeric .* the value 'q101'"):
        design_from_frame(labelled)
    marked = scores_with_ids.set_index("query").astype(object)
    marked.iloc[3, 1] = "n/a"
    with pytest.raises(TypeError, match=r"column 'bm25' has dtype object.*pandas.to_numeric"):
        design_from_frame(marked)
    with pytest.raises(TypeError, match=r"`systems`: column 'dense' must be numeric.*'n/a'"):
        design_from_frame(marked, systems=["bm25", "dense"])


def test_a_tidy_table_without_system_is_refused(scores_with_ids):
    tidy = scores_with_ids.melt(id_vars="query", var_name="run", value_name="ndcg")
    with pytest.raises(ValueError, match="`score`: got score='ndcg' but no `system=`"):
        design_from_frame(tidy, score="ndcg")
    with pytest.raises(TypeError, match="'run' is not numeric"):
        design_from_frame(tidy)
    with pytest.raises(ValueError, match="`score`: got score='ndcg' but no `system=`"):
        design_from_frame(tidy, item="query", score="ndcg")


def test_ambiguous_and_duplicated_column_names_are_refused(scores_with_ids):
    both = scores_with_ids.set_index("query", drop=False)
    with pytest.raises(ValueError, match="`item`: the index and a column are both named 'query'"):
        design_from_frame(both)
    tidy = scores_with_ids.melt(id_vars="query", var_name="run", value_name="ndcg")
    with pytest.raises(ValueError, match="`item`: 'query' names both a column and an index"):
        design_from_frame(tidy.set_index("query", drop=False), item="query", system="run",
                          score="ndcg")  # fmt: skip
    twice = scores_with_ids.set_index("query").set_axis(["a", "a"], axis=1)
    with pytest.raises(ValueError, match="`systems`: the table has several columns named 'a'"):
        design_from_frame(twice)
    with pytest.raises(ValueError, match="`score`: 'ndcg' names several columns"):
        design_from_frame(pd.concat([tidy, tidy[["ndcg"]]], axis=1), item="query",
                          system="run", score="ndcg")  # fmt: skip
    levels = scores_with_ids.set_index("query")
    levels.columns = pd.MultiIndex.from_tuples([("m", "bm25"), ("m", "dense")])
    with pytest.raises(ValueError, match="`systems`: 'm' names a level of the MultiIndex"):
        design_from_frame(levels, systems=["m"])


def _designs_equal(d1, d2):
    np.testing.assert_array_equal(d1.scores, d2.scores)
    assert list(d1.items) == list(d2.items)
    assert d1.systems == d2.systems
    assert d1.group_keys == d2.group_keys


def test_items_take_a_canonical_order_whatever_the_row_order(tidy):
    kw = dict(item="query", system="run", score="ndcg", by="ds", systems=["x", "y", "z"])
    base = design_from_frame(tidy, **kw)
    assert list(base.items[:5]) == ["q0", "q1", "q2", "q3", "q4"]
    for seed in range(3):
        shuffled = tidy.sample(frac=1, random_state=seed)
        d = design_from_frame(shuffled, **kw)
        same = base.group(base.group_keys.index(d.group_keys[0]))
        np.testing.assert_array_equal(d.scores[d.group(0)], base.scores[same])
    wide = wide_of(tidy)
    _designs_equal(design_from_frame(wide), design_from_frame(wide.iloc[[3, 0, 4, 2, 1]]))
    # clusters and strata follow the items
    d1 = design_from_frame(tidy, **kw, cluster="cl")
    d2 = design_from_frame(tidy.iloc[::-1], **kw, cluster="cl")
    assert [d1.cluster_labels[c] for c in d1.cluster] == [d2.cluster_labels[c] for c in d2.cluster]


def test_mixed_item_labels_sort_by_kind_then_value():
    from pairedstats._inputs import canonical_ranks

    assert canonical_ranks([10, 2, "b", "a", 1.5]).tolist() == [2, 1, 4, 3, 0]
    assert canonical_ranks([(2, "a"), (1, "b"), (1, "a")]).tolist() == [2, 1, 0]
    # a design of mixed labels is built, in one order whatever the input order
    x = np.arange(8.0).reshape(4, 2) ** 2
    d1 = design_from_array(x, items=[3, "c", 1, "a"])
    d2 = design_from_array(x[::-1], items=["a", 1, "c", 3])
    _designs_equal(d1, d2)


def test_accessor_numbers_do_not_depend_on_row_order(tidy):
    tidy = tidy.assign(ndcg=np.random.default_rng(8).random(len(tidy)))  # no constant group
    kw = dict(item="query", system="run", score="ndcg", systems=["x", "y", "z"], rng=3,
              n_resamples=600)  # fmt: skip
    shuffled = tidy.sample(frac=1, random_state=1)
    for method, extra in (("bootstrap", {"method": "bca", "by": "ds"}),
                          ("bootstrap", {"cluster": "cl", "by": "ds"}),
                          ("tukey_hsd", {"exact": False, "by": "ds"})):  # fmt: skip
        one = getattr(tidy.paired, method)(**kw, **extra)
        two = getattr(shuffled.paired, method)(**kw, **extra)
        two = (
            two.set_index(["ds", "system_a", "system_b"])
            .loc[one.set_index(["ds", "system_a", "system_b"]).index]
            .reset_index()
        )
        pd.testing.assert_frame_equal(one, two)


def test_missing_labels_are_refused_in_every_container(tidy):
    kw = dict(item="query", system="run", score="ndcg")
    for column, arg in (("query", "item"), ("run", "system"), ("cl", "cluster"),
                        ("ds", "by")):  # fmt: skip
        bad = tidy.astype({column: object})
        bad.loc[3, column] = None
        with pytest.raises(ValueError, match=f"`{arg}`"):
            design_from_frame(bad, **kw, by="ds", cluster="cl")
    wide = wide_of(tidy)
    wide.index = ["q0", None, "q2", "q3", "q4"]
    with pytest.raises(ValueError, match="`item`: 1 item label"):
        design_from_frame(wide)
    x = np.ones((4, 2)) * np.arange(4)[:, None]
    cases = (("items", [0, 1, None, 3]), ("cluster", [0, 1, np.nan, 3]),
             ("strata", [0, 0, 1, None]), ("groups", ["a", None, "a", "b"]))  # fmt: skip
    for name, values in cases:
        arg = {"items": "item", "groups": "by"}.get(name, name)
        with pytest.raises(ValueError, match=f"`{arg}`: 1 .* missing"):
            design_from_array(x, **{name: values})
    ds = xr.Dataset({"s": (("seed", "item", "system"), np.ones((2, 3, 2)) * [0.0, 1.0])},
                    coords={"seed": [0, 1], "system": ["a", "b"]})  # fmt: skip
    for dim, coord, arg in (("system", ["a", None], "systems"),
                            ("item", np.array([0, None, 2], dtype=object), "item"),
                            ("seed", [0.0, np.nan], "score")):  # fmt: skip
        with pytest.raises(ValueError, match=f"`{arg}`: 1 '{dim}' coordinate label"):
            design_from_dataset(ds.assign_coords({dim: coord}))
    with pytest.raises(ValueError, match="`strata`: 1 'st' label"):
        design_from_dataset(ds.assign_coords(st=("item", [0.0, np.nan, 1.0])), strata="st")


def test_repeated_or_empty_coordinates_are_refused():
    ds = xr.Dataset({"s": (("seed", "item", "system"), np.ones((2, 3, 2)) * [0.0, 1.0])},
                    coords={"seed": [0, 1], "system": ["a", "b"]})  # fmt: skip
    for dim, coord, arg in (("system", ["a", "a"], "systems"), ("item", [0, 1, 1], "item"),
                            ("seed", [7, 7], "score")):  # fmt: skip
        with pytest.raises(ValueError, match=f"`{arg}`: the coordinate '{dim}' has the label"):
            design_from_dataset(ds.assign_coords({dim: coord}))
    with pytest.raises(ValueError, match="`score`: dimension 'seed' has length 0"):
        design_from_dataset(ds.isel(seed=slice(0, 0)))
    with pytest.raises(ValueError, match="`item`: each item must have one row"):
        design_from_array(np.ones((3, 2)) * [0.0, 1.0], items=["a", "b", "a"])


def test_scores_beyond_float_precision_or_range_are_refused():
    exact = pd.DataFrame({"a": [2**53, 5, 9], "b": [-(2**53), 8, 2]}, index=list("xyz"))
    assert design_from_frame(exact).scores[0, 0, 0] == 2.0**53
    big = exact.assign(a=[2**60 + 1, 2**60 + 5, 2**60 + 9])
    with pytest.raises(ValueError, match="`systems`: column 'a' must be integers of magnitude"):
        design_from_frame(big)
    with pytest.raises(ValueError, match="`scores`: the scores must be integers of magnitude"):
        design_from_array(np.array([[2**60, 1], [3, 4]], dtype=np.uint64))
    with pytest.raises(ValueError, match="must be integers of magnitude"):
        design_from_array(np.array([[2**60, 1], [3, 4]], dtype=object))
    huge = pd.DataFrame({"a": [1e308, 1.5e308, 1.7e308], "b": [1.6e308, 1e308, 1.2e308]})
    with pytest.raises(ValueError, match=r"`score`: scores as large as 1.7e\+308 overflow"):
        design_from_frame(huge)


def test_nullable_columns_read_their_missing_values_as_nan():
    frame = pd.DataFrame(
        {"a": pd.array([1, 2, None, 4], dtype="Int64"), "b": pd.array([2, 2, 3, 5], "Int64")},
        index=list("wxyz"),
    )
    with pytest.raises(ValueError, match="found 1 NaN or missing score"):
        design_from_frame(frame)
    with pytest.warns(DroppedDataWarning, match="dropped 1 of 4"):
        d = design_from_frame(frame, missing="complete")
    assert d.scores[:, :, 0].tolist() == [[1.0, 2.0], [2.0, 2.0], [4.0, 5.0]]


def test_systems_accept_any_ordered_collection(tidy):
    wide = wide_of(tidy)
    for systems in (["z", "x"], ("z", "x"), np.array(["z", "x"]), pd.Index(["z", "x"]),
                    pd.Series(["z", "x"]), iter(["z", "x"])):  # fmt: skip
        assert design_from_frame(wide, systems=systems).systems == ("z", "x")
    with pytest.raises(TypeError, match="`systems` must be a label or an ordered collection"):
        design_from_frame(wide, systems={"z", "x"})
    assert design_from_frame(wide, missing="Complete").systems == ("x", "y", "z")
