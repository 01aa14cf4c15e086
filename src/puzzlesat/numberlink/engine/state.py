"""The State a Numberlink pipeline works on: the puzzle, the rules, the deadline, the answers
found, the SAT search (made on first use, shared by the strategies after it), the stats and the
steps taken (``[name, outcome, seconds]``, for ``--explain``).

What differs between one layer and a stack of layers is the board's :class:`Kind`, read from
``puzzle.board.layered``: the SAT search (with its answer type and checker) and the refutation
without search. The strategies that read a grid ask :func:`~.strategy.one_layer`.

>>> from ..model import Puzzle, Rules
>>> from .strategy import Outcome
>>> state = State(Puzzle.from_rows(["A.A", "B.B"]), Rules(), solver="cadical195", limit=2, deadline=Deadline(None))
>>> state.shrink, state.decided
(False, False)
>>> class Named:
...     name = "first"
...     def run(self, state, deadline):
...         search = state.search()
...         return Outcome.answer(search.next_answer()[1])
>>> state.step(Named()).word, len(state.found), state.steps[0][:2]
('answer', 1, ['first', 'answer'])
>>> result = state.count_result(); state.close()
>>> result.count, result.complete, result.stats["decided_by"]
(1, False, None)
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable

from ...results import CountResult, SolveResult, Status, Timings
from ...timing import Deadline
from ..model import Puzzle, Rules, Solution
from .. import topology
from ..search import SatSearch, Search, check_answer, shrinks_to_no_touch, strict
from . import tuning
from .strategy import ANSWER, NONE, UNIQUE, Outcome


@dataclass(frozen=True)
class Kind:
    """What a board of one kind gives the pipeline: its SAT search (a :class:`~..search.SatSearch`,
    whose ``checker`` verifies answers) and its refutation without search (``refutation(puzzle,
    rules, deadline=)``: a reason there is no answer, or None)."""

    search: type
    refutation: Callable[..., str | None]


ONE_LAYER = Kind(Search, topology.contradiction)


def kind_of(puzzle: Any) -> Kind:
    """The kind of ``puzzle``'s board: one layer, or a stack (``Board.layered``)."""
    if not puzzle.board.layered:
        return ONE_LAYER
    from ..multilayer.refute import contradiction  # (deferred: the stack's package imports the engine)
    from ..multilayer.search import StackSearch

    return Kind(StackSearch, contradiction)


class State:
    """What the strategies of one solve or count share (see the module's docstring).

    ``verb`` is "solve" or "count"; ``limit`` the answers wanted (1 for solve). ``stop`` is set
    by the portfolio while a decider runs beside the windows: a function saying whether it has
    decided (``stop_in_steps``: ask it within a window's call too)."""

    def __init__(self, puzzle: Puzzle, rules: Rules, *, solver: str, limit: int, deadline: Deadline, verb: str = "count") -> None:
        self.puzzle, self.rules, self.solver, self.limit, self.deadline, self.verb = puzzle, rules, solver, limit, deadline, verb
        self.kind = kind_of(puzzle)
        self.found: list[Solution] = []
        self.stats: dict[str, Any] = {}
        self.answer_stats: dict[str, Any] | None = None  # solve: the stats of the step that found the answer, when not the search's
        self.answer_method: str | None = None  # solve: the method that found the answer, when not SAT ("route")
        self.steps: list[list] = []
        self.earlier = Timings()  # time of the steps before the shared search
        self.exhausted = False  # no answer exists beside those found
        self.stopped = False  # a complete search ran out of time: undecided
        self.decided_by: str | None = None
        self.stop: Callable[[], bool] | None = None
        self.stop_in_steps = False
        self._search: SatSearch | None = None
        self.race: Any = None  # the frontier race, once the portfolio has started it

    @property
    def method(self) -> str:
        return f"sat-{self.solver}"

    @property
    def shrink(self) -> bool:
        """May-leave-empty with touching allowed, at most two answers wanted: the search runs on
        the no-self-touch formula, and detours and corner moves give the other answers
        (encodings/numberlink.md, "What each rule set runs (solve.py)")."""
        return shrinks_to_no_touch(self.rules) and self.limit <= 2

    @property
    def decided(self) -> bool:
        """Whether the answers wanted are found, or no more exist."""
        return self.exhausted or len(self.found) >= self.limit

    @property
    def default_rules(self) -> bool:
        return self.rules.cover_all and not self.rules.no_self_touch

    @property
    def orient(self) -> bool:
        """Whether the global search for a second answer gets the direction variables: default
        rules, on boards of at most ORIENT_MAX_CELLS cells (encodings/numberlink.md, "What each
        rule set runs (solve.py)", step 5)."""
        return self.limit == 2 and self.default_rules and self.one_layer and self.cells <= tuning.ORIENT_MAX_CELLS

    @property
    def one_layer(self) -> bool:
        return self.kind is ONE_LAYER

    @property
    def cells(self) -> int:
        return self.puzzle.board.num_cells

    def check(self, solution: Any) -> None:
        """Raise UnverifiedAnswer unless ``solution`` passes the board's checker under the rules."""
        check_answer(self.puzzle, solution, self.rules, self.kind.search.checker)

    def search(self, *, prefer: bool = True) -> SatSearch | None:
        """The shared SAT search, made on first use (the no-self-touch formula under ``shrink``),
        with every answer found so far blocked and (``prefer``) its phases set to the first;
        None when the deadline passed while its formula was built."""
        if self._search is None:
            self._search = self.kind.search(self.puzzle, self.rules, self.solver, self.deadline,
                                            formula_rules=strict(self.rules) if self.shrink else self.rules)
            if self._search.ready:
                for answer in self.found:
                    self._search.block(answer)
                if self.found and prefer:
                    self._search.prefer(self.found[0])
        return self._search if self._search.ready else None

    def search_for_second(self, *, prefer: bool = True) -> SatSearch | None:
        """The shared search, ready to look for a second answer: under ``shrink`` with one
        answer found, one layer's corner-move and bump clauses are added first (not before: they
        slow the search for a first answer; encodings/numberlink.md, "Notes from solve.py"), a
        stack's phases set to the first answer (``before_second``)."""
        search = self.search(prefer=prefer)
        if search is not None and self.shrink and len(self.found) == 1:
            search.before_second(self.found[0])
        return search

    def fresh_search_for_second(self) -> Search | None:
        """The shared search made anew (its time so far kept in ``earlier``), ready to look for
        a second answer: for the global proof in turn after the windows, whose many bounded calls
        leave a solver that proves uniqueness about twice as slowly as a fresh one. Its phases
        are left free: a second answer near the first is the windows' to find, and phases set to
        the first would make the proof try a distant one last (encodings/numberlink.md, "Hard
        uniqueness proofs under default rules", "The proof's phases left free")."""
        if self._search is not None:
            self.earlier = self.timings()
            self._search.close()
            self._search = None
        return self.search_for_second(prefer=False)

    def add(self, solution: Solution) -> None:
        """Keep a new (verified) answer, blocked in the search when there is one."""
        self.found.append(solution)
        if self._search is not None and self._search.ready:
            self._search.block(solution)

    def step(self, strategy: Any, *, run: Callable[[], Outcome] | None = None) -> Outcome:
        """Run ``strategy`` (or ``run``, a part of it) and take its outcome: an answer is kept,
        "unique" / "none" end the search, "unknown" stops it undecided; the step is recorded."""
        start = time.perf_counter()
        outcome = run() if run is not None else strategy.run(self, self.deadline)
        name = outcome.by or strategy.name
        self.steps.append([name, str(outcome), round(time.perf_counter() - start, 4)])
        if outcome.word == ANSWER:
            self.add(outcome.solution)
            if len(self.found) >= self.limit:
                self.decided_by = name
        elif outcome.word in (UNIQUE, NONE):
            self.exhausted = True
            self.decided_by = name
        elif outcome.ends:
            self.stopped = True
        return outcome

    def timings(self) -> Timings:
        return self.earlier + (self._search.timings() if self._search is not None else Timings())

    def _explained(self, stats: dict[str, Any]) -> dict[str, Any]:
        return {**stats, "decided_by": self.decided_by, "steps": [list(step) for step in self.steps]}

    def count_result(self) -> CountResult[Solution]:
        complete = self.decided
        stats = {**self.stats, **(self._search.stats() if self._search is not None else {})}
        return CountResult(len(self.found), complete, self.limit, tuple(self.found), method=self.method,
                           timings=self.timings(), stats=self._explained(stats))

    def solve_result(self) -> SolveResult[Solution]:
        status = Status.SOLVED if self.found else Status.UNSATISFIABLE if self.exhausted else Status.UNKNOWN
        if self.answer_stats is not None:
            stats = dict(self.answer_stats)
        else:
            stats = self._search.stats() if self._search is not None else dict(self.stats)
        return SolveResult(status, self.found[0] if self.found else None, timings=self.timings(),
                           method=self.answer_method or self.method, stats=self._explained(stats))

    def close(self) -> None:
        if self._search is not None:
            self._search.close()
