"""Golden values: the numbers of a fixed set of calls (``tests/golden/calls.py``), every bit.

These are not references (the reference tests prove the numbers right); they make any change
of the numbers a visible decision: a refactoring must leave them as they are, and a change of
the random streams or of a rule is re-recorded on purpose (``python tests/golden/calls.py
--write``, after ``python tests/golden/compare.py`` has said how far the numbers moved) and
named in the changelog.
"""

import json

import pytest

from pairedstats.methods._shared.registry import SPECS

from .calls import UNPINNED, VALUES, _jsonable, calls, covers, default_call, written_calls

GOLDEN = json.loads(VALUES.read_text())
CALLS = calls()


def test_every_call_is_pinned():
    new = sorted(set(CALLS) - set(GOLDEN))
    assert not new, (
        f"no numbers recorded for the calls {new}: record them with `python "
        "tests/golden/calls.py --write`, and check with `git diff tests/golden/values.json` "
        "that it only added these"
    )
    gone = sorted(set(GOLDEN) - set(CALLS))
    assert not gone, f"values.json holds the numbers of no call: {gone}"


def test_every_method_has_a_call_or_says_why_it_has_none():
    written = written_calls()
    for name, spec in SPECS.items():
        if any(covers(call, spec) for call in written):
            assert name not in UNPINNED, f"{name} has calls: remove it from calls.UNPINNED"
        else:  # its default call, unless UNPINNED says why not
            assert name in UNPINNED or f"{spec.command}-default" in CALLS, name
    stale = sorted(set(UNPINNED) - set(SPECS))
    assert not stale, f"calls.UNPINNED names no registered method: {stale}"


@pytest.mark.parametrize("name", ["signrank", "mcnemar", "ranksum"])
def test_a_default_call_runs_on_each_kind_of_data(name):
    # the default call of a method (of graded scores, of pass/fail ones, of two samples),
    # which a registered method without a written call gets
    table = default_call(SPECS[name])()
    assert len(table) > 0
    assert _jsonable(table)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_numbers_are_those_recorded(name):
    got, expected = _jsonable(CALLS[name]()), GOLDEN[name]
    assert list(got) == list(expected), "columns differ"
    for column, values in expected.items():
        assert got[column] == values, f"{name}: column {column!r} changed"
