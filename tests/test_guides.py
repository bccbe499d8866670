"""Every guide's code runs after install, as a reader runs it: the ``>>>`` and ```python blocks
of each page of ``docs/`` in the page's order, from a temporary working directory outside the
repository (:func:`tests.data.run_page`), so that a path into the repository fails. The
getting-started, pass/fail and leaderboard pages run in their own tests. Every extra a page's
code needs is named on the page's install line. Marked slow: the pages draw bootstrap
resamples and start a local dask cluster (about a minute in all).
"""

import importlib.util
import re
from pathlib import Path

import pytest
from tests.data import page_blocks, run_page

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
OWN_TESTS = {"getting_started", "passfail", "leaderboard"}  # test_<page>.py runs them
PAGES = sorted(p.stem for p in DOCS.glob("*.md") if page_blocks(p))
#: The modules of each optional extra (pyproject.toml), and the code that needs the extra.
EXTRAS = {
    "plot": (("matplotlib",), r"plotting\.|\.plot\(|matplotlib"),
    "report": (("jinja2",), r"\.to_latex\("),
    "progress": (("tqdm",), r"progress=True"),
    "dask": (("dask", "distributed"), r"\bdask\b|\.chunk\(|distributed"),
    "parquet": (("pyarrow",), r"\.parquet\b|\.pq\b"),
    "ir": (("ir_measures",), r"--qrels|ir_measures|read_trec_eval"),
}
#: Blocks marked ``<!-- not run: reason -->``: illustrative, kept rare.
MOST_NOT_RUN = 4


def install_extras(page: str) -> set[str]:
    """The extras a page's install lines name (``pip install "pairedstats[plot,dask]"``)."""
    text = (DOCS / f"{page}.md").read_text(encoding="utf-8")
    named = re.findall(r"pip install\s+[\"']?(?:pairedstats|\.)\[([a-z,]+)\]", text)
    return {extra for group in named for extra in group.split(",")}


def test_the_extras_are_pyprojects():
    text = (ROOT / "pyproject.toml").read_text()
    section = text.split("[project.optional-dependencies]\n", 1)[1].split("\n[", 1)[0]
    assert set(EXTRAS) == set(re.findall(r"^([a-z]+) = ", section, re.M))


@pytest.mark.slow
@pytest.mark.parametrize("page", [p for p in PAGES if p not in OWN_TESTS])
def test_guide_runs_after_install_outside_the_repository(page):
    for extra in sorted(install_extras(page)):
        for module in EXTRAS[extra][0]:
            if importlib.util.find_spec(module) is None:
                pytest.skip(f"{page}.md needs the {extra} extra ({module})")
    run_page(DOCS / f"{page}.md")


@pytest.mark.parametrize("page", PAGES)
def test_install_line_names_every_extra_the_code_needs(page):
    code = "\n".join(c for kind, c, _ in page_blocks(DOCS / f"{page}.md") if kind != "not run")
    needed = {extra for extra, (_, pattern) in EXTRAS.items() if re.search(pattern, code)}
    missing = needed - install_extras(page)
    assert not missing, f'{page}.md: say `pip install "pairedstats[{",".join(sorted(missing))}]"`'


def test_getting_started_install_block_names_every_extra():
    text = (DOCS / "getting_started.md").read_text(encoding="utf-8")
    install = text[text.index("## Install") : text.index("\n## ", text.index("## Install") + 1)]
    named = {e for g in re.findall(r"pairedstats\[([a-z,]+)\]", install) for e in g.split(",")}
    assert named == set(EXTRAS)


def test_few_blocks_are_marked_not_run_and_each_says_why():
    blocks = [(page, block) for page in PAGES for block in page_blocks(DOCS / f"{page}.md")]
    marked = [(page, line, reason) for page, (kind, reason, line) in blocks if kind == "not run"]
    assert len(marked) <= MOST_NOT_RUN, marked
    assert all(len(reason.split()) >= 3 for _, _, reason in marked), marked


def test_a_block_marked_not_run_is_left_out(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("Text.\n\n<!-- not run: needs a dask cluster -->\n```python\n1 / 0\n```\n\n"
                    "```python\nx = 1\n```\n\n```pycon\n>>> x + 1\n2\n```\n")  # fmt: skip
    kinds = [(kind, line) for kind, _, line in page_blocks(page)]
    assert kinds == [("not run", 4), ("python", 8), ("doctest", 12)]
    run_page(page, min_examples=1)
    page.write_text("```python\nopen('README.md')\n```\n")  # a repository path fails
    with pytest.raises(AssertionError, match="FileNotFoundError"):
        run_page(page)


def test_index_lists_every_method_and_links_every_notebook():
    from pairedstats.methods import FOLDERS

    text = (DOCS / "index.md").read_text(encoding="utf-8")
    listed = text[text.index("The methods:") :].split("\n\n", 1)[0]
    assert sorted(re.findall(r"\[`(\w+)`\]\(\w+\.md\)", listed)) == sorted(FOLDERS)
    assert "three methods" not in text
    for notebook in sorted((DOCS.parent / "notebooks").glob("*.ipynb")):
        assert f"](notebooks/{notebook.name})" in text, notebook.name
