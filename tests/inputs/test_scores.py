"""What a score may be (pairedstats.inputs.scores): exact, finite, present or dropped."""

import numpy as np
import pandas as pd
import pytest

from pairedstats import DroppedDataWarning
from pairedstats.inputs import (
    design_from_array,
    design_from_frame,
)


def test_missing_complete_drops_and_says_how_many(tidy):
    tidy = tidy.copy()
    tidy.loc[3, "ndcg"] = np.nan  # g1, q1, x
    tidy = tidy.drop(index=[7])  # g1, q2, y
    with pytest.warns(DroppedDataWarning, match="dropped 2 of 10 item"):
        d = design_from_frame(
            tidy, item="query", system="run", score="ndcg", by="ds", missing="complete"
        )
    assert d.dropped == (2, 0)
    assert d.n_dropped().tolist() == [2, 0]
    assert d.offsets.tolist() == [0, 3, 8]
    assert list(d.items[:3]) == ["q0", "q3", "q4"]


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
