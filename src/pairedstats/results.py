"""The shared shape of all result objects.

Each method has one frozen, keyword-only dataclass that subclasses :class:`ComparisonResult`.
Its per-comparison quantities are arrays of shape ``(n_groups, n_comparisons)`` named in the
class variable ``_columns``; the base class turns them into a tidy table (one row per group
and comparison, label columns first), an :class:`xarray.Dataset` and a printed table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

__all__ = ["ComparisonResult"]


@dataclass(frozen=True, kw_only=True)
class ComparisonResult:
    """Base class of the results: labels, metadata and the conversions.

    Attributes
    ----------
    group_names : tuple of str
        Names of the grouping keys (``by=`` columns or sweep dimensions).
    group_keys : tuple of tuple
        One key per group, in the order of the arrays' first axis.
    label_a, label_b : tuple
        For each comparison, the labels of its two sides (b minus a).
    metadata : dict
        What is needed to re-run the call: method, n_resamples, confidence level, seed
        entropy, package version, and method-specific settings. Copied to
        ``DataFrame.attrs`` and ``Dataset.attrs``.
    """

    group_names: tuple = ()
    group_keys: tuple = ((),)
    label_a: tuple
    label_b: tuple
    metadata: dict = field(default_factory=dict)
    group_coords: dict | None = None

    _columns: ClassVar[tuple[str, ...]] = ()
    _label_columns: ClassVar[tuple[str, str]] = ("system_a", "system_b")
    _title: ClassVar[str] = ""

    # ------------------------------------------------------------------ tables
    def _column_arrays(self) -> dict[str, np.ndarray]:
        return {name: np.asarray(getattr(self, name)) for name in self._columns}

    def to_dataframe(self):
        """The result as a tidy table: one row per group and comparison.

        Returns
        -------
        pandas.DataFrame
            Group key columns first, then the two label columns, then the quantities in
            the order of the class's documentation. ``attrs`` holds the metadata.
        """
        import pandas as pd

        n_groups = len(self.group_keys)
        n_comp = len(self.label_a)
        data: dict[str, Any] = {}
        for j, name in enumerate(self.group_names):
            keys = [key[j] for key in self.group_keys]
            data[name] = np.repeat(np.asarray(keys, dtype=object), n_comp)
        data[self._label_columns[0]] = np.tile(np.asarray(self.label_a, dtype=object), n_groups)
        data[self._label_columns[1]] = np.tile(np.asarray(self.label_b, dtype=object), n_groups)
        for name, values in self._column_arrays().items():
            data[name] = values.reshape(n_groups * n_comp)
        frame = pd.DataFrame(data)
        for name in (*self.group_names, *self._label_columns):
            frame[name] = frame[name].infer_objects()
        frame.attrs.update(self.metadata)
        return frame

    def to_dataset(self):
        """The result as an :class:`xarray.Dataset`.

        Returns
        -------
        xarray.Dataset
            Dimensions: the group names (sweep dimensions or ``by=`` keys) and
            ``comparison``, with the two label coordinates along ``comparison``.
        """
        import pandas as pd
        import xarray as xr

        n_comp = len(self.label_a)
        coords = {
            self._label_columns[0]: ("comparison", list(self.label_a)),
            self._label_columns[1]: ("comparison", list(self.label_b)),
        }
        arrays = self._column_arrays()
        if not self.group_names:
            data = {name: ("comparison", values[0]) for name, values in arrays.items()}
            ds = xr.Dataset(data, coords=coords)
        else:
            index = pd.MultiIndex.from_tuples(self.group_keys, names=list(self.group_names))
            data = {name: (("group", "comparison"), values) for name, values in arrays.items()}
            ds = xr.Dataset(data, coords=coords)
            ds = ds.assign_coords(xr.Coordinates.from_pandas_multiindex(index, "group"))
            ds = ds.unstack("group")
            order = self.group_coords or {
                name: list(dict.fromkeys(key[j] for key in self.group_keys))
                for j, name in enumerate(self.group_names)
            }
            ds = ds.reindex({name: list(values) for name, values in order.items()})
            ds = ds.transpose(*self.group_names, "comparison")
        ds = ds.assign_coords(comparison=np.arange(n_comp))
        ds.attrs.update({k: v for k, v in self.metadata.items() if v is not None})
        return ds

    # ----------------------------------------------------------------- display
    def __str__(self) -> str:
        import pandas as pd

        frame = self.to_dataframe()
        with pd.option_context("display.max_columns", None, "display.width", 120):
            body = frame.to_string(index=False)
        meta = ", ".join(
            f"{k}={v}" for k, v in self.metadata.items() if k in self._printed_metadata
        )
        lines = [self._title] if self._title else []
        if meta:
            lines.append(meta)
        lines.append(body)
        return "\n".join(lines)

    _printed_metadata: ClassVar[tuple[str, ...]] = (
        "method",
        "interval",
        "n_resamples",
        "confidence_level",
        "alternative",
        "seed_entropy",
    )

    def _repr_html_(self) -> str:
        frame = self.to_dataframe()
        title = f"<p><b>{self._title}</b></p>" if self._title else ""
        return title + frame.to_html(index=False)
