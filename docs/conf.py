"""Sphinx configuration of the pairedstats documentation.

Build: ``python -m sphinx -W --keep-going -b html docs docs/_build/html`` (CI builds it in
``tests/test_docs.py``). Notebooks are not executed here (``nb_execution_mode = "off"``):
their committed outputs are shown; ``tests/test_notebooks.py`` executes them. The notebooks
live in the repository's top-level ``notebooks/``; the build copies them into
``docs/notebooks/`` (ignored by git) before it reads the sources, since Sphinx reads no
document outside its source folder (a link out of it is refused as an unknown document).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import sphinx_autosummary_accessors

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))  # the checkout's package, installed or not

import pairedstats  # noqa: E402


def _copy_notebooks(source: Path, target: Path) -> None:
    """The notebooks of ``source`` into ``target``, each copied when it differs, and no
    other notebook left there."""
    target.mkdir(exist_ok=True)
    wanted = {p.name: p for p in source.glob("*.ipynb")}
    for stale in target.glob("*.ipynb"):
        if stale.name not in wanted:
            stale.unlink()
    for name, path in wanted.items():
        copy = target / name
        if not copy.exists() or copy.read_bytes() != path.read_bytes():
            shutil.copyfile(path, copy)


_copy_notebooks(HERE.parent / "notebooks", HERE / "notebooks")

project = "pairedstats"
author = "The pairedstats developers"
copyright = "the pairedstats developers"
release = pairedstats.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "numpydoc",
    "myst_nb",
    "sphinx_autosummary_accessors",
]

templates_path = ["_templates", sphinx_autosummary_accessors.templates_path]
exclude_patterns = ["_build", "generated/.*", "**.ipynb_checkpoints", "Thumbs.db", ".DS_Store"]
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
root_doc = "index"

# autodoc / autosummary / numpydoc
autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {"members": False}
autodoc_typehints = "none"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

# MyST and notebooks: show the committed outputs, never execute during the build
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
nb_execution_mode = "off"
nb_merge_streams = True
# "myst.header": the guides are Markdown files that also read well on GitHub.
suppress_warnings = ["myst.header"]

html_theme = "pydata_sphinx_theme"
html_title = f"pairedstats {release}"
html_static_path = ["_static"] if (HERE / "_static").is_dir() else []
html_css_files = ["pairedstats.css"]  # code blocks scroll or wrap, never clipped
html_theme_options = {
    # the navbar: the guides, the API, the changelog (_templates/navbar-pairedstats.html)
    "navbar_center": ["navbar-pairedstats"],
    "navbar_end": ["theme-switcher", "navbar-icon-links"],  # light, dark, or the system's
    "secondary_sidebar_items": ["page-toc"],  # the right-hand table of contents
    "show_toc_level": 2,
    "navigation_with_keys": False,
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
# the left sidebar holds the whole toctree, its captions in the index's order
# (_templates/sidebar-pairedstats.html); the pydata default would show only the
# current top-level page's children, which is nothing for a flat site like this one
html_sidebars = {"**": ["sidebar-pairedstats"]}
html_context = {"default_mode": "auto"}


def _drop_empty_globs(app, docname, source):
    """Drop the index's toctree glob lines that match no page (e.g. a calibration page not
    yet written), which Sphinx would warn about; tests/test_docs.py checks that every page
    that exists is built and linked."""
    if docname != "index":
        return
    kept = []
    for line in source[0].splitlines():
        entry = line.strip()
        pattern = "*" in entry and not entry.startswith((":", "-", "`", "["))
        if pattern and not any(p.suffix in (".md", ".rst", ".ipynb") for p in HERE.glob(entry)):
            continue
        kept.append(line)
    source[0] = "\n".join(kept) + "\n"


def setup(app):
    app.connect("source-read", _drop_empty_globs)
