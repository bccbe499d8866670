"""Build the documentation site with warnings as errors, as CI's check of the docs.

The sources (``docs/`` and ``notebooks/``) are copied to a temporary directory first, so
the build's generated API stubs (``docs/generated/``) never land in the checkout. The
notebooks are not executed by the build (``nb_execution_mode = "off"``): their committed
outputs are shown, and ``tests/test_notebooks.py`` executes them.
"""

import shutil
import warnings
from pathlib import Path

import pytest

pytest.importorskip("sphinx")
pytest.importorskip("myst_nb")
pytest.importorskip("numpydoc")
pytest.importorskip("sphinx_autosummary_accessors")
pytest.importorskip("pydata_sphinx_theme")

from sphinx.cmd.build import build_main

pytestmark = pytest.mark.slow  # the docs build: `pytest -m "not slow"` leaves it out

ROOT = Path(__file__).resolve().parents[1]
PAGES = [
    "index", "getting_started", "inputs", "reproducibility", "bootstrap", "tukey_hsd",
    "ranksum", "signrank", "cli", "plotting", "report", "api", "changelog", "architecture",
    "notebooks/01_quickstart", "notebooks/02_ir_evaluation",
    "notebooks/03_ml_model_comparison", "notebooks/04_social_influence",
    "generated/pandas.DataFrame.paired.bootstrap", "generated/pandas.DataFrame.paired.tukey_hsd",
    "generated/pandas.DataFrame.paired.ranksum", "generated/pandas.DataFrame.paired.signrank",
    "generated/xarray.Dataset.paired.bootstrap",
    "generated/xarray.Dataset.paired.tukey_hsd", "generated/xarray.Dataset.paired.ranksum",
    "generated/pairedstats.bootstrap", "generated/pairedstats.BootstrapResult",
    "generated/pairedstats.ComparisonResult", "generated/pairedstats.display.letters",
    "generated/pairedstats.plotting.forest", "generated/pairedstats.Report",
    "generated/pandas.DataFrame.paired.report", "rank", "generated/pairedstats.RankResult",
    "generated/pandas.DataFrame.paired.rank", "generated/xarray.Dataset.paired.rank",
    "mcs", "generated/pairedstats.MCSResult", "generated/pandas.DataFrame.paired.mcs",
    "generated/xarray.Dataset.paired.mcs",
    "mcnemar", "generated/pairedstats.McNemarResult", "generated/pandas.DataFrame.paired.mcnemar",
    "passfail", "gallery",
    "generated/pairedstats.core.tango.tango_interval",
    "friedman", "generated/pairedstats.FriedmanResult",
    "generated/pandas.DataFrame.paired.friedman",
    "generated/pairedstats.plotting.critical_difference",
]  # fmt: skip


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    src = tmp_path_factory.mktemp("docs-src")
    shutil.copytree(ROOT / "docs", src / "docs", ignore=shutil.ignore_patterns(
        "_build", "generated", "notebooks"))  # fmt: skip
    shutil.copytree(ROOT / "notebooks", src / "docs" / "notebooks")
    out = src / "html"
    with warnings.catch_warnings():
        # Python warnings of the doc tool chain are not the docs' warnings (Sphinx's own
        # warnings are errors through -W)
        warnings.simplefilter("ignore")
        status = build_main(["-W", "--keep-going", "-q", "-b", "html", str(src / "docs"),
                             str(out)])  # fmt: skip
    return status, out, src / "docs"


def test_build_has_no_warnings(site):
    status, _, _ = site
    assert status == 0


@pytest.mark.parametrize("page", PAGES)
def test_page_is_built(site, page):
    _, out, _ = site
    path = out / f"{page}.html"
    assert path.is_file(), page
    assert path.stat().st_size > 2_000


def test_every_page_of_docs_is_built_and_linked(site):
    _, out, docs = site
    index = (out / "index.html").read_text()
    sources = [p for p in docs.rglob("*") if p.suffix in (".md", ".rst", ".ipynb")]
    assert len(sources) >= 15
    for source in sources:
        name = source.relative_to(docs).with_suffix("").as_posix()
        if name.startswith(("generated/", "_")) or name == "index":
            continue
        assert (out / f"{name}.html").is_file(), name
        assert f'href="{name}.html"' in index, f"{name} is not in the index's toctree"
    for optional in ("calibration", "benchmarks"):  # written by other helpers
        if (docs / f"{optional}.md").exists():
            assert (out / f"{optional}.html").is_file()


def test_accessor_and_notebook_pages_have_content(site):
    _, out, _ = site
    accessor = (out / "generated/pandas.DataFrame.paired.bootstrap.html").read_text()
    assert "DataFrame.paired.bootstrap" in accessor
    assert "confidence intervals of the differences b minus a" in accessor
    assert all(f"<strong>{k}</strong>" in accessor for k in ("item", "resampling", "as_result"))
    notebook = (out / "notebooks/02_ir_evaluation.html").read_text()
    assert "letters agree with the 12 p-values" in notebook  # a committed output is shown
    assert "<img" in notebook
