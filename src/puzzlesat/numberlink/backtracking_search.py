"""The search of the Numberlink backtracking baseline (:mod:`.backtracking`): its state (the heads
of every pair, the free cells and their regions), the moves of the most constrained head, the
checks that prune dead ends, and the generator of answers.

>>> from puzzlesat.numberlink.model import Puzzle, DEFAULT_RULES
>>> from puzzlesat.timing import Deadline
>>> puzzle = Puzzle.from_rows(["A.B", "...", ".AB"])
>>> len(list(_Search(puzzle, DEFAULT_RULES, Deadline(None)).run()))
2
"""

from __future__ import annotations

from typing import Iterator

from ..errors import require_type, require_valid
from ..timing import Deadline
from .model import ONE_LAYER_HINT, Puzzle, Rules, Solution
from .verify import verify


FREE = -1
WALL = -2

STEP = 0        # the head moves into a free cell
JOIN = 1        # the head meets the other head of its pair: the path is complete
STEP_JOIN = 2   # no-self-touch: the head moves into a free cell beside the other head and they join

CHECK_CLOCK_EVERY = 256  # nodes between deadline checks


class SearchTimeout(TimeoutError):
    """The time limit ran out before the search finished."""


class _Search:
    """Mutable search state over flat cell indices ``row * width + col``."""

    def __init__(self, puzzle: Puzzle, rules: Rules, deadline: Deadline) -> None:
        require_type(puzzle, Puzzle, "puzzle", ONE_LAYER_HINT)
        require_type(rules, Rules, "rules")
        self.puzzle = puzzle
        self.rules = rules
        self.deadline = deadline
        w, h = puzzle.width, puzzle.height
        self.width = w
        self.neighbours: list[tuple[int, ...]] = []
        for r in range(h):
            self._check_setup_clock()  # the set-up of a 1002 x 1002 board takes seconds
            for c in range(w):
                near = []
                if r > 0:
                    near.append((r - 1) * w + c)
                if r + 1 < h:
                    near.append((r + 1) * w + c)
                if c > 0:
                    near.append(r * w + c - 1)
                if c + 1 < w:
                    near.append(r * w + c + 1)
                self.neighbours.append(tuple(near))
        self.owner = [FREE] * (w * h)
        for (r, c) in puzzle.blocked:
            self.owner[r * w + c] = WALL
        self.pairs = puzzle.pairs
        self.heads: list[list[int]] = []
        self.paths: list[tuple[list[int], list[int]]] = []
        for k, pair in enumerate(puzzle.pairs):
            a = pair.start[0] * w + pair.start[1]
            b = pair.end[0] * w + pair.end[1]
            self.owner[a] = self.owner[b] = k
            self.heads.append([a, b])
            self.paths.append(([a], [b]))
        # the 8 cells around each cell, clockwise from north (-1 off the board), for the local
        # test of whether taking a cell can split its free region
        self.ring: list[tuple[int, ...]] = []
        for r in range(h):
            self._check_setup_clock()
            for c in range(w):
                around = []
                for dr, dc in ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)):
                    rr, cc = r + dr, c + dc
                    around.append(rr * w + cc if 0 <= rr < h and 0 <= cc < w else -1)
                self.ring.append(tuple(around))
        self.black = [(i // w + i % w) % 2 == 0 for i in range(w * h)]  # chessboard colour
        self.done = [False] * len(self.pairs)
        self.open_pairs = len(self.pairs)
        self.free_count = self.owner.count(FREE)
        self.nodes = 0
        # free regions: a label per free cell, cells per label, labels with cells; relabelled
        # only when a move may split a region (the old labelling is kept for the undo)
        self.region: list[int] = []
        self.region_size: list[int] = []
        self.region_black: list[int] = []
        self.live_regions = 0
        self._check_setup_clock()
        self._relabel()

    def _check_setup_clock(self) -> None:
        if self.deadline.expired():
            raise SearchTimeout("time limit reached while setting up the search")

    # -- moves ----------------------------------------------------------------------------
    def moves_of(self, k: int, side: int) -> list[tuple[int, int, int, int]]:
        """Legal moves of head ``side`` of pair ``k``, most promising first."""
        owner, neighbours = self.owner, self.neighbours
        here = self.heads[k][side]
        other = self.heads[k][1 - side]
        no_touch = self.rules.no_self_touch
        if no_touch and other in neighbours[here]:
            return [(k, side, other, JOIN)]  # adjacent heads must join, or the path touches itself
        steps: list[tuple[int, tuple[int, int, int, int]]] = []
        joins = []
        for n in neighbours[here]:
            if n == other:
                joins.append((k, side, n, JOIN))
                continue
            if owner[n] != FREE:
                continue
            kind = STEP
            exits = 0
            if no_touch:
                bad = False
                for m in neighbours[n]:
                    if m == here:
                        continue
                    if owner[m] == k:
                        if m == other:
                            kind = STEP_JOIN
                        else:
                            bad = True
                            break
                if bad:
                    continue
            for m in neighbours[n]:
                if owner[m] == FREE:
                    exits += 1
            steps.append((exits, (k, side, n, kind)))
        steps.sort(key=lambda item: item[0])
        return joins + [move for _, move in steps]

    def choose(self) -> list[tuple[int, int, int, int]] | None:
        """Moves of the most constrained head; None when every pair is joined.

        Under cover-all rules a free cell next to a head that has only two ways left to be
        threaded (free neighbours or open heads) forces that head into it; two such cells
        around one head are a dead end. Otherwise the head with the fewest free neighbours
        (counting a possible join) is extended."""
        owner, neighbours, heads, done = self.owner, self.neighbours, self.heads, self.done
        cover_all = self.rules.cover_all
        best_k = best_side = -1
        best_count = 5
        for k in range(len(self.pairs)):
            if done[k]:
                continue
            pair_heads = heads[k]
            for side in (0, 1):
                here, other = pair_heads[side], pair_heads[1 - side]
                n = 0
                forced = -1
                for m in neighbours[here]:
                    if owner[m] == FREE:
                        n += 1
                        if cover_all:
                            ways = 0
                            for q in neighbours[m]:
                                o = owner[q]
                                if o == FREE or (o >= 0 and not done[o] and (q == heads[o][0] or q == heads[o][1])):
                                    ways += 1
                            if ways <= 2:
                                if forced >= 0:
                                    return []  # two cells that only this head can thread
                                forced = m
                    elif m == other:
                        n += 1
                if forced >= 0:
                    return [move for move in self.moves_of(k, side) if move[2] == forced]
                if n < best_count:
                    best_k, best_side, best_count = k, side, n
        if best_k < 0:
            return None
        return self.moves_of(best_k, best_side)

    def apply(self, move: tuple[int, int, int, int]) -> tuple | None:
        """Make the move; returns what :meth:`undo` needs to restore the region labels."""
        k, side, cell, kind = move
        token = None
        if kind != JOIN:
            self.owner[cell] = k
            self.paths[k][side].append(cell)
            self.heads[k][side] = cell
            self.free_count -= 1
            if self._may_split(cell):
                token = (self.region, self.region_size, self.region_black, self.live_regions)
                self._relabel()
            else:
                label = self.region[cell]
                self.region_size[label] -= 1
                self.region_black[label] -= self.black[cell]
                if self.region_size[label] == 0:
                    self.live_regions -= 1
        if kind != STEP:
            self.done[k] = True
            self.open_pairs -= 1
        return token

    def undo(self, move: tuple[int, int, int, int], token: tuple | None) -> None:
        k, side, cell, kind = move
        if kind != STEP:
            self.done[k] = False
            self.open_pairs += 1
        if kind != JOIN:
            if token is not None:
                self.region, self.region_size, self.region_black, self.live_regions = token
            else:
                label = self.region[cell]
                if self.region_size[label] == 0:
                    self.live_regions += 1
                self.region_size[label] += 1
                self.region_black[label] += self.black[cell]
            self.owner[cell] = FREE
            path = self.paths[k][side]
            path.pop()
            self.heads[k][side] = path[-1]
            self.free_count += 1

    def _may_split(self, cell: int) -> bool:
        """Can taking ``cell`` disconnect its free neighbours? (False when they stay joined
        through the free cells around it.)"""
        owner = self.owner
        ring = self.ring[cell]
        free = [i >= 0 and owner[i] == FREE for i in ring]
        orthogonal = free[0] + free[2] + free[4] + free[6]
        if orthogonal <= 1:
            return False
        joined = 0
        for i in (0, 2, 4, 6):
            if free[i] and free[i + 1] and free[(i + 2) % 8]:
                joined += 1
        return orthogonal - joined > 1 and joined < 4

    def _relabel(self) -> None:
        owner, neighbours = self.owner, self.neighbours
        region = [-1] * len(owner)
        sizes: list[int] = []
        blacks: list[int] = []
        black = self.black
        for start in range(len(owner)):
            if owner[start] != FREE or region[start] != -1:
                continue
            label = len(sizes)
            region[start] = label
            stack = [start]
            size = blacks_here = 0
            while stack:
                x = stack.pop()
                size += 1
                blacks_here += black[x]
                for m in neighbours[x]:
                    if owner[m] == FREE and region[m] == -1:
                        region[m] = label
                        stack.append(m)
            sizes.append(size)
            blacks.append(blacks_here)
        self.region, self.region_size, self.region_black, self.live_regions = region, sizes, blacks, len(sizes)

    # -- pruning --------------------------------------------------------------------------
    def _threadable(self, cell: int) -> bool:
        """Cover-all: can a path still pass through this free cell?"""
        free = 0
        head_pairs: list[int] = []
        for m in self.neighbours[cell]:
            o = self.owner[m]
            if o == FREE:
                free += 1
            elif o >= 0 and not self.done[o] and m in self.heads[o]:
                head_pairs.append(o)
        if free + len(head_pairs) < 2:
            return False
        if free == 0:  # both path neighbours must be the two heads of one pair
            return len(set(head_pairs)) < len(head_pairs)
        return True

    def feasible_after(self, move: tuple[int, int, int, int], came_from: int) -> bool:
        """Cheap local checks around the move, then the region check."""
        if self.rules.cover_all:
            k, side, cell, kind = move
            touched = [came_from, cell]
            if kind != STEP:
                touched.append(self.heads[k][1 - side])
            owner = self.owner
            for t in touched:
                for m in self.neighbours[t]:
                    if owner[m] == FREE and not self._threadable(m):
                        return False
        return self.regions_ok()

    def regions_ok(self) -> bool:
        """Every open pair's heads touch a common free region (or each other). Under cover-all,
        also: every free region can be entered and left by some open pair, and its chessboard
        colours balance. A pair's stretch through a region alternates colours, so it holds one
        cell more of the colour opposite its heads when both heads share a colour, and as many
        of each colour otherwise; a region with ``d`` more black than white cells needs at least
        ``d`` open pairs with both heads white that can use it (and likewise for white)."""
        owner, neighbours, region, black = self.owner, self.neighbours, self.region, self.black
        cover_all = self.rules.cover_all
        claimed: dict[int, list[int]] = {}
        for k in range(len(self.pairs)):
            if self.done[k]:
                continue
            a, b = self.heads[k]
            near_a = {region[m] for m in neighbours[a] if owner[m] == FREE}
            common = {region[m] for m in neighbours[b] if owner[m] == FREE and region[m] in near_a}
            if not common and b not in neighbours[a]:
                return False
            if cover_all:
                surplus = 0 if black[a] != black[b] else (-1 if black[a] else 1)  # black minus white it adds
                for r in common:
                    counts = claimed.get(r)
                    if counts is None:
                        counts = claimed[r] = [0, 0]
                    if surplus > 0:
                        counts[0] += 1
                    elif surplus < 0:
                        counts[1] += 1
        if not cover_all:
            return True
        if len(claimed) < self.live_regions:
            return False
        sizes, blacks = self.region_size, self.region_black
        for r, (more_black, more_white) in claimed.items():
            d = 2 * blacks[r] - sizes[r]
            if d > more_black or -d > more_white:
                return False
        return True

    def complete(self) -> bool:
        return self.open_pairs == 0 and (not self.rules.cover_all or self.free_count == 0)

    # -- answers --------------------------------------------------------------------------
    def solution(self) -> Solution:
        w = self.width
        paths = []
        for pair, (from_start, from_end) in zip(self.pairs, self.paths):
            cells = from_start + from_end[::-1]
            paths.append((pair.label, tuple((i // w, i % w) for i in cells)))
        return Solution(tuple(paths))

    def tick(self) -> None:
        self.nodes += 1
        if self.nodes % CHECK_CLOCK_EVERY == 0 and self.deadline.expired():
            raise SearchTimeout(f"time limit reached after {self.nodes} nodes")

    def run(self) -> Iterator[Solution]:
        """Every answer once (depth first, explicit stack: no recursion limit on big boards)."""
        if self.deadline.expired():
            raise SearchTimeout("time limit reached before the search started")
        if not self.regions_ok():
            return
        if self.open_pairs == 0:
            if self.complete():
                yield self._checked(self.solution())
            return
        first = self.choose()
        # a frame: [moves, next index, move applied (or None), its undo token]
        stack: list[list] = [[first, 0, None, None]]
        while stack:
            frame = stack[-1]
            if frame[2] is not None:
                self.undo(frame[2], frame[3])
                frame[2] = None
            moves = frame[0]
            if frame[1] >= len(moves):
                stack.pop()
                continue
            move = moves[frame[1]]
            frame[1] += 1
            came_from = self.heads[move[0]][move[1]]
            frame[3] = self.apply(move)
            frame[2] = move
            self.tick()
            if not self.feasible_after(move, came_from):
                continue
            if self.open_pairs == 0:
                if self.complete():
                    yield self._checked(self.solution())
                continue
            nxt = self.choose()
            if nxt:
                stack.append([nxt, 0, None, None])

    def _checked(self, solution: Solution) -> Solution:
        require_valid(verify(self.puzzle, solution, self.rules), "backtracking")  # (a bug in the search)
        return solution
