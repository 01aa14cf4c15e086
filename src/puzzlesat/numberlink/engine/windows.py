"""``windows``: a second answer close to the first, by SAT on a window of the board. Each window
is one bounded call of the shared search (the first answer blocked) with every edge outside it
assumed as in the first answer: a model is an answer of the whole puzzle, the assumptions only
choose where to look. Square windows (8x8, then 12x12, overlapping by half) come first; then
*label windows*: an answer that differs from the first only in the paths of a set L of labels
lies on the cells those paths cover in the first, plus (may-leave-empty rules) cells the first
leaves empty, so the window "every edge between two such cells" holds it however far the paths
run; if the labels that differ fall into groups whose paths never touch in the first answer,
each group's change alone is an answer too, so sets connected that way are enough, smallest
first. While the global search runs beside them, larger squares (16 to 24 cells on a side) use
the time this core would spend waiting for it (:class:`WideWindows`). Under default rules the
global search is easily lost where a window finds the second answer in milliseconds
(encodings/numberlink.md, "What each rule set runs (solve.py)", step 4, and "Notes from
solve.py").

While a complete decider runs beside (the portfolio), ``state.stop`` says whether it has
decided: it is asked before each window (and with ``state.stop_in_steps`` within one).

>>> from ..model import Puzzle, Rules
>>> _window_starts(20, 8)
[0, 4, 8, 12]
"""

from __future__ import annotations

from typing import Iterator

import numpy as np

from ...timing import Deadline
from ..encoding import Encoding
from ..model import Cell, Puzzle, Rules, Solution
from ..search import Search
from . import tuning
from .state import State
from .strategy import Outcome, one_layer


class Windows:
    """Square windows around the first answer (one layer, every rule set but cover-all
    no-self-touch, which is decided fast enough without)."""

    name = "windows"
    local_variant = "window"

    def applies(self, puzzle: Puzzle, rules: Rules) -> bool:
        return not (rules.cover_all and rules.no_self_touch) and one_layer(puzzle)

    def run(self, state: State, deadline: Deadline) -> Outcome:
        search = state.search_for_second()
        if search is None or len(state.found) != 1:
            return Outcome.nothing()
        found = self._variant(search, state)
        if found is None:
            return Outcome.nothing()
        state.stats["local_variant"] = self.local_variant
        return Outcome.answer(found)

    def _variant(self, search: Search, state: State) -> Solution | None:
        return _window_variant(search, state.found[0], stop=state.stop, in_steps=state.stop_in_steps)


class LabelWindows(Windows):
    """Label windows: on boards the frontier count does not take, after the square windows."""

    name = "windows:label"
    local_variant = "label window"

    def _variant(self, search: Search, state: State) -> Solution | None:
        return _label_window_variant(search, state.found[0], stop=state.stop)


class WideWindows(Windows):
    """Larger square windows (WIDE_WINDOWS, sides below the board's longer one), run by the
    portfolio after the label windows while the global search runs beside on the other core,
    which this core would otherwise only wait for: a second answer that differs from the first
    over a region wider than the square windows and more labels than the label windows, which
    the global search can take minutes to reach (encodings/numberlink.md, "Wide windows while
    the global search runs beside"). They run until the deadline and ask the search beside
    every STOP_STEP_CONFLICTS conflicts whether it has decided."""

    name = "windows:wide"
    local_variant = "wide window"

    def _variant(self, search: Search, state: State) -> Solution | None:
        longest = max(search.puzzle.width, search.puzzle.height)
        sizes = tuple((size, conflicts) for size, conflicts in tuning.WIDE_WINDOWS if size < longest)
        return _first_in_windows(search, state.found[0], window_masks(search, sizes, share=1.0), state.stop, in_steps=True)


WINDOWS = Windows()
LABEL_WINDOWS = LabelWindows()
WIDE_WINDOWS = WideWindows()


def _window_starts(length: int, size: int) -> list[int]:
    """First rows (or columns) of windows of ``size`` overlapping by half that cover ``length``."""
    if length <= size:
        return [0]
    step = max(1, size // 2)
    starts = list(range(0, length - size + 1, step))
    if starts[-1] != length - size:
        starts.append(length - size)
    return starts


def _edges_as_in(enc: Encoding, answer: Solution) -> np.ndarray:
    """Per edge variable, the literal that sets it as in ``answer`` (for window assumptions)."""
    ids = np.arange(1, enc.num_edges + 1, dtype=np.int64)
    used = np.zeros(enc.num_edges, dtype=bool)
    used[np.asarray(enc.edge_vars_of(answer), dtype=np.int64) - 1] = True
    return np.where(used, ids, -ids)


def _window_variant(search: Search, answer: Solution, *, windows: tuple[tuple[int, int], ...] | None = None, stop=None,
                    in_steps: bool = False) -> Solution | None:
    """A second answer that differs from ``answer`` only inside one small window, if the
    windows hold one; None otherwise. ``windows`` gives (size, conflicts) pairs: squares of
    ``size`` cells on a side overlapping by half, each searched for at most ``conflicts``.

    Each window is one bounded solver call of ``search`` (which must already block
    ``answer``) with every edge not inside the window assumed as in ``answer``. A model is an
    answer of the whole puzzle, so nothing is assumed that the rules do not say: this only
    decides *where to look first*. Under default rules the full formula is weak and its global
    search can miss a second answer for minutes that a window finds in milliseconds
    (encodings/numberlink.md, "Notes from solve.py"). ``stop`` (a
    function) is asked before each window, and with ``in_steps`` every STOP_STEP_CONFLICTS
    conflicts within one too, whether to give up (a search beside has decided)."""
    return _first_in_windows(search, answer, window_masks(search, tuning.WINDOWS if windows is None else windows), stop, in_steps)


def _first_in_windows(search: Search, answer: Solution, masks: Iterator[tuple[np.ndarray, int]], stop=None,
                      in_steps: bool = False) -> Solution | None:
    """The first answer found in the windows ``masks`` yields ((edges inside, conflicts)
    pairs), each one bounded call of ``search`` with every edge outside assumed as in
    ``answer``; None when none holds one (or ``stop()`` says to give up, asked before each
    window, and with ``in_steps`` between the steps of its call)."""
    assert search.solver is not None and search.encoding is not None
    as_answer = _edges_as_in(search.encoding, answer)
    for inside, conflicts in masks:
        if stop is not None and stop():
            return None
        found = search.bounded_answer(as_answer[~inside].tolist(), conflicts, stop if in_steps else None)
        if found is not None or search.deadline.expired():
            return found
    return None


def window_phase(search: Search, share: float | None = None) -> Deadline | None:
    """The end of a window phase (``share`` of the time left, WINDOW_SHARE by default); None on
    boards of more than MAX_WINDOW_CELLS cells, which get no windows."""
    if search.puzzle.width * search.puzzle.height > tuning.MAX_WINDOW_CELLS:
        return None
    remaining = search.deadline.remaining()
    return Deadline(None if remaining is None else remaining * (tuning.WINDOW_SHARE if share is None else share))


def window_masks(search: Search, windows: tuple[tuple[int, int], ...], *, share: float | None = None) -> Iterator[tuple[np.ndarray, int]]:
    """(edges inside the window, conflicts allowed) for each window of ``windows`` ((size,
    conflicts) pairs: squares of ``size`` cells overlapping by half), smaller sizes first;
    windows without an edge are left out, and a size that holds the board ends the list. None
    on boards of more than ``MAX_WINDOW_CELLS`` cells, and none once ``share`` of the time left
    at the start (a third by default, ``WINDOW_SHARE``) has passed."""
    assert search.encoding is not None
    enc, width, height = search.encoding, search.puzzle.width, search.puzzle.height
    phase = window_phase(search, share)
    if phase is None:
        return
    rows, cols = enc.edge_cells // width, enc.edge_cells % width
    low_row, high_row = rows.min(axis=1), rows.max(axis=1)
    low_col, high_col = cols.min(axis=1), cols.max(axis=1)
    for size, conflicts in windows:
        for r0 in _window_starts(height, size):
            for c0 in _window_starts(width, size):
                if phase.expired():
                    return
                inside = (low_row >= r0) & (high_row < r0 + size) & (low_col >= c0) & (high_col < c0 + size)
                if inside.any():
                    yield inside, conflicts
        if size >= max(height, width):
            break  # one window holds the whole board: larger ones would repeat it


def _label_sets(puzzle: Puzzle, answer: Solution, most: int) -> Iterator[frozenset[str]]:
    """Every set of at most ``most`` labels connected by paths that touch in ``answer``
    (orthogonally neighbouring cells, or both beside one region of empty cells), smaller sets
    first, each once."""
    owner: dict[Cell, str] = {cell: label for label, cells in answer.paths for cell in cells}
    touching: dict[str, set[str]] = {label: set() for label, _ in answer.paths}

    def touch(group: set[str]) -> None:
        for label in group:
            touching[label] |= group - {label}

    for (r, c), label in owner.items():
        for other in (owner.get((r + 1, c)), owner.get((r, c + 1))):
            if other is not None:
                touch({label, other})
    empty = set(puzzle.free_cells()) - set(owner)
    while empty:  # each region of empty cells: the labels beside it touch one another
        beside, todo = set(), [empty.pop()]
        while todo:
            r, c = todo.pop()
            for cell in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if cell in empty:
                    empty.discard(cell)
                    todo.append(cell)
                elif cell in owner:
                    beside.add(owner[cell])
        touch(beside)
    level = {frozenset([label]) for label in touching}
    for _ in range(most):
        yield from sorted(level, key=sorted)
        level = {group | {other} for group in level for label in group for other in touching[label] if other not in group}


def _label_window_variant(search: Search, answer: Solution, *, most: int | None = None, conflicts: int | None = None,
                          stop=None) -> Solution | None:
    """A second answer that reroutes the paths of at most ``most`` labels over the cells they
    cover in ``answer`` and those it leaves empty (see LABEL_WINDOW_LABELS), if one is found
    within ``conflicts`` per set; None otherwise. Like :func:`_window_variant`, one bounded
    call of ``search`` (which must already block ``answer``) per set, every other edge assumed
    as in ``answer``; a model is an answer of the whole puzzle. At most WINDOW_SHARE of the
    time left; ``stop`` is asked before each set."""
    most = tuning.LABEL_WINDOW_LABELS if most is None else most
    conflicts = tuning.LABEL_WINDOW_CONFLICTS if conflicts is None else conflicts
    return _first_in_windows(search, answer, _label_window_masks(search, answer, most, conflicts), stop)


def _label_window_masks(search: Search, answer: Solution, most: int, conflicts: int) -> Iterator[tuple[np.ndarray, int]]:
    """(edges inside, conflicts) for each label window of :func:`_label_window_variant`."""
    assert search.encoding is not None
    enc, puzzle = search.encoding, search.puzzle
    phase = window_phase(search)
    if phase is None:
        return
    label_index = {label: i for i, (label, _) in enumerate(answer.paths)}
    empty = len(label_index)  # the index of cells the answer leaves empty: in every window
    cell_label = np.full(puzzle.width * puzzle.height, -1, dtype=np.int64)  # (-1: blocked)
    for r, c in puzzle.free_cells():
        cell_label[r * puzzle.width + c] = empty
    for label, cells in answer.paths:
        for r, c in cells:
            cell_label[r * puzzle.width + c] = label_index[label]
    ends = cell_label[enc.edge_cells]  # each edge's two cells' labels in the answer
    for group in _label_sets(puzzle, answer, most):
        if phase.expired():
            return
        members = np.zeros(len(label_index) + 2, dtype=bool)  # (the last, index -1: blocked)
        members[[label_index[label] for label in group]] = True
        members[empty] = True
        yield members[ends[:, 0]] & members[ends[:, 1]], conflicts
