"""``frontier``: the exact frontier count (:mod:`..frontier`) of the answers other than the
first, in forked processes beside the SAT search (default rules, boards at most
FRONTIER_MAX_SIDE cells across); the first of the two to decide wins. It starts FRONTIER_DELAY
seconds after the first answer (or when the windows end), and when it has run
FRONTIER_REVERSE_AFTER seconds undecided a second count sweeps from the opposite corner; SAT
waits while both run, one per core. Without fork, SAT and the count take turns. The cases
behind these choices: encodings/numberlink.md, "What each rule set runs (solve.py)" (step 5)
and "Notes from solve.py".

>>> from ..model import Puzzle, Rules
>>> FRONTIER.applies(Puzzle.from_rows(["A.A", "B.B"]), Rules()), FRONTIER.applies(Puzzle.from_rows(["A.A"]), Rules(no_self_touch=True))
(True, False)
"""

from __future__ import annotations

import math
import time
from multiprocessing.connection import wait

from ...child import Child as _Child, may_work_beside as _may_work_beside, stop_all as _stop_all
from ...errors import PuzzlesatError
from ...results import Status
from ...timing import Deadline
from .. import frontier
from ..model import Puzzle, Rules, Solution
from ..search import Search, check_answer
from . import tuning
from .state import State
from .strategy import Outcome, one_layer


class Frontier:
    """The race as a decider of the portfolio: :meth:`start` when the first answer is known,
    :meth:`run` when the windows have ended (started then if not yet)."""

    name = "frontier"

    def applies(self, puzzle: Puzzle, rules: Rules) -> bool:
        return _frontier_applies(puzzle, rules)

    def start(self, state: State) -> "FrontierRace":
        search = state.search()
        assert search is not None and len(state.found) == 1
        state.race = FrontierRace(state.puzzle, state.rules, state.found[0], search.deadline, state.stats)
        return state.race

    def run(self, state: State, deadline: Deadline) -> Outcome:
        search = state.search_for_second()
        if search is None:
            return Outcome.unknown("no formula in time")
        race = state.race or self.start(state)
        status, solution, by = race.second_answer(search, orient=state.orient)
        said = f"frontier: {state.stats['frontier']}" if "frontier" in state.stats else "frontier not started"  # (how the race went)
        if status is Status.SOLVED:
            return Outcome.answer(solution, detail=said, by=by)
        return Outcome.unique(said, by=by) if status is Status.UNSATISFIABLE else Outcome.unknown(f"time limit, {said}", by=by)


FRONTIER = Frontier()


def _frontier_applies(puzzle: Puzzle, rules: Rules) -> bool:
    return (rules.cover_all and not rules.no_self_touch and one_layer(puzzle)
            and min(puzzle.width, puzzle.height) <= tuning.FRONTIER_MAX_SIDE)


def _frontier_second(puzzle: Puzzle, rules: Rules, answer: Solution, deadline: Deadline, reverse: bool = False) -> frontier.FrontierCount:
    max_states = tuning.FRONTIER_REVERSE_MAX_STATES if reverse else frontier.DEFAULT_MAX_STATES
    return frontier.count_answers(puzzle, rules, limit=1, reference=answer, time_limit=deadline, reverse=reverse, max_states=max_states)


class FrontierRace:
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
        if not self.counts and _may_work_beside():
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
        if len(self.counts) == 1 and (0 in self.results or time.perf_counter() - self.forward_start >= tuning.FRONTIER_REVERSE_AFTER):
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
        if not self.counts and time.perf_counter() - self.start >= tuning.FRONTIER_DELAY:
            self._start()
        return self._decided() is not None

    def second_answer(self, search: Search, *, orient: bool = False) -> tuple[Status, Solution | None, str]:
        """The second answer by whichever decides first, SAT (``search`` blocks the answer)
        or a count. Returns as :meth:`Search.next_answer`, and which decided ("frontier" or
        "global-sat"; "frontier" when neither did). While a count runs, SAT looks for a
        second answer as it is; once it must carry the proof alone (the counts ended without
        deciding), it gets the direction variables first when ``orient`` (see ``count``)."""
        deadline = search.deadline

        def alone() -> tuple[Status, Solution | None, str]:
            if orient:
                search.orient()
            return (*search.next_answer(), "global-sat")

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
                    return Status.UNKNOWN, None, "frontier"
                if len(running) > 1:  # both counts run, one per core: SAT waits for them
                    remaining = deadline.remaining()
                    wait([child.receive for child in running], tuning.FRONTIER_POLL_SECONDS if remaining is None else min(tuning.FRONTIER_POLL_SECONDS, remaining))
                    continue
                status, solution = search.next_answer(deadline.within(tuning.FRONTIER_POLL_SECONDS))
                if status is not Status.UNKNOWN or deadline.expired():
                    self._note("unknown" if status is Status.UNKNOWN else "overtaken by SAT")
                    return status, solution, "frontier" if status is Status.UNKNOWN else "global-sat"
            position, exact = decided
            if position:
                self.stats["frontier_sweep"] = "reverse"
        else:
            remaining = deadline.remaining()
            status, solution = search.next_answer(deadline.within(tuning.FRONTIER_SAT_FIRST if remaining is None else min(tuning.FRONTIER_SAT_FIRST, remaining / 4)))
            if status is not Status.UNKNOWN or deadline.expired():
                return status, solution, "frontier" if status is Status.UNKNOWN else "global-sat"
            remaining = deadline.remaining()
            exact = _frontier_second(self.puzzle, self.rules, self.answer, deadline.within(math.inf if remaining is None else remaining * tuning.FRONTIER_SHARE))
        outcome = "no second answer" if exact.count == 0 else "second answer" if exact.answers else "second answer (too many states to read it back)"
        self._note(exact.status if exact.status != "complete" else outcome, frontier_states=exact.max_states)
        if exact.status == "complete":
            if exact.count == 0:
                return Status.UNSATISFIABLE, None, "frontier"
            if exact.answers:
                check_answer(self.puzzle, exact.answers[0], self.rules)
                return Status.SOLVED, exact.answers[0], "frontier"
        return alone()

    def _note(self, outcome: str, **more) -> None:
        self.stats.update(frontier=outcome, frontier_seconds=round(time.perf_counter() - self.start, 3), **more)

    def stop(self) -> None:
        _stop_all(self.counts)
