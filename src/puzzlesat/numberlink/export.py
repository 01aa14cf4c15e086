"""Numberlink as one complete, self-contained DIMACS formula (no lazy cuts), for other solvers
and for checkable proofs. Its models, read on the edge variables, are exactly the answers.

Rules: connect each pair's two cells by an orthogonal path through free cells; paths never
share a cell; under cover-all every free cell lies on a path; under no-self-touch a path never
runs beside itself. The encoding (``encodings/numberlink.md``, "The exported formula"): edge
variables (the answer), one-hot labels on inner cells, and a *parent rank* that forbids cycles:
every inner cell on a path has a neighbour, joined to it by a path edge, of strictly smaller
rank (endpoints have rank 0). It is written apart from ``encoding.py`` (the solver's formula,
which leans on lazy cycle cuts). Certificates use :mod:`.relaxed` (no ranks, checked cuts).

>>> from puzzlesat.numberlink.model import Puzzle, Rules
>>> from pysat.solvers import Solver
>>> p = Puzzle.from_rows(["A.A", "B.B"])
>>> cnf = export_cnf(p)
>>> with Solver(bootstrap_with=cnf.clauses) as s:
...     found = s.solve() and decode(p, cnf, s.get_model())
>>> found.path("A")
((0, 0), (0, 1), (0, 2))
>>> with Solver(bootstrap_with=export_cnf(p, exclude=found).clauses) as s:
...     s.solve()   # the answer is unique
False
"""

from __future__ import annotations

from ..sat.dimacs import Builder
from .model import DEFAULT_RULES, Rules, Solution


def _edge_key(u, v) -> tuple:
    return ("e",) + tuple(sorted((u, v)))


def _cell(c) -> str:
    return "(" + ",".join(map(str, c)) + ")"


def edges(puzzle) -> list[tuple]:
    """Every edge (two free cells a path may step between), by its first cell in reading order."""
    return [(u, v) for u in puzzle.free_cells() for v in sorted(puzzle.neighbours(u)) if u < v]


def export_cnf(puzzle, *, rules: Rules = DEFAULT_RULES, exclude=None):
    """The puzzle's rules as a ``pysat.formula.CNF`` (edge variables first, then labels, ranks
    and comparator helpers), with a comment line per variable. ``exclude``: an answer whose
    edge set is blocked, so the formula is unsatisfiable exactly when that answer is the only
    one. A stack of layers is taken too (its steps are edges like any other: to the layer above
    or below, and with vias as ``is_step`` allows), with the via rows of :func:`_vias`."""
    size = "x".join(map(str, (puzzle.width, puzzle.height) + ((puzzle.layers,) if hasattr(puzzle, "layers") else ())))
    b = Builder(f"numberlink {size} rules: {rules}")
    b.note("a model's true edges draw the paths (the edges are the answer variables)")
    endpoint = puzzle.endpoints()
    labels = puzzle.labels
    code = {label: k for k, label in enumerate(labels)}
    all_edges = edges(puzzle)
    edge = {}
    for u, v in all_edges:
        edge[_edge_key(u, v)] = b.var(_edge_key(u, v), f"edge {_cell(u)}-{_cell(v)}")
    around = {c: [] for c in puzzle.free_cells()}
    for u, v in all_edges:
        e = edge[_edge_key(u, v)]
        around[u].append((v, e))
        around[v].append((u, e))
    inner = [c for c in puzzle.free_cells() if c not in endpoint]

    def x(c, k):
        return b.var(("x", c, k), f"cell {_cell(c)} has label {labels[k]}")

    # degree: an endpoint has exactly one edge; an inner cell two (cover-all) or none or two
    for c in puzzle.free_cells():
        es = [e for _, e in around[c]]
        if c in endpoint:
            b.add(es)
            b.at_most_one(es, f"edges at {_cell(c)}")
            continue
        for i in range(len(es)):
            for j in range(i + 1, len(es)):
                for k in range(j + 1, len(es)):
                    b.add([-es[i], -es[j], -es[k]])
        for e in es:
            others = [o for o in es if o != e]
            b.add(([] if rules.cover_all else [-e]) + others)
        if rules.cover_all and not es:
            b.add([])
    # labels: an edge joins cells of one label; an endpoint's edge gives its neighbour its label
    for u, v in all_edges:
        e = edge[_edge_key(u, v)]
        if u in endpoint and v in endpoint:
            if endpoint[u] != endpoint[v]:
                b.add([-e])
            elif rules.no_self_touch:
                b.add([e])
            continue
        if u in endpoint or v in endpoint:
            end, cell = (u, v) if u in endpoint else (v, u)
            k_end = code[endpoint[end]]
            for k in range(len(labels)):
                b.add([-e, x(cell, k) if k == k_end else -x(cell, k)])
            if rules.no_self_touch:
                b.add([e, -x(cell, k_end)])
            continue
        for k in range(len(labels)):
            b.add([-e, -x(u, k), x(v, k)])
            b.add([-e, x(u, k), -x(v, k)])
            if rules.no_self_touch:
                b.add([e, -x(u, k), -x(v, k)])
    _squares(b, puzzle, edge, rules)
    if getattr(puzzle, "vias", ()):
        _vias(b, puzzle, edge, x, code)
    _no_cycles(b, puzzle, inner, around, rules)
    if exclude is not None:
        b.note("the stated answer is excluded: satisfiable exactly when another answer exists")
        b.add([-edge[_edge_key(u, v)] for u, v in answer_edges(exclude)])
    return b.cnf(answer=[edge[_edge_key(u, v)] for u, v in all_edges])


def _squares(b: Builder, puzzle, edge: dict, rules: Rules) -> None:
    """Implied clauses that solvers need (a 16x16 board: 0.6 s with them, no answer in 34 s
    without): in an all-free 2x2 block the four edges would be a cycle, and under no-self-touch
    three of them a path beside itself, so not four (not three). On a stack, per layer."""
    layers = [()] if not hasattr(puzzle, "layers") else [(z,) for z in range(puzzle.layers)]
    for z, r, c in ((z, r, c) for z in layers for r in range(puzzle.height - 1) for c in range(puzzle.width - 1)):
        block = [z + (r, c), z + (r, c + 1), z + (r + 1, c), z + (r + 1, c + 1)]
        sides = [edge.get(_edge_key(block[0], block[1])), edge.get(_edge_key(block[2], block[3])),
                 edge.get(_edge_key(block[0], block[2])), edge.get(_edge_key(block[1], block[3]))]
        if None in sides:  # a blocked cell, or a via's inner cell (no edge on its layer)
            continue
        if rules.no_self_touch:
            for left_out in range(4):
                b.add([-e for i, e in enumerate(sides) if i != left_out])
        else:
            b.add([-e for e in sides])


def _vias(b: Builder, puzzle, edge: dict, x, code: dict) -> None:
    """A stack's vias: each step of a via on (one path passes it whole); its first cell has a
    label whose ends lie on the via's first and last layers (a path changes layer only in a
    via, and in one at most); two vias never have one label (no path passes two)."""
    allowed = {via.name: {pair.label for pair in puzzle.pairs if sorted((pair.start[0], pair.end[0])) == list(via.layer_span)}
               for via in puzzle.vias}
    for via in puzzle.vias:
        for a, c in zip(via.cells, via.cells[1:]):
            b.add([edge[_edge_key(a, c)]])
        b.note(f"via {via.name}: its steps on; labels {', '.join(sorted(allowed[via.name])) or 'none'} may pass it")
        for label, k in code.items():
            if label not in allowed[via.name]:
                b.add([-x(via.cells[0], k)])
    for i, v in enumerate(puzzle.vias):
        for w in puzzle.vias[i + 1:]:
            for label in sorted(allowed[v.name] & allowed[w.name]):
                b.add([-x(v.cells[0], code[label]), -x(w.cells[0], code[label])])


def _no_cycles(b: Builder, puzzle, inner: list, around: dict, rules: Rules) -> None:
    """Each inner cell on a path picks a parent: a neighbour joined by a path edge whose rank
    (``bits`` binary digits; endpoints 0) is strictly smaller. A cycle's lowest cell has none."""
    bits = max(1, len(inner).bit_length())
    inner_set = set(inner)

    def rank(c, i):  # bit i, most significant first
        return b.var(("r", c, i), f"bit {i} (of {bits}, most significant first) of the rank of {_cell(c)}")

    for c in inner:
        parents = []
        for n, e in around[c]:
            p = b.var(("p", c, n), f"parent of {_cell(c)} is {_cell(n)}")
            parents.append(p)
            b.add([-p, e])
            if n not in inner_set:  # an endpoint, rank 0: c's rank is not 0
                b.add([-p] + [rank(c, i) for i in range(bits)])
                continue
            b.less_than(p, [rank(n, i) for i in range(bits)], [rank(c, i) for i in range(bits)], ("g", c, n),
                        f"ranks of {_cell(n)} < {_cell(c)}")
        if rules.cover_all:
            b.add(parents)
        else:
            for _, e in around[c]:
                b.add([-e] + parents)


def answer_edges(solution: Solution) -> list[tuple]:
    """The edges an answer's paths use."""
    return [(a, c) for _, cells in solution.paths for a, c in zip(cells, cells[1:])]


def decode(puzzle, cnf, model):
    """The answer a model of :func:`export_cnf`'s formula draws (paths walked from each pair's
    start along the true edges): a :class:`Solution`, or a stack's."""
    true = {v for v in model if v > 0}
    on = set()
    for line in cnf.comments:
        if line.startswith("c var ") and " edge (" in line:
            parts = line.split()
            if int(parts[2]) in true:
                u, v = parts[4].split("-")
                on.add(tuple(sorted((_parse_cell(u), _parse_cell(v)))))
    paths, cells = {}, sum(1 for _ in puzzle.free_cells())
    for pair in puzzle.pairs:
        path, previous = [pair.start], None
        while path[-1] != pair.end and len(path) <= cells:
            here = path[-1]
            step = next((n for n in puzzle.neighbours(here) if n != previous and tuple(sorted((here, n))) in on), None)
            if step is None:
                break
            previous = here
            path.append(step)
        paths[pair.label] = path
    if hasattr(puzzle, "layers"):
        from .multilayer.model import Solution as Stacked

        return Stacked.from_mapping(paths)
    return Solution.from_mapping(paths)


def _parse_cell(text: str) -> tuple[int, ...]:
    return tuple(int(t) for t in text.strip("()").split(","))


def family_export(puzzle, *, options=None, moves=None, exclude=None):
    """The family record's ``export_cnf``: rules from the options ``allow_empty`` and
    ``no_self_touch``; ``exclude`` an answer or None."""
    if moves is not None:
        raise ValueError("Numberlink has no move bound: its formula is the rules themselves")
    options = dict(options or {})
    rules = Rules(cover_all=not options.get("allow_empty", False), no_self_touch=bool(options.get("no_self_touch", False)))
    return export_cnf(puzzle, rules=rules, exclude=exclude)
