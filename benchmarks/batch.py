"""The batch engine at work (issue 43): throughput on one and two workers, Dask's cost per job
on localhost, store writes per second, and the time to resume a finished store.

    python -m benchmarks.batch                     # prints the table
    python -m benchmarks.batch --json batch.jsonl  # and writes the rows

- **throughput**: three sets, each generated once with fixed seeds through the engine (cached
  in the temp folder), verified with ``workers=1`` and ``workers=2`` in four chunks that take
  turns (so the two see the same drift of a shared machine's load; ``--chunks 1`` on a quiet
  machine measures each set as one batch, with one tail instead of four); target: ``-j 2`` at least
  1.7x one worker on 2 cores. ``numberlink``: 200 12x12 puzzles; ``roller``: the Roller example
  set scaled up by generation (``--set-size`` puzzles, default 200, at the sizes of the example
  puzzles in turn); ``swap``: the same for the Swap example set (the settings its generated
  example files were made with: easy match, medium cluster, hard match, expert match, expert
  cluster).
- **dask overhead**: 400 jobs that do no work (a job holding a read error returns its record
  at once) through a local Dask cluster of 2 worker processes: wall seconds per job; target at
  most 20 ms.
- **store writes**: 10,000 records committed one by one; target at least 1,000 per second.
- **resume**: a store holding the records of 10,000 jobs, run again: nothing runs, every
  record comes from the store; target under 2 s.
- **scale** (``--scale N``, e.g. 10000): N puzzles of mixed families and sizes (``MIX``, in
  turn) generated and then verified (from their pack entries) through the engine into a store,
  each job under a time limit of 10 s: throughput per worker, CPU seconds, and the engine's
  overhead per job (``wall x workers - the jobs' own seconds``, per job), with a row per entry
  of the mix (its share of the phase's seconds, its longest job, its jobs at the limit); then
  the time to resume the store (every finished job of both phases run again: nothing runs) and
  its throughput (the run's own records written again, one committed row each, into a new store).

Every run row also gives ``cpu_seconds`` (this process and its workers): on a shared machine,
what the run cost whatever else ran. The throughput rows of a fewest-moves set give how many
records hold a proven minimum and a digest of those minima (equal digests: the same minima).

This is its own run (``python -m benchmarks`` leaves it out: it needs 2 cores to itself).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
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
# the settings the generated Swap example files were made with (their first comment line)
SWAP_EXAMPLES = ({"difficulty": "easy", "goal": "match"}, {"difficulty": "medium", "goal": "cluster"},
                 {"difficulty": "hard", "goal": "match"}, {"difficulty": "expert", "goal": "match"},
                 {"difficulty": "expert", "goal": "cluster"})
SCALED_LIMIT = 60.0  # seconds per job of the scaled example sets (as --time-limit 60)
SCALE_LIMIT = 10.0  # seconds per job of the scale run: a Swap draw at the default difficulty may take minutes to certify


def roller_sizes() -> list[tuple[int, int]]:
    """The sizes of the Roller example puzzles (examples/roller, package data), in file order."""
    from importlib import resources

    from puzzlesat.registry import get_family

    family = get_family("roller")
    files = sorted((item for item in (resources.files("puzzlesat") / "examples" / "roller").iterdir()
                    if item.name.endswith(".roller")), key=lambda item: item.name)
    return [(level.width, level.height) for item in files
            for level in family.load(item.read_text(), source=item.name, fmt=None, options=family.defaults())]


def set_plans(count: int) -> dict[str, list[tuple[tuple[int, int] | None, dict[str, Any]]]]:
    """Per set, ``count`` (size, options) to generate with seeds 0, 1, ..."""
    sizes = roller_sizes()
    return {"numberlink": [(SIZE, {})] * count,
            "roller": [(sizes[n % len(sizes)], {}) for n in range(count)],
            "swap": [(None, SWAP_EXAMPLES[n % len(SWAP_EXAMPLES)]) for n in range(count)]}


def generated_set(name: str, count: int, workers: int) -> list[str]:
    """The set's ``count`` puzzles as their pack entries, generated once (cached as JSON)."""
    path = CACHE / f"{name}-{count}.json"
    if not path.exists():
        jobs = [Job.generate(name, size, seed=seed, index=seed, options=options, time_limit=SCALED_LIMIT)
                for seed, (size, options) in enumerate(set_plans(count)[name])]
        entries = [record["pack_entry"] for record in run(jobs, workers=workers) if record["status"] == "generated"]
        CACHE.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(entries))
    return json.loads(path.read_text())


def verify_jobs(name: str, entries: list[str]) -> list[Job]:
    return [job for index, entry in enumerate(entries)
            for job in jobs_from_text(entry, verb="verify", source=f"{name}#{index}", family=name, time_limit=SCALED_LIMIT)]


def cpu_seconds() -> float:
    """CPU seconds of this process and of its children waited for (the pool's workers, a
    solver's helpers): what a run costs whatever else the machine runs (0 where not known)."""
    try:
        import resource
    except ImportError:  # (not on Windows)
        return 0.0
    return sum(usage.ru_utime + usage.ru_stime
               for usage in (resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)))


def timed(jobs: list[Job], **how: Any) -> tuple[float, list[dict[str, Any]]]:
    started = time.perf_counter()
    records = list(run(jobs, **how))
    return time.perf_counter() - started, records


def timed_cpu(jobs: list[Job], **how: Any) -> tuple[float, float, list[dict[str, Any]]]:
    """(wall seconds, CPU seconds, records) of a run (the pool's workers end with it, so
    their CPU is counted)."""
    cpu = cpu_seconds()
    seconds, records = timed(jobs, **how)
    return seconds, cpu_seconds() - cpu, records


CHUNKS = 4  # the throughput runs alternate between one and more workers, chunk by chunk (--chunks)


SETS = ("numberlink", "roller", "swap")


def throughput(workers: int, count: int, sets: tuple[str, ...] = SETS, chunks: int = CHUNKS) -> Iterator[dict[str, Any]]:
    """Each set verified with one worker and with ``workers``, in ``chunks`` chunks that take
    turns (1 then N, N then 1, ...): on a shared machine whose load drifts, the two see the same
    drift. Each chunk is a batch of its own, so each ends with a tail where one worker finishes
    its last job and the other waits: on a quiet machine, ``chunks=1`` measures the set as the
    one batch a user runs."""
    for name in sets:
        jobs = verify_jobs(name, generated_set(name, PUZZLES if name == "numberlink" else count, workers))
        spent = {1: 0.0, workers: 0.0}
        cpu = {1: 0.0, workers: 0.0}
        records: dict[int, list[dict[str, Any]]] = {1: [], workers: []}
        size = -(-len(jobs) // chunks)
        for chunk in range(chunks):
            part = jobs[chunk * size:(chunk + 1) * size]
            for how in ((1, workers) if chunk % 2 == 0 else (workers, 1)):
                seconds, used, made = timed_cpu(part, workers=how)
                spent[how] += seconds
                cpu[how] += used
                records[how] += made
        for how in (1, workers):
            yield {"measure": "throughput", "set": name, "workers": how, "jobs": len(jobs), "seconds": round(spent[how], 3),
                   "per_second": round(len(jobs) / spent[how], 1), "cpu_seconds": round(cpu[how], 1),
                   "statuses": _statuses(records[how]), **_minima(records[how]),
                   "chunks": chunks, **({"speedup": round(spent[1] / spent[how], 2)} if how != 1 else {})}


def _minima(records: list[dict[str, Any]]) -> dict[str, Any]:
    """For a set with a fewest-moves objective: how many records hold a proven minimum, a
    digest of those minima (equal digests: the same minima, puzzle by puzzle) and the puzzles
    left without one (compare two runs' lists to see a verdict lost)."""
    if all(record.get("optimal") is None for record in records):
        return {}
    proven = [(record["source"], record.get("moves_count")) for record in records if record.get("optimal")]
    digest = hashlib.sha256(json.dumps(sorted(proven)).encode()).hexdigest()[:12]
    return {"proven": len(proven), "minima": digest,
            "unproven": sorted(record["source"] for record in records if not record.get("optimal"))}


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


# (family, size, generate options), in turn: every family, several sizes. Swap's None: sizes
# drawn at the hard difficulty (3 to 5 a side): at its default (expert, 4 to 6) a few percent of
# draws need minutes of proof and run into SCALE_LIMIT, and cost more than all the other jobs.
MIX = (("numberlink", (7, 7), {}), ("numberlink", (10, 10), {}), ("roller", (6, 6), {}), ("roller", (8, 8), {}),
       ("swap", (4, 4), {}), ("swap", None, {"difficulty": "hard"}))


def mix_profile(phase: str, records: list[dict[str, Any]], own: float) -> Iterator[dict[str, Any]]:
    """Where a scale phase's time went: per entry of MIX, its jobs' own seconds (and their share
    of the phase's), the longest, and how many ran into the per-job limit."""
    for place, (family, size, options) in enumerate(MIX):
        mine = [r for r in records if int(str(r["source"]).rpartition("#")[2] if "#" in str(r["source"]) else r["index"])
                % len(MIX) == place]
        spent = [float(r.get("seconds") or 0) for r in mine]
        yield {"measure": f"scale {phase} mix", "family": family, "size": "x".join(map(str, size)) if size else "drawn",
               **({"options": options} if options else {}), "jobs": len(mine), "seconds": round(sum(spent), 1),
               "share": round(sum(spent) / own, 3) if own else 0.0, "longest": round(max(spent, default=0.0), 2),
               "at_limit": sum(s >= 0.9 * SCALE_LIMIT for s in spent), "statuses": _statuses(mine)}


def scale(count: int, workers: int, folder: Path) -> Iterator[dict[str, Any]]:
    store = folder / "scale.sqlite"
    jobs = [Job.generate(family, size, seed=n, source=f"{family}-mix", index=n, options=options, time_limit=SCALE_LIMIT)
            for n in range(count) for family, size, options in [MIX[n % len(MIX)]]]
    done: list[tuple[Job, dict[str, Any]]] = []  # every (job, record) of both phases
    for phase in ("generate", "verify"):
        if phase == "verify":
            jobs = [job for _, record in done if record["status"] == "generated" for job in jobs_from_text(
                record["pack_entry"], verb="verify", source=f"{record['family']}-mix#{record['index']}", family=record["family"],
                time_limit=SCALE_LIMIT)]
        seconds, cpu, records = timed_cpu(jobs, workers=workers, store=store)
        done += zip(jobs, records)
        own = sum(float(r.get("seconds") or 0) for r in records)
        yield {"measure": f"scale {phase}", "workers": workers, "jobs": len(records), "seconds": round(seconds, 2),
               "cpu_seconds": round(cpu, 1), "per_second": round(len(records) / seconds, 1),
               "per_worker_per_second": round(len(records) / seconds / workers, 2),
               "worker_seconds_per_job": round(seconds * workers / max(1, len(records)), 3),
               "own_seconds_per_job": round(own / max(1, len(records)), 3),
               "overhead_ms_per_job": round(1000 * max(0.0, seconds * workers - own) / max(1, len(records)), 2),
               "statuses": _statuses(records), "first_error": next((r["error"] for r in records if r["status"] == "error"), None)}
        yield from mix_profile(phase, records, own)
    seen: list[Any] = []  # (resumed: every finished job again; an error record is not finished, a rerun runs it)
    finished = [job for job, record in done if record["status"] != "error"]
    seconds, _ = timed(finished, workers=workers, store=store, on_progress=seen.append)
    yield {"measure": "scale resume", "workers": workers, "jobs": len(finished), "seconds": round(seconds, 3),
           "resumed": seen[-1].resumed if seen else 0, "ran": seen[-1].ran if seen else 0}
    copy = folder / "scale-copy.sqlite"  # (the store's throughput on the run's own records, answers included)
    with Store(copy) as fresh:
        started = time.perf_counter()
        for job, record in done:
            fresh.put(job, record)
        seconds = time.perf_counter() - started
        stored = len(fresh)
    yield {"measure": "scale store", "records": stored, "seconds": round(seconds, 3), "per_second": round(stored / seconds),
           "bytes": os.path.getsize(store), "bytes_per_record": round(os.path.getsize(store) / max(1, stored))}


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
    parser.add_argument("--chunks", type=int, default=CHUNKS, metavar="N",
                        help=f"throughput: one and more workers take turns over N chunks of each set (default {CHUNKS}, for a "
                             "shared machine whose load drifts; 1 on a quiet machine: the set as one batch)")
    parser.add_argument("--set-size", type=int, default=PUZZLES, metavar="N",
                        help=f"puzzles of the scaled Roller and Swap example sets (default {PUZZLES})")
    parser.add_argument("--sets", default=",".join(SETS), metavar="NAMES",
                        help=f"the throughput sets to measure, comma-separated (default {','.join(SETS)})")
    args = parser.parse_args(argv)
    if args.chunks < 1:
        parser.error("--chunks takes a whole number of at least 1")
    sets = tuple(name.strip() for name in args.sets.split(",") if name.strip())
    if not sets or set(sets) - set(SETS):
        parser.error(f"argument --sets: names among {', '.join(SETS)}, not {args.sets!r}")
    with RowWriter(args.json) as rows, tempfile.TemporaryDirectory() as folder:
        measures = [throughput(args.workers, args.set_size, sets, args.chunks), store_writes(Path(folder))]
        if importlib.util.find_spec("distributed") is None:
            print("dask overhead: not measured (pip install 'puzzlesat[cluster]')", file=sys.stderr)
        else:
            measures.insert(1, dask_overhead(args.workers))
        if args.scale:
            measures = ([] if args.only_scale else measures) + [scale(args.scale, args.workers, Path(folder))]
        for measure in measures:
            for row in measure:
                rows.write(row)
                print(line(row), flush=True)
    print(rows.gauge_line())
    return 0


if __name__ == "__main__":
    sys.exit(main())
