"""Numberlink by SAT: solve, count answers and certify uniqueness.

Connect each pair of equal labels by an orthogonal path; paths never share a cell or enter a
blocked cell; by default every free cell is covered and a path may run beside itself
(:class:`~puzzlesat.numberlink.model.Rules`). The formula (:mod:`.encoding`, documented in
``encodings/numberlink.md``) admits stray cycles; every model with one is rejected by a cut
that no valid answer violates, in the same incremental solver, so no answer returned or
counted ever contains a cycle. Every answer passes :func:`~.verify.verify` before it leaves.

Two reductions keep the loose rule sets fast (proofs in ``encodings/numberlink.md``):

* may-leave-empty: a path that runs beside itself can be cut short there, so every answer
  shrinks to one that does not; solving and deciding uniqueness use the no-self-touch formula
  and a search for a detour next to the answer found (counting beyond 2 uses the full formula);
* cover-all with touching allowed: an answer is looked for without touching first (usually
  at once), a path that runs along itself in the same direction gives a second answer by a
  local swap, two paths that step side by side in two places may trade the stretches between
  them (two 2x2 turns), and only then is the full formula searched, next to the first answer,
  with direction variables that walk each path from its start (the same answers, refuted
  sooner).

>>> from puzzlesat.numberlink.model import Puzzle
>>> puzzle = Puzzle.from_rows(["A.A", "B.B"])
>>> result = solve(puzzle)
>>> result.status.value, result.solution.path("A")
('solved', ((0, 0), (0, 1), (0, 2)))
>>> is_unique(puzzle).unique
True
>>> count(Puzzle.from_rows(["A..B", "....", "A..B"])).uniqueness.value   # two ways to fill
'multiple'
"""

from __future__ import annotations

import dataclasses
import math
import time
from multiprocessing.connection import wait
from typing import Iterator

import numpy as np

from ..child import GRACE_SECONDS, Child as _Child, can_fork as _can_fork, report_answer, run_with_deadline, stop_all as _stop_all
from ..errors import PuzzlesatError, UnverifiedAnswer, require_type, require_valid
from ..results import CountResult, SolveResult, Status, Timings, check_count_limit
from ..sat import DEFAULT_SOLVER, SatSolver, check_solver_name, counter
from ..timing import Deadline
from . import fill, frontier, routing, topology
from .encoding import Encoding, EncodingTimeout, bump_clauses, corner_move_clauses, orientation_blocks
from .encoding import encode as _encode
from .model import DEFAULT_RULES, ONE_LAYER_HINT, Cell, Puzzle, Rules, Solution
from .verify import verify

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


# CaDiCaL without its "lucky" first assignments and bounded variable elimination: a faster first
# solve on no-self-touch puzzles (encodings/numberlink.md, "Solver options (loaded_solver)").
CADICAL_OPTIONS = {"lucky": 0, "elim": 0}
# Formulas of more clauses run without CaDiCaL's inprocessing, whose bursts between two conflicts
# would carry a conflict-budgeted step past the time limit.
BIG_FORMULA_CLAUSES = 2_000_000
CADICAL_BIG_FORMULA_OPTIONS = {"walk": 0, "probe": 0, "vivify": 0, "subsume": 0, "ternary": 0, "rephase": 0, "compact": 0}
# One-layer cover-all no-self-touch formulas (no touch selectors) of this many clauses or more
# (boards from about 35 x 35) run without the inprocessing too: they solve faster without it;
# other rule sets and smaller formulas keep it (encodings/numberlink.md, "Solver options").
STRICT_FORMULA_CLAUSES = 60_000
CLEANUP_SECONDS_PER_CLAUSE = 1.5e-7  # time kept back before the deadline, per clause of the formula
# may-leave-empty: bounds on the number of empty cells tried before (and beside) none
EMPTY_BOUNDS = (32, 128, 8)
# the totalizer over the empty cells has about (cells x largest bound) clauses: bounds that would
# pass this many are dropped (a 1002 x 1002 board with bound 128: 128 M clauses, out of memory)
EMPTY_COUNTER_MAX_CLAUSES = 4_000_000
EMPTY_FIRST_CONFLICTS = 2_000  # first conflict budget of each try in answer_with_few_empty
COVER_FIRST_SECONDS = 3.0  # may-leave-empty: at most this long (and a sixth of the time) for a covering answer
# Default rules on boards of more cells: an answer is first drawn without a formula (:mod:`.fill`:
# route, fill, repair in windows), at most FILL_SECONDS and a third of the time left, and a second
# answer looked for in small windows of it, as long again: on such boards the formula takes
# longer to build than the drawing (encodings/numberlink.md, "Route and fill (fill.py)").
FILL_MIN_CELLS = 40_000
FILL_SECONDS = 20.0


def _label_encoding(rules: Rules) -> str:
    """Log-encoded labels under every rule set: one-hot labels were no faster on the hard
    default-rules janko puzzles and need several times more clauses (encodings/numberlink.md)."""
    return "log"


def loaded_solver(encoding, solver: str, deadline: Deadline) -> tuple[SatSolver, Deadline]:
    """A solver holding ``encoding``'s clauses (CaDiCaL with this family's options; without its
    inprocessing on big formulas and on large no-self-touch ones), and the deadline to search
    by: time is kept back to stop a solver step and free a big formula within the limit
    (encodings/numberlink.md, "Notes from solve.py").
    Raises EncodingTimeout when ``deadline`` passes while the clauses are fed (the solver is
    closed first). Serves formulas of one layer and of several."""
    options = None
    if solver == "cadical195":
        options = CADICAL_OPTIONS
        if _without_inprocessing(encoding):
            options = {**CADICAL_OPTIONS, **CADICAL_BIG_FORMULA_OPTIONS}
    sat = SatSolver(name=solver, options=options)
    try:
        encoding.feed(sat, deadline, release=encoding.num_clauses > BIG_FORMULA_CLAUSES)  # (huge: no second copy)
    except EncodingTimeout:
        sat.close()
        raise
    return sat, deadline.earlier(encoding.num_clauses * CLEANUP_SECONDS_PER_CLAUSE)


def _without_inprocessing(encoding) -> bool:
    """Whether CaDiCaL runs on ``encoding`` without its inprocessing: formulas of more than
    BIG_FORMULA_CLAUSES clauses, and one-layer cover-all no-self-touch formulas without touch
    selectors of more than STRICT_FORMULA_CLAUSES."""
    if encoding.num_clauses > BIG_FORMULA_CLAUSES:
        return True
    return (isinstance(encoding, Encoding) and encoding.rules.cover_all and encoding.rules.no_self_touch
            and not encoding.touch_selectors and encoding.num_clauses > STRICT_FORMULA_CLAUSES)


class SatSearch:
    """One formula in one incremental solver, yielding verified cycle-free answers; the searches
    of one layer (:class:`_Search`) and of several (``multilayer.solve``) build on it, each
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
        _check(self.puzzle, solution, self.rules, self.checker)
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


class _Search(SatSearch):
    """The one-layer search: the shared one, and the tools of the hard proofs (answers with few
    empty cells, bounded calls, direction variables, touch selectors)."""

    def __init__(self, puzzle: Puzzle, rules: Rules, solver: str, deadline: Deadline, *, formula_rules: Rules | None = None, touch_selectors: bool = False) -> None:
        self.touch_selectors = touch_selectors
        self.oriented = False
        self.moves_forbidden = False
        super().__init__(puzzle, rules, solver, deadline, formula_rules=formula_rules)

    def _build(self, deadline: Deadline) -> Encoding:
        return _encode(self.puzzle, self.formula_rules, labels=_label_encoding(self.formula_rules), deadline=deadline,
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

    def answer_with_few_empty(self, bounds: tuple[int, ...] = EMPTY_BOUNDS) -> tuple[Status, Solution | None]:
        """May-leave-empty: the next answer (stray cycles dropped), trying in turn for one with
        any number of empty cells and for one with at most ``k`` for each ``k`` of ``bounds``, with
        conflict budgets that double each round, in this one solver (learnt clauses shared).

        The bounds only choose where to look: an answer is an answer with any number of empty
        cells, and UNSATISFIABLE is reported only by the unbounded call. A bounded call can find
        at once what the unbounded one does not, and which bound is quick differs from puzzle to
        puzzle (encodings/numberlink.md, "Notes from solve.py")."""
        assert self.solver is not None and self.encoding is not None and not self.rules.cover_all
        start = time.perf_counter()
        try:
            inner = int((self.encoding.free_index >= 0).sum()) - len(self.puzzle.endpoints())
            bounds = tuple(k for k in bounds if k * inner <= EMPTY_COUNTER_MAX_CLAUSES)
            at_most = self._empty_counter(max(bounds, default=0))
            tries: list[list[int]] = [[]] + [[-at_most[k]] for k in bounds if k < len(at_most)]
            budget = EMPTY_FIRST_CONFLICTS
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
                step = left if stop is None else min(left, STOP_STEP_CONFLICTS)
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


def _check(puzzle: Puzzle, solution: Solution, rules: Rules, checker=verify) -> None:
    """Raise UnverifiedAnswer unless ``checker`` (the family's verify, of one layer or several)
    finds ``solution`` valid. In a child process (large boards) a valid answer is also handed to
    the parent at once (:func:`~puzzlesat.child.report_answer`), so that it is not lost if the
    child is stopped at the time limit before it returns."""
    require_valid(checker(puzzle, solution, rules), "the Numberlink solver")
    report_answer(solution)


def _shrinks_to_no_touch(rules: Rules) -> bool:
    """May-leave-empty with touching allowed: every answer shrinks to a no-self-touch one."""
    return not rules.cover_all and not rules.no_self_touch


def _strict(rules: Rules) -> Rules:
    return Rules(cover_all=rules.cover_all, no_self_touch=True)


def _empty_cell_variant(puzzle: Puzzle, solution: Solution) -> tuple[Solution | None, str]:
    """(May-leave-empty, touching allowed) a second answer that differs from ``solution`` only
    through its empty cells, and how it was made: ("detour" or "corner move"), or (None, "").
    (A bump, the third move of the normal form in encodings/numberlink.md, needs no test of its
    own: a straight ``a -> m -> d`` with the three cells beside it empty has a detour.)"""
    detour = _detour_variant(puzzle, solution)
    if detour is not None:
        return detour, "detour"
    moved = _corner_variant(puzzle, solution)
    return (moved, "corner move") if moved is not None else (None, "")


def _corner_variant(puzzle: Puzzle, solution: Solution) -> Solution | None:
    """(May-leave-empty, touching allowed) the answer with one corner of a path moved across
    its 2x2 block: a path turning at ``b`` (``a -> b -> c``) may turn at the block's fourth
    cell ``e`` instead when ``e`` is empty (``a -> e -> c``: same length, still simple, and
    touching is allowed). None when no corner can move. With the detours and the formula
    without corner moves this finds a second answer whenever there is one
    (encodings/numberlink.md).

    >>> from .model import Puzzle, Solution
    >>> puzzle = Puzzle.from_rows(["A.", ".A"])
    >>> moved = _corner_variant(puzzle, Solution.from_mapping({"A": [(0, 0), (0, 1), (1, 1)]}))
    >>> moved.as_dict()["A"]
    ((0, 0), (1, 0), (1, 1))
    """
    used = {cell for _, cells in solution.paths for cell in cells}
    for label, cells in solution.paths:
        for i in range(1, len(cells) - 1):
            (ar, ac), (br, bc), (cr, cc) = cells[i - 1], cells[i], cells[i + 1]
            if ar == cr or ac == cc:
                continue  # straight on: no corner
            moved = (ar + cr - br, ac + cc - bc)
            if puzzle.is_free(moved) and moved not in used:
                path = cells[:i] + (moved,) + cells[i + 1:]
                return type(solution).from_mapping({**solution.as_dict(), label: path})
    return None


def _detour_variant(puzzle: Puzzle, solution: Solution) -> Solution | None:
    """(May-leave-empty) the answer with one step a->b of a path replaced by a detour through
    empty cells from a neighbour of a to a neighbour of b, if any exists. Together with the
    no-self-touch answers this finds every answer (encodings/numberlink.md). Boards of several
    layers use it too: it needs only ``puzzle.neighbours`` and ``free_cells``."""
    used = {cell for _, cells in solution.paths for cell in cells}

    def around(cell: Cell) -> list[Cell]:
        return [n for n in puzzle.neighbours(cell) if n not in used]

    region: dict[Cell, int] = {}  # connected regions of empty cells
    for cell in puzzle.free_cells():
        if cell in used or cell in region:
            continue
        region[cell] = len(region)
        name, stack = region[cell], [cell]
        while stack:
            for n in around(stack.pop()):
                if n not in region:
                    region[n] = name
                    stack.append(n)
    paths = solution.as_dict()
    for label, cells in solution.paths:
        for i in range(len(cells) - 1):
            a, b = cells[i], cells[i + 1]
            targets = {region[n] for n in around(b)}
            starts = [n for n in around(a) if region[n] in targets]
            if not starts:
                continue
            goal = set(around(b))
            parent: dict[Cell, Cell | None] = {starts[0]: None}
            queue = [starts[0]]
            for cell in queue:  # breadth-first through the empty region
                if cell in goal:
                    detour = [cell]
                    while parent[detour[-1]] is not None:
                        detour.append(parent[detour[-1]])
                        assert detour[-1] is not None
                    path = cells[: i + 1] + tuple(reversed(detour)) + cells[i + 1 :]
                    return type(solution).from_mapping({**paths, label: path})
                for n in around(cell):
                    if n not in parent:
                        parent[n] = cell
                        queue.append(n)
    return None


def _swap_variant(puzzle: Puzzle, solution: Solution, rules: Rules) -> Solution | None:
    """A second answer by a local swap, if one exists: a path that takes steps a->b and later
    c->d with a, c and b, d adjacent can take a->c, its middle reversed, then b->d."""
    paths = solution.as_dict()
    for label, cells in solution.paths:
        position = {cell: i for i, cell in enumerate(cells)}
        n = len(cells)
        for i in range(n - 1):
            (ar, ac), (br, bc) = cells[i], cells[i + 1]
            dr, dc = br - ar, bc - ac
            for sr, sc in ((dc, dr), (-dc, -dr)):
                j = position.get((ar + sr, ac + sc))
                if j is not None and i + 1 < j < n - 1 and cells[j + 1] == (br + sr, bc + sc):
                    path = cells[: i + 1] + cells[i + 1 : j + 1][::-1] + cells[j + 1 :]
                    variant = Solution.from_mapping({**paths, label: path})
                    if not verify(puzzle, variant, rules):
                        return variant
    return None


def _side_by_side(solution: Solution) -> dict[tuple[str, str, bool], list[tuple[int, int]]]:
    """Where two paths step side by side, in 2x2 blocks: for each pair of labels ``p < q``
    and whether they step the same way there, the (i, j) with ``p``'s step ``i -> i+1``
    beside ``q``'s step ``j -> j+1`` (cell indices along each path), in ``p``'s order."""
    owner: dict[Cell, tuple[str, int]] = {}
    for label, cells in solution.paths:
        for k, cell in enumerate(cells):
            owner[cell] = (label, k)
    blocks: dict[tuple[str, str, bool], list[tuple[int, int]]] = {}
    for label, cells in solution.paths:
        for i in range(len(cells) - 1):
            (ar, ac), (br, bc) = cells[i], cells[i + 1]
            dr, dc = br - ar, bc - ac
            for sr, sc in ((dc, dr), (-dc, -dr)):
                beside_a = owner.get((ar + sr, ac + sc))
                if beside_a is None or beside_a[0] <= label:
                    continue
                beside_b = owner.get((br + sr, bc + sc))
                if beside_b is None or beside_b[0] != beside_a[0]:
                    continue
                other, j = beside_a
                if beside_b[1] == j + 1:
                    blocks.setdefault((label, other, True), []).append((i, j))
                elif beside_b[1] == j - 1:
                    blocks.setdefault((label, other, False), []).append((i, j - 1))
    return blocks


def _two_turn_variant(puzzle: Puzzle, solution: Solution, rules: Rules) -> Solution | None:
    """A second answer by turning two 2x2 blocks, if one exists. Where a path ``p`` steps
    ``a -> b`` beside a step ``c -> d`` of another path ``q`` (``a`` beside ``c``), the block's
    other two sides ``a-c`` and ``b-d`` may be taken instead: every cell keeps its number of
    path neighbours, but ``p``'s ends are now joined to ``q``'s. A second such turn, on the same
    two paths, joins them back when the two paths trade the stretches between the blocks:
    stepping the opposite way at both blocks, each takes the other's stretch as it is
    (``p = P[..i1] + Q[j1+1..j2] + P[i2+1..]``, ``q = Q[..j1] + P[i1+1..i2] + Q[j2+1..]``);
    stepping the same way at both, ``q`` must meet them in the opposite order, and each takes
    the other's stretch reversed. Every cell stays covered, so only touching can make the
    result wrong: it is returned only when it passes :func:`verify` under ``rules``.

    On published puzzles under default rules this finds most second answers at once
    (encodings/numberlink.md, "Notes from solve.py").

    >>> from .model import Puzzle, Solution
    >>> puzzle = Puzzle.from_rows(["...A", ".AB.", "B..."])
    >>> first = Solution.from_rows(puzzle, ["BBBA", "BABA", "BAAA"])
    >>> print("\\n".join("".join(row) for row in _two_turn_variant(puzzle, first, Rules()).to_rows(puzzle)))
    AAAA
    AABB
    BBBB
    """
    paths = solution.as_dict()
    for (p, q, same_way), blocks in _side_by_side(solution).items():
        P, Q = paths[p], paths[q]
        for k, (i1, j1) in enumerate(blocks):
            for i2, j2 in blocks[k + 1:]:
                if i1 == i2 or j1 == j2 or (j2 < j1) != same_way:
                    continue
                if same_way:
                    new_p = P[:i1 + 1] + Q[j2 + 1:j1 + 1][::-1] + P[i2 + 1:]
                    new_q = Q[:j2 + 1] + P[i1 + 1:i2 + 1][::-1] + Q[j1 + 1:]
                else:
                    new_p = P[:i1 + 1] + Q[j1 + 1:j2 + 1] + P[i2 + 1:]
                    new_q = Q[:j1 + 1] + P[i1 + 1:i2 + 1] + Q[j2 + 1:]
                variant = Solution.from_mapping({**paths, p: new_p, q: new_q})
                if not verify(puzzle, variant, rules):
                    return variant
    return None


def _drawn_variant(puzzle: Puzzle, answer: Solution, rules: Rules, deadline: Deadline) -> Solution | None:
    """Default rules on a board of more than FILL_MIN_CELLS cells: a second answer that differs
    from ``answer`` inside one small window (:func:`.fill.window_variant`, no formula), verified;
    None otherwise."""
    if not _drawn_board(puzzle, rules):
        return None
    variant = fill.window_variant(puzzle, answer, stop=time.perf_counter() + _fill_budget(deadline))
    if variant is not None:
        _check(puzzle, variant, rules)
    return variant


# windows searched for a local second answer: (cells on a side, conflicts allowed per window)
WINDOWS = ((8, 2_000), (12, 10_000))
# windows in which paths may touch themselves, when no answer avoids touching
TOUCH_WINDOWS = ((8, 5_000), (16, 20_000))
# Boards with more cells get no window search: every window call assumes every edge outside
# the window, which the solver decides again after each restart (on a 1002 x 1002 board one
# call took minutes). The window phases also get at most a third of the time left.
MAX_WINDOW_CELLS = 40_000
# Boards with more cells get no direction variables: 2 per edge and about 22 clauses per cell
# cost more than they save there; the hard proofs they speed up are on boards of a few thousand
# cells (encodings/numberlink.md, "Notes from solve.py").
ORIENT_MAX_CELLS = 40_000
WINDOW_SHARE = 1 / 3  # the share of the time left that the window phases get
# A window call beside the frontier count asks it whether it has decided every this many
# conflicts (about 50 ms), not only between windows, so that a long window call neither delays
# the count's start nor hides its verdict (encodings/numberlink.md, "Notes from solve.py").
STOP_STEP_CONFLICTS = 1_000


def _window_starts(length: int, size: int) -> list[int]:
    """First rows (or columns) of windows of ``size`` overlapping by half that cover ``length``."""
    if length <= size:
        return [0]
    step = max(1, size // 2)
    starts = list(range(0, length - size + 1, step))
    if starts[-1] != length - size:
        starts.append(length - size)
    return starts


def _edges_as_in(enc: Encoding, answer: Solution) -> np.ndarray:
    """Per edge variable, the literal that sets it as in ``answer`` (for window assumptions)."""
    ids = np.arange(1, enc.num_edges + 1, dtype=np.int64)
    used = np.zeros(enc.num_edges, dtype=bool)
    used[np.asarray(enc.edge_vars_of(answer), dtype=np.int64) - 1] = True
    return np.where(used, ids, -ids)


def _window_variant(search: _Search, answer: Solution, *, windows: tuple[tuple[int, int], ...] = WINDOWS, stop=None,
                    in_steps: bool = False) -> Solution | None:
    """A second answer that differs from ``answer`` only inside one small window, if the
    windows hold one; None otherwise. ``windows`` gives (size, conflicts) pairs: squares of
    ``size`` cells on a side overlapping by half, each searched for at most ``conflicts``.

    Each window is one bounded solver call of ``search`` (which must already block
    ``answer``) with every edge not inside the window assumed as in ``answer``. A model is an
    answer of the whole puzzle, so nothing is assumed that the rules do not say: this only
    decides *where to look first*. Under default rules the full formula is weak and its global
    search can miss a second answer for minutes that a window finds in milliseconds
    (encodings/numberlink.md, "Notes from solve.py"). ``stop`` (a
    function) is asked before each window, and with ``in_steps`` every STOP_STEP_CONFLICTS
    conflicts within one too, whether to give up (a search beside has decided)."""
    return _first_in_windows(search, answer, _window_masks(search, windows), stop, in_steps)


def _first_in_windows(search: _Search, answer: Solution, masks: Iterator[tuple[np.ndarray, int]], stop=None,
                      in_steps: bool = False) -> Solution | None:
    """The first answer found in the windows ``masks`` yields ((edges inside, conflicts)
    pairs), each one bounded call of ``search`` with every edge outside assumed as in
    ``answer``; None when none holds one (or ``stop()`` says to give up, asked before each
    window, and with ``in_steps`` between the steps of its call)."""
    assert search.solver is not None and search.encoding is not None
    as_answer = _edges_as_in(search.encoding, answer)
    for inside, conflicts in masks:
        if stop is not None and stop():
            return None
        found = search.bounded_answer(as_answer[~inside].tolist(), conflicts, stop if in_steps else None)
        if found is not None or search.deadline.expired():
            return found
    return None


def _window_phase(search: _Search) -> Deadline | None:
    """The end of a window phase (WINDOW_SHARE of the time left); None on boards of more than
    MAX_WINDOW_CELLS cells, which get no windows."""
    if search.puzzle.width * search.puzzle.height > MAX_WINDOW_CELLS:
        return None
    remaining = search.deadline.remaining()
    return Deadline(None if remaining is None else remaining * WINDOW_SHARE)


def _window_masks(search: _Search, windows: tuple[tuple[int, int], ...]) -> Iterator[tuple[np.ndarray, int]]:
    """(edges inside the window, conflicts allowed) for each window of ``windows`` ((size,
    conflicts) pairs: squares of ``size`` cells overlapping by half), smaller sizes first;
    windows without an edge are left out, and a size that holds the board ends the list. None
    on boards of more than ``MAX_WINDOW_CELLS`` cells, and none once a third of the time left
    at the start (``WINDOW_SHARE``) has passed."""
    assert search.encoding is not None
    enc, width, height = search.encoding, search.puzzle.width, search.puzzle.height
    phase = _window_phase(search)
    if phase is None:
        return
    rows, cols = enc.edge_cells // width, enc.edge_cells % width
    low_row, high_row = rows.min(axis=1), rows.max(axis=1)
    low_col, high_col = cols.min(axis=1), cols.max(axis=1)
    for size, conflicts in windows:
        for r0 in _window_starts(height, size):
            for c0 in _window_starts(width, size):
                if phase.expired():
                    return
                inside = (low_row >= r0) & (high_row < r0 + size) & (low_col >= c0) & (high_col < c0 + size)
                if inside.any():
                    yield inside, conflicts
        if size >= max(height, width):
            break  # one window holds the whole board: larger ones would repeat it


# Label windows: an answer that differs from the first only in the paths of a set L of labels
# lies on the cells those paths cover in the first, plus (may-leave-empty rules) cells the
# first leaves empty (every other path is the same), so the window "every edge between two such
# cells" holds it, however far the paths run. If the labels that differ fall into groups whose
# paths never touch in the first answer, directly or across one empty region, each group's
# change alone is an answer too, so it is enough to try sets connected that way, smallest
# first. Tried after the square windows, on boards the frontier count does not take, once the
# global search has had LABEL_WINDOW_AFTER seconds: they find second answers that reroute a few
# paths across the board, which no square window holds (encodings/numberlink.md, "Notes from
# solve.py").
LABEL_WINDOW_LABELS = 3  # the most labels whose paths one label window frees
LABEL_WINDOW_CONFLICTS = 3_000  # conflict budget of one label-window call
LABEL_WINDOW_AFTER = 0.5  # seconds the global search has on its own before label windows


def _label_sets(puzzle: Puzzle, answer: Solution, most: int) -> Iterator[frozenset[str]]:
    """Every set of at most ``most`` labels connected by paths that touch in ``answer``
    (orthogonally neighbouring cells, or both beside one region of empty cells), smaller sets
    first, each once."""
    owner: dict[Cell, str] = {cell: label for label, cells in answer.paths for cell in cells}
    touching: dict[str, set[str]] = {label: set() for label, _ in answer.paths}

    def touch(group: set[str]) -> None:
        for label in group:
            touching[label] |= group - {label}

    for (r, c), label in owner.items():
        for other in (owner.get((r + 1, c)), owner.get((r, c + 1))):
            if other is not None:
                touch({label, other})
    empty = set(puzzle.free_cells()) - set(owner)
    while empty:  # each region of empty cells: the labels beside it touch one another
        beside, todo = set(), [empty.pop()]
        while todo:
            r, c = todo.pop()
            for cell in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if cell in empty:
                    empty.discard(cell)
                    todo.append(cell)
                elif cell in owner:
                    beside.add(owner[cell])
        touch(beside)
    level = {frozenset([label]) for label in touching}
    for _ in range(most):
        yield from sorted(level, key=sorted)
        level = {group | {other} for group in level for label in group for other in touching[label] if other not in group}


def _label_window_variant(search: _Search, answer: Solution, *, most: int = LABEL_WINDOW_LABELS, conflicts: int = LABEL_WINDOW_CONFLICTS,
                          stop=None) -> Solution | None:
    """A second answer that reroutes the paths of at most ``most`` labels over the cells they
    cover in ``answer`` and those it leaves empty (see LABEL_WINDOW_LABELS), if one is found
    within ``conflicts`` per set; None otherwise. Like :func:`_window_variant`, one bounded
    call of ``search`` (which must already block ``answer``) per set, every other edge assumed
    as in ``answer``; a model is an answer of the whole puzzle. At most WINDOW_SHARE of the
    time left; ``stop`` is asked before each set."""
    return _first_in_windows(search, answer, _label_window_masks(search, answer, most, conflicts), stop)


def _label_window_masks(search: _Search, answer: Solution, most: int, conflicts: int) -> Iterator[tuple[np.ndarray, int]]:
    """(edges inside, conflicts) for each label window of :func:`_label_window_variant`."""
    assert search.encoding is not None
    enc, puzzle = search.encoding, search.puzzle
    phase = _window_phase(search)
    if phase is None:
        return
    label_index = {label: i for i, (label, _) in enumerate(answer.paths)}
    empty = len(label_index)  # the index of cells the answer leaves empty: in every window
    cell_label = np.full(puzzle.width * puzzle.height, -1, dtype=np.int64)  # (-1: blocked)
    for r, c in puzzle.free_cells():
        cell_label[r * puzzle.width + c] = empty
    for label, cells in answer.paths:
        for r, c in cells:
            cell_label[r * puzzle.width + c] = label_index[label]
    ends = cell_label[enc.edge_cells]  # each edge's two cells' labels in the answer
    for group in _label_sets(puzzle, answer, most):
        if phase.expired():
            return
        members = np.zeros(len(label_index) + 2, dtype=bool)  # (the last, index -1: blocked)
        members[[label_index[label] for label in group]] = True
        members[empty] = True
        yield members[ends[:, 0]] & members[ends[:, 1]], conflicts


# Cover-all with touching allowed, boards at most this many cells across: once a first answer
# is known and FRONTIER_DELAY seconds have passed (or the windows are done), the exact frontier
# count (:mod:`.frontier`) runs in a forked process beside the SAT search for a second answer
# (windows, then the global search in steps of FRONTIER_POLL_SECONDS), and the first of the
# two to decide wins. Without fork, SAT gets FRONTIER_SAT_FIRST seconds (at most a quarter of
# the time left) of its global search, then the count FRONTIER_SHARE of the time left, then SAT
# the rest. Most SAT proofs are quick; on the hard ones the count decides in a second or two
# what SAT does not in a minute.
#
# When the forward count has run FRONTIER_REVERSE_AFTER seconds without deciding (or ended
# without deciding), a second count sweeps from the opposite corner in another process, and SAT
# waits while both run, each on a core: the states per step depend much on the direction and
# neither is better in general. The reverse count gives up past FRONTIER_REVERSE_MAX_STATES
# children in a step: it helps where its direction is much narrower, and a wide one only slows
# the forward count (the two share the memory bandwidth). The cases behind these choices:
# encodings/numberlink.md, "Notes from solve.py".
FRONTIER_MAX_SIDE = 18  # boards at most this many cells across get the frontier count
FRONTIER_DELAY = 0.05  # seconds SAT has alone after the first answer before the count starts
FRONTIER_REVERSE_AFTER = 1.0  # seconds of the forward count before the reverse one starts
FRONTIER_REVERSE_MAX_STATES = 4_000_000  # the reverse count gives up past this many children in a step
FRONTIER_SAT_FIRST = 0.25  # without fork: SAT's seconds (at most a quarter of the time left) before the count
FRONTIER_POLL_SECONDS = 0.1  # length of a global-search step beside the count
FRONTIER_SHARE = 0.5  # without fork: the count's share of the time left


def _frontier_applies(puzzle: Puzzle, rules: Rules) -> bool:
    return rules.cover_all and not rules.no_self_touch and min(puzzle.width, puzzle.height) <= FRONTIER_MAX_SIDE


def _frontier_second(puzzle: Puzzle, rules: Rules, answer: Solution, deadline: Deadline, reverse: bool = False) -> frontier.FrontierCount:
    max_states = FRONTIER_REVERSE_MAX_STATES if reverse else frontier.DEFAULT_MAX_STATES
    return frontier.count_answers(puzzle, rules, limit=1, reference=answer, time_limit=deadline, reverse=reverse, max_states=max_states)


class _FrontierRace:
    """The exact frontier count of the answers other than ``answer``, in forked processes: the
    forward sweep, started once SAT has had FRONTIER_DELAY seconds on its own (most second
    answers and proofs take less) or when :meth:`second_answer` needs it, and the sweep from
    the opposite corner, once the first has run FRONTIER_REVERSE_AFTER seconds or ended
    without deciding (:meth:`second_answer` then lets SAT wait, so that each count has a core;
    the window phase before it is short and goes on). Where fork is not available,
    :meth:`second_answer` runs the forward count in turn with SAT."""

    def __init__(self, puzzle: Puzzle, rules: Rules, answer: Solution, deadline: Deadline, stats: dict) -> None:
        self.puzzle, self.rules, self.answer, self.deadline, self.stats = puzzle, rules, answer, deadline, stats
        self.start = time.perf_counter()
        self.forward_start = 0.0
        self.counts: list[_Child] = []  # forward, then reverse
        self.results: dict[int, frontier.FrontierCount | PuzzlesatError] = {}  # by position in counts

    def _count(self, reverse: bool) -> _Child:
        return _Child(_frontier_second, self.puzzle, dict(rules=self.rules, answer=self.answer, deadline=self.deadline, reverse=reverse))

    def _start(self) -> None:
        if not self.counts and _can_fork():
            self.forward_start = time.perf_counter()
            self.counts.append(self._count(reverse=False))

    def _read_finished(self) -> None:
        for position, child in enumerate(self.counts):
            if position not in self.results and child.done():
                try:
                    self.results[position] = child.result()
                except PuzzlesatError as exc:  # the count's process died (out of memory)
                    self.results[position] = exc

    def _start_reverse_when_due(self) -> None:
        if len(self.counts) == 1 and (0 in self.results or time.perf_counter() - self.forward_start >= FRONTIER_REVERSE_AFTER):
            self.counts.append(self._count(reverse=True))

    def _decided(self) -> tuple[int, frontier.FrontierCount] | None:
        """The first count that has finished complete (with its position), if any, after
        reading the counts that have finished; otherwise the reverse count starts when due."""
        self._read_finished()
        for position, result in self.results.items():
            if isinstance(result, frontier.FrontierCount) and result.status == "complete":
                return position, result
        self._start_reverse_when_due()
        return None

    def _running(self) -> list[_Child]:
        return [child for position, child in enumerate(self.counts) if position not in self.results]

    def done(self) -> bool:
        """Whether a count has decided (starting the counts first if their time has come)."""
        if not self.counts and time.perf_counter() - self.start >= FRONTIER_DELAY:
            self._start()
        return self._decided() is not None

    def second_answer(self, search: _Search, *, orient: bool = False) -> tuple[Status, Solution | None]:
        """The second answer by whichever decides first, SAT (``search`` blocks the answer)
        or a count. Returns as :meth:`_Search.next_answer`. While a count runs, SAT looks for a
        second answer as it is; once it must carry the proof alone (the counts ended without
        deciding), it gets the direction variables first when ``orient`` (see ``count``)."""
        deadline = search.deadline

        def alone() -> tuple[Status, Solution | None]:
            if orient:
                search.orient()
            return search.next_answer()

        self._start()
        if self.counts:
            while (decided := self._decided()) is None:
                running = self._running()
                if not running:  # every count ended without deciding: SAT goes on
                    failed = [result for result in self.results.values() if isinstance(result, PuzzlesatError)]
                    self._note(f"failed: {failed[0]}" if failed else "unknown")
                    return alone()
                if deadline.expired():
                    self._note("unknown")
                    return Status.UNKNOWN, None
                if len(running) > 1:  # both counts run, one per core: SAT waits for them
                    remaining = deadline.remaining()
                    wait([child.receive for child in running], FRONTIER_POLL_SECONDS if remaining is None else min(FRONTIER_POLL_SECONDS, remaining))
                    continue
                status, solution = search.next_answer(deadline.within(FRONTIER_POLL_SECONDS))
                if status is not Status.UNKNOWN or deadline.expired():
                    self._note("unknown" if status is Status.UNKNOWN else "overtaken by SAT")
                    return status, solution
            position, exact = decided
            if position:
                self.stats["frontier_sweep"] = "reverse"
        else:
            remaining = deadline.remaining()
            status, solution = search.next_answer(deadline.within(FRONTIER_SAT_FIRST if remaining is None else min(FRONTIER_SAT_FIRST, remaining / 4)))
            if status is not Status.UNKNOWN or deadline.expired():
                return status, solution
            remaining = deadline.remaining()
            exact = _frontier_second(self.puzzle, self.rules, self.answer, deadline.within(math.inf if remaining is None else remaining * FRONTIER_SHARE))
        outcome = "no second answer" if exact.count == 0 else "second answer" if exact.answers else "second answer (too many states to read it back)"
        self._note(exact.status if exact.status != "complete" else outcome, frontier_states=exact.max_states)
        if exact.status == "complete":
            if exact.count == 0:
                return Status.UNSATISFIABLE, None
            if exact.answers:
                _check(self.puzzle, exact.answers[0], self.rules)
                return Status.SOLVED, exact.answers[0]
        return alone()

    def _note(self, outcome: str, **more) -> None:
        self.stats.update(frontier=outcome, frontier_seconds=round(time.perf_counter() - self.start, 3), **more)

    def stop(self) -> None:
        _stop_all(self.counts)


def _global_search(search: _Search) -> tuple[Status, Solution | None]:
    """In a forked copy of ``search`` (the solver with its clauses, the first answer blocked):
    the global search for the next answer, with the direction variables."""
    search.orient()
    return search.next_answer()


class _GlobalSearchBeside:
    """The global search for a second answer under default rules, in a forked copy of the
    search, on boards the frontier count does not take: it starts before the windows and runs
    beside them and the label windows on the other core (they ask :meth:`done` before each
    window), instead of after them in turn, so that a verdict near the time limit does not
    depend on how long the windows took (encodings/numberlink.md, "Notes from solve.py")."""

    def __init__(self, search: _Search) -> None:
        self.search = search
        self.child = _Child(_global_search, search, {})

    def done(self) -> bool:
        return self.child.done()

    def answer(self, stats: dict) -> tuple[Status, Solution | None] | None:
        """The child's outcome, waiting for it (as :meth:`_Search.next_answer`; a second answer
        is verified here again); None when the process died, so the search goes on here."""
        search = self.search
        start = time.perf_counter()
        remaining = search.deadline.remaining()
        try:
            if not self.child.done(None if remaining is None else remaining + GRACE_SECONDS):
                status, solution = Status.UNKNOWN, None
            else:
                status, solution = self.child.result()
        except PuzzlesatError as exc:
            stats["global_search"] = f"failed: {exc}"
            return None
        finally:
            search.solve_seconds += time.perf_counter() - start
        stats["global_search"] = f"beside the windows: {status.value}"
        if solution is not None:
            _check(search.puzzle, solution, search.rules)
        return status, solution

    def stop(self) -> None:
        _stop_all([self.child])


def _touching_in_a_window(puzzle: Puzzle, rules: Rules, solver: str, deadline: Deadline) -> Solution | None:
    """Cover-all with touching allowed, when no answer avoids touching: an answer whose paths
    touch themselves only inside one window, if the windows hold one (None otherwise).

    The no-self-touch formula with a selector per edge (:func:`~.encoding.encode` with
    ``touch_selectors``) is searched once per window with the selectors outside the window
    assumed: the strong formula everywhere but in the window. A model is an answer under
    ``rules``. Published puzzles that need touching usually need it in one spot (e.g. a path
    beside its own endpoint; encodings/numberlink.md, "Notes from solve.py")."""
    if puzzle.width * puzzle.height > MAX_WINDOW_CELLS:
        return None
    search = _Search(puzzle, rules, solver, deadline, formula_rules=_strict(rules), touch_selectors=True)
    try:
        if not search.ready:
            return None
        assert search.encoding is not None
        selectors = search.encoding.touch_selectors
        for inside, conflicts in _window_masks(search, TOUCH_WINDOWS):
            found = search.bounded_answer((selectors + np.flatnonzero(~inside)).tolist(), conflicts)
            if found is not None or search.deadline.expired():
                return found
        return None
    finally:
        search.close()


def _route(puzzle: Puzzle, rules: Rules, deadline: Deadline) -> Solution | None:
    """May-leave-empty: an answer by negotiated-congestion routing (:mod:`.routing`) before
    SAT, its paths shrunk to no touching under no-self-touch rules and verified; None when the
    router gives up (it proves nothing). Routing problems with much empty space (the ADC sets)
    are often solved this way at once where the SAT search is lost. (Its paths share no cell
    and enter no other endpoint, so a rejected answer is a bug: raised, as for SAT answers.)"""
    stop = time.perf_counter() + routing.route_budget(deadline.remaining(), cells=puzzle.width * puzzle.height)
    paths = routing.route(puzzle.free_mask(), [(pair.label, pair.start, pair.end) for pair in puzzle.pairs], stop)
    if paths is None:
        return None
    cut = routing.shrink if rules.no_self_touch else tuple
    solution = Solution(tuple((label, cut(cells)) for label, cells in paths.items()))
    _check(puzzle, solution, rules)
    return solution


def _without_touching_first(puzzle: Puzzle, rules: Rules, solver: str, deadline: Deadline) -> SolveResult[Solution] | None:
    """Cover-all with touching allowed: first look for an answer that does not touch itself.
    The no-self-touch formula has a strong extra clause (no three edges in a 2x2 block) and is
    usually solved at once; its answers are answers under ``rules`` too. It gets half the
    remaining time (at most 10 s plus 20 s per million cells). None for other rule sets."""
    if rules.no_self_touch or not rules.cover_all:
        return None
    remaining = deadline.remaining()
    budget = 10.0 + 2e-5 * puzzle.width * puzzle.height
    if remaining is not None:
        budget = min(budget, remaining / 2)
    search = _Search(puzzle, rules, solver, Deadline(budget), formula_rules=_strict(rules))
    try:
        if not search.ready:
            return SolveResult(Status.UNKNOWN, timings=search.timings())
        status, solution = search.next_answer()
        return SolveResult(status, solution, timings=search.timings(), stats=search.stats())
    finally:
        search.close()


def _drawn_board(puzzle: Puzzle, rules: Rules) -> bool:
    """Whether answers are first drawn without a formula (:mod:`.fill`): default rules (cover-all,
    touching allowed) on a board of more than FILL_MIN_CELLS cells."""
    return rules.cover_all and not rules.no_self_touch and puzzle.width * puzzle.height > FILL_MIN_CELLS


def _fill_budget(deadline: Deadline) -> float:
    """Seconds for :mod:`.fill` on a large board: FILL_SECONDS, at most a third of the time left."""
    remaining = deadline.remaining()
    return FILL_SECONDS if remaining is None else min(FILL_SECONDS, remaining / 3)


def _drawn_first(puzzle: Puzzle, rules: Rules, deadline: Deadline) -> Solution | None:
    """Default rules on a board of more than FILL_MIN_CELLS cells: an answer drawn without a
    formula (:func:`.fill.route_and_fill`), verified; None for other boards and rule sets, or
    when none is drawn (which proves nothing)."""
    if not _drawn_board(puzzle, rules):
        return None
    drawn = fill.route_and_fill(puzzle, stop=time.perf_counter() + _fill_budget(deadline))
    if drawn is not None:
        _check(puzzle, drawn, rules)
    return drawn


def _first_answer_default(puzzle: Puzzle, rules: Rules, solver: str, deadline: Deadline) -> SolveResult[Solution] | None:
    """Cover-all with touching allowed: on a large board an answer drawn without a formula
    (:func:`_drawn_first`); else an answer without touching (:func:`_without_touching_first`),
    or, when there is none, one that touches only inside a window (:func:`_touching_in_a_window`).
    None for other rule sets; UNKNOWN / UNSATISFIABLE results say only that neither step found one."""
    start = time.perf_counter()
    drawn = _drawn_first(puzzle, rules, deadline)
    if drawn is not None:
        return SolveResult(Status.SOLVED, drawn, timings=Timings(solve=time.perf_counter() - start), stats={"first_answer": "route-fill"})
    first = _without_touching_first(puzzle, rules, solver, deadline)
    if first is None or first.status is not Status.UNSATISFIABLE:
        return first
    start = time.perf_counter()
    touching = _touching_in_a_window(puzzle, rules, solver, deadline)
    timings = first.timings + Timings(solve=time.perf_counter() - start)
    if touching is None:
        return dataclasses.replace(first, timings=timings)
    return SolveResult(Status.SOLVED, touching, timings=timings, stats={"first_answer": "touching-window"})


def _covering_first(puzzle: Puzzle, rules: Rules, solver: str, deadline: Deadline) -> Solution | None:
    """May-leave-empty: first look briefly for an answer that covers every cell and does not
    touch itself (the strong cover-all no-self-touch formula); it is an answer under ``rules``.
    Published may-leave-empty puzzles often have one, found at once where the may-leave-empty
    formula is slow (encodings/numberlink.md, "Notes from solve.py"); otherwise the formula is
    usually refuted at once. At most COVER_FIRST_SECONDS and a sixth of the time."""
    remaining = deadline.remaining()
    budget = COVER_FIRST_SECONDS if remaining is None else min(COVER_FIRST_SECONDS, remaining / 6)
    search = _Search(puzzle, rules, solver, Deadline(budget), formula_rules=Rules(cover_all=True, no_self_touch=True))
    try:
        if not search.ready:
            return None
        status, solution = search.next_answer()
        return solution if status is Status.SOLVED else None
    finally:
        search.close()


# Boards with more cells are solved in a child process under a time limit, which is stopped
# when the limit has passed by a second: on formulas of tens of millions of clauses one solver
# call can overrun its conflict budget by many seconds (encodings/numberlink.md, "Notes from solve.py").
CHILD_PROCESS_CELLS = 250_000


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
    >>> r = solve(Puzzle.from_rows(["A.B", "...", "A.B"]), rules=Rules(cover_all=False))
    >>> r.status.value, verify(Puzzle.from_rows(["A.B", "...", "A.B"]), r.solution, Rules(cover_all=False))
    ('solved', [])
    """
    if _baseline(method) is not None:
        return _baseline(method).solve(puzzle, rules=rules, time_limit=time_limit)
    _check_arguments(puzzle, rules, solver)
    deadline = Deadline.of(time_limit)
    method = f"sat-{solver}"
    contradiction = topology.contradiction(puzzle, rules, deadline=deadline)
    if contradiction is not None:
        return SolveResult(Status.UNSATISFIABLE, method=method, stats={"proof": contradiction})
    in_child = run_with_deadline(solve, puzzle, dict(rules=rules, time_limit=deadline, solver=solver), deadline=deadline,
                                 cells=puzzle.width * puzzle.height, threshold=CHILD_PROCESS_CELLS,
                                 check=lambda answer: verify(puzzle, answer, rules), method=method, wanted=1)
    if in_child is not None:
        return in_child
    earlier = Timings()
    first = _first_answer_default(puzzle, rules, solver, deadline)
    if first is not None:
        if first.solved:
            return dataclasses.replace(first, method=method)
        earlier = first.timings
    if not rules.cover_all:
        start = time.perf_counter()
        covering = _covering_first(puzzle, rules, solver, deadline)
        if covering is not None:
            return SolveResult(Status.SOLVED, covering, timings=Timings(solve=time.perf_counter() - start), method=method,
                               stats={"first_answer": "covering"})
        routed = _route(puzzle, rules, deadline)
        if routed is not None:
            return SolveResult(Status.SOLVED, routed, timings=Timings(solve=time.perf_counter() - start), method="route")
        earlier = Timings(solve=time.perf_counter() - start)
    formula = _strict(rules) if _shrinks_to_no_touch(rules) else rules
    search = _Search(puzzle, rules, solver, deadline, formula_rules=formula)
    try:
        if not search.ready:
            return SolveResult(Status.UNKNOWN, timings=earlier + search.timings(), method=method, stats=search.stats())
        if rules.cover_all:
            status, solution = search.next_answer()
        else:
            status, solution = search.answer_with_few_empty()
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
    method: str | None = None,
) -> CountResult[Solution]:
    """Count answers up to ``limit`` (each cycle-free and verified), blocking only the edge
    variables of each answer found; ``complete`` is False when ``time_limit`` ran out first.
    ``method`` and ``solver`` as in :func:`solve` (the backtracking baseline counts by search).

    >>> count(Puzzle.from_rows(["A..", "...", "..A"]), rules=Rules(cover_all=False), limit=100).count
    12
    """
    if _baseline(method) is not None:
        return _baseline(method).count(puzzle, rules=rules, limit=limit, time_limit=time_limit)
    _check_arguments(puzzle, rules, solver)
    check_count_limit(limit)
    deadline = Deadline.of(time_limit)
    method = f"sat-{solver}"
    contradiction = topology.contradiction(puzzle, rules, deadline=deadline)
    if contradiction is not None:
        return CountResult(0, True, limit, (), method=method, stats={"proof": contradiction})
    in_child = run_with_deadline(count, puzzle, dict(rules=rules, limit=limit, time_limit=deadline, solver=solver),
                                 deadline=deadline, cells=puzzle.width * puzzle.height, threshold=CHILD_PROCESS_CELLS,
                                 check=lambda answer: verify(puzzle, answer, rules), method=method, wanted=limit, counting=True)
    if in_child is not None:
        return in_child
    found: list[Solution] = []
    earlier = Timings()
    stats: dict[str, int | str] = {}
    first = _first_answer_default(puzzle, rules, solver, deadline) if limit >= 1 else None
    if first is not None:
        earlier = first.timings
        if "first_answer" in first.stats:
            stats["first_answer"] = first.stats["first_answer"]
        if first.solved:
            assert first.solution is not None
            found.append(first.solution)
            second = _swap_variant(puzzle, first.solution, rules) if limit >= 2 else None
            if second is not None:
                found.append(second)
                stats["local_variant"] = "swap"
            elif limit >= 2 and (second := _drawn_variant(puzzle, first.solution, rules, deadline)) is not None:
                found.append(second)
                stats["local_variant"] = "fill-window"
            elif limit >= 2 and (second := _two_turn_variant(puzzle, first.solution, rules)) is not None:
                found.append(second)
                stats["local_variant"] = "two turns"
    if not rules.cover_all and limit >= 1:
        start = time.perf_counter()
        covering = _covering_first(puzzle, rules, solver, deadline)
        earlier = Timings(solve=time.perf_counter() - start)
        if covering is not None:  # (no empty cell: no detour either)
            found.append(covering)
            stats["first_answer"] = "covering"
    # uniqueness under may-leave-empty: no-self-touch answers plus one detour search
    shrink = _shrinks_to_no_touch(rules) and limit <= 2
    if shrink and not found:
        start = time.perf_counter()
        routed = _route(puzzle, rules, deadline)
        earlier = earlier + Timings(solve=time.perf_counter() - start)
        if routed is not None:
            found.append(routed)
            stats["first_answer"] = "route"
            variant, kind = _empty_cell_variant(puzzle, routed) if limit == 2 else (None, "")
            if variant is not None:
                _check(puzzle, variant, rules)
                found.append(variant)
                stats["local_variant"] = kind
    if len(found) >= limit:
        return CountResult(len(found), True, limit, tuple(found), method=method, timings=earlier, stats=stats)

    search = _Search(puzzle, rules, solver, deadline, formula_rules=_strict(rules) if shrink else rules)
    if not search.ready:
        return CountResult(len(found), False, limit, tuple(found), method=method, timings=earlier + search.timings(), stats={**stats, **search.stats()})
    complete = True
    race: _FrontierRace | None = None
    beside: _GlobalSearchBeside | None = None
    try:
        for answer in found:
            search.block(answer)
        if found:
            search.prefer(found[0])
        # a second answer near the first, in small windows (no-self-touch cover-all is decided
        # fast enough without); on narrow boards the exact frontier count runs beside
        windows_left = limit == 2 and not (rules.cover_all and rules.no_self_touch)
        # the global search for a second answer under default rules walks each path from its
        # start (direction variables): the hard uniqueness proofs go much faster. Beside the
        # frontier count, which proves uniqueness on its boards, SAT is left without them until
        # the count has ended undecided: there it mostly finds second answers, which the
        # direction variables slow down
        orient = (limit == 2 and rules.cover_all and not rules.no_self_touch
                  and puzzle.width * puzzle.height <= ORIENT_MAX_CELLS)
        while len(found) < limit:
            if shrink and len(found) == 1:
                # a second answer shrunk, with its corners moved and its bumps made straight
                # (encodings/numberlink.md): the first one's detours and corner moves were tried
                # when it was found (undoing a bump is a detour)
                search.forbid_corner_moves_and_bumps()
            if race is None and len(found) == 1 and limit == 2 and _frontier_applies(puzzle, rules):
                race = _FrontierRace(puzzle, rules, found[0], search.deadline, stats)
            if len(found) == 1 and windows_left:
                windows_left = False
                if race is None and orient and _can_fork() and _window_phase(search) is not None:
                    beside = _GlobalSearchBeside(search)
                stop = race.done if race is not None else beside.done if beside is not None else None
                # (in steps beside the count: few windows, some long; the global search
                # beside is read between windows only, which are many and short on its boards,
                # and steps would slow a window's search there)
                local, where = _window_variant(search, found[0], stop=stop, in_steps=race is not None), "window"
                if local is None and race is None:
                    if beside is None:
                        if orient:
                            search.orient()
                        status, solution = search.next_answer(search.deadline.within(LABEL_WINDOW_AFTER))
                        if status is Status.UNSATISFIABLE:
                            break
                        if status is Status.SOLVED:
                            assert solution is not None
                            found.append(solution)
                            search.block(solution)
                            continue
                    if beside is None or not beside.done():
                        local, where = _label_window_variant(search, found[0], stop=stop), "label window"
                if local is not None:
                    found.append(local)
                    stats["local_variant"] = where
                    search.block(local)
                    continue
            outcome = beside.answer(stats) if beside is not None and len(found) == 1 else None
            if outcome is not None:  # (the search beside has ended: its verdict)
                status, solution = outcome
            else:
                if orient and len(found) == 1 and race is None:
                    search.orient()
                if not found and not rules.cover_all and limit <= 2:  # (full counts: cut cycles as they come)
                    status, solution = search.answer_with_few_empty()
                elif race is not None and len(found) == 1:
                    status, solution = race.second_answer(search, orient=orient)
                else:
                    status, solution = search.next_answer()
            if status is Status.UNKNOWN:
                complete = False
                break
            if status is Status.UNSATISFIABLE:
                break
            assert solution is not None
            found.append(solution)
            search.block(solution)
            if shrink and len(found) == 1 and limit == 2:  # (the router found none)
                variant, kind = _empty_cell_variant(puzzle, solution)
                if variant is not None:
                    _check(puzzle, variant, rules)
                    found.append(variant)
                    stats["local_variant"] = kind
        return CountResult(len(found), complete, limit, tuple(found), method=method, timings=earlier + search.timings(), stats={**stats, **search.stats()})
    finally:
        if race is not None:
            race.stop()
        if beside is not None:
            beside.stop()
        search.close()


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
