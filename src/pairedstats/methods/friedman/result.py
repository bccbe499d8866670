"""Friedman's result: the post-hoc table of all pairs (one row per pair and group), the
Friedman and Iman-Davenport tests of each group, the systems' mean ranks and the cliques
(:class:`FriedmanResult`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ... import display
from ..._validation import check_alpha
from ...core import friedman as core
from .._shared.results import (
    ComparisonResult,
    coordinate_values,
    group_grid,
    label_array,
    labelled_flags,
    labelled_frame,
)

__all__ = ["FriedmanResult"]

#: The columns of one value per group: the Friedman and Iman-Davenport tests.
OMNIBUS = ("n_datasets", "friedman", "pvalue_friedman", "iman_davenport",
           "pvalue_iman_davenport")  # fmt: skip
_PAIR_COLUMNS = ("mean_rank_a", "mean_rank_b", "difference", "pvalue", "pvalue_adjusted")


@dataclass(frozen=True, kw_only=True)
class FriedmanResult(ComparisonResult):
    """Result of :func:`friedman` and :func:`friedman_design`: systems compared over many data
    sets (each item a data set, one score per data set and system).

    Its table (:meth:`to_dataframe`) is the post-hoc test of all pairs, one row per pair
    ``(a, b)`` (a before b in system order) and group, with the group's Friedman test
    repeated on each of its rows; :meth:`omnibus` gives the tests one row per group,
    :meth:`mean_ranks` one row per system, :meth:`cliques` the groups of systems no pair of
    which differs, and :func:`pairedstats.plotting.critical_difference` Demšar's diagram.
    Every array below has shape ``(n_groups, n_comparisons)`` unless said otherwise. A pair
    is significant when ``pvalue_adjusted < alpha`` (:meth:`significant`).

    Attributes
    ----------
    systems : tuple
        The system labels, in system order (``mean_rank``'s last axis).
    mean_rank : ndarray, shape (n_groups, n_systems)
        Each system's mean rank over the data sets: within each data set rank 1 is the best
        score (the lowest with ``lower_is_better``), ties share their mean rank, scores tied
        by the library's tie rule (:mod:`pairedstats.core.ties`) included.
    mean_rank_a, mean_rank_b : ndarray
        The mean ranks of the two sides.
    difference : ndarray
        ``mean_rank_b - mean_rank_a``: positive when b ranks worse than a.
    pvalue : ndarray
        The pair's own two-sided p-value: the Wilcoxon signed-rank test of its scores
        (``"wilcoxon-holm"``), Nemenyi's normal score ``|difference| / sqrt(k (k + 1) /
        (6 N))`` (``"nemenyi"``) or Conover's t on ``(N - 1)(k - 1)`` degrees of freedom
        (``"conover"``).
    pvalue_adjusted : ndarray
        The family-wise p-value over the group's pairs: Holm's step-down of ``pvalue``
        (``"wilcoxon-holm"``, ``"conover"``), or the studentized range of ``k`` mean ranks
        (``"nemenyi"``, single-step).
    n_datasets : ndarray of int
        ``N``, the data sets (items) of the group.
    friedman, pvalue_friedman : ndarray
        The Friedman chi-square of the group (tie-corrected unless
        ``tie_correction=False``) and its p-value on ``k - 1`` degrees of freedom.
    iman_davenport, pvalue_iman_davenport : ndarray
        The Iman-Davenport F, ``(N - 1) chi2 / (N (k - 1) - chi2)``, and its p-value on
        ``k - 1`` and ``(k - 1)(N - 1)`` degrees of freedom.
    n_dropped : ndarray of int
        Data sets removed from the group by ``missing="complete"``.
    """

    systems: tuple
    mean_rank: np.ndarray
    mean_rank_a: np.ndarray
    mean_rank_b: np.ndarray
    difference: np.ndarray
    pvalue: np.ndarray
    pvalue_adjusted: np.ndarray
    n_datasets: np.ndarray
    friedman: np.ndarray
    pvalue_friedman: np.ndarray
    iman_davenport: np.ndarray
    pvalue_iman_davenport: np.ndarray
    n_dropped: np.ndarray

    _columns: ClassVar[tuple[str, ...]] = (*_PAIR_COLUMNS, *OMNIBUS, "n_dropped")
    estimate: ClassVar[str] = "difference"
    pvalue_columns: ClassVar[tuple[str, ...]] = ("pvalue", "pvalue_adjusted", "pvalue_friedman",
                                                 "pvalue_iman_davenport")  # fmt: skip
    summary_columns: ClassVar[tuple[str, ...]] = ("mean_rank_a", "mean_rank_b", "difference",
                                                  "pvalue_adjusted")  # fmt: skip
    title: ClassVar[str] = "Friedman test over data sets, post-hoc tests of all pairs"
    printed_metadata: ClassVar[tuple[str, ...]] = ("posthoc", "lower_is_better",
                                                   "tie_correction")  # fmt: skip

    # ----------------------------------------------------------------- decisions
    def significant(self, alpha: float | None = None):
        """Which pairs differ: ``pvalue_adjusted < alpha`` (default 0.05).

        Returns
        -------
        pandas.DataFrame of bool
            One row per group, one column per pair
            (:func:`~pairedstats.methods._shared.results.labelled_flags`).
        """
        return labelled_flags(self, self._different(alpha))

    def _different(self, alpha) -> np.ndarray:
        alpha = 0.05 if alpha is None else check_alpha(alpha)
        return np.asarray(self.pvalue_adjusted, dtype=float) < alpha

    def significance_note(self, alpha: float | None = None) -> str:
        """The rule as a LaTeX table note: adjusted ``$p < alpha$``."""
        return f"adjusted $p < {0.05 if alpha is None else alpha:g}$"

    def cliques(self, alpha: float = 0.05, group=None) -> list[frozenset]:
        """The cliques of a group: the largest sets of systems no pair of which differs
        (``pvalue_adjusted >= alpha`` for every pair in the set).

        Parameters
        ----------
        alpha : float
            The level of :meth:`significant`, strictly between 0 and 1.
        group : label, tuple or int, optional
            Which group: its label (the ``by=`` value, or the key tuple of several ``by=``
            columns), or its position when no label is a number; an integer is read as a
            label first, so with ``by=`` fold numbers ``group=0`` is fold 0 wherever it
            stands. Needed when there are several.

        Returns
        -------
        list of frozenset
            The maximal cliques, as sets of system labels, best mean rank first. A system
            that differs from every other is a clique of its own. With Nemenyi's test each
            clique is a run of systems adjacent in mean rank; with the others it may skip
            one.
        """
        from ...plotting import group_index

        return self._cliques(alpha, group_index(self, group))

    def _cliques(self, alpha, g: int) -> list[frozenset]:
        """:meth:`cliques` of the group at position ``g`` (the callers that hold one)."""
        index = {s: i for i, s in enumerate(self.systems)}
        different = self._different(alpha)[g]
        pairs = [(index[a], index[b]) for a, b, d in zip(self.label_a, self.label_b, different)
                 if d]  # fmt: skip
        found = core.maximal_cliques(len(self.systems), pairs, order=self.mean_rank[g])
        return [frozenset(self.systems[i] for i in clique) for clique in found]

    def critical_difference(self, alpha: float = 0.05) -> np.ndarray:
        """Nemenyi's critical difference of mean ranks per group, at ``alpha``: two systems
        whose mean ranks differ by more than it differ by Nemenyi's test (whatever
        ``posthoc`` the call used).

        Parameters
        ----------
        alpha : float
            The level, strictly between 0 and 1.

        Returns
        -------
        ndarray, shape (n_groups,)
        """
        alpha = check_alpha(alpha)
        k = len(self.systems)
        n = np.asarray(self.n_datasets)[:, 0].tolist()  # k >= 2: one pair at least
        return np.array([core.critical_difference(k, m, alpha) for m in n])

    # ----------------------------------------------------------------- tables
    def _group_frame(self, repeat: int) -> dict:
        return {name: np.repeat(label_array([key[j] for key in self.group_keys]), repeat)
                for j, name in enumerate(self.group_names)}  # fmt: skip

    def omnibus(self):
        """The Friedman and Iman-Davenport tests, one row per group.

        Returns
        -------
        pandas.DataFrame
            The group keys, then ``n_datasets, friedman, pvalue_friedman, iman_davenport,
            pvalue_iman_davenport``; ``attrs`` holds the metadata.
        """
        import pandas as pd

        data = self._group_frame(1)
        data.update({name: np.asarray(getattr(self, name))[:, 0] for name in OMNIBUS})
        frame = pd.DataFrame(data)
        frame.attrs.update(self.metadata)
        return frame

    def mean_ranks(self, alpha: float = 0.05):
        """Each system's mean rank, one row per group and system, best first: by mean rank
        (1 = best, with ``lower_is_better`` the lowest score), systems of equal mean rank by
        their label.

        Parameters
        ----------
        alpha : float
            The level of the ``cliques`` column.

        Returns
        -------
        pandas.DataFrame
            The group keys, then ``system, mean_rank, cliques``: ``cliques`` gives each
            clique (:meth:`cliques`) a letter, ``a`` to the one of the best mean rank; two
            systems share a letter exactly when no test tells them apart.

        Examples
        --------
        >>> import pairedstats
        >>> scores = [[0.9, 0.7, 0.8], [0.8, 0.6, 0.9], [0.7, 0.5, 0.6], [0.9, 0.4, 0.8]]
        >>> res = pairedstats.friedman(scores, systems=["zeta", "alpha", "mid"])
        >>> res.mean_ranks()["system"].tolist()
        ['zeta', 'mid', 'alpha']
        """
        k = len(self.systems)
        data = self._group_frame(k)
        mean = np.asarray(self.mean_rank, dtype=float)
        order = [sorted(range(k), key=lambda i: (mean[g, i], _label_key(self.systems[i])))
                 for g in range(len(self.group_keys))]  # fmt: skip
        systems = label_array(self.systems)
        data["system"] = np.concatenate([systems[o] for o in order]) if order else systems[:0]
        data["mean_rank"] = np.concatenate([mean[g, o] for g, o in enumerate(order)]) \
            if order else mean.reshape(-1)  # fmt: skip
        letters = []
        for g, o in enumerate(order):
            found = self._cliques(alpha, g)
            letters += ["".join(display._letter(c) for c, clique in enumerate(found)
                                if self.systems[i] in clique) for i in o]  # fmt: skip
        data["cliques"] = letters
        return labelled_frame(data, (*self.group_names, "system"), self.metadata)

    def to_dataset(self):
        """The post-hoc table as an :class:`xarray.Dataset`, with ``mean_rank`` over the
        group dimensions and ``system``.

        Returns
        -------
        xarray.Dataset
            The variables of :attr:`columns` over the group dimensions and ``comparison``
            (:meth:`ComparisonResult.to_dataset`), and ``mean_rank``.
        """
        ds = super().to_dataset()
        levels, positions = group_grid(self.group_keys, len(self.group_names))
        shape = tuple(len(v) for v in levels)
        out = np.full((*shape, len(self.systems)), np.nan)  # NaN where a grid cell has no group
        out[(*positions, slice(None))] = self.mean_rank
        ds["mean_rank"] = ((*self.group_names, "system"), out)
        return ds.assign_coords(system=("system", coordinate_values(self.systems)))

    def __str__(self) -> str:
        shown = display._shown(self)[1]
        keys = list(self.group_names)
        omnibus = shown.iloc[:: len(self.label_a)][[*keys, *OMNIBUS]]  # a row per group
        ranks = self.mean_ranks()
        ranks = display.text_cells(ranks, ["mean_rank"])
        pairs = shown[[*keys, *self.label_columns, *_PAIR_COLUMNS]]
        head = "\n".join(line for line in (self.title, display._settings_line(self)) if line)
        return "\n\n".join([
            head, omnibus.to_string(index=False),
            "Mean ranks (1 = best); systems that share a letter form a clique at alpha = 0.05",
            ranks.to_string(index=False), pairs.to_string(index=False),
        ])  # fmt: skip


def _label_key(label) -> tuple:
    """The order of labels of equal mean rank: numbers by value, then text."""
    if isinstance(label, int | float | np.number) and not isinstance(label, bool):
        return (0, float(label), "")
    return (1, 0.0, str(label))
