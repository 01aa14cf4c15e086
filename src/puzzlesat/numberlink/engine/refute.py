"""``refute``: a contradiction found without search (:mod:`..topology`: parity, colour counts,
cut regions, dead ends) decides that the puzzle has no answer, before any formula is built
(encodings/numberlink.md, "Before any formula: refutations without search (topology.py)").

>>> from ..model import Puzzle, Rules
>>> from .state import State, Deadline
>>> state = State(Puzzle.from_rows(["A.B", "...", "A.B"]), Rules(), solver="cadical195", limit=2, deadline=Deadline(None))
>>> str(state.step(REFUTE)), state.decided_by, state.stats["proof"][:18]
('none', 'refute', 'chessboard colours')
"""

from __future__ import annotations

from ...timing import Deadline
from .. import topology
from ..model import Puzzle, Rules
from .state import State
from .strategy import Outcome


class Refute:
    name = "refute"

    def applies(self, puzzle: Puzzle, rules: Rules) -> bool:
        return True  # (every rule set has checks; each says when it does not apply)

    def run(self, state: State, deadline: Deadline) -> Outcome:
        contradiction = topology.contradiction(state.puzzle, state.rules, deadline=deadline)
        if contradiction is None:
            return Outcome.nothing()
        state.stats["proof"] = contradiction
        return Outcome.none()


REFUTE = Refute()
