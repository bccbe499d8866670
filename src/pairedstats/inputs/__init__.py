"""The input layer: every container becomes a design here, by one set of rules.

One module per container, shared by every method:

* :mod:`~pairedstats.inputs.frames`: tidy (``item``, ``system``, ``score`` columns) or wide
  (items as rows, systems as columns) pandas tables, with ``systems=``, ``by=``,
  ``cluster=``, ``strata=`` (:func:`design_from_frame`);
* :mod:`~pairedstats.inputs.datasets`: an :class:`xarray.Dataset` with ``item`` and
  ``system`` dimensions, every other dimension a sweep flattened into groups
  (:func:`design_from_dataset`); :mod:`~pairedstats.inputs.sweeps` maps a method over the
  chunks of a dask-backed one;
* :mod:`~pairedstats.inputs.arrays`: arrays of shape ``(n_items, n_systems[, n_columns])``,
  the array API of every paired method (:func:`design_from_array`);
* :mod:`~pairedstats.inputs.two_sample`: the two independent samples of the rank-sum test
  (:func:`two_sample_from_arrays`, :func:`two_sample_from_frame`,
  :func:`two_sample_from_dataset`).

The rules themselves are written once: what a label is and the canonical order of items
(:mod:`~pairedstats.inputs.labels`), what a score is (:mod:`~pairedstats.inputs.scores`), and
what a paired design must hold (:mod:`~pairedstats.inputs.paired`:
:func:`check_design`, which every paired method applies to the design it is given, so a
design built by hand meets the rules of the containers). Every check raises an error that
names the argument, the rule and what was received. Nothing is dropped silently:
``missing="complete"`` drops incomplete items, warns with the count
(:class:`DroppedDataWarning`), and the design keeps the count of each group
(``PairedDesign.dropped``).
"""

from ..core.design import PairedDesign, TwoSampleDesign
from .arrays import design_from_array
from .datasets import design_from_dataset, score_variables
from .frames import design_from_frame
from .labels import canonical_ranks
from .paired import DroppedDataWarning, check_design, check_summed, dropped_message
from .two_sample import (
    check_two_sample,
    two_sample_from_arrays,
    two_sample_from_dataset,
    two_sample_from_frame,
)

__all__ = [
    "DroppedDataWarning",
    "PairedDesign",
    "TwoSampleDesign",
    "canonical_ranks",
    "check_design",
    "check_summed",
    "check_two_sample",
    "design_from_array",
    "design_from_dataset",
    "design_from_frame",
    "dropped_message",
    "score_variables",
    "two_sample_from_arrays",
    "two_sample_from_dataset",
    "two_sample_from_frame",
]
