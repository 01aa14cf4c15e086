"""Command-line adapter of the Numberlink family (used by :mod:`puzzlesat.cli`): the verbs of
:mod:`.records` and :mod:`.show` (the record keys are documented there), given the options
of an argparse Namespace, and the ``generate numberlink`` pack writer.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import ParseError
from ..results import Status
from . import formats, multilayer, records
from . import family as nl_family
from . import show as show_module
from .model import Puzzle, Rules, Solution
from .solve import count
from .verify import verify

AnyPuzzle = Puzzle | multilayer.Puzzle
AnySolution = Solution | multilayer.Solution

PALETTE = show_module.PALETTE
picture = show_module.picture
_grid = records.grid_of


def options_of(args: argparse.Namespace) -> dict[str, Any]:
    """The family's options by name, from the command line's arguments."""
    return {"allow_empty": bool(getattr(args, "allow_empty", False)), "no_self_touch": bool(getattr(args, "no_self_touch", False)),
            "solver": getattr(args, "solver", None), "allow_multiple": bool(getattr(args, "allow_multiple", False)),
            "answers": getattr(args, "answers", None)}


def sniff(text: str, path: str) -> bool:
    """Numberlink reads the most formats, so it is the family of last resort."""
    return nl_family.sniff(text, path)


def load(text: str, source: str, args: argparse.Namespace) -> list[Puzzle | ParseError]:
    """The puzzles of one input (:func:`.records.load`)."""
    return nl_family.load(text, source=source, fmt=args.fmt, options=options_of(args))


def rules_from(args: argparse.Namespace) -> Rules:
    return records.rules_of(options_of(args))


def blank_record() -> dict[str, Any]:
    return {"unique": None, "answer": None, "grid": None, "paths": None}


def solve_record(puzzle: AnyPuzzle, args: argparse.Namespace) -> dict[str, Any]:
    return records.solve_record(puzzle, options=options_of(args), time_limit=args.time_limit)


def verify_record(puzzle: AnyPuzzle, args: argparse.Namespace, *, answer: str | None = None) -> dict[str, Any]:
    """The record of :func:`.records.verify_record`; ``answer`` names the stated answer's file
    (``verify --answers``), read here (devices refused, size capped)."""
    from ..cli import read_source

    options = options_of(args)
    if answer is None:
        return records.verify_record(puzzle, options=options, time_limit=args.time_limit)
    try:
        text = read_source(answer)
    except ParseError as error:
        record = records.verify_record(puzzle, options=options, time_limit=args.time_limit)
        record.pop("stated_answer_missing", None)
        record["stated_answer"] = {"source": answer, "valid": False, "same": None, "too_long": None,
                                   "violations": [str(error if error.source else error.with_source(answer))]}
        return record
    return records.verify_record(puzzle, options=options, time_limit=args.time_limit, answer=(answer, text))


passed = records.passed


def show(puzzle: AnyPuzzle | None, record: dict[str, Any], args: argparse.Namespace, verb: str, *, where: str, colour: bool) -> str:
    return show_module.show(puzzle, record, verb=verb, colour=colour, where=where)


# -- render (owned by the rendering work) -------------------------------------------------------
def render(puzzle: AnyPuzzle, args: argparse.Namespace) -> int:
    """``puzzlesat render``: draw the puzzle, or with ``--solution`` its verified answer, to
    ``args.output`` (.svg or .png); the caption then says whether that answer is unique, in the
    words of ``verify`` ("solved, multiple answers"). A multi-layer puzzle is drawn layer by
    layer, side by side (:mod:`puzzlesat.numberlink.multilayer.render`). Exit 0 when drawn as
    asked, 1 when no answer was found (the puzzle alone is drawn), 2 when the file could not be
    written."""
    import sys

    from ..scene import cli_caption, save_for_cli

    if isinstance(puzzle, multilayer.Puzzle):
        from .multilayer.render import render as draw
        counter, size = multilayer.count, puzzle.size_text
    else:
        from .render import render as draw
        counter, size = count, f"{puzzle.width}x{puzzle.height}"

    title = cli_caption(args.input, args.index, "", size)
    solution = None
    status = 0
    if args.solution:
        options = {"solver": args.solver} if args.solver else {}
        rules = rules_from(args)
        result = counter(puzzle, rules=rules, limit=2, time_limit=args.time_limit, **options)  # (as solve and verify do)
        if result.solutions:
            solution = result.solutions[0]
            title += f", solved, {show_module.uniqueness_text(result.unique)}"
        else:
            found = "unsolvable" if result.complete else f"{Status.UNKNOWN.value} (time limit)"
            proof = (result.stats or {}).get("proof")  # why, as solve says it (and roller's render)
            print(f"no answer drawn: {found} under {rules} rules" + (f": {proof}" if proof else ""), file=sys.stderr)
            status = 1
        stated = puzzle.stated_rules
        if stated is not None and stated.by == "url":
            note = show_module.rules_note({"rules": str(rules), "stated_rules": str(stated.rules), "stated_rules_by": "url"})
            if note:
                print(f"note: {note}", file=sys.stderr)
    written = save_for_cli(draw(puzzle, solution, title=title), args.output)
    return written or status
