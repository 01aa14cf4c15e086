"""Roller generator: certified levels per minute per size and difficulty, each claim re-checked.

    python -m benchmarks.roller_generate --quick
    python -m benchmarks.roller_generate --json roller-gen.jsonl --time-limit 120

For each (board size, asked range of proven minimum moves) and seeds 0..N-1, a level is
generated on one core; it is then written as native text, read back, and solved again by a
*fresh* ``solve()`` (and, on boards up to 10x10, by the time-indexed SAT method as a second,
independent prover): the row is ``verified`` when the fresh minimum equals the generator's claim
and the claimed answer passes ``verify``. The table gives levels made, tries, median and max
seconds per level, certified levels per minute, and confirmations.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from typing import Any, Iterator

from benchmarks import INTERRUPTED, JSON_HELP, RowWriter, json_path, load_solver_libraries
from puzzlesat.roller.formats import format, parse
from puzzlesat.roller.generate import GenerationFailed, generate
from puzzlesat.roller.solve import solve
from puzzlesat.roller.verify import verify
from puzzlesat.cli.arguments import seconds_argument

QUICK_PLAN = [((8, 8), (6, 12), 5), ((12, 12), (15, 25), 3), ((16, 16), (30, 45), 2)]
FULL_PLAN = [((8, 8), (6, 12), 30), ((10, 10), (10, 18), 30), ((12, 12), (15, 25), 20), ((16, 16), (30, 45), 10),
             ((16, 16), (50, 70), 5), ((20, 20), (60, 90), 5)]
SECOND_PROVER_MAX_CELLS = 100


def run(*, time_limit: float, quick: bool = False, plan: list | None = None) -> Iterator[dict[str, Any]]:
    """One row per generated level (ROW_KEYS plus ``moves_range``, ``min_moves``, ``tries``,
    ``fresh_min``, ``second_min``). ``time_limit`` bounds each level's generation."""
    load_solver_libraries()
    for (width, height), (lo, hi), seeds in plan or (QUICK_PLAN if quick else FULL_PLAN):
        for seed in range(seeds):
            row: dict[str, Any] = {"family": "roller", "set": f"generate-{width}x{height}-{lo}-{hi}", "instance": f"seed{seed}",
                                   "size": f"{width}x{height}", "cells": width * height, "method": "walk-carve+solve",
                                   "task": "generate", "encode_s": 0.0, "moves_range": f"{lo}-{hi}", "time_limit": time_limit}
            started = time.perf_counter()
            try:
                made = generate(width, height, moves=(lo, hi), seed=seed, time_limit=time_limit)
            except GenerationFailed:
                seconds = time.perf_counter() - started
                row.update(status="unknown", solve_s=seconds, seconds=seconds, verified=False, min_moves=None, tries=None,
                           fresh_min=None, second_min=None)
                yield row
                continue
            seconds = time.perf_counter() - started
            level = parse(format(made.level), fmt="native")
            fresh = solve(level, time_limit=60)
            fresh_min = len(fresh.solution) if fresh.optimal and fresh.solution is not None else None
            second_min = None
            if width * height <= SECOND_PROVER_MAX_CELLS:
                second = solve(level, method="time-indexed", time_limit=60)
                second_min = len(second.solution) if second.optimal and second.solution is not None else None
            confirmed = (fresh_min == made.min_moves and (second_min is None or second_min == made.min_moves)
                         and not verify(level, made.solution) and level.par == made.min_moves)
            row.update(status="solved", solve_s=seconds, seconds=seconds, verified=confirmed, min_moves=made.min_moves,
                       tries=made.tries, fresh_min=fresh_min, second_min=second_min)
            yield row


def table(rows: list[dict[str, Any]]) -> str:
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        groups[row["set"]].append(row)
    lines = [f"{'set':28} {'made':>5} {'tries':>6} {'median s':>9} {'max s':>7} {'per min':>8} {'minima':>9} {'confirmed':>10}"]
    for name, group in groups.items():
        made = [r for r in group if r["status"] == "solved"]
        secs = [r["seconds"] for r in group]
        total = sum(secs)
        minima = sorted(r["min_moves"] for r in made)
        lines.append(
            f"{name:28} {len(made):>3}/{len(group):<1} {sum(r['tries'] or 0 for r in made):>6} "
            f"{statistics.median(secs):>9.2f} {max(secs):>7.2f} {60 * len(made) / total if total else 0:>8.1f} "
            f"{(f'{minima[0]}-{minima[-1]}' if minima else '-'):>9} {sum(r['verified'] for r in made):>6}/{len(made)}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.roller_generate", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a small plan (about a minute)")
    parser.add_argument("--time-limit", type=seconds_argument, default=60.0, metavar="S", help="seconds allowed per level (default 60)")
    parser.add_argument("--json", type=json_path, metavar="PATH", help=JSON_HELP)
    args = parser.parse_args(argv)
    rows = []
    sink = RowWriter(args.json)
    interrupted = False
    try:
        for row in run(time_limit=args.time_limit, quick=args.quick):
            rows.append(row)
            sink.write(row)
            print(f"{row['set']} {row['instance']}: {row['status']} {row.get('min_moves')} moves, {row['seconds']:.2f}s"
                  f"{'' if row['verified'] else ' NOT CONFIRMED'}", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        interrupted = True
        print("interrupted: table of the rows so far", file=sys.stderr)
    finally:
        sink.close()
    print(table(rows))
    print(sink.gauge_line())
    if interrupted:
        return INTERRUPTED
    return 0 if all(r["verified"] for r in rows if r["status"] == "solved") else 1


if __name__ == "__main__":
    sys.exit(main())
