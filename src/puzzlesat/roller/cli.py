"""Command-line adapter of the Roller family (used by :mod:`puzzlesat.cli`): it turns the
command line's ``argparse.Namespace`` into the options of the family's verbs
(:mod:`puzzlesat.roller.family`) and hands their records on. The record keys are the shared
ones of ``docs/record.schema.json`` (see :mod:`puzzlesat.roller.records`); detection is
:mod:`puzzlesat.roller.sniff`.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..errors import ParseError
from ..results import Status
from . import records
from .model import Level
from .records import blank_record, passed, stopped_short  # noqa: F401 (blank_record and passed: the adapter's functions)


def options(args: argparse.Namespace) -> dict[str, Any]:
    """The options of the family's verbs from the command line."""
    return {"start": getattr(args, "start", None), "method": getattr(args, "method", None)}


def sniff(text: str, path: str) -> bool:
    """Is this text a Roller level set? (:func:`puzzlesat.roller.sniff.sniff`)"""
    from .sniff import sniff as claims

    return claims(text)


def load(text: str, source: str, args: argparse.Namespace) -> list[Level | ParseError]:
    return records.load(text, source=source, fmt=getattr(args, "fmt", None), options=options(args))


def solve_record(level: Level, args: argparse.Namespace) -> dict[str, Any]:
    return records.solve_record(level, options=options(args), time_limit=getattr(args, "time_limit", None))


def verify_record(level: Level, args: argparse.Namespace, *, answer: str | None = None) -> dict[str, Any]:
    """``puzzlesat verify``; ``answer``: the path of ``verify --answers`` (a TabTale answer table)."""
    pair = None
    if answer is not None:
        try:
            pair = (answer, Path(answer).read_text(encoding="utf-8", errors="replace"))
        except OSError as exc:
            raise ParseError(f"cannot read file: {exc.strerror or exc}", source=answer) from None
    return records.verify_record(level, options=options(args), time_limit=getattr(args, "time_limit", None), answer=pair)


def answer_table(text: str, source: str) -> dict[str, str] | None:
    return records.answer_table(text, source)


def show(level: Level | None, record: dict[str, Any], args: argparse.Namespace, verb: str, *, where: str, colour: bool) -> str:
    from .show import show as shown

    return shown(level, record, verb=verb, colour=colour, where=where)


# -- render -------------------------------------------------------------------------------------
def render(level: Level, args: argparse.Namespace) -> int:
    """``puzzlesat render``: draw the level, or with ``--solution`` its proven-shortest verified
    answer, to ``args.output`` (.svg or .png). Exit 0 when drawn as asked, 1 when no answer was
    found (the level alone is drawn), 2 when the file could not be written."""
    import sys

    from ..scene import cli_caption, save_for_cli
    from .render import render as draw

    title = cli_caption(args.input, args.index, level.name, f"{level.width}x{level.height}")
    moves = None
    status = 0
    if getattr(args, "solution", False):
        from .solve import solve

        result = solve(level, time_limit=args.time_limit, method=args.method)
        if result.status is Status.SOLVED and result.solution is not None:
            moves = result.solution
            title += f", {len(moves)} move{'s' if len(moves) != 1 else ''}" + (" (proven minimum)" if result.optimal else " (not proven minimal)")
        else:
            why = "unsolvable" if result.status is Status.UNSATISFIABLE else f"unknown ({stopped_short(result) or 'time limit'})"
            reason = (result.stats or {}).get("reason")
            print(f"no answer drawn: {why}" + (f": {reason}" if reason else ""), file=sys.stderr)
            status = 1
    written = save_for_cli(draw(level, moves, title=title), args.output)
    return written or status
