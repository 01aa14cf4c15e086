"""Swap as one self-contained DIMACS formula: "a plan of at most K swaps reaches the goal", for
other solvers and for checkable proofs of a minimum. Goals ``match``, ``touch`` and ``cluster``
(one connected group per colour: a rooted spanning tree per colour on the final board).

Variables (``encodings/swap.md``, "The exported formula"): ``occ[t, c, s]`` cell ``c`` holds a
square of kind ``s`` (figure, scope, colour) after ``t`` swaps; ``swap[t, {u, v}]`` the swap of
step ``t``; ``done[t]`` the plan ended before step ``t``. A swap needs, before it, a square at
one end that reaches the other end (:func:`~.moves.reachable`, the rule's one implementation);
it exchanges the two cells' kinds; every other cell keeps its kind. The swaps and ``done`` are
the answer variables: a model is exactly one plan of at most K swaps ending on the goal.

>>> from puzzlesat.swap.model import Level
>>> from pysat.solvers import Solver
>>> level = Level.from_rows(["T1R B1G", "T1G T1R"], goal=["R G", "R G"])
>>> [Solver(bootstrap_with=export_cnf(level, moves=k).clauses).solve() for k in (0, 1)]
[False, True]
>>> cnf = export_cnf(level, moves=1)
>>> with Solver(bootstrap_with=cnf.clauses) as s:
...     [str(m) for m in s.solve() and decode(level, cnf, s.get_model())]
['1,0>1,1']
"""

from __future__ import annotations

from ..sat.dimacs import Builder, bounded_export
from .model import Move, apply_swap, as_board
from .moves import reachable, reaches


def _cell(c) -> str:
    return f"({c[0]},{c[1]})"


def export_cnf(level, *, moves: int):
    """The formula "some plan of at most ``moves`` swaps from the start board reaches the goal"
    as a ``pysat.formula.CNF`` with a comment line per variable."""
    if moves < 0:
        raise ValueError(f"moves must be a whole number >= 0, not {moves!r}")
    board = as_board(level)
    cells = [(r, c) for r, row in enumerate(board) for c, sq in enumerate(row) if sq is not None]
    kinds = sorted({board[r][c] for r, c in cells}, key=str)
    b = Builder(f"swap {len(board[0])}x{len(board)} goal {level.goal.kind}: a plan of at most {moves} swaps reaches the goal")
    b.note("answer variables: the swap of each step and the done flags")

    def occ(t, c, s):
        return b.var(("occ", t, c, str(s)), f"cell {_cell(c)} holds {s} after step {t}")

    # which kind standing on u reaches v (walls never move, so this is fixed)
    reach = {}
    for u in cells:
        for s in kinds:
            trial = tuple(tuple(s if (r, c) == u else sq for c, sq in enumerate(row)) for r, row in enumerate(board))
            for v in reachable(trial, u):
                reach.setdefault(tuple(sorted((u, v))), []).append((u, s))
    pairs = sorted(reach)
    for c in cells:
        for s in kinds:
            b.add([occ(0, c, s) if board[c[0]][c[1]] == s else -occ(0, c, s)])
    answer = []
    for t in range(1, moves + 1):
        done = b.var(("done", t), f"the plan has ended before step {t} (no swap at step {t})")
        answer.append(done)
        if t > 1:
            b.add([-b.var(("done", t - 1), ""), done])
        step = []
        touching = {c: [] for c in cells}
        for u, v in pairs:
            m = b.var(("swap", t, u, v), f"step {t} swaps {_cell(u)} and {_cell(v)}")
            step.append(m)
            answer.append(m)
            touching[u].append(m)
            touching[v].append(m)
            b.add([-m] + [occ(t - 1, at, s) for at, s in reach[(u, v)]])
            for s in kinds:
                for a, z in ((u, v), (v, u)):
                    b.add([-m, -occ(t, a, s), occ(t - 1, z, s)])
                    b.add([-m, occ(t, a, s), -occ(t - 1, z, s)])
        for c in cells:
            for s in kinds:
                b.add([-occ(t, c, s), occ(t - 1, c, s)] + touching[c])
                b.add([occ(t, c, s), -occ(t - 1, c, s)] + touching[c])
        b.add([done] + step)
        b.at_most_one([done] + step, f"swaps of step {t}")
    _goal(b, level, cells, kinds, occ, moves)
    return b.cnf(answer=answer)


def _goal(b: Builder, level, cells, kinds, occ, t: int) -> None:
    if level.goal.kind == "cluster":
        _cluster(b, cells, kinds, occ, t)
        return
    if level.goal.kind == "match":
        for r, c in cells:
            for s in kinds:
                if s.colour != level.goal.colours[r][c]:
                    b.add([-occ(t, (r, c), s)])
        return
    cell_set = set(cells)  # touch: every square has an orthogonal neighbour of its colour
    for r, c in cells:
        near = [n for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if n in cell_set]
        for s in kinds:
            b.add([-occ(t, (r, c), s)] + [occ(t, n, o) for n in near for o in kinds if o.colour == s.colour])


def _cluster(b: Builder, cells, kinds, occ, t: int) -> None:
    """Each colour's squares form one orthogonally connected group after step ``t``: ``y[c, k]``
    cell ``c`` holds colour ``k``; each colour has at most one *root*, and every other cell of the
    colour a *parent*, a neighbour of its colour of smaller *rank* (binary, most significant bit
    first). Sound: a connected colour is spanned by a tree from any of its cells. Complete: in a
    colour of two groups, each group's cell of least rank has no parent, so both are roots."""
    cell_set = set(cells)
    colours = sorted({s.colour for s in kinds})
    bits = max(1, (len(cells) - 1).bit_length())

    def y(c, k):
        return b.var(("colour", c, k), f"cell {_cell(c)} holds colour {k} after step {t}")

    def rank(c, i):
        return b.var(("rank", c, i), f"bit {i} (of {bits}, most significant first) of the rank of {_cell(c)}")

    for c in cells:
        for k in colours:
            same = [occ(t, c, s) for s in kinds if s.colour == k]
            b.add([-y(c, k)] + same)
            for o in same:
                b.add([y(c, k), -o])
    roots = {k: [b.var(("root", c, k), f"cell {_cell(c)} is the root of colour {k}") for c in cells] for k in colours}
    for k in colours:
        for c, root in zip(cells, roots[k]):
            b.add([-root, y(c, k)])
        b.at_most_one(roots[k], f"roots of colour {k}")
    for index, c in enumerate(cells):
        parents = []
        for n in ((c[0] - 1, c[1]), (c[0] + 1, c[1]), (c[0], c[1] - 1), (c[0], c[1] + 1)):
            if n not in cell_set:
                continue
            p = b.var(("parent", c, n), f"the parent of {_cell(c)} is {_cell(n)}")
            parents.append(p)
            for k in colours:
                b.add([-p, -y(c, k), y(n, k)])
            b.less_than(p, [rank(n, i) for i in range(bits)], [rank(c, i) for i in range(bits)], ("less", c, n),
                        f"rank of {_cell(n)} < rank of {_cell(c)}")
        for k in colours:
            b.add([-y(c, k), roots[k][index]] + parents)


def decode(level, cnf, model) -> list[Move]:
    """The plan a model of :func:`export_cnf`'s formula makes, each move named mover first."""
    true = {v for v in model if v > 0}
    steps = []
    for line in cnf.comments:
        parts = line.split()
        if len(parts) > 7 and parts[:2] == ["c", "var"] and parts[3] == "step" and parts[5] == "swaps" and int(parts[2]) in true:
            steps.append((int(parts[4]), _parse(parts[6]), _parse(parts[8])))
    board, plan = as_board(level), []
    for _, u, v in sorted(steps):
        plan.append(Move(u, v) if reaches(board, u, v) else Move(v, u))
        board = apply_swap(board, u, v)
    return plan


def _parse(text: str) -> tuple[int, int]:
    r, c = text.strip("()").split(",")
    return int(r), int(c)


family_export = bounded_export(export_cnf)  # the family record's export_cnf
