"""Reference values of Tango's (1998) score test of a paired difference of rates at a
margin, from first principles: the restricted maximum-likelihood estimate by numerical
maximisation of the multinomial log-likelihood (scipy.optimize), then the efficient score
statistic from the score vector and the expected Fisher information of the multinomial.

Run from the repository root (a few seconds):
    python tests/reference/mcnemar/margin_restricted_mle.py
Writes margin_restricted_mle.json next to this script (read by tests/test_mcnemar_margin.py).

Nothing here uses Tango's closed-form root or pairedstats.

The model. Each item falls in one of three cells: only a right (count y, probability
pi_a), only b right (count x, probability pi_b), concordant (count n - x - y, probability
1 - pi_a - pi_b). The parameter of interest is delta = pi_b - pi_a. Under H: delta =
delta0 the free parameter is the smaller discordant probability s (pi_a = s when delta0 > 0,
pi_b = s when delta0 < 0; the larger is s + |delta0|), in [0, (1 - |delta0|) / 2].

1. The restricted MLE s~ maximises the log-likelihood over that interval
   (scipy.optimize.minimize_scalar, bounded, then polished by scipy.optimize.brentq on the
   derivative of the log-likelihood inside the bracket it found). It lies on a bound only
   when a count is 0 and the derivative there points outward (checked, not assumed).
2. With theta = (delta, s), the score U = sum_cells count * d pi / d theta / pi and the
   expected information I = n sum_cells (d pi / d theta)(d pi / d theta)^T / pi, both at
   (delta0, s~). The efficient score statistic for delta is Z = U_delta / sqrt(I_dd -
   I_ds^2 / I_ss) (U_s = 0 at an interior s~).
3. When s~ is on a face of the simplex (a cell probability 0), the model is the one on that
   face, where delta is the only parameter: Z = U_delta / sqrt(I_dd) with the derivatives
   along the face (the limit of step 2 as the cell's probability goes to 0).

Then p_above = 1 - Phi(Z(-m)) (H0: delta <= -m) and p_below = Phi(Z(m)) (H0: delta >= m).
"""

import json
from pathlib import Path

import numpy as np
import scipy
from scipy import optimize, special

HERE = Path(__file__).parent

#: (n_items, only_a, only_b): zero cells, no discordant item, no concordant item, large n.
TABLES = [
    (44, 1, 0), (44, 0, 1), (32, 9, 3), (32, 3, 9), (86, 8, 16), (21, 1, 7), (161, 16, 6),
    (14, 1, 3), (102, 2, 25), (20, 0, 0), (100, 10, 10), (100, 0, 7), (100, 7, 0),
    (50, 12, 3), (200, 31, 44), (30, 0, 5), (30, 5, 0), (10, 6, 4), (10, 0, 10),
    (1000, 120, 95), (5000, 300, 310), (3, 1, 1), (1, 0, 1),
]  # fmt: skip
MARGINS = [0.01, 0.05, 0.1, 0.2, 0.5, 0.9]


def cells(delta0, s):
    """(pi_a, pi_b, pi_c) at (delta0, s) and their derivatives by delta and by s."""
    d = abs(delta0)
    low, high = s, s + d
    if delta0 > 0:  # pi_a = s, pi_b = s + delta
        p = np.array([low, high, 1 - low - high])
        by_delta = np.array([0.0, 1.0, -1.0])
    else:  # pi_b = s, pi_a = s - delta
        p = np.array([high, low, 1 - low - high])
        by_delta = np.array([-1.0, 0.0, 1.0])
    by_s = np.array([1.0, 1.0, -2.0])
    return p, by_delta, by_s


def loglik(s, counts, delta0):
    p = cells(delta0, s)[0]
    return float(np.sum(special.xlogy(counts, p)))


def dloglik(s, counts, delta0):
    p, _, by_s = cells(delta0, s)
    return float(np.sum(np.where(counts > 0, counts * by_s / np.where(p > 0, p, 1.0), 0.0)))


def restricted_mle(counts, delta0):
    """The s maximising the log-likelihood under delta = delta0, and its face: None
    (interior), "low" (the smaller discordant cell is 0) or "concordant" (the concordant
    cell is 0)."""
    top = (1 - abs(delta0)) / 2
    low_count = counts[0] if delta0 > 0 else counts[1]
    eps = 1e-300
    found = optimize.minimize_scalar(
        lambda s: -loglik(s, counts, delta0), bounds=(eps, top - 1e-15), method="bounded",
        options={"xatol": 1e-14},
    )  # fmt: skip
    s = float(found.x)
    # a bound is the maximiser only when its count is 0 and the slope points outward there
    if low_count == 0 and dloglik(0.0, counts, delta0) <= 0:
        return 0.0, "low"
    if counts[2] == 0 and dloglik(top, counts, delta0) >= 0:
        return top, "concordant"
    # polish: the root of the derivative in a bracket around the maximiser
    width = 1e-6
    lo, hi = max(s - width, eps), min(s + width, top - 1e-16)
    while dloglik(lo, counts, delta0) < 0:
        lo = max(lo - 10 * (s - lo), eps / 2)
    while dloglik(hi, counts, delta0) > 0:
        hi = hi + (top - hi) / 2
    s = optimize.brentq(dloglik, lo, hi, args=(counts, delta0), xtol=1e-300, rtol=1e-15)
    return s, None


def score_statistic(n, only_a, only_b, delta0):
    counts = np.array([only_a, only_b, n - only_a - only_b], dtype=float)
    s, face = restricted_mle(counts, delta0)
    p, by_delta, by_s = cells(delta0, s)
    if face == "concordant":  # along pi_c = 0: pi_b = (1 + delta) / 2, pi_a = (1 - delta) / 2
        by_delta = np.array([-0.5, 0.5, 0.0])
    live = p > 0
    u = np.sum(counts[live] * by_delta[live] / p[live])
    i_dd = n * np.sum(by_delta[live] ** 2 / p[live])
    if face is None:
        i_ds = n * np.sum(by_delta * by_s / p)
        i_ss = n * np.sum(by_s**2 / p)
        info = i_dd - i_ds**2 / i_ss
    else:
        info = i_dd
    pi_a = p[0]
    return float(u / np.sqrt(info)), float(pi_a), face


def main():
    rows = []
    for n, only_a, only_b in TABLES:
        for m in MARGINS:
            z_above, pa_above, face_above = score_statistic(n, only_a, only_b, -m)
            z_below, pa_below, face_below = score_statistic(n, only_a, only_b, m)
            rows.append({
                "n_items": n, "only_a": only_a, "only_b": only_b, "margin": m,
                "z_above": z_above, "z_below": z_below,
                "p_above": float(special.ndtr(-z_above)),
                "p_below": float(special.ndtr(z_below)),
                "pi_a_above": pa_above, "pi_a_below": pa_below,
                "face_above": face_above, "face_below": face_below,
            })  # fmt: skip
    out = {
        "source": "tests/reference/mcnemar/margin_restricted_mle.py (restricted MLE by "
        "scipy.optimize, efficient score statistic from the multinomial's score and "
        "expected information)",
        "versions": {"numpy": np.__version__, "scipy": scipy.__version__},
        "rows": rows,
    }
    (HERE / "margin_restricted_mle.json").write_text(json.dumps(out, indent=1) + "\n")
    print(f"{len(rows)} rows")


if __name__ == "__main__":
    main()
