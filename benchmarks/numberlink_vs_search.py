"""Numberlink: SAT against the backtracking baseline, side by side under one time limit.

    python -m benchmarks.numberlink_vs_search --quick
    python -m benchmarks.numberlink_vs_search --time-limit 10 --json nl-vs-search.jsonl --plots plots/

Both solvers get the same puzzles and the same limit, for two tasks: ``solve`` (first answer)
and ``solve+unique`` (count answers up to 2: unique, several, none). Instances: the public 2-D
cover-all sets in ``../shared/data/numberlink`` (skipped cleanly when absent; a sample unless
``--all-public``) and generated boards from 5x5 up to 40x40 (5x5, 10x10 and 20x20 in ``--quick``), drawn
by the quality pipeline (its boards before the acceptance filters) and by the union-find
partition (seeded, not required to be unique).

Every answer is checked by ``verify`` (``verified`` in the row). The backtracking search is
deterministic and its count explores the same nodes as its solve up to the first answer, so when
its solve ran out of time its count would too: that count is not run again and its row says
``"inferred": true`` (status unknown, seconds = the limit). Before the timed runs, the two
solvers are compared on random small boards (agreement on solvable-or-not and count(limit=2)).

The table gives, per set, task and method: instances, answered (solved and verified, or proven
none), unknown, median / p90 / max seconds of answered rows; then per generated size the median
of each method and which is faster: the crossover size is the first size from which SAT wins.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any, Iterator

from benchmarks import INTERRUPTED, JSON_HELP, RowWriter, data_folder, json_path
from puzzlesat.numberlink import backtracking
from puzzlesat.numberlink.formats import read
from puzzlesat.numberlink.model import Pair, Puzzle, Rules
from puzzlesat.numberlink.verify import verify
from puzzlesat.cli.arguments import seconds_argument

gen = importlib.import_module("puzzlesat.numberlink.generate")
sat = importlib.import_module("puzzlesat.numberlink.solve")

DATA = data_folder() / "numberlink"
SAT_METHOD = "sat-cadical195"
SEARCH_METHOD = "backtracking"
QUICK_SIZES = (5, 10, 20)  # one board per size and generator (--quick, over every module, stays within a minute)
FULL_SIZES = (5, 6, 7, 8, 10, 12, 15, 20, 25, 30, 40)
MAX_PUBLIC_CELLS = 50 * 50


# -- instances --------------------------------------------------------------------------------
def public_instances(*, quick: bool, everything: bool = False) -> Iterator[tuple[str, str, Puzzle]]:
    """(set, instance, puzzle) for the 2-D public puzzles up to 50x50 (a sample by default)."""
    plan = [
        ("janko", DATA / "thomasahle-numberlink" / "puzzles" / "janko", 80 if quick else 3),
        ("flowfree-inputs1", DATA / "thomasahle-numberlink" / "puzzles" / "inputs1", 24 if quick else 1),
        ("mzucker", DATA / "mzucker-flow_solver" / "puzzles", 32 if quick else 1),
        ("houston", DATA / "HoustonWeHaveABug-FlowFree" / "puzzles", 48 if quick else 1),
    ]
    for name, path, stride in plan:
        if not path.exists():
            print(f"{name}: no puzzles at {path} (data set absent), skipped", file=sys.stderr, flush=True)
            continue
        files = sorted(path.glob("*.txt")) if path.is_dir() else [path]
        found: list[tuple[str, Puzzle]] = []
        for file in files:
            try:
                puzzles = read(file)
            except Exception:  # a file the readers refuse is the parsers' business, not this benchmark's
                continue
            for i, puzzle in enumerate(puzzles):
                if puzzle.width * puzzle.height <= MAX_PUBLIC_CELLS:
                    found.append((f"{file.stem}#{i}" if len(puzzles) > 1 else file.stem, puzzle))
        step = 1 if everything else stride
        for instance, puzzle in found[::step]:
            yield name, instance, puzzle


def generated_instances(*, quick: bool) -> Iterator[tuple[str, str, Puzzle]]:
    """Square boards of growing size from both generators (seeded; uniqueness not required)."""
    sizes = QUICK_SIZES if quick else FULL_SIZES
    per_size = 1 if quick else 5
    for n in sizes:
        rng = random.Random(1000 + n)
        made = 0
        while made < per_size:
            links = gen.quality_links(n, n, rng)
            # the pipeline's boards without its acceptance filters (loops, links beside themselves,
            # the link-count band), which reject almost every candidate from 20x20 on
            if links is None or any(len(link) == 2 for link in links):
                continue
            puzzle, _ = gen._puzzle_from_links(n, n, links, frozenset())
            yield f"quality-{n}x{n}", f"q{n}-{made}", puzzle
            made += 1
        for k in range(per_size):
            links, blocked = gen.unionfind_links(n, n, rng)
            puzzle, _ = gen._puzzle_from_links(n, n, links, blocked)
            yield f"unionfind-{n}x{n}", f"u{n}-{k}", puzzle


# -- agreement on random small boards ---------------------------------------------------------
def agreement(n: int, *, seed: int = 1, time_limit: float = 20.0) -> dict[str, Any]:
    """SAT and backtracking on ``n`` random boards up to 7x7 (all four rule sets, with and
    without blocked cells): how many agree on count(limit=2), and every answer verified."""
    rng = random.Random(seed)
    rule_sets = (Rules(), Rules(cover_all=False), Rules(no_self_touch=True), Rules(cover_all=False, no_self_touch=True))
    agree = disagree = undecided = bad_answers = 0
    examples: list[str] = []
    started = time.perf_counter()
    for i in range(n):
        w, h = rng.randint(2, 7), rng.randint(2, 7)
        if i % 2:
            cells = [(r, c) for r in range(h) for c in range(w)]
            rng.shuffle(cells)
            k = rng.randint(1, max(1, min(6, w * h // 3)))
            b = rng.choice([0, rng.randint(1, max(1, w * h // 6))])
            puzzle = Puzzle(w, h, tuple(Pair(str(j + 1), cells[2 * j], cells[2 * j + 1]) for j in range(k)), frozenset(cells[2 * k: 2 * k + b]))
        else:
            links, blocked = gen.unionfind_links(w, h, rng)
            puzzle, _ = gen._puzzle_from_links(w, h, links, blocked if rng.random() < 0.7 else frozenset())
        rules = rule_sets[rng.randrange(4)]
        a = sat.count(puzzle, rules=rules, limit=2, time_limit=time_limit)
        b_ = backtracking.count(puzzle, rules=rules, limit=2, time_limit=time_limit)
        bad_answers += sum(1 for s in a.solutions + b_.solutions if verify(puzzle, s, rules))
        if not (a.complete and b_.complete):
            undecided += 1
        elif a.count == b_.count:
            agree += 1
        else:
            disagree += 1
            if len(examples) < 3:
                examples.append(f"{rules}: SAT {a.count} vs search {b_.count}\n{puzzle}")
    return {"instances": n, "agree": agree, "disagree": disagree, "undecided": undecided,
            "unverified_answers": bad_answers, "seconds": round(time.perf_counter() - started, 2), "examples": examples}


# -- timed runs -------------------------------------------------------------------------------
def _row(set_name: str, instance: str, puzzle: Puzzle, method: str, task: str, time_limit: float) -> dict[str, Any]:
    return {"family": "numberlink", "set": set_name, "instance": instance, "size": f"{puzzle.width}x{puzzle.height}",
            "cells": puzzle.width * puzzle.height, "pairs": len(puzzle.pairs), "method": method, "task": task,
            "time_limit": time_limit}


def _measure_solve(puzzle: Puzzle, method: str, time_limit: float) -> dict[str, Any]:
    started = time.perf_counter()
    if method == SAT_METHOD:
        result = sat.solve(puzzle, time_limit=time_limit)
    else:
        result = backtracking.solve(puzzle, time_limit=time_limit)
    seconds = time.perf_counter() - started
    verified = result.solution is not None and not verify(puzzle, result.solution)
    return {"status": result.status.value, "encode_s": round(result.timings.encode, 5), "solve_s": round(result.timings.solve, 5),
            "seconds": round(seconds, 5), "verified": verified}


def _measure_count(puzzle: Puzzle, method: str, time_limit: float) -> dict[str, Any]:
    started = time.perf_counter()
    if method == SAT_METHOD:
        result = sat.count(puzzle, limit=2, time_limit=time_limit)
    else:
        result = backtracking.count(puzzle, limit=2, time_limit=time_limit)
    seconds = time.perf_counter() - started
    verified = bool(result.solutions) and all(not verify(puzzle, s) for s in result.solutions)
    # the task is deciding uniqueness: an answer whose uniqueness stayed open is "unknown"
    if result.unique is None:
        status = "unknown"
    elif result.count:
        status = "solved"
    else:
        status = "unsatisfiable"
    return {"status": status, "unique": result.unique, "count": result.count, "encode_s": round(result.timings.encode, 5),
            "solve_s": round(result.timings.solve, 5), "seconds": round(seconds, 5), "verified": verified}


def run(*, time_limit: float, quick: bool = False, everything: bool = False, sets: str = "all") -> Iterator[dict[str, Any]]:
    """One row per (instance, method, task), as soon as it is measured (ROW_KEYS and more:
    ``pairs``, ``count`` and ``unique`` for solve+unique, ``inferred``). ``sets``: "all",
    "public" or "generated"."""
    def instances() -> Iterator[tuple[str, str, Puzzle]]:
        if sets in ("all", "public"):
            yield from public_instances(quick=quick, everything=everything)
        if sets in ("all", "generated"):
            yield from generated_instances(quick=quick)

    for set_name, instance, puzzle in instances():
        for method in (SAT_METHOD, SEARCH_METHOD):
            row = _row(set_name, instance, puzzle, method, "solve", time_limit)
            row.update(_measure_solve(puzzle, method, time_limit))
            yield row
            search_timed_out = method == SEARCH_METHOD and row["status"] == "unknown"
            row = _row(set_name, instance, puzzle, method, "solve+unique", time_limit)
            if search_timed_out:
                row.update({"status": "unknown", "unique": None, "count": 0, "encode_s": 0.0, "solve_s": float(time_limit),
                            "seconds": float(time_limit), "verified": False, "inferred": True})
            else:
                row.update(_measure_count(puzzle, method, time_limit))
            yield row


# -- report -----------------------------------------------------------------------------------
def _answered(row: dict[str, Any]) -> bool:
    return (row["status"] == "solved" and row["verified"]) or row["status"] == "unsatisfiable"


def _fmt(x: float | None) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{x:.3f}" if x < 10 else f"{x:.1f}"


def _pct(values: list[float], q: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def table(rows: list[dict[str, Any]]) -> str:
    groups: dict[tuple[str, str, str], list[dict]] = defaultdict(list)
    for row in rows:
        groups[(row["set"], row["task"], row["method"])].append(row)
    lines = [f"{'set':18} {'task':13} {'method':15} {'n':>4} {'answered':>8} {'unknown':>7} {'median':>8} {'p90':>8} {'max':>8} {'total':>8}"]
    for (set_name, task, method), group in groups.items():
        times = [r["seconds"] for r in group if _answered(r)]
        unknown = sum(1 for r in group if r["status"] == "unknown")
        lines.append(f"{set_name:18} {task:13} {method:15} {len(group):4d} {len(times):8d} {unknown:7d} "
                     f"{_fmt(statistics.median(times) if times else None):>8} {_fmt(_pct(times, 0.9)):>8} {_fmt(max(times) if times else None):>8} "
                     f"{_fmt(sum(r['seconds'] for r in group)):>8}")
    return "\n".join(lines)


def crossover(rows: list[dict[str, Any]], time_limit: float) -> tuple[str, dict[str, Any]]:
    """Per generator, task and generated size: the median seconds of each method (unanswered
    rows count as twice the limit, PAR2) and the faster one; the crossover is the smallest size
    from which SAT is faster at every larger size (or both ran out of time)."""
    per: dict[tuple[str, str, int], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for row in rows:
        generator = row["set"].split("-")[0]
        if generator not in ("quality", "unionfind"):
            continue
        side = int(row["size"].split("x")[0])
        per[(generator, row["task"], side)][row["method"]].append(row["seconds"] if _answered(row) else 2 * time_limit)
    out_lines = [f"{'boards':10} {'task':13} {'size':>7} {'SAT median':>11} {'search median':>14}  faster"]
    summary: dict[str, Any] = {}
    for generator in ("quality", "unionfind"):
        for task in ("solve", "solve+unique"):
            sides = sorted(side for (g, t, side) in per if g == generator and t == task)
            if not sides:
                continue
            winners = []
            for side in sides:
                methods = per[(generator, task, side)]
                a = statistics.median(methods[SAT_METHOD]) if methods[SAT_METHOD] else math.nan
                b = statistics.median(methods[SEARCH_METHOD]) if methods[SEARCH_METHOD] else math.nan
                faster = "SAT" if a < b else ("search" if b < a else "tie")
                winners.append((side, faster, a, b))
                ratio = f"{b / a:.1f}x" if faster == "SAT" and a > 0 else (f"{a / b:.1f}x" if faster == "search" and b > 0 else "-")
                out_lines.append(f"{generator:10} {task:13} {side:>3}x{side:<3} {_fmt(a):>11} {_fmt(b):>14}  {faster} {ratio}")
            cross = None
            for i, (side, first, _, _) in enumerate(winners):  # ties: both ran out of time
                if first == "SAT" and all(w in ("SAT", "tie") for _, w, _, _ in winners[i:]):
                    cross = side
                    break
            summary[f"{generator}/{task}"] = {"crossover_side": cross, "per_size": [{"side": s, "faster": f, "sat_median": a, "search_median": b} for s, f, a, b in winners]}
            out_lines.append(f"{generator} {task}: " + (f"SAT is faster from {cross}x{cross} on" if cross else "no size from which SAT is always faster"))
    return "\n".join(out_lines), summary


def plots(rows: list[dict[str, Any]], folder: Path, time_limit: float) -> list[Path]:
    try:
        from benchmarks.report import _have_matplotlib, plot_family
    except ImportError:  # pragma: no cover
        return []
    if not _have_matplotlib():
        print("matplotlib is not installed (pip install 'puzzlesat[plot]'): no plots", file=sys.stderr)
        return []
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for task in ("solve", "solve+unique"):
        chosen = [r for r in rows if r["task"] == task]
        if chosen:
            written += plot_family(chosen, f"numberlink-sat-vs-search-{task.replace('+', '-')}", folder, time_limit)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.numberlink_vs_search", description=__doc__.split("\n\n")[0])
    parser.add_argument("--time-limit", type=seconds_argument, default=None, metavar="S", help="seconds per instance, task and method (default 10, 2 with --quick)")
    parser.add_argument("--quick", action="store_true", help="a small sample (a few minutes)")
    parser.add_argument("--all-public", action="store_true", help="every public 2-D puzzle up to 50x50, not a sample")
    parser.add_argument("--agreement", type=int, default=None, metavar="N", help="random small boards for the agreement check (default 1000, 300 with --quick; 0 skips)")
    parser.add_argument("--json", type=json_path, default=None, metavar="PATH", help=JSON_HELP + "; the summary (agreement, crossover) goes to PATH.summary.json")
    parser.add_argument("--plots", default=None, metavar="DIR", help="write PNG plots (time against size, cactus) into DIR (needs matplotlib)")
    parser.add_argument("--sets", choices=["all", "public", "generated"], default="all", help="which instances to run (default all)")
    parser.add_argument("--report", nargs="+", default=None, metavar="ROWS", help="no runs: print the table, crossover and plots of JSON-lines row files")
    args = parser.parse_args(argv)
    time_limit = args.time_limit if args.time_limit is not None else (2.0 if args.quick else 10.0)
    if args.report:
        from benchmarks.report import load_rows

        absent = [path for path in args.report if not Path(path).is_file()]
        if absent:
            print(f"error: no such file: {', '.join(absent)}", file=sys.stderr)
            return 2
        rows = [row for path in args.report for row in load_rows(path)]  # (a torn last line is skipped)
        rows = [row for row in rows if "method" in row]
        for row in rows:  # rows written before the uniqueness task counted open answers as solved
            if row["task"] == "solve+unique" and row.get("unique") is None:
                row["status"] = "unknown"
        limit = max((row.get("time_limit") or time_limit for row in rows), default=time_limit)
        print(table(rows))
        print()
        print(crossover(rows, limit)[0])
        if args.plots:
            for path in plots(rows, Path(args.plots), limit):
                print(f"plot: {path}")
        return 0
    n_agree = args.agreement if args.agreement is not None else (300 if args.quick else 1000)

    summary: dict[str, Any] = {"time_limit": time_limit, "quick": args.quick}
    if n_agree:
        try:
            result = agreement(n_agree)
        except KeyboardInterrupt:
            print("interrupted during the agreement check, before any timed run: no rows", file=sys.stderr)
            return INTERRUPTED
        summary["agreement"] = result
        print(f"agreement on {result['instances']} random boards up to 7x7: {result['agree']} agree, {result['disagree']} disagree, "
              f"{result['undecided']} undecided, {result['unverified_answers']} unverified answers ({result['seconds']} s)")
        for example in result["examples"]:
            print(example)
    rows = []
    sink = RowWriter(args.json)
    interrupted = False
    try:
        for row in run(time_limit=time_limit, quick=args.quick, everything=args.all_public, sets=args.sets):
            rows.append(row)
            sink.write(row)
            print(f"  {row['set']}/{row['instance']} {row['size']} {row['method']} {row['task']}: {row['status']} {row['seconds']:.3f}s"
                  + (" (inferred)" if row.get("inferred") else ""), file=sys.stderr)
    except KeyboardInterrupt:
        interrupted = True
        print("interrupted: reporting the rows measured so far", file=sys.stderr)
    finally:
        sink.close()
    if not rows and not interrupted:
        print(f"no instance measured: the data sets of --sets {args.sets} are not present (see the lines above)")
    print(table(rows))
    print()
    text, cross = crossover(rows, time_limit)
    summary["crossover"] = cross
    print(text)
    print(sink.gauge_line())
    if args.json:
        Path(f"{args.json}.summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    if args.plots:
        for path in plots(rows, Path(args.plots), time_limit):
            print(f"plot: {path}")
    return INTERRUPTED if interrupted else 0


if __name__ == "__main__":
    sys.exit(main())
