"""Lazy sweeps: a dask-backed Dataset stays lazy and is computed chunk by chunk.

The eager path (:mod:`pairedstats.accessors`) flattens every sweep slice into a group of one
design. For a dask-backed dataset the same eager function is mapped over the chunks of the
sweep dimensions with :func:`xarray.map_blocks`; the item and system dimensions (the core of
every method) are first gathered into one chunk. The numbers are the same as in memory
because

* ``rng`` is turned into its root entropy once, before any block runs, and every block gets
  that integer (so no block draws its own seed);
* each slice's streams are keyed by its sweep coordinates, which blocks carry globally (a
  sweep dimension without a coordinate is given its positions first).

The output structure (variables, comparisons, dtypes) is taken from the first sweep slice,
computed eagerly when the graph is built; everything else stays lazy.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


def is_lazy(ds, names) -> bool:
    """Whether any of the variables ``names`` of ``ds`` is a dask array."""
    return any(ds[name].chunks is not None for name in names)


def map_sweep(ds, eager: Callable, core_dims: tuple[str, ...]):
    """Apply ``eager`` (Dataset -> result Dataset) to each chunk of the sweep dimensions.

    Parameters
    ----------
    ds : xarray.Dataset
        The variables the method reads (dask-backed), with their coordinates.
    eager : callable
        The in-memory method on a Dataset; must be picklable for distributed schedulers
        (a :func:`functools.partial` of a module-level function).
    core_dims : tuple of str
        The dimensions the method reduces (e.g. ``("item", "system")``).
    """
    import xarray as xr

    sweep = [d for d in ds.dims if d not in core_dims]
    ds = ds.assign_coords({d: np.arange(ds.sizes[d]) for d in sweep if d not in ds.coords})
    ds = ds.chunk({d: -1 for d in core_dims if d in ds.dims})
    if not sweep:
        return eager(ds.compute())
    first = eager(ds.isel({d: slice(0, 1) for d in sweep}).compute())
    template = first.isel({d: 0 for d in sweep}, drop=True)
    template = template.expand_dims({d: ds[d].values for d in sweep})
    template = template.transpose(*first.dims)
    for name in template.data_vars:
        template[name] = template[name].variable.transpose(*first[name].dims)
    template = template.chunk({d: ds.chunks[d] for d in sweep})
    return xr.map_blocks(eager, ds, template=template)
