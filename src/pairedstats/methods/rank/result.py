"""The ranking's result: each system's rank with its rank set, one row per system."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from ... import display
from .._shared.results import SystemTable

__all__ = ["RankResult"]

_COLUMNS = ("mean", "rank", "rank_low", "rank_high", "may_be_best")
#: The model confidence set's default level, which the printout names (the registry's
#: tests check it against ``mcs``'s signature).
MCS_DEFAULT_LEVEL = 0.9


@dataclass(frozen=True, kw_only=True)
class RankResult(SystemTable):
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

    mean: np.ndarray
    rank: np.ndarray
    rank_low: np.ndarray
    rank_high: np.ndarray
    may_be_best: np.ndarray
    comparisons: tuple = field(default=(), repr=False)

    _system_columns: ClassVar[tuple] = _COLUMNS

    def to_dataframe(self):
        """The ranking as a table.

        Returns
        -------
        pandas.DataFrame
            One row per group and system: the group keys, then ``system, mean, rank,
            rank_low, rank_high, may_be_best``. ``attrs`` holds the metadata.
        """
        return self._system_frame()

    def plot(self, kind: str = "ranks", **keywords):
        """The rank sets, one row per system (:func:`pairedstats.plotting.rank_intervals`;
        ``group=`` chooses a group when there are several)."""
        from ... import plotting

        return plotting.plot(self, kind, **keywords)

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
        return f"{head}\n{settings}\n{self.other_answer()}\n\n{table}"

    def other_answer(self) -> str:
        """The printout's line that names the other "may be best" answer: the model
        confidence set (:class:`~pairedstats.MCSResult`), at its own level.

        Returns
        -------
        str
        """
        m = self.metadata
        kind = "simultaneous" if m.get("simultaneous", True) else "marginal"
        return (f"may_be_best: the rank set contains 1 at {m.get('confidence_level', 0.95):g} "
                f"({kind}); the model confidence set (mcs) is another answer, at its own "
                f"level ({MCS_DEFAULT_LEVEL:g} by default), and need not agree")  # fmt: skip

    def __repr__(self) -> str:
        shape = f"{len(self.group_keys)} group(s) x {len(self.systems)} systems"
        return f"<RankResult: {shape}>\n{self}"
