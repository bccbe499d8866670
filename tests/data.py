"""Data shared by the tests, with the systems never in sorted order.

A table whose systems appear in sorted order hides every defect that sorts labels where it
should keep them (a frame indexed by sorted levels, a dictionary rebuilt in sorted order):
the sorted and the given order agree. The bundled runs name their systems in sorted order,
so the tests read them through :data:`RUNS`, whose rows put the systems in another order.
"""

import pairedstats

#: The order in which the systems of :data:`RUNS` first appear: not sorted.
SYSTEM_ORDER = ("hybrid", "bm25", "dense", "bm25+rm3")


def unsorted_runs():
    """The bundled runs (:func:`pairedstats.datasets.load_runs`), each query's rows in the
    order of :data:`SYSTEM_ORDER`."""
    runs = pairedstats.datasets.load_runs()
    position = runs["run"].map({s: i for i, s in enumerate(SYSTEM_ORDER)})
    item = runs.groupby(["collection", "query"], sort=False).ngroup()  # in the given order
    order = runs.assign(_item=item, _at=position).sort_values(["_item", "_at"], kind="stable")
    return order.drop(columns=["_item", "_at"]).reset_index(drop=True)


RUNS = unsorted_runs()
assert tuple(RUNS["run"].unique()) == SYSTEM_ORDER != tuple(sorted(SYSTEM_ORDER))
