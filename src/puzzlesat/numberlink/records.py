"""The JSON records of Numberlink's solve and verify (``docs/record.schema.json``), one layer
and several, and the reading of one input for them (:func:`load`); generate's are in
:mod:`.generated`.

Besides the shared keys, a record has ``grid`` (the answer as rows of cell strings: label, "."
empty, "#" blocked; for a stack, a list of layers of rows), ``paths`` (label -> [[row, col],
...] from one endpoint to the other; on a stack ``[layer, row, col]``), ``layers`` (a stack's
number of layers), and for a puzzle with several answers ``differs`` (the labels whose paths
differ between the two answers found) with ``second_grid`` / ``second_paths`` (the second
answer): where the puzzle is ambiguous, which a puzzle maker wants to see. ``stated_rules``
and ``stated_rules_by`` ("url" or "pack") name the rules the puzzle's source asks for, when
it asks (they are never applied silently: ``show`` says when others were in force).
``unique`` is null when there is no answer (unsolvable, or none found in time).
``decided_by`` names the step of the engine that decided (``stats["decided_by"]``: "refute",
"first", "probes:swap", "windows", "frontier", "global-sat", ...; null while undecided);
``without_self_touch`` ("unique", "multiple", "none" or "unknown"), present when a default-rules
uniqueness was left undecided, says what the puzzle is when paths may not touch themselves;
``steps`` (``[name, outcome, seconds]`` each) is there when ``options["explain"]`` asks for it.

``options`` is the mapping of the family's options by name (``allow_empty``,
``no_self_touch``, ``solver``, and ``method``: "sat" or "backtracking"); ``verify_record`` also
reads ``allow_multiple`` (a solved puzzle passes unique or not) and ``answers`` (answers were
asked for: a puzzle none pairs with has ``stated_answer_missing``).

>>> from puzzlesat.numberlink import parse
>>> record = solve_record(parse("AB\\n..\\nAB"), options={"allow_empty": True}, time_limit=None)
>>> record["status"], record["unique"], record["size"], record["rules"]
('solved', True, {'width': 2, 'height': 3}, 'may-leave-empty')
>>> print(record["answer"])
A B
A B
A B
>>> solve_record(parse("A.B\\n...\\nA.B"), options={}, time_limit=None)["status"]
'unsolvable'
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Callable, Mapping

from ..errors import ParseError, UnverifiedAnswer, require_valid
from ..timing import Deadline
from . import formats, multilayer
from .model import Puzzle, Rules, Solution, StatedRules
from .solve import count as sat_count
from .verify import verify

AnyPuzzle = Puzzle | multilayer.Puzzle
AnySolution = Solution | multilayer.Solution
Options = Mapping[str, Any]

STATUS_WORDS = {"solved": "solved", "unsatisfiable": "unsolvable", "unknown": "unknown"}  # results.Status -> record status
_PACK_LINE = re.compile(r"# puzzlesat generate numberlink ([^\n]*)")  # a pack's first line: its flags name the rules


def rules_of(options: Options) -> Rules:
    """The rules the options ask for (default: cover-all, paths may run beside themselves)."""
    return Rules(cover_all=not options.get("allow_empty", False), no_self_touch=bool(options.get("no_self_touch", False)))


def rules_from_text(text: str) -> Rules | None:
    """The rules ``str(Rules(...))`` wrote, or None for other text.

    >>> rules_from_text("may-leave-empty, no-self-touch")
    Rules(cover_all=False, no_self_touch=True)
    """
    parts = [part.strip() for part in text.split(",")]
    if not parts or parts[0] not in ("cover-all", "may-leave-empty") or parts[1:] not in ([], ["no-self-touch"]):
        return None
    return Rules(cover_all=parts[0] == "cover-all", no_self_touch=parts[1:] == ["no-self-touch"])


# -- reading -------------------------------------------------------------------------------------
def load(text: str, *, source: str, fmt: str | None, options: Options, deadline: Deadline | None = None) -> list[AnyPuzzle | ParseError]:
    """The puzzles of one input (``fmt``: a format name of the family, None to detect); in a file
    of several, one that cannot be read is its ParseError and the others are still read. The
    rules a pack of ``generate numberlink`` states in its first line are kept on each puzzle
    (``stated_rules``), as a puzz.link URL's are by the reader. ``deadline``: each puzzle's
    reading ends by it (see :func:`.formats.parse_all`), or is its TimeLimitReached.

    >>> [p.stated_rules for p in load("# puzzlesat generate numberlink (rules: may-leave-empty)\\nA.A", source="p.txt", fmt=None, options={})]
    [StatedRules(rules=Rules(cover_all=False, no_self_touch=False), by='pack')]
    """
    declared = _PACK_LINE.match(text)
    stated = _pack_rules(declared.group(1)) if declared else None
    layered = _layered_format(text, fmt)
    if layered is not None:  # one multi-layer puzzle per file
        items: list = [multilayer.parse(text, fmt=layered, source=source, deadline=deadline)]
    else:
        items = formats.parse_each(text, fmt=fmt, source=source, deadline=deadline)
    if stated is None:
        return items
    return [dataclasses.replace(item, stated_rules=StatedRules(stated, "pack")) if not isinstance(item, ParseError) else item
            for item in items]


def _pack_rules(settings: str) -> Rules | None:
    """The rules a pack's first line states: ``(rules: ...)``, or its flags.

    >>> _pack_rules("--size 5x5 --seed 0 --no-self-touch"), _pack_rules("(rules: may-leave-empty)").cover_all
    (Rules(cover_all=True, no_self_touch=True), False)
    """
    written = re.search(r"\(rules: ([^)]*)\)", settings)
    if written:
        return rules_from_text(written.group(1))
    flags = settings.split()
    return Rules(cover_all="--allow-empty" not in flags, no_self_touch="--no-self-touch" in flags)


def _layered_format(text: str, fmt: str | None) -> str | None:
    """The multi-layer format to read ``text`` in, or None for the one-layer readers: ``layers``,
    or an ADC problem (detected, or ``adc``) whose SIZE has several layers."""
    if fmt == "layers":
        return fmt
    found = multilayer.formats.layered_format(text) if fmt in (None, "adc") else None
    return found if fmt is None or found == fmt else None  # (adc asked on 'layer' text: the ADC reader refuses it)


# -- solve and verify ----------------------------------------------------------------------------
def _size(puzzle: AnyPuzzle) -> dict[str, int]:
    size = {"width": puzzle.width, "height": puzzle.height}
    if isinstance(puzzle, multilayer.Puzzle):
        size["layers"] = puzzle.layers
    return size


def grid_of(puzzle: AnyPuzzle, solution: AnySolution) -> list:
    """The answer drawn as rows of cell strings, or for a stack as layers of rows."""
    if isinstance(puzzle, multilayer.Puzzle):
        return solution.to_layers(puzzle)
    return solution.to_rows(puzzle)


def answer_text(puzzle: AnyPuzzle, solution: AnySolution, fmt: str | None = None) -> str:
    """The answer in the family's notation: the filled grid (native; a stack in ``layers``)."""
    if isinstance(puzzle, multilayer.Puzzle):
        return multilayer.format_solution(puzzle, solution, fmt=fmt or "layers")
    return formats.format_solution(puzzle, solution, fmt=fmt or "native")


def _paths(solution: AnySolution) -> dict[str, list[list[int]]]:
    return {label: [list(cell) for cell in cells] for label, cells in solution.paths}


def _checker(puzzle: AnyPuzzle) -> Callable[..., list]:
    return multilayer.verify if isinstance(puzzle, multilayer.Puzzle) else verify


def _counter(puzzle: AnyPuzzle, options: Options) -> Callable[..., Any]:
    """The count of the method asked for (``method``: "sat", whose back-end is ``solver``, or
    the "backtracking" baseline, one layer only)."""
    extra = {"method": options.get("method") or "sat"}
    if options.get("solver"):
        extra["solver"] = options["solver"]
    counter = multilayer.count if isinstance(puzzle, multilayer.Puzzle) else sat_count
    return lambda puzzle, **kw: counter(puzzle, **kw, **extra)


def _record(puzzle: AnyPuzzle, options: Options, time_limit: float | Deadline | None) -> dict[str, Any]:
    rules = rules_of(options)
    result = _counter(puzzle, options)(puzzle, rules=rules, limit=2, time_limit=time_limit)
    checker = _checker(puzzle)
    for found in result.solutions:  # (the solvers check their answers too: this is the record's own guard)
        require_valid(checker(puzzle, found, rules), result.method or "the Numberlink solver")
    status = "solved" if result.count else "unsolvable" if result.complete else "unknown"
    reason = (result.stats or {}).get("proof")  # why there is no answer, when no search was needed to see it
    if status == "unknown":
        reason = (result.stats or {}).get("stopped") or "time limit"
    record: dict[str, Any] = {
        "status": status, "objective": "unique", "size": _size(puzzle), "name": puzzle.name or None,
        "rules": str(rules), "method": result.method, "answer": None, "moves": None, "moves_count": None,
        "unique": result.unique if result.count else None, "optimal": None, "lower_bound": None, "solved_by": None, "reason": reason,
        "decided_by": (result.stats or {}).get("decided_by"),
        "stated_minimum": None, "stated_minimum_match": None, "stated_answer": None,
        "encode_seconds": round(result.timings.encode, 4), "solve_seconds": round(result.timings.solve, 4),
        "grid": None, "paths": None,
    }
    if isinstance(puzzle, multilayer.Puzzle):
        record["layers"] = puzzle.layers
    if "without_self_touch" in (result.stats or {}):
        record["without_self_touch"] = result.stats["without_self_touch"]
    if options.get("explain"):
        record["steps"] = [list(step) for step in (result.stats or {}).get("steps", [])]
    if puzzle.stated_rules is not None:
        record["stated_rules"] = str(puzzle.stated_rules.rules)
        record["stated_rules_by"] = puzzle.stated_rules.by
    if result.solutions:
        first: AnySolution = result.solutions[0]
        record.update(answer=answer_text(puzzle, first), grid=grid_of(puzzle, first), paths=_paths(first))
    if len(result.solutions) >= 2:  # where the puzzle is ambiguous
        _second(record, puzzle, first, result.solutions[1])
    return record


def _second(record: dict[str, Any], puzzle: AnyPuzzle, first: AnySolution, second: AnySolution) -> None:
    record["differs"] = sorted(label for label, cells in first.paths if second.path(label) not in (cells, cells[::-1]))
    record["second_grid"] = grid_of(puzzle, second)
    record["second_paths"] = _paths(second)


def solve_record(puzzle: AnyPuzzle, *, options: Options, time_limit: float | Deadline | None) -> dict[str, Any]:
    """The record of ``solve``: an answer (checked), whether it is unique (a count to two), or
    why there is none."""
    return _with_notes(_record(puzzle, options, time_limit))


def verify_record(puzzle: AnyPuzzle, *, options: Options, time_limit: float | Deadline | None,
                  answer: tuple[str | None, str] | None = None) -> dict[str, Any]:
    """The record of ``verify``; with ``answer`` (``(source, text)`` of a stated answer) also
    ``stated_answer``: ``{"source", "valid", "violations" (messages; for an unreadable answer the
    reason), "same" (the answer found, another, or null when none was found), "too_long": null}``,
    checked under the same rules. A valid stated answer other than the one found shows the
    puzzle has several answers, which decides a uniqueness the search left open; when the
    search found no answer in time, a valid stated answer makes the puzzle "solved"
    (``solved_by``: "stated answer"; its uniqueness stays unknown).

    >>> from puzzlesat.numberlink import parse
    >>> r = verify_record(parse("A..\\n...\\n..A"), options={"allow_empty": True}, time_limit=None,
    ...                   answer=("a.txt", "A..\\nA..\\nAAA"))
    >>> r["unique"], r["stated_answer"]["valid"], r["stated_answer"]["same"] in (True, False)
    (False, True, True)
    """
    return _with_notes(_verify(puzzle, options, time_limit, answer))


def _verify(puzzle: AnyPuzzle, options: Options, time_limit: float | Deadline | None,
            answer: tuple[str | None, str] | None) -> dict[str, Any]:
    record = _record(puzzle, options, time_limit)
    if options.get("allow_multiple"):
        record["unique_required"] = False
    if answer is None:
        if options.get("answers") is not None:  # answers were asked for, and none pairs with this puzzle
            record["stated_answer_missing"] = True
        return record
    source, text = answer
    stated: dict[str, Any] = {"source": source, "valid": False, "violations": [], "same": None, "too_long": None}
    record["stated_answer"] = stated
    try:
        if isinstance(puzzle, multilayer.Puzzle):
            solution: AnySolution = multilayer.parse_solution(text, puzzle, source=source)
        else:
            solution = formats.parse_solution(text, puzzle)
    except ParseError as error:
        stated["violations"] = [str(error if error.source or source is None else error.with_source(source))]
        return record
    rules = rules_of(options)
    violations = _checker(puzzle)(puzzle, solution, rules)
    stated["violations"] = [str(violation) for violation in violations]
    if violations and rules.cover_all and {v.code for v in violations} == {"uncovered"}:
        stated["hint"] = "an answer that leaves cells empty is checked with --allow-empty"
    stated["valid"] = not violations
    if stated["valid"] and record["status"] == "unknown":
        # the search ran out of time, but the stated answer, checked above, shows the puzzle solvable
        record.update(status="solved", solved_by="stated answer", reason=None, answer=answer_text(puzzle, solution),
                      grid=grid_of(puzzle, solution), paths=_paths(solution))
        return record
    if record["paths"] is not None and stated["valid"]:
        found = {label: [tuple(cell) for cell in cells] for label, cells in record["paths"].items()}
        stated["same"] = all(found[label] in (list(cells), list(cells[::-1])) for label, cells in solution.paths)
        if not stated["same"]:
            if record["unique"] is True:  # a second valid answer to a puzzle proven unique: a bug
                raise UnverifiedAnswer(f"the stated answer {source or ''} is valid and differs from the one found, "
                                       "yet the puzzle was proven unique; please report this puzzle")
            record["unique"] = False
            record["decided_by"] = record.get("decided_by") or "stated answer"
            if "differs" not in record:
                record["differs"] = sorted(label for label, cells in solution.paths if found[label] not in (list(cells), list(cells[::-1])))
                record["second_grid"] = grid_of(puzzle, solution)
                record["second_paths"] = _paths(solution)
    return record


def passed(record: Mapping[str, Any]) -> bool:
    """A puzzle passes ``verify`` when it is solved and its answer is proven unique (and a stated
    answer, when one was given, is valid); when the record's ``unique_required`` is false
    (``verify --allow-multiple``: contest sets of routing problems) solved is enough."""
    unique_enough = record.get("unique") is True or record.get("unique_required") is False
    return record.get("status") == "solved" and unique_enough and (record.get("stated_answer") or {}).get("valid", True)


def rules_note(record: Mapping[str, Any]) -> str:
    """Why the rules in force may explain the verdict, when the puzzle's source asked for others:
    a puzz.link URL whose variety covers cells otherwise (said always), or a pack generated
    under other rules (said when the puzzle did not pass); "" otherwise.

    >>> rules_note({"rules": "cover-all", "stated_rules": "may-leave-empty", "stated_rules_by": "url", "status": "unsolvable"})
    'checked under cover-all rules; the URL asks for may-leave-empty rules: --allow-empty'
    """
    stated, in_force = record.get("stated_rules"), record.get("rules")
    if not stated or not in_force:
        return ""
    if record.get("stated_rules_by") == "url":
        asked, used = rules_from_text(stated), rules_from_text(in_force)
        if asked is None or used is None or asked.cover_all == used.cover_all:
            return ""
        flag = "--allow-empty" if not asked.cover_all else "no --allow-empty"
        return f"checked under {in_force} rules; the URL asks for {stated} rules: {flag}"
    if stated != in_force and not passed(record):
        return f"checked under {in_force} rules; the pack was generated under {stated} rules"
    return ""


def _with_notes(record: dict[str, Any]) -> dict[str, Any]:
    """The record with ``notes``: what a person should know about its verdict (``rules_note``)."""
    note = rules_note(record)
    record["notes"] = [note] if note else []
    return record


def answer_of(puzzle: AnyPuzzle, record: Mapping[str, Any]) -> AnySolution | None:
    """The answer a record holds (its ``paths``), or None."""
    paths = record.get("paths")
    if not paths:
        return None
    cells = {label: [tuple(cell) for cell in path] for label, path in paths.items()}
    kind = multilayer.Solution if isinstance(puzzle, multilayer.Puzzle) else Solution
    return kind.from_mapping(cells)
