"""The worked example of ``docs/lm_evals.md`` runs as shown: its ``>>>`` lines are executed
as one doctest (a fresh namespace, the page's order) and every printed output is compared
with the page. It reads the example logs bundled with the package."""

from pathlib import Path

from tests.data import run_page

PAGE = Path(__file__).resolve().parents[1] / "docs" / "lm_evals.md"


def test_lm_evals_page_runs_as_shown():
    run_page(PAGE, min_examples=15)


def test_lm_evals_page_is_in_the_user_guide():
    assert "\nlm_evals\n" in (PAGE.parent / "index.md").read_text()
    assert "arXiv:2411.00640" in PAGE.read_text()
