"""The methods, one folder each, with the same roles in each folder.

Importing this package imports every method folder (every subpackage not starting with an
underscore, in name order), which registers its spec
(:mod:`pairedstats.methods._shared.registry`): a new folder is found, never listed. What
all methods share (the registry, the keyword declarations, the run skeleton, the result
base) is in :mod:`pairedstats.methods._shared`. :data:`EXPORTS` are the public names of the
folders (each folder's ``__all__``), which the package exports.
"""

import importlib
import pkgutil

__all__ = ["EXPORTS", "FOLDERS"]

#: The method folders, in name order (the order the methods register in).
FOLDERS = tuple(
    sorted(
        m.name for m in pkgutil.iter_modules(__path__) if m.ispkg and not m.name.startswith("_")
    )
)
#: Public name -> object, from every method folder's ``__all__``.
EXPORTS: dict = {}
for _folder in FOLDERS:
    _module = importlib.import_module(f"{__name__}.{_folder}")
    for _name in _module.__all__:
        if _name in EXPORTS and EXPORTS[_name] is not getattr(_module, _name):
            raise ImportError(f"methods.{_folder} exports {_name!r}, which another folder exports")
        EXPORTS[_name] = getattr(_module, _name)
