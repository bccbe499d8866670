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
