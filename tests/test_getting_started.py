"""The getting-started page runs as shown: its ``>>>`` lines and ```python blocks are run
in one fresh namespace, in the page's order, from a temporary folder outside the repository
(:func:`tests.data.run_page`), and every printed output is compared with the page
(``NORMALIZE_WHITESPACE``, ``ELLIPSIS``). Its code lines fit in 88 characters, so that the
docs theme shows them without clipping. It trains scikit-learn classifiers and draws
bootstrap resamples (a few seconds): marked slow.
"""

import re
from pathlib import Path

import pytest
from tests.data import run_page

pytest.importorskip("sklearn")

PAGE = Path(__file__).resolve().parents[1] / "docs" / "getting_started.md"


@pytest.mark.slow  # trains 3 classifiers, 4 bootstraps: `pytest -m "not slow"` leaves it out
def test_getting_started_page_runs_as_shown():
    run_page(PAGE, min_examples=30)


def test_getting_started_code_fits_88_characters():
    blocks = re.findall(r"^```[a-z]*\n(.*?)^```", PAGE.read_text(), re.M | re.S)
    assert blocks
    wide = [line for block in blocks for line in block.splitlines() if len(line) > 88]
    assert not wide, wide


def test_getting_started_says_how_to_install_from_a_checkout():
    text = PAGE.read_text()
    assert "python -m pip install pairedstats" in text
    assert "python -m pip install ." in text
    assert "python -m pip install -e ." in text
