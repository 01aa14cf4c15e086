"""Command-line adapter of the Numberlink family (used by :mod:`puzzlesat.cli`).

JSON record keys (the contract outside checks rely on): ``status`` ("solved", "unsatisfiable",
"unknown"), ``unique`` (true / false / null when not decided), ``grid`` (rows of cell strings:
label, "." empty, "#" blocked), ``paths`` (label -> [[row, col], ...] from one endpoint to the
other); the generic CLI adds ``family``, ``source``, ``index``, ``seconds`` and ``error``.
A multi-layer (3-D) puzzle's record also has ``layers`` (their number); its ``grid`` is a list
of layers, each a list of rows, and its path cells are ``[layer, row, col]``.
Also ``proof`` (the reason) when a search-free check showed there is no answer, and for a
puzzle with several answers ``differs`` (the labels whose paths differ between the two answers
found, sorted) and ``second_grid`` / ``second_paths`` (the second answer, in the same forms):
where the puzzle is ambiguous, which a puzzle maker wants to see.
"""

from __future__ import annotations

import argparse
import re
from typing import Any

from ..errors import ParseError
from ..results import Status
from . import formats, multilayer
from .model import Puzzle, Rules, Solution
from .solve import count
from .verify import verify

AnyPuzzle = Puzzle | multilayer.Puzzle
AnySolution = Solution | multilayer.Solution

PALETTE = [31, 32, 33, 34, 35, 36, 91, 92, 93, 94, 95, 96]


def sniff(text: str, path: str) -> bool:
    """Numberlink reads the most formats, so it is the family of last resort."""
    return True


def load(text: str, source: str, args: argparse.Namespace) -> list[Puzzle | ParseError]:
    """The puzzles of one input; in a file of several, one that cannot be read is its
    ParseError (reported as an error record) and the others are still checked. The rules a
    pack of ``generate numberlink`` records in its first line are noted (``args.pack_rules``),
    so that ``verify`` can say when other rules are in force; they are never applied silently."""
    declared = re.match(r"# puzzlesat generate numberlink ([^\n]*)", text)  # (a pack's first line: the rules are its flags)
    if declared:
        flags = declared.group(1).split()
        rules = Rules(cover_all="--allow-empty" not in flags, no_self_touch="--no-self-touch" in flags)
        args.pack_rules = {**getattr(args, "pack_rules", {}), source: str(rules)}
    layered = _layered_format(text, args.fmt)
    if layered is not None:  # one multi-layer puzzle per file
        return [multilayer.parse(text, fmt=layered, source=source)]
    items = formats.parse_each(text, fmt=args.fmt, source=source)
    if (args.fmt or formats.detect_format(text)) == "puzzlink":
        _note_url_rules(text, source, args)
    return items


def _note_url_rules(text: str, source: str, args: argparse.Namespace) -> None:
    """The rules each puzz.link URL of an input asks for (``args.url_rules``, by source and
    index), so that a line can say when it was checked under others; never applied silently."""
    noted = getattr(args, "url_rules", {})
    for index, (_, line) in enumerate(formats._url_lines(formats._lines(text))):  # one puzzle per URL line
        try:
            noted[(source, index)] = formats.url_rules(line)
        except ParseError:  # (that puzzle is an error record)
            continue
    args.url_rules = noted


def _url_rules_note(asked: Rules | None, args: argparse.Namespace, checked: str) -> str:
    """"checked under X rules; the URL asks for Y rules: flag" when a puzz.link URL asked for
    rules (``asked``, from :func:`_note_url_rules`) other than the ones in force, else ""."""
    if asked is None or asked.cover_all == rules_from(args).cover_all:
        return ""
    flag = "--allow-empty" if not asked.cover_all else "no --allow-empty"
    return f"checked under {checked} rules; the URL asks for {asked} rules: {flag}"


def _layered_format(text: str, fmt: str | None) -> str | None:
    """The multi-layer format to read ``text`` in, or None for the 2-D readers: ``--format
    layers``, or an ADC problem (detected, or ``--format adc``) whose SIZE has several layers."""
    if fmt == "layers":
        return fmt
    found = multilayer.formats.layered_format(text) if fmt in (None, "adc") else None
    return found if fmt is None or found == fmt else None  # (--format adc on 'layer' text: the ADC reader refuses it)


def rules_from(args: argparse.Namespace) -> Rules:
    return Rules(cover_all=not args.allow_empty, no_self_touch=args.no_self_touch)


def blank_record() -> dict[str, Any]:
    return {"unique": None, "grid": None, "paths": None}


def _grid(puzzle: AnyPuzzle, solution: AnySolution) -> list:
    """The answer drawn as rows of cell strings, or for a multi-layer puzzle as layers of rows."""
    if isinstance(puzzle, multilayer.Puzzle):
        return solution.to_layers(puzzle)
    return solution.to_rows(puzzle)


def _record(puzzle: AnyPuzzle, args: argparse.Namespace) -> dict[str, Any]:
    options = {"solver": args.solver} if args.solver else {}
    counter = multilayer.count if isinstance(puzzle, multilayer.Puzzle) else count
    result = counter(puzzle, rules=rules_from(args), limit=2, time_limit=args.time_limit, **options)
    if result.count:
        status = Status.SOLVED
    elif result.complete:
        status = Status.UNSATISFIABLE
    else:
        status = Status.UNKNOWN
    record: dict[str, Any] = {"status": status.value, "unique": result.unique, "grid": None, "paths": None}
    if isinstance(puzzle, multilayer.Puzzle):
        record["layers"] = puzzle.layers
    if result.solutions:
        solution: AnySolution = result.solutions[0]
        record["grid"] = _grid(puzzle, solution)
        record["paths"] = {label: [list(cell) for cell in cells] for label, cells in solution.paths}
    if len(result.solutions) >= 2:  # where the puzzle is ambiguous
        second: AnySolution = result.solutions[1]
        record["differs"] = sorted(label for label, cells in solution.paths if second.path(label) not in (cells, cells[::-1]))
        record["second_grid"] = _grid(puzzle, second)
        record["second_paths"] = {label: [list(cell) for cell in cells] for label, cells in second.paths}
    if "proof" in result.stats:  # why there is no answer, when no search was needed to see it
        record["proof"] = result.stats["proof"]
    record["rules"] = str(rules_from(args))
    record["method"] = result.method
    record["encode_seconds"] = round(result.timings.encode, 4)
    record["solve_seconds"] = round(result.timings.solve, 4)
    return record


def solve_record(puzzle: AnyPuzzle, args: argparse.Namespace) -> dict[str, Any]:
    return _record(puzzle, args)


def verify_record(puzzle: AnyPuzzle, args: argparse.Namespace, *, answer: str | None = None) -> dict[str, Any]:
    """The puzzle's record; with ``answer`` (a file: ``verify --answers``) also ``answer``, the
    stated answer checked by :func:`~puzzlesat.numberlink.verify` under the same rules:
    ``{"source", "valid", "violations" (messages; for an unreadable answer the reason),
    "same" (true when it is the answer found, false when another, null when none was found)}``;
    under ``--answers`` a puzzle no answer file pairs with has ``answer`` null.
    A valid stated answer other than the one found shows the puzzle has several answers, which
    decides a uniqueness the search left open; when the search found no answer in time, a valid
    stated answer makes the puzzle "solved" (``solved_by``: "stated answer"; its uniqueness stays
    unknown), since it shows the puzzle solvable."""
    record = _record(puzzle, args)
    record["solved_by"] = None
    if getattr(args, "allow_multiple", False):
        record["unique_required"] = False
    if answer is None:
        if getattr(args, "answers", None) is not None:  # answers were asked for, and none pairs with this puzzle
            record["answer"] = None
        return record
    from ..cli import read_source  # (the command line's file reading: devices refused, size capped)

    stated = {"source": answer, "valid": False, "violations": [], "same": None}
    record["answer"] = stated
    try:
        if isinstance(puzzle, multilayer.Puzzle):
            solution = multilayer.parse_solution(read_source(answer), puzzle, source=answer)
        else:
            solution = formats.parse_solution(read_source(answer), puzzle)
    except ParseError as error:
        stated["violations"] = [str(error if error.source else error.with_source(answer))]
        return record
    rules = rules_from(args)
    violations = multilayer.verify(puzzle, solution, rules) if isinstance(puzzle, multilayer.Puzzle) else verify(puzzle, solution, rules)
    stated["violations"] = [str(violation) for violation in violations]
    if violations and rules.cover_all and {v.code for v in violations} == {"uncovered"}:
        stated["hint"] = "an answer that leaves cells empty is checked with --allow-empty"
    stated["valid"] = not violations
    if stated["valid"] and record["status"] == Status.UNKNOWN.value:
        # the search ran out of time, but the stated answer, checked above, shows the puzzle solvable
        record["status"] = Status.SOLVED.value
        record["solved_by"] = "stated answer"
        record["grid"] = _grid(puzzle, solution)
        record["paths"] = {label: [list(cell) for cell in cells] for label, cells in solution.paths}
        return record
    if record["paths"] is not None and stated["valid"]:
        found = {label: [tuple(cell) for cell in cells] for label, cells in record["paths"].items()}
        stated["same"] = all(found[label] in (list(cells), list(cells[::-1])) for label, cells in solution.paths)
        if not stated["same"]:
            if record["unique"] is True:  # a second valid answer to a puzzle proven unique: a bug
                raise AssertionError(f"the stated answer {answer} is valid and differs from the one found, "
                                     "yet the puzzle was proven unique")
            record["unique"] = False
            record.setdefault("differs", sorted(label for label, cells in solution.paths if found[label] not in (list(cells), list(cells[::-1]))))
            record.setdefault("second_grid", _grid(puzzle, solution))
            record.setdefault("second_paths", {label: [list(cell) for cell in cells] for label, cells in solution.paths})
    return record


def passed(record: dict[str, Any]) -> bool:
    """A puzzle passes when it is solved and its answer is proven unique (and a stated answer,
    when one was given, is valid); under ``verify --allow-multiple`` (the record's
    ``unique_required`` is false: contest sets of routing problems, which have many answers)
    solved is enough."""
    unique_enough = record["unique"] is True or record.get("unique_required") is False
    return record["status"] == "solved" and unique_enough and (record.get("answer") or {}).get("valid", True)


def _uniqueness_text(unique: bool | None) -> str:
    return {True: "unique", False: "multiple answers", None: "uniqueness unknown"}[unique]


def show(puzzle: AnyPuzzle | None, record: dict[str, Any], args: argparse.Namespace, verb: str, *, where: str, colour: bool) -> str:
    if isinstance(puzzle, multilayer.Puzzle):
        size = puzzle.size_text
    else:
        size = f"{puzzle.width}x{puzzle.height}" if puzzle else "?"
    head = f"{where} ({size}): {record['status']}"
    if record["status"] == Status.UNKNOWN.value:  # (as Roller and Swap say it)
        head += " (time limit)"
    if record["status"] == "solved":
        head += f", {_uniqueness_text(record['unique'])}"
    if record.get("differs"):
        head += f" (paths {', '.join(record['differs'])} differ"
        if record.get("rules") == str(Rules()) and _an_answer_runs_beside_itself(puzzle, record):  # puzzles made for Flow Free's rules
            head += "; a path may run beside itself here, --no-self-touch forbids it"
        head += ")"
    declared = getattr(args, "pack_rules", {}).get(record.get("source"))
    if declared and record.get("rules") and declared != record["rules"] and not passed(record):
        head += f" [checked under {record['rules']} rules; the pack was generated under {declared} rules]"
    asked = getattr(args, "url_rules", {}).get((record.get("source"), record.get("index")))
    note = _url_rules_note(asked, args, record["rules"]) if record.get("rules") else ""
    if note:
        head += f" [{note}]"
    if record.get("proof"):
        head += f" ({record['proof']})"
    stated = record.get("answer")
    if stated is None and "answer" in record:
        head += "; no stated answer found"
    elif stated is not None:
        if stated["valid"]:
            if record.get("solved_by") == "stated answer":
                head += "; solved by the stated answer, which is valid (the search found none in time)"
            else:
                head += {True: "; stated answer valid (the one found)", False: "; stated answer valid (not the one found)",
                         None: "; stated answer valid"}[stated["same"]]
        else:
            problems = stated["violations"]
            head += f"; stated answer INVALID: {problems[0]}" + (f" (+{len(problems) - 1} more)" if len(problems) > 1 else "")
            if stated.get("hint"):
                head += f" ({stated['hint']})"
    head += f", {record['seconds']:.3f}s"
    if verb == "verify" or record["grid"] is None:
        return head
    text = head + "\n" + picture(record["grid"], colour=colour)
    if record.get("second_grid"):
        text += "\nanother answer:\n" + picture(record["second_grid"], colour=colour)
    return text


def _an_answer_runs_beside_itself(puzzle: AnyPuzzle | None, record: dict[str, Any]) -> bool:
    """Whether one of the two answers of an ambiguous record has a path running beside itself:
    only then may ``--no-self-touch`` tell them apart (two answers without one stay two)."""
    if puzzle is None or record.get("paths") is None or record.get("second_paths") is None:
        return False
    layered = isinstance(puzzle, multilayer.Puzzle)
    for key in ("paths", "second_paths"):
        cells = {label: [tuple(cell) for cell in path] for label, path in record[key].items()}
        if layered:
            broken = multilayer.verify(puzzle, multilayer.Solution.from_mapping(cells), Rules(no_self_touch=True))
        else:
            broken = verify(puzzle, Solution.from_mapping(cells), Rules(no_self_touch=True))
        if any(violation.code == "self-touch" for violation in broken):
            return True
    return False


def picture(rows: list, *, colour: bool) -> str:
    """The answer grid as text, each label in its own ANSI colour on a terminal; a multi-layer
    answer (a list of layers of rows) as one grid per layer under ``layer z``, the same label
    in the same colour on every layer."""
    if rows and rows[0] and isinstance(rows[0][0], list):
        every = [row for layer in rows for row in layer]
        whole = _picture_rows(every, colour=colour).split("\n")
        height = len(rows[0])
        return "\n\n".join("\n".join([f"layer {z + 1}"] + whole[z * height:(z + 1) * height]) for z in range(len(rows)))
    return _picture_rows(rows, colour=colour)


def _picture_rows(rows: list[list[str]], *, colour: bool) -> str:
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
        result = counter(puzzle, rules=rules_from(args), limit=2, time_limit=args.time_limit, **options)  # (as solve and verify do)
        if result.solutions:
            solution = result.solutions[0]
            title += f", solved, {_uniqueness_text(result.unique)}"
        else:
            found = Status.UNSATISFIABLE.value if result.complete else f"{Status.UNKNOWN.value} (time limit)"
            proof = (result.stats or {}).get("proof")  # why, as solve says it (and roller's render)
            print(f"no answer drawn: {found} under {rules_from(args)} rules" + (f": {proof}" if proof else ""), file=sys.stderr)
            status = 1
        asked = next((rules for (_, index), rules in getattr(args, "url_rules", {}).items()
                      if index == (args.index or 0)), None)  # (one input: the URL drawn)
        note = _url_rules_note(asked, args, str(rules_from(args)))
        if note:
            print(f"note: {note}", file=sys.stderr)
    written = save_for_cli(draw(puzzle, solution, title=title), args.output)
    return written or status
