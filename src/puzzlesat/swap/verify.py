"""Check a move sequence against the Swap rules, independently of the solvers and of
:mod:`puzzlesat.swap.moves`: replay each swap from the level's start and name what is wrong.

A swap ``r1,c1>r2,c2`` is legal when the square at one end reaches the other end: the two
cells lie along one direction of its figure (tower orthogonal, bishop diagonal, queen both), at
a distance of at most its scope, with no wall at the target or strictly between (squares in
between do not block). Either order of writing a legal swap is accepted.

Violations (:class:`puzzlesat.family.Violation`, printed ``code: message``) have these codes, in
the order they are checked for each move (``step`` is the move's 1-based number, which the
message names too; for the goal it is the number of moves replayed):

- ``bad-notation``: not ``r1,c1>r2,c2``, or both cells the same
- ``off-board``: a cell outside the board
- ``wall``: a wall at an end, or (for the best-placed mover) a wall strictly between
- ``out-of-range``: along a direction of the figure, but farther than its scope
- ``wrong-direction``: not along any direction of either square's figure
- ``goal-not-reached``: after the last move the goal does not hold (mismatch count, cluster
  count or lonely squares in the message)

Replay stops at the first illegal move. An empty list means the sequence is a valid solution.

>>> from .model import Level
>>> level = Level.from_rows(["T1R B1G", "T1G T1R"], goal=["R G", "R G"])
>>> verify(level, ["1,0>1,1"])
[]
>>> [v.code for v in verify(level, "0,0>1,1")]   # a tower cannot move diagonally
['wrong-direction']
>>> [(v.code, v.step) for v in verify(level, [])]
[('goal-not-reached', 0)]
>>> print(verify(level, ["0,0>0,2"])[0])
off-board: move 1 (0,0>0,2): cell 0,2 is off the board of 2 row(s) and 2 column(s)
"""

from __future__ import annotations

import re
from typing import Iterable, Optional, Sequence, Union

from ..errors import require_type
from ..family import Violation
from ..grid import Cell, is_whole_number
from ..results import solve_result_hint
from .model import Board, Level, Move

ORTHOGONAL = {(-1, 0), (1, 0), (0, -1), (0, 1)}
DIAGONAL = {(-1, -1), (-1, 1), (1, -1), (1, 1)}
DIRECTIONS = {"T": ORTHOGONAL, "B": DIAGONAL, "Q": ORTHOGONAL | DIAGONAL}
NOTATION = re.compile(r"^\s*([0-9]+)\s*,\s*([0-9]+)\s*>\s*([0-9]+)\s*,\s*([0-9]+)\s*$")

CODES = {
    "bad-notation": "a move is not written r1,c1>r2,c2, or names one cell twice",
    "off-board": "a move names a cell off the board",
    "wall": "a move names a wall cell",
    "out-of-range": "neither square reaches the other cell: it lies beyond its scope or behind a wall",
    "wrong-direction": "neither square's figure moves that way (tower orthogonal, bishop diagonal)",
    "goal-not-reached": "the moves are legal but end short of the goal",
}


def _read_move(move: Union[Move, str]) -> Optional[tuple[Cell, Cell]]:
    if isinstance(move, Move):
        cells = (tuple(move.source), tuple(move.target))
        if all(len(cell) == 2 and all(is_whole_number(x) for x in cell) for cell in cells):
            return tuple((int(cell[0]), int(cell[1])) for cell in cells)  # type: ignore[return-value]  (numpy integers too)
        return None
    if not isinstance(move, str):
        return None
    match = NOTATION.match(move)
    if not match:
        return None
    r1, c1, r2, c2 = (int(x) for x in match.groups())
    return (r1, c1), (r2, c2)


def _blocker(board: Board, u: Cell, v: Cell) -> tuple[str, str]:
    """Why the square at u does not reach v: ("", "") when it does, else (code, reason)."""
    square = board[u[0]][u[1]]
    assert square is not None
    dr, dc = v[0] - u[0], v[1] - u[1]
    distance = max(abs(dr), abs(dc))
    step = (dr // distance, dc // distance) if distance else (0, 0)
    on_line = (dr == 0 or dc == 0 or abs(dr) == abs(dc)) and distance > 0
    name = f"{square} at {u[0]},{u[1]}"
    if not on_line or step not in DIRECTIONS[square.figure]:
        kind = {"T": "orthogonally", "B": "diagonally", "Q": "orthogonally or diagonally"}[square.figure]
        return "wrong-direction", f"{name} moves only {kind}"
    for d in range(1, distance):
        cell = (u[0] + d * step[0], u[1] + d * step[1])
        if board[cell[0]][cell[1]] is None:
            return "wall", f"{name} is blocked by the wall at {cell[0]},{cell[1]}"
    if distance > square.scope:
        return "out-of-range", f"{name} moves at most {square.scope}, not {distance}"
    return "", ""


RANK = {"wall": 3, "out-of-range": 2, "wrong-direction": 1}


def verify(level: Level, moves: Union[str, Iterable[Union[Move, str]]]) -> list[Violation]:
    """Replay ``moves`` (Move objects, ``r1,c1>r2,c2`` strings, or one space-separated string)
    from the start; return the violations (empty when the moves reach the goal legally).

    Replay stops at the first illegal move, so the list holds at most one violation.

    >>> level = Level.from_rows(["T1R B1G T1G"], goal=["G G R"])
    >>> verify(level, "0,0>0,1 0,1>0,2")
    []
    >>> [(v.code, v.step) for v in verify(level, "0,0>0,2")]  # scope 1: one cell at most
    [('out-of-range', 1)]
    """
    require_type(level, Level, "level")
    if moves is None:
        raise TypeError("moves must be a sequence of moves, not None (a result with no answer has solution None)")
    if not isinstance(moves, (str, Iterable)):
        raise TypeError(f"moves must be a sequence of moves, not {type(moves).__name__}{solve_result_hint(moves)}")
    items: Sequence[Union[Move, str]] = moves.split() if isinstance(moves, str) else list(moves)
    board = [list(row) for row in level.start]
    rows, cols = level.rows, level.cols
    for number, move in enumerate(items, start=1):
        cells = _read_move(move)
        if cells is None:
            return [Violation("bad-notation", f"move {number}: {move!r} is not written r1,c1>r2,c2", number)]
        u, v = cells
        if u == v:
            return [Violation("bad-notation", f"move {number} ({_text(u, v)}) names the same cell twice", number, cells=(u,))]
        for cell in (u, v):
            if not (0 <= cell[0] < rows and 0 <= cell[1] < cols):
                return [Violation("off-board", f"move {number} ({_text(u, v)}): cell {cell[0]},{cell[1]} is off the board "
                                  f"of {rows} row(s) and {cols} column(s)", number, cells=(cell,))]
        for cell in (u, v):
            if board[cell[0]][cell[1]] is None:
                return [Violation("wall", f"move {number} ({_text(u, v)}): cell {cell[0]},{cell[1]} is a wall", number, cells=(cell,))]
        frozen: Board = tuple(tuple(row) for row in board)
        forward = _blocker(frozen, u, v)
        backward = _blocker(frozen, v, u)
        if forward[0] and backward[0]:
            code, reason = max((forward, backward), key=lambda x: RANK[x[0]])
            other = backward if (code, reason) == forward else forward
            message = f"move {number} ({_text(u, v)}): {reason}; {other[1]}"
            return [Violation(code, message, number, cells=(u, v))]
        board[u[0]][u[1]], board[v[0]][v[1]] = board[v[0]][v[1]], board[u[0]][u[1]]
    final: Board = tuple(tuple(row) for row in board)
    problem = goal_problem(level, final)
    if problem:
        return [Violation("goal-not-reached", problem, len(items))]
    return []


def _text(u: Cell, v: Cell) -> str:
    return f"{u[0]},{u[1]}>{v[0]},{v[1]}"


def goal_problem(level: Level, board: Board) -> str:
    """Why ``board`` misses the goal ("" when it meets it), computed directly from the rules."""
    rows, cols = level.rows, level.cols
    kind = level.goal.kind
    if kind == "match":
        target = level.goal.colours
        assert target is not None
        wrong = [(r, c) for r in range(rows) for c in range(cols) if board[r][c] is not None and board[r][c].colour != target[r][c]]  # type: ignore[union-attr]
        if not wrong:
            return ""
        shown = ", ".join(f"{r},{c}" for r, c in wrong[:6]) + (" ..." if len(wrong) > 6 else "")
        return f"{len(wrong)} square(s) differ from the goal colours ({shown})"
    if kind == "cluster":
        label = [[-1] * cols for _ in range(rows)]
        groups: dict[str, int] = {}
        for r in range(rows):
            for c in range(cols):
                if board[r][c] is None or label[r][c] >= 0:
                    continue
                colour = board[r][c].colour  # type: ignore[union-attr]
                groups[colour] = groups.get(colour, 0) + 1
                label[r][c] = 1
                todo = [(r, c)]
                while todo:
                    cr, cc = todo.pop()
                    for nr, nc in ((cr + 1, cc), (cr - 1, cc), (cr, cc + 1), (cr, cc - 1)):
                        if 0 <= nr < rows and 0 <= nc < cols and label[nr][nc] < 0 and board[nr][nc] is not None and board[nr][nc].colour == colour:  # type: ignore[union-attr]
                            label[nr][nc] = 1
                            todo.append((nr, nc))
        split = {colour: n for colour, n in sorted(groups.items()) if n > 1}
        if not split:
            return ""
        detail = ", ".join(f"{colour} in {n} groups" for colour, n in split.items())
        return f"{sum(groups.values())} clusters for {len(groups)} colours ({detail})"
    lonely = []
    for r in range(rows):
        for c in range(cols):
            square = board[r][c]
            if square is None:
                continue
            if not any(
                0 <= r + dr < rows and 0 <= c + dc < cols and board[r + dr][c + dc] is not None and board[r + dr][c + dc].colour == square.colour  # type: ignore[union-attr]
                for dr, dc in ORTHOGONAL
            ):
                lonely.append((r, c))
    if not lonely:
        return ""
    shown = ", ".join(f"{r},{c}" for r, c in lonely[:6]) + (" ..." if len(lonely) > 6 else "")
    return f"{len(lonely)} square(s) without an orthogonal neighbour of their colour ({shown})"


def is_solution(level: Level, moves: Union[str, Iterable[Union[Move, str]]]) -> bool:
    """True when the moves are legal and reach the goal (:func:`verify` finds nothing).

    >>> level = Level.from_rows(["T1R T1G"], goal=["G R"])
    >>> is_solution(level, ["0,0>0,1"]), is_solution(level, [])
    (True, False)
    """
    return not verify(level, moves)
