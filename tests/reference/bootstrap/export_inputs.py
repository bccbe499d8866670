"""Write the inputs of make_reference.R: data and the resample index matrices.

The index matrices are pairedstats' own draws (``resample_indices``), exported so that R
computes the replicates, jackknife and intervals from exactly the same resamples.
Run from the repository root: ``python tests/reference/bootstrap/export_inputs.py``,
then ``Rscript tests/reference/bootstrap/make_reference.R``.
"""

from pathlib import Path

import numpy as np

from pairedstats.core.bootstrap import LABEL, resample_indices

HERE = Path(__file__).parent
ROOT = 20240607
B = 2000


def main():
    gen = np.random.Generator(np.random.PCG64(11))
    n = 30
    a = gen.gamma(2.0, 1.0, n)
    b = a + gen.normal(0.3, 0.8, n) + 0.2 * gen.gamma(1.0, 1.0, n)
    strata = np.repeat([0, 1, 2], [8, 10, 12])
    sizes = np.array([1, 2, 3, 4, 2, 1, 3, 2, 4, 3, 2, 3])  # 12 clusters, 30 items
    cluster = np.repeat(np.arange(12), sizes)
    # clusters within strata: clusters 0-3 in stratum 0 (10 items), 4-7 (8), 8-11 (12)
    cl_strata = np.repeat([0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2], sizes)
    # unequal numbers of clusters: 3 (6 items), 4 (10 items) and 5 (14 items)
    unequal = np.repeat([0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2], sizes)
    np.savetxt(
        HERE / "data.csv",
        np.column_stack([a, b, strata, cluster, cl_strata, unequal]),
        delimiter=",",
        header="a,b,stratum,cluster,cluster_stratum,cluster_stratum_unequal",
        comments="",
        fmt=["%.17g", "%.17g", "%d", "%d", "%d", "%d"],
    )
    write = lambda name, m: np.savetxt(HERE / name, m, delimiter=",", fmt="%d")
    write("idx_items.csv", resample_indices(ROOT, [LABEL, ()], n, B))
    for h, size in enumerate([8, 10, 12]):
        write(f"idx_stratum{h}.csv", resample_indices(ROOT, [LABEL, (), h], size, B))
    write("idx_clusters.csv", resample_indices(ROOT, [LABEL, ()], 12, B))
    for h in range(3):
        write(f"idx_clstratum{h}.csv", resample_indices(ROOT, [LABEL, (), h], 4, B))
    for h, size in enumerate([3, 4, 5]):
        write(f"idx_unequal{h}.csv", resample_indices(ROOT, [LABEL, (), h], size, B))


if __name__ == "__main__":
    main()
