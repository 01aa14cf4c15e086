"""The compiled backtracking search for small one-layer boards (the C extension
``puzzlesat.numberlink._small``), as answers and a verdict.

The search is complete: when it says ``complete`` it has either found ``limit`` answers or
every answer there is (so 0 or 1 answers with ``complete`` decide "none" or "unique"). It stops
at a node budget and at a deadline, and then says nothing about the answers it did not reach.
Its design and pruning are in encodings/numberlink.md, "A compiled search for small boards
(_small.c)". The extension is optional (built when a C compiler is present): ``AVAILABLE`` says
whether it was, and callers run the SAT road alone when it was not. Every answer is checked by
the independent :func:`~.verify.verify` before it leaves (a rejected one is a bug: raised).

>>> from puzzlesat.numberlink.model import Puzzle, Rules
>>> if AVAILABLE:
...     found = search(Puzzle.from_rows(["A.B", "...", ".AB"]), Rules(), limit=2, nodes=1000)
...     print(len(found.answers), found.complete, sorted(len(a.path("B")) for a in found.answers))
... else:
...     print(2, True, [3, 5])
2 True [3, 5]
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass

from ..errors import require_valid
from ..timing import Deadline
from .model import Puzzle, Rules, Solution
from .verify import verify

try:
    from ._small import search as _compiled
except ImportError:  # (installed without a C compiler: the SAT road runs alone)
    _compiled = None

AVAILABLE = _compiled is not None
WALL, FREE = -2, -1


@dataclass(frozen=True)
class Found:
    """What one compiled search gave: the answers (verified), whether the search ran to the end
    (or to ``limit`` answers), and the nodes it made."""

    answers: tuple[Solution, ...]
    complete: bool
    nodes: int


def search(puzzle: Puzzle, rules: Rules, *, limit: int, nodes: int, deadline: Deadline | None = None) -> Found:
    """Up to ``limit`` answers of the one-layer ``puzzle`` (at most 16,384 cells: the search
    recurses once per cell) under ``rules``, within ``nodes`` search nodes and ``deadline``.
    Raises RuntimeError when the extension is not built, ValueError on a larger board."""
    if _compiled is None:
        raise RuntimeError("the compiled search puzzlesat.numberlink._small is not built (no C compiler at install)")
    width = puzzle.width
    cells = array("i", [FREE]) * (width * puzzle.height)
    for r, c in puzzle.blocked:
        cells[r * width + c] = WALL
    ends = array("i")
    for k, pair in enumerate(puzzle.pairs):
        for r, c in (pair.start, pair.end):
            cells[r * width + c] = k
            ends.append(r * width + c)
    remaining = None if deadline is None else deadline.remaining()
    paths, complete, made = _compiled(width, puzzle.height, cells, ends, rules.cover_all, rules.no_self_touch,
                                          limit, nodes, -1.0 if remaining is None else max(remaining, 0.0))
    labels = [pair.label for pair in puzzle.pairs]
    answers = tuple(Solution(tuple(zip(labels, answer))) for answer in paths)
    for answer in answers:
        require_valid(verify(puzzle, answer, rules), "the compiled small-board search")
    return Found(answers, complete, made)
