"""What else is in a call does not move a row's numbers.

Streams are keyed by the seed and labels, never by positions: another system leaves the
bootstrap's other comparisons unchanged (against a baseline and on integer scores the same
bits; all pairs of other scores the same to rounding, as each comparison is the difference
of two systems' sums centred on one system: :func:`pairedstats.core.groups.reference_system`),
on every resampling path, and another ``by=`` group or sweep cell leaves the other groups'
and cells' numbers unchanged, whichever position it takes.
"""

import numpy as np
import pytest
import xarray as xr
from hypothesis import given
from hypothesis import strategies as st

from .checks import assert_close, assert_identical, cases, pinned, result
from .strategies import (
    PAIRED,
    RANKSUM,
    SWEEP,
    Paired,
    column_names,
    distinct_labels,
    groups,
    normal,
    scores,
    sweeps,
    with_resampling,
)

CASES = {**PAIRED, "ranksum": RANKSUM}
_LABELS = ["system_a", "system_b"]


def _rows(frame, columns, wanted):
    """The rows of ``frame`` whose values in ``columns`` are one of the tuples ``wanted``."""
    keep = [tuple(row) in wanted for row in frame[columns].to_numpy().tolist()]
    return frame[keep].reset_index(drop=True)


#: Every resampling path; BCa apart, on unstratified and stratified designs.
_PATHS = ("auto", "index", "counts")
SYSTEM_CASES = {
    **{f"bootstrap-{r}": with_resampling(r, ("percentile", "basic")) for r in _PATHS},
    **{f"bootstrap-{r}-bca": with_resampling(r, ("bca",), ("plain", "cluster")) for r in _PATHS},
    **{
        f"bootstrap-{r}-bca-strata": with_resampling(r, ("bca",), ("strata", "cluster-strata"))
        for r in _PATHS
    },
}
ANOTHER_SYSTEM: dict[str, str] = {}
#: Found by the thorough profile; tried before any other.
_EIGHT = [
    [-1.1575496471201177, 0.2897558023277514],
    [0.7808540692250985, 0.5439736447085796],
    [-0.9613826412454365, 1.071008665601581],
    [0.7014556601104507, 0.7049734550988194],
    [0.7450626026618294, 1.1043472383723143],
    [2.242972395734681, -0.6114931227230745],
    [0.04721118309074067, 1.7542346824437531],
    [-1.3379798662995022, 0.3255744688871539],
]
ANOTHER_SYSTEM_EXAMPLES = {
    name: [
        {
            "design_and_new": (
                Paired(
                    scores=_EIGHT,
                    items=["(", ",", "0:", "::", ":", ":0", "00", "0"],
                    systems=[":", "00"],
                    strata=["0"] * 8,
                ),
                ("0", 0, normal(0, (8, 1))),
            ),
            "settings": {
                "method": "bca",
                "resampling": name.split("-")[1],
                "confidence_level": 0.9,
                "n_resamples": 200,
                "rng": 0,
            },
            "baseline": None,
        }
    ]
    for name in ("bootstrap-auto-bca-strata", "bootstrap-index-bca-strata")
}


@st.composite
def _with_new_system(draw, case):
    """A design, and a label it lacks with its position in the system order and scores."""
    design = draw(case.data())
    kind = "int" if isinstance(design.systems[0], int) else "str"
    fresh = distinct_labels(kind, 1).filter(lambda x: x[0] not in design.systems)
    n, k = design.shape
    return design, (draw(fresh)[0], draw(st.integers(0, k)), draw(scores((n, 1))))


@pytest.mark.parametrize("name", cases(SYSTEM_CASES, ANOTHER_SYSTEM))
def test_another_system_leaves_the_other_comparisons_unchanged(name):
    case = SYSTEM_CASES[name]

    @given(
        design_and_new=_with_new_system(case),
        settings=case.settings,
        baseline=st.sampled_from([None, 0, 1]),
    )
    @pinned(ANOTHER_SYSTEM_EXAMPLES, name)
    def check(design_and_new, settings, baseline):
        design, (label, where, column) = design_and_new
        bigger = design.replace(
            scores=np.insert(design.scores, where, column[:, 0], axis=1),
            systems=[*design.systems[:where], label, *design.systems[where:]],
        )
        baseline = None if baseline is None else design.systems[baseline]
        keywords = {**design.keywords, **settings, "baseline": baseline}
        before = result(design.wide(), case.method, **keywords)
        after = result(bigger.wide(), case.method, **keywords)
        pairs = set(map(tuple, before[_LABELS].to_numpy().tolist()))
        exact = baseline is not None or np.array_equal(bigger.scores, np.round(bigger.scores))
        if exact:
            assert_identical(_rows(after, _LABELS, pairs), before)
        else:
            scale = float(np.abs(bigger.scores).max(initial=1.0))
            assert_close(_rows(after, _LABELS, pairs), before, rtol=1e-12,
                         atol=1e-13 * scale)  # fmt: skip

    check()


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
