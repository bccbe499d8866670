"""The two samples of the rank-sum test (pairedstats.inputs.two_sample)."""

import numpy as np
import pandas as pd
import pytest
import xarray as xr

from pairedstats import DroppedDataWarning
from pairedstats.inputs import (
    two_sample_from_arrays,
    two_sample_from_dataset,
    two_sample_from_frame,
)


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


def test_two_sample_messages():
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


# ------------------------------------------------- inputs read as meant or refused
def test_masked_values_of_a_sample_are_missing_and_refused():
    a = np.ma.masked_array([1.0, 99.0, 3.0], mask=[False, True, False])
    with pytest.raises(
        ValueError,
        match=r"^`a`: scores must not be NaN or masked; group .a. has 1 NaN or masked value",
    ):
        two_sample_from_arrays(a, [4.0, 5.0])
    # the compressed sample is what the test is for
    d = two_sample_from_arrays(a.compressed(), [4.0, 5.0])
    assert d.samples(0)[0].tolist() == [1.0, 3.0]


@pytest.mark.parametrize(("a", "b", "empty"), [([], [1.0, 2.0], "a"), ([1.0], [], "b")])
def test_an_empty_sample_is_named_by_its_argument(a, b, empty):
    # `a` or `b`, the arguments of the function on arrays, not a table's `score`
    with pytest.raises(
        ValueError,
        match=f"^`{empty}`: each group needs at least 1 value; group '{empty}' has none "
        f"\\(`{empty}` is empty\\)",
    ):
        two_sample_from_arrays(a, b)


@pytest.mark.parametrize("missing", [None, np.nan])
def test_a_missing_group_label_in_a_dataset_is_refused_as_in_a_table(missing):
    labels = np.array(["u", "c", "u", missing, "c"], dtype=object)
    ds = xr.Dataset({"x": ("item", [1.0, 2.0, 3.0, 4.0, 5.0])}, coords={"g": ("item", labels)})
    message = (
        "^`group`: 1 'g' coordinate label\\(s\\) are missing \\(NaN or None\\), the first at "
        "position 3"
    )
    with pytest.raises(ValueError, match=message):
        two_sample_from_dataset(ds, group="g")
    with pytest.raises(ValueError, match=message):  # not left out of both samples
        two_sample_from_dataset(ds, group="g", a="u", b="c")
    numbers = ds.assign_coords(g=("item", [1.0, 2.0, 1.0, np.nan, 2.0]))
    with pytest.raises(ValueError, match=message):  # not a third group 'nan'
        two_sample_from_dataset(numbers, group="g")
    frame = pd.DataFrame({"g": labels, "x": ds["x"].values})
    with pytest.raises(ValueError, match="`group`: column 'g' has 1 missing label"):
        two_sample_from_frame(frame, score="x", group="g", a="u", b="c")
    # a dimension of groups: its labels too
    two = xr.Dataset(
        {"x": (("grp", "item"), [[1.0, 2.0], [3.0, 4.0]])},
        coords={"grp": np.array(["u", missing], dtype=object)},
    )
    with pytest.raises(ValueError, match=r"^`group`: 1 .grp. coordinate label"):
        two_sample_from_dataset(two, group="grp")


def test_tuple_group_labels_along_the_items_are_labels():
    labels = np.empty(4, dtype=object)
    labels[:] = [("u", 1), ("c", 2), ("u", 1), ("c", 2)]
    ds = xr.Dataset({"x": ("item", [1.0, 2.0, 3.0, 4.0])}, coords={"g": ("item", labels)})
    d = two_sample_from_dataset(ds, group="g")
    assert d.labels == (("u", 1), ("c", 2))
    assert [s.tolist() for s in d.samples(0)] == [[1.0, 3.0], [2.0, 4.0]]


@pytest.mark.parametrize(
    ("keywords", "named"),
    [
        ({"score": "x", "group": "g", "by": "g"}, "group"),
        ({"score": "x", "group": "g", "by": ["k", "x"]}, "score"),
        ({"a": "x", "b": "y", "by": "y"}, "b"),
    ],
)
def test_by_naming_the_group_or_score_column_is_refused(keywords, named):
    frame = pd.DataFrame({
        "g": list("uvuv"), "x": [1.0, 2.0, 3.0, 4.0], "y": [2.0, 1.0, 4.0, 3.0],
        "k": list("ppqq"),
    })  # fmt: skip
    column = keywords["by"] if isinstance(keywords["by"], str) else keywords["by"][1]
    with pytest.raises(
        ValueError, match=f"^`by`: '{column}' is also the `{named}` column; `by=` names the"
    ):
        two_sample_from_frame(frame, **keywords)
