"""The interval of one system's pass rate: Wilson's score interval, with the exact
(Clopper-Pearson) bound where a system passes or fails every item.

Wilson (1927) inverts the score test of a binomial proportion: at ``x`` passes of ``n`` and
``z = z_{1 - alpha / 2}``,

    centre = (x + z^2 / 2) / (n + z^2),
    half = z sqrt(x (n - x) / n + z^2 / 4) / (n + z^2).

It keeps its coverage nearer the nominal level at small ``n`` than the Wald interval
``p +- z sqrt(p (1 - p) / n)``, though it dips near rates of 0 and 1 (at 95%, 0.837 at
``n = 11``, by exact enumeration in ``validation/mcnemar_enumeration.py``), and unlike Wald
it is not a point at 0% or 100% (Brown, Cai and DasGupta 2001, Statistical Science
16:101-133, recommend it). At ``x = 0``
and ``x = n`` its open end is replaced by the exact bound of Clopper and Pearson (1934),
``1 - (alpha / 2)^(1 / n)`` and ``(alpha / 2)^(1 / n)``, which guarantees the level there
(the Wilson end is ``z^2 / (n + z^2)``, slightly narrower); the closed end stays 0 or 1.

This module imports numpy and scipy only.
"""

from __future__ import annotations

import numpy as np
from scipy import special

__all__ = ["rate_interval"]


def rate_interval(passes, n, confidence_level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Two-sided interval of a pass rate ``passes / n`` at ``confidence_level``.

    Parameters
    ----------
    passes, n : array_like of int
        Items passed and items scored (``0 <= passes <= n``, ``n >= 1``), broadcast together.
    confidence_level : float
        In (0, 1).

    Returns
    -------
    low, high : ndarray of float
        Wilson's score interval; at ``passes = 0`` the upper end, at ``passes = n`` the lower
        end, is Clopper and Pearson's exact bound.

    Examples
    --------
    >>> low, high = rate_interval([8, 0, 20], [20, 20, 20])
    >>> [round(float(v), 4) for v in low], [round(float(v), 4) for v in high]
    ([0.2188, 0.0, 0.8316], [0.6134, 0.1684, 1.0])
    """
    x = np.asarray(passes, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    x, n = np.broadcast_arrays(x, n)
    alpha = 1.0 - confidence_level
    z = float(special.ndtri(1.0 - alpha / 2.0))
    z2 = z * z
    centre = (x + z2 / 2.0) / (n + z2)
    half = z * np.sqrt(x * (n - x) / n + z2 / 4.0) / (n + z2)
    low, high = centre - half, centre + half
    exact = (alpha / 2.0) ** (1.0 / n)  # Clopper-Pearson at 0 passes (1 - it) and at n
    low = np.where(x == n, exact, np.where(x == 0, 0.0, low))
    high = np.where(x == 0, 1.0 - exact, np.where(x == n, 1.0, high))
    return low, high
