"""The ranking's result: each system's rank with its rank set, one row per system."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ... import display
from .._shared.results import _coordinate_values, _group_grid, _label_array, _with_missing

__all__ = ["RankResult"]

_COLUMNS = ("mean", "rank", "rank_low", "rank_high", "may_be_best")


@dataclass(frozen=True, kw_only=True)
class RankResult:
    """The systems' ranks with their rank sets: one row per system (per group). Made by
    ``df.paired.rank(..., as_result=True)``.

    Attributes
    ----------
    group_names, group_keys : tuple
        The groups, as in :class:`~pairedstats.ComparisonResult`.
    systems : tuple
        The system labels, in system order (the arrays' last axis).
    mean : ndarray, shape (n_groups, n_systems)
        Each system's mean score.
    rank : ndarray of int, shape (n_groups, n_systems)
        ``1 +`` the number of systems with a better mean (ties share the smaller rank).
    rank_low, rank_high : ndarray of int, shape (n_groups, n_systems)
        The rank set ``[rank_low, rank_high]``: the ranks the system may hold at
        ``confidence_level`` (simultaneous unless ``metadata["simultaneous"]`` is False).
    may_be_best : ndarray of bool, shape (n_groups, n_systems)
        ``rank_low == 1``: no system is surely better.
    comparisons : tuple of BootstrapResult
        The bootstrap(s) the sets come from: all pairs (simultaneous), or one per system as
        baseline, in system order (marginal).
    metadata : dict
        The settings that re-run the call (``rng=metadata["seed_entropy"]``).
    """

    group_names: tuple = ()
    group_keys: tuple = ((),)
    systems: tuple
    mean: np.ndarray
    rank: np.ndarray
    rank_low: np.ndarray
    rank_high: np.ndarray
    may_be_best: np.ndarray
    comparisons: tuple = field(default=(), repr=False)
    metadata: dict = field(default_factory=dict)

    def __post_init__(self):
        for name in _COLUMNS:
            getattr(self, name).flags.writeable = False

    @property
    def columns(self) -> dict:
        """The quantity columns: name -> 1-D array, one value per row of :meth:`to_dataframe`
        (group-major, systems in order)."""
        return {name: np.asarray(getattr(self, name)).reshape(-1) for name in _COLUMNS}

    def to_dataframe(self):
        """The ranking as a table.

        Returns
        -------
        pandas.DataFrame
            One row per group and system: the group keys, then ``system, mean, rank,
            rank_low, rank_high, may_be_best``. ``attrs`` holds the metadata.
        """
        import pandas as pd

        n_groups, p = len(self.group_keys), len(self.systems)
        data = {}
        for j, name in enumerate(self.group_names):
            data[name] = np.repeat(_label_array([key[j] for key in self.group_keys]), p)
        data["system"] = np.tile(_label_array(self.systems), n_groups)
        data.update({k: v.copy() for k, v in self.columns.items()})
        frame = pd.DataFrame(data)
        for name in (*self.group_names, "system"):
            frame[name] = frame[name].infer_objects()
        frame.attrs.update(self.metadata)
        return frame

    def to_dataset(self):
        """The ranking as an :class:`xarray.Dataset`.

        Returns
        -------
        xarray.Dataset
            The variables of :attr:`columns` over the group dimensions (sweep dimensions or
            ``by=`` keys) and ``system``. ``by=`` keys that do not form a full grid leave
            NaN in the missing cells.
        """
        import xarray as xr

        names = list(self.group_names)
        levels, positions = _group_grid(self.group_keys, len(names))
        shape = tuple(len(v) for v in levels)
        full = int(np.prod(shape, dtype=np.int64)) == len(self.group_keys)
        data = {}
        for name in _COLUMNS:
            values = np.asarray(getattr(self, name))
            if not full:
                values = values.astype(_with_missing(values.dtype))
            out = np.empty((*shape, len(self.systems)), dtype=values.dtype)
            if not full:
                out[...] = np.nan
            out[(*positions, slice(None))] = values
            data[name] = ((*names, "system"), out)
        coords = {n: (n, _coordinate_values(v)) for n, v in zip(names, levels)}
        coords["system"] = ("system", _coordinate_values(self.systems))
        ds = xr.Dataset(data, coords=coords)
        ds.attrs.update({k: v for k, v in self.metadata.items() if v is not None})
        return ds

    def __str__(self) -> str:
        m = self.metadata
        kind = "simultaneous" if m.get("simultaneous", True) else "marginal"
        order = "lowest" if m.get("lower_is_better") else "highest"
        head = (
            f"Ranks of {len(self.systems)} systems by mean ({order} first), with "
            f"{m.get('confidence_level', 0.95):g} {kind} rank sets [rank_low, rank_high]"
        )
        settings = (f"max-t bootstrap intervals of the pairwise differences, n_resamples="
                    f"{m.get('n_resamples')}, seed_entropy={m.get('seed_entropy')}")  # fmt: skip
        # the rows as the head says: by rank within each group (ties in system order)
        frame = self.to_dataframe()
        group = np.repeat(np.arange(len(self.group_keys)), len(self.systems))
        frame = frame.iloc[np.lexsort((self.columns["rank"], group))]
        table = display.text_cells(frame, _COLUMNS).to_string(index=False)
        return f"{head}\n{settings}\n\n{table}"

    def __repr__(self) -> str:
        shape = f"{len(self.group_keys)} group(s) x {len(self.systems)} systems"
        return f"<RankResult: {shape}>\n{self}"
