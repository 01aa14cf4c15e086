"""Numberlink by SAT: solve, count answers and certify uniqueness.

Connect each pair of equal labels by an orthogonal path; paths never share a cell or enter a
blocked cell; by default every free cell is covered and a path may run beside itself
(:class:`~puzzlesat.numberlink.model.Rules`). The formula (:mod:`.encoding`, documented in
``encodings/numberlink.md``) admits stray cycles; every model with one is rejected by a cut
that no valid answer violates (:mod:`.search`), so no answer returned or counted ever contains
a cycle. Every answer passes :func:`~.verify.verify` before it leaves.

The verbs here take the arguments, send a big board to a child process, and run the pipeline
of :mod:`.engine.pipeline`: refutations without search, the compiled search on a small board
(when built), the first answer, local probes for a second, then the complete deciders as a portfolio (docs/numberlink-engine.md). Every result
says which strategy decided it (``stats["decided_by"]``, None while undecided) and the steps
taken (``stats["steps"]``: ``[name, outcome, seconds]`` each).

>>> from puzzlesat.numberlink.model import Puzzle
>>> puzzle = Puzzle.from_rows(["A.A", "B.B"])
>>> result = solve(puzzle)
>>> result.status.value, result.solution.path("A"), result.stats["decided_by"] in ("small-board", "first")
('solved', ((0, 0), (0, 1), (0, 2)), True)
>>> is_unique(puzzle).unique
True
>>> count(Puzzle.from_rows(["A..B", "....", "A..B"])).uniqueness.value   # two ways to fill
'multiple'
>>> counted = count(Puzzle.from_rows(["...A", ".A..", "...."]))   # A's middle turned round
>>> counted.uniqueness.value, counted.stats["decided_by"] in ("small-board", "probes:swap")
('multiple', True)
"""

from __future__ import annotations

from ..child import run_with_deadline
from ..errors import UnverifiedAnswer, require_type
from ..results import CountResult, SolveResult, check_count_limit
from ..sat import DEFAULT_SOLVER, check_solver_name
from ..timing import Deadline
from .encoding import Encoding
from .encoding import encode as _encode
from .engine import pipeline, tuning
from .engine.state import State
from .model import DEFAULT_RULES, ONE_LAYER_HINT, Puzzle, Rules, Solution

__all__ = ["solve", "count", "is_unique", "encode", "DEFAULT_SOLVER", "UnverifiedAnswer"]  # (UnverifiedAnswer: puzzlesat.errors', also here for older imports)


def _check_arguments(puzzle: Puzzle, rules: Rules, solver: str) -> None:
    require_type(puzzle, Puzzle, "puzzle", ONE_LAYER_HINT)
    require_type(rules, Rules, "rules", "e.g. Rules(no_self_touch=True)")
    check_solver_name(solver)  # even where no SAT call turns out to be needed


def encode(puzzle: Puzzle, rules: Rules = DEFAULT_RULES) -> Encoding:
    """The formula of ``puzzle`` under ``rules`` (an :class:`~.encoding.Encoding`).

    >>> enc = encode(Puzzle.from_rows(["A.A", "B.B"]))
    >>> enc.num_edges, len(enc.answer_vars)
    (7, 7)
    """
    require_type(puzzle, Puzzle, "puzzle", ONE_LAYER_HINT)
    require_type(rules, Rules, "rules", "e.g. Rules(no_self_touch=True)")
    return _encode(puzzle, rules)


def in_child(verb, arguments: dict, state: State, *, threshold: int | None = None, **kw):
    """``verb`` run in a child process on a board of more than ``threshold`` cells
    (CHILD_PROCESS_CELLS by default) under a time limit, stopped when the limit has passed by a
    second (on formulas of tens of millions of clauses one solver call can overrun its budget
    by many seconds: encodings/numberlink.md, "Notes from solve.py"); None when it runs here.
    Answers pass the board's checker. A child stopped early leaves no steps of its own: its
    result names the child. (Stacks of layers use it too, with their own threshold.)"""
    puzzle, deadline, checker = state.puzzle, state.deadline, state.kind.search.checker
    result = run_with_deadline(verb, puzzle, dict(arguments, time_limit=deadline), deadline=deadline, cells=state.cells,
                               threshold=tuning.CHILD_PROCESS_CELLS if threshold is None else threshold,
                               check=lambda answer: checker(puzzle, answer, arguments["rules"]), method=state.method, **kw)
    if result is not None and "steps" not in result.stats:
        result.stats.update(decided_by=None, steps=[*state.steps, ["child process", result.stats.get("stopped", ""), round(result.timings.total, 4)]])
    return result


def solve(
    puzzle: Puzzle,
    *,
    rules: Rules = DEFAULT_RULES,
    time_limit: float | None = None,
    solver: str = DEFAULT_SOLVER,
    method: str | None = None,
) -> SolveResult[Solution]:
    """Find one answer (verified), prove there is none, or say UNKNOWN when ``time_limit``
    seconds (building the formula included) run out. ``method``: "sat" (the default) or
    "backtracking" (the baseline search of :mod:`.backtracking`); ``solver`` is another thing,
    the SAT back-end (a pysat name) the sat method runs.

    >>> solve(Puzzle.from_rows(["A.B", "...", "A.B"])).status.value   # colouring parity
    'unsatisfiable'
    >>> from puzzlesat.numberlink.verify import verify
    >>> r = solve(Puzzle.from_rows(["A.B", "...", "A.B"]), rules=Rules(cover_all=False))
    >>> r.status.value, verify(Puzzle.from_rows(["A.B", "...", "A.B"]), r.solution, Rules(cover_all=False))
    ('solved', [])
    """
    if _baseline(method) is not None:
        return _baseline(method).solve(puzzle, rules=rules, time_limit=time_limit)
    _check_arguments(puzzle, rules, solver)
    deadline = Deadline.of(time_limit)
    state = State(puzzle, rules, solver=solver, limit=1, deadline=deadline, verb="solve")
    if pipeline.refuted(state):  # (before any child process: no formula is needed)
        return state.solve_result()
    child = in_child(solve, dict(rules=rules, solver=solver), state, wanted=1)
    return child if child is not None else pipeline.solve(state)


def count(
    puzzle: Puzzle,
    *,
    rules: Rules = DEFAULT_RULES,
    limit: int = 2,
    time_limit: float | None = None,
    solver: str = DEFAULT_SOLVER,
    method: str | None = None,
) -> CountResult[Solution]:
    """Count answers up to ``limit`` (each cycle-free and verified), blocking only the edge
    variables of each answer found; ``complete`` is False when ``time_limit`` ran out first.
    ``method`` and ``solver`` as in :func:`solve` (the backtracking baseline counts by search).
    Under default rules, a count to two left undecided says in ``stats["without_self_touch"]``
    whether the puzzle is unique when paths may not touch themselves (:mod:`.engine.without_touch`).

    >>> count(Puzzle.from_rows(["A..", "...", "..A"]), rules=Rules(cover_all=False), limit=100).count
    12
    """
    if _baseline(method) is not None:
        return _baseline(method).count(puzzle, rules=rules, limit=limit, time_limit=time_limit)
    _check_arguments(puzzle, rules, solver)
    check_count_limit(limit)
    deadline = Deadline.of(time_limit)
    state = State(puzzle, rules, solver=solver, limit=limit, deadline=deadline)
    if pipeline.refuted(state):  # (before any child process: no formula is needed)
        return state.count_result()
    child = in_child(count, dict(rules=rules, limit=limit, solver=solver), state, wanted=limit, counting=True)
    return child if child is not None else pipeline.count(state)


def is_unique(
    puzzle: Puzzle,
    *,
    rules: Rules = DEFAULT_RULES,
    time_limit: float | None = None,
    solver: str = DEFAULT_SOLVER,
    method: str | None = None,
) -> CountResult[Solution]:
    """``count(limit=2)``: its ``uniqueness`` is unique / multiple (both answers kept) / none /
    unknown, and ``unique`` is True, False or None (``method``, ``solver``: as in :func:`solve`).

    >>> is_unique(Puzzle.from_rows(["A..B", "....", "A..B"])).unique
    False
    >>> is_unique(Puzzle.from_rows(["A..B", "....", "A..B"]), method="backtracking").unique
    False
    """
    return count(puzzle, rules=rules, limit=2, time_limit=time_limit, solver=solver, method=method)


METHODS = ("sat", "backtracking")  # exact first (the default), then the baseline


def _baseline(method: str | None):
    """The baseline module ``method`` names, None for the SAT method; ValueError for a name
    that is neither."""
    if method is None or method == "sat":
        return None
    if method == "backtracking":
        from . import backtracking

        return backtracking
    raise ValueError(f"unknown method {method!r}; expected one of {', '.join(METHODS)}")
