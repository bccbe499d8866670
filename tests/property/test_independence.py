"""What else is in a call does not move a row's numbers.

Streams are keyed by the seed and labels, never by positions: another system leaves the
bootstrap's other comparisons unchanged (all pairs or against a baseline, on every resampling
path), and another ``by=`` group or sweep cell leaves the other groups' and cells' numbers
unchanged, whichever position it takes.
"""

import numpy as np
import pytest
import xarray as xr
from hypothesis import given
from hypothesis import strategies as st

from .checks import assert_identical, result
from .strategies import (
    PAIRED,
    RANKSUM,
    RESAMPLING,
    SWEEP,
    column_names,
    distinct_labels,
    groups,
    scores,
    sweeps,
)

CASES = {**PAIRED, "ranksum": RANKSUM}
_LABELS = ["system_a", "system_b"]


def _rows(frame, columns, wanted):
    """The rows of ``frame`` whose values in ``columns`` are one of the tuples ``wanted``."""
    keep = [tuple(row) in wanted for row in frame[columns].to_numpy().tolist()]
    return frame[keep].reset_index(drop=True)


@pytest.mark.parametrize("name", RESAMPLING)
@given(data=st.data())
def test_another_system_leaves_the_other_comparisons_unchanged(name, data):
    case = RESAMPLING[name]
    design, settings = data.draw(case.data()), data.draw(case.settings)
    n, k = design.shape
    kind = "int" if isinstance(design.systems[0], int) else "str"
    label = data.draw(
        distinct_labels(kind, 1).filter(lambda x: x[0] not in design.systems), label="new"
    )[0]
    where = data.draw(st.integers(0, k), label="position")
    column = data.draw(scores((n, 1)), label="new scores")
    bigger = design.replace(
        scores=np.insert(design.scores, where, column[:, 0], axis=1),
        systems=[*design.systems[:where], label, *design.systems[where:]],
    )
    baseline = data.draw(st.sampled_from([None, *design.systems]), label="baseline")
    keywords = {**design.keywords, **settings, "baseline": baseline}
    before = result(design.wide(), case.method, **keywords)
    after = result(bigger.wide(), case.method, **keywords)
    pairs = set(map(tuple, before[_LABELS].to_numpy().tolist()))
    assert_identical(_rows(after, _LABELS, pairs), before)


@pytest.mark.parametrize("name", CASES)
@given(data=st.data())
def test_another_by_group_leaves_the_other_groups_unchanged(name, data):
    case = CASES[name]
    grouped = data.draw(groups(case, n_groups=(2, 4)), label="groups")
    settings = data.draw(case.settings)
    dropped = data.draw(st.integers(0, len(grouped.keys) - 1), label="dropped")
    fewer = grouped.without(dropped)
    keywords = {**column_names(case), **grouped.parts[0].keywords, **settings, "by": grouped.by}
    before = result(fewer.tidy(), case.method, **keywords)
    after = result(grouped.tidy(), case.method, **keywords)
    assert_identical(_rows(after, list(grouped.names), set(fewer.keys)), before)


@pytest.mark.parametrize("name", CASES)
@given(data=st.data())
def test_another_sweep_cell_leaves_the_other_cells_unchanged(name, data):
    case = CASES[name]
    sweep = data.draw(sweeps(case, n_cells=(2, 4)), label="sweep")
    settings = data.draw(case.settings)
    dropped = data.draw(st.integers(0, len(sweep.keys) - 1), label="dropped")
    fewer = sweep.without(dropped)
    keywords = {**sweep.parts[0].keywords, **settings}
    before = result(fewer.dataset(), case.method, **keywords)
    after = result(sweep.dataset(), case.method, **keywords)
    xr.testing.assert_identical(after.sel({SWEEP: before[SWEEP].values}), before)
