"""The streaming road of a dask DataFrame against the in-memory engine, on one Parquet table.

Data: ``--items`` items (default 10 million) x 10 systems of a tidy table (item, system,
score), written as Parquet system by system (the way run files are appended), row groups of
one million rows: 100 million rows, 1.25 GB. Written once into ``--data``.

- **In-memory engine**: in a fresh process, ``pandas.read_parquet`` and
  ``df.paired.bootstrap`` of all pairs (45), 1,000 resamples. Time and the peak resident
  memory of the process.
- **Streaming road**: in a fresh process, a ``distributed.LocalCluster`` of two worker
  processes (one thread each, ``--worker-memory`` each), ``dd.read_parquet`` and
  ``ddf.paired.bootstrap(..., stream=True)`` of the same call. Time; the peak resident
  memory of the client process (which runs the scheduler), of each worker and of each
  nanny, and their sum (an upper bound of what the processes held at once).
- **Per-partition costs**: the task stream of the streaming run, seconds of each kind of
  task, per million rows; the projection for 1 billion rows on ``W`` workers divides ten
  times the work by ``W`` (the merges are a tree of ``log2`` depth, milliseconds each).

Run: ``python benchmark/bench_dask.py [--items N] [--data DIR] [--json FILE] [--docs
docs/dask.md]``; prints a markdown table, which ``--docs`` puts into the page between its
markers (``docs/dask.md`` holds the one of the committed JSON,
``benchmark/results/dask_streaming.json``: ``--render JSON --docs docs/dask.md``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

SYSTEMS = ("zeta", "mid", "alpha", "kappa", "beta", "omega", "delta", "eta", "gamma", "theta")
ROW_GROUP = 1_000_000
#: pyarrow's allocator as the system's: its default pool (jemalloc or mimalloc) keeps the
#: memory it freed, the peak of every Parquet partition a worker has read.
SYSTEM_POOL = {"ARROW_DEFAULT_MEMORY_POOL": "system"}
CALL = dict(item="query", system="run", score="ndcg", n_resamples=1000, rng=1)


def write_table(path: Path, n_items: int) -> None:
    """The tidy table: an item effect shared by the systems, systems 0.0067 apart."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    gen = np.random.default_rng(11)
    means = dict(zip(SYSTEMS, np.linspace(0.40, 0.46, len(SYSTEMS)), strict=True))
    writer = None
    for system in SYSTEMS:
        for lo in range(0, n_items, ROW_GROUP):
            items = np.arange(lo, min(lo + ROW_GROUP, n_items), dtype=np.int64)
            base = (np.sin(items * 0.7) + 1) / 4
            score = np.clip(base + means[system] - 0.25 + gen.normal(0, 0.15, items.size), 0, 1)
            run = pa.array([system] * items.size).dictionary_encode()
            table = pa.table({"query": items, "run": run, "ndcg": score})
            writer = writer or pq.ParquetWriter(path, table.schema)
            writer.write_table(table, row_group_size=ROW_GROUP)
    writer.close()


def peak_mib() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class TreeMemory:
    """The peak of the summed resident memory of this process and all its descendants (the
    scheduler, nannies and workers of a LocalCluster), sampled every 20 ms while in the
    ``with`` block, and each process's own peak (MiB)."""

    def __enter__(self):
        import threading

        self.peak, self.each, self._stop = 0.0, {}, threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def _sample(self):
        import psutil

        me = psutil.Process()
        while not self._stop.wait(0.02):
            total = 0.0
            for proc in [me, *me.children(recursive=True)]:
                try:
                    rss = proc.memory_info().rss / 2**20
                except psutil.Error:
                    continue
                total += rss
                self.each[_role(proc, me)] = max(self.each.get(_role(proc, me), 0.0), rss)
            self.peak = max(self.peak, total)

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


def _role(proc, me) -> str:
    """``client`` (this process: the client, the scheduler and the nannies of a
    LocalCluster), ``helper <pid>`` (multiprocessing's resource tracker) or ``worker <pid>``."""
    if proc.pid == me.pid:
        return "client"
    try:
        line = " ".join(proc.cmdline())
    except Exception:  # gone, or not readable: counted as a worker
        line = ""
    return f"{'helper' if 'resource_tracker' in line else 'worker'} {proc.pid}"


def in_memory(path: str) -> dict:
    import pandas as pd

    import pairedstats  # noqa: F401

    t0 = time.perf_counter()
    frame = pd.read_parquet(path)
    t1 = time.perf_counter()
    table = frame.paired.bootstrap(**CALL)
    t2 = time.perf_counter()
    return {"read_s": t1 - t0, "bootstrap_s": t2 - t1, "total_s": t2 - t0,
            "peak_mib": peak_mib(), "difference": table["difference"].tolist()}  # fmt: skip


def streaming(path: str, worker_memory: str) -> dict:
    import dask.dataframe as dd
    from distributed import Client, LocalCluster, get_task_stream
    from distributed.utils import key_split

    import pairedstats  # noqa: F401

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, memory_limit=worker_memory,
                           dashboard_address=":0")  # fmt: skip
    client = Client(cluster)
    t0 = time.perf_counter()
    frame = dd.read_parquet(path, split_row_groups=True)
    with TreeMemory() as memory, get_task_stream() as stream:
        table = frame.paired.bootstrap(**CALL, stream=True)
    total = time.perf_counter() - t0
    tasks: dict[str, float] = {}
    for task in stream.data:
        kind = key_split(task["key"])
        spent = sum(s["stop"] - s["start"] for s in task["startstops"] if s["action"] == "compute")
        tasks[kind] = tasks.get(kind, 0.0) + spent
    out = {"total_s": total, "peak_mib": memory.peak, "process_peak_mib": memory.each,
           "task_seconds": tasks, "partitions": frame.npartitions,
           "difference": table["difference"].tolist(),
           "ci_low": table["ci_low"].tolist()}  # fmt: skip
    client.close()
    cluster.close()
    return out


def fresh(function: str, *args: str, env: dict | None = None) -> dict:
    """``function(*args)`` of this module in a fresh process (its own peak memory), with
    ``env`` added to the environment (its workers inherit it)."""
    code = (f"import sys, json; sys.path.insert(0, {str(Path(__file__).parent)!r}); "
            f"import bench_dask as d; print(json.dumps(d.{function}(*{args!r})))")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={**os.environ, **(env or {})})  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])


def report(r: dict) -> str:
    rows = r["rows"] / 1e6
    s, m = r["streaming"], r["memory"]
    lines = [
        "| road | time (s) | peak memory (MiB) |",
        "|---|---|---|",
        f"| in memory (pandas, one process) | {m['total_s']:.1f} (read {m['read_s']:.1f}) "
        f"| {m['peak_mib']:,.0f} |",
        f"| streaming (LocalCluster, 2 workers) | {s['total_s']:.1f} | {s['peak_mib']:,.0f} "
        f"(all processes at once; each at most: {_each(s['process_peak_mib'])}) |",
    ]
    if "streaming_system_pool" in r:
        p = r["streaming_system_pool"]
        lines.append(
            "| streaming, pyarrow's system allocator (`ARROW_DEFAULT_MEMORY_POOL=system`) | "
            f"{p['total_s']:.1f} | {p['peak_mib']:,.0f} (each at most: "
            f"{_each(p['process_peak_mib'])}) |"
        )
    lines += [
        "",
        f"The streaming road took {s['total_s'] / m['total_s']:.2f} times the in-memory "
        f"engine's time and {s['peak_mib'] / m['peak_mib']:.1%} of its memory. Task seconds "
        f"per million rows ({rows:,.0f} million rows):",
        "",
        "| task | seconds per million rows |",
        "|---|---|",
    ]
    for kind, spent in sorted(s["task_seconds"].items(), key=lambda kv: -kv[1]):
        lines.append(f"| `{kind}` | {spent / rows:.3f} |")
    work = sum(s["task_seconds"].values()) / rows * 1000
    lines += ["", f"Projection for 1 billion rows: {work:,.0f} task seconds; on 16 "
              f"workers about {work / 16 / 60:.1f} min, on 64 workers "
              f"{work / 64 / 60:.1f} min."]  # fmt: skip
    return "\n".join(lines)


def _each(peaks: dict) -> str:
    """The processes' peaks, by role: the client, the workers, the helpers."""
    parts = []
    for role in ("client", "worker", "helper"):
        found = sorted((v for k, v in peaks.items() if k.split()[0] == role), reverse=True)
        if found:
            name = role if len(found) == 1 else role + "s"
            parts.append(f"{name} " + ", ".join(f"{v:,.0f}" for v in found))
    return "; ".join(parts)


#: The markers of the table in ``docs/dask.md``.
MARKERS = ("<!-- dask_streaming.json -->\n", "\n<!-- end dask_streaming.json -->")


def docs_table(page: str) -> str:
    """The table between the :data:`MARKERS` of a page."""
    start = page.index(MARKERS[0]) + len(MARKERS[0])
    return page[start : page.index(MARKERS[1])]


def write_docs(path: Path, text: str) -> None:
    page = path.read_text(encoding="utf-8")
    old = docs_table(page)
    path.write_text(page.replace(MARKERS[0] + old + MARKERS[1], MARKERS[0] + text + MARKERS[1]),
                    encoding="utf-8")  # fmt: skip


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, default=10_000_000)
    parser.add_argument("--data", default=str(Path(__file__).parent / ".data"))
    parser.add_argument("--worker-memory", default="1GiB")
    parser.add_argument("--json", help="write the results to this JSON file")
    parser.add_argument("--render", metavar="JSON", help="run nothing: report a saved run")
    parser.add_argument("--docs", help="also put the table into this page, between its markers")
    args = parser.parse_args(argv)
    if args.render:
        text = report(json.loads(Path(args.render).read_text()))
        if args.docs:
            write_docs(Path(args.docs), text)
        print(text)
        return
    path = Path(args.data) / f"rows_{args.items}x{len(SYSTEMS)}.parquet"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        write_table(path, args.items)
    result = {"rows": args.items * len(SYSTEMS), "items": args.items,
              "streaming": fresh("streaming", str(path), args.worker_memory),
              "streaming_system_pool": fresh("streaming", str(path), args.worker_memory,
                                             env=SYSTEM_POOL),
              "memory": fresh("in_memory", str(path))}  # fmt: skip
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n")
    if args.docs:
        write_docs(Path(args.docs), report(result))
    print(report(result))


if __name__ == "__main__":
    main()
