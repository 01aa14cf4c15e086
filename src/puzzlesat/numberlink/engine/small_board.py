"""``small-board``: the compiled backtracking search (:mod:`..small_search`) on a small one-layer
board under cover-all rules, before any formula is built, within a node budget.

Cover-all + no-self-touch: complete within its budget: run to the end, its 0, 1 or 2 answers
decide "none", "unique" (solve: the answer) or "multiple"; stopped at the budget or the
deadline, it keeps any answer it found and the pipeline goes on (``first`` then finds no need
for a first answer). Default rules (touching allowed): it looks for a first answer that does
not touch itself (an answer under default rules too), which decides nothing else; without the
corner rule its search under default rules is too weak to pay. It applies on boards of at most
SMALL_BOARD_CELLS cells, counts to at most two, and only where the C extension was built
(encodings/numberlink.md, "A compiled search for small boards (_small.c)").
A claim it decides has no proof of its own: certificates (``--proof``, numberlink certify) make
their own SAT proofs.

>>> from ..model import Puzzle, Rules
>>> from .state import State, Deadline
>>> state = State(Puzzle.from_rows(["A..A", "B..B"]), Rules(no_self_touch=True), solver="cadical195", limit=2, deadline=Deadline(None))
>>> SMALL_BOARD.applies(state.puzzle, state.rules) == small_search.AVAILABLE
True
>>> if SMALL_BOARD.applies(state.puzzle, state.rules):
...     print(state.step(SMALL_BOARD).word, len(state.found), state.decided_by)
... else:
...     print("unique", 1, "small-board")
unique 1 small-board
"""

from __future__ import annotations

import time

from ...results import Timings
from ...timing import Deadline
from .. import small_search
from ..model import Puzzle, Rules
from ..search import check_answer, strict
from . import tuning
from .state import State
from .strategy import Outcome


class SmallBoard:
    name = "small-board"

    def applies(self, puzzle: Puzzle, rules: Rules) -> bool:
        return (small_search.AVAILABLE and isinstance(puzzle, Puzzle) and rules.cover_all
                and puzzle.width * puzzle.height <= tuning.SMALL_BOARD_CELLS)

    def run(self, state: State, deadline: Deadline) -> Outcome:
        if state.limit > 2:
            return Outcome.nothing("counts past two are the global search's")
        verdicts = state.rules.no_self_touch  # (default rules: a first answer without touching only)
        budget = tuning.SMALL_BOARD_NODES if state.limit == 2 and verdicts else tuning.SMALL_BOARD_SOLVE_NODES
        start = time.perf_counter()
        found = small_search.search(state.puzzle, strict(state.rules), limit=state.limit if verdicts else 1,
                                    nodes=budget, deadline=deadline)
        state.earlier = state.earlier + Timings(solve=time.perf_counter() - start)
        state.stats["small_board_nodes"] = found.nodes
        detail = f"{found.nodes} nodes"
        if found.answers and not state.found:
            state.stats["first_answer"] = self.name
            state.answer_stats = {"first_answer": self.name, "small_board_nodes": found.nodes}
        if not verdicts:
            if not found.answers:
                return Outcome.nothing(f"no answer without touching in {detail}")
            check_answer(state.puzzle, found.answers[0], state.rules)
            return Outcome.answer(found.answers[0], detail=f"without touching, {detail}")
        answers = [answer for answer in found.answers if answer not in state.found]
        if not found.complete:
            for answer in answers:
                state.add(answer)
            return Outcome.nothing(f"stopped after {detail}")
        if len(state.found) + len(answers) >= state.limit:
            for answer in answers[:-1]:
                state.add(answer)
            return Outcome.answer(answers[-1], detail=detail)
        for answer in answers:
            state.add(answer)
        return Outcome.unique(detail) if state.found else Outcome.none(detail)


SMALL_BOARD = SmallBoard()
