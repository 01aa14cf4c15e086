"""``without-self-touch``: when a default-rules count (cover-all, touching allowed) ends
undecided with its first answer, whether the puzzle is unique under no-self-touch rules. That
check is cheap and complete (the strong formula decides in milliseconds where the default one
is open for minutes), and says what a puzzle maker needs: "unknown; unique without self-touch"
(docs/numberlink-engine.md, "The pipeline"). It decides nothing under the rules asked:
``stats["without_self_touch"]`` is "unique", "multiple", "none" or "unknown". It may take
WITHOUT_TOUCH_SECONDS past the time limit, on boards of at most WITHOUT_TOUCH_MAX_CELLS cells.

>>> from ..model import Puzzle, Rules
>>> step = WithoutSelfTouch(count=None)
>>> step.applies(Puzzle.from_rows(["A.A"]), Rules()), step.applies(Puzzle.from_rows(["A.A"]), Rules(no_self_touch=True))
(True, False)
"""

from __future__ import annotations

from typing import Callable

from ...timing import Deadline
from ..model import Puzzle, Rules
from ..search import strict
from . import tuning
from .state import State
from .strategy import Outcome


class WithoutSelfTouch:
    """``count(state)`` runs the count pipeline on a state (given by :mod:`.pipeline`)."""

    name = "without-self-touch"

    def __init__(self, count: Callable[[State], None]) -> None:
        self.count = count

    def applies(self, puzzle: Puzzle, rules: Rules) -> bool:
        return rules.cover_all and not rules.no_self_touch and puzzle.board.num_cells <= tuning.WITHOUT_TOUCH_MAX_CELLS

    def wanted(self, state: State) -> bool:
        """After the pipeline: a second answer was wanted, the first is known, nothing decided."""
        return state.limit == 2 and len(state.found) == 1 and not state.decided

    def run(self, state: State, deadline: Deadline) -> Outcome:
        check = State(state.puzzle, strict(state.rules), solver=state.solver, limit=2, deadline=Deadline(tuning.WITHOUT_TOUCH_SECONDS))
        try:
            self.count(check)
        finally:
            check.close()
        result = check.count_result()
        verdict = result.uniqueness.value
        state.stats["without_self_touch"] = verdict
        return Outcome.nothing(f"{verdict} without self-touch")
