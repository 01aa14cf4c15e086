"""Numberlink's certificate formula: the rules without "no stray cycle", to which a certificate
adds, in order, rows and cuts that every answer satisfies (``encodings/certificates.md``,
"Numberlink's certificate formula"). It is small (no ranks), so it is fast to build, solve,
write and check; what it leaves out is added only where a model needs it, and each addition is
re-derived and checked by the checker like the rest.

Rules: connect each pair's two cells by an orthogonal path through free cells; paths never
share a cell; under cover-all every free cell lies on a path; under no-self-touch a path never
runs beside itself. The base formula: edge variables (the answer), degrees (an endpoint one
edge, an inner cell two, or zero or two when cells may stay empty), binary label codes copied
along edges (endpoints fix them), edges between endpoints of different labels off, the 2x2
blocks (not four edges; under no-self-touch not three), and under no-self-touch the rows that
join an endpoint's inner neighbour of its label and two adjacent endpoints of one label; on a
stack with vias, the via rows (:meth:`Formula._vias`). The additions:

* ``("touch", (u, v))``: under no-self-touch, the rows saying that two adjacent inner cells with
  one label code are joined by their edge (the rules' own rows, left out until a model breaks
  them);
* ``("cycle", cells, inside)``: a cut for a stray cycle through ``cells`` (no endpoint among
  them): under cover-all the OR of the edges leaving ``cells`` (``inside`` None), else for each
  edge of ``inside`` (both its cells in ``cells``) "that edge off, or an edge leaves". Valid for
  every answer: a path through a cell of the set has its two ends outside it;
* ``("answer", solution)``: the OR of the negated edges of that answer.

>>> from puzzlesat.numberlink.model import Puzzle, Rules
>>> f = Formula(Puzzle.from_rows(["A.A", "B.B"]), Rules(no_self_touch=True))
>>> f.nv, len(f.clauses)
(9, 36)
>>> model = [1, -2, 3, -4, -5, 6, 7, -8, 9]  # edges 1, 3 (A) and 6, 7 (B) on; B has code 1
>>> answer, repairs = f.examine(model)
>>> answer.path("B"), repairs
(((1, 0), (1, 1), (1, 2)), [])
>>> len(f.add(("answer", answer))), f.clauses[-1]
(1, [-1, -3, -6, -7])
"""

from __future__ import annotations

from functools import cached_property
from itertools import chain

import numpy as np

from . import relaxed_base as base
from ..collector import paused
from .model import Rules

def _cell(c) -> str:
    return str(tuple(c)).replace(" ", "")  # (2,3)


class Formula:
    """The base formula of ``puzzle`` under ``rules`` (``clauses``, ``nv``, ``comments``: read
    as a ``pysat.formula.CNF`` is), grown by :meth:`add`."""

    def __init__(self, puzzle, rules: Rules) -> None:
        self.puzzle, self.rules = puzzle, rules
        self._added: list[list[int]] = []  # the additions' rows, after the base
        self.additions: list[tuple] = []
        self.endpoint = puzzle.endpoints()
        labels = puzzle.labels
        self.empty_code = rules.no_self_touch and not rules.cover_all  # code 0: no label (an empty cell)
        shift = 1 if self.empty_code else 0
        self.code = {label: k + shift for k, label in enumerate(labels)}
        self.codes = list(range(shift, len(labels) + shift))
        self.bits = (len(labels) - 1 + shift).bit_length()
        self._differs: dict[tuple, list[int]] = {}
        self._touched: set[tuple] = set()
        self.notes = [f"c numberlink {'x'.join(map(str, _size(puzzle)))} rules: {rules}: certificate formula "
                      "(the rules without 'no stray cycle'; rows and cuts that every answer satisfies follow the base)"]
        with paused():
            free = list(puzzle.free_cells())
            if hasattr(puzzle, "layers"):  # a stack: the graph as dictionaries, the rows from them
                self.edges, self.edge, self.around, self.x, self.nv = base.stack_graph(puzzle, free, self.endpoint, self.bits)
                pieces = base.stack_rows(puzzle, rules, self.endpoint, self.code, self.bits, self.edge, self.around, self.x)
            else:  # one layer: the numbering and the rows from arrays over the board
                self._free = free
                self.nv, self._grids, pieces = base.board_rows(puzzle, rules, free, self.endpoint, self.code, self.bits)
            if getattr(puzzle, "vias", ()):
                vias = self._vias()
                pieces += [[c for c in vias if len(c) > 1], [c for c in vias if len(c) < 2]]
        # units last: a solver propagates a unit as it comes, deriving lemmas between the
        # clauses, and a proof's numbers are simplest when few clauses come after lemmas
        wide = [_width(piece) > 1 for piece in pieces]
        self._pieces = [p for p, w in zip(pieces, wide) if w and len(p)] + [p for p, w in zip(pieces, wide) if not w and len(p)]
        self.base = sum(map(len, self._pieces))
        self._base_lists: list | None = None
        self._base_arrays: tuple | None = None

    @property
    def clauses(self) -> list[list[int]]:
        """Every clause, as lists (the base, then the additions' rows)."""
        if self._base_lists is None:
            with paused():
                self._base_lists = [row for rows in self._lists() for row in rows]
        return self._base_lists + self._added

    def _lists(self):
        for piece in self._pieces:
            yield piece.tolist() if isinstance(piece, np.ndarray) else piece

    def pieces(self):
        """The clauses as lists, a block at a time (for a solver: no list of them all kept)."""
        yield from self._lists()
        yield self._added

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """The clauses as one array of literals and where each clause starts in it (and the end)."""
        if self._base_arrays is None:
            self._base_arrays = _flat(self._pieces)
        lits, ends = self._base_arrays
        if not self._added:
            return lits, np.concatenate(([0], ends))
        more, more_ends = _flat([self._added])
        return np.concatenate((lits, more)), np.concatenate(([0], ends, more_ends + lits.size))

    # one layer: the graph as dictionaries, made from the grids when asked for
    @cached_property
    def edges(self) -> list[tuple]:
        right, down, _ = self._grids
        found = [(e, (r, c), (r, c + 1)) for e, (r, c) in zip(right[right > 0].tolist(), np.argwhere(right > 0).tolist())]
        found += [(e, (r, c), (r + 1, c)) for e, (r, c) in zip(down[down > 0].tolist(), np.argwhere(down > 0).tolist())]
        return [(u, v) for _, u, v in sorted(found)]

    @cached_property
    def edge(self) -> dict[tuple, int]:
        return {pair: e for e, pair in enumerate(self.edges, 1)}

    @cached_property
    def around(self) -> dict:
        around: dict = {c: [] for c in self._free}
        for (u, v), e in self.edge.items():
            around[u].append((v, e))
            around[v].append((u, e))
        return around

    @cached_property
    def x(self) -> dict:
        first = self._grids[2]
        return {c: list(range(int(first[c]), int(first[c]) + self.bits)) for c in self._free if first[c]}

    # -- the base -------------------------------------------------------------------------------

    def has(self, c, k: int) -> list[int]:
        """The literals that together say "inner cell ``c`` has label code ``k``"."""
        return [x if (k >> i) & 1 else -x for i, x in enumerate(self.x[c])]

    def _vias(self) -> list[list[int]]:
        """A stack's vias (``numberlink-multilayer.md``): the steps of each via on (one path passes
        it whole); its first cell has the code of a label whose ends lie on the via's first and
        last layers (a path changes layer only in a via, and in one at most); two vias that one
        label could pass have different codes (no path passes two)."""
        puzzle, clauses = self.puzzle, []  # (no via holds an endpoint: the puzzle refuses one)
        allowed = {via.name: {pair.label for pair in puzzle.pairs if sorted((pair.start[0], pair.end[0])) == list(via.layer_span)}
                   for via in puzzle.vias}
        for via in puzzle.vias:
            clauses += [[self.edge[(a, b)]] for a, b in zip(via.cells, via.cells[1:])]
            clauses += [[-lit for lit in self.has(via.cells[0], k)] for label, k in self.code.items() if label not in allowed[via.name]]
        for i, v in enumerate(puzzle.vias):
            for w in puzzle.vias[i + 1:]:
                if allowed[v.name] & allowed[w.name]:
                    clauses += self._differ(v.cells[0], w.cells[0])
        return clauses

    def _differ(self, u, v) -> list[list[int]]:
        """Rows defining "bit i of the codes of ``u`` and ``v`` differs" (``b`` variables, made once
        per two cells), and the row that some bit differs."""
        if (u, v) not in self._differs:
            self._differs[(u, v)] = list(range(self.nv + 1, self.nv + 1 + self.bits))
            self.nv += self.bits
        ds = self._differs[(u, v)]
        rows = [list(ds)]
        for d, a, b in zip(ds, self.x[u], self.x[v]):
            rows += [[-d, a, b], [-d, -a, -b]]
        return rows

    # -- additions ------------------------------------------------------------------------------

    def add(self, item: tuple) -> list[list[int]]:
        """Append the clauses of one addition (see the module's docstring) and return them;
        ValueError for an addition that is not valid for every answer."""
        kind = item[0]
        if kind == "touch":
            rows = self._touch(*item[1])
        elif kind == "cycle":
            rows = self._cycle(item[1], item[2] if len(item) > 2 else None)
        elif kind == "answer":
            rows = [[-e for e in self._steps(item[1])]]
        else:
            raise ValueError(f"unknown addition {kind!r}")
        self._added.extend(rows)
        self.additions.append(item)
        return rows

    def _steps(self, answer) -> list[int]:
        """The edges an answer's paths take (KeyError for a step along no edge)."""
        if getattr(self, "_grids", None) is None:
            return [self.edge[tuple(sorted((a, b)))] for _, cells in answer.paths for a, b in zip(cells, cells[1:])]
        right, down, _ = self._grids  # (one layer: read from the grids, no dictionary made)
        steps = np.array([(a, b) for _, cells in answer.paths for a, b in zip(cells, cells[1:])], dtype=np.int64).reshape(-1, 2, 2)
        low, apart = steps.min(axis=1), np.abs(steps[:, 0] - steps[:, 1])
        inside = (low >= 0).all(axis=1) & (low[:, 0] < right.shape[0]) & (low[:, 1] < right.shape[1])
        low = np.where(inside[:, None], low, 0)
        edges = np.where(apart[:, 0] == 0, right[low[:, 0], low[:, 1]], down[low[:, 0], low[:, 1]])
        if not (inside.all() and (apart.sum(axis=1) == 1).all() and (edges > 0).all()):
            raise KeyError("an answer's step joins no two adjacent free cells")
        return edges.tolist()

    def _touch(self, u, v) -> list[list[int]]:
        u, v = sorted((tuple(u), tuple(v)))
        e = self.edge.get((u, v))
        if not self.rules.no_self_touch or e is None or u not in self.x or v not in self.x:
            raise ValueError(f"no touch rows for {_cell(u)}-{_cell(v)}: they join two adjacent inner cells under no-self-touch rules")
        self._touched.add((u, v))
        if self.rules.cover_all and len(self.codes) > 2 * self.bits + 1:  # "some bit differs", b variables
            rows = self._differ(u, v)
            return [[e] + rows[0]] + rows[1:]
        return [[e] + [-lit for lit in self.has(u, k)] + [-lit for lit in self.has(v, k)] for k in self.codes]

    def _cycle(self, cells, inside) -> list[list[int]]:
        cells = {tuple(c) for c in cells}
        if not cells or any(c not in self.x for c in cells):
            raise ValueError("a cycle cut's cells must be inner cells (no endpoint, none blocked), at least one")
        leaving = [e for c in sorted(cells) for n, e in self.around[c] if n not in cells]
        if self.rules.cover_all:
            if inside is not None:
                raise ValueError("under cover-all a cycle cut names no edges inside")
            return [leaving]
        inside = [tuple(sorted((tuple(a), tuple(b)))) for a, b in inside or ()]
        if not inside or any(a not in cells or b not in cells or (a, b) not in self.edge for a, b in inside):
            raise ValueError("a cycle cut's edges must join two of its cells, at least one")
        return [[-self.edge[ab]] + leaving for ab in inside]

    # -- reading a model ------------------------------------------------------------------------

    def examine(self, model: list[int]):
        """(the answer the model draws, or None; the additions that exclude the model when it
        breaks the rules: cuts of its stray cycles, touch rows it breaks)."""
        puzzle, endpoint = self.puzzle, self.endpoint
        nb: dict = {}
        for (u, v), e in self.edge.items():
            if model[e - 1] > 0:
                nb.setdefault(u, []).append(v)
                nb.setdefault(v, []).append(u)
        on_path, paths = {}, {}
        for index, pair in enumerate(puzzle.pairs):
            path, previous = [pair.start], None
            while len(path) == 1 or path[-1] not in endpoint:
                step = [n for n in nb.get(path[-1], ()) if n != previous]
                if not step:
                    break
                previous = path[-1]
                path.append(step[0])
            paths[pair.label] = path
            for c in path:
                on_path[c] = index
        repairs: list[tuple] = []
        seen = set(on_path)
        for start in nb:
            if start in seen:
                continue
            cycle, todo = [], [start]
            seen.add(start)
            while todo:
                c = todo.pop()
                cycle.append(c)
                for n in nb[c]:
                    if n not in seen:
                        seen.add(n)
                        todo.append(n)
            inside = None if self.rules.cover_all else [sorted((c, n)) for c in cycle for n in nb[c] if c < n][:16]
            repairs.append(("cycle", sorted(cycle), inside))
        if self.rules.no_self_touch:
            for (u, v), e in self.edge.items():
                if model[e - 1] < 0 and on_path.get(u, -1) == on_path.get(v, -2) and u in self.x and v in self.x \
                        and (u, v) not in self._touched:
                    repairs.append(("touch", (u, v)))
        if repairs:
            return None, repairs
        return _solution(puzzle, paths), []

    # -- the file -------------------------------------------------------------------------------

    @property
    def comments(self) -> list[str]:
        lines = list(self.notes)
        name = {c: _cell(c) for c in getattr(self, "_free", None) or self.around}  # (each cell's name made once)
        lines += [f"c var {e} edge {name[u]}-{name[v]}" for (u, v), e in self.edge.items()]
        if self.bits:
            lines += [f"c vars {xs[0]}-{xs[-1]} label code of {name[c]}, least significant bit first" for c, xs in self.x.items()]
        lines += [f"c vars {ds[0]}-{ds[-1]} the code bits of {_cell(u)} and {_cell(v)} that differ" for (u, v), ds in self._differs.items() if ds]
        lines.append("c label codes: " + ", ".join(f"{label} {k}" for label, k in self.code.items())
                     + (" (0: an empty cell)" if self.empty_code else ""))
        lines.append(f"c base: clauses 1-{self.base}; then " + (", ".join(_addition_text(item) for item in self.additions) or "nothing"))
        lines.append("c answer " + " ".join(map(str, range(1, len(self.edges) + 1))))
        return lines


def _width(piece) -> int:
    """The width of a block's clauses (a list of rows: its widest)."""
    if isinstance(piece, np.ndarray):
        return piece.shape[1]
    return max(map(len, piece), default=0)


def _flat(pieces) -> tuple[np.ndarray, np.ndarray]:
    """Blocks of clauses as one array of literals, and where each clause ends in it."""
    lits, lengths = [], []
    for piece in pieces:
        if isinstance(piece, np.ndarray):
            lits.append(piece.ravel())
            lengths.append(np.full(piece.shape[0], piece.shape[1], dtype=np.int64))
        else:
            lengths.append(np.fromiter(map(len, piece), dtype=np.int64, count=len(piece)))
            lits.append(np.fromiter(chain.from_iterable(piece), dtype=np.int64, count=int(lengths[-1].sum())))
    if not lits:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return np.concatenate(lits).astype(np.int64, copy=False), np.cumsum(np.concatenate(lengths))


def _addition_text(item: tuple) -> str:
    if item[0] == "touch":
        return f"touch rows {_cell(item[1][0])}-{_cell(item[1][1])}"
    if item[0] == "cycle":
        return f"a cycle cut ({len(item[1])} cells)"
    return "the answer blocked"


def _size(puzzle) -> tuple:
    return (puzzle.width, puzzle.height) + ((puzzle.layers,) if hasattr(puzzle, "layers") else ())


def _solution(puzzle, paths: dict):
    if hasattr(puzzle, "layers"):
        from .multilayer.model import Solution as Stacked

        return Stacked.from_mapping(paths)
    from .model import Solution

    return Solution.from_mapping(paths)
