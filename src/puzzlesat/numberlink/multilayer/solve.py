"""Multi-layer (3-D) Numberlink by SAT: solve, count answers and certify uniqueness.

Connect each pair of equal labels by a path of steps to one of the six neighbouring cells (four
on the layer, the same place on the layer above or below); paths never share a cell or enter a
blocked cell; the :class:`~puzzlesat.numberlink.Rules` say whether every free cell must be
covered and whether a path may run beside itself (the ADC contests: ``Rules(cover_all=False)``).

The formula (the one-layer :mod:`puzzlesat.numberlink.encoding` over the stack's graph of
cells, documented in ``encodings/numberlink-multilayer.md``) admits
stray cycles; a model with one is cut by a clause that no valid answer violates, in the same
incremental solver, and the solver asked again (under may-leave-empty rules :func:`solve` may
instead drop the cycle: what remains is still an answer), so no answer returned or counted ever
holds a cycle. Every answer passes :func:`~.verify.verify` before it leaves; one that does not
is an internal error (:class:`UnverifiedAnswer`).

**May-leave-empty with touching allowed shrinks to no-self-touch.** If a path ``p_0 .. p_n``
has two cells ``p_i``, ``p_j`` (``j > i + 1``) one step apart, in any of the six directions,
then ``p_0 .. p_i, p_j .. p_n`` is again a path between the same ends (the step ``p_i -> p_j``
is a step of the board; the cells dropped become empty, which these rules allow; no other path
changes). Each such cut removes a cell, so repeating it ends in an answer in which no path runs
beside itself. Hence the puzzle has an answer iff the no-self-touch formula has one, which
:func:`solve` uses; and any answer ``A`` has a second answer iff the
no-self-touch formula has a model other than ``A`` or ``A`` has a *detour* (a step ``a -> b`` of
a path replaceable by a path through cells ``A`` leaves empty, from a neighbour of ``a`` to a
neighbour of ``b``): given another answer ``B``, shrink it to ``B*``; if ``B* != A`` the
formula has a model other than ``A``; if ``B* = A``, the last cut took ``A`` with one detour
put in back to ``A``, so ``A`` has a detour. (Nothing in this uses the board's shape: only that
adjacency is symmetric and that a step between adjacent cells is always allowed.) If ``A`` runs
beside itself, its shrunk form is a second answer at once. Counting beyond 2 uses the full
formula (shrinking merges answers).

**May-leave-empty: routing first.** Before any formula, a negotiated-congestion router
(:func:`_route`) looks for an answer for a bounded time; its answer is verified like any other
and, under no-self-touch rules, shrunk first. The contest problems (ADC 2018) are routing
problems with much empty space: the router answers all 29 in at most a few seconds, where the
SAT search alone leaves several open at 60 s (``encodings/numberlink-multilayer.md``).

>>> from puzzlesat.numberlink.multilayer.model import Puzzle
>>> puzzle = Puzzle.from_layers([["A..", "BB."], ["...", ".A."]])
>>> result = solve(puzzle)
>>> result.status.value, len(result.solution.path("A"))   # A covers all ten other cells
('solved', 10)
>>> is_unique(puzzle).uniqueness.value
'unique'
>>> is_unique(puzzle, rules=Rules(cover_all=False)).uniqueness.value
'multiple'
"""

from __future__ import annotations

import time

from ...child import run_with_deadline
from ...errors import require_type
from ...results import CountResult, SolveResult, Status, Timings, check_count_limit
from ...sat import DEFAULT_SOLVER, check_solver_name
from ...timing import Deadline
from .. import routing
from ..model import DEFAULT_RULES, Rules
from ...errors import UnverifiedAnswer  # (puzzlesat.errors', also here for older imports)
from ..engine.probes import detour_variant as _detour_variant  # (shape-free: it serves both)
from ..search import SatSearch
from ..search import check_answer as _check_answer
from ..search import shrinks_to_no_touch as _shrinks_to_no_touch, strict as _strict  # (shape-free: they serve both)
from ..encoding import Encoding
from ..encoding import encode as _encode
from .model import Puzzle, Solution
from .refute import contradiction
from .verify import verify

__all__ = ["solve", "count", "is_unique", "encode", "contradiction", "DEFAULT_SOLVER", "UnverifiedAnswer"]

# The solver is loaded as on one layer (``loaded_solver``: its CaDiCaL options, and over 2 M
# clauses none of the inprocessing that runs in bursts of seconds between two conflicts; time
# kept back before the deadline in proportion to the formula's size).
# Boards with more cells are solved in a forked child process under a time limit, stopped a
# second after the limit: one solver call can overrun its step. A layered board's formula
# is about 150 clauses per cell (6.5 M on 41,472 cells), so the bound is far lower than on one
# layer (there 250,000 cells). The cases behind both: encodings/numberlink-multilayer.md,
# "Notes moved from the code".
CHILD_PROCESS_CELLS = 20_000


def _check_arguments(puzzle: Puzzle, rules: Rules, solver: str) -> None:
    require_type(puzzle, Puzzle, "puzzle", "a multi-layer puzzle (puzzlesat.numberlink.multilayer.Puzzle)")
    require_type(rules, Rules, "rules", "e.g. Rules(cover_all=False)")
    check_solver_name(solver)  # even where no SAT call turns out to be needed


def encode(puzzle: Puzzle, rules: Rules = DEFAULT_RULES) -> Encoding:
    """The formula of ``puzzle`` under ``rules``: the one-layer
    :class:`~puzzlesat.numberlink.encoding.Encoding`, over the stack's board.

    >>> enc = encode(Puzzle.from_layers([["A.", "B."], ["A.", "B."]]))
    >>> enc.num_edges, len(enc.answer_vars)
    (12, 12)
    """
    require_type(puzzle, Puzzle, "puzzle", "a multi-layer puzzle (puzzlesat.numberlink.multilayer.Puzzle)")
    require_type(rules, Rules, "rules", "e.g. Rules(cover_all=False)")
    return _encode(puzzle, rules)


# -- the SAT search ---------------------------------------------------------------------------

class _Search(SatSearch):
    """One formula in one incremental solver, yielding verified cycle-free answers (the search
    shared with one layer, :class:`..search.SatSearch`, on the multi-layer formula)."""

    solution_type = Solution
    checker = staticmethod(verify)

    def _build(self, deadline: Deadline) -> Encoding:
        return _encode(self.puzzle, self.formula_rules, deadline=deadline)


def _check(puzzle: Puzzle, solution: Solution, rules: Rules) -> None:
    _check_answer(puzzle, solution, rules, verify)


def _second_by_shrinking(puzzle: Puzzle, answer: Solution) -> tuple[Solution, str] | None:
    """May-leave-empty with touching allowed: a second answer without search, if ``answer``
    runs beside itself (its shrunk form differs) or has a detour; with its kind. None means
    every other answer, if any, is a no-self-touch answer other than ``answer`` (module
    docstring), which the no-self-touch formula with ``answer`` blocked finds."""
    rules = Rules(cover_all=False)
    shrunk = _shrunk(puzzle, answer)
    if shrunk != answer:
        _check(puzzle, shrunk, rules)
        return shrunk, "shrunk"
    detour = _detour_variant(puzzle, answer)
    if detour is not None:
        _check(puzzle, detour, rules)
        return detour, "detour"
    return None


# -- routing first (may-leave-empty) ---------------------------------------------------------

def _route(puzzle: Puzzle, deadline: Deadline) -> Solution | None:
    """May-leave-empty: an answer by negotiated-congestion routing (:mod:`..routing`), or None
    when the router gives up (it proves nothing). The contest problems this is for (ADC 2018)
    are routing problems with much empty space: all 29 are routed in seconds, where the SAT
    search alone leaves several open at 60 s (encodings/numberlink-multilayer.md, "Notes moved
    from the code"). Puzzles with vias (ADC 2016) are not routed: the router knows no via rules."""
    if puzzle.vias:
        return None  # the router lets paths change layer anywhere and knows no via rules
    stop = time.perf_counter() + routing.route_budget(deadline.remaining(), cells=puzzle.num_cells)
    paths = routing.route(puzzle.free_mask(), [(pair.label, pair.start, pair.end) for pair in puzzle.pairs], stop)
    return None if paths is None else Solution(tuple((label, tuple(cells)) for label, cells in paths.items()))


def _shrunk(puzzle: Puzzle, solution: Solution) -> Solution:
    """``solution`` with every path cut short wherever it runs beside itself
    (:func:`..routing.shrink`): under may-leave-empty rules an answer that does not touch itself."""
    beside = puzzle.neighbours if puzzle.vias else None  # with vias: only where a path may step
    return Solution(tuple((label, routing.shrink(cells, beside)) for label, cells in solution.paths))


def _routed(puzzle: Puzzle, rules: Rules, deadline: Deadline) -> Solution | None:
    """May-leave-empty: the router's answer (shrunk to no touching under no-self-touch
    rules), verified; None under cover-all rules or when the router finds none."""
    if rules.cover_all:
        return None
    routed = _route(puzzle, deadline)
    if routed is None:
        return None
    if rules.no_self_touch:
        routed = _shrunk(puzzle, routed)
    _check(puzzle, routed, rules)
    return routed


# -- the verbs --------------------------------------------------------------------------------

def solve(
    puzzle: Puzzle,
    *,
    rules: Rules = DEFAULT_RULES,
    time_limit: float | None = None,
    solver: str = DEFAULT_SOLVER,
    method: str | None = None,
) -> SolveResult[Solution]:
    """Find one answer (verified), prove there is none, or say UNKNOWN when ``time_limit``
    seconds (building the formula included) run out. A proof found without search is given
    in ``stats["proof"]``. ``method``: "sat", the only one for stacks (the backtracking
    baseline searches one layer); ``solver``: the SAT back-end it runs (a pysat name).

    >>> solve(Puzzle.from_layers([["A.", ".A"], ["..", ".."]])).status.value   # colours
    'unsatisfiable'
    >>> r = solve(Puzzle.from_layers([["A.", ".A"], ["..", ".."]]), rules=Rules(cover_all=False))
    >>> r.status.value, verify(Puzzle.from_layers([["A.", ".A"], ["..", ".."]]), r.solution, Rules(cover_all=False))
    ('solved', [])
    """
    _only_sat(method)
    _check_arguments(puzzle, rules, solver)
    deadline = Deadline.of(time_limit)
    method = f"sat-{solver}"
    proof = contradiction(puzzle, rules, deadline=deadline)
    if proof is not None:
        return SolveResult(Status.UNSATISFIABLE, method=method, stats={"proof": proof})
    in_child = run_with_deadline(solve, puzzle, dict(rules=rules, time_limit=deadline, solver=solver), deadline=deadline,
                                 cells=puzzle.num_cells, threshold=CHILD_PROCESS_CELLS,
                                 check=lambda answer: verify(puzzle, answer, rules), method=method, wanted=1)
    if in_child is not None:
        return in_child
    start = time.perf_counter()
    routed = _routed(puzzle, rules, deadline)
    earlier = Timings(solve=time.perf_counter() - start)
    if routed is not None:
        return SolveResult(Status.SOLVED, routed, timings=earlier, method="route", stats={"first_answer": "route"})
    formula = _strict(rules) if _shrinks_to_no_touch(rules) else rules
    search = _Search(puzzle, rules, solver, deadline, formula_rules=formula)
    try:
        if not search.ready:
            return SolveResult(Status.UNKNOWN, timings=earlier + search.timings(), method=method, stats=search.stats())
        status, solution = search.next_answer(drop_cycles=not rules.cover_all)
        return SolveResult(status, solution, timings=earlier + search.timings(), method=method, stats=search.stats())
    finally:
        search.close()


def count(
    puzzle: Puzzle,
    *,
    rules: Rules = DEFAULT_RULES,
    limit: int = 2,
    time_limit: float | None = None,
    solver: str = DEFAULT_SOLVER,
    known: Solution | None = None,
    method: str | None = None,
) -> CountResult[Solution]:
    """Count answers up to ``limit`` (each cycle-free and verified), blocking only the edge
    variables of each answer found; ``complete`` is False when ``time_limit`` ran out first.
    ``method`` and ``solver`` as in :func:`solve`.

    ``known``: an answer already at hand (a drawn or a stated one), checked with ``verify``
    (ValueError naming its first violation when it is none) and taken as the first answer, so
    the search starts with it blocked and its phases preferred. Finding a first answer is most
    of the work on dense stacks (encodings/numberlink-multilayer.md, "Notes moved from the
    code"). What is proven does not depend on where the first answer came from.

    >>> count(Puzzle.from_layers([["A.", ".."], ["..", ".A"]]), rules=Rules(cover_all=False), limit=100).count
    18
    >>> stack = Puzzle.from_layers([["A..", "BB."], ["...", ".A."]])
    >>> known = solve(stack).solution
    >>> result = count(stack, known=known)
    >>> result.uniqueness.value, result.solutions[0] == known, result.stats["first_answer"]
    ('unique', True, 'known')
    """
    _only_sat(method)
    _check_arguments(puzzle, rules, solver)
    check_count_limit(limit)
    if known is not None:
        require_type(known, Solution, "known")
        violations = verify(puzzle, known, rules)
        if violations:
            raise ValueError(f"known is not an answer of this puzzle under these rules: {violations[0]}")
    deadline = Deadline.of(time_limit)
    method = f"sat-{solver}"
    proof = contradiction(puzzle, rules, deadline=deadline)
    if proof is not None:
        return CountResult(0, True, limit, (), method=method, stats={"proof": proof})
    in_child = run_with_deadline(count, puzzle, dict(rules=rules, limit=limit, time_limit=deadline, solver=solver, known=known),
                                 deadline=deadline, cells=puzzle.num_cells, threshold=CHILD_PROCESS_CELLS,
                                 check=lambda answer: verify(puzzle, answer, rules), method=method, wanted=limit, counting=True)
    if in_child is not None:
        return in_child
    # uniqueness under may-leave-empty with touching allowed: no-self-touch answers plus one
    # detour search (module docstring); full counts use the full formula
    shrink = _shrinks_to_no_touch(rules) and limit <= 2
    found: list[Solution] = []
    stats: dict[str, int | str] = {}
    start = time.perf_counter()
    first = known if known is not None else _routed(puzzle, rules, deadline)
    if first is not None:
        found.append(first)
        stats["first_answer"] = "known" if known is not None else "route"
        if shrink and limit == 2:
            second = _second_by_shrinking(puzzle, first)
            if second is not None:
                found.append(second[0])
                stats["local_variant"] = second[1]
    earlier = Timings(solve=time.perf_counter() - start)
    if len(found) >= limit:
        return CountResult(len(found), True, limit, tuple(found), method=method, timings=earlier, stats=stats)
    search = _Search(puzzle, rules, solver, deadline, formula_rules=_strict(rules) if shrink else rules)
    if not search.ready:
        return CountResult(len(found), False, limit, tuple(found), method=method, timings=earlier + search.timings(), stats={**stats, **search.stats()})
    complete = True
    try:
        for answer in found:
            search.block(answer)
        if found:
            search.prefer(found[0])
        while len(found) < limit:
            status, solution = search.next_answer()
            if status is Status.UNKNOWN:
                complete = False
                break
            if status is Status.UNSATISFIABLE:
                break
            assert solution is not None
            found.append(solution)
            search.block(solution)
            if shrink and len(found) == 1 and limit == 2:
                second = _second_by_shrinking(puzzle, solution)
                if second is not None:
                    found.append(second[0])
                    stats["local_variant"] = second[1]
                else:
                    search.prefer(solution)
        return CountResult(len(found), complete, limit, tuple(found), method=method, timings=earlier + search.timings(), stats={**stats, **search.stats()})
    finally:
        search.close()


def is_unique(
    puzzle: Puzzle,
    *,
    rules: Rules = DEFAULT_RULES,
    time_limit: float | None = None,
    solver: str = DEFAULT_SOLVER,
    known: Solution | None = None,
    method: str | None = None,
) -> CountResult[Solution]:
    """``count(limit=2)``: its ``uniqueness`` is unique / multiple (both answers kept) / none /
    unknown, and ``unique`` is True, False or None. ``known``: an answer at hand, as in
    :func:`count`.

    >>> is_unique(Puzzle.from_layers([["A.", ".A"], ["..", ".."]]), rules=Rules(cover_all=False)).unique
    False
    """
    return count(puzzle, rules=rules, limit=2, time_limit=time_limit, solver=solver, known=known, method=method)


def _only_sat(method: str | None) -> None:
    if method not in (None, "sat"):
        raise ValueError(f"method {method!r} does not solve stacks of layers: the backtracking baseline searches one "
                         "layer; use the sat method (the default)")
