"""Roller as one self-contained DIMACS formula: "a walk of at most K moves paints every floor
cell", time-indexed, for other solvers and for checkable proofs of a minimum.

Rule: the ball slides until a wall, painting every cell it passes (:func:`~.model.slide`, the
one implementation of the rule). Variables (``encodings/roller.md``, "The exported formula"):
``at[t, v]`` the ball stands on stop ``v`` after ``t`` steps; ``move[t, m]`` move ``m`` is made at
step ``t``; ``done[t]`` the walk ended before step ``t`` (the ball stays; once done, done for
good). Each floor cell other than the start is painted by some move at some step: one clause.
The moves (and ``done``) are the answer variables: a model is exactly one walk of at most K
moves that paints everything. Like ``timeindexed.py`` in its ideas, but clauses only: it never
touches a solver.

>>> from puzzlesat.roller.model import Level
>>> from pysat.solvers import Solver
>>> level = Level.from_rows(["#######", "#o....#", "#.###.#", "#.....#", "#######"])
>>> [Solver(bootstrap_with=export_cnf(level, moves=k).clauses).solve() for k in (3, 4)]
[False, True]
>>> cnf = export_cnf(level, moves=4)
>>> with Solver(bootstrap_with=cnf.clauses) as s:
...     walk = s.solve() and decode(cnf, s.get_model())
>>> len(walk)
4
"""

from __future__ import annotations

from collections import deque

from ..sat.dimacs import Builder, bounded_export
from .model import MOVES, Level, slide
from .stopgraph import StopGraph


def _cell(c) -> str:
    return f"({c[0]},{c[1]})"


def export_cnf(level: Level, *, moves: int):
    """The formula "some walk of at most ``moves`` moves from the start paints every floor cell"
    as a ``pysat.formula.CNF`` with a comment line per variable."""
    if moves < 0:
        raise ValueError(f"moves must be a whole number >= 0, not {moves!r}")
    b = Builder(f"roller {level.width}x{level.height} start {_cell(level.start)}: a walk of at most {moves} moves paints every floor cell")
    b.note("answer variables: the moves of each step and the done flags; a move's line names its step, direction and stops")
    start = level.start
    reach = [{start}]  # stops the ball can stand on after t steps (a walk may end early: sets grow)
    painters: dict = {c: [] for c in level.floor_cells if c != start}
    step_painters: list[dict] = [{}]  # per step t: cell -> the moves of step t that paint it
    answer = []
    b.add([b.var(("at", 0, start), f"ball at {_cell(start)} after step 0")])
    for t in range(1, moves + 1):
        done = b.var(("done", t), f"the walk has ended before step {t} (no move at step {t})")
        step_painters.append({})
        answer.append(done)
        if t > 1:
            b.add([-b.var(("done", t - 1), ""), done])
        here = set(reach[-1])
        into: dict = {}
        step_moves = []
        for tail in sorted(reach[-1]):
            at_tail = b.var(("at", t - 1, tail), "")
            b.add([-done, -at_tail, b.var(("at", t, tail), f"ball at {_cell(tail)} after step {t}")])
            out = []
            for direction in MOVES:
                head, painted = slide(level, tail, direction)
                if not painted:
                    continue
                m = b.var(("move", t, tail, direction), f"step {t} rolls {direction} from {_cell(tail)} to {_cell(head)}")
                out.append(m)
                step_moves.append(m)
                answer.append(m)
                b.add([-m, at_tail])
                b.add([-m, b.var(("at", t, head), f"ball at {_cell(head)} after step {t}")])
                into.setdefault(head, []).append(m)
                here.add(head)
                for c in painted:
                    if c != start:
                        painters[c].append(m)
                        step_painters[-1].setdefault(c, []).append(m)
            for i in range(len(out)):
                for j in range(i + 1, len(out)):
                    b.add([-out[i], -out[j]])
        for m in step_moves:
            b.add([-done, -m])
        b.add([done] + step_moves)
        for v in sorted(here):  # standing on v: a move into v, or done and v was the place before
            at_v = b.var(("at", t, v), f"ball at {_cell(v)} after step {t}")
            stayed = b.var(("stay", t, v), f"the walk has ended and the ball stays at {_cell(v)} at step {t}") if v in reach[-1] else None
            b.add([-at_v] + into.get(v, []) + ([stayed] if stayed else []))
            if stayed:
                b.add([-stayed, done])
                b.add([-stayed, b.var(("at", t - 1, v), "")])
        positions = [b.var(("at", t, v), "") for v in sorted(here)]
        b.add(positions)  # implied: exactly one position (one-hot by induction, said outright)
        b.at_most_one(positions, f"positions after step {t}")
        reach.append(here)
    _implied_painting(b, StopGraph.of(level), reach, step_painters, moves)
    for c, ms in painters.items():
        b.add(ms)  # empty (unsatisfiable) when no walk this short can paint c
    return b.cnf(answer=answer)


def _implied_painting(b: Builder, graph: StopGraph, reach: list, step_painters: list, moves: int) -> None:
    """``painted[t, c]`` for each key cell (painted by a move of step ``t`` or before), true at
    step ``moves``, and the deadline rows: ``at[t, v] => painted[t, c]`` when no walk from ``v``
    paints ``c`` within ``moves - t`` moves (none at all: the distance is infinite)."""
    into: dict = {}
    for m in graph.moves:
        into.setdefault(m.head, []).append(m.tail)
    for c in graph.key_cells:
        painted = [b.var(("painted", t, c), f"cell {_cell(c)} is painted by step {t}") for t in range(1, moves + 1)]
        for t, p in enumerate(painted, 1):
            now = step_painters[t].get(c, []) + ([painted[t - 2]] if t > 1 else [])
            b.add([-p] + now)
            for x in now:
                b.add([-x, p])
        if painted:
            b.add([painted[-1]])
        far = {graph.moves[i].tail: 1 for i in graph.painting_moves[c]}  # fewest moves from a stop until c is painted
        todo = deque(far)
        while todo:
            v = todo.popleft()
            for u in into.get(v, ()):
                if u not in far:
                    far[u] = far[v] + 1
                    todo.append(u)
        for t in range(moves + 1):
            for v in sorted(reach[t]):
                if far.get(v, moves + 1) > moves - t:
                    b.add([-b.var(("at", t, v), "")] + ([painted[t - 1]] if t else []))


def decode(cnf, model) -> str:
    """The walk (``"RDLU"``...) a model of :func:`export_cnf`'s formula makes."""
    true = {v for v in model if v > 0}
    steps = []
    for line in cnf.comments:
        parts = line.split()
        if len(parts) > 6 and parts[:2] == ["c", "var"] and parts[3] == "step" and parts[5] == "rolls" and int(parts[2]) in true:
            steps.append((int(parts[4]), parts[6]))
    return "".join(direction for _, direction in sorted(steps))


family_export = bounded_export(export_cnf)  # the family record's export_cnf
