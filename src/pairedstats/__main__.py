"""``python -m pairedstats``: a real comparison on the bundled example data.

With a method (``python -m pairedstats bootstrap FILE ...``) it is the ``pairedstats``
command line (:mod:`pairedstats.cli`). Without one it prints three tables: paired bootstrap
intervals of each run against the BM25 baseline per collection, the randomized Tukey HSD
across all runs, and the rank-sum test with the Hodges-Lehmann shift on the social-influence
survey.

The calls are the README's snippet, seed and all, so every number printed here can be matched
to the README.
"""

from __future__ import annotations

import argparse
import sys
import textwrap


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


#: The help of ``python -m pairedstats`` (plain words; the commands' lines are added).
DESCRIPTION = """\
Without a command: a real comparison on the bundled example data, three tables (paired
bootstrap intervals of each run against the BM25 baseline per collection, the randomized
Tukey HSD across all runs, the rank-sum test with the Hodges-Lehmann shift on a survey), the
calls and numbers of the README's first example. With a command: the pairedstats command
line, one command per method, on a CSV, Parquet or trec_eval file."""


def _commands_text() -> str:
    """One line per command: its name and the first sentence of its summary."""
    from . import cli

    rows = cli.command_lines()
    width = max(len(name) for name, _ in rows)
    lines = [textwrap.fill(summary, 88, initial_indent=f"  {name:<{width}}  ",
                           subsequent_indent=" " * (width + 4), break_on_hyphens=False)
             for name, summary in rows]  # fmt: skip
    return "\n".join(["commands (python -m pairedstats COMMAND -h for its options):", *lines])


def main(argv: list[str] | None = None) -> int:
    from . import cli

    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and (not argv[0].startswith("-") or argv[0] == "--version"):
        return cli.main(argv)  # a command, or a misspelled one (which gets a suggestion)
    parser = argparse.ArgumentParser(
        prog="python -m pairedstats",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=_commands_text(),
    )
    parser.add_argument("--n-resamples", type=int, default=10_000, metavar="N",
                        help="the demo's bootstrap resamples and Tukey HSD trials "
                             "(default: 10000)")  # fmt: skip
    parser.add_argument(
        "--rng", type=int, default=2026, metavar="SEED", help="the demo's seed (default: 2026)"
    )
    args = parser.parse_args(argv)
    return cli.emit(demo(args.n_resamples, args.rng))


if __name__ == "__main__":
    sys.exit(main())
