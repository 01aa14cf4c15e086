"""The search's upper-bound helpers keep the answers exact: beam plans are valid and, wide
enough, reach the breadth-first minimum; the A* run in slices, told of plans in between, still
returns the breadth-first minimum; ``solve`` with the wide-beam phase forced on every level
still agrees with breadth-first search and ``verify``."""

from __future__ import annotations

import importlib
import random

import pytest

from puzzlesat.results import Status
from puzzlesat.swap.model import Goal, Level
from puzzlesat.swap.compiled import Task
from puzzlesat.swap.generate import draw_level
from puzzlesat.swap.search import Search, beam_plan, replay, search
from puzzlesat.swap.solve import solve, to_moves
from puzzlesat.swap.verify import verify

from .test_bounds import distances_to_goal, small_levels

solve_module = importlib.import_module("puzzlesat.swap.solve")  # the module (the package exports the function)


def level_of(task) -> Level:
    """The :class:`Level` a small compiled task came from (for ``verify``)."""
    rows = [["###"] * task.width for _ in range(task.height)]
    for (r, c), k in zip(task.cells, task.start):
        figure, scope, colour = task.classes[k]
        rows[r][c] = f"{figure}{scope}{colour}"
    text_rows = [" ".join(row) for row in rows]
    if task.goal == "match":
        goal = [["#"] * task.width for _ in range(task.height)]
        for (r, c), x in zip(task.cells, task.goal_colours):
            goal[r][c] = task.colours[x]
        return Level.from_rows(text_rows, goal=[" ".join(row) for row in goal])
    level = Level.from_rows(text_rows, goal="cluster")
    return level if task.goal == "cluster" else Level(level.start, Goal.touch())


@pytest.mark.parametrize("goal", ["match", "cluster"])
def test_beam_plans_are_valid_and_a_full_width_beam_finds_the_minimum(goal):
    """A beam as wide as the state space is a breadth-first search pruned by the admissible
    bound: it must find a plan of the minimum length; a narrow one returns valid plans only,
    never longer than asked, and never shorter than the minimum."""
    checked = 0
    for task, graph in small_levels(goal, 25, seed={"match": 31, "cluster": 32}[goal]):
        dist = distances_to_goal(task, graph)
        start = tuple(task.start)
        if start not in dist or dist[start] == 0:
            continue
        minimum = dist[start]
        plan = beam_plan(task, length=minimum, width=len(graph))
        assert plan is not None and len(plan) == minimum
        assert task.is_goal(replay(task, plan))
        assert verify(level_of(task), to_moves(task, plan)) == []
        assert beam_plan(task, length=minimum - 1, width=len(graph)) is None
        narrow = beam_plan(task, length=minimum + 3, width=2)
        if narrow is not None:
            assert minimum <= len(narrow) <= minimum + 3
            assert verify(level_of(task), to_moves(task, narrow)) == []
        checked += 1
    assert checked >= 15


def test_search_in_slices_with_plans_handed_over_finds_the_minimum():
    """Run in slices of a millisecond (the queue and table carry over), its lower bound never
    falls and never passes the minimum; handing over a longer plan, then a minimal one, keeps
    the answer the breadth-first minimum."""
    checked = 0
    for task, graph in small_levels("match", 20, seed=33):
        dist = distances_to_goal(task, graph)
        start = tuple(task.start)
        if start not in dist or dist[start] < 2:
            continue
        minimum = dist[start]
        run = Search(task)
        bound = run.lower_bound()
        for _ in range(100_000):
            outcome = run.run(0.001)
            if outcome.status != "unknown":
                break
            assert bound <= run.lower_bound() <= minimum
            bound = run.lower_bound()
        assert outcome.status == "solved" and len(outcome.swaps) == minimum

        told = Search(task)
        longer = beam_plan(task, length=minimum + 4, width=1)
        if longer is not None:
            told.improve(longer)
        told.improve(outcome.swaps)
        told.improve(longer or outcome.swaps)  # a longer plan later changes nothing
        again = told.run(None)
        assert again.status == "solved" and len(again.swaps) == minimum
        checked += 1
    assert checked >= 10


def test_solve_with_the_wide_beam_phase_on_every_level(monkeypatch):
    """With no time for the first proof slice and no cheap beams, every level the quick plan
    does not settle goes through the wide beams at the proven bound and the resumed proof: the
    minima stay those of the plain A* (no plans handed over), and every answer passes verify."""
    monkeypatch.setattr(solve_module, "PROBE_SECONDS", 0.0)
    monkeypatch.setattr(solve_module, "PROBE_SHARE", 0.0)
    monkeypatch.setattr(solve_module, "BEAM_WIDTHS", ())
    rng = random.Random(35)
    widened = 0
    for _ in range(16):
        level = draw_level(rng, goal="match", size=rng.choice([(4, 4), (4, 5), (5, 4)]))
        plain = search(Task.from_level(level), time_limit=20)
        if plain.status == "unknown":
            continue
        result = solve(level, time_limit=30)
        if plain.status == "unsatisfiable":
            assert result.status is Status.UNSATISFIABLE
            continue
        assert result.status is Status.SOLVED and result.optimal
        assert len(result.solution) == len(plain.swaps) == result.lower_bound
        assert verify(level, result.solution) == []
        widened += "wide_beam_plan" in result.stats
    assert widened >= 3, widened


def test_when_the_quick_plan_finds_nothing_beams_give_a_first_plan(monkeypatch):
    """No quick plan (as on the 7x6 levels 012, 023, 027): beams with a loose length find a
    plan, the proof goes on from it, and the minima stay those of plain A*."""
    search_module = importlib.import_module("puzzlesat.swap.search")
    monkeypatch.setattr(search_module, "quick_plan", lambda *args, **kwargs: None)
    rng = random.Random(36)
    first = 0
    for _ in range(8):
        level = draw_level(rng, goal="match", size=rng.choice([(4, 4), (4, 5)]))
        plain = search(Task.from_level(level), time_limit=20)
        if plain.status != "solved":
            continue
        result = solve(level, time_limit=30)
        assert result.status is Status.SOLVED and result.optimal and len(result.solution) == len(plain.swaps)
        assert verify(level, result.solution) == []
        first += "beam_first_plan" in result.stats
    assert first >= 3, first


def test_step_cost_keys_bytewise_and_bit_packed_agree():
    """The step-cost keys are one byte per cell (a byte translation of the state); the
    bit-packed fallback (for more than 254 classes) gives the same bound on every state met."""
    from puzzlesat.swap.stepcost import StepCostBound, half_costs

    rng = random.Random(36)
    for _ in range(6):
        task = Task.from_level(draw_level(rng, goal="match", size=(4, 5)))
        bytewise = StepCostBound(task, costs=half_costs(task))
        packed = StepCostBound(task, costs=half_costs(task))
        assert bytewise.bytewise
        packed.bytewise, packed.bits = False, (len(task.classes) + 1).bit_length()
        packed.field = (1 << packed.bits) - 1
        packed.shift = [[(k + 1) << (i * packed.bits) for i in range(len(task.cells))] for k in range(len(task.classes))]
        state = list(task.start)
        for _ in range(100):
            i, j = rng.randrange(len(state)), rng.randrange(len(state))
            state[i], state[j] = state[j], state[i]
            assert bytewise.bound(state) == packed.bound(state)
