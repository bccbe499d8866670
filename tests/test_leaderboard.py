"""The worked example of ``docs/leaderboard.md`` runs as shown: its ``>>>`` lines and
```python blocks are run in one fresh namespace, in the page's order, from a temporary folder
outside the repository (:func:`tests.data.run_page`), and every printed output is compared
with the page. It ranks 120 models three ways (about 15 s): marked slow."""

from pathlib import Path

import pytest
from tests.data import run_page

PAGE = Path(__file__).resolve().parents[1] / "docs" / "leaderboard.md"


@pytest.mark.slow
def test_leaderboard_page_runs_as_shown():
    run_page(PAGE, min_examples=8)


def test_leaderboard_page_is_in_the_index_with_its_figure():
    index = (PAGE.parent / "index.md").read_text()
    assert "\nleaderboard\n" in index
    assert "(leaderboard.md)" in index
    assert (PAGE.parent / "_static" / "gallery" / "leaderboard_ranks.png").exists()
    assert "_static/gallery/leaderboard_ranks.png" in PAGE.read_text()
