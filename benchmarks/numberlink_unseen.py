"""Numberlink uniqueness on puzzles the tuning never saw: a test half of the public sets, and
fresh puzzles certified unique under no-self-touch rules (issue #46, step 2).

    python -m benchmarks.numberlink_unseen [--quick] [--json PATH] [--time-limit 10] [-j 2] [--halves tuning,test,fresh]
    python -m benchmarks.numberlink_unseen --make-fresh      # (re)writes benchmarks/data/unseen-nst-15-30.txt
    python -m benchmarks.numberlink_unseen --make-fresh --seed-base 4700000000 --per-size 100 \
        --fresh-file benchmarks/data/unseen-nst-second.txt    # the second fresh set
    python -m benchmarks.numberlink_unseen --halves fresh --fresh-file benchmarks/data/unseen-nst-second.txt
    python -m benchmarks.numberlink_unseen --proof-conflicts 4600020027,4600025016 [--conflicts 300000]

Every puzzle is one ``solve`` job of the batch engine (``puzzlesat.batch.run``: the answer and a
count to two under default rules, the answer checked) with ``--time-limit`` seconds each.

**The split.** The public cover-all sets (janko, thomasahle inputs1-9, mzucker, Houston), boards
of at most ``MAX_CELLS`` cells, are split by :func:`half`: the sha256 of the puzzle's canonical
text (:func:`canonical_text`: ``W H`` and its rows, labels renumbered 1..K in reading order of
their first endpoint, so a relabelled copy falls in the same half), first byte even: ``tuning``,
odd: ``test``. Targets are judged on the test half; the tuning half is what a new method may be
tuned on.

**The fresh sets.** ``FRESH_SIZES`` square boards, ``FRESH_PER_SIZE`` of each, drawn by
``numberlink.generate`` (the quality method) with seed ``FRESH_SEED + 1000 * width + i``
(seeds tests and benchmarks never use: theirs are below 3 000 000), certified unique under
no-self-touch rules by the generator from the puzzle's text, as published sets are made, and
kept only when ``numberlink.is_unique(rules=Rules(no_self_touch=True))`` agrees. A set certified
under default rules would hold only puzzles the engine already decides. A method chosen while
looking at the fresh sets is checked on a second set drawn the same way with other seeds
(``SECOND_FRESH_SEED``, ``--fresh-file``), which no one looked at before.

**One puzzle at a time or two.** With ``-j 2`` (``--workers``, the default) two puzzles run at
a time, one per core, each in one process of its own (a batch of several jobs runs every job
alone in its process, at any number of workers), so the engine's deciders take turns in it (no
global search beside the windows, no frontier count in a process of its own). With ``-j 1`` one
puzzle runs at a time, each a batch of its own in this process, and may use both cores for
those: what a user checking one puzzle gets. Report both.

The table gives, per set and half: puzzles, decided (unique, several answers, or none),
first answers found, undecided, errors, total and max seconds, and the share decided (target:
at least 99.5 % on each fresh size and each test half); with ``--time-limit`` past 10 s, also
how many were decided within 10, 20, 30, 45 and 60 s (:func:`budget_table`).
``--undecided-stats`` then runs each undecided puzzle again in this process
(``numberlink.count``) and prints what its stats report.

``--proof-conflicts SEEDS`` measures instead, for the fresh puzzles of those seeds, the global
proof alone (the search for a second answer after the first, which it blocks, with the
direction variables) in solver conflicts, which the machine's load does not change, and CPU
seconds, up to ``--conflicts`` each: as the engine runs it (phases free) and with its phases set
to the first answer (as the windows' search has them); the seeds are looked up in both fresh
sets. The yardstick of encodings/numberlink.md, "Hard uniqueness proofs under default rules".
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path
from typing import Any, Iterator, Sequence

from benchmarks import JSON_HELP, RowWriter, data_folder, json_path
from puzzlesat import numberlink
from puzzlesat.batch import Job, run as batch_run
from puzzlesat.numberlink import Rules

NO_SELF_TOUCH = Rules(no_self_touch=True)
MAX_CELLS = 1024            # public boards up to 32 x 32 cells (janko's 36x20 and inputs9's 40x20 included)
FRESH_SIZES = (15, 20, 25, 30)
FRESH_PER_SIZE = 100
FRESH_SEED = 4_600_000_000  # + 1000 * width + i
FRESH_FILE = Path(__file__).resolve().parent / "data" / "unseen-nst-15-30.txt"
SECOND_FRESH_SEED = 4_700_000_000  # a second set, drawn after methods were chosen on the first
SECOND_FRESH_FILE = Path(__file__).resolve().parent / "data" / "unseen-nst-second.txt"
TARGET = 0.995              # share decided on each fresh size and each test half
QUICK_PUZZLES = 3           # per set and half (and per fresh size) in --quick
HALVES = ("tuning", "test")
BUDGETS = (10, 20, 30, 45, 60)  # seconds at which --time-limit runs past 10 s also count the shares


def _thomasahle(name: str) -> list[Path]:
    return [data_folder() / "numberlink" / "thomasahle-numberlink" / "puzzles" / name]


PUBLIC_SETS = {
    "janko": lambda: _thomasahle("janko"),
    **{f"thomasahle-inputs{i}": (lambda i=i: _thomasahle(f"inputs{i}")) for i in range(1, 10)},
    "mzucker": lambda: sorted((data_folder() / "numberlink" / "mzucker-flow_solver" / "puzzles").glob("*.txt")),
    "houston": lambda: sorted((data_folder() / "numberlink" / "HoustonWeHaveABug-FlowFree" / "puzzles").glob("*.txt")),
}


def canonical_text(puzzle: numberlink.Puzzle) -> str:
    """``W H`` then the rows, cells separated by spaces: ``.`` empty, ``#`` blocked, else the
    pair's number (1..K in reading order of each pair's first endpoint).

    >>> print(canonical_text(numberlink.parse("B.A\\nA.B")), end="")
    3 2
    1 . 2
    2 . 1
    """
    order = sorted(puzzle.pairs, key=lambda pair: min(pair.start, pair.end))
    grid = [["."] * puzzle.width for _ in range(puzzle.height)]
    for row, col in puzzle.blocked:
        grid[row][col] = "#"
    for number, pair in enumerate(order, 1):
        for row, col in (pair.start, pair.end):
            grid[row][col] = str(number)
    return f"{puzzle.width} {puzzle.height}\n" + "\n".join(" ".join(line) for line in grid) + "\n"


def half(puzzle: numberlink.Puzzle) -> str:
    """``tuning`` or ``test``: the parity of the first byte of sha256(canonical text).

    >>> half(numberlink.parse("B.A\\nA.B")) == half(numberlink.parse("X.Y\\nY.X"))
    True
    """
    return "test" if hashlib.sha256(canonical_text(puzzle).encode()).digest()[0] % 2 else "tuning"


def public_puzzles(name: str) -> list[tuple[str, numberlink.Puzzle]]:
    """(instance, puzzle) of one public set, boards of at most MAX_CELLS cells; [] when absent."""
    out = []
    for path in PUBLIC_SETS[name]():
        puzzles = numberlink.read(path) if path.is_file() else []
        for i, puzzle in enumerate(puzzles):
            if puzzle.width * puzzle.height <= MAX_CELLS:
                out.append((path.name if len(puzzles) == 1 else f"{path.name}#{i}", puzzle))
    return out


# -- the fresh sets -------------------------------------------------------------------------

def fresh_seed(width: int, index: int, base: int = FRESH_SEED) -> int:
    return base + 1000 * width + index


def make_fresh(path: Path = FRESH_FILE, *, sizes: Sequence[int] = FRESH_SIZES, per_size: int = FRESH_PER_SIZE,
               seed_base: int = FRESH_SEED) -> int:
    """Draw the fresh sets and write them to ``path`` (a comment line ``# seed S WxH`` before
    each puzzle); the number of puzzles written. Another ``seed_base`` (and ``path``) draws a
    second set, to check on puzzles no one has looked at a method chosen with the first."""
    blocks = ["# Numberlink puzzles certified unique under no-self-touch rules, drawn by "
              "benchmarks/numberlink_unseen.py --make-fresh (numberlink.generate, method quality)"]
    for size in sizes:
        for i in range(per_size):
            seed = fresh_seed(size, i, seed_base)
            made = numberlink.generate(size, size, seed=seed, rules=NO_SELF_TOUCH)
            if numberlink.is_unique(made.puzzle, rules=NO_SELF_TOUCH).unique is not True:
                print(f"seed {seed}: not confirmed unique under no-self-touch rules, left out", file=sys.stderr)
                continue
            blocks.append(f"# seed {seed} {size}x{size}\n" + numberlink.format(made.puzzle))
            print(f"{size}x{size} #{i} seed {seed}: {made.tries} tries, {made.seconds:.2f} s", file=sys.stderr, flush=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")
    return len(blocks) - 1


def fresh_puzzles(path: Path = FRESH_FILE) -> dict[str, list[tuple[str, numberlink.Puzzle]]]:
    """The fresh puzzles by size (``fresh-15x15``...), named by their seeds; {} when absent."""
    if not path.is_file():
        return {}
    text = path.read_text(encoding="utf-8")
    seeds = [line.split()[2] for line in text.splitlines() if line.startswith("# seed ")]
    out: dict[str, list[tuple[str, numberlink.Puzzle]]] = {}
    for seed, puzzle in zip(seeds, numberlink.parse_all(text, fmt="native")):
        out.setdefault(f"fresh-{puzzle.width}x{puzzle.height}", []).append((f"seed {seed}", puzzle))
    return out


# -- the run --------------------------------------------------------------------------------

def groups(*, quick: bool, halves: Sequence[str] = HALVES + ("fresh",),
           fresh_file: Path = FRESH_FILE) -> Iterator[tuple[str, str, list[tuple[str, numberlink.Puzzle]]]]:
    """(set, half, puzzles): every public set split in two, then the fresh sizes of
    ``fresh_file`` (half "fresh"); only the ``halves`` named."""
    for name in PUBLIC_SETS if set(halves) & set(HALVES) else ():
        puzzles = public_puzzles(name)
        if not any(path.is_file() for path in PUBLIC_SETS[name]()):
            print(f"numberlink_unseen: {name}: no puzzles under {data_folder() / 'numberlink'} (data set absent), skipped", file=sys.stderr)
        elif not puzzles:
            print(f"numberlink_unseen: {name}: no board of at most {MAX_CELLS} cells, skipped", file=sys.stderr)
        for which in (which for which in HALVES if which in halves):
            chosen = [(n, p) for n, p in puzzles if half(p) == which]
            if chosen:
                yield name, which, chosen[:QUICK_PUZZLES] if quick else chosen
    if "fresh" not in halves:
        return
    fresh = fresh_puzzles(fresh_file)
    if not fresh:
        print(f"numberlink_unseen: no fresh sets at {fresh_file} (make them with --make-fresh), skipped", file=sys.stderr)
    for name, puzzles in fresh.items():
        yield name, "fresh", puzzles[:QUICK_PUZZLES] if quick else puzzles


def row_of(record: dict[str, Any], set_name: str, which: str, instance: str, puzzle: numberlink.Puzzle, time_limit: float | None) -> dict[str, Any]:
    status = {"unsolvable": "unsatisfiable"}.get(record["status"], record["status"])
    decided = status == "unsatisfiable" or (status == "solved" and record.get("unique") is not None)
    return {"family": "numberlink", "set": set_name, "instance": instance, "size": f"{puzzle.width}x{puzzle.height}",
            "cells": puzzle.width * puzzle.height, "method": record.get("method") or "sat", "task": "solve+unique",
            "status": status, "encode_s": record.get("encode_seconds") or 0.0, "solve_s": record.get("solve_seconds") or 0.0,
            "seconds": record.get("seconds") or 0.0, "verified": status == "solved", "time_limit": time_limit,
            "half": which, "rules": "default", "unique": record.get("unique"), "decided": decided, "error": record.get("error")}


def run(*, time_limit: float | None = 10.0, quick: bool = False, workers: int = 2,
        halves: Sequence[str] = HALVES + ("fresh",), fresh_file: Path = FRESH_FILE) -> Iterator[dict[str, Any]]:
    """One row per puzzle (default rules, ``time_limit`` seconds each), set by set."""
    for set_name, which, puzzles in groups(quick=quick, halves=halves, fresh_file=fresh_file):
        jobs = [Job.of("numberlink", "solve", puzzle, source=set_name, index=i, time_limit=time_limit)
                for i, (_, puzzle) in enumerate(puzzles)]
        # (-j 1: each puzzle a batch of its own, which may start processes beside itself; a batch
        # of several jobs runs each in one process, whatever its number of workers)
        records = batch_run(jobs, workers=workers) if workers != 1 else (r for job in jobs for r in batch_run([job]))
        for record in records:
            instance, puzzle = puzzles[record["index"]]
            yield row_of(record, set_name, which, instance, puzzle, time_limit)


# -- the table ------------------------------------------------------------------------------

def by_set_and_half(rows: list[dict[str, Any]]) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """The rows grouped by (set, half), in the order they first come."""
    found: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in rows:
        found.setdefault((r["set"], r["half"]), []).append(r)
    return found


def summary(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for (set_name, which), group in by_set_and_half(rows).items():
        decided = sum(r["decided"] for r in group)
        out.append({"set": set_name, "half": which, "puzzles": len(group), "decided": decided,
                    "unique": sum(r["unique"] is True for r in group), "multiple": sum(r["unique"] is False for r in group),
                    "none": sum(r["status"] == "unsatisfiable" for r in group), "answers": sum(r["status"] == "solved" for r in group),
                    "undecided": sum(not r["decided"] and r["status"] != "error" for r in group),
                    "errors": sum(r["status"] == "error" for r in group), "total_s": sum(r["seconds"] for r in group),
                    "max_s": max(r["seconds"] for r in group), "share": decided / len(group),
                    "judged": which in ("test", "fresh")})
    return out


def table(rows: list[dict[str, Any]]) -> str:
    head = (f"{'set':22} {'half':7} {'puzzles':>7} {'decided':>7} {'unique':>6} {'multi':>5} {'none':>4} {'answers':>7} "
            f"{'undecided':>9} {'error':>5} {'total s':>8} {'max s':>7} {'decided %':>9}  target")
    lines = [head, "-" * len(head)]
    for s in summary(rows):
        verdict = ("met" if s["share"] >= TARGET else "MISSED") if s["judged"] else ""
        lines.append(f"{s['set']:22} {s['half']:7} {s['puzzles']:7d} {s['decided']:7d} {s['unique']:6d} {s['multiple']:5d} {s['none']:4d} "
                     f"{s['answers']:7d} {s['undecided']:9d} {s['errors']:5d} {s['total_s']:8.2f} {s['max_s']:7.2f} {100 * s['share']:8.1f}%  {verdict}")
    for which in ("tuning", "test", "fresh"):
        group = [r for r in rows if r["half"] == which]
        if group:
            decided = sum(r["decided"] for r in group)
            lines.append(f"all {which:18} {len(group):7d} puzzles: {decided} decided ({100 * decided / len(group):.1f} %), "
                         f"{sum(r['status'] == 'solved' for r in group)} answers, {sum(r['seconds'] for r in group):.1f} s in all")
    return "\n".join(lines)


def budget_table(rows: list[dict[str, Any]], budgets: Sequence[float] = BUDGETS) -> str:
    """Per set and half, how many puzzles were decided within each of ``budgets`` seconds (those
    up to the run's time limit): a puzzle decided in t s counts for every budget from t on. A
    close reading, not a run at each budget: the global proof beside the windows (``-j 1``) does
    not depend on the limit, but the window phases take shares of the time left."""
    limit = max((r["time_limit"] or 0.0) for r in rows) if rows else 0.0
    budgets = [b for b in budgets if b <= limit]
    if not budgets:
        return ""
    lines = [f"decided within: {'set':18} {'half':7} " + " ".join(f"{f'{b:g} s':>7}" for b in budgets)]
    for (set_name, which), group in by_set_and_half(rows).items():
        lines.append(f"{'':16}{set_name:18} {which:7} " + " ".join(
            f"{sum(r['decided'] and r['seconds'] <= b for r in group):7d}" for b in budgets) + f"  of {len(group)}")
    return "\n".join(lines)


def undecided_stats(rows: list[dict[str, Any]], time_limit: float | None) -> str:
    """Each undecided puzzle run again here (``numberlink.count``, default rules): its stats."""
    lines = ["undecided puzzles, run again in this process (numberlink.count, default rules):"]
    named = {(name, half_): dict(puzzles) for name, half_, puzzles in groups(quick=False)}
    for r in sorted((r for r in rows if not r["decided"]), key=lambda r: (r["cells"], r["set"], r["instance"])):
        puzzle = named.get((r["set"], r["half"]), {}).get(r["instance"])
        if puzzle is None:
            continue
        start = time.perf_counter()
        result = numberlink.count(puzzle, limit=2, time_limit=time_limit)
        strict = numberlink.is_unique(puzzle, rules=NO_SELF_TOUCH, time_limit=time_limit).unique
        lines.append(f"{r['size']:>7} {r['set']:22} {r['instance']:24} count={result.count} unique={result.unique} "
                     f"({time.perf_counter() - start:.1f} s; no-self-touch unique={strict}) stats={dict(result.stats or {})}")
    return "\n".join(lines)


PROOF_VARIANTS = {"as today": False, "phases": True}  # each variant's ``prefer`` (proof_conflicts)


def proof_conflicts(puzzle: numberlink.Puzzle, *, conflicts: int, prefer: bool = False) -> dict[str, Any]:
    """The global proof of ``puzzle`` (default rules), its phases set to the first answer when
    ``prefer``, up to ``conflicts``: its verdict ("unique", "several", "open"), conflicts and
    CPU s."""
    from puzzlesat.numberlink.search import Search
    from puzzlesat.timing import Deadline

    first = numberlink.solve(puzzle, time_limit=60).solution
    search = Search(puzzle, Rules(), "cadical195", Deadline(None))
    try:
        search.block(first)
        if prefer:
            search.prefer(first)
        search.orient()
        start, verdict = time.process_time(), "open"
        while (left := conflicts - search.solver.stats().get("conflicts", 0)) > 0:
            outcome = search.solver.solve(conflict_limit=left)
            if outcome is None:
                break
            if outcome is False or search._answer_in_model() is not None:  # (else a cycle was cut: on)
                verdict = "unique" if outcome is False else "several"
                break
        return {"verdict": verdict, "conflicts": search.solver.stats().get("conflicts", 0), "cpu_s": time.process_time() - start}
    finally:
        search.close()


def proof_table(seeds: Sequence[str], conflicts: int) -> str:
    """One line per fresh puzzle of ``seeds`` and variant of PROOF_VARIANTS (proof_conflicts)."""
    named = {name.split()[-1]: puzzle for path in (FRESH_FILE, SECOND_FRESH_FILE)
             for puzzles in fresh_puzzles(path).values() for name, puzzle in puzzles}
    lines = [f"{'seed':>11} {'size':>6} {'variant':9} {'verdict':>8} {'conflicts':>10} {'CPU s':>7}"]
    for seed in seeds:
        if seed not in named:
            lines.append(f"{seed:>11} not a seed of {FRESH_FILE.name} or {SECOND_FRESH_FILE.name}")
            continue
        puzzle = named[seed]
        for variant, prefer in PROOF_VARIANTS.items():
            m = proof_conflicts(puzzle, conflicts=conflicts, prefer=prefer)
            lines.append(f"{seed:>11} {puzzle.width}x{puzzle.height:<3} {variant:9} {m['verdict']:>8} {m['conflicts']:10d} {m['cpu_s']:7.2f}")
            print(lines[-1], file=sys.stderr, flush=True)
    return "\n".join(lines)


def _halves(text: str) -> tuple[str, ...]:
    named = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = [part for part in named if part not in HALVES + ("fresh",)]
    if unknown or not named:
        raise argparse.ArgumentTypeError(f"halves are tuning, test and fresh, not {', '.join(unknown) or 'none'}")
    return named


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.numberlink_unseen", description=__doc__.split("\n\n")[0])
    parser.add_argument("--time-limit", type=float, default=10.0, metavar="S", help="seconds per puzzle (solve + uniqueness; default 10)")
    parser.add_argument("-j", "--workers", type=int, default=2, metavar="N",
                        help="batch engine worker processes (default 2); 1: one puzzle at a time, which may use every core")
    parser.add_argument("--halves", type=_halves, default=HALVES + ("fresh",), metavar="LIST",
                        help="the halves to run, of tuning,test,fresh (default all three)")
    parser.add_argument("--quick", action="store_true", help=f"at most {QUICK_PUZZLES} puzzles per set and half, and per fresh size")
    parser.add_argument("--json", type=json_path, metavar="PATH", help=JSON_HELP)
    parser.add_argument("--make-fresh", action="store_true", help=f"draw the fresh sets into {FRESH_FILE.name} (or --fresh-file) and stop")
    parser.add_argument("--fresh-file", type=Path, default=FRESH_FILE, metavar="PATH",
                        help=f"the fresh sets to run or draw (default {FRESH_FILE.name}; the second set: {SECOND_FRESH_FILE.name})")
    parser.add_argument("--seed-base", type=int, default=FRESH_SEED, metavar="N",
                        help=f"--make-fresh: seeds N + 1000 * width + i (default {FRESH_SEED}; the second set: {SECOND_FRESH_SEED})")
    parser.add_argument("--sizes", type=lambda text: tuple(int(x) for x in text.split(",")), default=FRESH_SIZES, metavar="LIST",
                        help="--make-fresh: the board sides (default " + ",".join(map(str, FRESH_SIZES)) + ")")
    parser.add_argument("--per-size", type=int, default=FRESH_PER_SIZE, metavar="N", help=f"--make-fresh: puzzles per side (default {FRESH_PER_SIZE})")
    parser.add_argument("--undecided-stats", action="store_true", help="after the table, run each undecided puzzle again and print its stats")
    parser.add_argument("--proof-conflicts", metavar="SEEDS", help="measure the global proof of these fresh puzzles (comma-separated seeds) in conflicts instead")
    parser.add_argument("--conflicts", type=int, default=300_000, metavar="N", help="--proof-conflicts: conflicts at most per proof (default 300000)")
    args = parser.parse_args(argv)
    if args.proof_conflicts:
        print(proof_table([seed.strip() for seed in args.proof_conflicts.split(",") if seed.strip()], args.conflicts))
        return 0
    if args.make_fresh:
        print(f"{make_fresh(args.fresh_file, sizes=args.sizes, per_size=args.per_size, seed_base=args.seed_base)} puzzles written to {args.fresh_file}")
        return 0
    kept: list[dict[str, Any]] = []
    with RowWriter(args.json) as sink:
        for r in run(time_limit=args.time_limit, quick=args.quick, workers=args.workers, halves=args.halves, fresh_file=args.fresh_file):
            kept.append(r)
            sink.write(r)
            print(f"{r['set']:22} {r['half']:7} {r['instance']:24} {r['size']:>7} {r['status']:>13} unique={str(r['unique']):5} "
                  f"{r['seconds']:7.2f}s" + (f"  {r['error']}" if r["error"] else ""), file=sys.stderr, flush=True)
    if kept:
        print(table(kept))
        if args.time_limit > BUDGETS[0]:
            print(budget_table(kept))
        if args.undecided_stats:
            print(undecided_stats(kept, args.time_limit))
    print(sink.gauge_line())
    return 0


if __name__ == "__main__":
    sys.exit(main())
