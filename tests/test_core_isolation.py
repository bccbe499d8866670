"""The numpy core never imports pandas or xarray (checked in a fresh interpreter).

``import pairedstats`` registers the accessors and so imports both; the core is loaded here
under a bare parent package, with pandas and xarray made unimportable.
"""

import subprocess
import sys

import pytest

CORE = ["streams", "design", "bootstrap", "tukey", "ranksum", "montecarlo"]

PROBE = """
import importlib, importlib.util, sys, types
sys.modules["pandas"] = None   # any import of pandas now raises ImportError
sys.modules["xarray"] = None
spec = importlib.util.find_spec("pairedstats")
pkg = types.ModuleType("pairedstats")
pkg.__path__ = list(spec.submodule_search_locations)
sys.modules["pairedstats"] = pkg
name = "pairedstats.core.{module}"
if importlib.util.find_spec(name) is None:
    raise SystemExit(3)
importlib.import_module(name)
"""


@pytest.mark.parametrize("module", CORE)
def test_core_module_imports_neither_pandas_nor_xarray(module):
    run = subprocess.run(
        [sys.executable, "-c", PROBE.format(module=module)], capture_output=True, text=True
    )
    assert run.returncode != 3, f"pairedstats.core.{module} does not exist"
    assert run.returncode == 0, run.stdout + run.stderr


def test_probe_detects_a_pandas_import():
    code = PROBE.format(module="streams") + "import pandas\n"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 1
    assert "ImportError" in run.stderr or "ModuleNotFoundError" in run.stderr
