"""The corrected t-test on real cross-validation (``validation/calibration_cv.py``, which needs
scikit-learn; its committed results are read here): the table of docs/cv_ttest.md is the
committed study, the corrected test holds its level, and the plain test does not where the
folds' differences share their training data."""

import importlib.util
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "validation" / "results" / "cv_size.csv"


def _study():
    spec = importlib.util.spec_from_file_location("calibration_cv", ROOT / "validation" /
                                                  "calibration_cv.py")  # fmt: skip
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_docs_table_is_the_committed_study():
    text = (ROOT / "docs" / "cv_ttest.md").read_text(encoding="utf-8")
    section = text[text.index("## Calibration on real cross-validation") :]
    assert _study().report(RESULTS) in section


def test_the_committed_study_is_complete():
    study = pd.read_csv(RESULTS)
    assert len(study) == 4
    cells = {(d, n) for d in ("breast_cancer", "digits") for n in ("two learners", "two seeds")}
    assert set(zip(study["dataset"], study["null"])) == cells
    assert (study["n_sims"] >= 500).all()
    se = np.sqrt(study["size_corrected"] * (1 - study["size_corrected"]) / study["n_sims"])
    np.testing.assert_allclose(study["se_corrected"], se, rtol=1e-12)
    # the population differences are known far better than one replicate's mean difference
    learners = study[study["null"] == "two learners"]
    assert (learners["delta_se"] < 0.001).all()
    assert (learners["delta_se"] < 0.1 * learners["sd_mean_difference"]).all()


def test_the_corrected_test_holds_its_level_and_the_plain_one_does_not():
    study = pd.read_csv(RESULTS).set_index(["dataset", "null"])
    se = np.sqrt(0.05 * 0.95 / study["n_sims"])  # at the target
    # every cell: the corrected size within 3 standard errors of 0.05 or below it
    assert (study["size_corrected"] <= 0.05 + 3 * se).all()
    assert (study["size_uncorrected"] > study["size_corrected"]).all()
    learners = study.xs("two learners", level="null")
    # two learners share their training data's effects across folds: the plain test fails
    assert (learners["size_uncorrected"] > 0.05 + 3 * se.xs("two learners", level="null")).all()
    assert (learners["size_uncorrected"] > 0.4).all()
    # two seeds: independent folds, the plain test is right and the corrected one never rejects
    seeds = study.xs("two seeds", level="null")
    assert (abs(seeds["size_uncorrected"] - 0.05) <= 3 * se.xs("two seeds", level="null")).all()
    assert (seeds["size_corrected"] == 0).all()
    # the variance of a replicate's mean difference as a multiple of s^2: 1/n for
    # independent folds (two seeds), between the plain 0.01 and twice the correction's
    # 0.121 for two learners
    ratio = study["sd_mean_difference"] ** 2 / study["mean_fold_variance"]
    np.testing.assert_allclose(ratio.xs("two seeds", level="null"), 0.01, rtol=0.15)
    assert ratio.xs("two learners", level="null").between(0.05, 0.25).all()
