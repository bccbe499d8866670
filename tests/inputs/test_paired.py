"""The paired design (pairedstats.inputs.paired): one check for every method, dropped counts."""

import numpy as np
import pytest

import pairedstats
from pairedstats import DroppedDataWarning, PairedDesign, TwoSampleDesign
from pairedstats.inputs import check_design, check_two_sample, design_from_array

#: The methods on designs, each called with keywords that make it quick.
ON_DESIGN = {
    "bootstrap_design": lambda d: pairedstats.bootstrap_design(d, n_resamples=50, rng=0),
    "tukey_hsd_design": lambda d: pairedstats.tukey_hsd_design(d, n_resamples=50, rng=0),
}


def _design(scores, offsets, **kw):
    scores = np.asarray(scores, dtype=float)
    kw.setdefault("systems", tuple("abcdef"[: scores.shape[1]]))
    return PairedDesign(
        scores=scores, offsets=np.asarray(offsets), items=np.arange(len(scores)), **kw
    )


BAD = [
    ("not-a-design", np.zeros((3, 2)), TypeError,
     "`design` must be a PairedDesign; got ndarray. Make one with "
     "pairedstats.inputs.design_from_array, design_from_frame or design_from_dataset."),
    ("nan", _design(np.full((3, 2, 1), np.nan), [0, 3]), ValueError,
     "`design.scores` must be finite; got 6 NaN or infinite values."),
    ("one-system", _design(np.zeros((3, 1, 1)), [0, 3]), ValueError,
     "`design`: a comparison needs at least 2 systems; got 1."),
    ("one-item", _design(np.arange(6.0).reshape(3, 2, 1), [0, 2, 3], group_names=("g",),
                         group_keys=(("x",), ("y",))), ValueError,
     "`design`: a comparison needs at least 2 items in group {'g': 'y'}; got 1."),
    ("offsets-beyond-rows", _design(np.zeros((3, 2, 1)), [0, 4]), ValueError,
     "`design.scores` must have shape (n_rows, n_systems, n_columns) = (4, 2, n_columns) by "
     "its offsets and systems; got (3, 2, 1)."),
]  # fmt: skip


@pytest.mark.parametrize(
    ("design", "error", "message"), [c[1:] for c in BAD], ids=[c[0] for c in BAD]
)
def test_every_method_holds_a_design_to_the_same_rules(design, error, message):
    seen = set()
    for run in ON_DESIGN.values():
        with pytest.raises(error) as info:
            run(design)
        seen.add(str(info.value))
    assert seen == {message}


def test_a_design_of_the_input_layer_passes_as_it_is():
    d = design_from_array(np.arange(8.0).reshape(4, 2) ** 1.5)
    assert check_design(d) is d


def test_dropped_items_are_counted_per_group():
    # rows 1 and 4 (group "u") and row 6 (group "v") lack a score; group "w" is complete
    x = np.arange(20.0).reshape(10, 2) % 7
    x[[1, 4], 0] = np.nan
    x[6, 1] = np.nan
    groups = ["u"] * 5 + ["v"] * 3 + ["w"] * 2
    with pytest.warns(DroppedDataWarning, match="dropped 3 of 10 item"):
        d = design_from_array(x, groups=groups, missing="complete")
    assert d.group_keys == (("u",), ("v",), ("w",))
    assert d.dropped == (2, 1, 0)
    assert d.n_dropped().tolist() == [2, 1, 0]
    assert d.n_items().tolist() == [3, 2, 2]
    complete = design_from_array(np.nan_to_num(x), groups=groups)
    assert complete.dropped == (0, 0, 0)
    # a design built by hand without counts dropped none
    hand = _design(np.zeros((4, 2, 1)), [0, 2, 4], group_keys=((1,), (2,)), group_names=("g",))
    assert hand.n_dropped().tolist() == [0, 0]


def test_two_sample_designs_are_checked_and_count_their_drops():
    empty = TwoSampleDesign(
        a=np.array([1.0, 2.0]), b=np.array([3.0]), a_offsets=np.array([0, 1, 2]),
        b_offsets=np.array([0, 1, 1]), group_names=("g",), group_keys=(("x",), ("y",)),
    )  # fmt: skip
    with pytest.raises(
        ValueError, match=r"`design`: each group needs at least 1 value; group 'b' has none in "
        r"group \{'g': 'y'\}\."
    ):  # fmt: skip
        pairedstats.ranksum_design(empty)
    nan = TwoSampleDesign(
        a=np.array([1.0, np.nan]), b=np.array([3.0]), a_offsets=np.array([0, 2]),
        b_offsets=np.array([0, 1]),
    )  # fmt: skip
    with pytest.raises(ValueError, match="`design`: scores must be finite; group 'a' has 1 NaN"):
        pairedstats.ranksum_design(nan)
    with pytest.raises(TypeError, match="`design` must be a TwoSampleDesign"):
        check_two_sample(np.zeros(3))
    assert empty.n_dropped().tolist() == [0, 0]
    dropped = TwoSampleDesign(
        a=np.array([1.0]), b=np.array([2.0]), a_offsets=np.array([0, 1]),
        b_offsets=np.array([0, 1]), dropped=(3,),
    )  # fmt: skip
    assert dropped.n_dropped().tolist() == [3]
