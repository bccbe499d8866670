"""The plan's run: for every comparison of every group of a paired design, the spread of its
per-item differences (or, for 0/1 scores, its discordant rate), the items needed to detect
the planned difference and the difference detectable at the table's size (:func:`run`); the
numbers come from :mod:`pairedstats.core.power` and :mod:`pairedstats.core.power_mcnemar`."""

from __future__ import annotations

import numpy as np

from ...core import power as _power
from ...core import power_mcnemar as _mcnemar_power
from ...core.ties import tie_error
from .._shared.runs import Outputs, comparison_labels
from .findings import Findings
from .result import ItemsForResult
from .settings import Settings

__all__ = ["run"]

#: Column dtypes other than float64.
_DTYPES = {"n_items": np.int64, "n_dropped": np.int64, "method": object, "alternative": object}


def run(s: Settings) -> ItemsForResult:
    """Plan every comparison (b - a) of every group of ``s.design``; what the table cannot
    estimate is NaN and warned once per kind."""
    design = s.design
    out = Outputs(design.n_groups, len(s.pairs))
    for name in ItemsForResult._columns:
        dtype = _DTYPES.get(name, np.float64)
        out.add(name, dtype, None if dtype is object else 0 if dtype is np.int64 else np.nan)
    out.per_group("n_dropped", design.n_dropped(), np.int64)
    findings = Findings(design, s.pairs)
    for g in range(design.n_groups):
        scores = design.scores[design.group(g), :, 0]
        kinds: dict[str, list[int]] = {}
        for c, (ia, ib) in enumerate(s.pairs):
            pair = scores[:, [ia, ib]]
            values, found = _plan(pair, tie_error(pair, design.precision), s)
            out.set((g, c), **values)
            for kind in found:
                kinds.setdefault(kind, []).append(c)
        for kind, comparisons in kinds.items():
            findings.flag(kind, g, comparisons)
    findings.warn()
    meta = s.metadata()
    return ItemsForResult(**comparison_labels(design, s.pairs), metadata=meta, **out.arrays)


def _plan(pair: np.ndarray, tie: float, s: Settings) -> tuple[dict, list[str]]:
    """One comparison's row (``pair``: its items x (a, b) scores) and what it found. With
    ``s.standard_deviation_level``, the spread planned with is the upper confidence limit
    of the table's (the table is the pilot: its ``n`` items)."""
    d = pair[:, 1] - pair[:, 0]
    n = d.size
    level = s.standard_deviation_level
    plan = dict(power=s.power, alpha=s.alpha, alternative=s.alternative)
    row = dict(n_items=n, target_difference=s.difference, standard_deviation=np.std(d, ddof=1),
               **plan)  # fmt: skip
    if np.isin(pair, (0.0, 1.0)).all():  # pass/fail: McNemar's test, s.mcnemar_method
        discordant = int(np.count_nonzero(d))
        psi = discordant / n
        if level is not None:
            planned = _power.discordant_rate_limit(discordant, n, level)
        else:
            planned = psi
        row.update(method="mcnemar", discordant_rate=psi, discordant_rate_planned=planned)
        if psi == 0.0:
            return row, ["no_spread"]
        found = []
        if abs(s.difference) > planned:
            found.append("beyond")
        else:
            row["n_items_needed"] = _needed(_mcnemar_power.mcnemar_items_for, s, found,
                                            discordant_rate=planned,
                                            method=s.mcnemar_method)  # fmt: skip
        row["detectable_difference"] = _mcnemar_power.mcnemar_detectable_difference(
            n, discordant_rate=planned, method=s.mcnemar_method, **plan
        )
        if np.isnan(row["detectable_difference"]):
            found.append("undetectable")
        return row, found
    row["method"] = "t"
    sd = row["standard_deviation"]
    if level is not None and n >= 2:
        sd = _power.standard_deviation_limit(sd, n, level) if sd > 0 else 0.0
    row["standard_deviation_planned"] = sd
    if np.ptp(d) <= tie:  # every difference the same, within the tie rule
        return row, ["no_spread"]
    found = []
    row["n_items_needed"] = _needed(_power.items_for, s, found, standard_deviation=sd)
    row["detectable_difference"] = _power.detectable_difference(n, standard_deviation=sd, **plan)
    return row, found


def _needed(function, s: Settings, found: list, **spread) -> float:
    """The items needed by ``function``; NaN (and ``"too_many"`` found) beyond its limit."""
    try:
        return float(function(s.difference, power=s.power, alpha=s.alpha,
                              alternative=s.alternative, **spread))  # fmt: skip
    except ValueError:  # more than MAX_ITEMS
        found.append("too_many")
        return np.nan
