"""Golden values: the numbers of a fixed set of calls (``tests/golden/calls.py``), every bit.

These are not references (the reference tests prove the numbers right); they make any change
of the numbers a visible decision: a refactoring must leave them as they are, and a change of
the random streams or of a rule is re-recorded on purpose (``python tests/golden/calls.py
--write``, after ``python tests/golden/compare.py`` has said how far the numbers moved) and
named in the changelog.
"""

import json

import pytest

from .calls import VALUES, _jsonable, calls

GOLDEN = json.loads(VALUES.read_text())
CALLS = calls()


def test_every_call_is_pinned():
    assert sorted(GOLDEN) == sorted(CALLS)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_numbers_are_those_recorded(name):
    got, expected = _jsonable(CALLS[name]()), GOLDEN[name]
    assert list(got) == list(expected), "columns differ"
    for column, values in expected.items():
        assert got[column] == values, f"{name}: column {column!r} changed"
