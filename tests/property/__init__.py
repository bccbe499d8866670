"""Property-based tests: the contract of ``/work/shared/API.md`` checked on generated data.

Each property holds for every table, array and dataset the strategies can generate (labels
of type str, int or both; from 2 items and 2 systems up), not only for the examples in the
documentation:

* ``test_shapes``: a tidy table, a wide table and either with its rows (and columns) in
  another order give identical numbers; a Dataset gives the numbers of its pandas slices.
* ``test_labels``: renaming items, systems or rank-sum groups in an order-preserving way
  changes no number (renaming systems changes only the label columns).
* ``test_mirror``: swapping a and b mirrors every number (differences and shifts negated,
  intervals reflected, standard errors and p-values kept).
* ``test_affine``: ``s * x + c`` (s from 1e-10 to 1e10, float32 too) moves locations, scales
  differences and intervals, and keeps every p-value (Tukey's exactly).
* ``test_independence``: another system, ``by=`` group or sweep cell leaves the other rows'
  numbers unchanged (streams are keyed by labels, not positions).
* ``test_parallel``: ``workers=1`` equals ``workers=2``; a dask-chunked Dataset equals the same
  Dataset in memory.
* ``test_groupby``: ``by=`` equals a ``groupby(...).apply(...)`` loop.
* ``test_malformed``: malformed input raises a ValueError or TypeError naming the argument.

``strategies`` generates the data and the settings; ``checks`` compares results, with a
declared role for every result column. Properties that the package does not satisfy yet are
marked ``xfail(strict=True)``: they flip to a failure as soon as the package is fixed, and
the mark comes off. ``PAIREDSTATS_HYPOTHESIS_PROFILE=thorough`` runs many more examples
(see ``conftest``).
"""
