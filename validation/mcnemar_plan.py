"""The plan of McNemar's exact test against Connor's plan of the asymptotic test: the numbers
of ``docs/planning.md`` (``python validation/mcnemar_plan.py``, about a minute; writes
``results/mcnemar_plan.json``).

Grid: discordant rate ``psi`` in 0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 1; difference of the pass
rates ``delta = f psi`` with ``f`` in 0.2, 0.35, 0.5, 0.8 (plans of up to a few thousand
items); power 0.8 and 0.9; two-sided, ``alpha = 0.05``. For each: Connor's items
(``method="asymptotic"``), the exact test's and the mid-p test's (the smallest ``n`` whose
exact power reaches the target), and the exact test's power at Connor's items. The exact
power is ``pairedstats.core.power_mcnemar.mcnemar_exact_power``, itself checked against an
enumeration of every table with scipy's p-values in ``tests/core/test_power.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from pairedstats.core.power_mcnemar import mcnemar_items_for, mcnemar_power

OUT = Path(__file__).parent / "results" / "mcnemar_plan.json"


def main() -> None:
    rows = []
    for psi in (0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 1.0):
        for share in (0.2, 0.35, 0.5, 0.8):
            delta = round(share * psi, 6)
            for power in (0.8, 0.9):
                n = {m: mcnemar_items_for(delta, discordant_rate=psi, power=power, method=m)
                     for m in ("asymptotic", "exact", "mid-p")}  # fmt: skip
                rows.append(dict(
                    psi=psi, delta=delta, power=power, **{f"n_{k}": v for k, v in n.items()},
                    exact_over_connor=n["exact"] / n["asymptotic"] - 1.0,
                    exact_power_at_connor=mcnemar_power(n["asymptotic"], delta,
                                                        discordant_rate=psi),
                ))  # fmt: skip
    ratios = [r["exact_over_connor"] for r in rows]
    powers = [r["exact_power_at_connor"] for r in rows]
    large = [r["exact_over_connor"] for r in rows if r["n_asymptotic"] >= 50]
    summary = dict(
        extra_items_min=min(ratios), extra_items_max=max(ratios),
        extra_items_min_connor_at_least_50=min(large),
        extra_items_max_connor_at_least_50=max(large),
        exact_power_at_connor_min=min(powers), exact_power_at_connor_max=max(powers),
        extra_items_quartiles=[float(q) for q in np.percentile(ratios, [25, 50, 75])],
        exact_power_at_connor_quartiles_power_0_8=[
            float(q) for q in np.percentile([r["exact_power_at_connor"] for r in rows
                                             if r["power"] == 0.8], [0, 25, 50, 75, 100])
        ],
        mid_p_fewer_than_exact=sum(r["n_mid-p"] < r["n_exact"] for r in rows), cases=len(rows),
    )  # fmt: skip
    OUT.write_text(json.dumps(dict(summary=summary, rows=rows), indent=1) + "\n")
    print(json.dumps(summary, indent=1))
    print("| psi | delta | power | Connor | exact | mid-p | exact / Connor - 1 | "
          "exact's power at Connor |")  # fmt: skip
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['psi']} | {r['delta']:.4g} | {r['power']} | {r['n_asymptotic']} | "
              f"{r['n_exact']} | {r['n_mid-p']} | {r['exact_over_connor']:+.1%} | "
              f"{r['exact_power_at_connor']:.3f} |")  # fmt: skip


if __name__ == "__main__":
    main()
