"""The run skeleton's progress bar (pairedstats.methods._shared.runs.ProgressBar) on every
method."""

import sys

import numpy as np
import pandas as pd
import pytest
from tests.data import unsorted_runs

import pairedstats
from pairedstats._validation import check_progress

pytest.importorskip("tqdm")


@pytest.fixture(scope="module")
def runs():
    return unsorted_runs()


def _calls(runs):
    tidy = dict(item="query", system="run", score="ndcg", by="collection", rng=1)
    ratings = pairedstats.datasets.load_ratings()
    grouped = pd.concat([ratings.assign(block=k) for k in ("x", "y", "z")])
    rank = dict(score="deviation", group="changed", a="unchanged", b="changed", by="block")
    return {
        "bootstrap": (lambda **kw: runs.paired.bootstrap(**tidy, n_resamples=300, **kw), "2/2"),
        "bootstrap-bca": (
            lambda **kw: runs.paired.bootstrap(**tidy, method="bca", n_resamples=300, **kw),
            "2/2",
        ),
        "tukey_hsd": (
            lambda **kw: runs.paired.tukey_hsd(**tidy, n_resamples=2048, every=512, **kw),
            "2048/2048",
        ),
        "ranksum": (lambda **kw: grouped.paired.ranksum(**rank, **kw), "3/3"),
    }


@pytest.mark.parametrize("name", ["bootstrap", "bootstrap-bca", "tukey_hsd", "ranksum"])
def test_progress_is_shown_and_changes_no_number(runs, name, capsys):
    call, done = _calls(runs)[name]
    quiet = call()
    capsys.readouterr()
    shown = call(progress=True)
    err = capsys.readouterr().err
    assert done in err
    assert "100%" in err
    pd.testing.assert_frame_equal(shown, quiet)


def test_progress_is_checked(monkeypatch):
    assert check_progress(np.bool_(True)) is True
    with pytest.raises(TypeError, match="`progress` must be True or False; got 'yes'"):
        check_progress("yes")
    monkeypatch.setitem(sys.modules, "tqdm", None)
    with pytest.raises(ImportError, match=r"pip install pairedstats\[progress\]"):
        pairedstats.bootstrap(np.zeros((5, 2)), progress=True)
    assert check_progress(False) is False


def test_the_report_shows_the_progress_of_each_metric(runs, capsys):
    kw = dict(item="query", system="run", score=["ndcg", "p10"], baseline="bm25", rng=1)
    report = runs.paired.report(**kw, n_resamples=200, progress=True)
    err = capsys.readouterr().err
    assert err.count("1/1") == 2  # one bar per metric, one group each
    quiet = runs.paired.report(**kw, n_resamples=200)
    pd.testing.assert_frame_equal(report.to_frame(), quiet.to_frame())
