"""Numberlink records as text for a person (the command line prints it; the library never prints).

>>> from puzzlesat.numberlink import parse
>>> from puzzlesat.numberlink.records import solve_record
>>> puzzle = parse("A.B\\n...\\nA.B")
>>> record = {**solve_record(puzzle, options={"allow_empty": True}, time_limit=None), "seconds": 0.01}
>>> print(show(puzzle, record, verb="verify", colour=False, where="p.txt"))
p.txt (3x3): solved, multiple answers (paths A differ), 0.010s
>>> record = {**solve_record(puzzle, options={}, time_limit=None), "seconds": 0.01}
>>> print(show(puzzle, record, verb="solve", colour=False))
unsolvable (chessboard colours: the free cells have 1 more black than white, but paths between these endpoints cover 2), 0.010s
"""

from __future__ import annotations

from typing import Any, Mapping

from . import multilayer
from .model import Rules, Solution
from .records import rules_note
from .verify import verify

PALETTE = [31, 32, 33, 34, 35, 36, 91, 92, 93, 94, 95, 96]


def size_text(puzzle: Any) -> str:
    """``5x5``, or ``8x8x2`` for a stack of layers ("?" without a puzzle).

    >>> from puzzlesat.numberlink import parse
    >>> size_text(parse("A.A")), size_text(None)
    ('3x1', '?')
    """
    if puzzle is None:
        return "?"
    if isinstance(puzzle, multilayer.Puzzle):
        return puzzle.size_text
    return f"{puzzle.width}x{puzzle.height}"


def uniqueness_text(unique: bool | None) -> str:
    return {True: "unique", False: "multiple answers", None: "uniqueness unknown"}[unique]


# what an undecided default-rules record says about the puzzle under no-self-touch rules
WITHOUT_TOUCH_TEXT = {"unique": "unique without self-touch", "multiple": "multiple answers without self-touch too",
                      "none": "no answer without self-touch", "unknown": "unknown without self-touch too"}


def steps_text(steps: list, decided_by: str | None) -> str:
    """The engine's steps (``--explain``), one line each, the deciding one marked.

    >>> print(steps_text([["refute", "nothing", 0.0002], ["first", "answer (no-self-touch)", 0.0113],
    ...                   ["probes:swap", "answer", 0.0004]], "probes:swap"))
      refute       nothing                 0.000s
      first        answer (no-self-touch)  0.011s
      probes:swap  answer                  0.000s  <- decided
    >>> steps_text([], None)
    '  (no steps recorded)'
    """
    if not steps:
        return "  (no steps recorded)"
    names = max(len(str(step[0])) for step in steps)
    outcomes = max(len(str(step[1])) for step in steps)
    lines = []
    last_decider = max((i for i, step in enumerate(steps) if step[0] == decided_by), default=None)
    for i, (name, outcome, seconds) in enumerate(steps):
        mark = "  <- decided" if i == last_decider else ""
        lines.append(f"  {str(name).ljust(names)}  {str(outcome).ljust(outcomes)}  {float(seconds):.3f}s{mark}")
    return "\n".join(lines)


def show(puzzle: Any, record: Mapping[str, Any], *, verb: str, colour: bool, where: str | None = None) -> str:
    """The record for a person: a line with the verdict (``where (size): `` first when ``where``
    names the puzzle), then for ``solve`` the answer grid, and the second answer of a puzzle that
    has several."""
    head = f"{record['status']}"
    if record["status"] == "unknown":  # (as Roller and Swap say it)
        head += " (memory limit)" if record.get("reason") == "memory limit" else " (time limit)"
    if record["status"] == "solved":
        head += f", {uniqueness_text(record.get('unique'))}"
        if record.get("unique") is None and record.get("without_self_touch"):
            head += f" ({WITHOUT_TOUCH_TEXT.get(record['without_self_touch'], record['without_self_touch'])})"
    if record.get("differs"):
        head += f" (paths {', '.join(record['differs'])} differ"
        if record.get("rules") == str(Rules()) and _an_answer_runs_beside_itself(puzzle, record):  # puzzles made for Flow Free's rules
            head += "; a path may run beside itself here, --no-self-touch forbids it"
        head += ")"
    note = rules_note(record)
    if note:
        head += f" [{note}]"
    if record["status"] == "unsolvable" and record.get("reason"):
        head += f" ({record['reason']})"
    stated = record.get("stated_answer")
    if stated is None and record.get("stated_answer_missing"):
        head += "; no stated answer found"
    elif stated is not None:
        head += _stated_text(record, stated)
    if "seconds" in record:
        head += f", {record['seconds']:.3f}s"
    if where is not None:
        head = f"{where} ({size_text(puzzle)}): {head}"
    if record.get("steps") is not None:  # (--explain)
        head += "\n" + steps_text(record["steps"], record.get("decided_by"))
    if verb == "verify" or record.get("grid") is None:
        return head
    text = head + "\n" + picture(record["grid"], colour=colour)
    if record.get("second_grid"):
        text += "\nanother answer:\n" + picture(record["second_grid"], colour=colour)
    return text


def _stated_text(record: Mapping[str, Any], stated: Mapping[str, Any]) -> str:
    if stated["valid"]:
        if record.get("solved_by") == "stated answer":
            return "; solved by the stated answer, which is valid (the search found none in time)"
        return {True: "; stated answer valid (the one found)", False: "; stated answer valid (not the one found)",
                None: "; stated answer valid"}[stated.get("same")]
    problems = stated["violations"]
    text = f"; stated answer INVALID: {problems[0]}" + (f" (+{len(problems) - 1} more)" if len(problems) > 1 else "")
    if stated.get("hint"):
        text += f" ({stated['hint']})"
    return text


def _an_answer_runs_beside_itself(puzzle: Any, record: Mapping[str, Any]) -> bool:
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
    in the same colour on every layer.

    >>> print(picture([[["1", "."]], [["1", "#"]]], colour=False))
    layer 1
    1 .
    <BLANKLINE>
    layer 2
    1 #
    """
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
