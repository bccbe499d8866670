"""The worked example of ``docs/passfail.md`` runs as shown: its ``>>>`` lines and ```python
blocks are run in one fresh namespace, in the page's order, from a temporary folder outside the
repository (:func:`tests.data.run_page`), and every printed output is compared with the page
(``NORMALIZE_WHITESPACE``, ``ELLIPSIS``). It trains scikit-learn classifiers (a few seconds):
marked slow.
"""

from pathlib import Path

import pytest
from tests.data import run_page

pytest.importorskip("sklearn")

pytestmark = pytest.mark.slow  # trains 20 classifiers: `pytest -m "not slow"` leaves it out

PAGE = Path(__file__).resolve().parents[1] / "docs" / "passfail.md"


def test_passfail_page_runs_as_shown():
    run_page(PAGE, min_examples=20)


def test_passfail_page_is_in_the_index():
    index = (PAGE.parent / "index.md").read_text()
    assert "\npassfail\n" in index
    assert "(passfail.md)" in index
