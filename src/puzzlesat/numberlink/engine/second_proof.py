"""``global-sat:second``: a second, differently configured global proof beside the first, so
that both cores work on a hard default-rules uniqueness proof once the windows have ended.

The global search beside the windows (:class:`~.global_sat.GlobalSearchBeside`) holds one core;
the windows hold the other until they end, and then the process that ran them would only wait.
Instead it starts, in a forked process of its own, the same complete decider on a fresh solver
configured otherwise (SECOND_PROOF_OPTIONS, phases not set to the first answer when
SECOND_PROOF_PREFER is false), and the first of the two to decide wins; the other is stopped.
The time a CDCL proof takes varies widely with the solver's configuration and history, so the
shorter of two runs is often much shorter than either alone (encodings/numberlink.md, "Hard
uniqueness proofs under default rules", "Two proofs at once").

>>> from ..model import Puzzle, Rules
>>> SECOND_PROOF.applies(Puzzle.from_rows(["A.A", "B.B"]), Rules()), SECOND_PROOF.applies(Puzzle.from_rows(["A.A"]), Rules(no_self_touch=True))
(True, False)
>>> from ...timing import Deadline
>>> _second_proof(Puzzle.from_rows(["A.A", "B.B"]), rules=Rules(), solver="cadical195", found=[],
...               deadline=Deadline(10))[0].value
'solved'
"""

from __future__ import annotations

import time
from multiprocessing.connection import wait

from ...child import GRACE_SECONDS, Child, can_fork, stop_all
from ...errors import PuzzlesatError
from ...results import Status
from ...timing import Deadline
from ..model import Puzzle, Rules, Solution
from ..search import Search, check_answer
from . import tuning
from .global_sat import GLOBAL_SAT, GlobalSearchBeside, outcome_of
from .state import State
from .strategy import Outcome


def _second_proof(puzzle: Puzzle, *, rules: Rules, solver: str, found: list[Solution], deadline: Deadline) -> tuple[Status, Solution | None]:
    """In a forked process: the global search for an answer other than ``found`` on a fresh
    solver configured by SECOND_PROOF_OPTIONS, with the direction variables."""
    search = Search(puzzle, rules, solver, deadline, solver_options=tuning.SECOND_PROOF_OPTIONS)
    if not search.ready:
        return Status.UNKNOWN, None
    try:
        for answer in found:
            search.block(answer)
        if found and tuning.SECOND_PROOF_PREFER:
            search.prefer(found[0])
        search.orient()
        return search.next_answer()
    finally:
        search.close()


class SecondProof:
    """The second proof beside the first (see the module's docstring): :meth:`outcome` waits
    for the search beside the windows and, while it has not decided, runs this one too."""

    name = "global-sat:second"

    def applies(self, puzzle: Puzzle, rules: Rules) -> bool:
        return rules.cover_all and not rules.no_self_touch

    def wanted(self, state: State, beside: GlobalSearchBeside) -> bool:
        """Whether a second proof is worth starting now: the search beside has not decided,
        a process can be forked, and at least SECOND_PROOF_MIN_SECONDS are left."""
        remaining = state.deadline.remaining()
        return (self.applies(state.puzzle, state.rules) and state.orient and len(state.found) == 1 and can_fork()
                and (remaining is None or remaining >= tuning.SECOND_PROOF_MIN_SECONDS) and not beside.done())

    def outcome(self, state: State, beside: GlobalSearchBeside) -> Outcome:
        """The verdict of whichever decides first, the search beside the windows
        (``global-sat``) or the second proof (``global-sat:second``), each waited for until
        the deadline; as :meth:`~.global_sat.GlobalSat.outcome_beside` when no second proof
        is wanted. "nothing" when neither decided and the search beside died (the search then
        goes on here)."""
        if not self.wanted(state, beside):
            return GLOBAL_SAT.outcome_beside(state, beside)
        search = beside.search
        second = Child(_second_proof, state.puzzle, dict(rules=state.rules, solver=state.solver, found=list(state.found),
                                                           deadline=search.deadline))
        start = time.perf_counter()
        try:
            status, solution, by = self._first_verdict(state, beside, second)
        finally:
            stop_all([second])
            search.solve_seconds += time.perf_counter() - start
        if status is None:
            return Outcome.nothing(str(state.stats.get("global_search", "failed")))
        if solution is not None:
            check_answer(state.puzzle, solution, state.rules)
        return outcome_of(status, solution, where="beside the windows", by=by)

    @staticmethod
    def _first_verdict(state: State, beside: GlobalSearchBeside, second: Child) -> tuple[Status | None, Solution | None, str]:
        """Wait for the two processes until one decides or both have ended (or the deadline
        and its grace have passed): (status, answer, which), status None when the search
        beside died and the second did not decide. Each one's end is noted in the stats
        (``global_search``, ``second_proof``)."""
        remaining = beside.search.deadline.remaining()
        ends = None if remaining is None else time.monotonic() + remaining + GRACE_SECONDS
        running = {"global-sat": beside.child, "global-sat:second": second}
        notes = {"global-sat": ("global_search", "beside the windows: "), "global-sat:second": ("second_proof", "")}
        died = False
        while running:
            for by, child in list(running.items()):
                if not child.done():
                    continue
                del running[by]
                key, prefix = notes[by]
                try:
                    status, solution = child.result()
                except PuzzlesatError as exc:
                    state.stats[key] = f"failed: {exc}"
                    died = died or by == "global-sat"
                    continue
                state.stats[key] = prefix + status.value
                if status is not Status.UNKNOWN:
                    return status, solution, by
            left = None if ends is None else ends - time.monotonic()
            if not running or (left is not None and left <= 0):
                break
            wait([child.receive for child in running.values()], left)
        for by in running:
            key, prefix = notes[by]
            state.stats[key] = prefix + Status.UNKNOWN.value
        return (None if died else Status.UNKNOWN), None, "global-sat"


SECOND_PROOF = SecondProof()
