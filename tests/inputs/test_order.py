"""The canonical order of items and missing labels in every container (inputs.labels)."""

import numpy as np
import pytest
import xarray as xr

from pairedstats.inputs import (
    canonical_ranks,
    design_from_array,
    design_from_dataset,
    design_from_frame,
)

from .tables import wide_of


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
    assert canonical_ranks([10, 2, "b", "a", 1.5]).tolist() == [2, 1, 4, 3, 0]
    assert canonical_ranks([(2, "a"), (1, "b"), (1, "a")]).tolist() == [2, 1, 0]
    # a design of mixed labels is built, in one order whatever the input order
    x = np.arange(8.0).reshape(4, 2) ** 2
    d1 = design_from_array(x, items=[3, "c", 1, "a"])
    d2 = design_from_array(x[::-1], items=["a", 1, "c", 3])
    _designs_equal(d1, d2)


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
