"""The power study of docs/tukey_hsd.md (*Power as systems are added*,
``validation/tukey_power.py``): a small rerun keeps its reading, and the committed table is the
one in the guide."""

import importlib.util
import re
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]


def _study():
    spec = importlib.util.spec_from_file_location(
        "tukey_power", ROOT / "validation/tukey_power.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow  # a power simulation
def test_weak_noisy_systems_take_the_tukey_power_and_not_the_bootstraps():
    study = _study()
    drawn = study.draw(60)
    alone = study.pair_pvalues(study.simulate(0, "weak", drawn), 0)
    weak = study.pair_pvalues(study.simulate(2, "weak", drawn), 2)
    close = study.pair_pvalues(study.simulate(4, "close", drawn), 4)
    power = {rule: np.mean(p < 0.05) for rule, p in alone.items()}
    assert all(0.6 < v < 0.95 for v in power.values()), power
    # two weak, noisy systems: no power left to either Tukey HSD, the bootstrap unmoved
    assert np.mean(weak["Tukey HSD, all pairs"] < 0.05) < 0.05
    assert np.mean(weak['Tukey HSD, baseline="A"'] < 0.05) < 0.05
    assert np.mean(weak["bootstrap, the planned pair alone"] < 0.05) > 0.6
    # comparable systems: the many-vs-one p-value is never above the all-pairs one (same trials)
    assert np.all(close['Tukey HSD, baseline="A"'] <= close["Tukey HSD, all pairs"])


def test_the_guide_shows_the_committed_study():
    committed = (ROOT / "validation/results/tukey_power.md").read_text(encoding="utf-8")
    guide = (ROOT / "docs/tukey_hsd.md").read_text(encoding="utf-8")
    rows = [line for line in committed.splitlines() if line.startswith("| ")]
    assert len(rows) == 10
    for row in rows:
        cells = re.findall(r"\d\.\d{3} \(\d\.\d{3}\)", row)
        if cells:
            assert " | ".join(cells) in guide, row
