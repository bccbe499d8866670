"""Execute every notebook in notebooks/ (nbclient, kernel python3); any error fails.

Run as a script with ``--write`` to refresh the outputs committed with the notebooks (the
docs show those outputs; they are never executed by the docs build)::

    python tests/test_notebooks.py --write
"""

import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # the notebooks: `pytest -m "not slow"` leaves them out

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
PATHS = sorted(NOTEBOOKS.glob("*.ipynb"))
TIMEOUT = 120  # per cell, seconds; each notebook runs in well under 30 s


def execute(path: Path):
    book = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        book, timeout=TIMEOUT, kernel_name="python3", allow_errors=False, record_timing=False,
        resources={"metadata": {"path": str(path.parent)}},
    )  # fmt: skip
    client.execute()
    return book


def test_there_are_notebooks():
    assert [p.name for p in PATHS][:4] == [
        "01_quickstart.ipynb",
        "02_ir_evaluation.ipynb",
        "03_ml_model_comparison.ipynb",
        "04_social_influence.ipynb",
    ]


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # jupyter_client's own
@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_notebook_runs(path, monkeypatch):
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.setenv("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    book = execute(path)
    errors = [o for c in book.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]  # fmt: skip
    assert not errors
    assert all(c.get("execution_count") for c in book.cells if c.cell_type == "code")


if __name__ == "__main__":  # python tests/test_notebooks.py --write
    for path in PATHS:
        start = time.perf_counter()
        book = execute(path)
        print(f"{path.name}: {time.perf_counter() - start:.1f} s")
        if "--write" in sys.argv:
            for cell in book.cells:
                cell.metadata.pop("execution", None)
            nbformat.write(book, path)
