"""The variable and clause counts of encodings/numberlink.md against the built encoding.

The formulas are computed here from board quantities only (free cells, their free-neighbour
counts, endpoints, kinds of edges, 2x2 blocks), never from the encoder's arrays.
"""

from __future__ import annotations

from math import comb

import pytest

from puzzlesat.numberlink.encoding import encode
from puzzlesat.numberlink.model import Puzzle, Rules
from puzzlesat.numberlink.verify import verify
from puzzlesat.sat import SatSolver

ALL_RULES = [Rules(), Rules(no_self_touch=True), Rules(cover_all=False), Rules(cover_all=False, no_self_touch=True)]

BOARDS = {
    "3x5 blocked": ["A.#.B", ".....", "A...B"],
    "4x6 touching ends": ["AA.B..", "....#.", ".C..CB", "#....."],
    "7x4 many labels": ["A.B.", "C.D.", "E.F.", "G.H.", "ABCD", "EFGH", "...."],
    "6x9 sparse": ["A........", ".....#...", "..B......", "......#..", "B....#...", "........A"],
    "5x5 dead corner": ["#.A..", "#....", "..#..", ".....", "A...."],
    "12 labels 6x6": ["ABCDEF", "......", "GHIJKL", "ABCDEF", "......", "GHIJKL"],
}


def expected_sizes(puzzle: Puzzle, rules: Rules) -> tuple[int, int]:
    """(variables, clauses) by the formulas of encodings/numberlink.md."""
    free = {(r, c) for r in range(puzzle.height) for c in range(puzzle.width)} - set(puzzle.blocked)
    code = {}
    for i, pair in enumerate(puzzle.pairs):
        code[pair.start] = code[pair.end] = i
    K = len(puzzle.pairs)

    def n(cell):  # free neighbours
        r, c = cell
        return sum((x in free) for x in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)))

    edges = [(a, b) for a in free for b in ((a[0] + 1, a[1]), (a[0], a[1] + 1)) if b in free]
    E = len(edges)
    E_ii = sum(a not in code and b not in code for a, b in edges)
    E_ei = sum((a in code) != (b in code) for a, b in edges)
    E_same = sum(a in code and b in code and code[a] == code[b] for a, b in edges)
    E_diff = sum(a in code and b in code and code[a] != code[b] for a, b in edges)
    Q = sum({(r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)} <= free for r in range(puzzle.height) for c in range(puzzle.width))
    inner = [cell for cell in free if cell not in code]
    ends = [cell for cell in free if cell in code]

    clauses = 0
    contradiction = any(n(c) == 0 for c in ends) or (rules.cover_all and any(n(c) < 2 for c in inner))
    clauses += sum(1 + comb(n(c), 2) for c in ends if n(c) >= 1)                  # endpoint exactly one
    clauses += sum(comb(n(c), 3) for c in inner)                                  # at most two
    if rules.cover_all:
        clauses += sum(n(c) for c in inner if n(c) >= 2)                          # at least two
    else:
        clauses += sum(n(c) for c in inner)                                       # never exactly one
    reserve_empty = not rules.cover_all and rules.no_self_touch
    b = (K if reserve_empty else max(K - 1, 0)).bit_length()
    variables = E + len(inner) * b
    clauses += 2 * b * E_ii + b * E_ei + E_diff                                   # labels agree along edges
    if rules.no_self_touch:
        if rules.cover_all and K > 2 * b + 1:
            variables += b * E_ii
            clauses += (1 + 2 * b) * E_ii
        else:
            clauses += K * E_ii
        clauses += E_ei + E_same
        clauses += 4 * Q
    else:
        clauses += Q
    return variables, clauses + (1 if contradiction else 0)


@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
@pytest.mark.parametrize("rows", BOARDS.values(), ids=list(BOARDS))
def test_size_formulas(rows: list[str], rules: Rules) -> None:
    puzzle = Puzzle.from_rows(rows)
    enc = encode(puzzle, rules)
    assert (enc.num_vars, enc.num_clauses) == expected_sizes(puzzle, rules)
    assert sum(1 for _ in enc.clauses()) == enc.num_clauses
    assert enc.answer_vars == range(1, enc.num_edges + 1)


def test_every_literal_names_a_reserved_variable() -> None:
    for rows in BOARDS.values():
        for rules in ALL_RULES:
            enc = encode(Puzzle.from_rows(rows), rules)
            literals = {abs(lit) for clause in enc.clauses() for lit in clause}
            assert literals <= set(range(1, enc.num_vars + 1))


def test_decode_of_a_model_gives_the_paths() -> None:
    puzzle = Puzzle.from_rows(["A.B", "A.B"])
    enc = encode(puzzle)
    with SatSolver(enc.clauses()) as solver:
        assert solver.solve()
        solution = enc.decode(solver.model())
    assert verify(puzzle, solution) == []
    assert enc.edge_var((0, 0), (1, 0)) in enc.answer_vars
    with pytest.raises(ValueError):
        enc.edge_var((0, 0), (1, 1))


def _answers(puzzle: Puzzle, clauses: list[list[int]], num_edges: int) -> set[frozenset[int]]:
    """Every cycle-free answer of a formula (its edge sets), by enumerating models on the edges."""
    from puzzlesat.numberlink.encoding import encode as build

    decoder = build(puzzle, Rules())  # same edge numbering for every rule set
    out = set()
    with SatSolver(clauses) as solver:
        while solver.solve():
            model = solver.model()
            edges = frozenset(v for v in range(1, num_edges + 1) if v <= len(model) and model[v - 1] > 0)
            _, cycles = decoder._components(decoder.true_edges(model))
            if not cycles:
                out.add(edges)
            solver.add_clause([-v if v in edges else v for v in range(1, num_edges + 1)])
    return out


TOUCH_BOARDS = {
    "2x2 ends side by side": ["A.", "A."],
    "3x4": ["A..B", "....", "A..B"],
    "4x4 blocked": ["A..#", ".B..", "....", "A..B"],
}


@pytest.mark.parametrize("cover_all", [True, False])
@pytest.mark.parametrize("rows", TOUCH_BOARDS.values(), ids=list(TOUCH_BOARDS))
def test_touch_selectors_switch_between_the_two_formulas(rows: list[str], cover_all: bool) -> None:
    puzzle = Puzzle.from_rows(rows)
    strict, loose = Rules(cover_all=cover_all, no_self_touch=True), Rules(cover_all=cover_all)
    plain = encode(puzzle, strict)
    enc = encode(puzzle, strict, touch_selectors=True)
    variables, clauses = expected_sizes(puzzle, strict)
    squares = sum(1 for r in range(puzzle.height - 1) for c in range(puzzle.width - 1)
                  if not {(r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)} & set(puzzle.blocked))
    assert (enc.num_vars, enc.num_clauses) == (variables + enc.num_edges, clauses + squares)
    assert enc.touch_selectors == plain.num_vars + 1
    selectors = range(enc.touch_selectors, enc.touch_selectors + enc.num_edges)
    formula = list(enc.clauses())
    all_on = _answers(puzzle, formula + [[s] for s in selectors], enc.num_edges)
    all_off = _answers(puzzle, formula + [[-s] for s in selectors], enc.num_edges)
    assert all_on == _answers(puzzle, list(plain.clauses()), enc.num_edges)
    assert all_off == _answers(puzzle, list(encode(puzzle, loose).clauses()), enc.num_edges)
    assert all_on <= all_off


ORIENT_BOARDS = {**TOUCH_BOARDS, "4x5 two labels": ["A...B", ".....", ".....", "A...B"], "3x5 blocked": BOARDS["3x5 blocked"]}


@pytest.mark.parametrize("rules", [Rules(), Rules(no_self_touch=True)], ids=str)
@pytest.mark.parametrize("rows", ORIENT_BOARDS.values(), ids=list(ORIENT_BOARDS))
def test_direction_variables_keep_every_answer_and_follow_their_size_formula(rows: list[str], rules: Rules) -> None:
    puzzle = Puzzle.from_rows(rows)
    plain = encode(puzzle, rules)
    enc = encode(puzzle, rules, orientation=True)
    free = {(r, c) for r in range(puzzle.height) for c in range(puzzle.width)} - set(puzzle.blocked)
    ends = {cell for pair in puzzle.pairs for cell in (pair.start, pair.end)}

    def n(cell):
        r, c = cell
        return sum((x in free) for x in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)))

    E = enc.num_edges
    more_clauses = 4 * E + sum(n(c) for c in ends) + 2 * sum(1 + comb(n(c), 2) for c in free - ends if n(c) >= 1)
    assert (enc.num_vars, enc.num_clauses) == (plain.num_vars + 2 * E, plain.num_clauses + more_clauses)
    answers = _answers(puzzle, list(enc.clauses()), E)
    assert answers == _answers(puzzle, list(plain.clauses()), E)
    # each answer has exactly one orientation: its paths walked from start to end
    for edges in answers:
        with SatSolver(list(enc.clauses()) + [[v if v in edges else -v] for v in range(1, E + 1)]) as solver:
            assert solver.solve()
            first = [lit for lit in solver.model() if abs(lit) > plain.num_vars and abs(lit) <= plain.num_vars + 2 * E]
            solver.add_clause([-lit for lit in first])
            assert not solver.solve()


def test_direction_variables_need_cover_all_rules() -> None:
    with pytest.raises(ValueError, match="cover-all"):
        encode(Puzzle.from_rows(["A.A"]), Rules(cover_all=False), orientation=True)


CORNER_BOARDS = {
    "3x3 corners": ["A..", "...", "..A"],
    "3x4": ["A..B", "....", "A..B"],
    "4x4 blocked": ["A..#", ".B..", "....", "A..B"],
    "4x5 two labels": ["A...B", ".....", ".....", "A...B"],
}


@pytest.mark.parametrize("rules", [Rules(cover_all=False), Rules(cover_all=False, no_self_touch=True)], ids=str)
@pytest.mark.parametrize("rows", CORNER_BOARDS.values(), ids=list(CORNER_BOARDS))
def test_corner_move_clauses_follow_their_size_formula_and_drop_exactly_the_movable_corners(rows: list[str], rules: Rules) -> None:
    """encodings/numberlink.md: one clause of 2 + n(e) literals per all-free 2x2 block and
    diagonal (b bottom right with e top left, b bottom left with e top right) where neither b
    nor e is an endpoint; the answers kept are exactly those where no path turns at such a b
    with e empty (checked on every answer of the formula without them)."""
    puzzle = Puzzle.from_rows(rows)
    free, ends, n = _free_ends_degree(puzzle)
    diagonals = []  # (b, b's two block neighbours, e)
    for r in range(puzzle.height - 1):
        for c in range(puzzle.width - 1):
            if {(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)} <= free:
                diagonals.append(((r + 1, c + 1), ((r, c + 1), (r + 1, c)), (r, c)))
                diagonals.append(((r + 1, c), ((r, c), (r + 1, c + 1)), (r, c + 1)))
    diagonals = [(b, around, e) for b, around, e in diagonals if b not in ends and e not in ends]

    def movable(enc, edges, used) -> bool:
        return any(e not in used and all(enc.edge_var(b, a) in edges for a in around) for b, around, e in diagonals)

    dropped = _check_move_clauses(puzzle, rules, "no-corner-move", len(diagonals), sum(2 + n(e) for _, _, e in diagonals),
                                  movable, no_corner_moves=True)
    assert dropped > 0  # (each board has answers with a movable corner)


def _free_ends_degree(puzzle: Puzzle):
    """The free cells, the endpoints, and n(cell): the number of free neighbours."""
    free = {(r, c) for r in range(puzzle.height) for c in range(puzzle.width)} - set(puzzle.blocked)
    ends = {cell for pair in puzzle.pairs for cell in (pair.start, pair.end)}

    def n(cell):
        r, c = cell
        return sum((x in free) for x in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)))

    return free, ends, n


def _check_move_clauses(puzzle: Puzzle, rules: Rules, name: str, clauses: int, literals: int, forbidden, **option) -> int:
    """The formula with ``option`` (no_corner_moves / no_bumps) has the plain formula's variables,
    ``clauses`` more clauses, all named ``name`` with ``literals`` literals in all, and keeps
    exactly the plain formula's answers that are not ``forbidden(enc, edges, used cells)``.
    Returns the number of answers dropped."""
    plain = encode(puzzle, rules)
    enc = encode(puzzle, rules, **option)
    assert enc.num_vars == plain.num_vars
    assert enc.num_clauses == plain.num_clauses + clauses
    assert enc.clause_counts().get(name, 0) == clauses
    assert sum(len(clause) for block_name, block in enc.blocks if block_name == name for clause in block) == literals

    def cells_of(edges):
        return {cell for v in edges for cell in (divmod(int(x), puzzle.width) for x in enc.edge_cells[v - 1])}

    every = _answers(puzzle, list(plain.clauses()), enc.num_edges)
    kept = _answers(puzzle, list(enc.clauses()), enc.num_edges)
    assert kept == {edges for edges in every if not forbidden(enc, edges, cells_of(edges))}
    return len(every - kept)


def test_corner_move_clauses_need_may_leave_empty_rules() -> None:
    with pytest.raises(ValueError, match="may-leave-empty"):
        encode(Puzzle.from_rows(["A.A"]), Rules(), no_corner_moves=True)
    with pytest.raises(ValueError, match="may-leave-empty"):
        encode(Puzzle.from_rows(["A.A"]), Rules(), no_bumps=True)


@pytest.mark.parametrize("rules", [Rules(cover_all=False), Rules(cover_all=False, no_self_touch=True)], ids=str)
@pytest.mark.parametrize("rows", CORNER_BOARDS.values(), ids=list(CORNER_BOARDS))
def test_bump_clauses_follow_their_size_formula_and_drop_exactly_the_bumps(rows: list[str], rules: Rules) -> None:
    """encodings/numberlink.md: one clause of 4 + n(m) literals per line a, m, d of three free
    cells and side whose three cells b1, b2, b3 beside it are free, where neither m nor a b is
    an endpoint; the answers kept are exactly those where no path takes a -> b1 -> b2 -> b3 -> d
    with m empty (checked on every answer of the formula without them)."""
    _bumps_dropped(rows, rules)


@pytest.mark.parametrize("rules", [Rules(cover_all=False), Rules(cover_all=False, no_self_touch=True)], ids=str)
def test_bump_clauses_drop_answers(rules: Rules) -> None:
    assert _bumps_dropped(CORNER_BOARDS["4x5 two labels"], rules) > 0
    assert _bumps_dropped(CORNER_BOARDS["3x4"], rules) > 0


def _bumps_dropped(rows: list[str], rules: Rules) -> int:
    """The checks of the test above; the number of answers the bump clauses drop."""
    puzzle = Puzzle.from_rows(rows)
    free, ends, n = _free_ends_degree(puzzle)
    bumps = []  # (a, b1, b2, b3, d, m)
    for r in range(puzzle.height):
        for c in range(puzzle.width):
            for (lr, lc), sides in (((0, 1), ((1, 0), (-1, 0))), ((1, 0), ((0, 1), (0, -1)))):
                a, m, d = (r, c), (r + lr, c + lc), (r + 2 * lr, c + 2 * lc)
                for sr, sc in sides:
                    b = [(x + sr, y + sc) for x, y in (a, m, d)]
                    if {a, m, d, *b} <= free and m not in ends and not set(b) & ends:
                        bumps.append((a, *b, d, m))

    def bumped(enc, edges, used) -> bool:
        return any(m not in used and all(enc.edge_var(x, y) in edges for x, y in zip(walk, walk[1:]))
                   for *walk, m in bumps)

    return _check_move_clauses(puzzle, rules, "no-bump", len(bumps), sum(4 + n(m) for *_, m in bumps), bumped, no_bumps=True)
