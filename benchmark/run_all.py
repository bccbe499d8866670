"""All benchmarks in one run: every method against its peers, and the physical limit.

Run: ``python benchmark/run_all.py`` (the sizes of the issues, about 3-4 minutes on the
2-core development machine) or ``--quick`` (small sizes, well under a minute).
``--repeats R`` sets the timed repeats (median reported; default 3, the two scipy bootstrap
runs of the largest size use 2).

Every case runs in its own subprocess (``--case NAME``), so that the peak resident memory
(``resource.getrusage(RUSAGE_SELF).ru_maxrss``, which includes the interpreter and imports)
belongs to that case alone; the table also gives the tracemalloc peak of one call beyond the
data (numpy's buffers are traced). Times are medians of the repeats after one untimed
warm-up call (JIT cache load, thread pool), except the largest scipy bootstrap, which is not
warmed up. Ratios are peer time / our time, both measured in this run. The floor headlines
time the library's case and its floor in turn in one process (at least 9 turns, unless its
module's ``REPEATS`` caps them) and give the median of the turns' ratios.

Peers: ``scipy.stats.bootstrap(paired=True, vectorized=True)``;
``scipy.stats.permutation_test(permutation_type="samples")`` (two systems: Fisher's paired
randomization test, as ``tukey_hsd`` with two systems); the straightforward vectorized numpy
randomized Tukey HSD of ``benchmark/bench_tukey.py`` (``Generator.permuted`` in batches);
``scipy.stats.mannwhitneyu``; the naive Hodges-Lehmann median
``np.median(np.subtract.outer(b, a))``; and the peers of the case modules. The physical
limit: random 64-bit words per second from ``BitGenerator.random_raw`` and bounded integers
per second from ``Generator.integers``; a method drawing one random number per item and
resample cannot be faster than ``draws / rate``.

The case modules are found, not listed: every ``benchmark/*_cases.py``, in name order
(:func:`_case_modules`). Each defines its cases (``add_cases(add, sizes)``) and declares next
to them its sizes, headline figures and goals, memory goals and its peers' line of the page;
a new method's benchmark is one such module, with nothing to edit here. Those with a
``main`` run alone too (``python benchmark/mcs_cases.py --quick``), each timing its calls in
turn.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import json
import os
import platform
import resource
import subprocess
import sys
import textwrap
import time
import tracemalloc
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def _case_modules() -> tuple:
    """The case modules, found: ``benchmark/*_cases.py`` (on the path above), imported in
    name order. Next to its ``add_cases(add, sizes)`` each declares what this script needs:

    * ``SIZES``: ``{"quick": {...}, "full": {...}}``, the sizes its ``add_cases`` reads;
    * ``HEADLINES``: its headline figures, as ``_HEADLINES`` (a goal of None: reported only);
    * ``PEER``: its peers in one line of the page's list of peers (markdown), or None;
    * optionally ``MEMORY`` (peak memory goals, as ``_MEMORY``) and ``REPEATS`` (case -> at
      most so many timed repeats, the turns of a case timed in turn included: a slow peer's).
    """
    modules = tuple(importlib.import_module(path.stem) for path in sorted(HERE.glob("*_cases.py")))
    for module in modules:
        missing = {"add_cases", "SIZES", "HEADLINES", "PEER"} - set(vars(module))
        if missing:
            raise ImportError(f"{module.__file__} does not declare {', '.join(sorted(missing))}")
    return modules


MODULES = _case_modules()


def _declared(attribute: str, default=()) -> list:
    """What each case module declares under ``attribute``, in module order."""
    return [getattr(module, attribute, default) for module in MODULES]


# --------------------------------------------------------------------------- cases
def _sizes(quick: bool) -> dict:
    """The sizes of the cases this script defines (the case modules declare theirs)."""
    if quick:
        return {
            "boot": (2_000, 2_000),
            "perm": (50, 20_000),
            "tukey": [(50, 5, 20_000), (200, 20, 2_000)],
            "hl": 2_000,
            "rs_whole": 1_000,
            "rs_big": 100_000,
            "rs_ties": 100,
        }
    return {
        "boot": (10_000, 10_000),
        "perm": (50, 100_000),
        "tukey": [(50, 5, 100_000), (1000, 20, 10_000)],
        "hl": 10_000,
        "rs_whole": 5_000,
        "rs_big": 1_000_000,
        "rs_ties": 300,
    }


def _diff(a, b, axis=-1):
    return np.mean(b, axis=axis) - np.mean(a, axis=axis)


def _case_table(quick: bool) -> dict:
    """name -> (group, implementation, setup() -> (callable, draws or None), warm, peer)."""
    s = _sizes(quick)
    cases = {}

    def add(name, group, label, setup, warm, peer):
        cases[name] = (group, label, setup, warm, peer)

    n_items, n_res = s["boot"]
    boot_group = f"bootstrap {n_items:,} items x {n_res:,} resamples"

    def boot_data(binary=False):
        rng = np.random.default_rng(0)
        if binary:
            return (rng.random((n_items, 2)) < [0.7, 0.72]).astype(float)
        return rng.normal(size=(n_items, 2)) + rng.normal(size=(n_items, 1))

    def scipy_boot(binary=False):
        from scipy import stats

        x = boot_data(binary)
        return lambda: stats.bootstrap(
            (x[:, 0], x[:, 1]), _diff, paired=True, vectorized=True,
            n_resamples=n_res, rng=np.random.default_rng(1),
        )  # fmt: skip

    def ours_boot(binary=False, **kw):
        from pairedstats import bootstrap

        x = boot_data(binary)
        return lambda: bootstrap(x, n_resamples=n_res, rng=1, **kw)

    draws = n_items * n_res
    add(
        "boot_scipy",
        boot_group + ", continuous",
        "scipy.stats.bootstrap(paired, vectorized)",
        lambda: (scipy_boot(), draws),
        False,
        None,
    )
    add(
        "boot_pct",
        boot_group + ", continuous",
        "pairedstats percentile",
        lambda: (ours_boot(), draws),
        True,
        "boot_scipy",
    )
    add(
        "boot_bca",
        boot_group + ", continuous",
        "pairedstats bca",
        lambda: (ours_boot(method="bca"), draws),
        True,
        "boot_scipy",
    )
    add(
        "boot01_scipy",
        boot_group + ", 0/1 scores",
        "scipy.stats.bootstrap(paired, vectorized)",
        lambda: (scipy_boot(True), draws),
        False,
        None,
    )
    add(
        "boot01_counts",
        boot_group + ", 0/1 scores",
        'pairedstats counts path (resampling="counts")',
        lambda: (ours_boot(True, resampling="counts"), None),
        True,
        "boot01_scipy",
    )
    add(
        "boot01_index",
        boot_group + ", 0/1 scores",
        "pairedstats index path",
        lambda: (ours_boot(True, resampling="index"), draws),
        True,
        "boot01_scipy",
    )

    # two systems: Fisher's randomization test
    n_perm, t_perm = s["perm"]
    perm_group = f"2 systems, {n_perm} items x {t_perm:,} resamples (Fisher randomization)"

    def perm_data():
        return np.round(np.random.default_rng(1).random((n_perm, 2)), 2)

    def scipy_perm():
        from scipy import stats

        x = perm_data()
        return lambda: stats.permutation_test(
            (x[:, 0], x[:, 1]), _diff, permutation_type="samples", vectorized=True,
            n_resamples=t_perm, rng=np.random.default_rng(2),
        )  # fmt: skip

    def ours_perm():
        from pairedstats import tukey_hsd

        x = perm_data()
        return lambda: tukey_hsd(x, n_resamples=t_perm, method="monte-carlo", rng=1)

    add(
        "perm_scipy",
        perm_group,
        "scipy.stats.permutation_test(samples)",
        lambda: (scipy_perm(), n_perm * t_perm),
        True,
        None,
    )
    add(
        "perm_ours",
        perm_group,
        "pairedstats tukey_hsd (2 systems)",
        lambda: (ours_perm(), n_perm * t_perm),
        True,
        "perm_scipy",
    )

    # randomized Tukey HSD
    for n, k, trials in s["tukey"]:
        group = f"Tukey HSD {n} items x {k} systems x {trials:,} trials (0.01 grid)"
        tag = f"tukey_{n}_{k}"

        def data(n=n, k=k):
            return np.round(np.random.default_rng(1).random((n, k)), 2)

        def numpy_peer(trials=trials, data=data):
            from bench_tukey import numpy_tukey

            x = data()
            return lambda: numpy_tukey(x, trials, np.random.default_rng(2))

        def ours(workers=None, trials=trials, data=data):
            from pairedstats import tukey_hsd

            x = data()
            return lambda: tukey_hsd(
                x, n_resamples=trials, method="monte-carlo", rng=1, workers=workers
            )

        add(
            tag + "_numpy",
            group,
            "numpy Generator.permuted (batches of 1000)",
            lambda f=numpy_peer, d=n * trials: (f(), d),
            True,
            None,
        )
        add(
            tag + "_ours1",
            group,
            "pairedstats, 1 thread",
            lambda f=ours, d=n * trials: (f(1), d),
            True,
            tag + "_numpy",
        )
        add(
            tag + "_ours",
            group,
            "pairedstats, all threads",
            lambda f=ours, d=n * trials: (f(), d),
            True,
            tag + "_numpy",
        )

    # rank-sum
    n_hl = s["hl"]
    hl_group = f"Hodges-Lehmann shift {n_hl:,} x {n_hl:,}"

    def hl_data():
        rng = np.random.default_rng(20240519)
        return rng.normal(size=n_hl), rng.normal(size=n_hl) + 0.1

    def naive_hl():
        a, b = hl_data()
        return lambda: np.median(np.subtract.outer(b, a))

    def ours_hl():
        from pairedstats.core.ranksum import hodges_lehmann

        a, b = hl_data()
        return lambda: hodges_lehmann(np.sort(a), np.sort(b))

    add(
        "hl_naive",
        hl_group,
        "np.median(np.subtract.outer(b, a))",
        lambda: (naive_hl(), None),
        False,
        None,
    )
    add(
        "hl_ours",
        hl_group,
        "pairedstats.core.ranksum.hodges_lehmann",
        lambda: (ours_hl(), None),
        True,
        "hl_naive",
    )

    def rs_data(n, ties=False):
        rng = np.random.default_rng(7)
        if ties:  # six levels: the exact null conditional on the ties
            return rng.integers(0, 6, n).astype(float), rng.integers(0, 6, n).astype(float)
        return rng.normal(size=n), rng.normal(size=n) + 0.1

    def scipy_rs(n, shift):
        from scipy import stats

        a, b = rs_data(n)
        if not shift:
            return lambda: stats.mannwhitneyu(b, a)
        return lambda: (stats.mannwhitneyu(b, a), np.median(np.subtract.outer(b, a)))

    def ours_rs(n, ties=False, **kw):
        from pairedstats import ranksum

        a, b = rs_data(n, ties)
        return lambda: ranksum(a, b, **kw)

    whole = "pairedstats.ranksum (test + HL shift + 95% CI)"
    n = s["rs_whole"]
    group = f"rank-sum test {n:,} x {n:,}, whole test"
    add("rs_whole_scipy", group, "scipy.stats.mannwhitneyu + naive HL median",
        lambda n=n: (scipy_rs(n, True), None), True, None)  # fmt: skip
    add("rs_whole_ours", group, whole, lambda n=n: (ours_rs(n), None), True, "rs_whole_scipy")
    n = s["rs_big"]
    group = f"rank-sum test {n:,} x {n:,}, asymptotic"
    add("rs_big_scipy", group, "scipy.stats.mannwhitneyu (no shift, no CI)",
        lambda n=n: (scipy_rs(n, False), None), True, None)  # fmt: skip
    add("rs_big_ours", group, whole, lambda n=n: (ours_rs(n), None), True, "rs_big_scipy")
    n = s["rs_ties"]
    group = f"rank-sum test {n} x {n}, six tied levels, exact conditional null"
    add("rs_ties_ours", group, whole + ", exact",
        lambda n=n: (ours_rs(n, True, method="exact"), None), True, None)  # fmt: skip

    for module in MODULES:
        module.add_cases(add, module.SIZES["quick" if quick else "full"])

    # the physical limit
    n_raw = 10**7 if quick else 10**8
    limit = f"physical limit: {n_raw:,} random draws"

    def raw():
        bits = np.random.default_rng(3).bit_generator
        return lambda: bits.random_raw(n_raw)

    def integers():
        gen = np.random.default_rng(3)
        return lambda: gen.integers(0, 10_000, size=n_raw)

    def integers32():
        gen = np.random.default_rng(3)
        return lambda: gen.integers(0, 10_000, size=n_raw, dtype=np.uint32)

    add(
        "raw",
        limit,
        "BitGenerator.random_raw (PCG64, 64-bit words)",
        lambda: (raw(), n_raw),
        True,
        None,
    )
    add(
        "int64",
        limit,
        "Generator.integers(0, 10_000) int64",
        lambda: (integers(), n_raw),
        True,
        None,
    )
    add(
        "int32",
        limit,
        "Generator.integers(0, 10_000) uint32",
        lambda: (integers32(), n_raw),
        True,
        None,
    )
    return cases


# --------------------------------------------------------------------------- child
def _timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def run_case(name: str, quick: bool, repeats: int) -> dict:
    table = _case_table(quick)
    group, label, setup, warm, peer = table[name]
    fn, draws = setup()
    if name in ("boot_scipy", "boot01_scipy") and not quick:
        repeats = min(repeats, 2)  # 7 s and 4 GB each
    reference = None
    if name in _interleaved(table):
        reference, repeats = table[peer][2]()[0], max(repeats, 9)
    for declared in _declared("REPEATS", {}):  # caps the turns in turn too (a slow peer)
        repeats = min(repeats, declared.get(name, repeats))
    if warm:
        fn()
        if reference is not None:
            reference()
    times, reference_times = [], []
    for _ in range(repeats):
        if reference is not None:
            reference_times.append(_timed(reference))
        times.append(_timed(fn))
    tracemalloc.start()
    fn()
    traced = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    maxrss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    return {
        "case": name,
        "group": group,
        "implementation": label,
        "peer": peer,
        "seconds": float(np.median(times)),
        "all_seconds": times,
        "reference_seconds": reference_times,  # the peer's, timed in turn with this case
        "traced_mib": traced / 2**20,
        "maxrss_mib": maxrss_kb / 1024,
        "draws": draws,
    }


# --------------------------------------------------------------------------- parent
def machine() -> dict:
    import scipy

    import pairedstats

    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu": model,
        "cores": os.cpu_count(),
        "load_average": os.getloadavg(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "pairedstats": pairedstats.__version__,
        "date": time.strftime("%Y-%m-%d %H:%M"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description="pairedstats benchmarks against peers")
    parser.add_argument("--quick", action="store_true", help="small sizes (< 1 minute)")
    parser.add_argument("--repeats", type=int, default=3, help="timed repeats per case")
    parser.add_argument("--case", help=argparse.SUPPRESS)
    parser.add_argument("--json", help="also write the results to this JSON file")
    parser.add_argument(
        "--only", nargs="+", help="run only the cases whose names contain one of these"
    )
    parser.add_argument(
        "--docs", help="also write the benchmark page (docs/benchmarks.md) from this run"
    )
    parser.add_argument(
        "--render", metavar="JSON", help="run nothing: report a run saved with --json"
    )
    args = parser.parse_args()
    if args.case:
        print(json.dumps(run_case(args.case, args.quick, args.repeats)))
        return
    if args.render:
        report(json.loads(Path(args.render).read_text()), args.docs)
        return
    info = machine()
    print(
        f"{info['cpu']}, {info['cores']} cores, load {info['load_average'][0]:.2f}; "
        f"Python {info['python']}, numpy {info['numpy']}, scipy {info['scipy']}, "
        f"pairedstats {info['pairedstats']}; {info['date']}",
        flush=True,
    )
    results = {}
    t_start = time.perf_counter()
    for name in _case_table(args.quick):
        if args.only and not any(part in name for part in args.only):
            continue
        cmd = [sys.executable, __file__, "--case", name, "--repeats", str(args.repeats)]
        if args.quick:
            cmd.append("--quick")
        out = subprocess.run(cmd, capture_output=True, text=True, check=True)
        r = json.loads(out.stdout.strip().splitlines()[-1])
        results[name] = r
        _print_row(r, results)
    if args.only:  # the headline figures of the cases that ran; no page
        if args.json:
            options = {"quick": args.quick, "repeats": args.repeats, "only": args.only}
            run = {"machine": info, "options": options, "results": results}
            Path(args.json).write_text(json.dumps(run, indent=1))
        report({"results": results}, None)
        return
    rates = _rates(results)
    print("\nphysical limit (draws per second): " + ", ".join(
        f"{k} {v / 1e6:,.0f} M/s" for k, v in rates.items()))  # fmt: skip
    print("lower bound for one random number per (item, resample):")
    print("\n".join(bound_lines(results, rates)))
    print(f"\ntotal {time.perf_counter() - t_start:.0f} s", flush=True)
    starts = first_calls(args.repeats) if args.docs else {}
    run = {"machine": info, "options": {"quick": args.quick, "repeats": args.repeats},
           "results": results, "starts": starts}  # fmt: skip
    if args.json:
        Path(args.json).write_text(json.dumps(run, indent=1))
    report(run, args.docs)


def report(run: dict, docs: str | None) -> None:
    """Print the headline figures of a run; with ``docs``, write the benchmark page."""
    results, starts = run["results"], run.get("starts", {})
    summary = headline_rows(results, starts)
    print("\nheadline figures:")
    for what, value, goal, met in summary:
        verdict = "no goal" if met is None else f"goal {goal}: {'met' if met else 'NOT met'}"
        print(f"  {what}: {value} ({verdict})")
    if docs:
        page = docs_page(run["machine"], results, run["options"], summary)
        notes = (HERE / "kernel_notes.md").read_text()  # measured once, not by every run
        Path(docs).write_text(page + (starts_section(starts) if starts else "") + "\n" + notes)


#: The headline figures of the cases this script defines (the case modules declare theirs:
#: :func:`_headlines`): (what, case, reference case or None, goal, at most?). With a
#: reference the figure is the first case's time over the second's, without it seconds; a
#: goal of None reports the figure with no goal.
_HEADLINES = (
    ("scipy.stats.bootstrap / pairedstats", "boot_scipy", "boot_pct", 20.0, False),
    ("mannwhitneyu + naive median / pairedstats", "rs_whole_scipy", "rs_whole_ours", 20.0,
     False),
    ("pairedstats, seconds", "rs_big_ours", None, 1.0, True),
    ("pairedstats, seconds", "rs_ties_ours", None, 2.0, True),
)  # fmt: skip

#: Peak resident memory goals of the cases this script defines: (case, at most MiB).
_MEMORY = ()


def _headlines() -> tuple:
    """Every headline figure: this script's, then each case module's, in module order."""
    return _HEADLINES + tuple(itertools.chain.from_iterable(_declared("HEADLINES")))


def _memory() -> tuple:
    """Every peak memory goal: this script's, then each case module's."""
    return _MEMORY + tuple(itertools.chain.from_iterable(_declared("MEMORY")))


def _interleaved(table: dict) -> set:
    """The cases timed in turn with their floor or peer (floor, case, floor, case, ...) in
    one process: the floor headlines, and the headlines marked "(timed in turn)", peer over
    pairedstats. On a shared machine the load changes over minutes, and a ratio of two cases
    timed minutes apart moved by up to 2x between runs."""
    out = set()
    for what, top, bottom, *_ in _headlines():
        if bottom and bottom.startswith("floor"):
            out.add(top)
        elif "(timed in turn)" in what:  # the case whose peer is the other one
            out.add(bottom if table[bottom][4] == top else top)
    return out


def _turns(results: dict, top: str, bottom: str):
    """The seconds of ``top`` and ``bottom`` turn by turn, when one was timed with the other
    (its peer or floor) as its reference; else None."""
    if results[top].get("reference_seconds") and results[top]["peer"] == bottom:
        return results[top]["all_seconds"], results[top]["reference_seconds"]
    if results[bottom].get("reference_seconds") and results[bottom]["peer"] == top:
        return results[bottom]["reference_seconds"], results[bottom]["all_seconds"]
    return None


def headline_rows(results: dict, starts: dict) -> list[tuple[str, str, str, bool]]:
    """The headline figures of this run, with their goals: (what, value, goal, met); met is
    None for a figure with no goal (reported only)."""
    rows = []
    for what, top, bottom, goal, at_most in _headlines():
        if top not in results or (bottom and bottom not in results):
            continue
        ours = bottom if bottom and results[bottom]["peer"] == top else top
        what = (f"{results[top]['group']}: {results[ours]['implementation']}: "
                f"{what.replace(' (timed in turn)', '')}")  # fmt: skip
        value = results[top]["seconds"] / (results[bottom]["seconds"] if bottom else 1.0)
        turns = _turns(results, top, bottom) if bottom else None
        if turns:  # timed in turn: the median of the ratios of each turn
            value = float(np.median(np.divide(*turns)))
            what += f" (timed in turn, median of {len(turns[0])} ratios)"
        unit = "x" if bottom else " s"
        if goal is None:  # reported, with no goal
            rows.append((what, f"{value:.2f}{unit}", "none", None))
            continue
        met = value <= goal if at_most else value >= goal
        rows.append((what, f"{value:.2f}{unit}", f"{'<=' if at_most else '>='} {goal:g}{unit}",
                     met))  # fmt: skip
    for name, limit in _memory():
        if name in results:
            peak = results[name]["maxrss_mib"]
            rows.append((f"{results[name]['group']}: peak memory of the process",
                         f"{peak:,.0f} MiB", f"<= {limit:,.0f} MiB", peak <= limit))  # fmt: skip
    for label, t in starts.items():
        if "demo" in label:
            ratio = t["cold"] / t["warm"]
            rows.append((f"{label}: first run after installing / the next",
                         f"{ratio:.2f}x ({t['cold']:.2f} s / {t['warm']:.2f} s)", "<= 2.5x",
                         ratio <= 2.5))  # fmt: skip
    return rows


_PAGE = """# Benchmarks

`python benchmark/run_all.py --docs docs/benchmarks.md` writes this page: it times every
method against its peers **in the same run** (ratio = peer time / pairedstats time) and
measures peak memory; `--quick` uses small sizes (under a minute), `--repeats R` the timed
repeats (median shown; default 3, the two largest scipy bootstraps use 2), `--json FILE`
saves the results (`--render FILE --docs PAGE` writes the page again from them). Each case
runs in its own subprocess: `maxRSS` is that process's peak resident memory
(`resource.getrusage`, including the interpreter and imports, about 130-280 MiB), `traced`
the tracemalloc peak of one call beyond the data (numpy's buffers are traced: the peak
memory of a warm call).
Times are medians of the repeats, after an untimed warm-up call (JIT cache load, thread pool),
except for the largest scipy bootstraps. The per-method scripts (`bench_bootstrap.py`,
`bench_tukey.py`, `bench_ranksum.py`, `bench_sweeps.py`) have more cases; the case modules,
which `run_all.py` finds (every `benchmark/*_cases.py`, each declaring its sizes, headline
figures and peers next to its cases), run alone too when they have a `main`
(`python benchmark/mcs_cases.py`), timing each against its peers in turn. `bench_dask.py`
times the streaming road of a dask DataFrame against the in-memory engine on 100 million
rows (its committed run: [tables larger than memory](dask.md#measured)).

Peers need `pip install statsmodels autorank scikit-posthocs arch ranx` and
`pip install --no-deps baycomp` (its tests need only numpy and scipy; without it its cases
are skipped). None is a dependency of pairedstats; autorank and baycomp install a top-level
package named `tests`, which hides this repository's own `tests` from a fresh interpreter: delete
`site-packages/tests` after installing them.

{peers}

**This run**: {machine}. Times on a shared machine move by up to 2x between runs (the
repeats are listed); the ratios are of times measured minutes apart in the same run, except
the headlines timed in turn: there the library's case and its floor (or peer) are timed
in turn in one process (at least 9 turns, fewer where a peer call takes half a minute,
after a warm-up of each) and the figure is the
median of the turns' ratios, which the load of the machine moves far less.

| figure | this run | goal | met |
|---|---|---|---|
{headlines}

The floors are minimal fused kernels timed in the same run (below); the first-call figure is
from [the section at the end](#the-first-call-in-a-fresh-process).

| case | implementation | median s | repeats s | ratio | traced MiB | maxRSS MiB |
|---|---|---|---|---|---|---|
{rows}

Reading the table:

- Memory: the peers materialise all resamples x items (scipy's bootstrap: 3.9 GB traced for
  10^8 draws; the naive Hodges-Lehmann median: 1.5 GB for 10^8 differences); pairedstats
  stays within a few MiB beyond the data, whatever the number of resamples.
- BCa costs about the same as the percentile interval: the jackknife of the mean is
  closed-form.
- At 10^6 x 10^6 the rank-sum test is slower than `mannwhitneyu` because pairedstats also
  computes the Hodges-Lehmann shift and the two interval ends by exact selection among the
  10^12 differences; scipy computes neither. The exact conditional null with ties holds its
  tables (the traced memory of that row).
- The bootstrap kernel cuts each 64-bit random word into four 16-bit chunks (two 32-bit
  chunks above 65,536 resampled units), each mapped to an index by Lemire's rule with
  rejection, and sums one comparison's drawn differences as it draws them; its bound is the
  second or third of those below.
- The `floor:` rows time a minimal fused kernel (`floor_cases.py`: draw and sum, or
  shuffle each item's row, sum and take the range; a fast generator, no label-keyed streams,
  no intervals or p-values); their ratio is the floor's time over pairedstats': 1 is the
  floor's pace, below 1 the factor by which pairedstats is slower (the headline figures give
  the inverse, pairedstats' time over the floor's). The Tukey floor swaps with one draw per
  swap (19 per item and trial at 20 systems); pairedstats takes the swaps of a shuffle as
  the digits of fewer draws, so it can be faster than that floor.
- The bootstrap floor's second row draws with the library's generator, numpy's SFC64 (every
  draw can be reproduced with numpy), still without the rejection step that makes each index
  exactly uniform: its time over the first row's is what the choice of generator alone
  changes. SFC64 needs no multiplication per 64-bit word (SplitMix64 needs two, PCG64, the
  library's generator before stream version 2, three and a 128-bit carry chain), so this row
  can be faster than the first; the gap between it and pairedstats is the exact rejection and
  the label-keyed streams.

Physical limit (draws per second): {rates}. A method drawing one random number per item and
resample cannot be faster than `draws / rate`:

{bounds}
"""


#: The page's list of peers: those of the cases this script defines, then each case
#: module's ``PEER`` (:func:`peers_paragraph`), then the physical limit.
_PEERS = (
    "Peers: `scipy.stats.bootstrap(paired=True, vectorized=True)`; "
    '`scipy.stats.permutation_test(permutation_type="samples")` (two systems: Fisher\'s '
    "paired randomization test, as `tukey_hsd` with two systems); a vectorized numpy "
    "randomized Tukey HSD (`Generator.permuted` in batches, `bench_tukey.py`); "
    "`scipy.stats.mannwhitneyu`; the naive Hodges-Lehmann median "
    "`np.median(np.subtract.outer(b, a))`; {modules}. The physical limit: random 64-bit words "
    "per second from `BitGenerator.random_raw` and bounded integers per second from "
    "`Generator.integers`."
)


def peers_paragraph() -> str:
    """The page's list of peers, the case modules' in module order, wrapped."""
    modules = "; ".join(
        f"{module.PEER} (`{Path(module.__file__).name}`)" for module in MODULES if module.PEER
    )
    return textwrap.fill(_PEERS.format(modules=modules), width=93, break_on_hyphens=False)


def bound_lines(results: dict, rates: dict) -> list[str]:
    """For each group with draws: the time of its draws at the rate of 64-bit words, and at
    two or four draws per word."""
    lines, seen = [], set()
    for name, r in results.items():
        if r["draws"] and r["group"] not in seen and name not in rates:
            seen.add(r["group"])
            bound = r["draws"] / rates["raw"]
            lines.append(
                f"- {r['group']}: {r['draws']:,} draws, {bound:.3f} s at one 64-bit word each, "
                f"{bound / 2:.3f} s at two 32-bit chunks, {bound / 4:.3f} s at four 16-bit "
                "chunks of a word each"
            )
    return lines


def _rates(results: dict) -> dict:
    """Draws per second of the physical-limit cases."""
    return {k: results[k]["draws"] / results[k]["seconds"] for k in ("raw", "int64", "int32")}


def docs_page(info: dict, results: dict, options: dict, summary: list) -> str:
    """The benchmark page of a run (``--docs``)."""
    rates = _rates(results)
    machine = (
        f"{info['cpu']}, {info['cores']} cores, load average {info['load_average'][0]:.2f} at "
        f"the start; Python {info['python']}, numpy {info['numpy']}, scipy {info['scipy']}, "
        f"pairedstats {info['pairedstats']}; {info['date']}; "
        f"`run_all.py{' --quick' if options['quick'] else ''} --repeats {options['repeats']}`"
    )
    rows, last = [], None
    for r in results.values():
        group = r["group"] if r["group"] != last else ""
        last = r["group"]
        ratio = ""
        if r["peer"] is not None:
            ratio = f"{results[r['peer']]['seconds'] / r['seconds']:.1f}x"
        repeats = ", ".join(f"{t:.3g}" for t in r["all_seconds"])
        rows.append(
            f"| {group} | {r['implementation']} | {r['seconds']:.3g} | {repeats} | {ratio} | "
            f"{r['traced_mib']:,.1f} | {r['maxrss_mib']:,.0f} |"
        )
    headlines = "\n".join(
        f"| {what} | {value} | {goal} | {'' if met is None else 'yes' if met else 'no'} |"
        for what, value, goal, met in summary
    )
    return _PAGE.format(
        machine=machine,
        peers=peers_paragraph(),
        headlines=headlines,
        rows="\n".join(rows),
        rates=", ".join(f"{k} {v / 1e6:,.0f} M/s" for k, v in rates.items()),
        bounds="\n".join(bound_lines(results, rates)),
    )


#: What a command-line or notebook user waits for, as whole fresh processes.
_STARTS = {
    "`import pairedstats`": "import pairedstats",
    "first `bootstrap` (500 items x 3 systems, 10,000 resamples)": (
        "import numpy as np, pairedstats; "
        "pairedstats.bootstrap(np.random.default_rng(0).normal(size=(500, 3)), rng=1)"
    ),
    "first `tukey_hsd` (50 x 5, 10,000 trials)": (
        "import numpy as np, pairedstats; "
        "pairedstats.tukey_hsd(np.round(np.random.default_rng(0).random((50, 5)), 2), rng=1)"
    ),
    "first `ranksum` (300 x 300: numpy below 2**20 differences)": (
        "import numpy as np, pairedstats; g = np.random.default_rng(0); "
        "pairedstats.ranksum(g.normal(size=300), g.normal(size=300))"
    ),
    "first `ranksum` (3,000 x 3,000: the compiled selection)": (
        "import numpy as np, pairedstats; g = np.random.default_rng(0); "
        "pairedstats.ranksum(g.normal(size=3000), g.normal(size=3000))"
    ),
    "`python -m pairedstats` (the demo on the bundled data)": None,
}


def first_calls(repeats: int) -> dict:
    """Wall time of fresh processes: with an empty numba cache (the first call after
    installing: every kernel the call needs is compiled) and with the cache written (best of
    ``repeats``)."""
    import tempfile

    out = {}
    for label, code in _STARTS.items():
        cmd = (
            [sys.executable, "-m", "pairedstats"] if code is None else [sys.executable, "-c", code]
        )
        times = {"cold": [], "warm": []}
        for _ in range(repeats):
            with tempfile.TemporaryDirectory() as cache:
                env = {**os.environ, "NUMBA_CACHE_DIR": cache}
                for kind in ("cold", "warm"):
                    start = time.perf_counter()
                    subprocess.run(cmd, env=env, check=True, capture_output=True)
                    times[kind].append(time.perf_counter() - start)
        out[label] = {k: min(v) for k, v in times.items()}
        print(f"  {label}: {out[label]['cold']:.2f} s cold, {out[label]['warm']:.2f} s warm",
              flush=True)  # fmt: skip
    return out


def starts_section(starts: dict) -> str:
    rows = "\n".join(
        f"| {label} | {t['cold']:.2f} s | {t['warm']:.2f} s | {t['cold'] / t['warm']:.1f}x |"
        for label, t in starts.items()
    )
    return f"""
## The first call in a fresh process

What a command-line or notebook user waits for: whole fresh processes, best of the repeats.
*Cold* is the first run after installing (numba's cache of compiled kernels empty, in a
temporary `NUMBA_CACHE_DIR`: every kernel the call needs is compiled), *warm* the next run
with that cache written (the usual case). Each kernel is compiled once per working dtype and
written to the cache, and a call compiles only the kernels it runs: the bootstrap's sampler
(one comparison, or lanes of several), the Tukey HSD's trial counter, the rank-sum's
selection among the differences (only above 2**20 of them; smaller samples are ranked and
selected by numpy, with the same numbers), the sums of the comparisons' differences behind
the effect sizes (only above 2**16 items x comparisons; below, numpy adds in the kernel's
order, with the same bits). Later calls of the same process reuse what is
loaded. The cold demo's extra seconds are almost all numba compiling the bootstrap's sampler
(with the seeding of its block generators) and the Tukey HSD's trial counter; `import
pairedstats` (numpy, scipy, pandas, xarray) is most of a warm run.

| what | cold | warm | cold / warm |
|---|---|---|---|
{rows}
"""


_last_group = [None]


def _print_row(r, results):
    if r["group"] != _last_group[0]:
        print(f"\n{r['group']}")
        print(f"  {'implementation':48s} {'median s':>9s} {'ratio':>7s} "
              f"{'traced MiB':>11s} {'maxRSS MiB':>11s}")  # fmt: skip
        _last_group[0] = r["group"]
    ratio = ""
    if r["peer"] is not None:
        ratio = f"{results[r['peer']]['seconds'] / r['seconds']:.1f}x"
    print(
        f"  {r['implementation']:48s} {r['seconds']:9.3f} {ratio:>7s} "
        f"{r['traced_mib']:11.1f} {r['maxrss_mib']:11.0f}",
        flush=True,
    )


if __name__ == "__main__":
    main()
