"""``first``: the first answer, by the cheapest road that finds one, then the SAT search.

Default rules (cover-all, touching allowed): on a board of more than FILL_MIN_CELLS cells an
answer drawn without a formula (:mod:`..fill`); else an answer of the no-self-touch formula
(usually at once), or when there is none one that touches itself only inside a window.
Cover-all + no-self-touch: on a board of more than WALK_MIN_CELLS cells an answer drawn along
the walls (:mod:`..hug`).
May-leave-empty: an answer that covers every cell (the strong formula, briefly), then the
router (:mod:`..routing`). When none of these finds one, the shared SAT search (the state's,
whose learnt clauses the later strategies keep) finds the first answer or proves there is none
(encodings/numberlink.md, "What each rule set runs (solve.py)").
On a stack of layers only the router (may-leave-empty, no vias) and the SAT search run: the
other steps read one grid (encodings/numberlink-multilayer.md, "Notes moved from
the code").

>>> from ..model import Puzzle, Rules
>>> from .state import State
>>> state = State(Puzzle.from_rows(["A.A", "B.B"]), Rules(), solver="cadical195", limit=2, deadline=Deadline(None))
>>> str(state.step(FIRST)), state.found[0].path("A")
('answer (no-self-touch)', ((0, 0), (0, 1), (0, 2)))
>>> state = State(Puzzle.from_rows(["A.A", "...", "B.B"]), Rules(), solver="cadical195", limit=2, deadline=Deadline(None))
>>> str(state.step(FIRST)), state.decided_by   # (the full formula proves there is none)
('none (sat)', 'first')
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np

from ...results import SolveResult, Status, Timings
from ...timing import Deadline
from .. import fill, hug, routing
from ..model import Puzzle, Rules, Solution
from ..search import Search, check_answer, strict
from . import tuning
from .state import State
from .strategy import Outcome
from .windows import window_masks


class First:
    name = "first"

    def applies(self, puzzle: Puzzle, rules: Rules) -> bool:
        return True

    def run(self, state: State, deadline: Deadline) -> Outcome:
        if state.found:  # (the compiled search found one before it stopped)
            return Outcome.nothing("an answer is found")
        found = self._without_the_search(state, deadline)
        if found is not None:
            return found
        search = state.search()
        if search is None:
            return Outcome.unknown("no formula in time")
        if not state.rules.cover_all and state.limit <= 2 and state.one_layer:
            status, solution = search.answer_with_few_empty()
        else:  # (full counts cut the cycles as they come; a stack's solve drops them)
            status, solution = search.next_answer(drop_cycles=not state.rules.cover_all and state.verb == "solve")
        if status is Status.SOLVED:
            return Outcome.answer(solution, detail="sat")
        return Outcome.none("sat") if status is Status.UNSATISFIABLE else Outcome.unknown("time limit")

    def _without_the_search(self, state: State, deadline: Deadline) -> Outcome | None:
        """The first answer by the steps before the shared search, or None. ``solve`` keeps the
        stats (and method) of the step that found it, ``count`` only its name."""
        puzzle, rules = state.puzzle, state.rules
        first = _first_answer_default(puzzle, rules, state.solver, deadline) if state.one_layer else None
        if first is not None:
            state.earlier = state.earlier + first.timings
            if "first_answer" in first.stats:
                state.stats["first_answer"] = first.stats["first_answer"]
            if first.solved:
                state.answer_stats = dict(first.stats)
                return Outcome.answer(first.solution, detail=first.stats.get("first_answer", "no-self-touch"))
        if rules.cover_all:
            return None
        start = time.perf_counter()
        covering = _covering_first(puzzle, rules, state.solver, deadline) if state.one_layer else None
        state.earlier = state.earlier + Timings(solve=time.perf_counter() - start)
        if covering is not None:
            state.stats["first_answer"] = "covering"
            state.answer_stats = {"first_answer": "covering"}
            return Outcome.answer(covering, detail="covering")
        # (under every may-leave-empty rule set, solve and count: encodings/numberlink-multilayer.md,
        # "Through the engine pipeline". The router knows no via rules.)
        if not len(puzzle.board.via_edges):
            start = time.perf_counter()
            routed = _route(state, deadline)
            state.earlier = state.earlier + Timings(solve=time.perf_counter() - start)
            if routed is not None:
                state.stats["first_answer"] = "route"
                state.answer_stats, state.answer_method = {"first_answer": "route"}, "route"
                return Outcome.answer(routed, detail="route")
        return None


FIRST = First()


def _touching_in_a_window(puzzle: Puzzle, rules: Rules, solver: str, deadline: Deadline) -> Solution | None:
    """Cover-all with touching allowed, when no answer avoids touching: an answer whose paths
    touch themselves only inside one window, if the windows hold one (None otherwise).

    The no-self-touch formula with a selector per edge (:func:`~..encoding.encode` with
    ``touch_selectors``) is searched once per window with the selectors outside the window
    assumed: the strong formula everywhere but in the window. A model is an answer under
    ``rules``. Published puzzles that need touching usually need it in one spot (e.g. a path
    beside its own endpoint; encodings/numberlink.md, "Notes from solve.py")."""
    if puzzle.width * puzzle.height > tuning.MAX_WINDOW_CELLS:
        return None
    search = Search(puzzle, rules, solver, deadline, formula_rules=strict(rules), touch_selectors=True)
    try:
        if not search.ready:
            return None
        assert search.encoding is not None
        selectors = search.encoding.touch_selectors
        for inside, conflicts in window_masks(search, tuning.TOUCH_WINDOWS):
            found = search.bounded_answer((selectors + np.flatnonzero(~inside)).tolist(), conflicts)
            if found is not None or search.deadline.expired():
                return found
        return None
    finally:
        search.close()


def _route(state: State, deadline: Deadline) -> Solution | None:
    """May-leave-empty: an answer by negotiated-congestion routing (:mod:`..routing`, on one
    layer or a stack without vias) before SAT, its paths shrunk to no touching under
    no-self-touch rules and verified; None when the router gives up (it proves nothing).
    Routing problems with much empty space (the ADC sets) are often solved this way at once
    where the SAT search is lost. (Its paths share no cell and enter no other endpoint, so a
    rejected answer is a bug: raised, as for SAT answers.)"""
    puzzle = state.puzzle
    stop = time.perf_counter() + routing.route_budget(deadline.remaining(), cells=state.cells)
    paths = routing.route(puzzle.free_mask(), [(pair.label, pair.start, pair.end) for pair in puzzle.pairs], stop)
    if paths is None:
        return None
    cut = routing.shrink if state.rules.no_self_touch else tuple
    solution = state.kind.search.solution_type(tuple((label, cut(cells)) for label, cells in paths.items()))
    state.check(solution)
    return solution


def take_known(state: State, solution) -> None:
    """Take an answer already at hand (checked by the caller) as the first: the step ``first``
    (so the pipeline does not look for another), ``stats["first_answer"]`` "known"."""
    state.stats["first_answer"] = "known"
    state.step(FIRST, run=lambda: Outcome.answer(solution, detail="known"))


def _without_touching_first(puzzle: Puzzle, rules: Rules, solver: str, deadline: Deadline) -> SolveResult[Solution] | None:
    """Cover-all with touching allowed: first look for an answer that does not touch itself.
    The no-self-touch formula has a strong extra clause (no three edges in a 2x2 block) and is
    usually solved at once; its answers are answers under ``rules`` too. It gets half the
    remaining time (at most 10 s plus 20 s per million cells). None for other rule sets."""
    if rules.no_self_touch or not rules.cover_all:
        return None
    remaining = deadline.remaining()
    budget = tuning.NO_TOUCH_FIRST_SECONDS + tuning.NO_TOUCH_FIRST_SECONDS_PER_CELL * puzzle.width * puzzle.height
    if remaining is not None:
        budget = min(budget, remaining / 2)
    search = Search(puzzle, rules, solver, Deadline(budget), formula_rules=strict(rules))
    try:
        if not search.ready:
            return SolveResult(Status.UNKNOWN, timings=search.timings())
        status, solution = search.next_answer()
        return SolveResult(status, solution, timings=search.timings(), stats=search.stats())
    finally:
        search.close()


def drawn_board(puzzle: Puzzle, rules: Rules) -> bool:
    """Whether answers are first drawn without a formula (:mod:`..fill`): default rules (cover-all,
    touching allowed) on a board of more than FILL_MIN_CELLS cells."""
    return rules.cover_all and not rules.no_self_touch and puzzle.width * puzzle.height > tuning.FILL_MIN_CELLS


def fill_budget(deadline: Deadline) -> float:
    """Seconds for :mod:`..fill` on a large board: FILL_SECONDS, at most a third of the time left."""
    remaining = deadline.remaining()
    return tuning.FILL_SECONDS if remaining is None else min(tuning.FILL_SECONDS, remaining / 3)


def _drawn_first(puzzle: Puzzle, rules: Rules, deadline: Deadline) -> Solution | None:
    """Default rules on a board of more than FILL_MIN_CELLS cells: an answer drawn without a
    formula (:func:`..fill.route_and_fill`), verified; None for other boards and rule sets, or
    when none is drawn (which proves nothing)."""
    if not drawn_board(puzzle, rules):
        return None
    drawn = fill.route_and_fill(puzzle, stop=time.perf_counter() + fill_budget(deadline))
    if drawn is not None:
        check_answer(puzzle, drawn, rules)
    return drawn


def _walked_first(puzzle: Puzzle, rules: Rules, deadline: Deadline) -> Solution | None:
    """Cover-all + no-self-touch on a board of more than WALK_MIN_CELLS cells: an answer drawn
    by wall-following heads (:func:`..hug.wall_walk`), verified; None for other boards and rule
    sets, or when none is drawn (which proves nothing: the SAT search runs as before)."""
    if not (rules.cover_all and rules.no_self_touch and puzzle.width * puzzle.height > tuning.WALK_MIN_CELLS):
        return None
    walked = hug.wall_walk(puzzle, stop=time.perf_counter() + fill_budget(deadline))
    if walked is not None:
        check_answer(puzzle, walked, rules)
    return walked


def _first_answer_default(puzzle: Puzzle, rules: Rules, solver: str, deadline: Deadline) -> SolveResult[Solution] | None:
    """Cover-all with touching allowed: on a large board an answer drawn without a formula
    (:func:`_drawn_first`); else an answer without touching (:func:`_without_touching_first`),
    or, when there is none, one that touches only inside a window (:func:`_touching_in_a_window`).
    Cover-all + no-self-touch: on a large board an answer drawn along the walls
    (:func:`_walked_first`), the only step. None for other rule sets (and when nothing is
    drawn); UNKNOWN / UNSATISFIABLE results say only that neither step found one."""
    start = time.perf_counter()
    drawn = _drawn_first(puzzle, rules, deadline)
    if drawn is not None:
        return SolveResult(Status.SOLVED, drawn, timings=Timings(solve=time.perf_counter() - start), stats={"first_answer": "route-fill"})
    walked = _walked_first(puzzle, rules, deadline)
    if walked is not None:
        return SolveResult(Status.SOLVED, walked, timings=Timings(solve=time.perf_counter() - start), stats={"first_answer": "wall-walk"})
    first = _without_touching_first(puzzle, rules, solver, deadline)
    if first is None or first.status is not Status.UNSATISFIABLE:
        return first
    start = time.perf_counter()
    touching = _touching_in_a_window(puzzle, rules, solver, deadline)
    timings = first.timings + Timings(solve=time.perf_counter() - start)
    if touching is None:
        return dataclasses.replace(first, timings=timings)
    return SolveResult(Status.SOLVED, touching, timings=timings, stats={"first_answer": "touching-window"})


def _covering_first(puzzle: Puzzle, rules: Rules, solver: str, deadline: Deadline) -> Solution | None:
    """May-leave-empty: first look briefly for an answer that covers every cell and does not
    touch itself (the strong cover-all no-self-touch formula); it is an answer under ``rules``.
    Published may-leave-empty puzzles often have one, found at once where the may-leave-empty
    formula is slow (encodings/numberlink.md, "Notes from solve.py"); otherwise the formula is
    usually refuted at once. At most COVER_FIRST_SECONDS and a sixth of the time."""
    remaining = deadline.remaining()
    budget = tuning.COVER_FIRST_SECONDS if remaining is None else min(tuning.COVER_FIRST_SECONDS, remaining / 6)
    search = Search(puzzle, rules, solver, Deadline(budget), formula_rules=Rules(cover_all=True, no_self_touch=True))
    try:
        if not search.ready:
            return None
        status, solution = search.next_answer()
        return solution if status is Status.SOLVED else None
    finally:
        search.close()
