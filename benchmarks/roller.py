"""Roller benchmark: every method side by side on the public level sets, proven minima checked.

    python -m benchmarks.roller [--methods flow time-indexed dfs] [--time-limit S] [--dfs-limit S]
                                [--method-limit time-indexed=10] [--sets tabtale-bottom-left ...]
                                [--json PATH] [--quick]

Sets: the 170 official TabTale levels under each start convention (``tabtale-bottom-left``,
``tabtale-row-major``; the submitted answers in ``solutions/`` are the ``known`` upper bound when
they replay for that convention), ``starhermit`` (60 levels, ``known`` = par, the stated exact
optimum), ``joseleite19`` (15), ``herbou`` (30), ``mazepaint`` (8), ``uridanan-invalid`` (the two
deliberately unsolvable levels under both conventions). Each row is one (level, method) with the
keys of ``benchmarks.ROW_KEYS`` plus ``moves`` (length), ``optimal``, ``lower_bound``, ``known``,
``check`` ("ok", or what went wrong: "longer-than-known", "not-par", "not-proven", ...) and, for
the DFS baseline, how far it got (``dfs_nodes``, ``dfs_deepest``, ``dfs_best``).
The exact methods get ``--time-limit`` per level; the DFS baseline gets ``--dfs-limit``
(default: 5 s, or ``--time-limit`` when that is shorter, as under ``puzzlesat bench``; it does not
finish the big levels: the table says how many it finished and its times there).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from typing import Any, Iterator, Sequence

from benchmarks import INTERRUPTED, JSON_HELP, ROW_KEYS, Case, RowWriter, data_folder, json_path, load_solver_libraries, rows_of
from puzzlesat.results import Status
from puzzlesat.roller.formats import read, read_answers, with_answers
from puzzlesat.roller.model import Level
from puzzlesat.roller.solve import DEFAULT_METHOD, METHODS, solve
from puzzlesat.roller.verify import verify
from puzzlesat.cli.arguments import seconds_argument

DATA = data_folder() / "roller"
SETS = ("starhermit", "tabtale-bottom-left", "tabtale-row-major", "joseleite19", "herbou", "mazepaint",
        "uridanan-invalid")
QUICK_LEVELS = 2  # per set in --quick (which, over every module, stays within a minute on 2 cores)


def _tabtale(start: str, answers: str) -> list[Level]:
    folder = DATA / "eranheres-amaze" / "data" / "all"
    known = read_answers(DATA / "eranheres-amaze" / "solutions" / answers)
    levels = [level for path in sorted(folder.glob("*.xml")) for level in read(path, start=start)]
    levels = with_answers(levels, known)
    # a submitted answer is an upper bound only when it replays for this start convention
    return [lv if lv.known_answer and not verify(lv, lv.known_answer) else
            Level(lv.rows, lv.start, name=lv.name, start_rule=lv.start_rule) for lv in levels]


# the folder each set is read from (a set whose folder is absent is skipped)
SET_FOLDERS = {
    "tabtale-bottom-left": "eranheres-amaze", "tabtale-row-major": "eranheres-amaze",
    "starhermit": "HypeDriven-starhermit-paint-maze", "joseleite19": "joseleite19-roller-splat-generator",
    "herbou": "herbou-RollerSplatGame_HTML", "mazepaint": "YuuuuBin2k5-MazePaint", "uridanan-invalid": "uridanan-Amaze",
}


def load_set(name: str) -> list[Level]:
    """The levels of a named set ([] when the public data is absent)."""
    if name in SET_FOLDERS and not (DATA / SET_FOLDERS[name]).is_dir():
        return []
    try:
        if name == "tabtale-bottom-left":
            return _tabtale("bottom-left", "solution.txt")
        if name == "tabtale-row-major":
            return _tabtale("row-major", "best_solution.txt")
        if name == "starhermit":
            return read(DATA / "HypeDriven-starhermit-paint-maze" / "data" / "levels.json")
        if name == "joseleite19":
            root = DATA / "joseleite19-roller-splat-generator"
            return [lv for d in ("easy", "medium", "hard") for p in sorted((root / d).glob("*.txt"))
                    for lv in _named(read(p, fmt="joseleite19"), f"{d}/{p.name}")]
        if name == "herbou":
            return read(DATA / "herbou-RollerSplatGame_HTML" / "js" / "levels-data.js")
        if name == "mazepaint":
            folder = DATA / "YuuuuBin2k5-MazePaint" / "src" / "data" / "maps_data"
            return [lv for p in sorted(folder.glob("*.txt")) for lv in _named(read(p, fmt="mazepaint"), p.name)]
        if name == "uridanan-invalid":
            folder = DATA / "uridanan-Amaze" / "levels"
            return [lv for p in sorted(folder.glob("*.xml")) for start in ("bottom-left", "row-major")
                    for lv in _named(read(p, start=start), f"{p.name} {start}")]
    except FileNotFoundError:
        return []
    raise ValueError(f"unknown set {name!r}; choose from {', '.join(SETS)}")


def _named(levels: list[Level], name: str) -> list[Level]:
    return [Level(lv.rows, lv.start, name=name if len(levels) == 1 else f"{name}#{i + 1}", par=lv.par,
                  known_answer=lv.known_answer, start_rule=lv.start_rule) for i, lv in enumerate(levels)]


def measure(level: Level, set_name: str, method: str, time_limit: float) -> dict[str, Any]:
    """One row: solve ``level`` with ``method`` and check the answer against what is known."""
    t0 = time.perf_counter()
    error = None
    try:
        result = solve(level, method=method, time_limit=time_limit)
    except Exception as exc:  # a crash is a row, not the end of the run
        result, error = None, f"{type(exc).__name__}: {exc}"
    seconds = time.perf_counter() - t0
    known = level.par if level.par is not None else (len(level.known_answer) if level.known_answer else None)
    row: dict[str, Any] = {
        "family": "roller", "set": set_name, "instance": level.name, "size": f"{level.width}x{level.height}",
        "cells": level.width * level.height, "method": method, "task": "min-moves",
        "status": "error" if result is None else result.status.value,
        "encode_s": None if result is None else round(result.timings.encode, 4),
        "solve_s": None if result is None else round(result.timings.solve, 4),
        "seconds": round(seconds, 4), "time_limit": time_limit, "known": known, "error": error,
        "moves": None, "optimal": False, "lower_bound": None, "verified": False,
    }
    if result is not None:
        row["optimal"] = bool(result.optimal)
        row["lower_bound"] = result.lower_bound
        if result.solution is not None:
            row["moves"] = len(result.solution)
            row["verified"] = not verify(level, result.solution)
            row["answer"] = result.solution
        if result.status is Status.UNSATISFIABLE:
            row["reason"] = result.stats.get("reason")
        if method == "dfs":
            row.update(dfs_nodes=result.stats.get("nodes"), dfs_deepest=result.stats.get("deepest"),
                       dfs_best=result.stats.get("best_found"), dfs_complete=result.stats.get("complete"))
    row["check"] = _check(row, level, set_name)
    return row


def _check(row: dict[str, Any], level: Level, set_name: str) -> str:
    if row["status"] == "error":
        return "error"
    if set_name == "uridanan-invalid":
        return "ok" if row["status"] == "unsatisfiable" else "should-be-unsolvable"
    if row["moves"] is not None and not row["verified"]:
        return "answer-fails-verify"
    known = row["known"]
    if row["moves"] is not None and known is not None and row["moves"] > known and row["optimal"]:
        return "longer-than-known"
    if level.par is not None and row["optimal"] and row["moves"] != level.par:
        return "not-par"
    if row["status"] == "unknown" or (row["status"] == "solved" and not row["optimal"]):
        return "not-proven"
    return "ok"


def dfs_seconds(time_limit: float, dfs_limit: float | None) -> float:
    """The DFS baseline's limit per level: ``dfs_limit``, by default 5 s or ``time_limit`` when
    that is shorter (as ``puzzlesat bench`` gives it)."""
    return min(time_limit, 5.0) if dfs_limit is None else dfs_limit


def run(*, time_limit: float, quick: bool = False, methods: Sequence[str] | None = None,
        sets: Sequence[str] | None = None, dfs_limit: float | None = None,
        method_limits: dict[str, float] | None = None) -> Iterator[dict[str, Any]]:
    """Rows (see module doc), one per (level, method), yielded as soon as each level is measured.
    ``method_limits`` overrides the per-level limit of named methods."""
    yield from rows_of(row_cases(time_limit=time_limit, quick=quick, methods=methods, sets=sets, dfs_limit=dfs_limit,
                             method_limits=method_limits))


def row_cases(*, time_limit: float, quick: bool = False, methods: Sequence[str] | None = None,
          sets: Sequence[str] | None = None, dfs_limit: float | None = None,
          method_limits: dict[str, float] | None = None) -> Iterator[Case]:
    """One case per level: its rows, one per method (:func:`measure_level`)."""
    methods = list(methods or METHODS)
    limits = {m: time_limit for m in methods}
    limits["dfs"] = dfs_seconds(time_limit, dfs_limit)
    limits.update(method_limits or {})
    for set_name in sets or SETS:
        levels = load_set(set_name)
        if not levels:
            print(f"{set_name}: no levels under {DATA} (data set absent), skipped", file=sys.stderr, flush=True)
        if quick:
            levels = levels[:QUICK_LEVELS]
        for level in levels:
            yield measure_level, {"level": level, "set_name": set_name, "limits": {m: limits[m] for m in methods}}


def measure_level(level: Level, set_name: str, limits: dict[str, float]) -> list[dict[str, Any]]:
    """A level's rows: one per method of ``limits`` (method -> its time limit), in that order."""
    load_solver_libraries()
    return [measure(level, set_name, method, limit) for method, limit in limits.items()]


def summary(rows: list[dict[str, Any]]) -> str:
    """A table per (set, method): levels, proven, unsolvable, unknown, median and max seconds,
    seconds on the levels the method finished, and failed checks."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        groups[(row["set"], row["method"])].append(row)
    header = (f"{'set':22} {'method':13} {'levels':>6} {'proven':>6} {'unsolv':>6} {'unknown':>7} "
              f"{'median s':>9} {'max s':>8} {'fin.med':>8} {'fin.max':>8} {'checks failed'}")
    lines = [header, "-" * len(header)]
    for (set_name, method), group in groups.items():
        seconds = [r["seconds"] for r in group]
        finished = [r["seconds"] for r in group if r["optimal"] or r["status"] == "unsatisfiable"]
        failed = [f"{r['instance']}:{r['check']}" for r in group if r["check"] not in ("ok", "not-proven")]
        lines.append(
            f"{set_name:22} {method:13} {len(group):6d} {sum(r['optimal'] for r in group):6d} "
            f"{sum(r['status'] == 'unsatisfiable' for r in group):6d} "
            f"{sum(r['check'] == 'not-proven' for r in group):7d} "
            f"{statistics.median(seconds):9.3f} {max(seconds):8.2f} "
            f"{(statistics.median(finished) if finished else float('nan')):8.3f} "
            f"{(max(finished) if finished else float('nan')):8.2f} "
            f"{', '.join(failed[:6]) + (' ...' if len(failed) > 6 else '') if failed else '-'}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.roller", description=__doc__.split("\n\n")[0])
    parser.add_argument("--methods", nargs="+", default=list(METHODS), choices=list(METHODS))
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=list(SETS))
    parser.add_argument("--time-limit", type=seconds_argument, default=60.0, metavar="S", help="seconds per level for the exact methods (default 60)")
    parser.add_argument("--dfs-limit", type=seconds_argument, default=None, metavar="S",
                        help="seconds per level for the DFS baseline (default: 5, or --time-limit when shorter)")
    parser.add_argument("--method-limit", action="append", default=[], metavar="METHOD=S",
                        help="per-level limit for one method (e.g. time-indexed=10); repeatable")
    parser.add_argument("--json", type=json_path, metavar="PATH", help=JSON_HELP)
    parser.add_argument("--quick", action="store_true", help=f"only the first {QUICK_LEVELS} levels of each set")
    args = parser.parse_args(argv)
    args.methods = list(dict.fromkeys(args.methods))  # a method or set named twice is run once
    args.sets = list(dict.fromkeys(args.sets))
    method_limits = {}
    for item in args.method_limit:
        name, _, seconds = item.partition("=")
        if name not in METHODS or not seconds:
            parser.error(f"--method-limit wants METHOD=SECONDS with METHOD one of {', '.join(METHODS)}")
        try:
            method_limits[name] = seconds_argument(seconds)
        except argparse.ArgumentTypeError as exc:
            parser.error(f"--method-limit {item}: {exc}")
    dfs_limit = method_limits.get("dfs", dfs_seconds(args.time_limit, args.dfs_limit))
    rows: list[dict[str, Any]] = []
    interrupted = False
    sink = RowWriter(args.json)
    print(f"roller benchmark: methods {', '.join(args.methods)} (default solver: {DEFAULT_METHOD}); "
          f"limit {args.time_limit} s, DFS {dfs_limit} s"
          + "".join(f", {name} {seconds} s" for name, seconds in method_limits.items() if name != "dfs"), flush=True)
    try:
        for row in run(time_limit=args.time_limit, quick=args.quick, methods=args.methods, sets=args.sets,
                       dfs_limit=dfs_limit, method_limits=method_limits):
            rows.append(row)
            if row["check"] not in ("ok", "not-proven"):
                print(f"  CHECK {row['check']}: {row['set']} {row['instance']} {row['method']} "
                      f"moves={row['moves']} known={row['known']} {row.get('error') or ''}", flush=True)
            sink.write(row)
            if sys.stderr.isatty():  # (a log file gets no carriage-return progress)
                sys.stderr.write(f"\r{len(rows)} rows: {row['set']} {row['instance'][:24]:24} {row['method']:13}")
    except KeyboardInterrupt:
        interrupted = True
        print("\ninterrupted; summary of the rows measured so far:")
    finally:
        sink.close()
    if sys.stderr.isatty():
        sys.stderr.write("\n")
    if not rows and not DATA.is_dir():
        print(f"no levels measured: the Roller data sets are not present ({DATA})")
    print(summary(rows))
    print(sink.gauge_line())
    assert set(ROW_KEYS) <= set(rows[0]) if rows else True
    return INTERRUPTED if interrupted else 0


if __name__ == "__main__":
    sys.exit(main())
