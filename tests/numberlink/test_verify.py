"""The array check that ``verify`` runs first on large answers (``verify.plainly_valid``) must
say "valid" exactly when the plain checks find no violation: held against them on valid answers
and on many broken ones (cells moved, dropped, repeated, swapped, taken from another path, steps
bumped out into whatever lies beside them or taken back and forth, paths cut, joined or
relabelled, cells blocked under a path or freed beside it), under all three rule sets, on boards that are not square."""

from __future__ import annotations

import random

import pytest

from puzzlesat.grid import is_adjacent
from puzzlesat.numberlink.generate import unionfind_links
from puzzlesat.numberlink.model import Pair, Puzzle, Rules, Solution
from puzzlesat.numberlink.verify import _onward, check_paths, plainly_valid, verify
from puzzlesat.numberlink.fill import route_and_fill

RULE_SETS = (Rules(), Rules(no_self_touch=True), Rules(cover_all=False), Rules(cover_all=False, no_self_touch=True))


def _plain(puzzle: Puzzle, solution: Solution, rules: Rules) -> bool:
    return not check_paths(puzzle, solution, rules, adjacent=is_adjacent, onward=_onward)


def _board(rng: random.Random) -> tuple[Puzzle, Solution]:
    """A puzzle drawn from random non-crossing paths, with those paths as its answer."""
    width, height = rng.choice([(4, 3), (5, 4), (6, 4), (4, 6), (7, 5)])
    links, blocked = [], frozenset()
    while not links:
        links, blocked = unionfind_links(width, height, rng)
    puzzle = Puzzle(width, height, tuple(Pair(str(i), link[0], link[-1]) for i, link in enumerate(links)), blocked)
    return puzzle, Solution(tuple((str(i), tuple(link)) for i, link in enumerate(links)))


def _broken(rng: random.Random, puzzle: Puzzle, solution: Solution) -> Solution:
    paths = {label: list(cells) for label, cells in solution.paths}
    if not paths:
        return solution
    label = rng.choice(sorted(paths))
    cells = paths[label]
    if len(cells) < 2:  # (an answer already cut short): one more cell anywhere
        paths[label] = cells + [(rng.randrange(puzzle.height), rng.randrange(puzzle.width))]
        return Solution.from_mapping(paths)
    other = rng.choice(sorted(paths))
    kind = rng.randrange(12)
    anywhere = (rng.randrange(-1, puzzle.height + 1), rng.randrange(-1, puzzle.width + 1))
    if kind == 0 and len(cells) > 2:
        del cells[rng.randrange(1, len(cells) - 1)]  # a cell dropped (a gap, or a cell left empty)
    elif kind == 1:
        cells.insert(rng.randrange(1, len(cells)), anywhere)  # a cell put in anywhere
    elif kind == 2:
        cells[rng.randrange(len(cells))] = anywhere  # a cell moved anywhere
    elif kind == 3:
        cells.insert(rng.randrange(len(cells) + 1), cells[rng.randrange(len(cells))])  # a repeat
    elif kind == 4 and len(cells) > 2:
        i, j = sorted(rng.sample(range(len(cells)), 2))
        cells[i], cells[j] = cells[j], cells[i]  # two cells swapped
    elif kind == 5:
        cells.insert(rng.randrange(1, len(cells)), rng.choice(paths[other]))  # a cell of another path
    elif kind == 6:
        del paths[label]  # a path missing
    elif kind == 7:
        paths["?"] = paths.pop(label)  # an unknown label
    elif kind == 8:
        paths[label] = cells[::-1][: rng.randrange(1, len(cells) + 1)]  # cut short
    elif kind == 9:
        if other != label:
            paths[label] = cells + paths[other]  # run on through another path
    elif kind == 10:  # a step a -> b bumped out through the two cells beside it, whatever they hold
        i = rng.randrange(len(cells) - 1)
        (ar, ac), (br, bc) = cells[i], cells[i + 1]
        side = rng.choice((1, -1))
        dr, dc = (side, 0) if ar == br else (0, side)
        cells[i + 1:i + 1] = [(ar + dr, ac + dc), (br + dr, bc + dc)]
    else:  # a step taken back and forth (every step still a step)
        i = rng.randrange(1, len(cells))
        cells[i + 1:i + 1] = [cells[i - 1], cells[i]]
    return Solution.from_mapping(paths)


def _other_boards(rng: random.Random, puzzle: Puzzle, solution: Solution) -> list[Puzzle]:
    """The same board with a cell inside a path blocked, and with a blocked cell freed (which
    the answer then leaves empty)."""
    out = []
    inner = [cell for _, cells in solution.paths for cell in cells[1:-1]]
    if inner:
        out.append(Puzzle(puzzle.width, puzzle.height, puzzle.pairs, puzzle.blocked | {rng.choice(inner)}))
    if puzzle.blocked:
        out.append(Puzzle(puzzle.width, puzzle.height, puzzle.pairs, puzzle.blocked - {rng.choice(sorted(puzzle.blocked))}))
    return out


@pytest.mark.parametrize("seed", range(3))
def test_the_array_check_agrees_with_the_plain_checks(seed: int) -> None:
    rng = random.Random(seed)
    verdicts = {True: 0, False: 0}
    for _ in range(300):
        puzzle, solution = _board(rng)
        cases = [(puzzle, solution), (puzzle, _broken(rng, puzzle, solution)), (puzzle, _broken(rng, puzzle, _broken(rng, puzzle, solution)))]
        cases += [(other, solution) for other in _other_boards(rng, puzzle, solution)]
        for board, candidate in cases:
            for rules in RULE_SETS:
                plain = _plain(board, candidate, rules)
                assert plainly_valid(board, candidate, rules) == plain, (board, candidate, rules)
                verdicts[plain] += 1
    assert min(verdicts.values()) >= 500, verdicts


def test_self_touch_and_uncovered_cells_are_seen_on_answers_that_touch() -> None:
    """Answers drawn by filling run beside themselves: valid under default rules, not under
    no-self-touch rules; the same with a cell taken away (may-leave-empty only)."""
    rng = random.Random(5)
    seen = 0
    for _ in range(60):
        width, height = rng.choice([(5, 5), (6, 5), (6, 6)])
        cells = [(r, c) for r in range(height) for c in range(width)]
        rng.shuffle(cells)
        puzzle = Puzzle(width, height, (Pair("A", cells[0], cells[1]), Pair("B", cells[2], cells[3])))
        answer = route_and_fill(puzzle, float("inf"))
        if answer is None:
            continue
        seen += 1
        for rules in RULE_SETS:
            assert plainly_valid(puzzle, answer, rules) == _plain(puzzle, answer, rules)
        assert plainly_valid(puzzle, answer, Rules())
    assert seen >= 20


def test_verify_names_the_violations_of_a_large_broken_answer() -> None:
    """The array check runs first; a broken answer of a large board still gets the plain
    checks' named violations."""
    puzzle = Puzzle(120, 100, (Pair("A", (0, 0), (99, 0)),))
    answer = route_and_fill(puzzle, float("inf"))
    assert answer is not None and verify(puzzle, answer) == []
    cells = list(answer.path("A"))
    broken = Solution.from_mapping({"A": cells[:500] + cells[501:]})
    assert {v.code for v in verify(puzzle, broken)} == {"not-connected", "uncovered"}
    assert [v.code for v in verify(puzzle, answer, Rules(no_self_touch=True))][:1] == ["self-touch"]


def test_a_cell_far_off_any_board_is_named_not_raised() -> None:
    """Coordinates beyond 64 bits do not fit the array check: the plain checks name them."""
    puzzle = Puzzle.from_rows(["A.A"])
    far = Solution.from_mapping({"A": [(0, 0), (10**30, 1), (0, 2)]})
    assert not plainly_valid(puzzle, far)
    assert [v.code for v in verify(puzzle, far)] == ["off-board", "uncovered"]


def _folded(puzzle: Puzzle, solution: Solution, height: int):
    """A one-layer board of 2 * ``height`` rows folded onto two layers of ``height`` rows (row r
    on layer 0, or row 2 * height - 1 - r on layer 1: every step stays a step, and cells that
    were apart may come side by side across the layers), with its answer folded the same way."""
    from puzzlesat.numberlink.multilayer.model import Pair as StackPair, Puzzle as Stack, Solution as StackSolution

    def fold(cell):
        r, c = cell
        return (0, r, c) if r < height else (1, 2 * height - 1 - r, c)

    stack = Stack(puzzle.width, height, 2, tuple(StackPair(p.label, fold(p.start), fold(p.end)) for p in puzzle.pairs),
                  frozenset(fold(cell) for cell in puzzle.blocked))
    return stack, StackSolution(tuple((label, tuple(fold(cell) for cell in cells)) for label, cells in solution.paths))


@pytest.mark.parametrize("seed", range(2))
def test_the_array_check_agrees_with_the_plain_checks_on_stacks(seed: int) -> None:
    """Stacks of two layers without vias: answers folded from one-layer ones, broken before or
    after folding (a cell moved anywhere in the stack)."""
    from puzzlesat.numberlink.multilayer.model import is_adjacent as step
    from puzzlesat.numberlink.multilayer.verify import _onward as onward

    rng = random.Random(seed)
    verdicts = {True: 0, False: 0}
    for _ in range(150):
        width, height = rng.choice([(4, 2), (5, 3), (3, 3), (6, 2)])
        links, blocked = [], frozenset()
        while not links:
            links, blocked = unionfind_links(width, 2 * height, rng)
        flat = Puzzle(width, 2 * height, tuple(Pair(str(i), link[0], link[-1]) for i, link in enumerate(links)), blocked)
        answer = Solution(tuple((str(i), tuple(link)) for i, link in enumerate(links)))
        for broken in (answer, _broken(rng, flat, answer), _broken(rng, flat, answer)):
            stack, candidate = _folded(flat, broken, height)
            paths = {label: list(cells) for label, cells in candidate.paths}
            label = rng.choice(sorted(paths)) if paths else None
            moved = dict(paths)
            if label is not None and paths[label]:
                cells = list(paths[label])
                cells[rng.randrange(len(cells))] = (rng.randrange(-1, 3), rng.randrange(height), rng.randrange(width))
                moved[label] = cells
            for case in (candidate, type(candidate).from_mapping(moved)):
                for rules in RULE_SETS:
                    plain = not check_paths(stack, case, rules, adjacent=step, onward=onward)
                    assert plainly_valid(stack, case, rules) == plain, (stack, case, rules)
                    verdicts[plain] += 1
    assert min(verdicts.values()) >= 200, verdicts
