"""Labels end to end: tuples, MultiIndex columns and labels of mixed types.

A label is a name: a tuple label (a MultiIndex column, a column of tuples, a coordinate of
tuples) or a coordinate mixing text and integers gives the numbers of the same data under
plain labels, and comes back as given (its type too) in every output: the table, the
Dataset and the displays. What cannot be read unambiguously is refused, naming the
argument, before any computation.
"""

import re

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from scipy import stats

import pairedstats
from pairedstats.inputs import design_from_array

SYSTEMS = [("bm25", "v1"), ("dense", "v2"), ("dense", "v3")]
FLAT = ["bm25|v1", "dense|v2", "dense|v3"]  # the same order as SYSTEMS, as text
KW = {"bootstrap": {"n_resamples": 500}, "tukey_hsd": {"n_resamples": 500}}
LABELS = ["system_a", "system_b"]


def _objects(values) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    for i, value in enumerate(values):
        out[i] = value
    return out


def _scores(n=9, seed=5):
    return np.random.default_rng(seed).integers(0, 20, size=(n, 3)) / 20


def _wide(columns, items=None, seed=5):
    scores = _scores(seed=seed)
    items = [f"q{i}" for i in range(len(scores))] if items is None else items
    return pd.DataFrame(scores, index=pd.Index(_objects(items), name="q"), columns=columns)


def _multiindex_wide(items=None):
    return _wide(pd.MultiIndex.from_tuples(SYSTEMS), items)


def _tidy(wide, system_labels):
    rows = []
    for item, row in zip(wide.index, wide.to_numpy()):
        for label, score in zip(system_labels, row):
            rows.append((item, label, score))
    frame = pd.DataFrame({"q": _objects([r[0] for r in rows])})
    frame["run"] = _objects([r[1] for r in rows])
    frame["score"] = [r[2] for r in rows]
    return frame


def _numbers(frame):
    return frame.drop(columns=[c for c in frame.columns if c in LABELS])


def _typed(values):
    return [(type(x), x) for x in values]


def _call(obj, method, **keywords):
    return getattr(obj.paired, method)(**keywords, **KW[method], rng=3)


# --------------------------------------------------------------------- tuples as systems
@pytest.mark.parametrize("method", ["bootstrap", "tukey_hsd"])
def test_multiindex_columns_give_the_numbers_of_plain_labels(method):
    tuples = _call(_multiindex_wide(), method)
    plain = _call(_wide(FLAT), method)
    # systems are keyed by position in the pairs and the group key, not by their names
    pd.testing.assert_frame_equal(_numbers(tuples), _numbers(plain))
    expected_pairs = [(SYSTEMS[0], SYSTEMS[1]), (SYSTEMS[0], SYSTEMS[2]), (SYSTEMS[1], SYSTEMS[2])]
    assert list(zip(tuples["system_a"], tuples["system_b"])) == expected_pairs
    # the difference is b - a of the column means, computed here from the table
    wide = _multiindex_wide()
    means = {s: wide[s].mean() for s in SYSTEMS}
    np.testing.assert_allclose(
        tuples["difference"], [means[b] - means[a] for a, b in expected_pairs], rtol=1e-12
    )


@pytest.mark.parametrize("method", ["bootstrap", "tukey_hsd"])
def test_a_tidy_column_of_tuples_equals_the_multiindex_wide_table(method):
    wide = _multiindex_wide()
    tidy = _tidy(wide, SYSTEMS)
    shuffled = tidy.sample(frac=1.0, random_state=4)
    got = _call(tidy, method, item="q", system="run", score="score")
    pd.testing.assert_frame_equal(got, _call(wide, method))
    pd.testing.assert_frame_equal(
        _call(shuffled, method, item="q", system="run", score="score"), got
    )
    assert _typed(got["system_a"]) == _typed([SYSTEMS[0], SYSTEMS[0], SYSTEMS[1]])


def test_tuple_labels_as_baseline_and_systems():
    wide = _multiindex_wide()
    res = _call(wide, "bootstrap", baseline=("dense", "v2"))
    assert res["system_a"].tolist() == [("dense", "v2")] * 2
    assert res["system_b"].tolist() == [("bm25", "v1"), ("dense", "v3")]
    res = _call(wide, "bootstrap", systems=[("dense", "v3"), ("bm25", "v1")])
    assert list(zip(res["system_a"], res["system_b"])) == [(("dense", "v3"), ("bm25", "v1"))]
    expected = wide[("bm25", "v1")].mean() - wide[("dense", "v3")].mean()
    assert res["difference"].item() == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("method", ["bootstrap", "tukey_hsd"])
def test_tuple_labels_reach_every_output(method):
    res = _call(_multiindex_wide(), method, as_result=True)
    frame = res.to_dataframe()
    ds = res.to_dataset()
    assert _typed(ds["system_a"].values.tolist()) == _typed(frame["system_a"].tolist())
    assert _typed(ds["system_b"].values.tolist()) == _typed(frame["system_b"].tolist())
    np.testing.assert_array_equal(ds["difference"].values, frame["difference"].to_numpy())
    text, html = str(res), res._repr_html_()
    markdown, latex = res.to_markdown(), res.to_latex()
    for a, b in zip(frame["system_a"], frame["system_b"]):  # one text in every display
        assert f"{a!r} {b!r}" in text
        assert f"<td>{a!r}</td>\n      <td>{b!r}</td>" in html
        assert f"| {a!r} | {b!r} |" in markdown
    assert latex.count(r"('dense', 'v2')") == 2  # as a and as b; no "_" to escape here
    assert len(markdown.splitlines()) == 2 + len(frame)


def test_tuple_items_are_put_in_their_canonical_order():
    """Items that are tuples sort as tuples; tuples whose elements do not compare (1 and
    "a") fall back to the typed encoding. Either way the row order does not matter."""
    mixed = [("q", 1), ("q", "a"), ("r", 2), ("q", 0), (2,), ("q", "b"), ("s", 0), (1, 1), ("t",)]
    for items in ([("q", i) for i in range(9)], mixed):
        wide = _multiindex_wide(items)
        shuffled = wide.iloc[[4, 2, 7, 0, 8, 1, 6, 3, 5]]
        for method in ("bootstrap", "tukey_hsd"):
            expected = _call(wide, method)
            pd.testing.assert_frame_equal(_call(shuffled, method), expected)
            tidy = _tidy(shuffled, SYSTEMS)
            got = _call(tidy, method, item="q", system="run", score="score")
            pd.testing.assert_frame_equal(got, expected)
    # sortable tuples: the order of ("q", i) is that of the text f"q{i}" (i < 10), so the
    # numbers (the draws follow the items' canonical order) are those of plain labels
    tuples = _call(_multiindex_wide([("q", i) for i in range(9)]), "bootstrap")
    plain = _call(_multiindex_wide([f"q{i}" for i in range(9)]), "bootstrap")
    pd.testing.assert_frame_equal(tuples, plain)


def test_tuple_labels_through_the_array_api():
    scores = _scores()
    items = [("q", i) for i in range(len(scores))]
    cluster = [("c", i // 3) for i in range(len(scores))]
    design = design_from_array(scores, systems=SYSTEMS, items=items, cluster=cluster)
    assert design.systems == tuple(SYSTEMS)
    assert design.cluster_labels == (("c", 0), ("c", 1), ("c", 2))
    assert design.items.shape == (9,)
    assert design.items.tolist() == items
    grouped = design_from_array(scores, systems=SYSTEMS, groups=[("g", i % 2) for i in range(9)])
    assert grouped.group_keys == ((("g", 0),), (("g", 1),))
    res = pairedstats.bootstrap(scores, systems=SYSTEMS, n_resamples=300, rng=1)
    assert _typed(res.to_dataframe()["system_b"]) == _typed([SYSTEMS[1], SYSTEMS[2], SYSTEMS[2]])


# --------------------------------------------------------------------- rank-sum groups
def test_ranksum_with_tuple_group_labels_is_scipys_test():
    rng = np.random.default_rng(2)
    x, y = rng.normal(size=7), rng.normal(0.8, size=9)
    la, lb = ("ctrl", 1), ("treat", 2)
    tidy = pd.DataFrame({"g": _objects([la] * 7 + [lb] * 9), "s": np.concatenate([x, y])})
    res = tidy.paired.ranksum(score="s", group="g")
    ref = stats.mannwhitneyu(y, x, alternative="two-sided", method="exact")
    assert res["pvalue"].item() == pytest.approx(ref.pvalue, rel=1e-12)
    assert res["u_a"].item() == stats.mannwhitneyu(x, y).statistic
    assert _typed([res["group_a"].item(), res["group_b"].item()]) == _typed([la, lb])
    swapped = tidy.paired.ranksum(score="s", group="g", a=lb, b=la)
    assert swapped["u_a"].item() == stats.mannwhitneyu(y, x).statistic
    assert swapped["group_a"].item() == lb
    n = 7
    wide = pd.DataFrame({la: x, lb: y[:n]})
    assert isinstance(wide.columns, pd.MultiIndex)
    got = wide.paired.ranksum(a=lb, b=la)
    ref = stats.mannwhitneyu(x, y[:n], alternative="two-sided", method="exact")
    assert got["pvalue"].item() == pytest.approx(ref.pvalue, rel=1e-12)
    assert (got["group_a"].item(), got["group_b"].item()) == (lb, la)
    assert got["u_a"].item() == stats.mannwhitneyu(y[:n], x).statistic
    ds = xr.Dataset(
        {"s": (("item", "group"), np.column_stack([x, y[:n]]))},
        coords={"group": _objects([la, lb])},
    )
    from_ds = ds.paired.ranksum(score="s", a=lb, b=la)
    assert from_ds["pvalue"].item() == got["pvalue"].item()
    assert from_ds["group_a"].values.tolist() == [lb]


# --------------------------------------------------------------------- xarray coordinates
def _dataset(systems, seed=5):
    return xr.Dataset(
        {"score": (("item", "system"), _scores(seed=seed))},
        coords={"item": np.arange(9), "system": _objects(systems)},
    )


@pytest.mark.parametrize("method", ["bootstrap", "tukey_hsd"])
def test_a_coordinate_of_tuples_or_mixed_types_keeps_its_labels(method):
    expected = _call(_wide(FLAT, items=list(range(9))), method)
    for systems in (SYSTEMS, ["a", 1, "1"]):
        res = _call(_dataset(systems), method)
        for column in LABELS:
            got = res[column].values.tolist()
            assert _typed(got) == _typed([systems[FLAT.index(s)] for s in expected[column]])
        for name in _numbers(expected).columns:
            np.testing.assert_array_equal(res[name].values, expected[name].to_numpy())


@pytest.mark.parametrize("method", ["bootstrap", "tukey_hsd"])
@pytest.mark.parametrize("keys", [[1, "1"], [("a", 1), ("a", 2)], [("a", 1), "a"]])
def test_sweep_coordinates_of_tuples_or_mixed_types(method, keys):
    """Each cell gives the numbers of the pandas path with a ``by=`` column holding the
    same keys (the streams are keyed by them); lazily too."""
    cells = [_dataset(FLAT, seed=5), _dataset(FLAT, seed=6)]
    ds = xr.concat(cells, dim="sweep").assign_coords(sweep=_objects(keys))
    res = _call(ds, method)
    assert _typed(res["sweep"].values.tolist()) == _typed(keys)
    frames = []
    for key, seed in zip(keys, (5, 6)):
        frame = _tidy(_wide(FLAT, items=list(range(9)), seed=seed), FLAT)
        frame["sweep"] = _objects([key] * len(frame))
        frames.append(frame)
    by = _call(pd.concat(frames, ignore_index=True), method, item="q", system="run",
               score="score", by="sweep")  # fmt: skip
    for name in _numbers(by).columns:
        if name == "sweep":
            continue
        np.testing.assert_array_equal(res[name].values.reshape(-1), by[name].to_numpy())
    lazy = _call(ds.chunk({"sweep": 1}), method).compute()
    xr.testing.assert_identical(lazy, res)


def test_by_keys_that_are_tuples_reach_the_dataset():
    frames = []
    for g, seed in ((2, 5), (1, 6)):
        frame = _tidy(_multiindex_wide(), SYSTEMS)
        frame["k"] = _objects([("k", g)] * len(frame))
        frame["score"] = _scores(seed=seed).reshape(-1)
        frames.append(frame)
    table = pd.concat(frames, ignore_index=True)
    res = _call(table, "bootstrap", item="q", system="run", score="score", by="k",
                as_result=True)  # fmt: skip
    frame = res.to_dataframe()
    assert _typed(frame["k"].unique()) == _typed([("k", 2), ("k", 1)])
    ds = res.to_dataset()
    assert _typed(ds["k"].values.tolist()) == _typed([("k", 2), ("k", 1)])
    np.testing.assert_array_equal(ds["ci_low"].values.reshape(-1), frame["ci_low"].to_numpy())
    for g, seed in enumerate((5, 6)):
        means = _scores(seed=seed).mean(axis=0)
        expected = [means[1] - means[0], means[2] - means[0], means[2] - means[1]]
        np.testing.assert_allclose(ds["difference"].values[g], expected, rtol=1e-12)


# --------------------------------------------------------------------- refused early
def test_a_bare_tuple_of_names_on_multiindex_columns_is_refused():
    wide = _multiindex_wide()
    with pytest.raises(ValueError, match=re.escape("`systems`: 'dense' names a level")):
        wide.paired.bootstrap(systems=("dense", "v3"))
    tidy = pd.DataFrame({("k", "q"): np.repeat(np.arange(3), 2), ("k", "run"): ["a", "b"] * 3,
                         ("v", "s"): np.arange(6.0) ** 2})  # fmt: skip
    keywords = dict(item=("k", "q"), system=("k", "run"), n_resamples=100, rng=1)
    with pytest.raises(ValueError, match=r"`score`.*inside a list \(score=\["):
        tidy.paired.bootstrap(score=("v", "s"), **keywords)
    res = tidy.paired.bootstrap(score=[("v", "s")], **keywords)
    assert res["difference"].item() == pytest.approx(np.mean([1.0, 5, 9]))


def test_a_tuple_named_by_column_has_a_table_but_no_dataset():
    wide = _multiindex_wide(items=[0, 1, 2, 3, 4, 5, 6, 7, 8])
    wide[("meta", "grp")] = ["g1"] * 5 + ["g2"] * 4
    res = _call(wide, "bootstrap", by=[("meta", "grp")], as_result=True)
    assert res.to_dataframe()[("meta", "grp")].tolist() == ["g1"] * 3 + ["g2"] * 3
    with pytest.raises(ValueError, match=r"`by`: the group column \('meta', 'grp'\) has a tuple"):
        res.to_dataset()


def test_systems_equal_as_values_are_refused():
    with pytest.raises(ValueError, match=r"`systems`: the system labels 1, True are equal"):
        pairedstats.bootstrap(_scores()[:, :2], systems=[1, True])
