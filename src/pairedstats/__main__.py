"""``python -m pairedstats``: a real comparison on the bundled example data.

With a method (``python -m pairedstats bootstrap FILE ...``) it is the ``pairedstats``
command line (:mod:`pairedstats.cli`). Without one it prints three tables: paired bootstrap
intervals of each run against the BM25 baseline per collection, the randomized Tukey HSD
across all runs, and the rank-sum test with the Hodges-Lehmann shift on the social-influence
survey.

The calls are the README's snippet, seed and all (``tests/test_readme.py`` holds them equal), so
every number printed here can be matched to the README.
"""

from __future__ import annotations

import argparse
import sys


def demo(n_resamples: int = 10_000, rng: int = 2026) -> str:
    import pairedstats

    runs = pairedstats.datasets.load_runs()
    ratings = pairedstats.datasets.load_ratings()
    boot = runs.paired.bootstrap(
        item="query", system="run", score="ndcg", baseline="bm25", by="collection",
        n_resamples=n_resamples, rng=rng, as_result=True,
    )  # fmt: skip
    hsd = runs.paired.tukey_hsd(
        item="query", system="run", score="p10", by="collection",
        n_resamples=n_resamples, rng=rng, as_result=True,
    )  # fmt: skip
    rank = ratings.paired.ranksum(
        score="deviation", group="changed", a="unchanged", b="changed", as_result=True
    )
    return "\n".join([
        "Paired bootstrap, nDCG@10, each run minus bm25, per collection", str(boot), "",
        "Randomized Tukey HSD, P@10 (0.1 grid: ties counted exactly)", str(hsd), "",
        "Rank-sum: |final - median seen|, changed minus unchanged", str(rank),
    ])  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    from . import cli

    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] in (*cli.COMMANDS, cli.COMPARE, "--version"):
        return cli.main(argv)
    parser = argparse.ArgumentParser(
        prog="python -m pairedstats",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=f"Methods: python -m pairedstats {{{','.join(cli.COMMANDS)}}} -h",
    )
    parser.add_argument("--n-resamples", type=int, default=10_000)
    parser.add_argument("--rng", type=int, default=2026, help="seed (default 2026)")
    args = parser.parse_args(argv)
    return cli.emit(demo(args.n_resamples, args.rng))


if __name__ == "__main__":
    sys.exit(main())
