"""The certificate of a generated Numberlink puzzle: its answers counted (limit 2) on the puzzle as
re-read from its native text, by a count whose verdict depends on the work allowed, never on the clock.

>>> from puzzlesat.numberlink.model import Puzzle
>>> certify(Puzzle.from_rows(["AB.", "..B", "A.."]))[0]  # (more than one answer)
False
"""

from __future__ import annotations

from typing import Any

from ..results import CountResult
from ..timing import Deadline
from .model import DEFAULT_RULES, Puzzle, Rules, Solution
from .verify import verify


def puzzle_text(puzzle: Puzzle) -> str:
    """Native text that always starts with the ``W H`` size line, so that no row (for instance
    one starting with a blocked cell) can be read as a comment.

    >>> print(puzzle_text(Puzzle.from_rows(["A.A", "#.."])))
    3 2
    A . A
    # . .
    """
    from .formats import format as format_text

    text = format_text(puzzle, fmt="native")
    if text.split("\n", 1)[0] != f"{puzzle.width} {puzzle.height}":
        text = f"{puzzle.width} {puzzle.height}\n{text}"
    return text


def certify(puzzle: Puzzle, *, rules: Rules = DEFAULT_RULES, time_limit: float | Deadline | None = None, solver: str | None = None) -> tuple[bool | None, Puzzle]:
    """Write the puzzle as native text, read it back, and count its answers by SAT (limit 2).

    Returns (unique, the puzzle as re-read): True / False, or None when the count ran out of
    time. Raises AssertionError if the text does not read back as the same puzzle.

    >>> certify(Puzzle.from_rows(["A..", "..A"]))[0]
    True
    """
    result, reread = _count_from_text(puzzle, rules=rules, time_limit=time_limit, solver=solver)
    return result.unique, reread


def _count_from_text(puzzle: Puzzle, *, rules: Rules, time_limit: float | Deadline | None,
                     solver: str | None, work: int | None = None, known: Solution | None = None) -> tuple[CountResult[Solution] | None, Puzzle]:
    """:func:`certify`'s count (limit 2) of the puzzle as re-read from its text, with the puzzle;
    with ``work`` (conflicts per solver call) the count is :func:`count_by_work`'s, from the
    ``known`` answer (the drawn one)."""
    from .formats import parse
    from .solve import count

    reread = parse(puzzle_text(puzzle), fmt="native")
    if reread.grid().tolist() != puzzle.grid().tolist():
        raise AssertionError("a generated puzzle did not survive a round trip through its text")
    if work is not None:
        return count_by_work(reread, rules=rules, conflicts=work, time_limit=time_limit, solver=solver, known=known), reread
    options = {"solver": solver} if solver else {}
    return count(reread, rules=rules, limit=2, time_limit=time_limit, **options), reread


NOMINAL_CONFLICTS_PER_SECOND = 10_000  # turns certify_time_limit into work: what one core does on a 14x14 count
CERTIFY_CALLS = 1_000  # solver calls per count (cycles cut, rows added): a work count too


def certify_conflicts(certify_time_limit: float | None) -> int:
    """The conflicts per solver call a generator's count may spend for ``certify_time_limit``
    seconds of nominal work (None: no limit). Work, not seconds, so that a seed gives the same
    puzzle on any machine and load.

    >>> certify_conflicts(10.0), certify_conflicts(0), certify_conflicts(None)
    (100000, 0, 2147483647)
    """
    if certify_time_limit is None:
        return 2**31 - 1
    return min(2**31 - 1, round(certify_time_limit * NOMINAL_CONFLICTS_PER_SECOND))


def count_by_work(puzzle: Puzzle, *, rules: Rules = DEFAULT_RULES, conflicts: int = certify_conflicts(10.0),
                  time_limit: float | Deadline | None = None, solver: str | None = None,
                  known: Solution | None = None) -> CountResult[Solution] | None:
    """Count answers up to 2 by plain SAT (from the ``known`` answer when given: it is blocked,
    and the search starts next to it), each solver call one uninterrupted search of at most
    ``conflicts`` conflicts: the verdict and the answers found depend on the puzzle and the
    work allowed only, never on the machine's speed or load (what a seeded generator needs;
    :func:`.solve.count` races faster strategies against the clock). A count that spends its
    work (or is given none: ``conflicts=0``) is undecided (``complete`` False); None when
    ``time_limit`` passed between two calls (the caller stops: the clock may end a generation,
    never change its outcome).

    >>> count_by_work(Puzzle.from_rows(["A..", "..A"])).unique, count_by_work(Puzzle.from_rows(["A..B", "....", "A..B"])).unique
    (True, False)
    """
    from ..sat import DEFAULT_SOLVER
    from .search import Search

    _check_conflicts(conflicts)
    deadline = Deadline.of(time_limit)
    if known is not None and verify(puzzle, known, rules):
        raise ValueError("known is not an answer of this puzzle under these rules")
    search = Search(puzzle, rules, solver or DEFAULT_SOLVER, deadline, formula_rules=rules)
    return count_in_search(search, conflicts=conflicts, deadline=deadline, known=known)


def _check_conflicts(conflicts: object, name: str = "conflicts") -> int:
    if isinstance(conflicts, bool) or not isinstance(conflicts, int) or conflicts < 0:
        raise ValueError(f"{name} must be a whole number of conflicts (0 or more), not {conflicts!r}")
    return conflicts


def count_in_search(search: Any, *, conflicts: int, deadline: Deadline, known: Any = None) -> CountResult | None:
    """:func:`count_by_work` in a built search (:class:`.search.SatSearch`, one layer or several;
    closed here): ``known`` blocked first, then solver calls of at most ``conflicts`` conflicts
    each, never split into timed steps (a search cut into steps by a measured rate goes where
    the clock says)."""
    found: list = []
    name = f"sat-{search.solver.name}" if search.solver is not None else "sat"
    try:
        if not search.ready:
            return None
        if known is not None:
            found.append(known)
            search.block(known)
            search.prefer(known)
        for _ in range(CERTIFY_CALLS if conflicts else 0):
            if deadline.expired():
                return None
            outcome = search.solver.solve(conflict_limit=conflicts)  # (no time limit: one search, not timed steps)
            if not outcome:
                return CountResult(len(found), outcome is False, 2, tuple(found), method=name,
                                   timings=search.timings(), stats=search.stats())
            answer = search._answer_in_model()
            if answer is None:
                continue  # (a stray cycle cut, or touch rows given: ask again)
            found.append(answer)
            if len(found) == 2:
                break
            search.block(answer)
        return CountResult(len(found), len(found) == 2, 2, tuple(found), method=name,
                           timings=search.timings(), stats=search.stats())
    finally:
        search.close()
