"""Threads and chunks do not change the numbers.

"The same ``rng`` gives the same numbers whatever the thread count, batch size, dask chunking":
``workers=1`` equals ``workers=2`` for the bootstrap and Tukey functions (and Tukey's ``by=``
groups, counted together in one kernel), and a dask-chunked Dataset equals the same Dataset
in memory, for any chunking of its sweep dimension.
"""

import itertools

import numpy as np
import pytest
import xarray as xr
from hypothesis import given
from hypothesis import strategies as st

import pairedstats

from .checks import assert_identical, result, run
from .strategies import PAIRED, RANKSUM, RESAMPLING, SWEEP, TIDY, groups, sweeps

#: Several blocks of resamples, so that two workers share the work.
_MANY = st.sampled_from([1000, 2000])
_FUNCTIONS = {
    **{name: (pairedstats.bootstrap, case) for name, case in RESAMPLING.items()},
    "tukey-exact": (pairedstats.tukey_hsd, PAIRED["tukey-exact"]),
    "tukey-monte-carlo": (pairedstats.tukey_hsd, PAIRED["tukey-monte-carlo"]),
}


def _arrays(design) -> dict:
    """The keywords of the array functions for ``design``."""
    out = {"systems": design.systems}
    if design.cluster is not None:
        out["cluster"] = design.cluster
    if design.strata is not None:
        out["strata"] = design.strata
    return out


@pytest.mark.parametrize("name", _FUNCTIONS)
@given(data=st.data(), n_resamples=_MANY)
def test_workers_do_not_change_the_numbers(name, data, n_resamples):
    function, case = _FUNCTIONS[name]
    design, settings = data.draw(case.data()), data.draw(case.settings)
    keywords = {**_arrays(design), **settings, "n_resamples": n_resamples}
    one, two = (run(function, design.scores, workers=w, **keywords) for w in (1, 2))
    assert_identical(one[0].to_dataframe(), two[0].to_dataframe())
    assert one[1] == two[1]
    if function is pairedstats.bootstrap:
        np.testing.assert_array_equal(one[0].bootstrap_distribution, two[0].bootstrap_distribution)


@given(
    grouped=groups(PAIRED["tukey-monte-carlo"], n_groups=(2, 4)),
    settings=PAIRED["tukey-monte-carlo"].settings,
    n_resamples=_MANY,
)
def test_workers_do_not_change_tukey_by_groups(grouped, settings, n_resamples):
    keywords = {**TIDY, **settings, "n_resamples": n_resamples, "by": grouped.by}
    one, two = (result(grouped.tidy(), "tukey_hsd", workers=w, **keywords) for w in (1, 2))
    assert_identical(one, two)


@st.composite
def _chunks(draw, size: int) -> tuple:
    """A partition of ``size`` into chunk lengths."""
    cuts = draw(st.sets(st.integers(1, size - 1), max_size=size - 1)) if size > 1 else set()
    bounds = [0, *sorted(cuts), size]
    return tuple(b - a for a, b in itertools.pairwise(bounds))


CASES = {**PAIRED, "ranksum": RANKSUM}


@pytest.mark.parametrize("name", CASES)
@given(data=st.data())
def test_dask_chunks_do_not_change_the_numbers(name, data):
    case = CASES[name]
    sweep = data.draw(sweeps(case, n_cells=(2, 4)), label="sweep")
    settings = data.draw(case.settings)
    chunks = data.draw(_chunks(len(sweep.keys)), label="chunks")
    keywords = {**sweep.parts[0].keywords, **settings}
    eager = result(sweep.dataset(), case.method, **keywords)
    lazy = result(sweep.dataset().chunk({SWEEP: chunks}), case.method, **keywords)
    assert lazy[next(iter(lazy.data_vars))].chunks is not None, "the result is not lazy"
    xr.testing.assert_identical(run(lazy.compute)[0], eager)
