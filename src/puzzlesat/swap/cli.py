"""Command-line adapter of the Swap family (used by :mod:`puzzlesat.cli`).

JSON record keys (the contract outside checks rely on): ``status`` ("solved", "unsolvable",
"unknown"; the generic CLI uses "error" for input it cannot read), ``moves`` (a list of
``"r1,c1>r2,c2"`` strings, mover first, or null), ``optimal`` (true only when the minimum is
proven), ``lower_bound`` (a proven lower bound on the minimum, or null); the generic CLI adds
``family``, ``source``, ``index``, ``seconds`` and ``error``. Further keys: ``moves_count``,
``method``, ``rows``, ``cols``, ``goal`` (kind), ``stated_minimum`` (the file's ``minimum``
line), ``stated_minimum_match`` ("equal", "better" = we need fewer moves, "worse" = the stated
count is below our proven minimum or lower bound, or the level is proven unsolvable; null when
nothing is stated or nothing proven bears on it),
``stated_solution_valid`` / ``stated_solution_problem`` for a file's ``solution`` line, and ``reason``
(why a level is unsolvable, or why an unknown one stopped before any time limit: a cap); under
``verify``, ``solved_by`` ("stated solution" when that line is the answer, see :func:`verify_record`).

``--method exact`` (default) asks the exact solver for a proven minimum; ``--method astar`` runs
the published A* baseline (answers are upper bounds, never ``optimal``); any other name is
passed to the exact solver (e.g. its search or CP-SAT back-end).
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import Any, Optional

from ..errors import ParseError
from ..results import SolveResult, Status, stated_phrase
from . import formats
from .model import Level, Move, parse_moves
from .moves import mover_of, replay
from .verify import verify

STATUS_TEXT = {Status.SOLVED: "solved", Status.UNSATISFIABLE: "unsolvable", Status.UNKNOWN: "unknown"}
ANSI = {"R": "31", "G": "32", "Y": "33", "B": "34", "M": "35", "C": "36", "O": "38;5;208", "W": "97", "P": "38;5;213", "K": "90"}
EXTRA_ANSI = ["91", "92", "93", "94", "95", "96"]

_START_LINE = re.compile(r"(?im)^[ \t]*start[ \t]*$")
_GOAL_LINE = re.compile(r"(?im)^[ \t]*goal\b")
_SQUARE = re.compile(r"(?<!\S)[TBQ][0-9][A-Z](?!\S)", re.IGNORECASE)  # (t1r: a Swap level, refused by its parser)


def sniff(text: str, path: str) -> bool:
    """Swap text has a line ``start``, a line ``goal ...`` and square tokens such as ``T1R``
    (in any case, so that lower-case ``t1r`` is refused by the Swap reader, saying why; lines
    end in ``\n``, ``\r\n`` or ``\r``)."""
    head = text[:20_000].replace("\r\n", "\n").replace("\r", "\n")
    return bool(_START_LINE.search(head) and _GOAL_LINE.search(head) and _SQUARE.search(head))


def load(text: str, source: str, args: argparse.Namespace) -> list[Level | ParseError]:
    """The levels of one input; in a pack, one that cannot be read is its ParseError (an error
    record) and the others are still checked."""
    return formats.parse_each(text, fmt=getattr(args, "fmt", None), source=source)


def blank_record() -> dict[str, Any]:
    return {"moves": None, "optimal": None, "lower_bound": None, "moves_count": None, "stated_minimum": None, "stated_minimum_match": None}


def run_solver(level: Level, args: argparse.Namespace) -> SolveResult:
    """The solver ``--method`` names: the exact default, ``astar``, or an exact back-end by name."""
    from .solve import solve

    method = getattr(args, "method", None)
    time_limit = getattr(args, "time_limit", None)
    if method in (None, "exact"):
        return solve(level, time_limit=time_limit)
    return solve(level, method=method, time_limit=time_limit)  # astar too: a large board runs in a child process


def stated_match(status: str, count: Optional[int], optimal: bool, stated: Optional[int],
                 lower_bound: Optional[int] = None) -> Optional[str]:
    """How the file's stated minimum compares with what we found ("worse": the stated count is
    below our proven minimum or lower bound, or the level is proven unsolvable).

    >>> stated_match("solved", 5, True, 7), stated_match("solved", 5, True, 4), stated_match("unsolvable", None, False, 3)
    ('better', 'worse', 'worse')
    >>> stated_match("unknown", None, False, 3, lower_bound=4)
    'worse'
    """
    if stated is None:
        return None
    if lower_bound is not None and lower_bound > stated:
        return "worse"
    if status not in ("solved", "unsolvable"):
        return None
    if status == "unsolvable" or count is None:
        return "worse"
    if count == stated:
        return "equal"
    if count < stated:
        return "better"
    return "worse" if optimal else None  # a longer heuristic answer says nothing about the claim


def solve_record(level: Level, args: argparse.Namespace) -> dict[str, Any]:
    result = run_solver(level, args)
    moves: Optional[list[str]] = None
    if result.status is Status.SOLVED:
        answer = parse_moves(result.solution)
        problems = verify(level, answer)
        if problems:  # the solvers check their answers; this is a second line of defence
            raise RuntimeError(f"the solver returned an invalid answer: {problems[0]}")
        moves = [str(m) for m in answer]
    status = STATUS_TEXT[result.status]
    optimal = bool(result.optimal and status == "solved")
    lower_bound = result.lower_bound
    if optimal and moves is not None:
        lower_bound = len(moves)
    stated_valid: Optional[bool] = None
    stated_problem: Optional[str] = None
    if level.stated_solution is not None:
        problems = verify(level, level.stated_solution)
        stated_valid = not problems
        stated_problem = str(problems[0]) if problems else None
    count = None if moves is None else len(moves)
    return {
        "status": status,
        "moves": moves,
        "optimal": optimal,
        "lower_bound": lower_bound,
        "moves_count": count,
        "method": result.method or (getattr(args, "method", None) or "exact"),
        "rows": level.rows,
        "cols": level.cols,
        "goal": level.goal.kind,
        "stated_minimum": level.stated_minimum,
        "stated_minimum_match": stated_match(status, count, optimal, level.stated_minimum, lower_bound),
        "stated_solution_valid": stated_valid,
        "stated_solution_problem": stated_problem,
        "stated_solution_too_long": bool(stated_valid and level.stated_minimum is not None
                                         and len(level.stated_solution or ()) > level.stated_minimum),
        "reason": (result.stats or {}).get("reason") if status == "unsolvable" else stopped_short(result),
        "encode_seconds": round(result.timings.encode, 4),
        "solve_seconds": round(result.timings.solve, 4),
    }


def stopped_short(result: SolveResult) -> Optional[str]:
    """Why a search ended with no answer before any time limit, or None: the A* baseline stops
    each run at its cap on expansions, the exact search at its cap on stored states (as Roller's
    A* does); the answer is "unknown" then too.

    >>> runs = {"H_E": {"status": "cap"}, "H_M": {"status": "cap"}}
    >>> stopped_short(SolveResult(Status.UNKNOWN, method="astar", stats={"runs": runs, "cap": 5000}))
    'A* baseline: every run stopped at its cap of 5,000 expansions'
    """
    stats = result.stats or {}
    if result.status is not Status.UNKNOWN:
        return None
    runs = stats.get("runs") or {}
    if result.method == "astar" and runs and all(run.get("status") == "cap" for run in runs.values()):
        return f"A* baseline: every run stopped at its cap of {stats.get('cap', 0):,} expansions"
    if "state_cap" in stats:
        return f"the search stopped at its memory cap, {stats['state_cap']:,} states stored"
    return None


def verify_record(level: Level, args: argparse.Namespace) -> dict[str, Any]:
    """``puzzlesat verify``: the same facts as solve (solvable, proven minimum, stated claims).
    When the exact solver stops at its time limit with no plan, or with a longer one than a
    valid stated solution, that stated solution is the answer (``solved_by``: "stated
    solution"): it shows the level solvable, and it is the proven minimum when it is as short as
    the proven lower bound."""
    record = solve_record(level, args)
    record["solved_by"] = None
    stated = level.stated_solution
    if record["stated_solution_valid"] and record["lower_bound"] is not None and len(stated or ()) < record["lower_bound"]:
        raise RuntimeError(f"the stated solution of {len(stated or ())} moves is valid, but the solver proved at least "
                           f"{record['lower_bound']}: a fault in the solver")
    if (record["method"] == "astar" or not record["stated_solution_valid"] or record["optimal"]
            or record["status"] not in ("solved", "unknown")):
        return record
    assert stated is not None
    if record["moves_count"] is not None and record["moves_count"] <= len(stated):
        return record
    boards = replay(level.start, stated)
    moves = [m if mover_of(board, m) == m.source else m.reversed() for board, m in zip(boards, stated)]
    lower = record["lower_bound"]
    optimal = lower is not None and len(moves) <= lower
    record.update(status="solved", moves=[str(m) for m in moves], moves_count=len(moves), optimal=optimal,
                  lower_bound=len(moves) if optimal else lower, solved_by="stated solution")
    record["stated_minimum_match"] = stated_match("solved", len(moves), optimal, level.stated_minimum, record["lower_bound"])
    return record


def passed(record: dict[str, Any]) -> bool:
    """A level passes when it is solved with a proven minimum (with ``--method astar``: solved)
    and every claim its file makes holds: a stated minimum is that minimum (not more, as the
    original game's capped A* counts often were, and not less), and a stated solution is valid
    and no longer than the stated minimum. An unsolvable level fails: a Swap level is meant to
    have an answer."""
    if record["status"] != "solved" or record.get("stated_solution_valid") is False or record.get("stated_solution_too_long"):
        return False
    if record.get("method") == "astar":  # an upper bound: it can still show a stated minimum too high
        return record.get("stated_minimum_match") != "better"
    return record["optimal"] is True and record.get("stated_minimum_match") not in ("worse", "better")


# -- human output -------------------------------------------------------------------------------
def summary_line(level: Optional[Level], record: dict[str, Any], where: str) -> str:
    size = f"{level.rows}x{level.cols} {level.goal.kind}" if level is not None else "?"
    status = record["status"]
    if status == "solved":
        count = record["moves_count"]
        text = f"solved in {count} move{'s' if count != 1 else ''}"
        if record.get("solved_by") == "stated solution":
            text += " by the file's stated solution (the search found no shorter plan in time)"
        if record["optimal"]:
            text += ", proven minimum"
        elif record.get("method") == "astar":
            text += " (A* baseline: an upper bound)"
        else:
            text += f", not proven minimal (lower bound {record['lower_bound']})"
    elif status == "unsolvable":
        text = "unsolvable" + (f": {record['reason']}" if record.get("reason") else "")
    else:
        text = f"unknown ({record.get('reason') or 'time limit'})" + (f", lower bound {record['lower_bound']}" if record.get("lower_bound") is not None else "")
    if record.get("stated_minimum") is not None:
        text += "; " + stated_phrase(record["stated_minimum"], record.get("stated_minimum_match"), status=status,
                                     moves_count=record.get("moves_count"), optimal=record["optimal"], lower_bound=record["lower_bound"])
    if record.get("stated_solution_valid") is False:
        text += f"; stated solution invalid ({record.get('stated_solution_problem')})"
    if record.get("stated_solution_too_long") and level is not None:
        text += f"; stated solution has {len(level.stated_solution or ())} moves, more than the stated minimum {record['stated_minimum']}"
    elif (record.get("stated_solution_valid") and record.get("stated_minimum") is None and record["optimal"]
          and level is not None and len(level.stated_solution or ()) > record["moves_count"]):
        text += f"; stated solution has {len(level.stated_solution or ())} moves, more than the minimum (the file states no minimum)"
    return f"{where} ({size}): {text}, {record['seconds']:.3f}s"


def _paint(token: str, colour_letter: Optional[str], colour: bool) -> str:
    if not colour:
        return token
    if colour_letter is None:
        return f"\x1b[90m{token}\x1b[0m"
    code = ANSI.get(colour_letter) or EXTRA_ANSI[ord(colour_letter) % len(EXTRA_ANSI)]
    return f"\x1b[{code}m{token}\x1b[0m"


def board_lines(board, *, colour: bool) -> list[str]:
    """A board as text rows of tokens (``T1R``, ``###``), coloured on a terminal."""
    return [" ".join(_paint("###" if sq is None else str(sq), None if sq is None else sq.colour, colour) for sq in row) for row in board]


def goal_lines(level: Level, *, colour: bool) -> list[str]:
    if level.goal.colours is None:
        return [f"({level.goal.kind})"]
    return [" ".join(_paint(f"  {c}" if c else "  #", c, colour) for c in row) for row in level.goal.colours]


def picture(level: Level, moves: Optional[list[str]], *, colour: bool) -> str:
    """Start, goal and (with moves) the board reached, side by side, then the moves."""
    columns = [("start", board_lines(level.start, colour=colour), 4 * level.cols - 1)]
    if level.goal.kind == "match":
        columns.append(("goal", goal_lines(level, colour=colour), 4 * level.cols - 1))
    if moves is not None:
        reached = replay(level.start, [Move.parse(m) for m in moves])[-1]
        columns.append(("reached", board_lines(reached, colour=colour), 4 * level.cols - 1))
    lines = ["   ".join(title.ljust(width) for title, _, width in columns)]
    for r in range(level.rows):
        parts = []
        for _, rows, width in columns:
            text = rows[r] if r < len(rows) else ""
            visible = len(re.sub(r"\x1b\[[0-9;]*m", "", text))
            parts.append(text + " " * max(0, width - visible))
        lines.append("   ".join(parts).rstrip())
    if level.goal.kind != "match":
        lines.append(f"goal: {level.goal.kind}")
    if moves is not None:
        lines.append("moves: " + (" ".join(moves) if moves else "(none: the start meets the goal)"))
    return "\n".join(lines)


def show(level: Optional[Level], record: dict[str, Any], args: argparse.Namespace, verb: str, *, where: str, colour: bool) -> str:
    head = summary_line(level, record, where)
    if verb == "verify" or level is None:
        return head
    return head + "\n" + picture(level, record.get("moves"), colour=colour)


# -- render (owned by the rendering work) -------------------------------------------------------
def render(level: Level, args: argparse.Namespace) -> int:
    """``puzzlesat render``: draw the level (start and goal), or with ``--solution`` also its
    verified answer as one frame per move, to ``args.output`` (.svg or .png). Exit 0 when drawn
    as asked, 1 when no answer was found (the level alone is drawn), 2 when not written."""

    from ..scene import cli_caption, save_for_cli
    from .render import render as draw

    title = cli_caption(args.input, args.index, level.name, f"{level.rows}x{level.cols}, goal {level.goal.kind}")
    moves = None
    status = 0
    if getattr(args, "solution", False):
        result = run_solver(level, args)
        if result.status is Status.SOLVED and result.solution is not None:
            moves = [str(m) for m in parse_moves(result.solution)]
            problems = verify(level, moves)
            if problems:  # the solvers verify their answers; never draw one that fails
                print(f"error: the solver's answer fails verify: {problems[0]}", file=sys.stderr)
                return 2
            title += f", {len(moves)} move{'s' if len(moves) != 1 else ''}" + (" (proven minimum)" if result.optimal else " (not proven minimal)")
        else:
            why = f"unknown ({stopped_short(result) or 'time limit'})" if result.status is Status.UNKNOWN else STATUS_TEXT[result.status]
            reason = (result.stats or {}).get("reason") if result.status is Status.UNSATISFIABLE else None
            print(f"no answer drawn: {why}" + (f": {reason}" if reason else ""), file=sys.stderr)  # (as solve says it)
            status = 1
    written = save_for_cli(draw(level, moves, title=title), args.output)
    return written or status
