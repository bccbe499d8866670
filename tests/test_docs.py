"""Build the documentation site with warnings as errors, as CI's check of the docs.

The build is the README's own command (parsed from README.md, run as a fresh process) on a
copy of the checkout's tracked files (``git ls-files``) in a temporary directory: a fresh
clone, so that neither untracked build output nor the checkout's ``docs/generated/`` can
help, and the API stubs it writes never land in the checkout. The notebooks (``notebooks/``,
copied into ``docs/notebooks/`` by the build) are not executed by the build
(``nb_execution_mode = "off"``): their committed outputs are shown, and
``tests/test_notebooks.py`` executes them.
"""

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sphinx")
pytest.importorskip("myst_nb")
pytest.importorskip("numpydoc")
pytest.importorskip("sphinx_autosummary_accessors")
pytest.importorskip("pydata_sphinx_theme")

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


def readme_docs_command() -> str:
    """The one Sphinx command of README.md (every mention of it spelled the same)."""
    found = set(re.findall(r"`(python -m sphinx [^`]*)`", (ROOT / "README.md").read_text()))
    assert len(found) == 1, f"README.md should give one docs command, not {sorted(found)}"
    return found.pop()


def fresh_checkout(dest: Path) -> Path:
    """Copy the checkout's tracked files (``git ls-files``) to ``dest``: a fresh clone's tree."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                            check=True).stdout.decode()  # fmt: skip
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.exists() or source.is_symlink():  # a file deleted but not yet staged: skip
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name, follow_symlinks=False)
    return dest


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    checkout = fresh_checkout(tmp_path_factory.mktemp("checkout"))
    command = shlex.split(readme_docs_command())
    assert command[:3] == ["python", "-m", "sphinx"]
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}  # Python warnings are not Sphinx's
    done = subprocess.run([sys.executable, *command[1:]], cwd=checkout, env=env,
                          capture_output=True, text=True, timeout=1200)  # fmt: skip
    out = checkout / command[-1]
    return done, out, checkout / "docs"


def test_readme_gives_one_docs_command_used_everywhere():
    command = readme_docs_command()
    assert command == "python -m sphinx -W --keep-going -b html docs docs/_build/html"
    for path in ("docs/conf.py", "docs/screenshot.py"):
        assert command in (ROOT / path).read_text(), path
    assert "docs/_build`" not in (ROOT / "README.md").read_text()  # one output folder


def test_readme_docs_command_passes_on_a_fresh_checkout(site):
    done, _, _ = site
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]


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
