"""The SAT search of Numberlink: one formula in one incremental solver, yielding verified
cycle-free answers (:class:`SatSearch`, shared with several layers) and the one-layer search
with the tools of the hard proofs (:class:`Search`: answers with few empty cells, bounded calls,
direction variables, corner and bump clauses). The formula (:mod:`.encoding`) admits stray
cycles; every model with one is cut by a clause no valid answer violates, so no answer that
leaves here holds a cycle, and every answer passes :func:`~.verify.verify` first.

>>> search = Search(Puzzle.from_rows(["A.A", "B.B"]), Rules(), "cadical195", Deadline(None))
>>> status, answer = search.next_answer()
>>> status.value, answer.path("B")
('solved', ((1, 0), (1, 1), (1, 2)))
>>> search.block(answer); search.next_answer()[0].value
'unsatisfiable'
>>> search.close()
"""

from __future__ import annotations

import time

from ..child import report_answer
from ..errors import require_valid
from ..results import Status, Timings
from ..sat import SatSolver, counter
from ..timing import Deadline
from .encoding import Encoding, EncodingTimeout, bump_clauses, corner_move_clauses, orientation_blocks
from .encoding import encode as _encode
from .engine import tuning
from .model import Puzzle, Rules, Solution
from .verify import verify


def label_encoding(rules: Rules) -> str:
    """Log-encoded labels under every rule set: one-hot labels were no faster on the hard
    default-rules janko puzzles and need several times more clauses (encodings/numberlink.md)."""
    return "log"


def shrinks_to_no_touch(rules: Rules) -> bool:
    """May-leave-empty with touching allowed: every answer shrinks to a no-self-touch one."""
    return not rules.cover_all and not rules.no_self_touch


def strict(rules: Rules) -> Rules:
    """``rules`` with no-self-touch added (the strong formula whose answers are answers of ``rules``)."""
    return Rules(cover_all=rules.cover_all, no_self_touch=True)


def check_answer(puzzle, solution, rules: Rules, checker=verify) -> None:
    """Raise UnverifiedAnswer unless ``checker`` (the family's verify, of one layer or several)
    finds ``solution`` valid. In a child process (large boards) a valid answer is also handed to
    the parent at once (:func:`~puzzlesat.child.report_answer`), so that it is not lost if the
    child is stopped at the time limit before it returns."""
    require_valid(checker(puzzle, solution, rules), "the Numberlink solver")
    report_answer(solution)


def loaded_solver(encoding, solver: str, deadline: Deadline) -> tuple[SatSolver, Deadline]:
    """A solver holding ``encoding``'s clauses (CaDiCaL with this family's options; without its
    inprocessing on big formulas and on large no-self-touch ones), and the deadline to search
    by: time is kept back to stop a solver step and free a big formula within the limit
    (encodings/numberlink.md, "Notes from solve.py").
    Raises EncodingTimeout when ``deadline`` passes while the clauses are fed (the solver is
    closed first). Serves formulas of one layer and of several."""
    options = None
    if solver == "cadical195":
        options = tuning.CADICAL_OPTIONS
        if _without_inprocessing(encoding):
            options = {**tuning.CADICAL_OPTIONS, **tuning.CADICAL_BIG_FORMULA_OPTIONS}
    sat = SatSolver(name=solver, options=options)
    try:
        encoding.feed(sat, deadline, release=encoding.num_clauses > tuning.BIG_FORMULA_CLAUSES)
    except EncodingTimeout:
        sat.close()
        raise
    return sat, deadline.earlier(encoding.num_clauses * tuning.CLEANUP_SECONDS_PER_CLAUSE)


def _without_inprocessing(encoding) -> bool:
    """Whether CaDiCaL runs on ``encoding`` without its inprocessing: formulas of more than
    BIG_FORMULA_CLAUSES clauses, and one-layer cover-all no-self-touch formulas without touch
    selectors of more than STRICT_FORMULA_CLAUSES."""
    if encoding.num_clauses > tuning.BIG_FORMULA_CLAUSES:
        return True
    return (isinstance(encoding, Encoding) and encoding.rules.cover_all and encoding.rules.no_self_touch
            and not encoding.touch_selectors and encoding.num_clauses > tuning.STRICT_FORMULA_CLAUSES)


class SatSearch:
    """One formula in one incremental solver, yielding verified cycle-free answers; the searches
    of one layer (:class:`Search`) and of several (``multilayer.solve``) build on it, each
    saying how its formula is built (:meth:`_build`) and giving its answer type and checker.

    ``formula_rules`` (default ``rules``) picks the formula; every answer is checked against
    ``rules``. ``ready`` is False when the deadline passed while the formula was being built."""

    solution_type = Solution
    checker = staticmethod(verify)

    def __init__(self, puzzle, rules: Rules, solver: str, deadline: Deadline, *, formula_rules: Rules | None = None) -> None:
        self.puzzle, self.rules, self.deadline = puzzle, rules, deadline
        self.formula_rules = formula_rules or rules
        self.encode_seconds = 0.0
        self.solve_seconds = 0.0
        self.cuts = 0
        self.cycles = 0
        self.dropped = 0
        self.touch_rows = 0  # deferred no-self-touch rows given to the solver
        self.solver: SatSolver | None = None
        self.encoding = None
        start = time.perf_counter()
        try:
            self.encoding = self._build(deadline)
            self.solver, self.deadline = loaded_solver(self.encoding, solver, deadline)
        except EncodingTimeout:
            self.close()
        finally:
            self.encode_seconds = time.perf_counter() - start

    def _build(self, deadline: Deadline):
        """The formula of ``self.puzzle`` under ``self.formula_rules`` (EncodingTimeout when
        ``deadline`` passes first)."""
        raise NotImplementedError

    def _answer(self, paths: dict) -> Solution:
        """The checked answer made of ``paths`` (label -> cells)."""
        solution = self.solution_type(tuple((label, tuple(cells)) for label, cells in paths.items()))
        check_answer(self.puzzle, solution, self.rules, self.checker)
        return solution

    @property
    def ready(self) -> bool:
        return self.solver is not None

    def next_answer(self, deadline: Deadline | None = None, *, drop_cycles: bool = False) -> tuple[Status, Solution | None]:
        """The next answer: (SOLVED, solution), (UNSATISFIABLE, None) when there is none, or
        (UNKNOWN, None) when the deadline (``deadline`` when given, else the search's) passed.
        A model with stray cycles is cut and the solver asked again, or with ``drop_cycles``
        (may-leave-empty rules only) the answer without the cycles is taken (still an answer)."""
        assert self.solver is not None
        start = time.perf_counter()
        try:
            while True:
                outcome = self.solver.solve(time_limit=deadline or self.deadline)
                if outcome is None:
                    return Status.UNKNOWN, None
                if not outcome:
                    return Status.UNSATISFIABLE, None
                solution = self._answer_in_model(drop_cycles=drop_cycles)
                if solution is not None:
                    return Status.SOLVED, solution
        finally:
            self.solve_seconds += time.perf_counter() - start

    def _answer_in_model(self, *, drop_cycles: bool = False) -> Solution | None:
        """The verified answer in the solver's current model. A model with stray cycles gives
        None after they are cut (a cut holds for every answer), or with ``drop_cycles``
        (may-leave-empty rules only) the answer without them (it is still an answer). A model
        that breaks no-self-touch rows the formula deferred (``encode(..., defer_touch=True)``)
        gives None too, once those rows are added."""
        assert self.solver is not None and self.encoding is not None
        model = self.solver.model()
        touching = self.encoding.touch_clauses(model)
        if touching:
            self.solver.add_clause_lists(touching)
            self.touch_rows += len(touching)
            return None
        paths, cycles = self.encoding.components(model)
        if cycles:
            self.cycles += len(cycles)
            if not drop_cycles:
                cuts = self.encoding.cycle_cuts(cycles)
                self.cuts += len(cuts)
                self.solver.add_clause_lists(cuts)
                return None
            self.dropped += len(cycles)
        return self._answer(paths)

    def block(self, solution: Solution) -> None:
        """Forbid exactly this answer, by its edge variables only.

        Two different cycle-free answers differ in an edge true in the first: under cover-all
        every answer has the same number of edges (half the degree sum), and under
        may-leave-empty an answer with every edge of another plus more would hold a stray cycle."""
        assert self.solver is not None and self.encoding is not None
        self.solver.add_clause([-v for v in self.encoding.edge_vars_of(solution)])

    def prefer(self, solution: Solution) -> None:
        """Search next to ``solution`` first (solver phases set to its edges)."""
        assert self.solver is not None and self.encoding is not None
        used = set(self.encoding.edge_vars_of(solution))
        self.solver.set_phases([v if v in used else -v for v in self.encoding.answer_vars])

    def timings(self) -> Timings:
        return Timings(encode=self.encode_seconds, solve=self.solve_seconds)

    def stats(self) -> dict[str, int | str]:
        out: dict[str, int | str] = {"cycles_cut": self.cycles - self.dropped, "cut_clauses": self.cuts}
        if self.dropped:
            out["cycles_dropped"] = self.dropped
        if self.encoding is not None:
            out.update(variables=self.encoding.num_vars, clauses=self.encoding.num_clauses, edges=self.encoding.num_edges)
        if self.solver is not None:
            out["solver_calls"] = self.solver.calls
        out["formula"] = str(self.formula_rules)
        if self.touch_rows:
            out["touch_rows_given"] = self.touch_rows
        return out

    def close(self) -> None:
        if self.solver is not None:
            self.solver.close()
            self.solver = None


class Search(SatSearch):
    """The one-layer search: the shared one, and the tools of the hard proofs (answers with few
    empty cells, bounded calls, direction variables, touch selectors)."""

    def __init__(self, puzzle: Puzzle, rules: Rules, solver: str, deadline: Deadline, *, formula_rules: Rules | None = None, touch_selectors: bool = False) -> None:
        self.touch_selectors = touch_selectors
        self.oriented = False
        self.moves_forbidden = False
        super().__init__(puzzle, rules, solver, deadline, formula_rules=formula_rules)

    def _build(self, deadline: Deadline) -> Encoding:
        return _encode(self.puzzle, self.formula_rules, labels=label_encoding(self.formula_rules), deadline=deadline,
                       touch_selectors=self.touch_selectors, defer_touch=True)

    def forbid_corner_moves_and_bumps(self) -> None:
        """Add the "no-corner-move" and "no-bump" clauses (``encode(..., no_corner_moves=True,
        no_bumps=True)``) to this solver: for the uniqueness test under may-leave-empty rules,
        once the first answer is known and its detours and corner moves have been tried (undoing
        a bump is a detour). Not before: the corner clauses slow the search for a first answer
        (encodings/numberlink.md, "Notes from solve.py")."""
        assert self.solver is not None and self.encoding is not None and not self.formula_rules.cover_all
        if self.moves_forbidden:
            return
        self.moves_forbidden = True
        for name, block in corner_move_clauses(self.encoding) + bump_clauses(self.encoding):
            self.encoding.blocks.append((name, block))
            self.solver.add_clause_lists(block.tolist())

    def answer_with_few_empty(self, bounds: tuple[int, ...] | None = None) -> tuple[Status, Solution | None]:
        """May-leave-empty: the next answer (stray cycles dropped), trying in turn for one with
        any number of empty cells and for one with at most ``k`` for each ``k`` of ``bounds``, with
        conflict budgets that double each round, in this one solver (learnt clauses shared).

        The bounds only choose where to look: an answer is an answer with any number of empty
        cells, and UNSATISFIABLE is reported only by the unbounded call. A bounded call can find
        at once what the unbounded one does not, and which bound is quick differs from puzzle to
        puzzle (encodings/numberlink.md, "Notes from solve.py")."""
        assert self.solver is not None and self.encoding is not None and not self.rules.cover_all
        bounds = tuning.EMPTY_BOUNDS if bounds is None else bounds
        start = time.perf_counter()
        try:
            inner = int((self.encoding.free_index >= 0).sum()) - len(self.puzzle.endpoints())
            bounds = tuple(k for k in bounds if k * inner <= tuning.EMPTY_COUNTER_MAX_CLAUSES)
            at_most = self._empty_counter(max(bounds, default=0))
            tries: list[list[int]] = [[]] + [[-at_most[k]] for k in bounds if k < len(at_most)]
            budget = tuning.EMPTY_FIRST_CONFLICTS
            while tries:
                for assumptions in list(tries):
                    if self.deadline.expired():
                        return Status.UNKNOWN, None
                    outcome = self.solver.solve(assumptions, conflict_limit=budget, time_limit=self.deadline)
                    if outcome is None:
                        continue
                    if outcome is False:
                        if not assumptions:
                            return Status.UNSATISFIABLE, None
                        tries.remove(assumptions)  # no answer with that few empty cells
                        continue
                    return Status.SOLVED, self._answer_in_model(drop_cycles=True)
                budget *= 2
            return Status.UNKNOWN, None
        finally:
            self.solve_seconds += time.perf_counter() - start

    def _empty_counter(self, bound: int) -> list[int]:
        """Add "cell c is empty" variables for the inner cells and a totalizer over them; the
        returned literals: ``out[k]`` is true when more than ``k`` cells are empty (k <= bound)."""
        assert self.solver is not None and self.encoding is not None
        enc, width = self.encoding, self.puzzle.width
        endpoints = set(self.puzzle.endpoints())
        inner = [r * width + c for r, c in self.puzzle.free_cells() if (r, c) not in endpoints]
        if not inner or bound <= 0:
            return []
        first = enc.pool.reserve(len(inner))
        clauses: list[list[int]] = []
        for i, cell in enumerate(inner):
            around = [int(v) for v in enc.incident[cell] if v > 0]
            clauses.append([first + i] + around)  # no edge -> empty
            clauses.extend([-(first + i), -v] for v in around)  # empty -> no edge
        counting, more_than = counter(range(first, first + len(inner)), bound, enc.pool)
        self.solver.add_clause_lists(clauses + counting)
        return more_than

    def bounded_answer(self, assumptions: list[int], conflicts: int, stop=None) -> Solution | None:
        """A verified cycle-free answer under ``assumptions`` found within ``conflicts``
        conflicts per solver call (stray cycles are cut and the call repeated), else None.
        With ``stop`` (a function), the call runs in steps of STOP_STEP_CONFLICTS conflicts and
        gives up (None) when ``stop()`` says so between two steps."""
        assert self.solver is not None and self.encoding is not None
        start = time.perf_counter()
        try:
            left = conflicts
            while left > 0 and not self.deadline.expired():
                step = left if stop is None else min(left, tuning.STOP_STEP_CONFLICTS)
                outcome = self.solver.solve(assumptions, conflict_limit=step, time_limit=self.deadline)
                if outcome is False:
                    return None
                if outcome is None:  # (the step's conflicts spent, or the deadline passed)
                    left -= step
                    if stop is not None and stop():
                        return None
                    continue
                solution = self._answer_in_model()
                if solution is not None:
                    return solution
                left = conflicts  # (cycles or touching rows cut: the call is repeated)
            return None
        finally:
            self.solve_seconds += time.perf_counter() - start

    def orient(self) -> None:
        """Add the direction variables (cover-all rules; see ``encoding.orientation_blocks``):
        the same answers, found or refuted sooner by the hard default-rules uniqueness proofs."""
        assert self.solver is not None and self.encoding is not None
        if self.oriented:
            return
        self.oriented = True
        for _, block in orientation_blocks(self.encoding):
            self.solver.add_clause_lists(block.tolist())

