"""Repeated runs of each system (``replicate=``: seeds, epochs, folds), read by one rule.

Every container reduces to observations ``(row, system, replicate label, score)``: the rows
of a tidy table, the cells of a dataset or an array that are not NaN. A system's replicates
are the labels it has observations for; two systems have the same labels (paired replicates)
or none in common (unpaired); partly overlapping labels are refused. The design must be
balanced: every row has a score for every replicate of every system; a missing cell is
refused with a count, or drops its item with ``missing="complete"``.
"""

from __future__ import annotations

import numpy as np

from .labels import canonical_ranks, check_labels, object_array, pandas_module, quoted

__all__ = ["check_replicate_labels", "replicate_cells"]


def check_replicate_labels(labels, systems) -> None:
    """Two systems' replicate labels are equal (paired) or disjoint (unpaired)."""
    sets = [set(t) for t in labels]
    for i in range(len(sets)):
        for j in range(i + 1, len(sets)):
            shared = sets[i] & sets[j]
            if shared and sets[i] != sets[j]:
                only_i = [x for x in labels[i] if x not in shared]
                only_j = [x for x in labels[j] if x not in shared]
                if not only_i or not only_j:
                    raise _lacking_runs(labels, systems, i, j, only_i or only_j)
                raise ValueError(
                    f"`replicate`: systems {systems[i]!r} and {systems[j]!r} share some "
                    f"replicate labels but not all ({len(shared)} shared; only "
                    f"{systems[i]!r} has {quoted(only_i)}, only {systems[j]!r} has "
                    f"{quoted(only_j)}). Replicates are paired when two systems have the same "
                    "labels (the same seeds) and unpaired when their labels are disjoint: "
                    "give the runs that are not paired labels of their own, or drop the "
                    "unmatched runs."
                )


def _lacking_runs(labels, systems, i, j, runs) -> ValueError:
    """The error of a system that lacks some of the runs of another, whose others it shares."""
    lacking, having = (i, j) if runs[0] in labels[j] else (j, i)
    return ValueError(
        f"`replicate`: system {systems[lacking]!r} has no scores for the replicate(s) "
        f"{quoted(runs)} that system {systems[having]!r} has (both have "
        f"{quoted(labels[lacking])}). Systems with the same replicate labels (the same seeds) "
        "are paired and need a score for every one: add the missing runs, or drop the "
        "unmatched ones; runs that are not paired take labels of their own."
    )


def replicate_cells(rows, sys_code, replicate, values, n_rows, systems, items, missing):
    """Per-system arrays of the cells of the observations, and the rows that are complete.

    Parameters
    ----------
    rows, sys_code : ndarray of int
        The row (item) and system of each observation.
    replicate : sequence
        The replicate label of each observation.
    values : ndarray of float, shape (n_obs,)
        The scores (NaN counts as a missing cell).
    n_rows : int
    systems, items : sequence
        The labels of the systems and of the rows, for messages.
    missing : {"raise", "complete"}

    Returns
    -------
    means : ndarray, shape (n_rows, n_systems, 1)
        Each row's mean over each system's replicates (NaN for an incomplete row).
    cells : tuple of ndarray, shape (n_rows, R_s)
    labels : tuple of tuple
        Each system's replicate labels, in canonical order (the columns of ``cells``).
    complete : ndarray of bool, shape (n_rows,)
    """
    replicate = object_array(replicate)
    check_labels(replicate, "replicate", "replicate")
    codes, uniques = pandas_module().factorize(replicate, sort=False)
    rank = canonical_ranks(uniques) if len(uniques) else np.zeros(0, dtype=np.int64)
    order = np.argsort(rank)  # codes in canonical order
    position = np.empty(len(uniques), dtype=np.int64)
    cells, labels = [], []
    for s, name in enumerate(systems):
        mine = np.unique(codes[sys_code == s])
        if mine.size == 0:
            raise ValueError(f"`replicate`: system {name!r} has no scores.")
        mine = order[np.isin(order, mine)]
        position[mine] = np.arange(mine.size)
        labels.append(tuple(uniques[c] for c in mine))
        obs = sys_code == s
        cell = np.full((n_rows, mine.size), np.nan)
        key = rows[obs] * mine.size + position[codes[obs]]
        if np.bincount(key).max(initial=0) > 1:
            raise ValueError(
                "`item`/`system`/`replicate`: each (item, system, replicate) must have one "
                f"row; system {name!r} has duplicated cells. Aggregate or remove the "
                "duplicates first."
            )
        cell.reshape(-1)[key] = values[obs]
        cells.append(cell)
    labels = tuple(labels)
    check_replicate_labels(labels, systems)
    complete = _check_cells(cells, labels, systems, items, missing)
    means = np.stack([c.mean(axis=1) for c in cells], axis=1)[:, :, None]
    return means, tuple(cells), labels, complete


def _check_cells(cells, labels, systems, items, missing) -> np.ndarray:
    """The rows with every cell; a ValueError counting the missing cells unless asked to
    drop them."""
    gaps = [np.isnan(c) for c in cells]
    incomplete = np.zeros(cells[0].shape[0], dtype=bool)
    for g in gaps:
        incomplete |= g.any(axis=1)
    if not incomplete.any() or missing == "complete":
        return ~incomplete
    total = sum(int(g.sum()) for g in gaps)
    size = sum(g.size for g in gaps)
    listing = ", ".join(f"{systems[s]!r}: {int(g.sum())}" for s, g in enumerate(gaps) if g.any())
    s = next(s for s, g in enumerate(gaps) if g.any())
    r, c = np.argwhere(gaps[s])[0]
    raise ValueError(
        "`replicate`: the design must be balanced, every item scored for every replicate of "
        f"every system; found {total} missing (item, system, replicate) cell(s) of {size} "
        f"(by system: {listing}; the first: item {items[r]!r}, system {systems[s]!r}, "
        f"replicate {labels[s][c]!r}) in {int(incomplete.sum())} item(s). Fix the data, or "
        "pass missing='complete' to keep only the items with every cell (the number dropped "
        "is reported)."
    )
