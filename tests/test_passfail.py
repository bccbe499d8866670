"""The worked example of ``docs/passfail.md`` runs as shown: its ``>>>`` lines are executed
as one doctest (a fresh namespace, the page's order) and every printed output is compared
with the page (``NORMALIZE_WHITESPACE``, ``ELLIPSIS``). It trains scikit-learn classifiers
(a few seconds): marked slow.
"""

import doctest
from pathlib import Path

import pytest

pytest.importorskip("sklearn")

pytestmark = pytest.mark.slow  # trains 20 classifiers: `pytest -m "not slow"` leaves it out

PAGE = Path(__file__).resolve().parents[1] / "docs" / "passfail.md"
FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS


def test_passfail_page_runs_as_shown():
    text = PAGE.read_text()
    test = doctest.DocTestParser().get_doctest(text, {}, "passfail.md", str(PAGE), 0)
    assert len(test.examples) > 20
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test, clear_globs=True)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples differ"


def test_passfail_page_is_in_the_index():
    index = (PAGE.parent / "index.md").read_text()
    assert "\npassfail\n" in index
    assert "(passfail.md)" in index
