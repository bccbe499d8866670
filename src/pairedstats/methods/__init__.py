"""The methods, one folder each, with the same roles in each folder.

Importing this package imports every method, which registers its spec
(:mod:`pairedstats.methods._shared.registry`): the one place where the methods are listed.
What all methods share (the registry, the keyword declarations, the run skeleton, the
result base) is in :mod:`pairedstats.methods._shared`.
"""

from . import (  # noqa: F401  (registers)
    bootstrap,
    friedman,
    items_for,
    mcnemar,
    mcs,
    rank,
    ranksum,
    signrank,
    tukey_hsd,
)

# isort: split
# the report last: its ``test`` keyword offers the methods registered before it that set
# ``MethodSpec.report_test`` (the command line's choices are made when it is declared)
from . import report  # noqa: F401  (registers)
