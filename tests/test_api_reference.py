"""docs/api.rst lists the whole interface, found rather than listed here: every public method
of the ``.paired`` accessors (one per registered method, and any other), every class and
function of ``pairedstats.__all__`` (every registered method's functions among them), and
nothing that does not exist. What the registry gives (the accessor methods, the method
folders' functions and classes) is in generated blocks (``tests/generated.py``, checked by
``tests/test_generated.py``); the rest is written by hand, and checked here too. The docs
build (``tests/test_docs.py``, slow) renders it; this reads the file."""

import importlib
import inspect
from pathlib import Path

from tests import generated

import pairedstats
from pairedstats import accessors
from pairedstats.methods._shared.registry import SPECS

API = Path(__file__).resolve().parents[1] / "docs" / "api.rst"
#: How api.rst spells each accessor class (``.. currentmodule::`` and the class).
ACCESSORS = {
    "pandas.DataFrame.paired": accessors.PairedDataFrameAccessor,
    "xarray.Dataset.paired": accessors.PairedDatasetAccessor,
    "xarray.DataArray.paired": accessors.PairedDataArrayAccessor,
}


def listed() -> list[str]:
    """The entries of api.rst's autosummary lists (generated or not), qualified by their
    ``currentmodule``."""
    return generated.listed(API.read_text())


def wanted() -> list[str]:
    """What api.rst must list: the accessors' public methods, ``__all__``'s classes and
    functions, and every registered method's accessor methods and functions."""
    out = [
        f"{prefix}.{name}"
        for prefix, cls in ACCESSORS.items()
        for name in sorted(dir(cls))
        if not name.startswith("_")
    ]
    public = [n for n in pairedstats.__all__ if not inspect.ismodule(getattr(pairedstats, n))]
    out += [f"pairedstats.{n}" for n in public if not n.startswith("__")]
    for spec in SPECS.values():
        out += [f"{prefix}.{spec.name}" for prefix in ACCESSORS]
        if "array" in spec.inputs:
            out += [f"pairedstats.{spec.name}", f"pairedstats.{spec.name}_design"]
    return list(dict.fromkeys(out))


def _exists(name: str) -> bool:
    for prefix, cls in ACCESSORS.items():
        if name.startswith(prefix + "."):
            return hasattr(cls, name[len(prefix) + 1 :])
    if not name.startswith("pairedstats."):
        return False
    parts = name.split(".")
    for end in range(len(parts), 0, -1):  # the longest module, then its attributes
        try:
            obj = importlib.import_module(".".join(parts[:end]))
        except ImportError:
            continue
        for part in parts[end:]:
            if not hasattr(obj, part):
                return False
            obj = getattr(obj, part)
        return True
    return False


def test_api_reference_lists_every_accessor_method_class_and_function():
    names = listed()
    missing = [n for n in wanted() if n not in names]
    made = {f"{module}.{n}" for module, found, _ in generated.api_lists().values() for n in found}
    assert not [n for n in missing if n in made], (
        "docs/api.rst does not list " + ", ".join(n for n in missing if n in made) + ", "
        f"which the registry gives: run `{generated.COMMAND}`"
    )
    assert not missing, (
        "docs/api.rst does not list " + ", ".join(missing) + ": add each to an autosummary "
        "list of its section, outside the generated blocks (functions and classes under "
        "`.. currentmodule:: pairedstats`)"
    )


def test_api_reference_lists_nothing_that_does_not_exist():
    names = listed()
    assert len(names) > 50
    assert len(set(names)) == len(names), "docs/api.rst lists an entry twice"
    gone = [n for n in names if not _exists(n)]
    assert not gone, f"docs/api.rst lists what does not exist: {gone}; remove them"
