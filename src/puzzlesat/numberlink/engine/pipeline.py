"""The Numberlink pipeline: solve and count as short lists of strategies, run in order on one
:class:`~.state.State` until the answers wanted are found or none more can exist
(docs/numberlink-engine.md, "The pipeline"; the reasons for the order are in
encodings/numberlink.md, "What each rule set runs (solve.py)").

``solve``: the compiled search on a small board, refute, then the first answer. ``count(limit=2)``:

1. ``small-board`` the compiled search on small boards, within a node budget (:mod:`.small_board`;
   it decides "none" itself, faster than the refutations on such boards);
2. ``refute``   a contradiction without search decides "none" (:mod:`.refute`);
3. ``first``    the first answer, or the proof there is none (:mod:`.first`);
4. ``probes``   local second answers next to the first: cheap, no SAT (:mod:`.probes`);
5. ``deciders`` the complete deciders (frontier count, global SAT) as a portfolio, with the
   windows run while they run (:mod:`.portfolio`, :mod:`.windows`, :mod:`.frontier_race`,
   :mod:`.global_sat`);

then, under default rules when nothing decided, the no-self-touch statement
(:mod:`.without_touch`). Counting past two answers enumerates with the global search instead
of step 5; counting to one stops after step 3.

>>> [s.name for s in count_strategies(2)], [s.name for s in SOLVE]
(['small-board', 'refute', 'first', 'probes', 'deciders'], ['small-board', 'refute', 'first'])
>>> from ...timing import Deadline
>>> from ..model import Puzzle, Rules
>>> state = State(Puzzle.from_rows(["...A", ".A..", "...."]), Rules(), solver="cadical195", limit=2, deadline=Deadline(None))
>>> result = count(state, (REFUTE, FIRST, PROBES, DECIDERS))   # (the SAT road alone)
>>> result.count, result.stats["decided_by"], [step[0] for step in result.stats["steps"]]
(2, 'probes:swap', ['refute', 'first', 'probes:swap'])
"""

from __future__ import annotations

from typing import Sequence

from ...results import CountResult, SolveResult
from ..model import Solution
from .first import FIRST
from .portfolio import DECIDERS, ENUMERATE
from .probes import PROBES
from .refute import REFUTE
from .small_board import SMALL_BOARD
from .state import State
from .without_touch import WithoutSelfTouch

SOLVE = (SMALL_BOARD, REFUTE, FIRST)


def count_strategies(limit: int) -> tuple:
    """The strategies of ``count(limit=...)``, in order."""
    if limit == 1:
        return (SMALL_BOARD, REFUTE, FIRST)
    if limit == 2:
        return (SMALL_BOARD, REFUTE, FIRST, PROBES, DECIDERS)
    return (REFUTE, FIRST, PROBES, ENUMERATE)


def run(state: State, strategies: Sequence) -> None:
    """Each strategy that applies, in order, once (one already run on ``state`` is not run
    again), until the state is decided or a complete search ran out of time."""
    ran = {step[0] for step in state.steps}
    for strategy in strategies:
        if state.decided or state.stopped:
            return
        if strategy.name in ran or not strategy.applies(state.puzzle, state.rules):
            continue
        if hasattr(strategy, "run_steps"):  # (a Portfolio: its parts are the steps)
            strategy.run_steps(state)
        else:
            state.step(strategy)


WITHOUT_SELF_TOUCH = WithoutSelfTouch(lambda state: run(state, count_strategies(2)))


def refuted(state: State) -> bool:
    """Run ``refute`` alone (before a child process is started for a big board); on a board the
    compiled search takes, the pipeline runs it after that search instead."""
    if SMALL_BOARD.applies(state.puzzle, state.rules) and state.limit <= 2:
        return False
    run(state, (REFUTE,))
    return state.decided


def solve(state: State) -> SolveResult[Solution]:
    """``solve``'s pipeline on ``state``."""
    try:
        run(state, SOLVE)
        return state.solve_result()
    finally:
        state.close()


def count(state: State, strategies: Sequence | None = None) -> CountResult[Solution]:
    """``count``'s pipeline on ``state`` (``strategies``: another list, for tests), then the
    no-self-touch statement when it applies."""
    try:
        run(state, count_strategies(state.limit) if strategies is None else strategies)
        if WITHOUT_SELF_TOUCH.applies(state.puzzle, state.rules) and WITHOUT_SELF_TOUCH.wanted(state):
            state.step(WITHOUT_SELF_TOUCH)
        return state.count_result()
    finally:
        state.close()
