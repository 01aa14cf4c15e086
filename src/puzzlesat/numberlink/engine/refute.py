"""``refute``: a contradiction found without search (one layer: :mod:`..topology`, parity,
colour counts, cut regions, dead ends; a stack: :mod:`..multilayer.refute`, the checks that hold
on any graph of cells, and the vias' counts) decides that the puzzle has no answer, before any
formula is built (encodings/numberlink.md, "Before any formula: refutations without search
(topology.py)"; encodings/numberlink-multilayer.md, "Before any formula: refutations without
search (`refute.contradiction`)"). The board's :class:`~.state.Kind` gives the check.

>>> from ..model import Puzzle, Rules
>>> from .state import State, Deadline
>>> state = State(Puzzle.from_rows(["A.B", "...", "A.B"]), Rules(), solver="cadical195", limit=2, deadline=Deadline(None))
>>> str(state.step(REFUTE)), state.decided_by, state.stats["proof"][:18]
('none', 'refute', 'chessboard colours')
"""

from __future__ import annotations

from ...timing import Deadline
from ..model import Puzzle, Rules
from .state import State
from .strategy import Outcome


class Refute:
    name = "refute"

    def applies(self, puzzle: Puzzle, rules: Rules) -> bool:
        return True  # (every rule set has checks; each says when it does not apply)

    def run(self, state: State, deadline: Deadline) -> Outcome:
        contradiction = state.kind.refutation(state.puzzle, state.rules, deadline=deadline)
        if contradiction is None:
            return Outcome.nothing()
        state.stats["proof"] = contradiction
        return Outcome.none()


REFUTE = Refute()
