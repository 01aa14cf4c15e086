"""Numberlink benchmark: SAT solve + uniqueness on every 2-D public puzzle set.

    python -m benchmarks.numberlink [--rules default|no-self-touch|may-leave-empty|all]
                                    [--time-limit S] [--sets janko ...] [--solver NAME]
                                    [--json PATH] [--quick] [--no-huge]

Each puzzle is one ``count(limit=2)`` call in this process (the first answer and the
uniqueness decision, with one time limit for both), re-checked here by ``verify``. Rows have the
keys of ``benchmarks.ROW_KEYS`` plus ``rules``, ``unique`` (true / false / null), ``variables``,
``clauses`` and ``cycles_cut``. Boards of more than 250 000 cells (the 1002 x 1002 ones) run in
a child process each, whose row also gives ``peak_mb`` (its peak resident memory).

Sets (skipped when ``../shared/data/numberlink`` is absent): ``janko`` (thomasahle's copy of
the janko.at Arukone series, 270), ``thomasahle-inputs1`` .. ``-inputs10``, ``mzucker`` (Flow
Free levels, one unsolvable), ``houston`` (HoustonWeHaveABug's 41, up to 1002 x 1002), and under
may-leave-empty rules ``adc2015`` (Q04-Q20), ``adc2018`` (Q1-Q29: 27 of them have several layers,
solved by ``numberlink.multilayer``; two are single-layer), ``imos`` and ``algorithms2012``. The
cover-all sets run under default and no-self-touch rules, the others under may-leave-empty rules.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator, Sequence

from benchmarks import JSON_HELP, Case, data_folder, json_path, print_rows, rows_of
from puzzlesat.numberlink import formats, multilayer
from puzzlesat.numberlink.model import Puzzle, Rules
from puzzlesat.numberlink.solve import DEFAULT_SOLVER, count
from puzzlesat.numberlink.verify import verify
from puzzlesat.cli.arguments import seconds_argument

DATA = data_folder() / "numberlink"
RULE_SETS = {
    "default": Rules(),
    "no-self-touch": Rules(no_self_touch=True),
    "may-leave-empty": Rules(cover_all=False),
}
COVER_ALL_SETS = ("janko", *(f"thomasahle-inputs{i}" for i in range(1, 11)), "mzucker", "houston")
LEAVE_EMPTY_SETS = ("adc2015", "adc2018", "imos", "algorithms2012")
ALL_SETS = COVER_ALL_SETS + LEAVE_EMPTY_SETS
HUGE_CELLS = 250_000
QUICK_PUZZLES = 1  # per set and rules in --quick (which, over every module, stays within a minute on 2 cores)


def _files(name: str) -> list[Path]:
    if name == "janko":
        return [DATA / "thomasahle-numberlink" / "puzzles" / "janko"]
    if name.startswith("thomasahle-"):
        return [DATA / "thomasahle-numberlink" / "puzzles" / name.split("-", 1)[1]]
    if name == "mzucker":
        return sorted((DATA / "mzucker-flow_solver" / "puzzles").glob("*.txt"))
    if name == "houston":
        return sorted((DATA / "HoustonWeHaveABug-FlowFree" / "puzzles").glob("*.txt"))
    if name == "adc2015":
        return sorted((DATA / "dasadc-conmgr-ADC2015" / "sample" / "ADC2015_QA" / "Q").glob("Q*.txt"))
    if name == "adc2018":
        questions = DATA / "dasadc-github-io-ADC2017-2018" / "adc2018" / "Questions"
        return sorted(questions.glob("Q*.txt"), key=lambda path: int(path.stem[1:]) if path.stem[1:].isdigit() else 0)
    if name == "imos":
        return [DATA / "imos-Puzzle" / "NumberLink" / "sample_input"]
    if name == "algorithms2012":
        return sorted((DATA / "kunisura-algorithms2012" / "examples").glob("*.dat"))
    raise ValueError(f"unknown set {name!r}")


def load_set(name: str) -> list[tuple[str, Puzzle | multilayer.Puzzle]]:
    """(instance name, puzzle) for every puzzle of a set; [] when the data is absent. A file of
    several layers gives a multi-layer puzzle."""
    out: list[tuple[str, Puzzle | multilayer.Puzzle]] = []
    for path in _files(name):
        if not path.exists():
            continue
        data = path.read_bytes()
        if path.is_file() and multilayer.formats.layered_format(data):
            out.append((path.name, multilayer.parse(data, source=str(path))))
            continue
        puzzles = formats.parse_all(data, source=str(path))
        for i, puzzle in enumerate(puzzles):
            out.append((path.name if len(puzzles) == 1 else f"{path.name}#{i}", puzzle))
    return out


def sets_for(rules_name: str) -> tuple[str, ...]:
    return LEAVE_EMPTY_SETS if rules_name == "may-leave-empty" else COVER_ALL_SETS


def _cells(puzzle: Puzzle | multilayer.Puzzle) -> int:
    return puzzle.num_cells if isinstance(puzzle, multilayer.Puzzle) else puzzle.width * puzzle.height


def measure(set_name: str, instance: str, puzzle: Puzzle | multilayer.Puzzle, rules_name: str, *, time_limit: float | None, solver: str) -> dict[str, Any]:
    """One row: count(limit=2) under the named rules, the answer re-verified here."""
    rules = RULE_SETS[rules_name]
    layered = isinstance(puzzle, multilayer.Puzzle)
    counter, checker = (multilayer.count, multilayer.verify) if layered else (count, verify)
    start = time.perf_counter()
    row: dict[str, Any] = {
        "family": "numberlink", "set": set_name, "instance": instance,
        "size": puzzle.size_text if layered else f"{puzzle.width}x{puzzle.height}",
        "cells": _cells(puzzle), "method": f"sat-{solver}", "task": "solve+unique", "rules": rules_name,
        "time_limit": time_limit,
    }
    try:
        result = counter(puzzle, rules=rules, limit=2, time_limit=time_limit, solver=solver)
    except Exception as exc:  # a crash is a finding, not the end of the run
        row.update(status="error", error=f"{type(exc).__name__}: {exc}", encode_s=0.0, solve_s=0.0,
                   seconds=round(time.perf_counter() - start, 4), verified=False, unique=None)
        return row
    seconds = time.perf_counter() - start
    status = "solved" if result.count else ("unsatisfiable" if result.complete else "unknown")
    verified = bool(result.solutions) and all(not checker(puzzle, s, rules) for s in result.solutions)
    row.update(status=status, unique=result.unique, encode_s=round(result.timings.encode, 4),
               solve_s=round(result.timings.solve, 4), seconds=round(seconds, 4), verified=verified,
               variables=result.stats.get("variables"), clauses=result.stats.get("clauses"),
               cycles_cut=result.stats.get("cycles_cut"))
    return row


def _measure_in_child(set_name: str, instance: str, index: int, rules_name: str, *, time_limit: float | None, solver: str) -> dict[str, Any]:
    command = [sys.executable, "-m", "benchmarks.numberlink", "--one", set_name, str(index), "--rules", rules_name, "--solver", solver]
    if time_limit is not None:
        command += ["--time-limit", str(time_limit)]
    wall = None if time_limit is None else 3 * time_limit + 120
    start = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=wall, cwd=Path(__file__).resolve().parents[1])
        lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
        if lines:
            return json.loads(lines[-1])
        error = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
    except subprocess.TimeoutExpired:
        error = f"child process killed after {wall} s"
    return {"family": "numberlink", "set": set_name, "instance": instance, "method": f"sat-{solver}", "task": "solve+unique",
            "rules": rules_name, "time_limit": time_limit, "status": "error", "error": error, "encode_s": 0.0, "solve_s": 0.0,
            "seconds": round(time.perf_counter() - start, 4), "verified": False, "unique": None, "size": "?", "cells": 0}


def run(
    *,
    time_limit: float | None = 10.0,
    quick: bool = False,
    rules: str = "all",
    sets: Sequence[str] | None = None,
    solver: str = DEFAULT_SOLVER,
    huge: bool = True,
) -> Iterator[dict[str, Any]]:
    """Yield one row per (rules, puzzle) as soon as it is measured."""
    yield from rows_of(row_cases(time_limit=time_limit, quick=quick, rules=rules, sets=sets, solver=solver, huge=huge))


def row_cases(
    *,
    time_limit: float | None = 10.0,
    quick: bool = False,
    rules: str = "all",
    sets: Sequence[str] | None = None,
    solver: str = DEFAULT_SOLVER,
    huge: bool = True,
) -> Iterator[Case]:
    """One case per (rules, puzzle): its row (a huge board's in a child process of its own)."""
    rule_names = list(RULE_SETS) if rules == "all" else [rules]
    said_absent: set[str] = set()  # (a set is named once, not once per rule set)
    for rules_name in rule_names:
        for set_name in sets or sets_for(rules_name):
            if set_name not in sets_for(rules_name):
                continue
            puzzles = load_set(set_name)
            if not puzzles and set_name not in said_absent:
                said_absent.add(set_name)
                print(f"{set_name}: no puzzles under {DATA} (data set absent), skipped", file=sys.stderr, flush=True)
            if quick:
                puzzles = [(n, p) for n, p in puzzles if _cells(p) <= HUGE_CELLS][:QUICK_PUZZLES]
            for index, (instance, puzzle) in enumerate(puzzles):
                named = {"set_name": set_name, "instance": instance, "rules_name": rules_name, "time_limit": time_limit,
                         "solver": solver}
                if _cells(puzzle) > HUGE_CELLS:
                    if huge:
                        yield _measure_in_child, {**named, "index": index}
                    continue
                yield measure, {**named, "puzzle": puzzle}


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))] if ordered else float("nan")


def table(rows: list[dict[str, Any]]) -> str:
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault((row["rules"], row["set"]), []).append(row)
    head = f"{'rules':16} {'set':22} {'puzzles':>7} {'solved':>6} {'unique':>6} {'multi':>5} {'unsat':>5} {'unknown':>7} {'error':>5} {'median':>8} {'p90':>8} {'max':>8} {'total':>8}"
    lines = [head, "-" * len(head)]
    for (rules_name, set_name), group in groups.items():
        secs = [r["seconds"] for r in group]
        def n(pred) -> int:
            return sum(1 for r in group if pred(r))
        lines.append(
            f"{rules_name:16} {set_name:22} {len(group):7d} {n(lambda r: r['status'] == 'solved'):6d} "
            f"{n(lambda r: r.get('unique') is True):6d} {n(lambda r: r.get('unique') is False and r['status'] == 'solved'):5d} "
            f"{n(lambda r: r['status'] == 'unsatisfiable'):5d} {n(lambda r: r['status'] == 'unknown' or (r['status'] == 'solved' and r.get('unique') is None)):7d} "
            f"{n(lambda r: r['status'] == 'error'):5d} {statistics.median(secs):8.3f} {_percentile(secs, 0.9):8.3f} {max(secs):8.3f} {sum(secs):8.2f}")
    huge = [r for r in rows if "peak_mb" in r]
    if huge:
        lines.append("")
        lines.append("boards over 250 000 cells (own process each):")
        for r in huge:
            lines.append(f"  {r['rules']:16} {r['set']:12} {r['instance']:28} {r['size']:>10} {r['status']:>13} "
                         f"unique={r.get('unique')} {r['seconds']:.1f}s (encode {r['encode_s']:.1f}s) peak {r['peak_mb']:.0f} MB")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.numberlink", description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", choices=[*RULE_SETS, "all"], default="all", help="run the sets meant for these rules (default: all)")
    parser.add_argument("--time-limit", type=seconds_argument, default=10.0, metavar="S", help="seconds per puzzle (solve + uniqueness; default 10)")
    parser.add_argument("--sets", nargs="+", choices=ALL_SETS)
    parser.add_argument("--solver", default=DEFAULT_SOLVER, help=f"SAT back-end by pysat name (default {DEFAULT_SOLVER})")
    parser.add_argument("--json", type=json_path, metavar="PATH", help=JSON_HELP)
    parser.add_argument("--quick", action="store_true", help=f"at most {QUICK_PUZZLES} puzzles per set, no huge boards")
    parser.add_argument("--no-huge", action="store_true", help="skip boards over 250 000 cells")
    parser.add_argument("--one", nargs=2, metavar=("SET", "INDEX"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.sets and args.rules != "all":  # a set runs only under the rules it is meant for
        elsewhere = [name for name in args.sets if name not in sets_for(args.rules)]
        if elsewhere:
            parser.error(f"--sets {' '.join(elsewhere)}: not run under {args.rules} rules, whose sets are "
                         f"{', '.join(sets_for(args.rules))}")
    if args.one:
        set_name, index = args.one[0], args.one[1]
        if set_name not in ALL_SETS:
            parser.error(f"--one {set_name}: no such set (the sets: {', '.join(ALL_SETS)})")
        puzzles = load_set(set_name)
        if not index.isdigit() or int(index) >= len(puzzles):
            parser.error(f"--one {set_name} {index}: no such puzzle ({len(puzzles)} in the set {set_name} under {DATA})")
        instance, puzzle = puzzles[int(index)]
        row = measure(set_name, instance, puzzle, args.rules, time_limit=args.time_limit, solver=args.solver)
        # the solver may run in a process of its own (huge boards under a time limit): count both
        peaks = [resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
        row["peak_mb"] = max(peaks) / 1024
        print(json.dumps(row), flush=True)
        return 0
    if not DATA.exists():
        print(f"public data not present: {DATA} (nothing to measure)")
        return 0
    rows = run(time_limit=args.time_limit, quick=args.quick, rules=args.rules, sets=args.sets,
               solver=args.solver, huge=not args.no_huge)
    return print_rows(rows, json_out=args.json, table=table, line=lambda row: (
        f"{row['rules']:16} {row['set']:22} {row['instance']:32} {row['status']:>13} unique={str(row.get('unique')):5} "
        f"{row['seconds']:8.3f}s" + ("" if row["status"] != "error" else f"  {row.get('error')}")))


if __name__ == "__main__":
    sys.exit(main())
