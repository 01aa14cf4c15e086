"""Numberlink by SAT: solve, count answers and certify uniqueness.

Connect each pair of equal labels by an orthogonal path; paths never share a cell or enter a
blocked cell; by default every free cell is covered and a path may run beside itself
(:class:`~puzzlesat.numberlink.model.Rules`). The formula (:mod:`.encoding`, documented in
``encodings/numberlink.md``) admits stray cycles; every model with one is rejected by a cut
that no valid answer violates, in the same incremental solver, so no answer returned or
counted ever contains a cycle. Every answer passes :func:`~.verify.verify` before it leaves.

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
import itertools
import time
from typing import Iterator, Sequence

from ..results import CountResult, SolveResult, Status, Timings
from ..sat import DEFAULT_SOLVER, SatSolver
from ..timing import Deadline
from .encoding import Encoding, EncodingTimeout
from .encoding import encode as _encode
from .model import DEFAULT_RULES, Cell, Puzzle, Rules, Solution
from .verify import verify

__all__ = ["solve", "count", "is_unique", "encode", "DEFAULT_SOLVER", "UnverifiedAnswer"]


class UnverifiedAnswer(AssertionError):
    """Internal error: the solver produced an answer that the independent checker rejects."""


def encode(puzzle: Puzzle, rules: Rules = DEFAULT_RULES) -> Encoding:
    """The formula of ``puzzle`` under ``rules`` (an :class:`~.encoding.Encoding`).

    >>> enc = encode(Puzzle.from_rows(["A.A", "B.B"]))
    >>> enc.num_edges, len(enc.answer_vars)
    (7, 7)
    """
    return _encode(puzzle, rules)


def _label_encoding(rules: Rules) -> str:
    """Log-encoded labels under every rule set: one-hot labels measured no faster on the hard
    default-rules janko puzzles and need several times more clauses (encodings/numberlink.md)."""
    return "log"


class _Search:
    """One encoding in one incremental solver, yielding verified cycle-free answers."""

    def __init__(self, puzzle: Puzzle, rules: Rules, solver: str, deadline: Deadline) -> None:
        self.puzzle, self.rules, self.deadline = puzzle, rules, deadline
        self.encode_seconds = 0.0
        self.solve_seconds = 0.0
        self.cuts = 0
        self.cycles = 0
        self.solver: SatSolver | None = None
        self.encoding: Encoding | None = None
        start = time.perf_counter()
        try:
            self.encoding = _encode(puzzle, rules, labels=_label_encoding(rules), deadline=deadline)
            self.solver = SatSolver(name=solver)
            self.encoding.feed(self.solver, deadline)
        except EncodingTimeout:
            self.close()
        finally:
            self.encode_seconds = time.perf_counter() - start

    @property
    def ready(self) -> bool:
        return self.solver is not None

    def next_answer(self, *, drop_cycles: bool) -> tuple[Status, Solution | None, list[int]]:
        """The next answer: (SOLVED, solution, its true edge variables), (UNSATISFIABLE, None,
        []) when there is none, or (UNKNOWN, None, []) when the deadline passed.

        A model with stray cycles is cut and the solver asked again, except that with
        ``drop_cycles`` (may-leave-empty rules only) the cycles are simply left out."""
        assert self.solver is not None and self.encoding is not None
        start = time.perf_counter()
        try:
            while True:
                outcome = self.solver.solve(time_limit=self.deadline)
                if outcome is None:
                    return Status.UNKNOWN, None, []
                if not outcome:
                    return Status.UNSATISFIABLE, None, []
                model = self.solver.model()
                edges = self.encoding.true_edges(model)
                paths, cycles = self.encoding._components(edges)
                if cycles:
                    self.cycles += len(cycles)
                    if not drop_cycles:
                        cuts = self.encoding.cycle_cuts(cycles)
                        self.cuts += len(cuts)
                        self.solver.add_clause_lists(cuts)
                        continue
                    on_cycles = {e for cycle in cycles for e in cycle}
                    edges = edges[[e not in on_cycles for e in edges.tolist()]]
                solution = Solution(tuple((label, tuple(cells)) for label, cells in paths.items()))
                violations = verify(self.puzzle, solution, self.rules)
                if violations:
                    raise UnverifiedAnswer(
                        f"internal error: the SAT answer breaks the rules ({violations[0]}); please report this puzzle")
                return Status.SOLVED, solution, (edges + 1).tolist()
        finally:
            self.solve_seconds += time.perf_counter() - start

    def block(self, edge_vars: Sequence[int]) -> None:
        """Forbid the answer made of exactly these true edges (only answer variables).

        Two different cycle-free answers differ in some edge true in the first: under cover-all
        every answer has the same number of edges (half the degree sum), and under
        may-leave-empty an answer with extra edges would contain a stray cycle."""
        assert self.solver is not None
        self.solver.add_clause([-v for v in edge_vars])

    def timings(self) -> Timings:
        return Timings(encode=self.encode_seconds, solve=self.solve_seconds)

    def stats(self) -> dict[str, int | str]:
        out: dict[str, int | str] = {"cycles_cut": self.cycles, "cut_clauses": self.cuts}
        if self.encoding is not None:
            out.update(variables=self.encoding.num_vars, clauses=self.encoding.num_clauses, edges=self.encoding.num_edges)
        if self.solver is not None:
            out["solver_calls"] = self.solver.calls
        return out

    def close(self) -> None:
        if self.solver is not None:
            self.solver.close()
            self.solver = None


def _without_touching_first(puzzle: Puzzle, rules: Rules, solver: str, deadline: Deadline) -> SolveResult[Solution] | None:
    """Under rules that let a path run beside itself, first look for an answer that does not:
    the no-self-touch formula has a strong redundant clause (no three edges of a 2x2 block)
    and is usually solved at once, and its answers are answers under ``rules`` too.
    Returns the result (given half the remaining time, at most 10 s plus 20 s per million
    cells when there is no limit), or None when the rules forbid touching anyway."""
    if rules.no_self_touch:
        return None
    remaining = deadline.remaining()
    budget = 10.0 + 2e-5 * puzzle.width * puzzle.height
    if remaining is not None:
        budget = min(budget, remaining / 2)
    strict = Rules(cover_all=rules.cover_all, no_self_touch=True)
    result = _solve_once(puzzle, strict, solver, Deadline(budget))
    if result.solved and verify(puzzle, result.solution, rules):
        raise UnverifiedAnswer("internal error: a no-self-touch answer breaks the looser rules")
    return result


def _local_variants(puzzle: Puzzle, solution: Solution, rules: Rules) -> Iterator[Solution]:
    """Other answers next to ``solution``, each verified: a path that runs along itself in
    the same direction (steps a->b and later c->d with a, c and b, d adjacent) can take
    a->c, the middle reversed, then b->d; with cells allowed to stay empty a U-turn can be
    cut short or a step can detour through two empty cells."""
    used = {cell for _, cells in solution.paths for cell in cells}
    paths = solution.as_dict()
    for label, cells in solution.paths:
        position = {cell: i for i, cell in enumerate(cells)}
        n = len(cells)
        candidates: list[tuple[Cell, ...]] = []
        for i in range(n - 1):
            (ar, ac), (br, bc) = cells[i], cells[i + 1]
            dr, dc = br - ar, bc - ac
            for sr, sc in ((dc, dr), (-dc, -dr)):
                j = position.get((ar + sr, ac + sc))
                if j is not None and i + 1 < j < n - 1 and cells[j + 1] == (br + sr, bc + sc):
                    candidates.append(cells[: i + 1] + cells[i + 1 : j + 1][::-1] + cells[j + 1 :])
                if not rules.cover_all:
                    q, q2 = (ar + sr, ac + sc), (br + sr, bc + sc)
                    if puzzle.is_free(q) and puzzle.is_free(q2) and q not in used and q2 not in used:
                        candidates.append(cells[: i + 1] + (q, q2) + cells[i + 1 :])
            if not rules.cover_all and i + 3 < n and abs(cells[i][0] - cells[i + 3][0]) + abs(cells[i][1] - cells[i + 3][1]) == 1:
                candidates.append(cells[: i + 1] + cells[i + 3 :])
        for path in candidates:
            variant = Solution.from_mapping({**paths, label: path})
            if not verify(puzzle, variant, rules):
                yield variant


def _solve_once(puzzle: Puzzle, rules: Rules, solver: str, deadline: Deadline) -> SolveResult[Solution]:
    search = _Search(puzzle, rules, solver, deadline)
    method = f"sat-{solver}"
    if not search.ready:
        return SolveResult(Status.UNKNOWN, timings=search.timings(), method=method, stats=search.stats())
    try:
        status, solution, _ = search.next_answer(drop_cycles=not rules.cover_all)
        return SolveResult(status, solution, timings=search.timings(), method=method, stats=search.stats())
    finally:
        search.close()


def solve(
    puzzle: Puzzle,
    *,
    rules: Rules = DEFAULT_RULES,
    time_limit: float | None = None,
    solver: str = DEFAULT_SOLVER,
) -> SolveResult[Solution]:
    """Find one answer (verified), prove there is none, or say UNKNOWN when ``time_limit``
    seconds (building the formula included) run out.

    >>> solve(Puzzle.from_rows(["A.B", "...", "A.B"])).status.value   # colouring parity
    'unsatisfiable'
    >>> r = solve(Puzzle.from_rows(["A.B", "...", "A.B"]), rules=Rules(cover_all=False))
    >>> r.status.value, verify(Puzzle.from_rows(["A.B", "...", "A.B"]), r.solution, Rules(cover_all=False))
    ('solved', [])
    """
    deadline = Deadline.of(time_limit)
    first = _without_touching_first(puzzle, rules, solver, deadline)
    if first is not None and first.solved:
        return first
    result = _solve_once(puzzle, rules, solver, deadline)
    if first is not None:
        result = dataclasses.replace(result, timings=first.timings + result.timings)
    return result


def count(
    puzzle: Puzzle,
    *,
    rules: Rules = DEFAULT_RULES,
    limit: int = 2,
    time_limit: float | None = None,
    solver: str = DEFAULT_SOLVER,
) -> CountResult[Solution]:
    """Count answers up to ``limit`` (each cycle-free and verified), blocking only the edge
    variables of each answer found; ``complete`` is False when ``time_limit`` ran out first.

    >>> count(Puzzle.from_rows(["A..", "...", "..A"]), rules=Rules(cover_all=False), limit=100).count
    12
    """
    deadline = Deadline.of(time_limit)
    seeds: list[Solution] = []
    earlier = Timings()
    first = _without_touching_first(puzzle, rules, solver, deadline) if limit >= 1 else None
    if first is not None:
        earlier = first.timings
        if first.solved:
            seeds.append(first.solution)
            if limit >= 2:
                seeds.extend(itertools.islice(_local_variants(puzzle, first.solution, rules), 1))
    if seeds and len(seeds) >= limit:
        return CountResult(len(seeds), True, limit, tuple(seeds), timings=earlier, stats={"local_variants": len(seeds) - 1})
    search = _Search(puzzle, rules, solver, deadline)
    if not search.ready:
        return CountResult(len(seeds), False, limit, tuple(seeds), timings=earlier + search.timings(), stats=search.stats())
    assert search.encoding is not None and search.solver is not None
    found: list[Solution] = []
    complete = True
    try:
        for seed in seeds:  # found without this solver: block them, and search next to the first
            found.append(seed)
            search.block(search.encoding.edge_vars_of(seed))
        if seeds:
            used = set(search.encoding.edge_vars_of(seeds[0]))
            search.solver.set_phases([v if v in used else -v for v in search.encoding.answer_vars])
        while len(found) < limit:
            status, solution, edges = search.next_answer(drop_cycles=False)
            if status is Status.UNKNOWN:
                complete = False
                break
            if status is Status.UNSATISFIABLE:
                break
            assert solution is not None
            found.append(solution)
            search.block(edges)
        stats = {**search.stats(), "local_variants": max(0, len(seeds) - 1)}
        return CountResult(len(found), complete, limit, tuple(found), timings=earlier + search.timings(), stats=stats)
    finally:
        search.close()


def is_unique(
    puzzle: Puzzle,
    *,
    rules: Rules = DEFAULT_RULES,
    time_limit: float | None = None,
    solver: str = DEFAULT_SOLVER,
) -> CountResult[Solution]:
    """``count(limit=2)``: its ``uniqueness`` is unique / multiple (both answers kept) / none /
    unknown, and ``unique`` is True, False or None.

    >>> is_unique(Puzzle.from_rows(["A..B", "....", "A..B"])).unique
    False
    """
    return count(puzzle, rules=rules, limit=2, time_limit=time_limit, solver=solver)
