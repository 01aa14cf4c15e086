"""Backtracking baseline for Numberlink: grow paths from their endpoints, most constrained first.

Rules as everywhere in the family: connect the two cells of every label by an orthogonal path;
paths never share a cell or enter blocked cells; under cover-all rules every free cell lies on a
path; under no-self-touch rules no path runs beside itself. This module is the reference search
the SAT solver is measured against; it imports nothing from the SAT layer.

The search is a generator of answers (:func:`solutions`), so the same code solves (take the
first) and counts (keep going). Each pair has two *heads*, one growing from each endpoint. At
every node the head with the fewest legal moves is extended (a forced move costs no branching);
each answer is reached exactly once because the chosen head's next cell is fixed by the answer.
Cheap checks prune dead ends: a free cell that can no longer be threaded by a path (cover-all),
a pair whose two heads no longer touch a common free region, and (cover-all) a free region that
no pair can enter and leave or whose chessboard colours no set of pairs can balance. Under
cover-all a free cell with only two ways left forces the head beside it. Free regions are
relabelled only when a move may split one. Answers are sets of simple paths, so stray cycles
cannot occur.

The search itself is :class:`.backtracking_search._Search`; this module holds the verbs over it.

>>> from puzzlesat.numberlink.model import Puzzle, Rules
>>> from puzzlesat.numberlink.verify import verify
>>> p = Puzzle.from_rows(["A.B", "...", ".AB"])
>>> r = solve(p)
>>> r.status.value, r.method, verify(p, r.solution)
('solved', 'backtracking', [])
>>> sorted(len(s.path("B")) for s in solutions(p))
[3, 5]
>>> count(p).count, count(p, rules=Rules(cover_all=False), limit=10).count
(2, 5)
"""

from __future__ import annotations

from typing import Iterator

from ..results import CountResult, SolveResult, Status, Timings, check_count_limit
from ..timing import Deadline
from .backtracking_search import _Search, SearchTimeout
from .model import DEFAULT_RULES, Puzzle, Rules, Solution


METHOD = "backtracking"


def solutions(puzzle: Puzzle, *, rules: Rules = DEFAULT_RULES, time_limit: float | Deadline | None = None) -> Iterator[Solution]:
    """Every answer of ``puzzle`` under ``rules``, each once and each checked by ``verify``.

    Raises :class:`SearchTimeout` (a ``TimeoutError``) when the time limit runs out first;
    the answers yielded before that stay valid.

    >>> from puzzlesat.numberlink.model import Puzzle, Rules
    >>> [s.path("A") for s in solutions(Puzzle.from_rows(["A.", ".A"]), rules=Rules(cover_all=False))]
    [((0, 0), (1, 0), (1, 1)), ((0, 0), (0, 1), (1, 1))]
    >>> [s.path("A") for s in solutions(Puzzle.from_rows(["A..", "..A"]))]
    [((0, 0), (1, 0), (1, 1), (0, 1), (0, 2), (1, 2))]
    """
    return _Search(puzzle, rules, Deadline.of(time_limit)).run()


def _search_stats(search: _Search) -> dict[str, int]:
    return {"nodes": search.nodes}


def solve(puzzle: Puzzle, *, rules: Rules = DEFAULT_RULES, time_limit: float | Deadline | None = None) -> SolveResult[Solution]:
    """The first answer found, a proof that none exists, or "unknown" when time runs out.

    >>> from puzzlesat.numberlink.model import Puzzle
    >>> solve(Puzzle.from_rows(["A.B", "B.A"])).status.value
    'unsatisfiable'
    """
    deadline = Deadline.of(time_limit)
    try:
        search, setup = _prepared(puzzle, rules, deadline)
    except SearchTimeout:
        return SolveResult(Status.UNKNOWN, None, timings=Timings(deadline.elapsed(), 0.0), method=METHOD, stats={"nodes": 0})
    started = deadline.elapsed()
    try:
        if deadline.expired():
            raise SearchTimeout()
        answer = next(search.run(), None)
        status = Status.SOLVED if answer is not None else Status.UNSATISFIABLE
    except SearchTimeout:
        answer, status = None, Status.UNKNOWN
    seconds = deadline.elapsed() - started
    return SolveResult(status, answer, timings=Timings(setup, seconds), method=METHOD, stats=_search_stats(search))


def _prepared(puzzle: Puzzle, rules: Rules, deadline: Deadline) -> tuple[_Search, float]:
    """The search set up for ``puzzle``, and the seconds the set-up took (reported as the
    baseline's "encode" time: seconds on a board of a million cells). Raises
    :class:`SearchTimeout` when the deadline passes during the set-up."""
    before = deadline.elapsed()
    search = _Search(puzzle, rules, deadline)
    return search, deadline.elapsed() - before


def count(puzzle: Puzzle, *, rules: Rules = DEFAULT_RULES, limit: int = 2, time_limit: float | Deadline | None = None) -> CountResult[Solution]:
    """Count answers up to ``limit`` (``complete=False`` when the time limit ran out first).

    >>> from puzzlesat.numberlink.model import Puzzle, Rules
    >>> r = count(Puzzle.from_rows(["A.", ".A"]), rules=Rules(cover_all=False), limit=5)
    >>> r.count, r.complete, r.unique
    (2, True, False)
    """
    check_count_limit(limit)
    deadline = Deadline.of(time_limit)
    try:
        search, setup = _prepared(puzzle, rules, deadline)
    except SearchTimeout:
        return CountResult(0, False, limit, (), method=METHOD, timings=Timings(deadline.elapsed(), 0.0), stats={"nodes": 0})
    started = deadline.elapsed()
    found: list[Solution] = []
    complete = True
    try:
        if deadline.expired():
            raise SearchTimeout()
        for answer in search.run():
            found.append(answer)
            if len(found) >= limit:
                break
    except SearchTimeout:
        complete = False
    seconds = deadline.elapsed() - started
    return CountResult(len(found), complete, limit, tuple(found), method=METHOD, timings=Timings(setup, seconds), stats=_search_stats(search))


def is_unique(puzzle: Puzzle, *, rules: Rules = DEFAULT_RULES, time_limit: float | Deadline | None = None) -> CountResult[Solution]:
    """``count(limit=2)``, as the SAT path's ``is_unique``: its ``uniqueness`` is unique /
    multiple / none / unknown, and ``unique`` is True, False or None (undecided).

    >>> is_unique(Puzzle.from_rows(["A..", "..A"])).uniqueness.value
    'unique'
    """
    return count(puzzle, rules=rules, limit=2, time_limit=time_limit)
