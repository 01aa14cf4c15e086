"""``global-sat``: the complete SAT decider, the shared search with every answer found blocked
and its phases set to the first (the proof of uniqueness has them free), cycles cut as they
come. Under default rules (boards of at most ORIENT_MAX_CELLS cells) it gets the direction
variables first, which make the hard uniqueness proofs much faster; where it can, it runs in a
forked copy beside the windows instead of after them (:class:`GlobalSearchBeside`), and where
it runs in turn with them it has LABEL_WINDOW_AFTER seconds before the label windows
(:meth:`GlobalSat.head_start`) and proves after them on a fresh solver (encodings/numberlink.md,
"What each rule set runs (solve.py)", step 5, "Notes from solve.py" and "Hard uniqueness proofs
under default rules").

>>> from ..model import Puzzle, Rules
>>> from .state import State
>>> from .first import FIRST
>>> state = State(Puzzle.from_rows(["A.A", "B.B"]), Rules(no_self_touch=True), solver="cadical195", limit=2, deadline=Deadline(None))
>>> state.step(FIRST).word, str(state.step(GLOBAL_SAT)), state.decided_by
('answer', 'unique', 'global-sat')
>>> state.close()
"""

from __future__ import annotations

import time

from ...child import GRACE_SECONDS, Child as _Child, may_work_beside as _may_work_beside, stop_all as _stop_all
from ...errors import PuzzlesatError
from ...results import Status
from ...timing import Deadline
from ..model import Puzzle, Rules, Solution
from ..search import Search, check_answer
from . import tuning
from .state import State
from .strategy import Outcome
from .windows import window_phase


class GlobalSat:
    name = "global-sat"

    def applies(self, puzzle: Puzzle, rules: Rules) -> bool:
        return True

    def run(self, state: State, deadline: Deadline) -> Outcome:
        """The next answer, or the proof that there is none (the search's own deadline). The
        proof of uniqueness in turn after the windows runs on a fresh solver (boards of at most
        FRESH_PROOF_MAX_CELLS cells; :meth:`.State.fresh_search_for_second`)."""
        proof = state.orient and len(state.found) == 1 and state.race is None
        if proof and state.cells <= tuning.FRESH_PROOF_MAX_CELLS and any(step[0].startswith("windows") for step in state.steps):
            search = state.fresh_search_for_second()
            state.stats["proof_solver"] = "fresh after the windows"
        else:
            search = state.search_for_second()
        if search is None:
            return Outcome.unknown("no formula in time")
        if proof:
            search.orient()
        return _outcome(*search.next_answer())

    def head_start(self, state: State) -> Outcome:
        """LABEL_WINDOW_AFTER seconds of the global search, between the square and the label
        windows where nothing runs beside them: most proofs take less."""
        search = state.search_for_second()
        assert search is not None
        if state.orient:
            search.orient()
        status, solution = search.next_answer(search.deadline.within(tuning.LABEL_WINDOW_AFTER))
        return Outcome.nothing("head start over") if status is Status.UNKNOWN else _outcome(status, solution)

    def runs_beside(self, state: State) -> bool:
        """Whether the search runs in a forked copy beside the windows: default rules (with the
        direction variables), no frontier count, a fork, and windows at all on this board."""
        search = state.search()
        return (state.race is None and state.orient and _may_work_beside() and search is not None
                and window_phase(search) is not None)

    def beside(self, state: State) -> "GlobalSearchBeside":
        """The search beside; on boards of at most FRESH_PROOF_MAX_CELLS cells it is made anew in
        its process, with the answers found blocked and its phases free, as the proof in turn
        (:meth:`.State.fresh_search_for_second`)."""
        search = state.search()
        assert search is not None
        if state.cells > tuning.FRESH_PROOF_MAX_CELLS:
            return GlobalSearchBeside(search)
        state.stats["proof_solver"] = "fresh beside the windows"
        return GlobalSearchBeside(search, anew=state)

    def outcome_beside(self, state: State, beside: "GlobalSearchBeside") -> Outcome:
        """The verdict of the search beside, waited for; "nothing" when its process died (the
        search then goes on here)."""
        found = beside.answer(state.stats)
        if found is None:
            return Outcome.nothing(str(state.stats.get("global_search", "failed")))
        return _outcome(*found, where="beside the windows")


def _outcome(status: Status, solution: Solution | None, where: str = "") -> Outcome:
    if status is Status.SOLVED:
        return Outcome.answer(solution, detail=where)
    if status is Status.UNSATISFIABLE:
        return Outcome.unique(where)
    return Outcome.unknown(f"time limit, {where}" if where else "time limit")


GLOBAL_SAT = GlobalSat()


def _global_search(search: Search, anew: State | None = None) -> tuple[Status, Solution | None]:
    """In a forked copy of ``search`` (the solver with its clauses, the first answer blocked):
    the global search for the next answer, with the direction variables. With ``anew`` (the
    state, forked with it), on the state's search made anew in this process instead
    (:meth:`.State.fresh_search_for_second`: the answers found blocked, no phases set)."""
    if anew is not None:
        search = anew.fresh_search_for_second()
        if search is None:
            return Status.UNKNOWN, None
    search.orient()
    return search.next_answer()


class GlobalSearchBeside:
    """The global search for a second answer under default rules, in a forked copy of the
    search (or one made anew in that process, see :meth:`GlobalSat.beside`), on boards the
    frontier count does not take: it starts before the windows and runs
    beside them and the label windows on the other core (they ask :meth:`done` before each
    window), instead of after them in turn, so that a verdict near the time limit does not
    depend on how long the windows took (encodings/numberlink.md, "Notes from solve.py")."""

    def __init__(self, search: Search, anew: State | None = None) -> None:
        self.search = search
        self.child = _Child(_global_search, search, {"anew": anew})

    def done(self) -> bool:
        return self.child.done()

    def answer(self, stats: dict) -> tuple[Status, Solution | None] | None:
        """The child's outcome, waiting for it (as :meth:`Search.next_answer`; a second answer
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
            check_answer(search.puzzle, solution, search.rules)
        return status, solution

    def stop(self) -> None:
        _stop_all([self.child])
