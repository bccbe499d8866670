"""Arrays (pairedstats.inputs.arrays), and the rule that every paired method reads them alike."""

import sys

import numpy as np
import pandas as pd
import pytest

import pairedstats
from pairedstats import DroppedDataWarning, inputs
from pairedstats.inputs import design_from_array


def test_array_design():
    d = design_from_array(
        np.arange(12.0).reshape(4, 3), systems=["a", "b", "c"], groups=[1, 2, 1, 2]
    )
    assert d.group_keys == ((1,), (2,))
    np.testing.assert_array_equal(d.scores[:, 0, 0], [0.0, 6.0, 3.0, 9.0])
    assert list(d.items) == [0, 2, 1, 3]


def test_array_errors():
    with pytest.raises(
        ValueError,
        match="`scores` must have shape \\(n_items, n_systems\\) or "
        "\\(n_items, n_systems, n_columns\\); got 1 dimensions \\(4,\\)",
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


# ------------------------------------------------- one road: every paired method alike
#: The paired methods that take an array: (function on arrays, function on designs).
PAIRED = {
    "bootstrap": (pairedstats.bootstrap, pairedstats.bootstrap_design),
    "tukey_hsd": (pairedstats.tukey_hsd, pairedstats.tukey_hsd_design),
}
_X = np.array([[0.1, 0.4], [0.3, 0.2], [0.5, 0.9], [0.7, 0.8]])

MALFORMED = [
    # (id, scores, keywords, error type, message the error must contain)
    ("one-item", [[0.1, 0.2]], {}, ValueError,
     "`scores`: a comparison needs at least 2 items; got 1."),
    ("no-items", np.empty((0, 2)), {}, ValueError,
     "`scores`: a comparison needs at least 2 items; got 0."),
    ("one-system", [[0.1], [0.2]], {}, ValueError,
     "`systems`: a comparison needs at least 2 systems; got 1 (0)."),
    ("nan", [[0.1, np.nan], [0.3, 0.2], [0.5, 0.9]], {}, ValueError,
     "`scores`: every item needs a score for every system; found 1 NaN or missing score(s) "
     "(by system: 1: 1; the first for item 0 and system 1)."),
    ("masked", np.ma.masked_array(_X, mask=[[0, 1], [0, 0], [0, 0], [0, 0]]), {}, ValueError,
     "`scores`: every item needs a score for every system; found 1 NaN or missing score(s) "
     "(by system: 1: 1; the first for item 0 and system 1)."),
    ("inf", [[0.1, np.inf], [0.3, 0.2]], {}, ValueError,
     "`scores`: scores must be finite; got 1 infinite value(s), the first at row 0, system 1."),
    ("text", [["a", "b"], ["c", "d"]], {}, TypeError,
     "`scores`: the scores must be numeric; got dtype <U1 with the non-numeric value 'a'."),
    ("complex", np.ones((3, 2)) * 1j, {}, TypeError,
     "`scores`: the scores must be real numbers; got complex values."),
    ("huge-int", np.array([[2**60, 1], [3, 4]], dtype=np.uint64), {}, ValueError,
     "`scores`: the scores must be integers of magnitude at most 2**53"),
    ("0-d", 3.0, {}, ValueError,
     "`scores` must have shape (n_items, n_systems) or (n_items, n_systems, n_columns); got "
     "0 dimensions ()."),
    ("1-d", [0.1, 0.2, 0.3], {}, ValueError, "got 1 dimensions (3,)."),
    ("4-d", np.zeros((3, 2, 1, 1)), {}, ValueError, "got 4 dimensions (3, 2, 1, 1)."),
    ("ragged", [[0.1, 0.2], [0.3]], {}, ValueError, "got a ragged sequence"),
    ("too-few-labels", _X, {"systems": ["a"]}, ValueError,
     "`systems` must name each of the 2 columns of `scores`; got 1 names."),
    ("too-many-labels", _X, {"systems": ["a", "b", "c"]}, ValueError,
     "`systems` must name each of the 2 columns of `scores`; got 3 names."),
    ("repeated-labels", _X, {"systems": ["a", "a"]}, ValueError,
     "`systems` names a column more than once; got ['a', 'a']."),
    ("equal-labels", _X, {"systems": [1, 1.0]}, ValueError,
     "`systems`: the system labels 1, 1.0 are equal as values"),
    ("missing-label", _X, {"systems": ["a", None]}, ValueError,
     "`systems`: 1 system label(s) are missing (NaN or None)"),
    ("set-of-labels", _X, {"systems": {"a", "b"}}, TypeError,
     "`systems` must be a label or an ordered collection of labels (a list); got a set"),
    ("missing-arg", _X, {"missing": "drop"}, ValueError,
     "`missing` must be one of 'raise', 'complete'; got 'drop'."),
    ("workers-float", _X, {"workers": 1.5}, TypeError,
     "`workers` must be a positive integer or None; got 1.5."),
    ("workers-zero", _X, {"workers": 0}, ValueError,
     "`workers` must be a positive integer or None; got 0."),
]  # fmt: skip


@pytest.mark.parametrize(
    ("scores", "keywords", "error", "message"),
    [case[1:] for case in MALFORMED],
    ids=[case[0] for case in MALFORMED],
)
def test_every_paired_method_refuses_an_array_alike(scores, keywords, error, message):
    # the same array gives the same error type and message in every paired method
    seen = {}
    for name, (function, _) in PAIRED.items():
        with pytest.raises(error) as info:
            function(scores, **keywords, n_resamples=100, rng=0)
        seen[name] = (info.type, str(info.value))
    assert len(set(seen.values())) == 1, seen
    kind, text = next(iter(seen.values()))
    assert kind is error
    assert message in text


def test_every_paired_method_reads_an_array_into_the_same_design(monkeypatch):
    # each method builds its design through the one array road; the same array, labels and
    # missing= give equal designs, and a method on the array equals it on that design
    x = np.random.default_rng(4).normal(size=(12, 3))
    x[[2, 7], [1, 0]] = np.nan
    keywords = {"systems": ["c", "a", "b"], "missing": "complete"}
    made = {}
    road = inputs.design_from_array
    for name, (function, _) in PAIRED.items():
        module = sys.modules[function.__module__]

        def spy(*args, _name=name, **kw):
            made[_name] = road(*args, **kw)
            return made[_name]

        # the registry's reader (read_arrays) or a spec's own reader
        monkeypatch.setattr(inputs, "design_from_array", spy)
        if hasattr(module, "design_from_array"):
            monkeypatch.setattr(module, "design_from_array", spy)
        with pytest.warns(DroppedDataWarning, match="dropped 2 of 12"):
            function(x, **keywords, n_resamples=200, rng=1)
        assert name in made, name
    expected = design_from_array(x[[0, 1, 3, 4, 5, 6, 8, 9, 10, 11]], systems=["c", "a", "b"])
    for name, design in made.items():
        assert design.dropped == (2,), name
        assert design.n_dropped().tolist() == [2]
        for field in ("systems", "columns", "group_names", "group_keys", "precision"):
            assert getattr(design, field) == getattr(expected, field), (name, field)
        np.testing.assert_array_equal(design.scores, expected.scores)
        np.testing.assert_array_equal(design.offsets, expected.offsets)
        assert design.items.tolist() == [0, 1, 3, 4, 5, 6, 8, 9, 10, 11]
    monkeypatch.undo()
    for name, (function, on_design) in PAIRED.items():
        with pytest.warns(DroppedDataWarning):
            by_array = function(x, **keywords, n_resamples=200, rng=1).to_dataframe()
        by_design = on_design(made[name], n_resamples=200, rng=1).to_dataframe()
        pd.testing.assert_frame_equal(by_array, by_design)


# ------------------------------------------------------------------ masked arrays
def test_masked_cells_are_missing_scores_and_the_data_under_them_is_never_read():
    # the masked value is not a score: the item is refused (above) or, with
    # missing="complete", dropped, whatever the data under the mask holds
    x = np.array([[1, 2], [3, 4], [5, 9], [7, 7]], dtype=np.int64)
    under = x.copy()
    under[1, 0] = 2**60  # not exact in float64: refused if it were read
    masked = np.ma.masked_array(under, mask=[[0, 0], [1, 0], [0, 0], [0, 0]])
    with pytest.warns(DroppedDataWarning, match="dropped 1 of 4"):
        d = design_from_array(masked, missing="complete")
    assert d.items.tolist() == [0, 2, 3]
    np.testing.assert_array_equal(d.scores[:, :, 0], x[[0, 2, 3]])
    assert d.dropped == (1,)
    # a list of masked rows keeps their masks
    with pytest.warns(DroppedDataWarning, match="dropped 1 of 4"):
        rows = design_from_array(list(masked), missing="complete")
    np.testing.assert_array_equal(rows.scores, d.scores)
    # the same numbers as the array without the item
    with pytest.warns(DroppedDataWarning):
        got = pairedstats.bootstrap(masked, missing="complete", n_resamples=200, rng=3)
    expected = pairedstats.bootstrap(x[[0, 2, 3]], n_resamples=200, rng=3)
    assert got.to_dataframe()["n_dropped"].tolist() == [1]
    pd.testing.assert_frame_equal(
        got.to_dataframe().drop(columns="n_dropped"),
        expected.to_dataframe().drop(columns="n_dropped"),
    )


def test_a_masked_run_is_a_missing_cell_of_the_replicates():
    runs = np.arange(24.0).reshape(4, 2, 3)
    masked = np.ma.masked_array(runs, mask=np.zeros(runs.shape, dtype=bool))
    masked[2, 1, 0] = np.ma.masked
    with pytest.raises(ValueError, match=r"found 1 missing \(item, system, replicate\) cell"):
        design_from_array(masked, replicate=["s1", "s2", "s3"])
    with pytest.warns(DroppedDataWarning, match="dropped 1 of 4"):
        d = design_from_array(masked, replicate=["s1", "s2", "s3"], missing="complete")
    assert d.items.tolist() == [0, 1, 3]
