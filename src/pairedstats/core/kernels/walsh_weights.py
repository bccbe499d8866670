"""The weighted Walsh sums of the Bayesian signed-rank test's posterior samples, one sample
(a row of Dirichlet weights) at a time (:func:`pairedstats.core.bayes_signrank`).

For the points sorted ascending, the points ``j`` whose sum with point ``i`` lies beyond an
edge are the last ones of the order, how many given by ``counts`` (those strictly beyond,
those at least on it); a sample's ``sum_i w_i sum_j H_ij w_j`` is then one pass for the
running sums of its weights and one for the total, in a fixed order of additions.
"""

from __future__ import annotations

import numba
import numpy as np

_njit = numba.njit(cache=True, nogil=True, no_cfunc_wrapper=True)


@_njit
def beyond(w, order, above, at_or_above, out):  # pragma: no cover  (tested through the core)
    """``out[r] = sum_i w[r, o_i] (S_r - (P_r[m - above_i] + P_r[m - at_or_above_i]) / 2)``
    with ``o = order``, ``P_r`` the running sums of row ``r``'s weights in that order
    (``P_r[0] = 0``) and ``S_r = P_r[m]``: the mass of the pairs beyond the edge, those on
    it counted half."""
    rows, m = w.shape
    prefix = np.empty(m + 1)
    for r in range(rows):
        prefix[0] = 0.0
        for k in range(m):
            prefix[k + 1] = prefix[k] + w[r, order[k]]
        total = prefix[m]
        acc = 0.0
        for k in range(m):
            inner = total - 0.5 * (prefix[m - above[k]] + prefix[m - at_or_above[k]])
            acc += w[r, order[k]] * inner
        out[r] = acc
