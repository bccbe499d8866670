"""TREC run files compared, against ``ranx``, for ``run_all.py`` (and standalone).

The same files on both sides: a qrels file with graded judgements and ``p`` run files of
100 ranked documents per query (written once into a temporary folder). Peer: ``ranx``
reads them (``Qrels.from_file``, ``Run.from_file``) and ``ranx.compare`` computes nDCG@10 and
Fisher's randomization test of every pair (``n_permutations`` resamples, its default 1,000);
pairedstats: ``pairedstats compare tukey-hsd`` (in the same process, through
``pairedstats.cli.main``) reads them, computes nDCG@10 with ir_measures and runs the
randomized Tukey HSD test of all pairs with as many resamples. Both do the work end to end:
parse, evaluate, test every pair, format the table.

Run standalone: ``python benchmark/compare_cases.py [--quick]`` times the two in turn.
"""

from __future__ import annotations

import contextlib
import io
import sys
import tempfile
from pathlib import Path

import numpy as np


def write_files(folder: Path, n_queries: int, n_runs: int, depth: int = 100) -> tuple:
    """Qrels and ``n_runs`` runs of ``depth`` documents per query; returns (qrels, runs)."""
    gen = np.random.default_rng(5)
    pool = 3 * depth
    rel = np.where(gen.random((n_queries, pool)) < 0.1, gen.integers(1, 4, (n_queries, pool)), 0)
    qrels = folder / "qrels.txt"
    with qrels.open("w") as f:
        for q in range(n_queries):
            for d in np.flatnonzero(rel[q] > 0):
                f.write(f"{100 + q} 0 d{d} {rel[q, d]}\n")
    runs = []
    for r in gen.permutation(n_runs):  # named in no sorted order
        path = folder / f"run{r:02d}.run"
        skill = 0.2 + 0.1 * r
        with path.open("w") as f:
            for q in range(n_queries):
                score = skill * rel[q] + gen.normal(size=pool)
                top = np.argsort(-score)[:depth]
                for rank, d in enumerate(top, 1):
                    f.write(f"{100 + q} Q0 d{d} {rank} {score[d]:.6f} run{r:02d}\n")
        runs.append(path)
    return qrels, runs


def ranx_call(qrels: Path, runs: list, n_resamples: int):
    """ranx's comparison of the run files, as a zero-argument call."""
    from ranx import Qrels, Run, compare

    def call():
        q = Qrels.from_file(str(qrels), kind="trec")
        loaded = [Run.from_file(str(p), kind="trec", name=p.stem) for p in runs]
        return compare(q, loaded, metrics=["ndcg@10"], stat_test="fisher",
                       n_permutations=n_resamples, max_p=0.05, make_comparable=True)  # fmt: skip

    return call


def ours_call(qrels: Path, runs: list, n_resamples: int):
    """``pairedstats compare tukey-hsd`` on the run files, as a zero-argument call."""
    from pairedstats import cli

    argv = ["compare", "tukey-hsd", *map(str, runs), "--qrels", str(qrels), "--measure",
            "nDCG@10", "--n-resamples", str(n_resamples), "--rng", "1"]  # fmt: skip

    def call():
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            return cli.main(argv)

    return call


def _files(n_queries: int, n_runs: int) -> tuple:
    folder = Path(tempfile.mkdtemp(prefix="pairedstats-compare-"))
    return write_files(folder, n_queries, n_runs)


#: What ``run_all.py`` reads of this module (``run_all._case_modules`` tells the format).
SIZES = {"quick": {"compare": (50, 3, 1_000)}, "full": {"compare": (250, 8, 1_000)}}
HEADLINES = (("ranx / pairedstats (timed in turn)", "compare_ranx", "compare_ours", 3.0, False),)
PEER = "ranx's `compare` of TREC run files"


def add_cases(add, sizes: dict) -> None:
    """The run-file cases, through ``run_all``'s ``add``."""
    n_queries, n_runs, n_res = sizes["compare"]
    group = (f"TREC runs: {n_runs} run files x {n_queries:,} queries x 100 documents, nDCG@10, "
             f"all pairs, {n_res:,} resamples")  # fmt: skip
    add("compare_ranx", group, 'ranx.compare(stat_test="fisher") from the files',
        lambda: (ranx_call(*_files(n_queries, n_runs), n_res), None), True, None)  # fmt: skip
    add("compare_ours", group, "pairedstats compare tukey-hsd (ir_measures) from the files",
        lambda: (ours_call(*_files(n_queries, n_runs), n_res), None), True,
        "compare_ranx")  # fmt: skip


def main(quick: bool) -> None:
    from timing import interleaved

    n_queries, n_runs, n_res = (50, 3, 1_000) if quick else (250, 8, 1_000)
    qrels, runs = _files(n_queries, n_runs)
    interleaved(f"compare {n_runs} runs x {n_queries} queries, {n_res} resamples",
                {"ranx": ranx_call(qrels, runs, n_res),
                 "pairedstats": ours_call(qrels, runs, n_res)})  # fmt: skip


if __name__ == "__main__":
    main("--quick" in sys.argv)
