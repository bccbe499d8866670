"""pandas tables (pairedstats.inputs.frames): tidy and wide readings, by=, and every message."""

import numpy as np
import pandas as pd
import pytest

from pairedstats.inputs import (
    design_from_frame,
)

from .tables import wide_of


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
        "`cluster`: column 'cl' must have one value per item; 1 item\\(s\\) have several "
        "\\(for example the item 'q0'\\)",
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


def test_missing_item_and_stratum_labels_in_a_wide_table():
    wide = pd.DataFrame({"q": ["a", None], "x": [1.0, 2.0], "y": [1.0, 3.0]})
    with pytest.raises(ValueError, match=r"`item`: 1 item label\(s\) are missing \(NaN or None\)"):
        design_from_frame(wide, item="q")
    strata = pd.DataFrame({"x": [1.0, 2.0], "y": [1.0, 3.0], "s": ["u", None]})
    with pytest.raises(
        ValueError,
        match=r"`strata`: 1 stratum label\(s\) are missing \(NaN or None\), the first for item",
    ):
        design_from_frame(strata, strata="s")


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
    # with item= the index written to the file is still no system
    assert list(unnamed.columns) == ["Unnamed: 0", "query", "bm25", "dense"]
    with pytest.raises(ValueError, match=r"column 'Unnamed: 0' has no name of its own"):
        design_from_frame(unnamed, item="query")
    assert design_from_frame(unnamed, item="query", systems=["bm25", "dense"]).systems == (
        "bm25",
        "dense",
    )


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


def test_accessor_numbers_do_not_depend_on_row_order(tidy):
    tidy = tidy.assign(ndcg=np.random.default_rng(8).random(len(tidy)))  # no constant group
    kw = dict(item="query", system="run", score="ndcg", systems=["x", "y", "z"], rng=3,
              n_resamples=600)  # fmt: skip
    shuffled = tidy.sample(frac=1, random_state=1)
    for method, extra in (("bootstrap", {"method": "bca", "by": "ds"}),
                          ("bootstrap", {"cluster": "cl", "by": "ds"}),
                          ("tukey_hsd", {"method": "monte-carlo", "by": "ds"})):  # fmt: skip
        one = getattr(tidy.paired, method)(**kw, **extra)
        two = getattr(shuffled.paired, method)(**kw, **extra)
        two = (
            two.set_index(["ds", "system_a", "system_b"])
            .loc[one.set_index(["ds", "system_a", "system_b"]).index]
            .reset_index()
        )
        pd.testing.assert_frame_equal(one, two)


def test_systems_accept_any_ordered_collection(tidy):
    wide = wide_of(tidy)
    for systems in (["z", "x"], ("z", "x"), np.array(["z", "x"]), pd.Index(["z", "x"]),
                    pd.Series(["z", "x"]), iter(["z", "x"])):  # fmt: skip
        assert design_from_frame(wide, systems=systems).systems == ("z", "x")
    with pytest.raises(TypeError, match="`systems` must be a label or an ordered collection"):
        design_from_frame(wide, systems={"z", "x"})
    assert design_from_frame(wide, missing="Complete").systems == ("x", "y", "z")


# ------------------------------------------------- inputs read as meant or refused
def test_a_marker_among_numbers_read_as_text_is_named(scores_with_ids):
    # a column read from a file with one "-" holds its numbers as text too: the message
    # names the marker, not the first number stored as text
    text = scores_with_ids.set_index("query").astype({"dense": str})
    text.iloc[4, 1] = "-"
    with pytest.raises(TypeError, match=r"^`systems`: .*column 'dense' has dtype \w+ and the "
                                        r"value '-'\)"):  # fmt: skip
        design_from_frame(text)
    with pytest.raises(TypeError, match=r"`systems`: column 'dense' must be numeric; got dtype "
                                        r"\w+ with the non-numeric value '-'\."):  # fmt: skip
        design_from_frame(text, systems=["bm25", "dense"])
    tidy = text.reset_index().melt(id_vars="query", var_name="run", value_name="ndcg")
    with pytest.raises(TypeError, match=r"`score`: column 'ndcg' must be numeric; got dtype "
                                        r"\w+ with the non-numeric value '-'\."):  # fmt: skip
        design_from_frame(tidy.astype({"ndcg": str}), item="query", system="run", score="ndcg")


@pytest.mark.parametrize(
    ("by", "named"),
    [("run", "system"), ("ndcg", "score"), ("query", "item"), (["ds", "run"], "system")],
)
def test_by_naming_the_system_score_or_item_column_says_so(tidy, by, named):
    column = by if isinstance(by, str) else by[1]
    with pytest.raises(
        ValueError,
        match=f"^`by`: '{column}' is also the `{named}` column; `by=` names the columns whose "
        f"values split the table into groups, each compared on its own, so each group would "
        f"hold one {named} value\\. Drop '{column}' from `by`",
    ):
        design_from_frame(tidy, item="query", system="run", score="ndcg", by=by)


def test_duplicated_pairs_name_the_column_where_they_differ(tidy):
    # two seeds of each run in one table, read without replicate=: the message names the
    # column and the keywords that read it; the labels are plain values
    seeds = pd.concat([tidy.assign(seed=1), tidy.assign(seed=2)], ignore_index=True)
    seeds = seeds.assign(query=seeds["query"].str[1:].astype(np.int64))
    with pytest.raises(
        ValueError,
        match=r"^`item`/`system`: each \(item, system\) pair must have one row; found 60 rows "
        r"in duplicated pairs \(the first: ds='g1', query=0, run='x'\); the rows of a pair "
        r"differ in column 'seed'\. If 'seed' labels repeated runs of each system \(seeds, "
        r"folds\), pass replicate='seed' \(the bootstrap\); if it splits the table into "
        r"separate comparisons, pass by='seed'; otherwise aggregate",
    ):
        design_from_frame(seeds, item="query", system="run", score="ndcg", by="ds")
    # without by=, 'ds' differs too; both are named
    with pytest.raises(ValueError, match=r"differ in columns 'ds', 'seed'\. If 'ds' labels"):
        design_from_frame(seeds, item="query", system="run", score="ndcg")
    copies = pd.concat([tidy, tidy.iloc[[3]]])
    with pytest.raises(ValueError, match=r"the rows of a pair differ in no other column\. "
                                         r"Aggregate or remove"):  # fmt: skip
        design_from_frame(copies, item="query", system="run", score="ndcg", by="ds")


def test_a_system_missing_a_run_is_named_with_the_runs():
    runs = pd.DataFrame({
        "q": [1, 1, 1, 2, 2, 2], "run": ["bm25", "rf", "rf"] * 2, "seed": [0, 0, 1] * 2,
        "s": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6],
    })  # fmt: skip
    with pytest.raises(
        ValueError,
        match=r"^`replicate`: system 'bm25' has no scores for the replicate\(s\) 1 that system "
        r"'rf' has \(both have 0\)\. Systems with the same replicate labels",
    ):
        design_from_frame(runs, item="q", system="run", score="s", replicate="seed")
    numbered = runs.assign(seed=runs["seed"].astype(np.int64) + 10, run=runs["run"].map(
        {"bm25": 0, "rf": 1}).astype(np.int64))  # fmt: skip
    with pytest.raises(ValueError, match=r"system 0 has no scores for the replicate\(s\) 11 "
                                         r"that system 1 has \(both have 10\)"):  # fmt: skip
        design_from_frame(numbered, item="q", system="run", score="s", replicate="seed")


def test_messages_show_labels_as_plain_values():
    # 1, not np.int64(1): the labels of integer columns in the messages of the tidy road
    table = pd.DataFrame({
        "q": np.array([1, 1, 2, 2, 3, 3]), "run": np.array([0, 1, 0, 1, 0, 1]),
        "s": [0.1, np.inf, 0.3, 0.4, 0.5, 0.6],
    })  # fmt: skip
    with pytest.raises(ValueError, match=r"the first at item 1, system 1\. Replace"):
        design_from_frame(table, item="q", system="run", score="s")
    twice = pd.concat([table.assign(s=0.5), table.iloc[[2]].assign(s=0.5)])
    with pytest.raises(ValueError, match=r"\(the first: q=2, run=0\); the rows of a pair "
                                         r"differ in no other column"):  # fmt: skip
        design_from_frame(twice, item="q", system="run", score="s")
