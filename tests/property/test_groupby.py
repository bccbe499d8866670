"""``by=`` is a loop over the groups.

API.md: "Inside ``df.groupby(key).apply(lambda g: g.paired.<method>(...))`` the numbers equal
``by=key``", for one key column and for several.
"""

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from .checks import assert_identical, result, run
from .strategies import PAIRED, RANKSUM, column_names, groups

CASES = {**PAIRED, "ranksum": RANKSUM}


@pytest.mark.parametrize("name", CASES)
@given(data=st.data())
def test_by_equals_a_groupby_apply_loop(name, data):
    case = CASES[name]
    grouped = data.draw(groups(case), label="groups")
    settings = data.draw(case.settings)
    keywords = {**column_names(case), **grouped.parts[0].keywords, **settings}
    table = grouped.tidy()
    by = result(table, case.method, by=grouped.by, **keywords)
    method = lambda g: getattr(g.paired, case.method)(**keywords)
    loop = run(lambda: table.groupby(grouped.by, sort=False).apply(method))[0]
    names = list(grouped.names)
    loop = loop.reset_index(level=names).reset_index(drop=True)
    assert_identical(pd.DataFrame(loop), by)
