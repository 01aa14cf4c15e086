"""Swap benchmark: the proven minimum against the published A* baseline, side by side.

    python -m benchmarks.swap [--time-limit S] [--json PATH] [--quick] [--methods exact astar cpsat]

Sets (drawn by the original generator, :func:`puzzlesat.swap.generate.draw_level`, fixed
seeds, *match* goal, no proof required at generation time): ``expert`` (100 levels, 4-6 x 4-6)
and ``7x6`` (30 levels, the Android game's largest board). Per level, ``exact`` (the default
exact method of :func:`puzzlesat.swap.solve.solve`) gets ``--time-limit`` seconds and ``astar``
(the four capped A* runs of the original game) its own run; ``cpsat`` (the bounded-horizon model
alone) can be added with ``--methods``. Each row carries the keys of ``benchmarks.ROW_KEYS``
plus ``moves`` (length or None), ``optimal`` (proven), ``lower_bound``, and for the A* rows
``excess`` (moves above the proven minimum, when one is known).

The summary says, per set: how many levels were proven and the median / maximum time to the
proof; how often the A* baseline was above the proven minimum and by how much.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Iterator, Sequence

from benchmarks import INTERRUPTED, JSON_HELP, ROW_KEYS, Case, RowWriter, json_path, load_solver_libraries, rows_of
from puzzlesat.results import Status
from puzzlesat.swap import astar
from puzzlesat.swap.generate import draw_level
from puzzlesat.swap.model import Level
from puzzlesat.swap.solve import solve
from puzzlesat.swap.verify import verify
from puzzlesat.cli.arguments import seconds_argument

SETS = {"expert": (100, None), "7x6": (30, (7, 6))}  # name -> (levels, size or None = by difficulty)
QUICK_LEVELS = {"expert": 3, "7x6": 1}  # (--quick, over every module, stays within a minute on 2 cores)
DEFAULT_LIMIT = 60.0
SEED_BASE = {"expert": 10_000, "7x6": 20_000}


def load_set(name: str, count: int) -> list[Level]:
    """``count`` levels of the named set; level i is drawn with seed SEED_BASE[name] + i."""
    _, size = SETS[name]
    return [
        draw_level(random.Random(SEED_BASE[name] + i), difficulty="expert", goal="match", size=size)
        for i in range(count)
    ]


def _row(set_name: str, index: int, level: Level, method: str, result, seconds: float, time_limit: float) -> dict[str, Any]:
    moves = None if result.solution is None else len(result.solution)
    verified = result.status is Status.SOLVED and not verify(level, result.solution)
    return {
        "family": "swap",
        "set": set_name,
        "instance": f"{set_name}-{index:03d}",
        "size": f"{level.cols}x{level.rows}",
        "cells": level.rows * level.cols,
        "method": method if method != "exact" else f"exact-{result.method}",
        "task": "min-moves",
        "status": result.status.value,
        "encode_s": round(result.timings.encode, 4),
        "solve_s": round(result.timings.solve, 4),
        "seconds": round(seconds, 4),
        "verified": verified,
        "moves": moves,
        "optimal": bool(result.optimal),
        "lower_bound": result.lower_bound,
        "load": round(os.getloadavg()[0], 2),  # 1-minute load average of the (shared) machine
        "time_limit": time_limit,
    }


def run(
    *,
    time_limit: float = DEFAULT_LIMIT,
    quick: bool = False,
    methods: Sequence[str] = ("exact", "astar"),
    sets: Sequence[str] = tuple(SETS),
) -> Iterator[dict[str, Any]]:
    """One row per (level, method), yielded as soon as it is measured."""
    yield from rows_of(row_cases(time_limit=time_limit, quick=quick, methods=methods, sets=sets))


def row_cases(
    *,
    time_limit: float = DEFAULT_LIMIT,
    quick: bool = False,
    methods: Sequence[str] = ("exact", "astar"),
    sets: Sequence[str] = tuple(SETS),
) -> Iterator[Case]:
    """One case per level: its rows, one per method (:func:`measure_level`)."""
    for set_name in sets:
        count = QUICK_LEVELS[set_name] if quick else SETS[set_name][0]
        for index, level in enumerate(load_set(set_name, count)):
            yield measure_level, {"set_name": set_name, "index": index, "level": level, "methods": tuple(methods),
                                  "time_limit": time_limit}


def measure_level(set_name: str, index: int, level: Level, methods: Sequence[str], time_limit: float) -> list[dict[str, Any]]:
    """A level's rows, one per method; the A* baseline last, whatever the order asked: its
    excess needs the level's proven minimum."""
    load_solver_libraries()
    rows = []
    proven: int | None = None
    for method in sorted(methods, key=lambda method: method == "astar"):
        started = time.perf_counter()
        if method == "astar":
            result = astar.solve(level, time_limit=time_limit)
        else:
            result = solve(level, method=None if method == "exact" else method, time_limit=time_limit)
        row = _row(set_name, index, level, method, result, time.perf_counter() - started, time_limit)
        if row["optimal"] and row["moves"] is not None:
            proven = row["moves"] if proven is None else proven
            assert proven == row["moves"], f"exact methods disagree on {row['instance']}"
        if method == "astar":
            row["excess"] = None if (proven is None or row["moves"] is None) else row["moves"] - proven
            if proven is not None and row["moves"] is not None:
                assert row["moves"] >= proven, f"A* below the proven minimum on {row['instance']}"
        rows.append(row)
    return rows


def summary(rows: list[dict[str, Any]], time_limit: float) -> str:
    lines = []
    for set_name in dict.fromkeys(r["set"] for r in rows):
        in_set = [r for r in rows if r["set"] == set_name]
        levels = sorted({r["instance"] for r in in_set})
        lines.append(f"{set_name}: {len(levels)} levels")
        for method in dict.fromkeys(r["method"] for r in in_set):
            mine = [r for r in in_set if r["method"] == method]
            times = sorted(r["seconds"] for r in mine)
            if method == "astar":
                solved = [r for r in mine if r["moves"] is not None]
                compared = [r for r in solved if r.get("excess") is not None]
                above = [r for r in compared if r["excess"] > 0]
                excess = [r["excess"] for r in above]
                lines.append(
                    f"  astar: answered {len(solved)}/{len(mine)}; above the proven minimum on "
                    f"{len(above)}/{len(compared)} compared levels ({100 * len(above) / max(1, len(compared)):.0f}%)"
                    + (f", by {statistics.mean(excess):.2f} moves on average (max {max(excess)})" if excess else "")
                    + f"; median time {statistics.median(times):.2f} s"
                )
                continue
            proven = [r for r in mine if r["optimal"]]
            unsolvable = [r for r in mine if r["status"] == "unsatisfiable"]
            unknown = [r for r in mine if not r["optimal"] and r["status"] != "unsatisfiable"]
            # a level not decided counts at the limit (one stopped early by the state cap too)
            times = sorted(time_limit if r in unknown else r["seconds"] for r in mine)
            proof_times = sorted(r["seconds"] for r in proven + unsolvable)
            within = [sum(r["seconds"] <= t for r in proven) for t in (2, 10)]
            loads = [r["load"] for r in mine if r.get("load") is not None]
            gaps = [r["lower_bound"] for r in unknown if r["lower_bound"] is not None]
            lines.append(
                f"  {method}: proven minimum {len(proven)}/{len(mine)}, proven unsolvable {len(unsolvable)}, "
                f"not proven within {time_limit:g} s {len(unknown)}"
                + (f" (of which {sum(r['moves'] is not None for r in unknown)} with a plan)" if unknown else "")
                + (f"; time to proof median {statistics.median(times):.2f} s (all levels, unknown counted at the limit), "
                   f"max among decided {max(proof_times):.2f} s" if proof_times else "")
                + (f"; proven within 2 s / 10 s: {within[0]} / {within[1]}")
                + (f"; moves of proven levels median {statistics.median(r['moves'] for r in proven):g}" if proven else "")
                + (f"; load average {min(loads):.1f}-{max(loads):.1f}" if loads else "")
                + ("; on those, proven lower bound / plan found: "
                   + ", ".join(f"{r['lower_bound']}/{r['moves'] if r['moves'] is not None else '-'}" for r in unknown)
                   if gaps else "")
            )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.swap", description=__doc__.split("\n\n")[0])
    parser.add_argument("--time-limit", type=seconds_argument, default=DEFAULT_LIMIT, metavar="S", help=f"seconds per level and method (default {DEFAULT_LIMIT:g})")
    parser.add_argument("--json", type=json_path, metavar="PATH", help=JSON_HELP)
    parser.add_argument("--quick", action="store_true", help=f"a few levels per set ({', '.join(f'{n} {name}' for name, n in QUICK_LEVELS.items())})")
    parser.add_argument("--methods", nargs="+", default=["exact", "astar"], choices=["exact", "astar", "search", "cpsat"],
                        help="exact: solve()'s default method; astar: the published baseline; search, cpsat: one exact method "
                             "(default: exact astar)")
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=list(SETS))
    args = parser.parse_args(argv)
    args.methods = list(dict.fromkeys(args.methods))  # a method or set named twice is run once
    args.sets = list(dict.fromkeys(args.sets))
    rows: list[dict[str, Any]] = []
    sink = RowWriter(args.json)
    header = f"{'instance':12} {'size':>5} {'method':>14} {'status':>13} {'moves':>5} {'opt':>4} {'lb':>4} {'seconds':>8}"
    print(header)
    interrupted = False
    try:
        for row in run(time_limit=args.time_limit, quick=args.quick, methods=args.methods, sets=args.sets):
            assert all(key in row for key in ROW_KEYS)
            rows.append(row)
            print(
                f"{row['instance']:12} {row['size']:>5} {row['method']:>14} {row['status']:>13} "
                f"{'-' if row['moves'] is None else row['moves']:>5} {'yes' if row['optimal'] else 'no':>4} "
                f"{'-' if row['lower_bound'] is None else row['lower_bound']:>4} {row['seconds']:8.2f}",
                flush=True,
            )
            sink.write(row)
    except KeyboardInterrupt:
        interrupted = True
        print("interrupted: the rows so far are kept", file=sys.stderr)
    finally:
        sink.close()
    print()
    print(summary(rows, args.time_limit))
    print(sink.gauge_line())
    return INTERRUPTED if interrupted else 0


if __name__ == "__main__":
    raise SystemExit(main())
