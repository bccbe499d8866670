"""The model confidence set of ``arch`` (``arch.bootstrap.MCS``, Kevin Sheppard's), which
pairedstats' ``mcs`` is checked against; writes ``reference.json`` beside this script.

Not a dependency of pairedstats: ``pip install arch`` to re-run it
(``python tests/reference/mcs/make_reference.py``). The versions used are recorded in the
JSON.

Two kinds of cases, all with an independent (iid) bootstrap of the items: ``arch``'s
circular block bootstrap with blocks of length 1, which draws each resample's items
independently and uniformly, as pairedstats' bootstrap does without clusters or strata.

* ``monte_carlo``: losses of several designs, and ``arch``'s MCS p-values (``"max"`` and
  ``"R"``) from ``REPS`` resamples, many, so that its Monte Carlo error is small; the test
  runs pairedstats' ``mcs`` with its own draws and compares within Monte Carlo error.
* ``same_draws``: a small design with ``arch``'s own resampled indices (``REPS_SMALL`` of
  them) and its p-values; the test hands those very draws to
  :func:`pairedstats.core.mcs.model_confidence_set`, which must give the same p-values.
"""

from __future__ import annotations

import json
import platform
from pathlib import Path

import arch
import numpy as np
from arch.bootstrap import MCS

OUT = Path(__file__).with_name("reference.json")
REPS = 100_000
REPS_SMALL = 500
METHODS = ("max", "R")


def _losses(seed: int, n: int, means, item_sd=1.0, noise_sd=1.0, df=None) -> np.ndarray:
    """Losses (items, systems): an item effect shared by all systems, each system's mean,
    and noise (normal, or Student t with ``df`` degrees of freedom)."""
    rng = np.random.default_rng(seed)
    p = len(means)
    noise = rng.standard_t(df, size=(n, p)) if df else rng.normal(size=(n, p))
    return item_sd * rng.normal(size=(n, 1)) + np.asarray(means) + noise_sd * noise


CASES = {
    "five-spread": dict(seed=1, n=60, means=[0.0, 0.05, 0.25, 0.45, 0.8]),
    "four-close": dict(seed=2, n=40, means=[0.0, 0.1, 0.15, 0.6], noise_sd=0.8),
    "six-heavy-tails": dict(seed=3, n=100, means=[0.0, 0.0, 0.2, 0.3, 0.35, 0.9], df=4),
    "three-equal": dict(seed=4, n=50, means=[0.0, 0.0, 0.0]),
}


def _arch(losses: np.ndarray, method: str, reps: int, seed: int) -> MCS:
    mcs = MCS(losses, size=0.1, reps=reps, block_size=1, method=method, bootstrap="cbb",
              seed=seed)  # fmt: skip
    mcs.compute()
    return mcs


def _pvalues(mcs: MCS, p: int) -> list[float]:
    """The MCS p-value of each system, in column order."""
    found = mcs.pvalues["Pvalue"]
    return [float(found.loc[j]) for j in range(p)]


def main() -> None:
    monte_carlo = {}
    for name, case in CASES.items():
        losses = _losses(**case)
        entry = {"losses": losses.tolist(), "reps": REPS}
        for k, method in enumerate(METHODS):
            mcs = _arch(losses, method, REPS, seed=100 + k)
            entry[method] = _pvalues(mcs, losses.shape[1])
        monte_carlo[name] = entry
    small = _losses(seed=5, n=30, means=[0.0, 0.2, 0.3, 0.7])
    same = {"losses": small.tolist()}
    for k, method in enumerate(METHODS):
        mcs = _arch(small, method, REPS_SMALL, seed=200 + k)
        same[method] = {
            "indices": [idx.tolist() for idx in mcs._bootstrap_indices],
            "pvalue": _pvalues(mcs, small.shape[1]),
        }
    versions = {"arch": arch.__version__, "numpy": np.__version__,
                "python": platform.python_version()}  # fmt: skip
    OUT.write_text(json.dumps({"versions": versions, "monte_carlo": monte_carlo,
                               "same_draws": same}) + "\n")  # fmt: skip
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
