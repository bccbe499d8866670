"""The simulated size of McNemar's ``margin`` test of non-inferiority with items in clusters
(Tango's score test with the Rao-Scott design effect), reported in docs/mcnemar.md.

Run from the repository root (about a minute):
    python tests/reference/mcnemar/margin_clustered_size.py
Writes margin_clustered_size.json next to this script (tests/test_mcnemar_margin.py checks
the docs' numbers against it).

Each replicate has n items in clusters of 5. Every item is discordant with probability
``discordance``; within cluster k a discordant item goes b's way with probability theta_k ~
Beta(kappa theta0, kappa (1 - theta0)), theta0 = (discordance - m) / (2 discordance), so that
b - a = -m exactly (the null's boundary of non-inferiority) while clusters differ in which
system they favour (a smaller kappa: more heterogeneous clusters; kappa = inf: none). The
size is the share of replicates whose pvalue_noninferiority (alternative "greater") is below
0.05, with cluster= (Rao-Scott) and ignoring the clusters, from the same replicates, computed
by the function the method runs on each group (pairedstats.core.mcnemar_pairs, every
replicate a pair of columns). Monte Carlo standard error about 0.002 at 10,000 replicates.
"""

import json
from pathlib import Path

import numpy as np
import scipy

import pairedstats
from pairedstats.core.mcnemar_pairs import mcnemar_pairs

HERE = Path(__file__).parent
ALPHA, MARGIN, DISCORDANCE, SIZE = 0.05, 0.1, 0.3, 5
N_ITEMS = (100, 300)
KAPPAS = (None, 10.0, 2.0)  # None: no clustering (theta_k = theta0)
REPS, CHUNK = 10_000, 1_000


def replicates(rng, n, kappa, reps):
    """``reps`` tables of n items as an n x 2 reps array (a, b of each replicate side by
    side), and the items' cluster labels."""
    clusters = np.arange(n) // SIZE
    theta0 = (DISCORDANCE - MARGIN) / (2 * DISCORDANCE)
    c = clusters.max() + 1
    if kappa is None:
        theta = np.full((reps, c), theta0)
    else:
        theta = rng.beta(kappa * theta0, kappa * (1 - theta0), size=(reps, c))
    u = rng.random((reps, n))
    discordant = u < DISCORDANCE
    to_b = rng.random((reps, n)) < theta[:, clusters]
    both = rng.random((reps, n)) < 0.5  # the concordant items: both right or both wrong
    a = np.where(discordant, ~to_b, both)
    b = np.where(discordant, to_b, both)
    x = np.empty((n, 2 * reps))
    x[:, 0::2], x[:, 1::2] = a.T, b.T
    return x, clusters


def main():
    rng = np.random.default_rng(20261207)
    rows = []
    for n in N_ITEMS:
        for kappa in KAPPAS:
            hits = {"clustered": 0, "ignored": 0}
            effects = []
            for _ in range(REPS // CHUNK):
                x, clusters = replicates(rng, n, kappa, CHUNK)
                pairs = np.column_stack([np.arange(0, 2 * CHUNK, 2), np.arange(1, 2 * CHUNK, 2)])
                for name, cluster, method in (
                    ("clustered", clusters, "asymptotic"),
                    ("ignored", None, "exact"),
                ):
                    r = mcnemar_pairs(
                        x,
                        pairs,
                        method=method,
                        alternative="greater",
                        cluster=cluster,
                        checked=True,
                        margin=MARGIN,
                    )
                    p = r.p_above
                    hits[name] += int(np.sum(p < ALPHA))
                    if cluster is not None:
                        effects.append(r.design_effect)
            rows.append(
                {
                    "n_items": n,
                    "n_clusters": n // SIZE,
                    "kappa": kappa,
                    "size_clustered": hits["clustered"] / REPS,
                    "size_ignoring_clusters": hits["ignored"] / REPS,
                    "mean_design_effect": float(np.mean(np.concatenate(effects))),
                }
            )
            print(rows[-1])
    out = {
        "source": "tests/reference/mcnemar/margin_clustered_size.py (simulation)",
        "alpha": ALPHA,
        "margin": MARGIN,
        "discordance": DISCORDANCE,
        "cluster_size": SIZE,
        "replicates": REPS,
        "versions": {
            "pairedstats": pairedstats.__version__,
            "numpy": np.__version__,
            "scipy": scipy.__version__,
        },
        "rows": rows,
    }
    (HERE / "margin_clustered_size.json").write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
