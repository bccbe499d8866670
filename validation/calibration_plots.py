"""Plots of the calibration study (``validation/calibration.py`` writes them to
``docs/_static/calibration_*.png``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

STATIC = Path(__file__).resolve().parent.parent / "docs" / "_static"
LEVEL = 0.95


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    STATIC.mkdir(parents=True, exist_ok=True)
    return plt


def plot_bootstrap(boot) -> None:
    plt = _plt()
    designs = list(dict.fromkeys(boot["design"]))
    ncol = (len(designs) + 1) // 2
    fig, axes = plt.subplots(2, ncol, figsize=(3.2 * ncol, 7), sharey=True)
    methods = list(dict.fromkeys(boot["method"]))
    for ax, d in zip(axes.flat, designs):
        sub = boot[boot["design"] == d]
        for j, m in enumerate(methods):
            s = sub[sub["method"] == m]
            if s.empty:
                continue
            ax.errorbar(np.arange(len(s)) + (j - 1.5) * 0.08, s["coverage"],
                        yerr=1.96 * s["se"], marker="o", ms=3, capsize=2, label=m)  # fmt: skip
            ax.set_xticks(np.arange(len(s)), [str(v) for v in s["n_items"]])
        ax.axhline(LEVEL, color="k", lw=0.8, ls="--")
        ax.set_title(d, fontsize=9)
        ax.set_xlabel("items")
    for ax in axes.flat[len(designs) :]:
        ax.axis("off")
    axes.flat[0].set_ylabel("coverage of the 95% interval")
    axes.flat[0].legend(loc="lower right", fontsize=7)
    fig.suptitle("Paired bootstrap coverage (bars: 95% Monte Carlo intervals)")
    fig.tight_layout()
    fig.savefig(STATIC / "calibration_bootstrap.png", dpi=80)
    plt.close(fig)


def plot_tukey(tukey) -> None:
    plt = _plt()
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, alpha in zip(axes, (0.05, 0.01)):
        sub = tukey[tukey["alpha"] == alpha].reset_index(drop=True)
        labels = [
            f"{r.scores}\nk={r.systems} n={r.n_items}"
            + ("\nnaive" if r.implementation != "pairedstats" else "")
            for r in sub.itertuples()
        ]
        colors = ["C0" if i == "pairedstats" else "C3" for i in sub["implementation"]]
        ax.bar(range(len(sub)), sub["type1_fwer"], yerr=1.96 * sub["se"], color=colors)
        ax.axhline(alpha, color="k", ls="--", lw=0.8)
        ax.set_xticks(range(len(sub)), labels, fontsize=6, rotation=90)
        ax.set_title(f"Tukey HSD family-wise type-I error, alpha = {alpha}")
    fig.tight_layout()
    fig.savefig(STATIC / "calibration_tukey.png", dpi=90)
    plt.close(fig)


def plot_families(fam) -> None:
    """Family-wise error at 0.05 of each procedure, one panel per (scenario, family)."""
    plt = _plt()
    panels = list(dict.fromkeys(zip(fam["scenario"], fam["family"])))
    ncol = (len(panels) + 1) // 2
    fig, axes = plt.subplots(2, ncol, figsize=(3.6 * ncol, 7), sharey=True)
    procs = list(dict.fromkeys(fam["procedure"]))
    for ax, (sc, fa) in zip(axes.flat, panels):
        sub = fam[(fam["scenario"] == sc) & (fam["family"] == fa)]
        ns = list(dict.fromkeys(sub["n_items"]))
        for j, p in enumerate(procs):
            s = sub[sub["procedure"] == p]
            if s.empty:
                continue
            x = [ns.index(v) + (j - len(procs) / 2) * 0.06 for v in s["n_items"]]
            ax.errorbar(x, s["fwer"], yerr=1.96 * s["se"], marker="o", ms=3, capsize=2,
                        label=p)  # fmt: skip
        ax.set_xticks(range(len(ns)), [str(v) for v in ns])
        ax.axhline(0.05, color="k", lw=0.8, ls="--")
        ax.set_yscale("log")
        ax.set_title(f"{sc}, {fa}", fontsize=9)
        ax.set_xlabel("items")
    for ax in axes.flat[len(panels) :]:
        ax.axis("off")
    axes.flat[0].set_ylabel("family-wise error at 0.05")
    axes.flat[0].legend(fontsize=7)
    fig.suptitle("Family-wise error (false rejections among true nulls; bars: 95% MC intervals)")
    fig.tight_layout()
    fig.savefig(STATIC / "calibration_families.png", dpi=80)
    plt.close(fig)


def plot_ranksum_power(rs_null, hl, power) -> None:
    plt = _plt()
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    sub = rs_null[rs_null["alpha"] == 0.05].reset_index(drop=True)
    labels = [f"{r.data} {r.n_a}x{r.n_b}\n{r.method}" for r in sub.itertuples()]
    axes[0].bar(range(len(sub)), sub["type1"], yerr=1.96 * sub["se"])
    axes[0].axhline(0.05, color="k", ls="--", lw=0.8)
    axes[0].set_xticks(range(len(sub)), labels, fontsize=6, rotation=90)
    axes[0].set_title("rank-sum type-I error, alpha = 0.05")
    labels = [f"{r.data} {r.n_a}x{r.n_b}\n{r.used}" for r in hl.itertuples()]
    axes[1].errorbar(range(len(hl)), hl["coverage"], yerr=1.96 * hl["se"], fmt="o", capsize=3)
    axes[1].plot(range(len(hl)), hl["guaranteed"], "k_", ms=14, label="guaranteed coverage")
    axes[1].axhline(LEVEL, color="k", ls="--", lw=0.8)
    axes[1].set_xticks(range(len(hl)), labels, fontsize=7, rotation=90)
    axes[1].set_title("Hodges-Lehmann 95% interval coverage (shift 0.5)")
    axes[1].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(STATIC / "calibration_ranksum.png", dpi=90)
    plt.close(fig)

    settings = list(dict.fromkeys(power["setting"]))
    fig, axes = plt.subplots(1, len(settings), figsize=(11, 4), sharey=True)
    for ax, s in zip(np.atleast_1d(axes), settings):
        sub = power[power["setting"] == s]
        for m in dict.fromkeys(sub["method"]):
            r = sub[sub["method"] == m]
            ax.errorbar(r["effect"], r["power"], yerr=1.96 * r["se"], marker="o", ms=3,
                        capsize=2, label=m)  # fmt: skip
        ax.axhline(0.05, color="k", ls=":", lw=0.8)
        ax.set_title(s)
        ax.set_xlabel(
            "effect (SDs of the difference)" if s.startswith("normal") else "logit shift of b"
        )
    np.atleast_1d(axes)[0].set_ylabel("rejection rate at 0.05")
    np.atleast_1d(axes)[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(STATIC / "calibration_power.png", dpi=90)
    plt.close(fig)
