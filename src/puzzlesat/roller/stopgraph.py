"""The stop graph of a Roller level, its key cells, and an exact polynomial feasibility check.

Rule in a sentence: the ball slides until a wall, painting every cell it passes, so the only
places it can rest are the start and the cells where a slide ends (*stops*); a level is solved
by a walk in the graph of stops whose moves together paint every floor cell.

The graph (a networkx ``DiGraph``) has one node per stop reachable from the start and one edge
per move ``u -> v``, labelled with its direction and the cells it paints. From a stop, slides in
different directions end at different cells, so there is at most one edge per ordered pair.

*Key cells* are the floor cells a solver must see painted: the start is painted from the
beginning, and a cell ``c`` is dropped when some kept cell ``d`` is painted only by moves that
also paint ``c`` (painting ``d`` then paints ``c``). :func:`feasibility` decides in polynomial
time whether one walk from the start can paint every floor cell, and names the cells that stop
it when it cannot (see ``encodings/roller.md`` for the proof).

>>> from puzzlesat.roller.model import Level
>>> g = StopGraph.of(Level.from_rows(["#######", "#o....#", "#.###.#", "#.....#", "#######"]))
>>> g.stops
((1, 1), (1, 5), (3, 1), (3, 5))
>>> [(m.tail, m.direction, m.head) for m in g.moves_from[(1, 1)]]
[((1, 1), 'D', (3, 1)), ((1, 1), 'R', (1, 5))]
>>> len(g.key_cells) < len(g.floor_cells), g.feasibility().solvable
(True, True)
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Iterable, Sequence

from ..grid import Cell
from .model import Level, slide

if TYPE_CHECKING:
    import networkx as nx

# networkx is imported where it is used, not here: it takes about 0.2 s, and every command-line
# run imports this module (through the roller package) whatever the family it reads.

DIRECTIONS = "UDLR"


@dataclass(frozen=True)
class Move:
    """One edge of the stop graph: from ``tail`` the ball slides ``direction`` to ``head``."""

    index: int
    tail: Cell
    head: Cell
    direction: str
    painted: frozenset[Cell]


@dataclass(frozen=True)
class Feasibility:
    """Whether one walk from the start can paint every floor cell; if not, why, and which cells."""

    solvable: bool
    reason: str = ""
    cells: tuple[Cell, ...] = ()


@dataclass(frozen=True, eq=False)
class StopGraph:
    """Stops reachable from the start, the moves between them, key cells and components."""

    level: Level
    start: Cell
    stops: tuple[Cell, ...]
    moves: tuple[Move, ...]
    floor_cells: frozenset[Cell]
    moves_from: dict[Cell, tuple[Move, ...]] = field(repr=False)

    @classmethod
    def of(cls, level: Level) -> "StopGraph":
        """Build the graph by breadth-first search of slides from the start (polynomial)."""
        start = tuple(level.start)
        seen = {start}
        queue = deque([start])
        moves: list[Move] = []
        moves_from: dict[Cell, list[Move]] = {}
        while queue:
            cell = queue.popleft()
            out = moves_from.setdefault(cell, [])
            for direction in DIRECTIONS:
                head, painted = slide(level, cell, direction)
                head = tuple(head)
                if head == cell:
                    continue
                move = Move(len(moves), cell, head, direction, frozenset(map(tuple, painted)))
                moves.append(move)
                out.append(move)
                if head not in seen:
                    seen.add(head)
                    queue.append(head)
        floor = frozenset(level.floor_cells)
        return cls(
            level=level,
            start=start,
            stops=tuple(sorted(seen)),
            moves=tuple(moves),
            floor_cells=floor,
            moves_from={c: tuple(sorted(ms, key=lambda m: m.direction)) for c, ms in moves_from.items()},
        )

    # ----------------------------------------------------------------- the networkx view
    @cached_property
    def graph(self) -> nx.DiGraph:
        """Nodes: stops; edges ``u -> v`` with attributes ``direction``, ``painted``, ``index``."""
        import networkx as nx

        g = nx.DiGraph()
        g.add_nodes_from(self.stops)
        for m in self.moves:
            g.add_edge(m.tail, m.head, direction=m.direction, painted=m.painted, index=m.index)
        return g

    @cached_property
    def components(self) -> tuple[frozenset[Cell], ...]:
        """Strongly connected components, in a topological order of the condensation."""
        import networkx as nx

        dag = self.condensation
        return tuple(frozenset(dag.nodes[i]["members"]) for i in nx.topological_sort(dag))

    @cached_property
    def condensation(self) -> nx.DiGraph:
        import networkx as nx

        return nx.condensation(self.graph)

    @cached_property
    def component_of(self) -> dict[Cell, int]:
        """Stop -> node of :attr:`condensation`."""
        return dict(self.condensation.graph["mapping"])

    # ----------------------------------------------------------------- cells and moves
    @cached_property
    def painting_moves(self) -> dict[Cell, frozenset[int]]:
        """Floor cell -> indices of the moves that paint it (empty set when none does)."""
        by_cell: dict[Cell, set[int]] = {c: set() for c in self.floor_cells}
        for m in self.moves:
            for c in m.painted:
                by_cell[c].add(m.index)
        return {c: frozenset(s) for c, s in by_cell.items()}

    @cached_property
    def unpaintable(self) -> tuple[Cell, ...]:
        """Floor cells (other than the start) that no move reachable from the start paints."""
        return tuple(sorted(c for c, ms in self.painting_moves.items() if not ms and c != self.start))

    @cached_property
    def key_cells(self) -> tuple[Cell, ...]:
        """Cells whose painting implies that every floor cell is painted (see module doc).

        Cells are taken in order of how few moves paint them; a cell is dropped when a cell
        already kept is painted only by moves that also paint it. Every dropped cell so has a
        kept witness, so painting all key cells paints the whole floor. Unpaintable cells are
        kept (a solver must see them and fail).
        """
        candidates = sorted(
            (c for c in self.floor_cells if c != self.start),
            key=lambda c: (len(self.painting_moves[c]), c),
        )
        kept: list[Cell] = []
        # a kept set inside ``moves`` holds its own smallest move, so only the kept sets filed
        # under a move of ``moves`` need a look (comparing with every kept set was quadratic:
        # seconds on boards of tens of thousands of floor cells)
        kept_by_least: dict[int, list[frozenset[int]]] = {}
        kept_empty = False  # an unpaintable cell is kept, and the empty set is inside every set
        for c in candidates:
            moves = self.painting_moves[c]
            if moves and (kept_empty or any(s <= moves for m in moves for s in kept_by_least.get(m, ()))):
                continue
            kept.append(c)
            if moves:
                kept_by_least.setdefault(min(moves), []).append(moves)
            else:
                kept_empty = True
        return tuple(sorted(kept))

    def replay(self, moves: str) -> tuple[Cell, set[Cell]]:
        """Where a move string ends and the cells it paints (start included); raises ValueError
        on a move the stop graph does not have. Solvers use it to rebuild answers."""
        cell = self.start
        painted = {cell}
        for d in moves:
            move = next((m for m in self.moves_from.get(cell, ()) if m.direction == d), None)
            if move is None:
                raise ValueError(f"no move {d!r} from {cell}")
            painted |= move.painted
            cell = move.head
        return cell, painted

    # ----------------------------------------------------------------- lower bound
    @cached_property
    def runs(self) -> dict[Cell, tuple[int, int]]:
        """Floor cell -> (row-run id, column-run id): the maximal horizontal and vertical
        stretches of floor through it. A move paints cells of exactly one run."""
        floor = self.floor_cells
        row_run: dict[Cell, int] = {}
        col_run: dict[Cell, int] = {}
        next_id = 0
        # rows in row-major order, then columns in column-major order (ids as before)
        for run, (dr, dc), order in ((row_run, (0, 1), sorted(floor)),
                                     (col_run, (1, 0), sorted(floor, key=lambda rc: (rc[1], rc[0])))):
            for cell in order:
                if cell in run:
                    continue
                while cell in floor:
                    run[cell] = next_id
                    cell = (cell[0] + dr, cell[1] + dc)
                next_id += 1
        return {c: (row_run[c], col_run[c]) for c in floor}

    def run_lower_bound(self, cells: Iterable[Cell]) -> int:
        """Admissible bound on the moves needed to paint ``cells``: a move paints cells of one
        row-run or one column-run, so the moves form a vertex cover of the bipartite graph
        (row-runs x column-runs, one edge per cell); its minimum equals the maximum matching
        (Konig)."""
        return max_bipartite_matching([self.runs[c] for c in cells])

    # ----------------------------------------------------------------- feasibility
    def candidate_components(self, cell: Cell) -> frozenset[int]:
        """Components in which ``cell`` can be painted: those holding the head of a painting
        move. (A move ``u -> v`` paints nothing that the move ``v -> u'`` back along the same
        line does not, and ``v``, ``u'`` share a component, so a walk paints ``cell`` exactly
        when it visits one of these components.) At most two: one per run through the cell."""
        comp = self.component_of
        return frozenset(comp[self.moves[i].head] for i in self.painting_moves[cell])

    def feasibility(self) -> Feasibility:
        """Decide whether one walk from the start paints every floor cell (exact, polynomial).

        A walk visits the components of the condensation along one chain, and paints a cell
        exactly when it visits one of the cell's (at most two) candidate components; so the level
        is solvable iff a set of pairwise comparable components meets every cell's candidates,
        a 2-SAT problem. When it is not, the reason names a minimal set of cells that no walk
        paints together.
        """
        if self.unpaintable:
            cells = self.unpaintable
            return Feasibility(False, f"{len(cells)} floor cell(s) can never be painted from the start "
                                      f"{self.start}: {_cells_text(cells)}", cells)
        cells = list(self.key_cells)
        if self._chain_exists(cells):
            return Feasibility(True)
        # Shrink to a minimal set of cells that cannot all be painted (deletion filter).
        needed = list(cells)
        for c in list(needed):
            trial = [d for d in needed if d != c]
            if not self._chain_exists(trial):
                needed = trial
        needed_t = tuple(sorted(needed))
        return Feasibility(
            False,
            f"no walk from the start {self.start} paints all of {_cells_text(needed_t)}: "
            f"painting one of them leads into a part of the board the ball cannot leave "
            f"to reach the others",
            needed_t,
        )

    @cached_property
    def reachable_components(self) -> dict[int, set[int]]:
        """Condensation node -> the nodes it reaches (itself included)."""
        import networkx as nx

        dag = self.condensation
        return {n: nx.descendants(dag, n) | {n} for n in dag.nodes}

    def _comparable(self, a: int, b: int) -> bool:
        return b in self.reachable_components[a] or a in self.reachable_components[b]

    def _chain_exists(self, cells: Sequence[Cell]) -> bool:
        """2-SAT: choose components (z_C) so that each cell has a chosen candidate and any two
        chosen components are comparable (one reaches the other)."""
        clauses: list[tuple[tuple[int, bool], ...]] = []
        comps: set[int] = set()
        for c in cells:
            cand = sorted(self.candidate_components(c))
            if not cand:
                return False
            assert len(cand) <= 2, "a cell lies on one row-run and one column-run"
            comps.update(cand)
            clauses.append(tuple((x, True) for x in cand))
        ordered = sorted(comps)
        for i, a in enumerate(ordered):
            for b in ordered[i + 1:]:
                if not self._comparable(a, b):
                    clauses.append(((a, False), (b, False)))
        return two_sat_satisfiable(clauses)


# --------------------------------------------------------------------- helpers
def _cells_text(cells: Sequence[Cell], limit: int = 12) -> str:
    shown = ", ".join(f"({r},{c})" for r, c in cells[:limit])
    return shown + (f" and {len(cells) - limit} more" if len(cells) > limit else "")


def two_sat_satisfiable(clauses: Iterable[tuple[tuple[object, bool], ...]]) -> bool:
    """Satisfiability of clauses of one or two literals ``(variable, polarity)``, by the
    strongly connected components of the implication graph.

    >>> two_sat_satisfiable([(("a", True),), (("a", False), ("b", False)), (("b", True),)])
    False
    >>> two_sat_satisfiable([(("a", True), ("b", True)), (("a", False), ("b", False))])
    True
    """
    import networkx as nx

    g = nx.DiGraph()
    for clause in clauses:
        if len(clause) == 1:
            (x, p), = clause
            g.add_edge((x, not p), (x, p))
        else:
            (x, p), (y, q) = clause
            g.add_edge((x, not p), (y, q))
            g.add_edge((y, not q), (x, p))
    for comp in nx.strongly_connected_components(g):
        if any((x, not p) in comp for x, p in comp):
            return False
    return True


def max_bipartite_matching(edges: Sequence[tuple[int, int]]) -> int:
    """Size of a maximum matching of a bipartite graph given as (left, right) pairs (augmenting
    paths; the graphs here have a few dozen vertices).

    >>> max_bipartite_matching([(0, 10), (0, 11), (1, 10)])
    2
    """
    adj: dict[int, list[int]] = {}
    for a, b in edges:
        adj.setdefault(a, []).append(b)
    match_right: dict[int, int] = {}

    def augment(a: int, seen: set[int]) -> bool:
        for b in adj[a]:
            if b in seen:
                continue
            seen.add(b)
            if b not in match_right or augment(match_right[b], seen):
                match_right[b] = a
                return True
        return False

    return sum(1 for a in adj if augment(a, set()))
