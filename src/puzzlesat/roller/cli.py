"""Command-line adapter of the Roller family (used by :mod:`puzzlesat.cli`).

JSON record keys (the contract outside checks rely on): ``status`` ("solved", "unsolvable",
"unknown"), ``moves`` (a string over U D L R, or null), ``optimal`` (true only when the minimum
is proven), ``lower_bound`` (the best proven lower bound on the number of moves, or null);
extras: ``moves_count``, ``name``, ``width``, ``height``, ``start`` ([row, col]), ``start_rule``
(how a start the file did not store was chosen), ``par`` (the optimum the file states, or the
length of the answer it ships) with ``par_match`` ("equal", "better" = ours is shorter, "worse"
= the stated count is below our proven minimum or lower bound, or the level is proven
unsolvable; null when the file states nothing or nothing proven bears on it),
``known_answer_valid`` (whether the file's own answer replays) and ``known_answer_problem``
(its first fault, e.g. ``no-move: move 5 (L) cannot leave (3, 1): ...``), ``reason``
(why a level is unsolvable, or why an unknown one stopped before any time limit), ``method``, ``encode_seconds``, ``solve_seconds``, and under
``verify --answers`` ``answer`` (see :func:`verify_record`). The generic CLI adds ``family``,
``source``, ``index``, ``seconds`` and ``error``.

Detection (``sniff``), specific on purpose because Numberlink grids also use ``.`` and ``#``:
a Tiled ``<map`` XML (or ``<tileset``, the tiles of TabTale's maps: claimed only to be refused
as not a level); TabTale answer lines (``001.xml,0,1,3``, alone or in a solver's log:
claimed only to be refused with a clear message, :class:`~puzzlesat.errors.NotAPuzzle`, which
``verify`` of a folder reports as skipped; ``verify --answers`` reads them with
:func:`answer_table`); a JSON object with ``"levels"``, ``"rows"`` and ``"start"``; herbou's
``levels = [[[`` arrays; a headerless grid of space-separated ``0``/``1`` with more than two
``1``; a ``W``/``G`` grid; a grid over ``#`` ``.`` with exactly one ``o`` (or exactly one ``x``)
in every block. A Numberlink label occurs exactly twice, so none of these is a Numberlink
puzzle. The ``.roller`` ending (or ``--family roller``) always wins; anything else falls
through to Numberlink.
"""

from __future__ import annotations

import argparse
import re
from typing import Any

from ..errors import NotAPuzzle, ParseError
from ..results import Status, stated_phrase
from ..scene import clean_text
from ..textio import split_lines
from . import formats
from .model import DELTAS, Level, slide
from .verify import verify

PALETTE = [34, 36, 32, 33, 35, 31, 94, 96, 92, 93, 95, 91]
ARROWS = {"U": "^", "D": "v", "L": "<", "R": ">"}

_GRID_LINE = re.compile(r"^[#.ox]+$")
_BINARY_ROW = re.compile(r"^[01](?:[ \t]+[01])+$")
_WG_ROW = re.compile(r"^[WG]+$")
_ANSWER_LINE = re.compile(r"^[^,]+\.(?:xml|tmx),\s*\d+(?:\.\d+)?(?:,\s*[1-4])*\s*$", re.IGNORECASE)


def is_answer_file(text: str) -> bool:
    """TabTale answer lines (``001.xml,0,1,3,2,4``) rather than levels."""
    lines = [line.strip() for line in split_lines(text[:200_000]) if line.strip()]
    return bool(lines) and all(_ANSWER_LINE.match(line) for line in lines)


def answers_kind(text: str) -> str | None:
    """What a text holding TabTale answer lines is, in words, or None when it holds none: a
    table of answers, or a solver's log with such a table in it (eranheres' ``solution_dump.txt``).
    Either holds no level (:func:`puzzlesat.roller.read_answers` reads the answers of both).

    >>> answers_kind("001.xml,0,1,3\\n002.xml,0,4\\n")
    'a TabTale answer file (2 answers: level file, seconds, moves with 1=R 2=L 3=U 4=D)'
    >>> answers_kind("solving ../data/all\\n001.xml(2) depth:2\\n001.xml,0,1,3\\n")
    'a solver log holding a TabTale answer file (1 answer: level file, seconds, moves with 1=R 2=L 3=U 4=D)'
    >>> answers_kind("#####\\n#o..#\\n#####") is None
    True
    """
    lines = [line.strip() for line in filter(None, split_lines(text)) if not line.isspace()]
    count = sum(1 for line in lines if _ANSWER_LINE.match(line) and not line.startswith("#"))
    if not count:
        return None
    what = f"a TabTale answer file ({count} answer{'s' if count != 1 else ''}: level file, seconds, moves with 1=R 2=L 3=U 4=D)"
    return what if count == len(lines) else f"a solver log holding {what}"


# -- detection and loading ----------------------------------------------------------------------
def _grid_blocks(text: str) -> list[list[str]] | None:
    """Blocks of grid lines (comments and titles before a grid skipped), or None when a block
    holds a line that is neither."""
    blocks: list[list[str]] = []
    current: list[str] = []
    for raw in split_lines(text):
        line = raw.strip()
        if not line:
            if current:
                blocks.append(current)
                current = []
            continue
        if line.startswith("# ") or (not current and line[0] not in "#.ox"):
            continue
        if not _GRID_LINE.match(line):
            return None
        current.append(line)
    if current:
        blocks.append(current)
    return blocks


def sniff(text: str, path: str) -> bool:
    """Is this text a Roller level set? Cheap and specific (see the module docstring)."""
    head = text[:200_000].lstrip("\ufeff \t\r\n")
    if not head:
        return False
    if head.startswith("<"):
        return "<map" in head[:4000] or re.search(r"<tileset\b", head[:4000]) is not None  # (a tileset: to be refused clearly)
    if head.startswith("{"):
        return '"levels"' in head and '"rows"' in head and '"start"' in head
    if "levels" in head and re.search(r"\blevels\s*=\s*\[\s*\[\s*\[", formats._blank_js_comments(head)):
        return True
    if is_answer_file(head):
        return True  # claimed so that load() can say what it is
    lines = [line.strip() for line in split_lines(head) if line.strip()]
    if len(lines) >= 2 and all(_BINARY_ROW.match(line) for line in lines):
        return sum(line.split().count("1") for line in lines) > 2
    if len(lines) >= 2 and all(_WG_ROW.match(line) for line in lines):
        joined = "".join(lines)
        return joined.count("W") > 2 or joined.count("G") > 2
    if formats.detect_format(head) == "nohtaray":
        blocks = _grid_blocks(re.split(r"\n[ \t\r]*\n", head, maxsplit=1)[0])
        return bool(blocks) and "".join(blocks[0]).count("o") == 1
    blocks = _grid_blocks(head)
    if not blocks:
        return answers_kind(head) is not None  # a solver's log around an answer table: claimed so that load() says what it is
    for block in blocks:
        cells = "".join(block)
        has_o, has_x = cells.count("o"), cells.count("x")
        if not ((has_o == 1 and has_x == 0) or (has_x == 1 and has_o == 0)):
            return False
    return True


def load(text: str, source: str, args: argparse.Namespace) -> list[Level | ParseError]:
    """The levels of one input; in a native or starhermit file of several, one that cannot be
    read is its ParseError (reported as an error record) and the others are still checked."""
    fmt = getattr(args, "fmt", None)
    kind = answers_kind(text) if fmt is None else None
    if kind is not None and not _grid_blocks(text):  # answer lines and no level grid
        raise NotAPuzzle(f"{kind}, not a level; check its answers with 'puzzlesat verify LEVELS --answers {source}' "
                         "or read them with puzzlesat.roller.read_answers", line=1)
    if fmt is None and source.lower().endswith(".roller"):
        fmt = "native"
    return formats.parse_each(text, fmt=fmt, start=getattr(args, "start", None), source=source)


# -- records ------------------------------------------------------------------------------------
def blank_record() -> dict[str, Any]:
    return {"moves": None, "optimal": None, "lower_bound": None, "moves_count": None, "par": None, "par_match": None}


def reference_length(level: Level) -> tuple[int | None, bool | None, str | None]:
    """The move count the level's file states (its par, else the length of its shipped answer),
    whether that shipped answer replays validly (None when it ships none), and what is wrong
    with it (the first fault, or None)."""
    problems = [] if level.known_answer is None else verify(level, level.known_answer)
    answer_valid = None if level.known_answer is None else not problems
    problem = str(problems[0]) if problems else None
    if level.par is not None:
        return level.par, answer_valid, problem
    if level.known_answer is not None and answer_valid:
        return len(level.known_answer), answer_valid, problem
    return None, answer_valid, problem


def par_match(status: str, moves: str | None, reference: int | None, optimal: bool = True,
              lower_bound: int | None = None) -> str | None:
    """How our answer compares with the file's stated count: "equal", "better" (fewer moves),
    "worse" (the stated count is below our proven minimum or lower bound, or the level is proven
    unsolvable); None when it states none, or nothing proven bears on it (a longer answer not
    proven minimal says nothing)."""
    if reference is None:
        return None
    if lower_bound is not None and lower_bound > reference:
        return "worse"
    if status not in ("solved", "unsolvable"):
        return None
    if status == "unsolvable" or moves is None:
        return "worse"
    if len(moves) == reference:
        return "equal"
    if len(moves) < reference:
        return "better"
    return "worse" if optimal else None


def solve_record(level: Level, args: argparse.Namespace) -> dict[str, Any]:
    from .solve import solve

    result = solve(level, time_limit=getattr(args, "time_limit", None), method=getattr(args, "method", None))
    moves = result.solution if result.status is Status.SOLVED else None
    if moves is not None:
        problems = verify(level, moves)
        if problems:  # solve() checks its answers; this is a second line of defence
            raise RuntimeError(f"the solver returned an invalid answer: {problems[0]}")
    status = {Status.SOLVED: "solved", Status.UNSATISFIABLE: "unsolvable", Status.UNKNOWN: "unknown"}[result.status]
    reference, answer_valid, answer_problem = reference_length(level)
    lower_bound = result.lower_bound
    if status == "solved" and result.optimal:
        lower_bound = len(moves) if moves is not None else lower_bound
    record: dict[str, Any] = {
        "status": status,
        "moves": moves,
        "optimal": bool(result.optimal and status == "solved"),
        "lower_bound": lower_bound,
        "moves_count": None if moves is None else len(moves),
        "name": level.name,
        "width": level.width,
        "height": level.height,
        "start": list(level.start),
        "start_rule": level.start_rule,
        "par": reference,
        "par_match": par_match(status, moves, reference, bool(result.optimal), lower_bound),
        "known_answer_valid": answer_valid,
        "known_answer_problem": answer_problem,
        "known_answer_too_long": bool(answer_valid and level.par is not None and len(level.known_answer or "") > level.par),
        "reason": (result.stats or {}).get("reason") if status == "unsolvable" else stopped_short(result),
        "method": result.method,
        "encode_seconds": round(result.timings.encode, 4),
        "solve_seconds": round(result.timings.solve, 4),
    }
    return record


def stopped_short(result: Any) -> str | None:
    """Why a search ended with no proven answer before any time limit, or None: A* stops when it
    holds a million states (its memory cap), and its answer is "unknown" then too."""
    stats = result.stats or {}
    if result.status is Status.UNKNOWN and stats.get("out_of") == "memory":
        return f"A* stopped at its memory cap, {stats.get('states', 0):,} states stored"
    return None


def verify_record(level: Level, args: argparse.Namespace, *, answer: str | None = None) -> dict[str, Any]:
    """``puzzlesat verify``: the same facts as solve (solvable or not, proven minimum, par match).

    ``answer`` (``verify --answers FILE``): a TabTale answer file; the level's entry (by the
    level's name, its file name for TMX levels) is checked as the level's shipped answer, and
    the record's ``answer`` is ``{"source", "name", "moves"}``, or null when the file has no
    moves for the level; under ``--answers`` a level no answer file pairs with (an answer
    folder is paired by file name, as for Numberlink) has ``answer`` null too."""
    if answer is None:
        record = _with_stated_answer(level, solve_record(level, args))
        if getattr(args, "answers", None) is not None:  # answers were asked for, and none pairs with this level
            record["answer"] = None
        return record
    moves = formats.read_answers(answer).get(level.name) or None  # (an empty entry: the submitter gave up)
    if moves is not None:
        level = Level(level.rows, level.start, name=level.name, par=level.par, known_answer=moves, start_rule=level.start_rule)
    record = _with_stated_answer(level, solve_record(level, args))
    record["answer"] = None if moves is None else {"source": answer, "name": level.name, "moves": moves}
    return record


def _with_stated_answer(level: Level, record: dict[str, Any]) -> dict[str, Any]:
    """``verify``'s record, with the level's shipped answer as the answer (``solved_by``:
    "stated answer") when the solver stopped (its time limit, A*'s memory cap) with none, or
    with a longer one: a valid shipped answer shows the level solvable, and it is the proven
    minimum when it is as short as the proven lower bound (as Numberlink's and Swap's ``verify``
    use a stated answer)."""
    record["solved_by"] = None
    stated = level.known_answer
    if not record["known_answer_valid"] or stated is None:
        return record
    lower = record["lower_bound"]
    if lower is not None and len(stated) < lower:
        raise RuntimeError(f"the shipped answer of {len(stated)} moves is valid, but the solver proved at least {lower}: "
                           "a fault in the solver")
    if record["optimal"] or record["status"] not in ("solved", "unknown"):
        return record
    if record["moves_count"] is not None and record["moves_count"] <= len(stated):
        return record
    optimal = lower is not None and len(stated) <= lower
    record.update(status="solved", moves=stated, moves_count=len(stated), optimal=optimal,
                  lower_bound=len(stated) if optimal else lower, solved_by="stated answer")
    reference, _, _ = reference_length(level)
    record["par_match"] = par_match("solved", stated, reference, optimal, record["lower_bound"])
    return record


def answer_table(text: str, source: str) -> dict[str, str] | None:
    """The answers of a TabTale answer file (or a solver's log holding one) for ``verify
    --answers``: level file name -> moves; None when the text is not one. A text with answer
    lines that do not read (a move digit 5, letters for moves) is one: its error names the line."""
    if _grid_blocks(text) or not any(formats.is_answer_line(line) for line in split_lines(text)):
        return None
    try:
        return formats.parse_answers(text)
    except ParseError as exc:
        raise exc.with_source(source) from None


def passed(record: dict[str, Any]) -> bool:
    """A level passes when it is proven unsolvable, or solved with a proven minimum, and every
    claim its file makes holds: a stated par (or shipped answer) is that minimum, not more and
    not less, and a shipped answer replays validly in at most the par's moves."""
    if record.get("known_answer_valid") is False or record.get("known_answer_too_long"):
        return False
    if record.get("par_match") in ("worse", "better"):
        return False
    return record["status"] == "unsolvable" or (record["status"] == "solved" and record["optimal"] is True)


# -- human output -------------------------------------------------------------------------------
def summary_line(level: Level | None, record: dict[str, Any], where: str) -> str:
    name = record.get("name")
    base = record["source"].replace("\\", "/").rsplit("/", 1)[-1]
    if name and name not in (base, f"{base}#{record.get('index')}"):
        where += f" [{clean_text(name)}]"  # a file's control characters never reach the terminal
    size = f"{level.width}x{level.height}" if level is not None else "?"
    status = record["status"]
    if status == "solved":
        count = record["moves_count"]
        text = f"solved in {count} move{'s' if count != 1 else ''}"
        if record.get("solved_by") == "stated answer":
            stopped = f": {record['reason']}" if record.get("reason") else " at its time limit"
            text += f" by the file's shipped answer (the search stopped{stopped}, with no shorter one)"
        text += ", proven minimum" if record["optimal"] else f", not proven minimal (lower bound {record['lower_bound']})"
    elif status == "unsolvable":
        text = "unsolvable" + (f": {record['reason']}" if record.get("reason") else "")
    else:
        text = f"unknown ({record.get('reason') or 'time limit'})" + (f", lower bound {record['lower_bound']}" if record.get("lower_bound") is not None else "")
    if record.get("par") is not None:
        text += "; " + stated_phrase(record["par"], record["par_match"], status=status, moves_count=record["moves_count"],
                                     optimal=record["optimal"], lower_bound=record["lower_bound"])
    if record.get("known_answer_valid") is False:
        text += f"; its stated answer is not valid ({record.get('known_answer_problem')})"
    if record.get("known_answer_too_long") and level is not None:
        text += f"; its stated answer has {len(level.known_answer or '')} moves, more than the par {record['par']}"
    return f"{where} ({size}): {text}, {record['seconds']:.3f}s"


def picture(level: Level, moves: str | None, *, colour: bool) -> str:
    """The level as text with the route drawn: each painted cell shows the arrow of the first
    move that painted it (coloured by move order on a terminal), ``o`` the start, ``@`` the end."""
    marks: dict[tuple[int, int], tuple[str, int]] = {}
    position = level.start
    for step, direction in enumerate(moves or ""):
        if direction not in DELTAS:
            break
        position, cells = slide(level, position, direction)
        for cell in cells:
            marks.setdefault(cell, (ARROWS[direction], step))
    end = position
    lines = []
    for r, row in enumerate(level.rows):
        out = []
        for c, ch in enumerate(row):
            cell = (r, c)
            if cell == level.start:
                text, code = "o", 1
            elif moves and cell == end:
                text, code = "@", 1
            elif cell in marks:
                text, step = marks[cell]
                code = PALETTE[step % len(PALETTE)]
            elif ch == "#":
                text, code = "#", 90
            else:
                text, code = ".", 0
            out.append(f"\x1b[{code}m{text}\x1b[0m" if colour and code else text)
        lines.append(" ".join(out))
    return "\n".join(lines)


def show(level: Level | None, record: dict[str, Any], args: argparse.Namespace, verb: str, *, where: str, colour: bool) -> str:
    head = summary_line(level, record, where)
    if verb == "verify" or level is None:
        return head
    text = head + "\n" + picture(level, record.get("moves"), colour=colour)
    if record.get("moves") is not None:
        text += "\nmoves: " + (record["moves"] or "(none: the start is the only floor cell)")
    return text


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
