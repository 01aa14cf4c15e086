"""Command-line adapter of the Numberlink family (used by :mod:`puzzlesat.cli`).

JSON record keys (the contract outside checks rely on): ``status`` ("solved", "unsatisfiable",
"unknown"), ``unique`` (true / false / null when not decided), ``grid`` (rows of cell strings:
label, "." empty, "#" blocked), ``paths`` (label -> [[row, col], ...] from one endpoint to the
other); the generic CLI adds ``family``, ``source``, ``index``, ``seconds`` and ``error``.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..results import Status
from . import formats
from .model import Puzzle, Rules, Solution
from .solve import count

PALETTE = [31, 32, 33, 34, 35, 36, 91, 92, 93, 94, 95, 96]


def sniff(text: str, path: str) -> bool:
    """Numberlink reads the most formats, so it is the family of last resort."""
    return True


def load(text: str, source: str, args: argparse.Namespace) -> list[Puzzle]:
    return formats.parse_all(text, fmt=args.fmt, source=source)


def rules_from(args: argparse.Namespace) -> Rules:
    return Rules(cover_all=not args.allow_empty, no_self_touch=args.no_self_touch)


def blank_record() -> dict[str, Any]:
    return {"unique": None, "grid": None, "paths": None}


def _record(puzzle: Puzzle, args: argparse.Namespace) -> dict[str, Any]:
    options = {"solver": args.solver} if args.solver else {}
    result = count(puzzle, rules=rules_from(args), limit=2, time_limit=args.time_limit, **options)
    if result.count:
        status = Status.SOLVED
    elif result.complete:
        status = Status.UNSATISFIABLE
    else:
        status = Status.UNKNOWN
    record: dict[str, Any] = {"status": status.value, "unique": result.unique, "grid": None, "paths": None}
    if result.solutions:
        solution: Solution = result.solutions[0]
        record["grid"] = solution.to_rows(puzzle)
        record["paths"] = {label: [list(cell) for cell in cells] for label, cells in solution.paths}
    record["rules"] = str(rules_from(args))
    record["encode_seconds"] = round(result.timings.encode, 4)
    record["solve_seconds"] = round(result.timings.solve, 4)
    return record


def solve_record(puzzle: Puzzle, args: argparse.Namespace) -> dict[str, Any]:
    return _record(puzzle, args)


def verify_record(puzzle: Puzzle, args: argparse.Namespace) -> dict[str, Any]:
    return _record(puzzle, args)


def passed(record: dict[str, Any]) -> bool:
    """A puzzle passes when it is solved and its answer is proven unique."""
    return record["status"] == "solved" and record["unique"] is True


def _uniqueness_text(record: dict[str, Any]) -> str:
    return {True: "unique", False: "multiple answers", None: "uniqueness unknown"}[record["unique"]]


def show(puzzle: Puzzle | None, record: dict[str, Any], args: argparse.Namespace, verb: str, *, colour: bool) -> str:
    where = record["source"] + (f"#{record['index']}" if record["index"] else "")
    size = f"{puzzle.width}x{puzzle.height}" if puzzle else "?"
    head = f"{where} ({size}): {record['status']}"
    if record["status"] == "solved":
        head += f", {_uniqueness_text(record)}"
    head += f", {record['seconds']:.3f}s"
    if verb == "verify" or record["grid"] is None:
        return head
    return head + "\n" + picture(record["grid"], colour=colour)


def picture(rows: list[list[str]], *, colour: bool) -> str:
    """The answer grid as text, each label in its own ANSI colour on a terminal."""
    width = max(len(cell) for row in rows for cell in row)
    labels = sorted({cell for row in rows for cell in row} - {".", "#"})
    codes = {label: PALETTE[i % len(PALETTE)] for i, label in enumerate(labels)}
    lines = []
    for row in rows:
        cells = []
        for cell in row:
            text = cell.rjust(width)
            if colour and cell in codes:
                text = f"\x1b[{codes[cell]}m{text}\x1b[0m"
            elif colour and cell == "#":
                text = f"\x1b[90m{text}\x1b[0m"
            cells.append(text)
        lines.append(" ".join(cells))
    return "\n".join(lines)


# -- generate (owned by the generators' work) ---------------------------------------------------
GENERATE_EXAMPLE = "example: puzzlesat generate numberlink --size 10x10 --count 5 --method quality --seed 1 --out pack.txt"


def add_generate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", default="10x10", help="WIDTHxHEIGHT")


def generate(args: argparse.Namespace) -> int:
    raise NotImplementedError("numberlink generation is not written yet")


# -- render (owned by the rendering work) -------------------------------------------------------
def render(puzzle: Puzzle, args: argparse.Namespace) -> int:
    """``puzzlesat render``: draw the puzzle, or with ``--solution`` its verified answer, to
    ``args.output`` (.svg or .png). Exit 0 when drawn as asked, 1 when no answer was found (the
    puzzle alone is drawn), 2 when the file could not be written."""
    import sys
    from pathlib import Path

    from ..scene import save_for_cli
    from .render import render as draw
    from .solve import solve

    title = Path(args.input).name if not args.input.startswith(("http", "p?")) else args.input
    title += f" #{args.index}" if args.index else ""
    title += f"  ({puzzle.width}x{puzzle.height})"
    solution = None
    status = 0
    if args.solution:
        options = {"solver": args.solver} if args.solver else {}
        result = solve(puzzle, rules=rules_from(args), time_limit=args.time_limit, **options)
        if result.status is Status.SOLVED:
            solution = result.solution
            title += ", solved"
        else:
            print(f"no answer drawn: {result.status.value} under {rules_from(args)} rules", file=sys.stderr)
            status = 1
    written = save_for_cli(draw(puzzle, solution, title=title), args.output)
    return written or status
