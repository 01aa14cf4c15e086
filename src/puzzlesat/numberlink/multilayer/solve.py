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
(:mod:`..routing`) looks for an answer for a bounded time; its answer is verified like any other
and, under no-self-touch rules, shrunk first. The contest problems (ADC 2018) are routing
problems with much empty space: the router answers all 29 in at most a few seconds, where the
SAT search alone leaves several open at 60 s (``encodings/numberlink-multilayer.md``).

**The pipeline.** The verbs here take the arguments, send a big stack to a child process, and
run the one-layer family's pipeline (:mod:`..engine.pipeline`) on the stack: ``refute`` (the
stack's checks, :mod:`.refute`), ``first`` (the router, then the SAT search over the stack's
board, :mod:`.search`), ``probes`` (the shrunk answer and the detour above), then the global SAT
search. The steps that read one grid (topology, fill, windows, the frontier count, the other
probes) say in their ``applies`` that they need one layer. Every result says which step decided
it (``stats["decided_by"]``) and the steps taken (``stats["steps"]``).

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

from ...errors import UnverifiedAnswer, require_type  # (UnverifiedAnswer: puzzlesat.errors', also here for older imports)
from ...results import CountResult, SolveResult, check_count_limit
from ...sat import DEFAULT_SOLVER, check_solver_name
from ...timing import Deadline
from ..encoding import Encoding
from ..encoding import encode as _encode
from ..engine import pipeline
from ..engine.first import take_known
from ..engine.state import State
from ..model import DEFAULT_RULES, Rules
from ..solve import in_child
from .model import Puzzle, Solution
from .refute import contradiction
from .verify import verify

__all__ = ["solve", "count", "is_unique", "encode", "contradiction", "DEFAULT_SOLVER", "UnverifiedAnswer"]

# Boards with more cells are solved in a forked child process under a time limit, stopped a
# second after the limit: one solver call can overrun its step. A layered board's formula
# is about 150 clauses per cell (6.5 M on 41,472 cells), so the bound is far lower than on one
# layer (there 250,000 cells). The cases behind both: encodings/numberlink-multilayer.md,
# "Notes moved from the code".
CHILD_PROCESS_CELLS = 20_000

STACK_HINT = "a multi-layer puzzle (puzzlesat.numberlink.multilayer.Puzzle)"


def _check_arguments(puzzle: Puzzle, rules: Rules, solver: str) -> None:
    require_type(puzzle, Puzzle, "puzzle", STACK_HINT)
    require_type(rules, Rules, "rules", "e.g. Rules(cover_all=False)")
    check_solver_name(solver)  # even where no SAT call turns out to be needed


def encode(puzzle: Puzzle, rules: Rules = DEFAULT_RULES) -> Encoding:
    """The formula of ``puzzle`` under ``rules``: the one-layer
    :class:`~puzzlesat.numberlink.encoding.Encoding`, over the stack's board.

    >>> enc = encode(Puzzle.from_layers([["A.", "B."], ["A.", "B."]]))
    >>> enc.num_edges, len(enc.answer_vars)
    (12, 12)
    """
    require_type(puzzle, Puzzle, "puzzle", STACK_HINT)
    require_type(rules, Rules, "rules", "e.g. Rules(cover_all=False)")
    return _encode(puzzle, rules)


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
    >>> r.stats["decided_by"], [step[0] for step in r.stats["steps"]]
    ('first', ['refute', 'first'])
    """
    _only_sat(method)
    _check_arguments(puzzle, rules, solver)
    state = State(puzzle, rules, solver=solver, limit=1, deadline=Deadline.of(time_limit), verb="solve")
    if pipeline.refuted(state):  # (before any child process: no formula is needed)
        return state.solve_result()
    child = in_child(solve, dict(rules=rules, solver=solver), state, threshold=CHILD_PROCESS_CELLS, wanted=1)
    return child if child is not None else pipeline.solve(state)


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
    >>> result.uniqueness.value, result.solutions[0] == known, result.stats["first_answer"], result.stats["decided_by"]
    ('unique', True, 'known', 'global-sat')
    """
    _only_sat(method)
    _check_arguments(puzzle, rules, solver)
    check_count_limit(limit)
    if known is not None:
        require_type(known, Solution, "known")
        violations = verify(puzzle, known, rules)
        if violations:
            raise ValueError(f"known is not an answer of this puzzle under these rules: {violations[0]}")
    state = State(puzzle, rules, solver=solver, limit=limit, deadline=Deadline.of(time_limit))
    if pipeline.refuted(state):  # (before any child process: no formula is needed)
        return state.count_result()
    child = in_child(count, dict(rules=rules, limit=limit, solver=solver, known=known), state,
                     threshold=CHILD_PROCESS_CELLS, wanted=limit, counting=True)
    if child is not None:
        return child
    if known is not None:
        take_known(state, known)
    return pipeline.count(state)


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
