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
(:func:`sat_road`: without the compiled small-board search, which decides small boards in a
millisecond or two but proves nothing; the target was set against the SAT road's time).
``--target roller`` (the Roller target) certifies and checks the minimum of every level of
``ROLLER_SETS`` (starhermit, TabTale with the bottom-left start): in time when both are done
within ``--time-limit`` (60 s) CPU seconds together; the table gives the share per set (the
target: 90 %), and the count within that many wall seconds.
"""

from __future__ import annotations

import argparse
import contextlib
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


TARGET_SETS = ("janko", *(f"thomasahle-inputs{i}" for i in range(1, 10)), "mzucker", "houston")
TARGET_RATIO = 3.0  # certify + check within this many times the uncertified uniqueness time
ROLLER_SETS = ("starhermit", "tabtale-bottom-left", "tabtale-row-major")
ROLLER_DEFAULT_SETS = ROLLER_SETS[:2]
ROLLER_SHARE = 0.9  # of the levels certified and checked within the time limit


def fits_target(puzzle) -> bool:
    """Boards up to 40x20 (either way round), one layer.

    >>> from puzzlesat.numberlink.model import Puzzle
    >>> wide = ["A" + "." * 39 + "A"] + ["." * 41] * 19
    >>> fits_target(Puzzle.from_rows(["A.A"])), fits_target(Puzzle.from_rows(wide)), fits_target(Puzzle.from_rows(wide[:1] + wide[2:]))
    (True, False, False)
    """
    w, h = getattr(puzzle, "width", 0), getattr(puzzle, "height", 0)
    return not hasattr(puzzle, "layers") and ((w <= 40 and h <= 20) or (w <= 20 and h <= 40))


def target_rows(sets: Sequence[str], per_set: int | None, time_limit: float, shard: tuple[int, int] = (1, 1)) -> Iterator[dict[str, Any]]:
    """One row per puzzle of the target: ``uncertified_s`` (``numberlink.is_unique`` under
    no-self-touch rules, with its verdict) beside ``certify_s`` and ``check_s``."""
    from benchmarks import numberlink as nl_bench
    from puzzlesat import numberlink
    from puzzlesat.numberlink.model import Puzzle, Rules

    warm = Puzzle.from_rows(["A.B", "...", "A.B"])  # (the first row pays no import: both sides warmed)
    numberlink.is_unique(warm, rules=Rules(no_self_touch=True))
    measure_certificate("numberlink", "-", "-", warm, {"no_self_touch": True}, time_limit)
    for set_name in sets:
        puzzles = in_shard([(name, p) for name, p in nl_bench.load_set(set_name) if fits_target(p)][:per_set], shard)
        if not puzzles:
            print(f"{set_name}: no puzzles under {nl_bench.DATA} (data set absent), skipped", file=sys.stderr, flush=True)
        for instance, puzzle in puzzles:
            started, cpu = time.perf_counter(), cpu_seconds()
            said = numberlink.is_unique(puzzle, rules=Rules(no_self_touch=True), time_limit=time_limit)
            uncertified_s, uncertified_cpu_s = time.perf_counter() - started, cpu_seconds() - cpu
            with sat_road():
                started, cpu = time.perf_counter(), cpu_seconds()
                numberlink.is_unique(puzzle, rules=Rules(no_self_touch=True), time_limit=time_limit)
                sat_s, sat_cpu_s = time.perf_counter() - started, cpu_seconds() - cpu
            row = measure_certificate("numberlink", set_name, instance, puzzle, {"no_self_touch": True}, time_limit)
            row.update(task="target", uncertified_s=round(uncertified_s, 4), uncertified_cpu_s=round(uncertified_cpu_s, 4),
                       sat_road_s=round(sat_s, 4), sat_road_cpu_s=round(sat_cpu_s, 4),
                       uncertified=said.uniqueness.value, ratio=round(row["seconds"] / max(uncertified_s, 1e-6), 2))
            yield row


@contextlib.contextmanager
def sat_road() -> Iterator[None]:
    """Numberlink's uncertified answer by the SAT road alone, without the compiled small-board
    search (docs/numberlink-engine.md, step 3), which came after the target was set: the
    uncertified time the issue measured "today" was the SAT road's."""
    from puzzlesat.numberlink.engine import tuning

    before, tuning.SMALL_BOARD_CELLS = tuning.SMALL_BOARD_CELLS, 0
    try:
        yield
    finally:
        tuning.SMALL_BOARD_CELLS = before


def target_table(rows: list[dict[str, Any]]) -> str:
    """Per set: puzzles, certified, confirmed, the sums of the uncertified uniqueness time and of
    certify + check, and their ratio (the target: at most ``TARGET_RATIO``)."""
    lines = ["| set | puzzles | several answers | certified | confirmed | uncertified s | certify s | check s | certify + check s | ratio "
             "| ratio of CPU seconds | worst puzzle ratio | uncertified s, SAT road | ratio to it (CPU) |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    names = list(dict.fromkeys(r["set"] for r in rows))
    for name in names + (["all"] if len(names) > 1 else []):
        mine = [r for r in rows if name in ("all", r["set"])]
        base = sum(r["uncertified_s"] for r in mine)
        cert = sum(r["certify_s"] for r in mine)
        check = sum(r["check_s"] for r in mine)
        worst = max(mine, key=lambda r: r["ratio"])
        cpu = sum(r["certify_cpu_s"] + r["check_cpu_s"] for r in mine) / max(sum(r["uncertified_cpu_s"] for r in mine), 1e-6)
        sat = sum(r.get("sat_road_s", 0.0) for r in mine)
        sat_cpu = sum(r["certify_cpu_s"] + r["check_cpu_s"] for r in mine) / max(sum(r.get("sat_road_cpu_s", 0.0) for r in mine), 1e-6)
        lines.append(f"| {name} | {len(mine)} | {sum(r['uncertified'] == 'multiple' for r in mine)} | "
                     f"{sum(r['status'] != 'uncertified' for r in mine)} | {sum(r['verified'] for r in mine)} | "
                     f"{base:.2f} | {cert:.2f} | {check:.2f} | {cert + check:.2f} | {(cert + check) / max(base, 1e-6):.1f} | "
                     f"{cpu:.1f} | {worst['ratio']} ({worst['instance']}) | {sat:.2f} | {(cert + check) / max(sat, 1e-6):.1f} ({sat_cpu:.1f}) |")
    return "\n".join(lines)


def in_shard(items: list, shard: tuple[int, int]) -> list:
    """The K-th of N shards of ``items`` (``shard`` = (K, N)): positions K-1, K-1+N, ...

    >>> in_shard(list("abcde"), (2, 2)), in_shard(list("abc"), (1, 1))
    (['b', 'd'], ['a', 'b', 'c'])
    """
    k, n = shard
    return items[k - 1::n]


def shard_argument(text: str) -> tuple[int, int]:
    """``K/N`` with 1 <= K <= N, for ``--shard``."""
    try:
        k, n = (int(part) for part in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not K/N (two whole numbers)") from None
    if not 1 <= k <= n:
        raise argparse.ArgumentTypeError(f"{text!r}: K must be between 1 and N")
    return k, n


def roller_rows(sets: Sequence[str], per_set: int | None, time_limit: float, shard: tuple[int, int] = (1, 1)) -> Iterator[dict[str, Any]]:
    """One row per level: its minimum certified, then checked (each within ``time_limit``);
    ``in_time``: both done and confirmed within ``time_limit`` CPU seconds in all (a shared
    machine's wall seconds are given too: ``in_time_wall``)."""
    from benchmarks import roller as roller_bench

    for set_name in sets:
        for level in in_shard(roller_bench.load_set(set_name)[:per_set], shard):
            row = measure_certificate("roller", set_name, level.name, level, {}, time_limit)
            row.update(task="target", in_time=row["verified"] and row["certify_cpu_s"] + row["check_cpu_s"] <= time_limit,
                       in_time_wall=row["verified"] and row["seconds"] <= time_limit)
            yield row


def roller_table(rows: list[dict[str, Any]]) -> str:
    lines = ["| set | levels | certified | confirmed | in time (CPU) | share | in time (wall) | certify CPU s | check CPU s | slowest (CPU) |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for name in dict.fromkeys(r["set"] for r in rows):
        mine = [r for r in rows if r["set"] == name]
        slowest = max(mine, key=lambda r: r["certify_cpu_s"] + r["check_cpu_s"])
        done = sum(r["in_time"] for r in mine)
        lines.append(f"| {name} | {len(mine)} | {sum(r['status'] != 'uncertified' for r in mine)} | {sum(r['verified'] for r in mine)} | "
                     f"{done} | {100 * done / len(mine):.0f} % | {sum(r['in_time_wall'] for r in mine)} | "
                     f"{sum(r['certify_cpu_s'] for r in mine):.1f} | {sum(r['check_cpu_s'] for r in mine):.1f} | "
                     f"{slowest['certify_cpu_s'] + slowest['check_cpu_s']:.1f} ({slowest['instance']}) |")
    return "\n".join(lines)


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
