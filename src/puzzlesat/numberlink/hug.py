"""Large boards under cover-all + no-self-touch: answers drawn by walking along the walls.

Under no-self-touch every path is an induced path of the grid (no cell of it lies beside
another of it but its neighbours along it), so a wide region cannot be filled by one path
zig-zagging (:mod:`.fill`'s detours run beside themselves): several paths must wind round it
together, each lap of one separated from its next by laps of the others, as in a spiral of
several arms (encodings/numberlink.md, "Both ends of the size range").

:func:`wall_walk` draws such answers without a formula. Every path grows from one of its ends
(the one with more walls beside it) as a *head*; the heads take one step each in turn, and a
head steps to the first of its left, straight-on and right cells (the right, straight and left
ones in the mirror pass) that is free and lies beside no cell of its own path but the head
(beside its own far end only when it steps there next): so each head keeps a wall (the board's
edge, a blocked cell, another path) on one side, and no path ever runs beside itself. A head
beside its far end steps onto it. A pass fails as soon as a head has no step (it is tried again
with that path grown from its other end), or when a free cell is left over; when every pass
fails the drawing proves nothing, and the caller verifies what it returns.

>>> from puzzlesat.numberlink.model import Puzzle, Rules
>>> from puzzlesat.numberlink.verify import verify
>>> p = Puzzle.from_rows(["A........B", *[".........."] * 3, "....AB....", "....CD....", *[".........."] * 3, "C........D"])
>>> answer = wall_walk(p, stop=float("inf"))
>>> print("\\n".join("".join(row) for row in answer.to_rows(p)))
AAAAAAAAAB
CCCCCCCCAB
CDDDDDDCAB
CDBBBBDCAB
CDBAABDCAB
CDBACDDCAB
CDBACCCCAB
CDBAAAAAAB
CDBBBBBBBB
CDDDDDDDDD
>>> verify(p, answer, Rules(no_self_touch=True))
[]
>>> wall_walk(Puzzle.from_rows(["A...", "....", "...A"]), stop=float("inf")) is None  # one path cannot cover it
True
"""

from __future__ import annotations

import time

import numpy as np

from .model import Puzzle, Solution

WALL, FREE = -2, -1
STEPS_BETWEEN_CLOCK_READS = 1 << 16
WALK_TRIES = 4  # passes each way (walls on the left, on the right), a stuck path turned round after each


def wall_walk(puzzle: Puzzle, stop: float) -> Solution | None:
    """A cover-all answer without self-touch drawn by heads that follow the walls (the module's
    text), first keeping the walls on their left, then (mirror) on their right; when a head has
    no step, the pass is tried again with that path grown from its other end (at most
    WALK_TRIES passes each way). None when no pass covers the board or ``time.perf_counter()``
    passes ``stop``. Not verified here."""
    wide = puzzle.width + 2  # (a frame of walls round the board: no bounds checks)
    grid = np.full((puzzle.height + 2, wide), WALL, dtype=np.int64)
    grid[1:-1, 1:-1] = np.where(puzzle.free_mask(), FREE, WALL)
    ends = [((a + 1) * wide + b + 1, (c + 1) * wide + d + 1) for (a, b), (c, d) in
            ((pair.start, pair.end) for pair in puzzle.pairs)]
    for k, (a, b) in enumerate(ends):
        grid.flat[a] = grid.flat[b] = k
    board = grid.ravel().tolist()
    for mirror in (False, True):
        flipped: set[int] = set()
        for _ in range(WALK_TRIES):
            if time.perf_counter() > stop:
                return None
            drawn = _walk(puzzle, board.copy(), ends, mirror, flipped, stop)
            if not isinstance(drawn, int):
                return drawn
            if drawn < 0 or drawn in flipped:
                break
            flipped.add(drawn)
    return None


def _walk(puzzle: Puzzle, owner: list[int], ends: list[tuple[int, int]], mirror: bool, flipped: set[int], stop: float
          ) -> Solution | int:
    """One pass of :func:`wall_walk` on ``owner`` (the framed board, flat: WALL, FREE, or the
    number of the path on the cell; filled in here) with the pairs' ``ends`` (flat), the paths
    numbered in ``flipped`` grown from the other end than the walls say: the answer, or the
    number of the path whose head had no step (-1 when the pass failed otherwise)."""
    wide = puzzle.width + 2
    turns = (1, wide, -1, -wide)  # east, south, west, north: clockwise
    # (left, straight on, right) as headings after each heading; the mirror pass the other way
    tries = [tuple((heading + turn) & 3 for turn in ((1, 0, 3) if mirror else (3, 0, 1))) for heading in range(4)]
    # the three cells beside a cell entered by each heading, the one it came from left out
    beside = [(turns[way], turns[(way + 1) & 3], turns[(way + 3) & 3]) for way in range(4)]
    paths, heads, targets, headings, active = [], [], [], [], []
    for k, (a, b) in enumerate(ends):
        if (_walls_beside(owner, b, turns) > _walls_beside(owner, a, turns)) != (k in flipped):
            a, b = b, a  # (grow from the end with more walls beside it)
        paths.append([a])
        heads.append(a)
        targets.append(b)
        headings.append(_first_heading(owner, a, turns, mirror))
        if b - a in turns:
            paths[k].append(b)  # (its ends are neighbours: done)
        else:
            active.append(k)
    steps = 0
    while active:
        finished = False
        for k in active:
            head = heads[k]
            for way in tries[headings[k]]:
                cell = head + turns[way]
                if owner[cell] != FREE:
                    continue
                one, two, three = beside[way]
                if owner[cell + one] != k and owner[cell + two] != k and owner[cell + three] != k:
                    last = False
                    break
                if [cell + side for side in beside[way] if owner[cell + side] == k] == [targets[k]]:
                    last = True  # (beside its far end alone: it steps there next)
                    break
            else:
                return k  # (this head has no step left: cells are never freed again)
            owner[cell] = k
            paths[k].append(cell)
            heads[k], headings[k] = cell, way
            if last:
                paths[k].append(targets[k])
                finished = True
        if finished:
            active = [k for k in active if paths[k][-1] != targets[k]]
        steps += len(active)
        if steps > STEPS_BETWEEN_CLOCK_READS:
            steps = 0
            if time.perf_counter() > stop:
                return -1
    if FREE in owner:
        return -1
    return Solution.from_mapping({pair.label: _cells(path, wide) for pair, path in zip(puzzle.pairs, paths)})


def _walls_beside(owner: list[int], cell: int, turns: tuple[int, ...]) -> int:
    return sum(owner[cell + step] == WALL for step in turns)


def _first_heading(owner: list[int], cell: int, turns: tuple[int, ...], mirror: bool) -> int:
    """The heading of a head's first step: one with a wall on the kept side if there is one."""
    side = 1 if mirror else 3
    for way in range(4):
        if owner[cell + turns[way]] == FREE and owner[cell + turns[(way + side) & 3]] == WALL:
            return way
    return 0


def _cells(path: list[int], wide: int) -> list[tuple[int, int]]:
    """Flat indices of the framed grid as (row, column) cells of the board."""
    rows, cols = np.divmod(np.array(path, dtype=np.int64), wide)
    return list(zip((rows - 1).tolist(), (cols - 1).tolist()))
