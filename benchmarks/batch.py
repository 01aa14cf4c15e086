"""The batch engine at work (issue 43): throughput on one and two workers, Dask's cost per job
on localhost, store writes per second, and the time to resume a finished store.

    python -m benchmarks.batch                     # prints the table
    python -m benchmarks.batch --json batch.jsonl  # and writes the rows

- **throughput**: 200 12x12 Numberlink puzzles (generated once with fixed seeds through the
  engine, cached in the temp folder) verified with ``workers=1`` and ``workers=2``; target:
  ``-j 2`` at least 1.7x one worker on 2 cores.
- **dask overhead**: 400 jobs that do no work (a job holding a read error returns its record
  at once) through a local Dask cluster of 2 worker processes: wall seconds per job; target at
  most 20 ms.
- **store writes**: 10,000 records committed one by one; target at least 1,000 per second.
- **resume**: a store holding the records of 10,000 jobs, run again: nothing runs, every
  record comes from the store; target under 2 s.
- **scale** (``--scale N``, e.g. 10000): N puzzles of mixed families and sizes generated and
  then verified (from their pack entries) through the engine into a store: throughput per
  worker and the engine's overhead per job (``wall x workers - the jobs' own seconds``, per job).

This is its own run (``python -m benchmarks`` leaves it out: it needs 2 cores to itself).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

from benchmarks import JSON_HELP, RowWriter, json_path
from puzzlesat.batch import Job, Store, jobs_from_text, run

PUZZLES = 200
SIZE = (12, 12)
CACHE = Path(tempfile.gettempdir()) / "puzzlesat-bench-batch"


def generated_set(workers: int) -> Path:
    """The 200 12x12 puzzles as a pack (native text, blank lines between), made once."""
    path = CACHE / f"numberlink-{SIZE[0]}x{SIZE[1]}-{PUZZLES}.txt"
    if not path.exists():
        jobs = [Job.generate("numberlink", SIZE, seed=seed, index=seed) for seed in range(PUZZLES)]
        texts = [record["puzzle"] for record in run(jobs, workers=workers) if record["status"] == "generated"]
        CACHE.mkdir(parents=True, exist_ok=True)
        path.write_text("\n\n".join(text.strip() for text in texts) + "\n")
    return path


def timed(jobs: list[Job], **how: Any) -> tuple[float, list[dict[str, Any]]]:
    started = time.perf_counter()
    records = list(run(jobs, **how))
    return time.perf_counter() - started, records


def throughput(workers: int) -> Iterator[dict[str, Any]]:
    path = generated_set(workers)
    jobs = list(jobs_from_text(path.read_text(), verb="verify", source=str(path), family="numberlink"))
    single, records = timed(jobs, workers=1)
    yield {"measure": "throughput", "workers": 1, "jobs": len(jobs), "seconds": round(single, 3),
           "per_second": round(len(jobs) / single, 1), "statuses": _statuses(records)}
    double, records = timed(jobs, workers=workers)
    yield {"measure": "throughput", "workers": workers, "jobs": len(jobs), "seconds": round(double, 3),
           "per_second": round(len(jobs) / double, 1), "speedup": round(single / double, 2), "statuses": _statuses(records)}


def idle_jobs(count: int) -> list[Job]:
    return [Job("numberlink", "verify", source="idle", index=n, error=f"no work {n}") for n in range(count)]


def dask_overhead(workers: int, count: int = 400) -> Iterator[dict[str, Any]]:
    from puzzlesat.batch.dask import local_client

    with local_client(workers) as client:
        timed(idle_jobs(20), client=client)  # (warm: the workers import puzzlesat once)
        seconds, _ = timed(idle_jobs(count), client=client)
    pool, _ = timed(idle_jobs(count), workers=workers)
    yield {"measure": "dask overhead", "workers": workers, "jobs": count, "seconds": round(seconds, 3),
           "ms_per_job": round(1000 * seconds / count, 2), "pool_ms_per_job": round(1000 * pool / count, 3)}


def store_writes(folder: Path, count: int = 10_000) -> Iterator[dict[str, Any]]:
    record = {"family": "numberlink", "status": "solved", "seconds": 0.05, "answer": "A A\n" * 12, "unique": True}
    jobs = [Job.generate("numberlink", SIZE, seed=seed, source="pack", index=seed) for seed in range(count)]
    path = folder / "writes.sqlite"
    with Store(path) as store:
        started = time.perf_counter()
        for job in jobs:
            store.put(job, dict(record, index=job.index))
        seconds = time.perf_counter() - started
    yield {"measure": "store writes", "jobs": count, "seconds": round(seconds, 3), "per_second": round(count / seconds)}
    started = time.perf_counter()
    records = list(run(jobs, store=path))
    seconds = time.perf_counter() - started
    ran = sum(r.get("seed") is not None for r in records)  # (a record made now would hold its seed)
    yield {"measure": "resume", "jobs": count, "seconds": round(seconds, 3), "ran": ran,
           "bytes": os.path.getsize(path)}


MIX = (("numberlink", (7, 7)), ("numberlink", (10, 10)), ("roller", (6, 6)), ("roller", (8, 8)),
       ("swap", (4, 4)), ("swap", None))  # (swap's None: its default difficulty's sizes)


def scale(count: int, workers: int, folder: Path) -> Iterator[dict[str, Any]]:
    store = folder / "scale.sqlite"
    made = [Job.generate(family, size, seed=n, source=f"{family}-mix", index=n) for n in range(count)
            for family, size in [MIX[n % len(MIX)]]]
    generated: list[dict[str, Any]] = []
    for phase in ("generate", "verify"):
        if phase == "verify":
            made = [job for record in generated for job in jobs_from_text(
                record["pack_entry"], verb="verify", source=f"{record['family']}-mix#{record['index']}", family=record["family"])]
        seconds, records = timed(made, workers=workers, store=store, ordered=False)
        own = sum(float(r.get("seconds") or 0) for r in records)
        yield {"measure": f"scale {phase}", "workers": workers, "jobs": len(records), "seconds": round(seconds, 2),
               "per_second": round(len(records) / seconds, 1), "per_worker_per_second": round(len(records) / seconds / workers, 1),
               "overhead_ms_per_job": round(1000 * max(0.0, seconds * workers - own) / max(1, len(records)), 2),
               "statuses": _statuses(records)}
        if phase == "generate":
            generated = [r for r in records if r["status"] == "generated"]
    with Store(store) as opened:
        yield {"measure": "scale store", "jobs": len(opened), "bytes": os.path.getsize(store)}


def _statuses(records: list[dict[str, Any]]) -> dict[str, int]:
    found: dict[str, int] = {}
    for record in records:
        found[record["status"]] = found.get(record["status"], 0) + 1
    return found


def line(row: dict[str, Any]) -> str:
    shown = {k: v for k, v in row.items() if k != "measure"}
    return f"{row['measure']:<15} " + "  ".join(f"{k}={v}" for k, v in shown.items())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.batch", description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=json_path, default=None, metavar="PATH", help=JSON_HELP)
    parser.add_argument("--workers", type=int, default=2, help="workers of the parallel runs (default 2)")
    parser.add_argument("--scale", type=int, default=0, metavar="N", help="also generate and verify N mixed puzzles (e.g. 10000)")
    parser.add_argument("--only-scale", action="store_true", help="with --scale: that measure alone")
    args = parser.parse_args(argv)
    with RowWriter(args.json) as rows, tempfile.TemporaryDirectory() as folder:
        measures = [throughput(args.workers), store_writes(Path(folder))]
        if importlib.util.find_spec("distributed") is None:
            print("dask overhead: not measured (pip install 'puzzlesat[cluster]')", file=sys.stderr)
        else:
            measures.insert(1, dask_overhead(args.workers))
        if args.scale:
            measures = [scale(args.scale, args.workers, Path(folder))] + ([] if args.only_scale else measures)
        for measure in measures:
            for row in measure:
                rows.write(row)
                print(line(row), flush=True)
    print(rows.gauge_line())
    return 0


if __name__ == "__main__":
    sys.exit(main())
