"""The one rule of every method's warnings: what a run finds in the groups of a call (a
degenerate design, an interval that cannot be reached, a fallback) is collected while the
groups run and warned once per kind when the call ends, with the number of groups concerned
and the first of them as an example (:class:`Findings`).

A call over a thousand ``by=`` groups then gives one warning of each kind it found, not a
thousand, and the warning still says where to look. A method declares its kinds (their
warning class, what was found and what it means) in a subclass.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from ...core._warn import warn

__all__ = ["Findings", "binary_comparisons", "listing"]


class Findings:
    """What the groups of a call showed, warned once per kind at the end (:meth:`warn`).

    Subclasses declare :attr:`KINDS`: kind -> (warning class, what was found, what it means).
    ``design`` is a paired design (``systems``) or a two-sample one (``labels``); ``pairs``
    its comparisons, which :meth:`comparisons` names by their labels.
    """

    #: kind: (warning class, what was found, what it means for the result)
    KINDS: ClassVar[dict[str, tuple[type, str, str]]] = {}

    def __init__(self, design, pairs):
        self.design = design
        labels = design.systems if hasattr(design, "systems") else design.labels
        self.names = [f"{labels[b]!r} - {labels[a]!r}" for a, b in pairs]
        self.found: dict[str, list[tuple[int, str]]] = {}
        #: kind -> a sentence the warning ends with (what to use instead, found in the data)
        self.notes: dict[str, str] = {}

    def add(self, kind: str, g: int, detail: str) -> None:
        self.found.setdefault(kind, []).append((g, detail))

    def comparisons(self, kind: str, mask, describe=lambda g, c: "") -> None:
        """Add, per group, the comparisons where ``mask`` (n_groups, k) is True."""
        for g in np.flatnonzero(mask.any(axis=1)):
            parts = [self.names[c] + describe(g, c) for c in np.flatnonzero(mask[g])]
            self.add(kind, int(g), "for " + listing(parts))

    def _where(self, hits) -> str:
        design = self.design
        if not design.group_names:
            return ""
        pairs = zip(design.group_names, design.group_keys[hits[0][0]], strict=True)
        key = ", ".join(f"{name}={value!r}" for name, value in pairs)
        if design.n_groups == 1:
            return f" in group {key}"
        return f" in {len(hits)} of {design.n_groups} groups, e.g. group {key}"

    def warn(self) -> None:
        for kind, hits in self.found.items():
            category, title, meaning = self.KINDS[kind]
            note = f" {self.notes[kind]}" if kind in self.notes else ""
            warn(f"{title}{self._where(hits)}: {hits[0][1]}. {meaning}{note}", category)


def listing(parts: list[str], limit: int = 3) -> str:
    shown = ", ".join(parts[:limit])
    return shown if len(parts) <= limit else f"{shown} and {len(parts) - limit} more"


def binary_comparisons(design, pairs, statistic) -> np.ndarray:
    """(n_groups, k): the comparisons whose two systems' scores are all 0 or 1 in the group
    (the default mean of one score column without replicates; else none)."""
    out = np.zeros((design.n_groups, len(pairs)), dtype=bool)
    if statistic is not None or design.replicates is not None or design.scores.shape[2] != 1:
        return out
    index = np.asarray(pairs, dtype=np.intp).reshape(-1, 2)
    for g in range(design.n_groups):
        scores = design.scores[design.group(g), :, 0]
        passed = ((scores == 0.0) | (scores == 1.0)).all(axis=0)  # per system
        out[g] = passed[index[:, 0]] & passed[index[:, 1]]
    return out
