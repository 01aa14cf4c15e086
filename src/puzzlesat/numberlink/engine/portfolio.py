"""``deciders``: the complete deciders as a portfolio, with the windows run while they run.

With one answer found and a second wanted, on the shared search (the first answer blocked):

1. the frontier count starts its race (default rules, narrow boards: :mod:`.frontier_race`),
   or else, where it can, the global search starts in a forked copy beside (:mod:`.global_sat`);
2. the square windows run (:mod:`.windows`), asking the decider beside before each window
   whether it has decided (the race within a window too, every STOP_STEP_CONFLICTS conflicts);
3. without the race: the global search has LABEL_WINDOW_AFTER seconds (when nothing runs
   beside), then the label windows; while the global search runs beside, then the wide
   windows (larger squares) until it decides, on the core that would wait for it;
4. the deciders end it: the search beside is waited for (if its process died, the search goes
   on here), or the race is run to its verdict, or the global search alone.

The first answer, second answer or proof wins; the others are stopped. This is the order of
encodings/numberlink.md, "What each rule set runs (solve.py)", steps 4 and 5.

>>> from ..model import Puzzle, Rules
>>> from .state import State, Deadline
>>> from .first import FIRST
>>> state = State(Puzzle.from_rows(["A..B", "....", "A..B"]), Rules(cover_all=False, no_self_touch=True),
...               solver="cadical195", limit=2, deadline=Deadline(30))
>>> state.step(FIRST).word
'answer'
>>> DECIDERS.run_steps(state); state.close()
>>> len(state.found), state.decided_by in ("windows", "global-sat")
(2, True)
"""

from __future__ import annotations

from ..model import Puzzle, Rules
from .frontier_race import FRONTIER
from .global_sat import GLOBAL_SAT
from .state import State
from .strategy import NOTHING, Outcome
from .windows import LABEL_WINDOWS, WIDE_WINDOWS, WINDOWS


class Deciders:
    """The portfolio (see the module's docstring; a :class:`~.strategy.Portfolio`)."""

    name = "deciders"

    def applies(self, puzzle: Puzzle, rules: Rules) -> bool:
        return True

    def run_steps(self, state: State) -> None:
        search = state.search_for_second()
        if search is None:
            state.step(GLOBAL_SAT, run=lambda: Outcome.unknown("no formula in time"))
            return
        one_wanted = state.limit == 2 and len(state.found) == 1
        race = FRONTIER.start(state) if one_wanted and FRONTIER.applies(state.puzzle, state.rules) else None
        beside = None
        try:
            if one_wanted and WINDOWS.applies(state.puzzle, state.rules):
                beside = GLOBAL_SAT.beside(state) if GLOBAL_SAT.runs_beside(state) else None
                state.stop = race.done if race is not None else beside.done if beside is not None else None
                # (in steps beside the count: few windows, some long; the search beside is read
                # between windows only, which are many and short on its boards)
                state.stop_in_steps = race is not None
                try:
                    if self._local(state, race is not None, beside):
                        return
                finally:
                    state.stop, state.stop_in_steps = None, False
            if beside is not None:
                if state.step(GLOBAL_SAT, run=lambda: GLOBAL_SAT.outcome_beside(state, beside)).word != NOTHING:
                    return
            state.step(FRONTIER if race is not None else GLOBAL_SAT)
        finally:
            if race is not None:
                race.stop()
            if beside is not None:
                beside.stop()

    @staticmethod
    def _local(state: State, racing: bool, beside) -> bool:
        """Steps 2 and 3; whether they decided."""
        if state.step(WINDOWS).decides:
            return True
        if racing:
            return False
        if beside is None and state.step(GLOBAL_SAT, run=lambda: GLOBAL_SAT.head_start(state)).decides:
            return True
        if beside is not None and beside.done():
            return False
        if state.step(LABEL_WINDOWS).decides:
            return True
        return beside is not None and not beside.done() and state.step(WIDE_WINDOWS).decides


class Enumerate:
    """Counting past two answers: the global search, answer after answer, until the limit (a
    :class:`~.strategy.Portfolio` of one)."""

    name = "enumerate"

    def applies(self, puzzle: Puzzle, rules: Rules) -> bool:
        return True

    def run_steps(self, state: State) -> None:
        while not state.decided and not state.stopped:
            state.step(GLOBAL_SAT)


DECIDERS = Deciders()
ENUMERATE = Enumerate()
