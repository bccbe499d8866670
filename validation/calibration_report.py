"""Markdown tables of the calibration study from ``validation/results/*.csv`` (the tables of
``docs/calibration.md``): ``python validation/calibration_report.py``.

A rate is marked by its distance from the target in Monte Carlo standard errors at the
target (``z``, ``validation/results/deviations.csv``): bold beyond 3, a dagger between 2
and 3.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

RESULTS = Path(__file__).resolve().parent / "results"


def deviations(df, rate: str, target, table: str, label_columns) -> list[dict]:
    """Each cell's distance from its target in Monte Carlo standard errors *at the target*,
    ``z = (rate - target) / sqrt(target (1 - target) / n_sims)``: beyond 2 (or 3) the cell is
    unlikely to be a chance excursion of a calibrated method."""
    rows = []
    for r in df.to_dict("records"):
        t = target(r) if callable(target) else target
        se0 = float(np.sqrt(t * (1 - t) / r["n_sims"]))
        rows.append({"table": table, "cell": ", ".join(f"{c}={r[c]}" for c in label_columns),
                     "rate": r[rate], "target": t, "n_sims": r["n_sims"], "se_target": se0,
                     "z": (r[rate] - t) / se0})  # fmt: skip
    return rows


def all_deviations(boot, tukey, fam, rs_null, hl, level):
    """Every rate of the study with its ``z``, as ``results/deviations.csv``."""
    rows = deviations(boot, "coverage", level, "bootstrap", ("design", "n_items", "method"))
    rows += deviations(tukey, "type1_fwer", lambda r: r["alpha"], "tukey",
                       ("scores", "systems", "n_items", "implementation", "alpha"))  # fmt: skip
    rows += deviations(fam, "fwer", 0.05, "families",
                       ("scenario", "family", "n_items", "procedure"))  # fmt: skip
    rows += deviations(rs_null, "type1", lambda r: r["alpha"], "ranksum",
                       ("data", "n_a", "n_b", "method", "alpha"))  # fmt: skip
    rows += deviations(hl, "coverage", lambda r: r["guaranteed"], "hodges-lehmann",
                       ("data", "n_a", "n_b"))  # fmt: skip
    return pd.DataFrame(rows)


def _mark(rate, target, n, digits=3):
    s0 = np.sqrt(target * (1 - target) / n)
    z = (rate - target) / s0
    text = f"{rate:.{digits}f}"
    if abs(z) > 3:
        return f"**{text}**"
    return text + (" †" if abs(z) > 2 else "")


def models():
    m = pd.read_csv(RESULTS / "models.csv")
    print("| model | truth | SD of b - a | skewness of b - a | excess kurtosis |")
    print("|---|---|---|---|---|")
    for r in m.itertuples():
        skew, kurt = (f"{v:.{d}f}".replace("-0.00", "0.00").replace("-0.0 ", "0.0 ")
                      for v, d in ((r.skewness, 2), (r.excess_kurtosis, 1)))  # fmt: skip
        kurt = "0.0" if kurt == "-0.0" else kurt
        print(f"| `{r.model}` | {r.truth:.5g} | {r.sd_difference:.3f} | {skew} | {kurt} |")


def coverage():
    b = pd.read_csv(RESULTS / "bootstrap_coverage.csv")
    methods = ["percentile", "basic", "bca", "studentized"]
    print("| design | items (units) | percentile | basic | BCa | studentized |")
    print("|---|---|---|---|---|---|")
    for (d, n), g in b.groupby(["design", "n_items"], sort=False):
        by = {r.method: r for r in g.itertuples()}
        units = g["n_units"].iloc[0]
        items = f"{n}" + (f" ({units})" if units != n else "")
        cells = [_mark(by[m].coverage, 0.95, by[m].n_sims) if m in by else "" for m in methods]
        print(f"| {d} | {items} | " + " | ".join(cells) + " |")


def widths():
    b = pd.read_csv(RESULTS / "bootstrap_coverage.csv")
    b = b[b["design"].isin(["normal", "exponential", "lognormal", "t3"])]
    print("| design | items | method | coverage | miss below | miss above | mean width |")
    print("|---|---|---|---|---|---|---|")
    for r in b.itertuples():
        if r.method in ("percentile", "studentized"):
            print(f"| {r.design} | {r.n_items} | {r.method} | {r.coverage:.3f} | "
                  f"{r.miss_low:.3f} | {r.miss_high:.3f} | {r.mean_width:.3f} |")  # fmt: skip


def tukey():
    t = pd.read_csv(RESULTS / "tukey_type1.csv")
    print(
        "| scores | systems | items | FWER at 0.05 | FWER at 0.01 "
        "| naive float `>=` at 0.05 / 0.01 |"
    )
    print("|---|---|---|---|---|---|")
    for (sc, k, n), g in t.groupby(["scores", "systems", "n_items"], sort=False):
        ours = g[g["implementation"] == "pairedstats"].set_index("alpha")
        naive = g[g["implementation"] != "pairedstats"].set_index("alpha")
        cells = [_mark(ours.loc[a, "type1_fwer"], a, ours.loc[a, "n_sims"]) for a in (0.05, 0.01)]
        nv = (f"{naive.loc[0.05, 'type1_fwer']:.3f} / {naive.loc[0.01, 'type1_fwer']:.3f}"
              if len(naive) else "")  # fmt: skip
        print(f"| {sc} | {k} | {n} | {cells[0]} | {cells[1]} | {nv} |")


PROCS = ["bootstrap, unadjusted", "bootstrap, holm", "bootstrap, max-t",
         "bootstrap-t, unadjusted", "bootstrap-t, holm", "randomized Tukey HSD"]  # fmt: skip


def families(scenarios, power=False):
    f = pd.read_csv(RESULTS / "families.csv")
    f = f[f["scenario"].isin(scenarios)]
    head = ["percentile unadjusted", "percentile Holm", "max-t", "bootstrap-t unadjusted",
            "bootstrap-t Holm", "Tukey HSD"]  # fmt: skip
    print("| scenario | family (comparisons) | items | " + " | ".join(head) + " |")
    print("|---|---|---|" + "---|" * len(head))
    for (sc, fa, n), g in f.groupby(["scenario", "family", "n_items"], sort=False):
        by = {r.procedure: r for r in g.itertuples()}
        m = g["comparisons"].iloc[0]
        cells = []
        for p in PROCS:
            r = by[p]
            c = _mark(r.fwer, 0.05, r.n_sims)
            if power and not np.isnan(r.power):
                c += f" ({r.power:.2f})"
            cells.append(c)
        print(f"| {sc} | {fa} ({m}) | {n} | " + " | ".join(cells) + " |")


def joint():
    f = pd.read_csv(RESULTS / "families.csv")
    f = f[f["scenario"].isin(["complete null", "partial null"])]
    print(
        "| scenario | family | items | percentile, unadjusted | bootstrap-t, unadjusted "
        "| max-t simultaneous |"
    )
    print("|---|---|---|---|---|---|")
    for (sc, fa, n), g in f.groupby(["scenario", "family", "n_items"], sort=False):
        by = {r.procedure: r for r in g.itertuples()}
        cells = [
            _mark(by[p].joint_coverage, 0.95, by[p].n_sims)
            for p in ("bootstrap, unadjusted", "bootstrap-t, unadjusted", "bootstrap, max-t")
        ]
        print(f"| {sc} | {fa} | {n} | " + " | ".join(cells) + " |")


def ranksum():
    r = pd.read_csv(RESULTS / "ranksum_type1.csv")
    print("| data | n_a x n_b | method (used) | type-I at 0.05 | at 0.01 |")
    print("|---|---|---|---|---|")
    for (d, na, nb, m), g in r.groupby(["data", "n_a", "n_b", "method"], sort=False):
        g = g.set_index("alpha")
        print(f"| {d} | {na} x {nb} | {m} ({g['used'].iloc[0]}) | "
              f"{_mark(g.loc[0.05, 'type1'], 0.05, g.loc[0.05, 'n_sims'])} | "
              f"{_mark(g.loc[0.01, 'type1'], 0.01, g.loc[0.01, 'n_sims'])} |")  # fmt: skip
    h = pd.read_csv(RESULTS / "ranksum_hl_coverage.csv")
    print("\n| data | n_a x n_b | path | coverage | guaranteed | mean width |")
    print("|---|---|---|---|---|---|")
    for x in h.itertuples():
        print(f"| {x.data} | {x.n_a} x {x.n_b} | {x.used} | "
              f"{_mark(x.coverage, x.guaranteed, x.n_sims)} | {x.guaranteed:.4f} | "
              f"{x.mean_width:.2f} |")  # fmt: skip


def power():
    p = pd.read_csv(RESULTS / "power.csv")
    w = p.pivot_table(index=["setting", "effect"], columns="method", values="power")
    w = w.loc[list(dict.fromkeys(p["setting"]))]  # settings in the study's order
    print("| setting | effect | bootstrap | Tukey HSD | t-test |")
    print("|---|---|---|---|---|")
    for (s, e), r in w.iterrows():
        print(
            f"| {s} | {e:g} | {r['bootstrap percentile excludes 0']:.3f} | "
            f"{r['randomized Tukey HSD (2 systems)']:.3f} | {r['paired t-test']:.3f} |"
        )


def deviation_summary(listed=("tukey", "ranksum", "hodges-lehmann")):
    """Counts of cells beyond 2 and 3 s.e. per table, and the cells of the tables
    ``listed`` beyond 2 s.e. (the other tables mark them in place)."""
    d = pd.read_csv(RESULTS / "deviations.csv")
    print("| table | cells | beyond 2 s.e. | beyond 3 s.e. |")
    print("|---|---|---|---|")
    for t, g in d.groupby("table", sort=False):
        print(f"| {t} | {len(g)} | {(g['z'].abs() > 2).sum()} | {(g['z'].abs() > 3).sum()} |")
    print()
    for r in d[(d["z"].abs() > 2) & d["table"].isin(listed)].itertuples():
        print(f"- {r.table}: {r.cell}: {r.rate:.4f} against {r.target:.4f}, {r.z:+.2f} s.e.")


if __name__ == "__main__":
    info = pd.read_csv(RESULTS / "study_info.csv").set_index("key")["value"]
    print(info.to_string(), "\n")
    for name, fn in (("models", models), ("coverage", coverage), ("widths", widths),
                     ("tukey", tukey), ("joint", joint), ("ranksum", ranksum),
                     ("power", power), ("deviations", deviation_summary)):  # fmt: skip
        print(f"\n### {name}\n")
        fn()
    print("\n### families (complete/partial; power in parentheses)\n")
    families(["complete null", "partial null"], power=True)
    print("\n### spreads\n")
    families(["spreads 1,1,3", "spreads 1,1,1,1,4"])
