"""Command-line adapter of the Swap family (used by :mod:`puzzlesat.cli`): it hands the
argparse settings to the family's verbs (:mod:`.records`, :mod:`.show`), whose JSON records
have the shared shape of ``docs/record.schema.json``.

``--method exact`` (default) asks the exact solver for a proven minimum; ``--method astar`` runs
the published A* baseline (answers are upper bounds, never ``optimal``); any other name is
passed to the exact solver (e.g. its search or CP-SAT back-end).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from typing import Any, Optional

from ..errors import ParseError, UnverifiedAnswer, count_argument
from ..seeds import hashed_seed, seed_argument
from ..textio import output_file_problem
from ..timing import Deadline, seconds_argument
from . import formats, records
from . import show as shown
from .model import Level
from .verify import verify


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


# -- generate -----------------------------------------------------------------------------------
GENERATE_EXAMPLE = "example: puzzlesat generate swap --difficulty expert --goal match --moves 3-8 --count 20 --seed 1 --out pack.swap"


def _range(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", text)
    if not match:
        raise argparse.ArgumentTypeError(f"{text!r} is not N or LO-HI")
    lo = int(match.group(1))
    hi = int(match.group(2)) if match.group(2) else lo
    if lo > hi:
        raise argparse.ArgumentTypeError(f"range {text!r} is empty")
    return lo, hi


def _size(text: str) -> tuple[int, int]:
    """``--size WxH``: (width, height), columns first as in every family."""
    match = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text)
    if not match:
        raise argparse.ArgumentTypeError(f"{text!r} is not WIDTHxHEIGHT (e.g. 6x7)")
    from .generate import board_size

    try:
        width, height = int(match.group(1)), int(match.group(2))
        board_size(width, height)
        return width, height
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_generate_arguments(parser: argparse.ArgumentParser) -> None:
    from .generate import DEFAULT_CERTIFY_LIMIT, SIZES

    parser.add_argument("--difficulty", choices=list(SIZES), default="expert", help="board size range (easy 2-3 ... expert 4-6; default expert)")
    parser.add_argument("--goal", choices=["match", "cluster"], default="match", help="goal kind (default match)")
    parser.add_argument("--moves", type=_range, default=None, metavar="LO-HI", help="keep levels whose proven minimum lies in this range")
    parser.add_argument("--size", type=_size, default=None, metavar="WxH", help="fixed size instead of the difficulty's: columns x rows (e.g. 6x7)")
    parser.add_argument("--count", type=count_argument, default=1, help="levels in the pack (default 1)")
    parser.add_argument("--seed", type=seed_argument, default=0, help="pack seed; level i uses seed*1000003+i (default 0)")
    parser.add_argument("--out", default=None, help="append levels to this file as each is proven; a rerun resumes it")
    # As in the other families: --time-limit bounds one level, --certify-limit one draw's proof.
    # (--level-time-limit, its name until 22 Nov 2026, when --time-limit bounded one proof, is kept.)
    parser.add_argument("--time-limit", "--level-time-limit", dest="time_limit", type=seconds_argument, default=None, metavar="S",
                        help="seconds for one level, all its draws together (default: no limit; 20 draws in a row whose proofs run out end it too)")
    parser.add_argument("--certify-limit", type=seconds_argument, default=DEFAULT_CERTIFY_LIMIT, metavar="S",
                        help=f"seconds per proof of one draw's minimum (default {DEFAULT_CERTIFY_LIMIT:g}); draws that run out are skipped")
    parser.add_argument("--max-tries", type=count_argument, default=10_000, help="draws allowed per level before giving up")
    parser.add_argument("--json", action="store_true", help="print one JSON object per new level (the pack still goes to --out)")


DUPLICATE_RETRIES = 20  # a pack never holds the same level twice: further seeds are tried


def level_record(made: Any, *, index: int, out: Optional[str]) -> dict[str, Any]:
    """The JSON object ``generate swap --json`` prints for a new level (``made``: a
    :class:`.generate.GeneratedLevel`), with the keys of ``generate roller --json`` where they
    mean the same: ``start`` as rows of square tokens (``###`` a wall), ``goal`` its kind and,
    for *match*, its colour rows (``#`` a wall), ``moves`` the proven-shortest plan.

    >>> from puzzlesat.swap.generate import generate
    >>> record = level_record(generate(2, 1, difficulty="easy", seed=0), index=0, out=None)
    >>> record["start"], record["goal"], record["moves"], record["min_moves"], record["optimal"]
    ([['Q1G', 'T3M']], {'kind': 'match', 'colours': [['M', 'G']]}, ['0,0>0,1'], 1, True)
    """
    level = made.level
    goal: dict[str, Any] = {"kind": level.goal.kind}
    if level.goal.colours is not None:
        goal["colours"] = [[formats.GOAL_WALL if colour is None else colour for colour in row] for row in level.goal.colours]
    return {
        "family": "swap", "source": out, "index": index, "rows": level.rows, "cols": level.cols,
        "start": [list(row) for row in formats.board_rows(level.start)], "goal": goal,
        "moves": [str(move) for move in made.solution], "min_moves": made.min_moves, "optimal": True,
        "seed": made.seed, "tries": made.tries, "seconds": round(made.seconds, 4),
    }


def level_seed(pack_seed: int, index: int, attempt: int = 0) -> int:
    """The seed of level ``index`` in a pack: ``pack_seed * 1000003 + index``; ``attempt`` > 0
    gives further seeds (from a hash) when a level repeats an earlier one of the pack.

    >>> level_seed(2, 5), level_seed(2, 5, 1) != level_seed(2, 5)
    (2000011, True)
    """
    if attempt == 0:
        return pack_seed * 1_000_003 + index
    return hashed_seed("swap", pack_seed, index, attempt)


def _signature(args: argparse.Namespace) -> str:
    """The command that makes the pack (options left at their defaults are not written)."""
    moves = "" if args.moves is None else f" --moves {args.moves[0]}-{args.moves[1]}"
    size = "" if args.size is None else f" --size {args.size[0]}x{args.size[1]}"
    return f"puzzlesat generate swap --difficulty {args.difficulty} --goal {args.goal}{moves}{size} --seed {args.seed}"


def _level_mark(signature: str, index: int) -> str:
    """The comment that marks level ``index`` of a pack (a rerun resumes only on an exact match)."""
    return f"{signature} level {index}"


def _unreadable_pack(path: str, text: str, error: ParseError) -> str:
    """Why the pack ``text`` (of ``path``) that does not parse cannot be continued: cut inside
    its last level (the run writing it stopped there), or ``error``."""
    try:
        items = formats.parse_each(text, source=path)
    except ParseError:  # a pack of one level, cut short
        items = [error] if "puzzlesat generate swap " in text else []
    if items and isinstance(items[-1], ParseError) and not any(isinstance(item, ParseError) for item in items[:-1]):
        return (f"{path}: level {len(items) - 1} cannot be read (the file ends in the middle of a level: {items[-1]}); "
                "remove that incomplete last level to resume")
    return f"cannot resume {path}: {error}"


def _resume_problem(path: str, text: str, existing: list[Level], signature: str) -> str | None:
    """Why the pack ``text`` (of ``path``, holding ``existing``) cannot be continued by this
    run, or None."""
    tail = text.split(f"\n{formats.SEPARATOR}")[-1]
    if len(existing) > 0 and not any(line.strip().lower() == "start" for line in tail.splitlines()):
        return (f"{path} ends in the middle of a level (after its last {formats.SEPARATOR} line no level begins); "
                "remove that incomplete last level to resume")
    for i, level in enumerate(existing):
        if _level_mark(signature, i) not in level.comments:
            marks = [c for c in level.comments if c.startswith("puzzlesat generate swap ")]
            made_by = f"made by `{marks[0].rsplit(' level ', 1)[0]}`" if marks else "not made by puzzlesat generate swap"
            return f"{path} holds levels made with other settings (level {i} {made_by}; this run: `{signature}`); choose another --out"
        # a torn write (the run stopped mid-level): no minimum or solution line, or a solution cut short
        complete = (level.stated_minimum is not None and level.stated_solution is not None
                    and len(level.stated_solution) == level.stated_minimum and not verify(level, level.stated_solution))
        if not complete:
            return (f"{path}: level {i} has no whole minimum and solution (the file ends in the middle of a level); "
                    "remove that incomplete last level to resume")
    return None


def generate(args: argparse.Namespace) -> int:
    """``puzzlesat generate swap``: certified levels, written one by one as each is proven."""
    from ..progress import Progress
    from .generate import draw_counts, range_phrase

    signature = _signature(args)
    existing: list[Level] = []
    problem = output_file_problem(args.out) if args.out else None
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    if args.out and os.path.exists(args.out) and os.path.getsize(args.out) > 0:
        try:
            with open(args.out, encoding="utf-8-sig") as handle:
                text = handle.read()
        except (OSError, UnicodeDecodeError) as exc:
            print(f"error: cannot resume {args.out}: {exc}", file=sys.stderr)
            return 2
        try:
            existing = formats.parse_all(text, source=args.out)
        except ParseError as exc:
            print(f"error: {_unreadable_pack(args.out, text, exc)}", file=sys.stderr)
            return 2
        problem = _resume_problem(args.out, text, existing, signature)
        if problem:
            print(f"error: {problem}", file=sys.stderr)
            return 2
    start_index = len(existing)
    progress = Progress(args.count, label="generate swap")
    progress.done = min(start_index, args.count)
    totals = draw_counts()
    minima: dict[int, int] = {}
    drawing: dict[str, Any] = {}  # the draws of the level being made, for Ctrl-C
    started = time.perf_counter()
    try:
        status = _make_levels(args, signature, existing, progress, totals, minima, drawing)
    except KeyboardInterrupt:
        progress.close()
        kept = start_index + sum(minima.values())
        unfinished = ""
        if drawing.get("tries"):
            where = range_phrase(drawing["stats"])
            unfinished = (f"; level {drawing['index']} had made {drawing['tries']} draw(s)"
                          + (f", {drawing['stats']['out_of_range']} outside the moves range: {where}" if where else ""))
        print(f"interrupted: {kept} level(s) kept" + (f" in {args.out}" if args.out else "") + unfinished, file=sys.stderr)
        return 130
    progress.close()
    made = sum(minima.values())
    if status == 2 and not made:  # a request no level can meet: its error line is all (as in Numberlink and Roller)
        return status
    spread = ", ".join(f"{n}x{m}" for m, n in sorted(minima.items())) or "-"
    where = f" in {args.out}" if args.out else ""
    fell = range_phrase(totals)
    print(
        f"{made} new level(s), {start_index + made} of {args.count}{where}; proven minima (count x moves): {spread}; "
        f"{totals['tries']} draws: {totals['unsolvable']} proven unsolvable, {totals['unknown']} unknown (time limit), "
        f"{totals['out_of_range']} outside the moves range{f' ({fell})' if fell else ''}; {time.perf_counter() - started:.1f}s",
        file=sys.stderr,
    )
    return status


def _make_levels(args: argparse.Namespace, signature: str, existing: list[Level], progress: Any,
                 totals: dict[str, Any], minima: dict[int, int], drawing: dict[str, Any] | None = None) -> int:
    """Levels ``len(existing)..count-1`` of the pack, each written as soon as it is proven (a
    repeat of an earlier level is drawn again from further seeds). Returns the exit status: 0,
    1 when a level could not be made, 2 when the request cannot be met. ``drawing`` follows the
    draws of the level being made (shown on the progress line of a terminal)."""
    from .generate import GenerationFailed, add_draw_counts
    from .generate import generate as make

    seen = {(level.start, level.goal) for level in existing}
    drawing = {} if drawing is None else drawing

    def tried(tries: int, stats: dict[str, Any]) -> None:
        drawing.update(tries=tries, stats=stats)
        note = f"#{drawing['index']}: {tries} draws" + (f", {stats['below']} below, {stats['above']} above" if args.moves else "")
        progress.advance(0, note=note)

    for index in range(len(existing), args.count):
        drawing.clear()
        drawing["index"] = index
        level_deadline = Deadline.of(args.time_limit)  # one for all the retries of a level
        try:
            for attempt in range(DUPLICATE_RETRIES):
                width, height = args.size or (None, None)
                result = make(width=width, height=height, difficulty=args.difficulty, goal=args.goal, seed=level_seed(args.seed, index, attempt),
                              moves=args.moves, certify_time_limit=args.certify_limit, max_tries=args.max_tries,
                              time_limit=level_deadline, on_try=tried)
                add_draw_counts(totals, result.stats)
                if (result.level.start, result.level.goal) not in seen:
                    break
            else:
                raise GenerationFailed(f"only repeats of earlier levels of the pack after {DUPLICATE_RETRIES} seeds", {})
        except ValueError as exc:  # a request that cannot be met (checked before any drawing)
            progress.close()
            print(f"error: {exc}", file=sys.stderr)
            return 2
        except GenerationFailed as exc:
            progress.close()
            print(f"error: level {index}: {exc}", file=sys.stderr)
            add_draw_counts(totals, exc.stats)
            return 1
        seen.add((result.level.start, result.level.goal))
        level = result.level
        level = Level(level.start, level.goal, stated_minimum=level.stated_minimum, stated_solution=level.stated_solution,
                      comments=level.comments + (_level_mark(signature, index),))
        text = formats.format(level)
        if args.out:
            ends_a_line = not os.path.exists(args.out) or os.path.getsize(args.out) == 0 or _last_byte(args.out) == b"\n"
            with open(args.out, "a", encoding="utf-8") as handle:
                if index > 0:
                    handle.write(("" if ends_a_line else "\n") + formats.SEPARATOR + "\n")
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
        elif not args.json:
            if index > 0:
                print(formats.SEPARATOR)
            print(text, end="", flush=True)
        if args.json:
            print(json.dumps(level_record(result, index=index, out=args.out)), flush=True)
        minima[result.min_moves] = minima.get(result.min_moves, 0) + 1  # (counted once written)
        progress.advance(note=f"#{index}: {result.min_moves} moves")
    return 0


def _last_byte(path: str) -> bytes:
    with open(path, "rb") as handle:
        handle.seek(-1, os.SEEK_END)
        return handle.read(1)


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
