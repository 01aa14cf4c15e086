"""Exported formulas count the family's answers: models projected onto the answer variables
(enumerated with blocking clauses on those variables) against brute-force enumeration."""

from __future__ import annotations

from functools import lru_cache

import pytest
from pysat.solvers import Solver

from puzzlesat.numberlink.export import decode, export_cnf as numberlink_cnf
from puzzlesat.numberlink.model import Puzzle, Rules
from puzzlesat.sat.dimacs import answer_variables
from tests.numberlink.test_counts import ALL_RULES, CASES, brute_force_answers as _brute_force_answers


@lru_cache(maxsize=None)
def brute_force_answers(puzzle, rules):  # (each board's answers listed once for the tests below)
    return _brute_force_answers(puzzle, rules)


def listed_answers(puzzle, rules):
    """The board's answers by brute force; the test is skipped where they are too many to list."""
    expected = brute_force_answers(puzzle, rules)
    if len(expected) > 300:
        pytest.skip("too many answers to list")
    return expected


def projected_models(cnf, limit: int = 400) -> list[frozenset[int]]:
    """Every model of ``cnf`` read on its answer variables (the true ones), up to ``limit``."""
    answer = answer_variables(cnf)
    found = []
    with Solver(name="cadical195", bootstrap_with=cnf.clauses) as solver:
        while len(found) < limit and solver.solve():
            model = solver.get_model()
            true = frozenset(v for v in answer if model[v - 1] > 0)
            found.append(true)
            solver.add_clause([-v if v in true else v for v in answer])
    return found


@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
@pytest.mark.parametrize("name,puzzle", CASES, ids=[name for name, _ in CASES])
def test_numberlink_export_counts_the_answers(name: str, puzzle: Puzzle, rules) -> None:
    expected = listed_answers(puzzle, rules)
    cnf = numberlink_cnf(puzzle, rules=rules)
    models = projected_models(cnf)
    assert len(models) == len(expected)
    drawn = set()
    for true in models:
        solution = decode(puzzle, cnf, sorted(true))
        drawn.add(tuple(sorted(solution.as_dict().items())))
    assert drawn == {tuple(sorted(a.items())) for a in expected}


@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
def test_numberlink_exclude_leaves_the_other_answers(rules) -> None:
    for name, puzzle in CASES:
        expected = brute_force_answers(puzzle, rules)
        if not expected or len(expected) > 300:
            continue
        cnf = numberlink_cnf(puzzle, rules=rules)
        first = decode(puzzle, cnf, sorted(projected_models(cnf, limit=1)[0]))
        assert len(projected_models(numberlink_cnf(puzzle, rules=rules, exclude=first))) == len(expected) - 1, name


def certificate_answers(puzzle, rules, limit: int = 400) -> list:
    """The answers a certificate's solving finds (:mod:`puzzlesat.numberlink.relaxed`): models that
    break the rules get their additions, answers are blocked, until no model is left."""
    from puzzlesat.numberlink.relaxed import Formula

    formula = Formula(puzzle, rules)
    found = []
    with Solver(name="cadical195", bootstrap_with=formula.clauses) as solver:
        while len(found) < limit and solver.solve():
            answer, repairs = formula.examine(solver.get_model())
            for item in repairs:
                solver.append_formula(formula.add(item))
            if not repairs:
                found.append(answer)
                solver.append_formula(formula.add(("answer", answer)))
    return found


@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
@pytest.mark.parametrize("name,puzzle", CASES, ids=[name for name, _ in CASES])
def test_numberlink_certificate_formula_counts_the_answers(name: str, puzzle: Puzzle, rules) -> None:
    # the rules without "no stray cycle", grown by checked additions: the same answers, no other
    from puzzlesat.numberlink.verify import verify

    expected = listed_answers(puzzle, rules)
    found = certificate_answers(puzzle, rules)
    assert all(verify(puzzle, answer, rules) == [] for answer in found)
    assert sorted(tuple(sorted(a.as_dict().items())) for a in found) == sorted(tuple(sorted(a.items())) for a in expected)


@pytest.mark.parametrize("rows,rules", [
    (["....", "....", "...A", ".A.."], Rules(cover_all=False, no_self_touch=True)),  # 13 answers
    (["......", ".BC.A.", "C...A.", "B....."], Rules(no_self_touch=True)),  # none
], ids=["may-leave-empty", "cover-all"])
def test_numberlink_certificate_formula_adds_touch_rows_where_a_model_breaks_them(rows, rules) -> None:
    # boards (found by a seeded search) whose base formula has models with a path beside itself
    import puzzlesat.numberlink.relaxed as relaxed

    puzzle = Puzzle.from_rows(rows)
    kinds = []
    original = relaxed.Formula.add

    def add(self, item):
        kinds.append(item[0])
        return original(self, item)

    relaxed.Formula.add = add
    try:
        found = certificate_answers(puzzle, rules)
    finally:
        relaxed.Formula.add = original
    expected = brute_force_answers(puzzle, rules)
    assert "touch" in kinds
    assert sorted(tuple(sorted(a.as_dict().items())) for a in found) == sorted(tuple(sorted(a.items())) for a in expected)


# -- Roller: walks of at most K moves that paint every floor cell ------------------------------

from puzzlesat.roller.export import decode as roller_decode, export_cnf as roller_cnf  # noqa: E402
from puzzlesat.roller.model import Level as RollerLevel, slide  # noqa: E402
from puzzlesat.roller.verify import verify as roller_verify  # noqa: E402


def roller_walks(level: RollerLevel, k: int) -> set[str]:
    """Every move string of length <= k (each move leaving its cell) that paints every floor cell."""
    floor = set(level.floor_cells)
    found = set()

    def walk(at, painted, moves):
        if painted == floor:
            found.add(moves)
        if len(moves) == k:
            return
        for d in "UDLR":
            stop, cells = slide(level, at, d)
            if cells:
                walk(stop, painted | set(cells), moves + d)

    walk(level.start, {level.start}, "")
    return found


def _roller_levels(seed: int, n: int) -> list[RollerLevel]:
    import random

    rng = random.Random(seed)
    out = []
    while len(out) < n:
        h, w = rng.choice([(2, 3), (3, 3), (3, 4), (4, 4)])
        rows = ["".join("#" if rng.random() < 0.25 else "." for _ in range(w)) for _ in range(h)]
        floor = [(r, c) for r in range(h) for c in range(w) if rows[r][c] == "."]
        if len(floor) >= 2:  # mostly levels some short walk paints, a few that none does
            level = RollerLevel(tuple(rows), rng.choice(floor))
            if roller_walks(level, 5) or len(out) % 4 == 0:
                out.append(level)
    return out


@pytest.mark.parametrize("level", _roller_levels(3, 16), ids=lambda lv: "/".join(lv.rows) + f"@{lv.start}")
def test_roller_export_counts_the_walks(level) -> None:
    for k in range(0, 6):
        expected = roller_walks(level, k)
        cnf = roller_cnf(level, moves=k)
        models = projected_models(cnf, limit=2000)
        walks = {roller_decode(cnf, sorted(m)) for m in models}
        assert len(models) == len(expected) and walks == expected, k
        assert all(roller_verify(level, w) == [] for w in walks)


# -- Swap: plans of at most K swaps that reach the goal ----------------------------------------

from puzzlesat.swap.export import decode as swap_decode, export_cnf as swap_cnf  # noqa: E402
from puzzlesat.swap.model import Level as SwapLevel, apply_swap, is_goal  # noqa: E402
from puzzlesat.swap.moves import legal_moves  # noqa: E402
from puzzlesat.swap.verify import verify as swap_verify  # noqa: E402


def swap_plans(level: SwapLevel, k: int) -> set[tuple]:
    """Every sequence of at most k legal swaps (as cell pairs) ending on the goal."""
    found = set()

    def plan(board, steps):
        if is_goal(level, board):
            found.add(steps)
        if len(steps) == k:
            return
        for move in legal_moves(board):
            plan(apply_swap(board, move.source, move.target), steps + (move.cells,))

    plan(level.start, ())
    return found


def _swap_levels(seed: int, n: int, goal: str) -> list[SwapLevel]:
    import random

    rng = random.Random(seed)
    out = []
    while len(out) < n:
        h, w = rng.choice([(1, 3), (2, 2), (2, 3)])
        tokens = [["###" if rng.random() < 0.15 else rng.choice("TBQ") + rng.choice("12") + rng.choice("RG") for _ in range(w)] for _ in range(h)]
        if goal == "match":
            colours = [t[2] for row in tokens for t in row if t != "###"]
            rng.shuffle(colours)
            it = iter(colours)
            target = [" ".join("#" if t == "###" else next(it) for t in row) for row in tokens]
        else:
            target = goal
        out.append(SwapLevel.from_rows([" ".join(row) for row in tokens], goal=target))
    return out


@pytest.mark.parametrize("goal", ["match", "touch", "cluster"])
def test_swap_export_counts_the_plans(goal: str) -> None:
    for level in _swap_levels(5, 12, goal):
        for k in range(0, 4):
            expected = swap_plans(level, k)
            cnf = swap_cnf(level, moves=k)
            models = projected_models(cnf, limit=3000)
            plans = {tuple(m.cells for m in swap_decode(level, cnf, sorted(t))) for t in models}
            assert len(models) == len(expected) and plans == expected, (str(level), k)
            assert all(swap_verify(level, list(swap_decode(level, cnf, sorted(t)))) == [] for t in models[:20])


def test_swap_cluster_export_counts_plans_on_boards_with_several_groups() -> None:
    # boards where a colour starts in two or three groups, so the end boards the formula must
    # refuse are many (walls split the board too)
    for rows in (["T1R T1G T1R T1G"], ["T1R T1G", "T1G T1R"], ["T1R ### T1R", "T1G T1R T1G"], ["T1G T1R T1G", "T1R T1G T1R"]):
        level = SwapLevel.from_rows(rows, goal="cluster")
        for k in range(0, 4):
            expected = swap_plans(level, k)
            cnf = swap_cnf(level, moves=k)
            models = projected_models(cnf, limit=3000)
            plans = {tuple(m.cells for m in swap_decode(level, cnf, sorted(t))) for t in models}
            assert len(models) == len(expected) and plans == expected, (rows, k)


# -- Numberlink on a stack of layers (no vias) ---------------------------------------------------

from puzzlesat.numberlink.multilayer.model import Puzzle as Stack, is_adjacent  # noqa: E402
from puzzlesat.numberlink.multilayer.verify import verify as stack_verify  # noqa: E402


def stack_answers(puzzle: Stack, rules) -> set[tuple]:
    """Every answer of a stack as sorted (label, cells) pairs, by plain enumeration over the
    puzzle's steps (six neighbours); touching is judged by adjacency, as the rules say."""
    free = set(puzzle.free_cells())
    ends = puzzle.endpoints()
    found = set()

    def place(index, used, chosen):
        if index == len(puzzle.pairs):
            if not rules.cover_all or used == free:
                found.add(tuple(sorted(chosen.items())))
            return
        pair = puzzle.pairs[index]

        def extend(path):
            for step in puzzle.neighbours(path[-1]):
                if step in used or step in path:
                    continue
                if step == pair.end:
                    full = path + [step]
                    where = {cell: i for i, cell in enumerate(full)}
                    touching = any(abs(i - where[o]) != 1 for i, a in enumerate(full) for o in where if is_adjacent(a, o))
                    if not (rules.no_self_touch and touching):
                        place(index + 1, used | set(full), {**chosen, pair.label: tuple(full)})
                elif step not in ends:
                    extend(path + [step])

        extend([pair.start])

    place(0, set(), {})
    return {tuple(sorted((label, cells if cells[0] <= cells[-1] else cells[::-1]) for label, cells in a)) for a in found}


STACKS = [
    [["A.", ".."], ["..", ".A"]],
    [["A.", "B."], [".B", ".A"]],
    [["A..", "..."], ["...", "..A"]],
    [["AB.", "..."], ["...", "B.A"]],
    [["A#", ".."], ["B.", "AB"]],
    [["A..", ".#."], ["...", "..A"]],
]


@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
@pytest.mark.parametrize("layers", STACKS, ids=["/".join("|".join(l) for l in s) for s in STACKS])
def test_numberlink_stack_export_counts_the_answers(layers, rules) -> None:
    puzzle = Stack.from_layers(layers)
    expected = stack_answers(puzzle, rules)
    cnf = numberlink_cnf(puzzle, rules=rules)
    models = projected_models(cnf)
    drawn = {tuple(sorted(decode(puzzle, cnf, sorted(t)).as_dict().items())) for t in models}
    assert len(models) == len(expected) and drawn == expected
    assert all(stack_verify(puzzle, decode(puzzle, cnf, sorted(t)), rules) == [] for t in models)


# -- Numberlink on a stack with vias: the certificate formula and the exported one -------------------------------------

from puzzlesat.numberlink.multilayer.model import Via  # noqa: E402

VIA_STACKS = [  # (layers, vias as (name, cells))
    ([["A..", "..."], ["...", "..A"]], [("a", [(0, 1, 1), (1, 1, 1)])]),
    ([["A.B", "..."], ["B..", "..A"]], [("a", [(0, 1, 1), (1, 1, 1)])]),  # two lines, one via: no answer
    ([["A.B", "..."], ["B..", "..A"]], [("a", [(0, 1, 1), (1, 1, 1)]), ("b", [(0, 0, 1), (1, 0, 1)])]),
    ([["A.", ".."], ["..", ".."], ["..", ".A"]], [("a", [(0, 1, 0), (1, 1, 0), (2, 1, 0)])]),
    ([["AB.", "..."], ["...", ".BA"]], [("a", [(0, 1, 0), (1, 1, 0)]), ("b", [(0, 0, 2), (1, 0, 2)])]),
    ([["A..", "..."], ["...", ".A."]], [("a", [(0, 1, 0), (1, 1, 0)])]),  # covers every cell one way
    ([["A..", "B.."], ["...", "AB."]], [("a", [(0, 0, 2), (1, 0, 2)]), ("b", [(0, 1, 2), (1, 1, 2)])]),
]


def via_answers(puzzle: Stack, rules) -> set[tuple]:
    """Every answer of a stack with vias: the paths over its steps (``is_step``, beside meaning
    one step apart, as its rules say) that the stack's checker accepts."""
    from puzzlesat.numberlink.multilayer.model import Solution as StackSolution

    free, ends, found = set(puzzle.free_cells()), puzzle.endpoints(), set()

    def place(index, used, chosen):
        if index == len(puzzle.pairs):
            if not rules.cover_all or used == free:
                answer = StackSolution.from_mapping(chosen)
                if stack_verify(puzzle, answer, rules) == []:
                    found.add(tuple(sorted((label, cells if cells[0] <= cells[-1] else cells[::-1]) for label, cells in chosen.items())))
            return
        pair = puzzle.pairs[index]

        def extend(path):
            for step in puzzle.neighbours(path[-1]):
                if step in used or step in path:
                    continue
                if step == pair.end:
                    place(index + 1, used | set(path) | {step}, {**chosen, pair.label: tuple(path + [step])})
                elif step not in ends:
                    extend(path + [step])

        extend([pair.start])

    place(0, set(), {})
    return found


@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
@pytest.mark.parametrize("layers,vias", VIA_STACKS, ids=[f"{'/'.join('|'.join(l) for l in layers)}+{len(v)}via" for layers, v in VIA_STACKS])
def test_numberlink_certificate_formula_of_a_stack_with_vias_counts_the_answers(layers, vias, rules) -> None:
    puzzle = Stack.from_layers(layers, vias=[Via(name, cells) for name, cells in vias])
    expected = via_answers(puzzle, rules)
    found = {tuple(sorted((label, cells if cells[0] <= cells[-1] else cells[::-1]) for label, cells in a.as_dict().items()))
             for a in certificate_answers(puzzle, rules)}
    assert found == expected
    cnf = numberlink_cnf(puzzle, rules=rules)  # the complete exported formula, its via rows too
    models = projected_models(cnf)
    drawn = {tuple(sorted(decode(puzzle, cnf, sorted(t)).as_dict().items())) for t in models}
    assert len(models) == len(expected) and drawn == expected
