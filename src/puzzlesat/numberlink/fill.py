"""Large boards with touching allowed: answers built without a formula for the whole board.

On a board of a million cells the SAT formulas alone take tens of millions of clauses and most
of a minute to build and feed, while an answer is often easy to draw. Under cover-all rules
with touching allowed (the default rules):

* :func:`route_and_fill` routes every pair (:func:`.routing.route`, paths through free cells)
  and then *fills*: a path step ``a -> b`` whose two neighbours ``c``, ``d`` on one side (the
  2x2 block ``a b / c d``) are both empty and free becomes ``a -> c -> d -> b``. The path stays
  simple and covers two cells more; touching itself is allowed. Cells that no step can take in
  this way are *repaired*: a small window around them is cut out as a puzzle of its own
  (:func:`window_puzzle`: each piece of a path inside the window becomes a pair from where it
  enters to where it leaves, cells it passes once become blocked; the pieces are read off a
  :class:`PathIndex` of where each path cell lies) and answered exactly by the
  frontier count (:mod:`.frontier`); its answer, put back in place (:func:`splice`), covers the
  window and changes nothing outside it.
* :func:`window_variant` looks for a second answer the same way: a window of the first answer
  whose own puzzle has another answer gives another answer of the whole board.

Both only ever produce answers (each is verified by the caller); neither proves anything.
On a board of a million cells they answer in seconds where the SAT formula alone takes longer
to build (encodings/numberlink.md, "Route and fill (fill.py)").

>>> from puzzlesat.numberlink.model import Puzzle
>>> p = Puzzle.from_rows(["A...", "....", "...A"])
>>> answer = route_and_fill(p, stop=float("inf"))
>>> print(answer.to_rows(p) == [list("AAAA"), list("AAAA"), list("AAAA")])
True
"""

from __future__ import annotations

import time
from collections import deque
from typing import Sequence

import numpy as np

from . import frontier, routing
from .model import DEFAULT_RULES, Cell, Pair, Puzzle, Solution

# Windows (cells on a side) tried, smallest first, to cover cells the filling left empty.
REPAIR_SIZES = (6, 10, 14)
# At most this long for the frontier count of one repair window, so that boards where no window
# can cover a cell give up soon (encodings/numberlink.md, "Route and fill (fill.py)").
REPAIR_WINDOW_SECONDS = 1.0
# Windows (cells on a side) in which a second answer is looked for, in reading order.
VARIANT_SIZE = 8


def route_and_fill(puzzle: Puzzle, stop: float) -> Solution | None:
    """A cover-all answer (paths may touch themselves) by routing, filling and repairing, or
    None when the router gives up, a cell cannot be covered, or ``time.perf_counter()`` passes
    ``stop``. Not verified here (the caller does)."""
    routed = routing.route(puzzle.free_mask(), [(pair.label, pair.start, pair.end) for pair in puzzle.pairs], stop)
    if routed is None:
        return None
    paths, empty = fill(puzzle, routed, stop)
    if paths is None:
        return None
    index = PathIndex(puzzle, paths) if empty else None
    while empty:
        assert index is not None
        repaired = _repair(puzzle, paths, index, empty[0], stop)
        if repaired is None:
            return None
        paths, (top, left, bottom, right) = repaired  # (the window is covered now)
        empty = [(r, c) for r, c in empty if not (top <= r < bottom and left <= c < right)]
    return Solution.from_mapping(paths)


def fill(puzzle: Puzzle, paths: dict[str, list[Cell]], stop: float) -> tuple[dict[str, list[Cell]] | None, list[Cell]]:
    """Grow ``paths`` (label -> cells from one end to the other, sharing no cell) into empty
    free cells two at a time (a step ``a -> b`` becomes ``a -> c -> d -> b`` through the two
    empty cells beside it), steps taken first in, first out. Returns the grown paths and the
    free cells still empty, in reading order; (None, []) when ``stop`` passed first.

    >>> grown, empty = fill(Puzzle.from_rows(["A.A", "...", "..."]), {"A": [(0, 0), (0, 1), (0, 2)]}, float("inf"))
    >>> grown["A"], empty
    ([(0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (1, 1), (0, 1), (0, 2)], [])
    >>> fill(Puzzle.from_rows(["A.A", "..."]), {"A": [(0, 0), (0, 1), (0, 2)]}, float("inf"))
    ({'A': [(0, 0), (1, 0), (1, 1), (0, 1), (0, 2)]}, [(1, 2)])
    """
    width, height = puzzle.width, puzzle.height
    size = width * height
    takeable = puzzle.free_mask().ravel().tolist()  # free, not an endpoint, on no path yet
    for pair in puzzle.pairs:
        for r, c in (pair.start, pair.end):
            takeable[r * width + c] = False
    following = [-1] * size
    starts = {}
    steps: deque[tuple[int, int]] = deque()
    for label, cells in paths.items():
        ids = [r * width + c for r, c in cells]
        starts[label] = ids[0]
        for a, b in zip(ids, ids[1:]):
            following[a] = b
            steps.append((a, b))
        for a in ids:
            takeable[a] = False
    done = 0
    while steps:
        done += 1
        if done % 65_536 == 0 and time.perf_counter() > stop:
            return None, []
        a, b = steps.popleft()
        if following[a] != b:  # (this step was replaced since)
            continue
        if b - a in (1, -1) and a // width == b // width:  # a step along a row: try below, above
            sides = [side for side, ok in ((width, a // width + 1 < height), (-width, a >= width)) if ok]
        else:  # along a column: right, left
            sides = [side for side, ok in ((1, a % width + 1 < width), (-1, a % width > 0)) if ok]
        for side in sides:
            c, d = a + side, b + side
            if takeable[c] and takeable[d]:
                following[a], following[c], following[d] = c, d, b
                takeable[c] = takeable[d] = False
                steps.extend(((a, c), (c, d), (d, b)))
                break
    grown = {}
    for label, first in starts.items():
        ids = [first]
        while following[ids[-1]] != -1:
            ids.append(following[ids[-1]])
        grown[label] = [divmod(i, width) for i in ids]
    empty = [divmod(i, width) for i, free in enumerate(takeable) if free]  # (endpoints are on paths)
    return grown, empty


class PathIndex:
    """Where each path cell lies: ``owner[r, c]`` the path's number (in ``labels``, -1 where no
    path runs) and ``position[r, c]`` the cell's place along its path, so that a window's runs
    are read from the window's cells alone (a board of a million cells has thousands of windows).
    :meth:`update` redraws the paths that changed."""

    def __init__(self, puzzle: Puzzle, paths: dict[str, list[Cell]] | dict[str, tuple[Cell, ...]]) -> None:
        self.labels = list(paths)
        self.owner = np.full((puzzle.height, puzzle.width), -1, dtype=np.int64)
        self.position = np.zeros((puzzle.height, puzzle.width), dtype=np.int64)
        self.update({label: ((), cells) for label, cells in paths.items()})

    def update(self, changes: dict[str, tuple[Sequence[Cell], Sequence[Cell]]]) -> None:
        """Each path ``label`` of ``changes`` ran through ``before`` and now runs through
        ``after`` (label -> (before, after)); every old cell is cleared before any new one is
        written, since one path's new cells may be another's old ones."""
        for before, _ in changes.values():
            rows, cols = np.array(before, dtype=np.int64).reshape(-1, 2).T
            self.owner[rows, cols] = -1
        for label, (_, after) in changes.items():
            rows, cols = np.array(after, dtype=np.int64).reshape(-1, 2).T
            self.owner[rows, cols] = self.labels.index(label)
            self.position[rows, cols] = np.arange(len(after))


def window_puzzle(puzzle: Puzzle, index: PathIndex, top: int, left: int, size: int) -> tuple[Puzzle, dict[str, tuple[str, int, int]]]:
    """The window of ``size`` x ``size`` cells at (``top``, ``left``) (clipped to the board) as
    a puzzle of its own, with the paths drawn so far (``index``, :class:`PathIndex`): each run
    of two or more consecutive path cells inside the window becomes a pair from its first cell
    to its last (labelled ``s0``, ``s1``, ...), a path cell alone in the window and every
    blocked cell become blocked, and the other cells are free. Any answer of it, put back by
    :func:`splice`, keeps every path simple and every cell outside the window as it was. Also
    returns, per pair label, (path label, index of the run's first cell, of its last).

    >>> p = Puzzle.from_rows(["A...", "....", "...A"])
    >>> index = PathIndex(p, {"A": [(0, 0), (0, 1), (0, 2), (0, 3), (1, 3), (2, 3)]})
    >>> sub, runs = window_puzzle(p, index, 0, 1, 2)
    >>> print(sub)
    s0 s0
    . .
    >>> runs
    {'s0': ('A', 1, 2)}
    """
    bottom, right = min(puzzle.height, top + size), min(puzzle.width, left + size)
    blocked = {(r - top, c - left) for r, c in puzzle.blocked if top <= r < bottom and left <= c < right}
    owner, position = index.owner[top:bottom, left:right], index.position[top:bottom, left:right]
    pairs, runs = [], {}
    for k in np.unique(owner[owner >= 0]).tolist():
        label = index.labels[k]
        rows, cols = np.nonzero(owner == k)
        order = np.argsort(position[rows, cols])
        rows, cols, places = rows[order], cols[order], position[rows, cols][order]
        breaks = np.flatnonzero(np.diff(places) != 1) + 1  # (a run ends where the places jump)
        for first, last in zip([0, *breaks.tolist()], [*(breaks - 1).tolist(), len(places) - 1]):
            if first == last:
                blocked.add((int(rows[first]), int(cols[first])))
            else:
                name = f"s{len(pairs)}"
                pairs.append(Pair(name, (int(rows[first]), int(cols[first])), (int(rows[last]), int(cols[last]))))
                runs[name] = (label, int(places[first]), int(places[last]))
    return Puzzle(right - left, bottom - top, tuple(pairs), frozenset(blocked)), runs


def splice(paths: dict[str, list[Cell]] | dict[str, tuple[Cell, ...]], runs: dict[str, tuple[str, int, int]],
           window_answer: Solution, top: int, left: int, index: PathIndex | None = None) -> dict[str, list[Cell]]:
    """``paths`` with each run of :func:`window_puzzle` replaced by its pair's path in
    ``window_answer`` (an answer of the window's puzzle); ``index``, if given, follows."""
    out = {label: list(cells) for label, cells in paths.items()}
    by_label: dict[str, list[tuple[int, int, str]]] = {}
    for name, (label, i, j) in runs.items():
        by_label.setdefault(label, []).append((i, j, name))
    for label, pieces in by_label.items():
        cells = out[label]
        for i, j, name in sorted(pieces, reverse=True):  # from the back: earlier indices stay put
            piece = [(r + top, c + left) for r, c in window_answer.path(name)]
            if piece[0] != cells[i]:
                piece.reverse()
            cells[i:j + 1] = piece
    if index is not None:
        index.update({label: (paths[label], out[label]) for label in by_label})
    return out


def _window_at(puzzle: Puzzle, cell: Cell, size: int) -> tuple[int, int]:
    """The top-left corner of the ``size`` window centred on ``cell``, moved onto the board."""
    top = min(max(0, cell[0] - size // 2), max(0, puzzle.height - size))
    left = min(max(0, cell[1] - size // 2), max(0, puzzle.width - size))
    return top, left


def _repair(puzzle: Puzzle, paths: dict[str, list[Cell]], index: PathIndex, cell: Cell, stop: float
            ) -> tuple[dict[str, list[Cell]], tuple[int, int, int, int]] | None:
    """``paths`` redrawn inside one window around the empty ``cell`` so that the window is
    covered (windows of REPAIR_SIZES tried in turn; ``index`` follows), with the window's (top,
    left, bottom, right); None when no window can be covered or ``stop`` has passed."""
    for size in REPAIR_SIZES:
        remaining = stop - time.perf_counter()
        if remaining <= 0:
            return None
        top, left = _window_at(puzzle, cell, size)
        sub, runs = window_puzzle(puzzle, index, top, left, size)
        found = frontier.count_answers(sub, DEFAULT_RULES, limit=1, time_limit=min(remaining, REPAIR_WINDOW_SECONDS))
        if found.status == "complete" and found.answers:
            return splice(paths, runs, found.answers[0], top, left, index), (top, left, top + sub.height, left + sub.width)
    return None


def window_variant(puzzle: Puzzle, answer: Solution, stop: float, size: int = VARIANT_SIZE) -> Solution | None:
    """Another cover-all answer (touching allowed) that differs from ``answer`` inside one
    window of ``size`` x ``size`` cells (windows side by side in reading order), or None when
    none is found before ``time.perf_counter()`` passes ``stop``. Not verified here."""
    paths = answer.as_dict()
    index = PathIndex(puzzle, paths)
    for top in range(0, puzzle.height, size):
        for left in range(0, puzzle.width, size):
            remaining = stop - time.perf_counter()
            if remaining <= 0:
                return None
            sub, runs = window_puzzle(puzzle, index, top, left, size)
            if not runs:
                continue
            here = Solution.from_mapping({name: [(r - top, c - left) for r, c in paths[label][i:j + 1]]
                                          for name, (label, i, j) in runs.items()})
            found = frontier.count_answers(sub, DEFAULT_RULES, limit=1, reference=here, time_limit=remaining)
            if found.status == "complete" and found.answers:
                return Solution.from_mapping(splice(paths, runs, found.answers[0], top, left))
    return None
