"""The SAT search of a stack of layers: the shared :class:`~..search.SatSearch` on the stack's
formula (the one-layer :mod:`..encoding` over the stack's Board), its answers of the stack's
type checked by the stack's :func:`~.verify.verify`. The engine's
:class:`~..engine.state.State` makes it for a layered board (``Board.layered``).

>>> from puzzlesat.timing import Deadline
>>> from puzzlesat.numberlink.model import Rules
>>> from puzzlesat.numberlink.multilayer.model import Puzzle
>>> search = StackSearch(Puzzle.from_layers([["A..", "BB."], ["...", ".A."]]), Rules(), "cadical195", Deadline(None))
>>> status, answer = search.next_answer()
>>> status.value, len(answer.path("A"))
('solved', 10)
>>> search.block(answer); search.next_answer()[0].value
'unsatisfiable'
>>> search.close()
"""

from __future__ import annotations

from ...timing import Deadline
from ..encoding import Encoding
from ..encoding import encode as _encode
from ..search import SatSearch
from .model import Solution
from .verify import verify


class StackSearch(SatSearch):
    """One formula of a stack in one incremental solver, yielding verified cycle-free answers."""

    solution_type = Solution
    checker = staticmethod(verify)
    preferred = False  # the phases are set to an answer's

    def _build(self, deadline: Deadline) -> Encoding:
        return _encode(self.puzzle, self.formula_rules, deadline=deadline)

    def prefer(self, solution: Solution) -> None:
        super().prefer(solution)
        self.preferred = True

    def before_second(self, first: Solution) -> None:
        """May-leave-empty with touching allowed, before the search for a second answer: the
        phases set to the first answer (the corner and bump clauses of one layer read a grid's
        2x2 blocks; a stack's second answers are its no-self-touch models and detours,
        multilayer/solve.py)."""
        if not self.preferred:
            self.prefer(first)
