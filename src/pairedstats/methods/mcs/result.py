"""The model confidence set's result: one row per system, in the set or not, with its MCS
p-value and the step that eliminated it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from ... import display
from .._shared.results import SystemTable

__all__ = ["MCSResult"]

_COLUMNS = ("mean", "in_set", "mcs_pvalue", "eliminated")
_STATISTIC = {"max": "T_max", "range": "T_R"}
#: The rank sets' default level, which the printout names (the registry's tests check it
#: against ``rank``'s signature).
RANK_DEFAULT_LEVEL = 0.95


@dataclass(frozen=True, kw_only=True)
class MCSResult(SystemTable):
    """The model confidence set (Hansen, Lunde and Nason 2011): one row per system (per
    group). Made by ``df.paired.mcs(..., as_result=True)``.

    Attributes
    ----------
    group_names, group_keys : tuple
        The groups, as in :class:`~pairedstats.ComparisonResult`.
    systems : tuple
        The system labels, in system order (the arrays' last axis).
    mean : ndarray, shape (n_groups, n_systems)
        Each system's mean score.
    in_set : ndarray of bool, shape (n_groups, n_systems)
        In the model confidence set at ``confidence_level``: ``mcs_pvalue >= 1 -
        confidence_level``. The set holds the truly best system(s) with probability about
        ``confidence_level``.
    mcs_pvalue : ndarray, shape (n_groups, n_systems)
        The MCS p-value: the largest p-value of the elimination tests up to the one that
        eliminated the system (1 for a system never eliminated). The system is in the
        ``1 - alpha`` set exactly when it is at least ``alpha``. Its resolution is
        ``1 / n_resamples``; 0 means no resample reached the observed statistic.
    eliminated : ndarray, shape (n_groups, n_systems)
        The elimination test (1, 2, ...) that removed the system from the set, NaN for a
        system in the set (``<NA>`` in :meth:`to_dataframe`).
    comparisons : tuple of BootstrapResult
        The bootstrap the tests read (every system against one, which holds every pair:
        ``d*_ij = d*_ir - d*_jr``), with its ``bootstrap_distribution``.
    metadata : dict
        The settings that re-run the call (``rng=metadata["seed_entropy"]``).
    """

    mean: np.ndarray
    in_set: np.ndarray
    mcs_pvalue: np.ndarray
    eliminated: np.ndarray
    comparisons: tuple = field(default=(), repr=False)

    #: Floats that count (the command line's CSV and JSON show them as integers).
    count_columns: ClassVar[tuple] = ("eliminated",)

    _system_columns: ClassVar[tuple] = _COLUMNS

    def to_dataframe(self):
        """The set as a table.

        Returns
        -------
        pandas.DataFrame
            One row per group and system: the group keys, then ``system, mean, in_set,
            mcs_pvalue, eliminated`` (``Int64``, ``<NA>`` for a system in the set).
            ``attrs`` holds the metadata.
        """
        frame = self._system_frame()
        frame["eliminated"] = frame["eliminated"].astype("Int64")
        return frame

    def __str__(self) -> str:
        m = self.metadata
        level = m.get("confidence_level", 0.9)
        head = (
            f"Model confidence set of {len(self.systems)} systems at {level:g} "
            f"({_STATISTIC.get(m.get('statistic'), m.get('statistic'))}; "
            f"{'lowest' if m.get('lower_is_better') else 'highest'} mean best): it holds the "
            f"best system(s) with probability about {level:g}"
        )
        settings = (f"bootstrap of all pairs, n_resamples={m.get('n_resamples')}, "
                    f"seed_entropy={m.get('seed_entropy')}")  # fmt: skip
        # the rows by elimination within each group: the set first, then the last eliminated
        frame = self.to_dataframe()
        group = np.repeat(np.arange(len(self.group_keys)), len(self.systems))
        order = np.nan_to_num(self.columns["eliminated"], nan=np.inf)
        frame = frame.iloc[np.lexsort((-self.columns["mcs_pvalue"], -order, group))]
        frame["eliminated"] = frame["eliminated"].astype(float)
        n = m.get("n_resamples") or 0
        bound = np.full(len(frame), 1.0 / n if n else 0.0)
        shown = display.text_cells(frame, ["mean", "mcs_pvalue", "eliminated"],
                                   count=("eliminated",), pvalue=("mcs_pvalue",),
                                   bounds={"mcs_pvalue": bound})  # fmt: skip
        shown["eliminated"] = ["-" if v == "NaN" else v for v in shown["eliminated"]]
        return f"{head}\n{settings}\n{self.other_answer()}\n\n{shown.to_string(index=False)}"

    def other_answer(self) -> str:
        """The printout's line that names the other "may be best" answer: the rank sets'
        ``may_be_best`` (:class:`~pairedstats.RankResult`), at its own level.

        Returns
        -------
        str
        """
        level = self.metadata.get("confidence_level", 0.9)
        return (f"in_set: the model confidence set at {level:g}; the rank sets' may_be_best "
                f"(rank) is another answer, at its own level ({RANK_DEFAULT_LEVEL:g} "
                "simultaneous by default), and need not agree")  # fmt: skip

    def __repr__(self) -> str:
        shape = f"{len(self.group_keys)} group(s) x {len(self.systems)} systems"
        return f"<MCSResult: {shape}>\n{self}"
