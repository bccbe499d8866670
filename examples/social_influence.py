"""Social influence bias, the seed's procedure on simulated ratings.

Each participant sees the median ``m`` of the ratings given before them, gives a rating
``g_i``, may then change it to ``g_f``; changed ratings move part of the way toward the
median they saw (the bias we look for). Ratings are integers 0..10 (a slider), so there are
many ties. We compare the absolute deviations ``|m - g_f|`` of the participants who changed
(b) with those who did not (a): b - a < 0 means the changers end up closer to the median.

Run: ``python examples/social_influence.py``
"""

import numpy as np

from pairedstats import ranksum

rng = np.random.default_rng(2024)
n_participants = 120
ratings = []
seen_median, final, changed = [], [], []
for _ in range(n_participants):
    m = float(np.median(ratings)) if ratings else 5.0
    initial = int(np.clip(np.rint(rng.normal(5.5, 2.5)), 0, 10))
    change = rng.random() < 0.35
    g_f = int(np.rint(initial + 0.5 * (m - initial))) if change else initial
    ratings.append(g_f)
    seen_median.append(m)
    final.append(g_f)
    changed.append(change)

seen_median, final, changed = map(np.asarray, (seen_median, final, changed))
deviation = np.abs(seen_median - final)
x_n, x_c = deviation[~changed], deviation[changed]
print(f"unchanged: {x_n.size} participants, changed: {x_c.size}")
res = ranksum(x_n, x_c, alternative="less")
cols = ["n_a", "n_b", "u_a", "z", "pvalue", "shift", "ci_low", "ci_high", "rank_biserial"]
frame = res.to_dataframe()
print(frame[["method", *cols]].to_string(index=False))
