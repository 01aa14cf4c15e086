"""One step of the frontier count of :mod:`.frontier`: the children of every state at a cell (its
choice of edges down and right, what hangs on the frontier joined where they meet), with the
states whose pairs would cross left out (:func:`_crossing`).
"""

from __future__ import annotations

import numpy as np

from .frontier_rows import CLOSE, EMPTY, FIRST_LABEL, OPEN, _ByteRows, _PackedRows, _rows


DOWN, RIGHT = 1, 2  # bits of a cell's choice


def _crossing(layout: "_ByteRows | _PackedRows", states: np.ndarray, positions: int | np.ndarray, label_value: int,
              pair_keys: np.ndarray) -> np.ndarray:
    """For each row of ``states``: whether it has no completion because the two ends of the label of
    slot value ``label_value`` (one at slot ``positions`` or ``positions[row]``, the other elsewhere
    in the row) and those of another label whose two endpoints are both visited
    (``pair_keys[value]`` non-zero for those) alternate along the frontier, with no piece around any
    of these ends.

    Why: each such label hangs at two slots, to be joined by a chain of paths through the unvisited
    cells (below the frontier, whose slots lie along it in slot order) and pieces (above it). Close
    each chain by two arcs from its ends up over the visited cells; two closed curves cross an even
    number of times, and the two closing parts of alternating pairs cross once, so one chain must
    cross the other's closing arcs: it must use a piece whose two ends lie on either side of one of
    the four ends (the answer of thomasahle inputs4 #3 does this, swept in reverse: a path runs
    round another label's endpoint through the visited part). With every piece bracket counted, the
    row is dropped only when all the labels' ends in it lie outside every piece (bracket depth 0),
    so no such piece exists.

    The label's pair crosses another exactly when that label has one end strictly between its two
    ends, and then the XOR of the random keys over those slots is not zero (each pair wholly between
    cancels; a zero XOR by chance of the keys only keeps a dead row: the count stays exact). The
    count checks each label's pair once, at its second endpoint: a crossing made later, when a label
    is passed on along a piece, is left to die on its own (checking there too cost more than it
    saved on most boards; encodings/numberlink.md, "Notes from frontier.py")."""
    count = len(states)
    running = np.zeros(count, dtype=np.uint64)
    at_new = np.zeros(count, dtype=np.uint64)
    at_other = np.zeros(count, dtype=np.uint64)
    found = np.zeros(count, dtype=bool)
    depth = np.zeros(count, dtype=np.int16)
    inside_piece = np.zeros(count, dtype=bool)  # some end of these labels lies between a piece's ends
    for j in range(layout.slots):
        value = layout.slot(states, j).astype(np.intp)
        own = value == label_value
        key = np.where(own, np.uint64(0), _rows(pair_keys, value))
        inside_piece |= (depth > 0) & (own | (key != 0))
        at_new = np.where(positions == j, running, at_new)
        other = own & (positions != j)
        at_other = np.where(other, running, at_other)
        found |= other
        running ^= key
        depth += (value == OPEN).view(np.int8) - (value == CLOSE).view(np.int8)
    return found & (at_new != at_other) & ~inside_piece


def _uncrossed(layout: "_ByteRows | _PackedRows", states: np.ndarray, rows: np.ndarray, positions: int | np.ndarray,
               value: int, pair_keys: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """``states`` (children of the parent ``rows``, label ``value`` at slot ``positions``)
    without those :func:`_crossing` drops (all kept when ``pair_keys`` is None)."""
    if pair_keys is None or not len(rows):
        return states, rows
    crossed = _crossing(layout, states, positions, value, pair_keys)
    if not crossed.any():
        return states, rows
    keep = np.flatnonzero(~crossed)
    return _rows(states, keep), _rows(rows, keep)


class _Children:
    """The children of one step, gathered group by group."""

    def __init__(self) -> None:
        self.states: list[np.ndarray] = []
        self.parents: list[np.ndarray] = []
        self.choices: list[np.ndarray] = []

    def add(self, states: np.ndarray, parents: np.ndarray, choice: int | np.ndarray) -> None:
        if len(parents):
            self.states.append(states)
            self.parents.append(parents)
            self.choices.append(np.broadcast_to(np.asarray(choice, dtype=np.uint8), parents.shape))


def _step(layout: _ByteRows | _PackedRows, states: np.ndarray, c: int, kind: int, can_down: bool, can_right: bool,
          cover_all: bool, pair_keys: np.ndarray | None = None, second: bool = False) -> _Children:
    """Every legal choice at the cell whose left slot is ``c`` (its up slot is ``c + 1``).
    ``pair_keys`` (see :func:`_crossing`) marks the labels both of whose endpoints lie before
    this cell; when ``second`` (the cell is the second endpoint of its label), children whose
    label's pair crosses the pair of such a label are left out."""
    out = _Children()
    left, up = layout.slot(states, c), layout.slot(states, c + 1)
    none_in = (left == EMPTY) & (up == EMPTY)
    one_in = (left == EMPTY) != (up == EMPTY)
    two_in = (left != EMPTY) & (up != EMPTY)

    def with_slots(rows: np.ndarray, down_value, right_value) -> np.ndarray:
        return layout.with_pair(_rows(states, rows), c, down_value, right_value)

    def hand_on(rows: np.ndarray, value, checked: np.ndarray | None = None) -> None:
        """A path end arriving at a cell that continues it down or right (with ``checked``,
        the pair keys of :func:`_crossing`: children whose pairs cross left out)."""
        if can_down:
            out.add(*_uncrossed(layout, with_slots(rows, value, EMPTY), rows, c, value, checked), DOWN)
        if can_right:
            out.add(*_uncrossed(layout, with_slots(rows, EMPTY, value), rows, c + 1, value, checked), RIGHT)

    if kind == -1:  # blocked
        rows = np.flatnonzero(none_in)
        out.add(_rows(states, rows), rows, 0)
        return out
    if kind >= 0:  # an endpoint of label `kind`
        code = layout.code(kind)
        checked = pair_keys if second else None  # (its second endpoint: the label's two ends now hang)
        hand_on(np.flatnonzero(none_in), code, checked)
        arriving = left + up  # one of them is EMPTY
        rows = np.flatnonzero(one_in & (arriving == code))  # the label's path is complete
        out.add(with_slots(rows, EMPTY, EMPTY), rows, 0)
        rows = np.flatnonzero(one_in & (arriving < FIRST_LABEL))  # a piece takes the label
        if len(rows):
            position = np.where(_rows(left, rows) != EMPTY, c, c + 1)
            child = _rows(states, rows)
            ends = layout.partners(child, position)
            child = layout.with_pair(layout.with_each(child, ends, code), c, EMPTY, EMPTY)
            out.add(*_uncrossed(layout, child, rows, ends, code, checked), 0)
        return out
    # a free cell
    if can_down and can_right:
        rows = np.flatnonzero(none_in)
        out.add(with_slots(rows, OPEN, CLOSE), rows, DOWN | RIGHT)
    if not cover_all:
        rows = np.flatnonzero(none_in)
        out.add(_rows(states, rows), rows, 0)
    rows = np.flatnonzero(one_in)
    hand_on(rows, _rows(left + up, rows))
    rows = np.flatnonzero(two_in)
    _join(layout, states, c, rows, _rows(left, rows), _rows(up, rows), out)
    return out


def _join(layout: _ByteRows | _PackedRows, states: np.ndarray, c: int, rows: np.ndarray, a: np.ndarray, b: np.ndarray,
          out: _Children) -> None:
    """A free cell entered from the left and from above (``rows``, with the values ``a`` and
    ``b`` in those two slots): the two things meet there."""
    if not len(rows):
        return
    a_label, b_label = a >= FIRST_LABEL, b >= FIRST_LABEL
    # two labels: the same one completes its path, two different ones never meet
    same = rows[a_label & b_label & (a == b)]
    if len(same):
        out.add(layout.with_pair(_rows(states, same), c, EMPTY, EMPTY), same, 0)
    # a label and a piece: the piece's other end takes the label
    mixed = a_label != b_label
    if mixed.any():
        sub = rows[mixed]
        child = _rows(states, sub)
        label = np.where(a_label[mixed], a[mixed], b[mixed])
        piece_at = np.where(a_label[mixed], c + 1, c)
        child = layout.with_each(child, layout.partners(child, piece_at), label)
        out.add(layout.with_pair(child, c, EMPTY, EMPTY), sub, 0)
    # two pieces: "(" then ")" are the two ends of one piece (a stray cycle: never);
    # ")" "(" join two pieces whose outer ends already pair up; "((" / "))": the inner partner turns
    pieces = ~a_label & ~b_label
    join = rows[pieces & (a == CLOSE) & (b == OPEN)]
    if len(join):
        out.add(layout.with_pair(_rows(states, join), c, EMPTY, EMPTY), join, 0)
    for value in (OPEN, CLOSE):
        sub = rows[pieces & (a == value) & (b == value)]
        if not len(sub):
            continue
        child = _rows(states, sub)
        # "((": b's partner lies inside a's and becomes "("; "))": a's partner becomes ")"
        inner = layout.partners(child, np.full(len(sub), c + 1 if value == OPEN else c))
        child = layout.with_each(child, inner, value)
        out.add(layout.with_pair(child, c, EMPTY, EMPTY), sub, 0)
