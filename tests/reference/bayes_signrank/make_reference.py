"""Reference values of the Bayesian signed-rank test from baycomp (1.0.3), written to
``baycomp.json``, which ``tests/test_bayes_signrank.py`` reads (CI does not need baycomp).

baycomp's ``two_on_multiple(x, y, rope)`` (``SignedRankTest``) samples the posterior with
numpy's legacy ``RandomState``, so its numbers agree with pairedstats' within Monte Carlo
error only: each case records the three probabilities (fractions of the samples in which
each is the largest) and the posterior means of ``(p_left, p_rope, p_right)`` of
``NSAMPLES`` samples. Run from the repository's root, with baycomp installed
(``pip download baycomp==1.0.3 --no-deps``, then ``pip install`` the sdist)::

    python tests/reference/bayes_signrank/make_reference.py
"""

from __future__ import annotations

import json
from pathlib import Path

import baycomp
import numpy as np
from baycomp.multiple import SignedRankTest

NSAMPLES = 50_000
HERE = Path(__file__).parent


def cases() -> list[dict]:
    """The inputs: Demšar's (2006) Table 6 (C4.5 against C4.5+m and C4.5+cf), small tables
    with ties and differences on the rope's edge, and random ones."""
    demsar = np.genfromtxt(HERE.parents[2] / "src/pairedstats/data/demsar_table6.csv",
                           delimiter=",", names=True, dtype=None, encoding="utf-8")  # fmt: skip
    names = demsar.dtype.names
    c45, c45m, c45cf = (np.asarray(demsar[n], dtype=float) for n in names[1:4])
    rng = np.random.default_rng(43)
    x8 = np.round(0.8 + rng.normal(0, 0.05, 8), 3)
    y8 = np.round(x8 + rng.normal(0.005, 0.015, 8), 3)
    x20 = rng.normal(0, 1, 20)
    y20 = x20 + rng.normal(0.1, 0.5, 20)
    edge_x = np.array([0.0, 0.0, 0.0, 0.0, 0.0, 0.0])
    edge_y = np.array([0.5, -0.25, 0.25, 1.0, 0.0, 0.75])
    out = []
    for name, x, y, rope, prior in [
        ("demsar_m", c45, c45m, 0.01, 0.5),
        ("demsar_cf", c45, c45cf, 0.01, 0.5),
        ("demsar_m_rope0", c45, c45m, 0.0, 0.5),
        ("small8", x8, y8, 0.01, 0.5),
        ("small8_prior2", x8, y8, 0.005, 2.0),
        ("normal20", x20, y20, 0.2, 0.5),
        ("normal20_rope0", x20, y20, 0.0, 1.0),
        ("edges", edge_x, edge_y, 0.25, 0.5),
    ]:
        out.append(dict(name=name, a=x.tolist(), b=y.tolist(), rope=rope, prior=prior))
    return out


def main() -> None:
    rows = []
    for case in cases():
        x, y = np.array(case["a"]), np.array(case["b"])
        probs = baycomp.two_on_multiple(x, y, case["rope"], prior=case["prior"],
                                        nsamples=NSAMPLES, random_state=1)  # fmt: skip
        sample = SignedRankTest.sample(x, y, case["rope"], prior=case["prior"],
                                       nsamples=NSAMPLES, random_state=1)  # fmt: skip
        rows.append({**case, "probs": [float(p) for p in probs],
                     "means": sample.mean(axis=0).tolist()})  # fmt: skip
    meta = {"baycomp": baycomp.__version__ if hasattr(baycomp, "__version__") else "1.0.3",
            "numpy": np.__version__, "nsamples": NSAMPLES}  # fmt: skip
    text = json.dumps({"meta": meta, "cases": rows}, indent=1)
    (HERE / "baycomp.json").write_text(text + "\n")


if __name__ == "__main__":
    main()
