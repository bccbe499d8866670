"""The core's layering: it imports nothing above it, nor pandas or xarray (its size is held
with the package's in tests/test_architecture.py)."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

CORE = Path(__file__).parents[2] / "src" / "pairedstats" / "core"
MODULES = sorted(
    ".".join(p.relative_to(CORE).with_suffix("").parts).removesuffix(".__init__")
    for p in CORE.rglob("*.py")
)


def _imports(path: Path):
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            yield node.level, node.module or ""
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield 0, alias.name


def test_core_imports_nothing_above_it():
    for path in CORE.rglob("*.py"):
        depth = len(path.relative_to(CORE).parts)  # 1: core/x.py, 2: core/pkg/x.py
        for level, module in _imports(path):
            assert level <= depth, f"{path.name} imports {'.' * level}{module}"
            assert not module.startswith("pairedstats") or module.startswith("pairedstats.core"), (
                f"{path.name} imports {module}"
            )


PROBE = """
import importlib, importlib.util, sys, types
sys.modules["pandas"] = None   # any import of pandas now raises ImportError
sys.modules["xarray"] = None
spec = importlib.util.find_spec("pairedstats")
pkg = types.ModuleType("pairedstats")
pkg.__path__ = list(spec.submodule_search_locations)
sys.modules["pairedstats"] = pkg
for name in {modules!r}:
    importlib.import_module("pairedstats.core." + name if name else "pairedstats.core")
print("ok")
"""


@pytest.mark.slow  # a fresh interpreter per module
def test_every_core_module_imports_without_pandas_or_xarray():
    modules = [m if m != "__init__" else "" for m in MODULES]
    run = subprocess.run(
        [sys.executable, "-c", PROBE.format(modules=modules)], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.strip() == "ok"


def test_the_probe_detects_a_pandas_import():
    code = PROBE.format(modules=["design"]) + "import pandas\n"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 1
    assert "ImportError" in run.stderr or "ModuleNotFoundError" in run.stderr


def test_cached_kernels_read_no_constant_of_another_module():
    # numba's cache keys a kernel on its own file: a constant imported from another module
    # would be frozen into the cached machine code and go stale when that module changes
    import importlib
    import types

    from numba.core.registry import CPUDispatcher

    for name in ["draws.jit", "kernels.bootstrap", "kernels.tukey_table", "kernels.tukey_shuffle"]:
        module = importlib.import_module(f"pairedstats.core.{name}")
        tree = ast.parse(Path(module.__file__).read_text())
        imported = {
            alias.asname or alias.name
            for node in tree.body
            if isinstance(node, ast.ImportFrom | ast.Import)
            for alias in node.names
        }
        for value in vars(module).values():
            if not isinstance(value, CPUDispatcher) or value.__module__ != module.__name__:
                continue
            for used in value.py_func.__code__.co_names:
                if used not in imported:
                    continue
                target = getattr(module, used)
                assert isinstance(target, types.ModuleType | CPUDispatcher) or callable(target), (
                    f"{name}.{value.__name__} reads the imported constant {used}"
                )
