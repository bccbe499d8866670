"""Power of the randomized Tukey HSD for a close pair as weak, noisy systems are added.

Run: ``python validation/tukey_power.py`` (``--n-sims N``, default 400). Prints the Markdown
table of docs/tukey_hsd.md (section *Power as systems are added*); about a minute on 2 cores.

The model (seed 35; one generator draws every data set). ``N_ITEMS = 100`` items with
difficulty ``u_i ~ N(0, 1)``; the close pair ``A = u + e`` and ``B = u + 0.2 + e'`` with
``e, e' ~ N(0, 0.5^2)``, so ``B - A`` has mean 0.2 and standard deviation 0.71; ``k`` weak,
noisy systems ``W_j = u - 1 + N(0, 2^2)`` (worse on average, and erratic item by item). For
``k = 0, 2, 4, 6``, the same ``n_sims`` pairs (common random numbers), and, for contrast, ``k``
systems as good and as steady as the pair (``u + 0.1 + N(0, 0.5^2)``) instead, the share of data
sets in which the pair ``(A, B)`` gets p < 0.05 from

* ``tukey_hsd`` over all systems (all pairs: the family grows as ``(k + 2)(k + 1) / 2``);
* ``tukey_hsd(baseline="A")`` over all systems (many-vs-one: ``k + 1`` comparisons);
* ``bootstrap(baseline="A", adjust="holm")`` over all systems (the same ``k + 1``
  comparisons, Holm-adjusted);
* ``bootstrap`` of the planned pair alone (``systems=["A", "B"]``), the number of weak systems
  not entering;

each in one call with one ``by=`` group per data set (999 trials or resamples), so each data
set has its own random streams. Also the median p-value of the pair under each rule. Monte
Carlo standard error of a power ``p``: ``sqrt(p (1 - p) / n_sims)`` (0.02 at most for 400).
"""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd

import pairedstats  # noqa: F401  (registers .paired)

SEED = 35
N_ITEMS = 100
SHIFT = 0.2
KS = (0, 2, 4, 6)
B = 999


def draw(n_sims: int) -> dict[str, np.ndarray]:
    """The pair and every extra system's noise, drawn once: each k uses the first k extras
    (common random numbers, so the rows differ by the added systems only)."""
    rng = np.random.default_rng(SEED)
    shape = (n_sims, N_ITEMS)
    u = rng.standard_normal(shape)
    out = {
        "u": u,
        "A": u + 0.5 * rng.standard_normal(shape),
        "B": u + SHIFT + 0.5 * rng.standard_normal(shape),
    }
    for j in range(max(KS)):
        out[f"e{j + 1}"] = rng.standard_normal(shape)
    return out


def simulate(k: int, extra: str, drawn: dict[str, np.ndarray]) -> pd.DataFrame:
    u = drawn["u"]
    n_sims = u.shape[0]
    scores = {"A": drawn["A"], "B": drawn["B"]}
    for j in range(k):
        e = drawn[f"e{j + 1}"]
        if extra == "weak":  # worse on average, erratic item by item
            scores[f"W{j + 1}"] = u - 1 + 2 * e
        else:  # "close": as good as A and B, as steady
            scores[f"W{j + 1}"] = u + SHIFT / 2 + 0.5 * e
    sim, item = np.meshgrid(np.arange(n_sims), np.arange(N_ITEMS), indexing="ij")
    frames = [
        pd.DataFrame(
            {"sim": sim.ravel(), "item": item.ravel(), "system": name, "score": s.ravel()}
        )
        for name, s in scores.items()
    ]
    return pd.concat(frames, ignore_index=True)


def pair_pvalues(df: pd.DataFrame, k: int) -> dict[str, np.ndarray]:
    common = dict(item="item", system="system", score="score", by="sim", n_resamples=B)

    def pick(frame: pd.DataFrame) -> np.ndarray:
        # the adjusted p-value where the call adjusts (bootstrap with adjust=)
        column = "pvalue_adjusted" if "pvalue_adjusted" in frame.columns else "pvalue"
        rows = frame[(frame.system_a == "A") & (frame.system_b == "B")]
        return rows.sort_values("sim")[column].to_numpy()

    out = {
        "Tukey HSD, all pairs": pick(df.paired.tukey_hsd(**common, rng=SEED * 100 + k)),
        'Tukey HSD, baseline="A"': pick(
            df.paired.tukey_hsd(**common, baseline="A", rng=SEED * 100 + k)
        ),
        'bootstrap, baseline="A", Holm': pick(
            df.paired.bootstrap(**common, baseline="A", adjust="holm", rng=SEED * 100 + k)
        ),
        "bootstrap, the planned pair alone": pick(
            df.paired.bootstrap(**common, systems=["A", "B"], rng=SEED * 100 + k)
        ),
    }
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-sims", type=int, default=400)
    args = parser.parse_args(argv)
    drawn = draw(args.n_sims)
    for extra, title in (
        ("weak", "k weak, noisy systems W = u - 1 + N(0, 2^2)"),
        ("close", "k systems as good and as steady as the pair, W = u + 0.1 + N(0, 0.5^2)"),
    ):
        power: dict[str, list[str]] = {}
        for k in KS:
            pvalues = pair_pvalues(simulate(k, extra, drawn), k)
            for rule, p in pvalues.items():
                assert len(p) == args.n_sims, (rule, len(p))
                cell = f"{np.mean(p < 0.05):.3f} ({np.median(p):.3f})"
                power.setdefault(rule, []).append(cell)
        print(f"Power at 0.05 of the pair (A, B) (median p-value), {args.n_sims} data sets per k;")
        print(f"{title}")
        print()
        print("| rule | " + " | ".join(f"k = {k}" for k in KS) + " |")
        print("|---|" + "---|" * len(KS))
        for rule, cells in power.items():
            print(f"| {rule} | " + " | ".join(cells) + " |")
        print()


if __name__ == "__main__":
    main()
