"""The input layer's shortcuts give what the general rules give: the ranks of integer item
labels (an index or column of numpy integers) those of ``canonical_ranks``, the id-column
rule's distinctness pandas' ``is_unique``, the first row of each item ``np.unique``'s."""

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from pairedstats.inputs.frames import _distinct, _first_rows, _integer_ranks
from pairedstats.inputs.labels import canonical_ranks

_INTS = st.lists(st.integers(-(2**62), 2**62), min_size=1, max_size=40) | st.lists(
    st.integers(-3, 3), min_size=1, max_size=40
)


@settings(max_examples=200, deadline=None)
@given(_INTS, st.sampled_from([np.int64, np.int32, np.uint64]))
def test_integer_ranks_order_items_as_canonical_ranks(values, dtype):
    if dtype is not np.int64:
        values = [v % 2**31 for v in values]
    for labels in (pd.Index(np.array(values, dtype=dtype)), pd.Series(values, dtype=dtype),
                   pd.Index(np.sort(np.array(values, dtype=dtype)))):  # fmt: skip
        ranks = _integer_ranks(labels)
        dense = np.unique(ranks, return_inverse=True)[1].reshape(-1)  # any order-keeping ranks
        assert dense.tolist() == canonical_ranks(labels.to_numpy(dtype=object)).tolist()


def test_integer_ranks_leave_other_labels_to_the_general_rules():
    assert _integer_ranks(pd.RangeIndex(5)) == range(5)  # in order already: a range
    assert _integer_ranks(pd.Index([3, 1, 2])).tolist() == [2, 0, 1]
    for labels in (pd.Index(["b", "a"]), pd.Index([0.5, 1.0]), pd.Index([True, False]),
                   pd.Index([1, None], dtype="Int64")):  # fmt: skip
        assert _integer_ranks(labels) is None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-(2**62), 2**62), min_size=2, max_size=60)
       | st.lists(st.integers(0, 60), min_size=2, max_size=60))  # fmt: skip
def test_distinct_is_is_unique(values):
    for column in (pd.Series(values, dtype=np.int64), pd.Series(values, dtype="Int64")):
        assert _distinct(column) == column.is_unique


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 12), min_size=1, max_size=80), st.booleans())
def test_first_rows_are_those_of_np_unique(values, renumber):
    rows = np.array(values)
    if renumber:  # codes in order of first appearance, as groupby(sort=False).ngroup()
        rows = pd.factorize(rows, sort=False)[0]
    else:  # codes in any order, some missing
        rows = rows * 2
    np.testing.assert_array_equal(_first_rows(rows), np.unique(rows, return_index=True)[1])
