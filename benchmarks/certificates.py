"""Certificates benchmark: certify + check times per family, and exported formulas against
other SAT solvers.

    python -m benchmarks.certificates [--time-limit S] [--json PATH] [--quick]
    python -m benchmarks.certificates --target numberlink|roller [--sets SET ...] [--per-set N] [--shard K/N] [--json PATH]

Part 1 (task ``certify+check``): a small sample per family (the bundled examples; with the public
data present, the first janko puzzles under no-self-touch rules and the first starhermit levels):
``puzzlesat.certify.certify`` (find the answer, write the formula and CaDiCaL's DRAT proof)
then ``puzzlesat.proofcheck.check_certificate`` (re-derive the formula, replay the proof in
plain Python). Rows carry ``certify_s``, ``check_s``, the formula's and the proof's sizes and
whether the check confirmed the claim.

Part 2 (task ``agreement``): 20 small boards per family (seeded), each exported (Numberlink:
the rules, and the rules with the first answer blocked; Roller and Swap: at most K - 1 and at
most K moves, K the proven minimum) and solved by CaDiCaL, Glucose 4 and MiniSat 2.2; a row
per formula says whether the three verdicts agree.

``--target numberlink`` (task ``target``, issue #44's Numberlink target) runs instead every
public cover-all puzzle up to 40x20 (``TARGET_SETS``: janko, thomasahle inputs1-9, mzucker,
Houston; ``--sets`` some of them, ``--per-set N`` the first N of each) under no-self-touch rules:
the uncertified uniqueness answer (``numberlink.is_unique``) timed, then certify + check; a row
per puzzle, and a table per set of the sums and their ratio (the target: at most 3). The
uncertified answer is timed twice: as the library gives it, and by the SAT road alone
(``sat_road``: without the compiled small-board search, which decides small boards in a
millisecond or two but proves nothing; the target was set against the SAT road's time). The
targets' rows and tables are in ``benchmarks/_certificate_targets.py``.
``--target roller`` (the Roller target) certifies and checks the minimum of every level of
``ROLLER_SETS`` (starhermit, TabTale with the bottom-left start): in time when both are done
within ``--time-limit`` (60 s) CPU seconds together; the table gives the share per set (the
target: 90 %), and the count within that many wall seconds.
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator, Sequence

from pysat.solvers import Solver

import puzzlesat
from benchmarks import INTERRUPTED, JSON_HELP, RowWriter, json_path
from puzzlesat.certify import certify
from puzzlesat.proofcheck import check_certificate
from puzzlesat.registry import get_family
from puzzlesat.cli.arguments import seconds_argument

from benchmarks._certificate_targets import (ROLLER_DEFAULT_SETS, ROLLER_SETS, TARGET_SETS, roller_rows, roller_table, shard_argument,
                                             target_rows, target_table)

EXAMPLES = Path(puzzlesat.__file__).resolve().parent / "examples"  # (package data: there in a checkout and a wheel)
SOLVERS = ("cadical195", "glucose4", "minisat22")
DEFAULT_LIMIT = 60.0
QUICK_CELLS = 100  # --quick certifies the examples up to 10x10 only (the larger ones run to the time limit)


def _row(family: str, set_name: str, instance: str, size: str, cells: int, task: str, **extra: Any) -> dict[str, Any]:
    row = {"family": family, "set": set_name, "instance": instance, "size": size, "cells": cells,
           "method": "cadical195-drat+proofcheck" if task == "certify+check" else "+".join(SOLVERS),
           "task": task, "encode_s": 0.0, "solve_s": 0.0, "seconds": 0.0, "verified": False, "time_limit": None}
    row.update(extra)
    return row


def sample(quick: bool) -> Iterator[tuple[str, str, str, Any, dict]]:
    """(family, set, instance, puzzle, options) of the certify+check sample."""
    per_file = 1 if quick else 3

    def small(family, puzzle) -> bool:
        return not quick or _cells(family.size_text(puzzle)) <= QUICK_CELLS

    for name, options in (("numberlink", {}), ("numberlink", {"no_self_touch": True})):
        family = get_family(name)
        for path in sorted((EXAMPLES / "numberlink").glob("*.nl")):
            puzzles = family.load(path.read_text(), source=str(path), fmt=None, options=family.defaults())
            for i, puzzle in enumerate(puzzles[:per_file]):
                if not isinstance(puzzle, Exception) and family.size_text(puzzle).count("x") == 1 and small(family, puzzle):
                    yield name, "examples" + ("-nst" if options else ""), f"{path.name}#{i}", puzzle, options
    for name, folder, ending in (("roller", "roller", "*.roller"), ("swap", "swap", "*.swap")):
        family = get_family(name)
        for path in sorted((EXAMPLES / folder).glob(ending)):
            puzzles = family.load(path.read_text(), source=str(path), fmt=None, options=family.defaults())
            for i, puzzle in enumerate(puzzles[:per_file]):
                if not isinstance(puzzle, Exception) and small(family, puzzle):
                    yield name, "examples", f"{path.name}#{i}", puzzle, {}
    try:
        from benchmarks import numberlink as nl_bench, roller as roller_bench

        for i, (instance, puzzle) in enumerate(nl_bench.load_set("janko")[: 5 if quick else 20]):
            yield "numberlink", "janko-nst", instance, puzzle, {"no_self_touch": True}
        for level in roller_bench.load_set("starhermit")[: 5 if quick else 20]:
            yield "roller", "starhermit", level.name, level, {}
    except Exception:  # the public data is absent: the bundled examples stand alone
        return


def _cells(size: str) -> int:
    """Cells of a board from its size text.

    >>> _cells("14x12"), _cells("4x4x2")
    (168, 32)
    """
    cells = 1
    for side in size.split("x"):
        cells *= int(side)
    return cells


def cpu_seconds() -> float:
    """CPU seconds of this process and its finished children: steadier than wall time on a
    shared machine (a solver that races in a child process is counted once it ends)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def measure_certificate(family: str, set_name: str, instance: str, puzzle, options: dict, time_limit: float) -> dict[str, Any]:
    """Certify, then check (each within ``time_limit``)."""
    record = get_family(family)
    size = record.size_text(puzzle)
    cells = _cells(size) if size.replace("x", "").isdigit() else 0
    with tempfile.TemporaryDirectory() as directory:
        started, cpu = time.perf_counter(), cpu_seconds()
        result = certify(puzzle, family=family, options=options, time_limit=time_limit, directory=directory)
        certify_s, certify_cpu_s = time.perf_counter() - started, cpu_seconds() - cpu
        check, check_cpu_s = None, 0.0
        if result["certificate"]:
            started, cpu = time.perf_counter(), cpu_seconds()
            check = check_certificate(directory, time_limit=time_limit)
            check_s, check_cpu_s = time.perf_counter() - started, cpu_seconds() - cpu
            import json

            manifest = json.load(open(Path(directory) / "manifest.json"))
            sizes = dict(manifest.get("sizes", {}))
            if "additions" in manifest:  # (Numberlink: how many cuts and touch rows its models needed)
                sizes["additions"] = [item[0] for item in manifest["additions"]]
        else:
            check_s, sizes = 0.0, {}
    return _row(family, set_name, instance, size, cells, "certify+check", time_limit=time_limit,
                status=result["claim"] if result["certificate"] else "uncertified", claim=result["claim"],
                reason=result.get("reason") or (check.reason if check else None),
                certify_s=round(certify_s, 3), check_s=round(check_s, 3), solve_s=round(certify_s, 3),
                certify_cpu_s=round(certify_cpu_s, 4), check_cpu_s=round(check_cpu_s, 4),
                seconds=round(certify_s + check_s, 3), verified=bool(check and check.confirmed), **sizes)


def verdicts(cnf) -> dict[str, bool]:
    out = {}
    for name in SOLVERS:
        with Solver(name=name, bootstrap_with=cnf.clauses) as solver:
            out[name] = solver.solve()
    return out


def small_boards(family: str, seed: int) -> Iterator[Any]:
    """Small boards of the family, seeded, without end (Numberlink: random boards, mostly without
    answer, taking turns with generated 5x5 puzzles, which have exactly one)."""
    rng = random.Random(seed)
    if family == "numberlink":
        from puzzlesat.numberlink.model import Puzzle

        record = get_family("numberlink")
        for turn in range(10**9):
            if turn % 2:
                yield record.make((5, 5), seed=seed + turn, time_limit=30, options={"method": "quality"}).puzzle
                continue
            h, w = rng.choice([(4, 4), (4, 5), (5, 5)])
            cells = [(r, c) for r in range(h) for c in range(w)]
            rng.shuffle(cells)
            grid = [["."] * w for _ in range(h)]
            for k in range(rng.randint(2, 4)):
                for r, c in cells[2 * k: 2 * k + 2]:
                    grid[r][c] = "ABCD"[k]
            yield Puzzle.from_rows(["".join(row) for row in grid])
    elif family == "roller":
        from puzzlesat.roller.model import Level

        while True:
            h, w = rng.choice([(5, 5), (5, 6), (6, 6)])
            rows = ["".join("#" if rng.random() < 0.12 else "." for _ in range(w)) for _ in range(h)]
            floor = [(r, c) for r in range(h) for c in range(w) if rows[r][c] == "."]
            if floor:
                yield Level(tuple(rows), rng.choice(floor))
    else:
        from puzzlesat.swap.generate import draw_level

        for turn in range(10**9):
            yield draw_level(random.Random(rng.randrange(10**9)), difficulty="easy" if turn % 2 else "medium")


def agreement(family: str, n: int, time_limit: float) -> Iterator[dict[str, Any]]:
    record = get_family(family)
    used = 0
    for i, puzzle in enumerate(small_boards(family, 44)):
        if used == n:
            return
        formulas = []
        if family == "numberlink":
            from puzzlesat.numberlink.export import decode

            for options in ({}, {"no_self_touch": True}, {"allow_empty": True, "no_self_touch": True}):
                cnf = record.export_cnf(puzzle, options=options)
                formulas.append((f"rules {options or 'default'}", cnf))
                with Solver(name="cadical195", bootstrap_with=cnf.clauses) as solver:
                    if solver.solve():
                        answer = decode(puzzle, cnf, solver.get_model())
                        formulas.append((f"rules {options or 'default'} + first answer blocked", record.export_cnf(puzzle, options=options, exclude=answer)))
        else:
            solved = record.solve_record(puzzle, options=record.defaults(), time_limit=time_limit)
            if solved["status"] != "solved" or not solved.get("optimal"):
                continue
            k = solved["moves_count"]
            formulas += [(f"at most {k} moves", record.export_cnf(puzzle, options={}, moves=k))]
            if k:
                formulas.append((f"at most {k - 1} moves", record.export_cnf(puzzle, options={}, moves=k - 1)))
        used += 1
        for what, cnf in formulas:
            started = time.perf_counter()
            said = verdicts(cnf)
            seconds = time.perf_counter() - started
            agree = len(set(said.values())) == 1
            yield _row(family, "small-boards", f"{i} {what}", record.size_text(puzzle), 0, "agreement",
                       status="agree" if agree else "disagree", verified=agree, seconds=round(seconds, 3),
                       verdicts={k: ("sat" if v else "unsat") for k, v in said.items()},
                       variables=cnf.nv, clauses=len(cnf.clauses))


def run(*, time_limit: float = DEFAULT_LIMIT, quick: bool = False) -> Iterator[dict[str, Any]]:
    for family, set_name, instance, puzzle, options in sample(quick):
        yield measure_certificate(family, set_name, instance, puzzle, options, time_limit)
    for family in ("numberlink", "roller", "swap"):
        yield from agreement(family, 5 if quick else 20, time_limit)


def table(rows: list[dict[str, Any]]) -> str:
    lines = ["| family | set | instance | size | claim | certified | confirmed | certify s | check s | clauses | proof lines |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if r["task"] == "certify+check":
            lines.append(f"| {r['family']} | {r['set']} | {r['instance']} | {r['size']} | {r['claim']} | "
                         f"{r['status'] != 'uncertified'} | {r['verified']} | {r['certify_s']} | {r['check_s']} | "
                         f"{r.get('clauses', '')} | {r.get('proof_lines', '')} |")
    lines += ["", "| family | formulas | all three solvers agree | sat | unsat |", "|---|---|---|---|---|"]
    for family in ("numberlink", "roller", "swap"):
        mine = [r for r in rows if r["task"] == "agreement" and r["family"] == family]
        sat = sum(1 for r in mine if r["verdicts"]["cadical195"] == "sat")
        lines.append(f"| {family} | {len(mine)} | {sum(r['verified'] for r in mine)} | {sat} | {len(mine) - sat} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.certificates", description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=seconds_argument, default=DEFAULT_LIMIT, help="seconds per certificate (default 60)")
    parser.add_argument("--json", type=json_path, metavar="PATH", help=JSON_HELP)
    parser.add_argument("--quick", action="store_true", help=f"one puzzle per example file (boards up to {QUICK_CELLS} cells), 5 per public set, 5 boards per family")
    parser.add_argument("--target", choices=("numberlink", "roller"), help="an issue #44 target instead: numberlink (every public cover-all puzzle "
                        "up to 40x20 under no-self-touch rules, certify + check against the uncertified uniqueness time) or roller (the "
                        "minimum of every starhermit and TabTale level certified and checked within the time limit)")
    parser.add_argument("--sets", nargs="+", choices=TARGET_SETS + ROLLER_SETS, metavar="SET",
                        help=f"with --target: these sets only (numberlink: {', '.join(TARGET_SETS)}; roller: {', '.join(ROLLER_SETS)})")
    parser.add_argument("--per-set", type=int, metavar="N", help="with --target: the first N puzzles of each set")
    parser.add_argument("--shard", type=shard_argument, default=(1, 1), metavar="K/N",
                        help="with --target: the K-th of N shards of each set (positions K-1, K-1+N, ...), so that N runs side by side "
                             "(one per core, each with --json) cover the sets; the targets are then read from their rows together")
    args = parser.parse_args(argv)
    if (args.sets or args.per_set or args.shard != (1, 1)) and not args.target:
        parser.error("--sets, --per-set and --shard go with --target")
    known = TARGET_SETS if args.target == "numberlink" else ROLLER_SETS
    if args.sets and set(args.sets) - set(known):
        parser.error(f"--target {args.target} has the sets {', '.join(known)}")
    rows: list[dict[str, Any]] = []
    if args.target == "numberlink":
        rows_of, show = (lambda: target_rows(args.sets or TARGET_SETS, args.per_set, args.time_limit, args.shard)), target_table
    elif args.target == "roller":
        rows_of, show = (lambda: roller_rows(args.sets or ROLLER_DEFAULT_SETS, args.per_set, args.time_limit, args.shard)), roller_table
    else:
        rows_of, show = (lambda: run(time_limit=args.time_limit, quick=args.quick)), table
    with RowWriter(args.json) as writer:
        try:
            for row in rows_of():
                rows.append(row)
                writer.write(row)
        except KeyboardInterrupt:
            print(show(rows))
            return INTERRUPTED
    print(show(rows))
    print(writer.gauge_line())
    return 0


if __name__ == "__main__":
    sys.exit(main())
