"""The result base class: tidy tables, datasets over sweeps, printing, metadata."""

from dataclasses import FrozenInstanceError, dataclass
from typing import ClassVar

import numpy as np
import pytest

from pairedstats._validation import metadata
from pairedstats.results import ComparisonResult


@dataclass(frozen=True, kw_only=True)
class _Diff(ComparisonResult):
    """A minimal subclass: one quantity per comparison."""

    difference: np.ndarray
    n_items: np.ndarray
    _columns: ClassVar[tuple] = ("difference", "n_items")
    _title: ClassVar[str] = "Difference"


def _result(keys=((10, "a"), (10, "b"), (20, "a"), (20, "b")), names=("seed", "lr")):
    g = len(keys)
    return _Diff(
        group_names=names,
        group_keys=keys,
        label_a=("x", "x"),
        label_b=("y", "z"),
        difference=np.arange(2.0 * g).reshape(g, 2) / 3,
        n_items=np.full((g, 2), 5),
        metadata=metadata("demo", n_resamples=100, seed_entropy=7),
    )


def test_to_dataframe_is_tidy_with_labels_first():
    frame = _result().to_dataframe()
    assert list(frame.columns) == ["seed", "lr", "system_a", "system_b", "difference", "n_items"]
    assert frame["seed"].tolist() == [10, 10, 10, 10, 20, 20, 20, 20]
    assert frame["system_b"].tolist() == ["y", "z"] * 4
    np.testing.assert_array_equal(frame["difference"], np.arange(8.0) / 3)  # never rounded
    assert frame["seed"].dtype.kind == "i"
    assert frame.attrs["method"] == "demo"
    assert frame.attrs["seed_entropy"] == 7
    assert "pairedstats_version" in frame.attrs


def test_to_dataset_rebuilds_the_sweep_grid_in_input_order():
    keys = ((20, "b"), (20, "a"), (10, "b"), (10, "a"))
    ds = _result(keys).to_dataset()
    assert ds["difference"].dims == ("seed", "lr", "comparison")
    assert ds["seed"].values.tolist() == [20, 10]
    assert ds["lr"].values.tolist() == ["b", "a"]
    assert ds["system_b"].values.tolist() == ["y", "z"]
    np.testing.assert_array_equal(ds["difference"].sel(seed=10, lr="b").values, [4 / 3, 5 / 3])
    assert ds.attrs["n_resamples"] == 100


def test_ungrouped_dataset_and_printing():
    res = _result(keys=((),), names=())
    ds = res.to_dataset()
    assert ds["difference"].dims == ("comparison",)
    text = str(res)
    assert text.splitlines()[0] == "Difference"
    assert "method=demo, n_resamples=100, seed_entropy=7" in text
    assert "system_a system_b" in text
    assert "<table" in res._repr_html_()


def test_results_are_frozen():
    res = _result()
    with pytest.raises(FrozenInstanceError):
        res.difference = None
