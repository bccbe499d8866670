"""xarray datasets (pairedstats.inputs.datasets): sweeps flattened into groups, and messages."""

import numpy as np
import pytest
import xarray as xr

from pairedstats.inputs import (
    design_from_array,
    design_from_dataset,
)


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


def test_dataset_messages():
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
