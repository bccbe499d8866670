"""One data set, several presentations, identical numbers.

API.md: "The tidy and the wide form of the same data give identical numbers, and so does the
same table with its rows in another order"; a Dataset gives "the same numbers as the pandas
path on each slice".
"""

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import pairedstats

from .checks import assert_identical, call_method, result
from .strategies import PAIRED, RANKSUM, SWEEP, SYSTEM, TIDY, column_names, sweeps, two_samples


def _first_appearance(frame, column):
    return list(dict.fromkeys(frame[column].tolist()))


@pytest.mark.parametrize("name", PAIRED)
@given(data=st.data())
def test_tidy_and_wide_tables_give_identical_numbers(name, data):
    case = PAIRED[name]
    design, settings = data.draw(case.data()), data.draw(case.settings)
    keywords = {**design.keywords, **settings}
    tidy, tidy_warnings = call_method(design.tidy(), case.method, **TIDY, **keywords)
    wide, wide_warnings = call_method(design.wide(), case.method, **keywords)
    assert_identical(tidy, wide)
    assert tidy_warnings == wide_warnings


@pytest.mark.parametrize("name", PAIRED)
@given(data=st.data())
def test_row_and_column_order_of_a_tidy_table_do_not_matter(name, data):
    case = PAIRED[name]
    design, settings = data.draw(case.data()), data.draw(case.settings)
    tidy = design.tidy()
    rows = data.draw(st.permutations(range(len(tidy))), label="rows")
    columns = data.draw(st.permutations(range(tidy.shape[1])), label="columns")
    shuffled = design.tidy(rows, columns)
    keywords = {**TIDY, **design.keywords, **settings}
    # systems in the shuffled table's order of first appearance: the same comparisons
    systems = _first_appearance(shuffled, SYSTEM)
    expected = result(tidy, case.method, systems=systems, **keywords)
    assert_identical(result(shuffled, case.method, **keywords), expected)


@pytest.mark.parametrize("name", PAIRED)
@given(data=st.data())
def test_row_and_column_order_of_a_wide_table_do_not_matter(name, data):
    case = PAIRED[name]
    design, settings = data.draw(case.data()), data.draw(case.settings)
    wide = design.wide()
    rows = data.draw(st.permutations(range(len(wide))), label="rows")
    columns = data.draw(st.permutations(range(wide.shape[1])), label="columns")
    keywords = {**design.keywords, **settings, "systems": design.systems}
    expected = result(wide, case.method, **keywords)
    assert_identical(result(design.wide(rows, columns), case.method, **keywords), expected)


@given(sample=two_samples(), settings=RANKSUM.settings)
def test_ranksum_tidy_and_wide_tables_give_identical_numbers(sample, settings):
    tidy, tidy_warnings = call_method(
        sample.tidy(), "ranksum", **column_names(RANKSUM), **sample.keywords, **settings
    )
    wide, wide_warnings = call_method(sample.wide(), "ranksum", **sample.keywords, **settings)
    assert_identical(tidy, wide)
    # the wide table's padding is reported; everything else is the same
    padding = pairedstats.DroppedDataWarning
    assert tidy_warnings == tuple(w for w in wide_warnings if w is not padding)


@given(data=st.data(), settings=RANKSUM.settings)
def test_ranksum_row_and_column_order_do_not_matter(data, settings):
    sample = data.draw(two_samples())
    tidy = sample.tidy()
    rows = data.draw(st.permutations(range(len(tidy))), label="rows")
    keywords = {**column_names(RANKSUM), **sample.keywords, **settings}
    expected = result(tidy, "ranksum", **keywords)
    assert_identical(result(sample.tidy(rows, [1, 0]), "ranksum", **keywords), expected)


def _cell(dataset, key):
    """The rows of one sweep cell of a Dataset result, as a table: its labels and variables
    along the comparison dimension (not those of another, such as Friedman's mean rank of
    each system)."""
    cell = dataset.sel({SWEEP: key})
    rows = lambda name: cell[name].dims == ("comparison",) and name != "comparison"
    table = {name: cell[name].values.tolist() for name in cell.coords if rows(name)}
    table.update({name: cell[name].values for name in cell.data_vars if rows(name)})
    return pd.DataFrame(table)


_SWEEPS = {**PAIRED, "ranksum": RANKSUM}


@pytest.mark.parametrize("name", _SWEEPS)
@given(data=st.data())
def test_a_dataset_gives_the_numbers_of_its_pandas_slices(name, data):
    case = _SWEEPS[name]
    sweep, settings = data.draw(sweeps(case)), data.draw(case.settings)
    keywords = {**sweep.parts[0].keywords, **settings}
    cells = result(sweep.dataset(), case.method, **keywords)
    by = result(sweep.tidy(), case.method, by="by", **column_names(case), **keywords)
    for (key,) in sweep.keys:
        rows = by[[k == key for k in by["by"].tolist()]].drop(columns="by")
        assert_identical(_cell(cells, key), rows.reset_index(drop=True))
