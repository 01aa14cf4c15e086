"""Command-line adapter of the Swap family (used by :mod:`puzzlesat.cli`): it hands the
argparse settings to the family's verbs (:mod:`.records`, :mod:`.show`), whose JSON records
have the shared shape of ``docs/record.schema.json``.

``--method exact`` (default) asks the exact solver for a proven minimum; ``--method astar`` runs
the published A* baseline (answers are upper bounds, never ``optimal``); any other name is
passed to the exact solver (e.g. its search or CP-SAT back-end).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Optional

from ..errors import ParseError, UnverifiedAnswer
from . import formats, records
from . import show as shown
from .model import Level


def options_of(args: argparse.Namespace) -> dict[str, Any]:
    """The family verbs' options from the command line's settings (Swap's only one: the method)."""
    return {"method": getattr(args, "method", None)}


def sniff(text: str, path: str) -> bool:
    return formats.sniff(text)


def load(text: str, source: str, args: argparse.Namespace) -> list[Level | ParseError]:
    return records.load(text, source=source, fmt=getattr(args, "fmt", None), options=options_of(args))


def blank_record() -> dict[str, Any]:
    return records.blank_record()


def solve_record(level: Level, args: argparse.Namespace) -> dict[str, Any]:
    return records.solve_record(level, options=options_of(args), time_limit=getattr(args, "time_limit", None))


def verify_record(level: Level, args: argparse.Namespace, *, answer: Optional[str] = None) -> dict[str, Any]:
    stated = None if answer is None else (answer, "")
    return records.verify_record(level, options=options_of(args), time_limit=getattr(args, "time_limit", None), answer=stated)


passed = records.passed


def show(level: Optional[Level], record: dict[str, Any], args: argparse.Namespace, verb: str, *, where: str, colour: bool) -> str:
    return shown.show(level, record, verb=verb, colour=colour, where=where)


# -- render (owned by the rendering work) -------------------------------------------------------
def render(level: Level, args: argparse.Namespace) -> int:
    """``puzzlesat render``: draw the level (start and goal), or with ``--solution`` also its
    verified answer as one frame per move, to ``args.output`` (.svg or .png). Exit 0 when drawn
    as asked, 1 when no answer was found (the level alone is drawn), 2 when not written."""

    from ..scene import cli_caption, save_for_cli
    from .render import render as draw

    title = cli_caption(args.input, args.index, level.name, f"{shown.size_text(level)}, goal {level.goal.kind}")
    moves = None
    status = 0
    if getattr(args, "solution", False):
        result = records.run_solver(level, method=getattr(args, "method", None), time_limit=getattr(args, "time_limit", None))
        try:
            answer = records.checked_moves(level, result)
        except UnverifiedAnswer as exc:  # never draw an answer that fails verify
            print(f"error: {exc}", file=sys.stderr)
            return 2
        if answer is not None:
            moves = [str(m) for m in answer]
            title += f", {len(moves)} move{'s' if len(moves) != 1 else ''}" + (" (proven minimum)" if result.optimal else " (not proven minimal)")
        else:
            status_text = records.STATUS_TEXT[result.status]
            why = f"unknown ({records.stopped_short(result) or 'time limit'})" if status_text == "unknown" else status_text
            reason = (result.stats or {}).get("reason") if status_text == "unsolvable" else None
            print(f"no answer drawn: {why}" + (f": {reason}" if reason else ""), file=sys.stderr)  # (as solve says it)
            status = 1
    written = save_for_cli(draw(level, moves, title=title), args.output)
    return written or status
