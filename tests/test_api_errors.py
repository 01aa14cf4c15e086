"""Clear API errors (#45): a wrong type given to a constructor or a reader raises a TypeError
(or ValueError) whose message names the argument, never an AttributeError or Python's bare
"'NoneType' object is not iterable"."""

from __future__ import annotations

import pytest

from puzzlesat import roller, swap
from puzzlesat.numberlink import Puzzle, Solution, parse_solution
from puzzlesat.numberlink.multilayer import Puzzle as LayeredPuzzle
from puzzlesat.numberlink.multilayer import Solution as LayeredSolution
from puzzlesat.numberlink.multilayer.formats import parse_solution as parse_layered_solution

CASES = {
    "Solution.from_mapping(None)": (lambda: Solution.from_mapping(None), "paths"),
    "Solution.from_mapping({'A': 2})": (lambda: Solution.from_mapping({"A": 2}), "the path of 'A'"),
    "Solution(None)": (lambda: Solution(None), "paths"),
    "parse_solution('x', None)": (lambda: parse_solution("x", None), "puzzle"),
    "Puzzle(3, 3, None, None)": (lambda: Puzzle(3, 3, None, None), "pairs"),
    "Puzzle(3, 3, (), None)": (lambda: Puzzle(3, 3, (), None), "blocked"),
    "Puzzle.from_rows(None)": (lambda: Puzzle.from_rows(None), "rows"),
    "Puzzle.from_rows(['A.A', None])": (lambda: Puzzle.from_rows(["A.A", None]), "each row"),
    "layered Puzzle(3, 3, 1, None)": (lambda: LayeredPuzzle(3, 3, 1, None), "pairs"),
    "layered Puzzle(3, 3, 1, (), None)": (lambda: LayeredPuzzle(3, 3, 1, (), None), "blocked"),
    "layered from_layers(None)": (lambda: LayeredPuzzle.from_layers(None), "layers"),
    "layered from_layers([None])": (lambda: LayeredPuzzle.from_layers([None]), "each layer"),
    "layered from_layers([[None]])": (lambda: LayeredPuzzle.from_layers([[None]]), "each row"),
    "layered Solution.from_mapping(None)": (lambda: LayeredSolution.from_mapping(None), "paths"),
    "layered Solution.from_mapping({'A': [1]})": (lambda: LayeredSolution.from_mapping({"A": [1]}), "the path of 'A'"),
    "layered parse_solution('x', None)": (lambda: parse_layered_solution("x", None), "puzzle"),
    "roller Level(None, (0, 0))": (lambda: roller.Level(None, (0, 0)), "rows"),
    "roller Level(['###', None], ...)": (lambda: roller.Level(["###", None], (0, 0)), "each row"),
    "roller Level(rows, None)": (lambda: roller.Level(["#.#"], None), "start"),
    "swap Level.from_rows(None)": (lambda: swap.Level.from_rows(None), "rows"),
    "swap Level.from_rows([None])": (lambda: swap.Level.from_rows([None]), "each row"),
    "swap Level(None, None)": (lambda: swap.Level(None, None), "start"),
    "swap Level.from_rows(goal=5)": (lambda: swap.Level.from_rows(["T1R"], goal=5), "goal"),
    "numberlink.parse(None)": (lambda: __import__("puzzlesat.numberlink", fromlist=["parse"]).parse(None), "text"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_wrong_type_names_the_argument(case) -> None:
    call, name = CASES[case]
    with pytest.raises((TypeError, ValueError)) as caught:
        call()
    assert not isinstance(caught.value, AttributeError)
    message = str(caught.value)
    assert name in message, message
    assert "object is not iterable" not in message and "has no attribute" not in message


def test_the_right_types_still_build() -> None:
    puzzle = Puzzle.from_rows(["A.A"])
    assert Solution.from_mapping({"A": iter([(0, 0), (0, 1), (0, 2)])}).path("A") == ((0, 0), (0, 1), (0, 2))
    assert parse_solution("AAA", puzzle).path("A") == ((0, 0), (0, 1), (0, 2))
    assert LayeredPuzzle.from_layers([[["A", ".", "A"]]]).size == (3, 1, 1)
    assert roller.Level([list("#.#")], (0, 1)).rows == ("#.#",)
    assert swap.Level.from_rows([["T1R", "T1G"]], goal=["G R"]).goal.kind == "match"
