"""The JSON records of ``solve``, ``verify`` and ``generate`` for Swap levels, in the shared
shape of ``docs/record.schema.json``.

Swap's own keys beside the shared ones: ``goal`` (the goal's kind). ``answer`` is the moves as
one text (``"r1,c1>r2,c2 r1,c1>r2,c2"``, mover first) and ``moves`` the same moves as a list;
``stated_minimum`` is the file's ``minimum`` line and ``stated_answer`` the check of its
``solution`` line (its ``source`` is null: the level's own file states it).

``stated_minimum_match``: "equal"; "better" (we need fewer moves); "worse" (the stated count is
below our proven minimum or lower bound, or the level is proven unsolvable); null when nothing
is stated or nothing proven bears on it.

>>> from .formats import parse
>>> level = parse("start\\nT1R T1G T1R\\ngoal cluster\\nminimum 1\\nsolution 0,1>0,0\\n")
>>> record = solve_record(level, options={}, time_limit=10)
>>> record["status"], record["answer"], record["moves"], record["optimal"], record["size"]
('solved', '0,0>0,1', ['0,0>0,1'], True, {'width': 3, 'height': 1})
>>> record["stated_minimum_match"], record["stated_answer"]
('equal', {'source': None, 'valid': True, 'violations': [], 'same': True, 'too_long': False})
>>> passed(verify_record(level, options={}, time_limit=10))
True
"""

from __future__ import annotations

from typing import Any, Mapping, Optional

from ..errors import ParseError, PuzzlesatError, UnverifiedAnswer, require_valid
from ..family import Generated, Objective
from ..results import SolveResult, Status, stated_minimum_match
from . import formats
from .model import Level, Move, parse_moves
from .moves import mover_of, replay
from .verify import verify

STATUS_TEXT = {Status.SOLVED: "solved", Status.UNSATISFIABLE: "unsolvable", Status.UNKNOWN: "unknown"}
STATED_ANSWER = "stated answer"  # solved_by when the file's own solution line is the answer given


def load(text: str | bytes, *, source: Optional[str] = None, fmt: Optional[str] = None,
         options: Mapping[str, Any] | None = None) -> list[Level | ParseError]:
    """The levels of one input; in a pack, one that cannot be read is its ParseError (an error
    record) and the others are still checked. Swap levels take no options."""
    return formats.parse_each(text, fmt=fmt, source=source)


def blank_record() -> dict[str, Any]:
    """The Swap keys of a record with nothing found (an error record, before any solving)."""
    return {"objective": Objective.FEWEST_MOVES.value, "size": None, "name": None, "rules": None, "method": None,
            "answer": None, "moves": None, "moves_count": None, "unique": None, "optimal": None, "lower_bound": None,
            "solved_by": None, "reason": None, "stated_minimum": None, "stated_minimum_match": None,
            "stated_answer": None, "goal": None, "encode_seconds": None, "solve_seconds": None}


def run_solver(level: Level, *, method: Optional[str], time_limit: Any) -> SolveResult:
    """The solver ``method`` names: the exact default (None or "exact"), ``astar``, or an exact
    back-end by name (a large board runs in a child process, the baseline's too)."""
    from .solve import solve

    if method in (None, "exact"):
        return solve(level, time_limit=time_limit)
    return solve(level, method=method, time_limit=time_limit)


def checked_moves(level: Level, result: SolveResult) -> Optional[tuple[Move, ...]]:
    """The moves of a solver's answer, checked again by :func:`.verify.verify` (the solvers
    check their answers; this is a second line of defence), or None when it found none."""
    if result.status is not Status.SOLVED:
        return None
    moves = parse_moves(result.solution)
    require_valid(verify(level, moves), result.method or "the swap solver")
    return moves


def stopped_short(result: SolveResult) -> Optional[str]:
    """Why a search ended with no answer before any time limit, or None: the A* baseline stops
    each run at its cap on expansions, the exact search at its cap on stored states.

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


def _same(stated: tuple[Move, ...], moves: Optional[list[str]]) -> Optional[bool]:
    """Whether the stated moves are the answer's (a swap written either way round is one swap)."""
    if moves is None:
        return None
    return [m.cells for m in stated] == [Move.parse(m).cells for m in moves]


def _stated_answer(level: Level, moves: Optional[list[str]]) -> Optional[dict[str, Any]]:
    """The check of the file's ``solution`` line, or None when it has none."""
    stated = level.stated_solution
    if stated is None:
        return None
    problems = verify(level, stated)
    valid = not problems
    too_long = None if not valid or level.stated_minimum is None else len(stated) > level.stated_minimum
    return {"source": None, "valid": valid, "violations": [str(v) for v in problems],
            "same": _same(stated, moves), "too_long": too_long}


def solve_record(level: Level, *, options: Mapping[str, Any] | None = None, time_limit: Any = None) -> dict[str, Any]:
    """The record of ``solve``: ``options["method"]`` names the method (None or "exact": the
    exact default; "astar" the baseline; "search" or "cpsat" an exact back-end)."""
    method = (options or {}).get("method")
    result = run_solver(level, method=method, time_limit=time_limit)
    answer = checked_moves(level, result)
    moves = None if answer is None else [str(m) for m in answer]
    status = STATUS_TEXT[result.status]
    optimal = bool(result.optimal and status == "solved")
    lower_bound = len(moves) if optimal and moves is not None else result.lower_bound
    count = None if moves is None else len(moves)
    return {
        "status": status,
        "objective": Objective.FEWEST_MOVES.value,
        "size": {"width": level.cols, "height": level.rows},
        "name": level.name or None,
        "rules": None,
        "method": result.method or method or "exact",
        "answer": None if moves is None else " ".join(moves),
        "moves": moves,
        "moves_count": count,
        "unique": None,
        "optimal": optimal,
        "lower_bound": lower_bound,
        "solved_by": None,
        "reason": (result.stats or {}).get("reason") if status == "unsolvable" else stopped_short(result),
        "stated_minimum": level.stated_minimum,
        "stated_minimum_match": stated_minimum_match(status, count, level.stated_minimum, optimal=optimal, lower_bound=lower_bound),
        "stated_answer": _stated_answer(level, moves),
        "goal": level.goal.kind,
        "encode_seconds": round(result.timings.encode, 4),
        "solve_seconds": round(result.timings.solve, 4),
    }


def verify_record(level: Level, *, options: Mapping[str, Any] | None = None, time_limit: Any = None,
                  answer: Optional[tuple[Optional[str], str]] = None) -> dict[str, Any]:
    """The record of ``verify``: the same facts as :func:`solve_record`. When the exact solver
    stops at its time limit with no plan, or with a longer one than a valid stated solution,
    that stated solution is the answer (``solved_by``: "stated answer"): it shows the level
    solvable, and it is the proven minimum when it is as short as the proven lower bound.
    ``answer``, a stated answer from elsewhere, is refused: a Swap level states its own."""
    if answer is not None:
        raise PuzzlesatError("a Swap level states its own answer (its file's 'solution' line): "
                             "no answer from another file is checked against it")
    record = solve_record(level, options=options, time_limit=time_limit)
    stated = level.stated_solution
    checked = record["stated_answer"]
    if checked is None or not checked["valid"]:
        return record
    assert stated is not None
    if record["lower_bound"] is not None and len(stated) < record["lower_bound"]:
        raise UnverifiedAnswer(f"the stated solution of {len(stated)} moves is valid, but the solver proved at least "
                               f"{record['lower_bound']}: a fault in the solver")
    if record["method"] == "astar" or record["optimal"] or record["status"] not in ("solved", "unknown"):
        return record
    if record["moves_count"] is not None and record["moves_count"] <= len(stated):
        return record
    boards = replay(level.start, stated)  # (written mover first, as the solvers write them)
    moves = [str(m if mover_of(board, m) == m.source else m.reversed()) for board, m in zip(boards, stated)]
    lower = record["lower_bound"]
    optimal = lower is not None and len(moves) <= lower
    record.update(status="solved", answer=" ".join(moves), moves=moves, moves_count=len(moves), optimal=optimal,
                  lower_bound=len(moves) if optimal else lower, solved_by=STATED_ANSWER, reason=None)
    record["stated_minimum_match"] = stated_minimum_match("solved", len(moves), level.stated_minimum, optimal=optimal, lower_bound=record["lower_bound"])
    checked["same"] = True
    return record


def passed(record: Mapping[str, Any]) -> bool:
    """A level passes when it is solved with a proven minimum (with the ``astar`` baseline:
    solved) and every claim its file makes holds: a stated minimum is that minimum (not more, as
    the original game's capped A* counts often were, and not less), and a stated solution is
    valid and no longer than the stated minimum. An unsolvable level fails: a Swap level is
    meant to have an answer."""
    stated = record.get("stated_answer") or {}
    if record["status"] != "solved" or stated.get("valid") is False or stated.get("too_long"):
        return False
    if record.get("method") == "astar":  # an upper bound: it can still show a stated minimum too high
        return record.get("stated_minimum_match") != "better"
    return record["optimal"] is True and record.get("stated_minimum_match") not in ("worse", "better")


def answer_of(level: Level, record: Mapping[str, Any]) -> Optional[tuple[Move, ...]]:
    """The moves a record holds, or None."""
    moves = record.get("moves")
    return None if moves is None else parse_moves(moves)


def generated_record(generated: Generated) -> dict[str, Any]:
    """The record ``generate swap --json`` prints for one new level (the pack writer adds
    ``family``, ``source``, ``index``): ``puzzle`` is the level's native text as the pack holds
    it, ``moves`` its proven-shortest plan.

    >>> from .family import make
    >>> record = generated_record(make((2, 1), seed=0, options={"difficulty": "easy"}))
    >>> record["size"], record["moves"], record["moves_count"], record["optimal"], record["goal"]
    ({'width': 2, 'height': 1}, ['0,0>0,1'], 1, True, 'match')
    """
    level = generated.puzzle
    moves = [str(m) for m in generated.answer]
    return {
        "status": "generated",
        "objective": Objective.FEWEST_MOVES.value,
        "error": None,
        "name": level.name or None,
        "size": {"width": level.cols, "height": level.rows},
        "seed": generated.seed,
        "tries": generated.tries,
        "puzzle": formats.format(level),
        "answer": " ".join(moves),
        "moves": moves,
        "moves_count": len(moves),
        "optimal": True,
        "lower_bound": len(moves),
        "unique": None,
        "goal": level.goal.kind,
        "seconds": round(generated.seconds, 4),
    }
