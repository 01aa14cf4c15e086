"""verify: named violations with steps and cells; replays of published answers."""

from __future__ import annotations

import pytest

from puzzlesat.roller import read, read_answers, verify
from puzzlesat.roller.model import Level
from puzzlesat.roller.verify import CODES, is_solution
from tests.support import shared_path

RING = Level.from_rows(["#####",
                        "#o..#",
                        "#.#.#",
                        "#...#",
                        "#####"])


@pytest.mark.parametrize(
    "moves, expected",
    [
        ("RDLU", []),
        ("DRUL", []),
        ("RDL", [("unpainted", None)]),
        ("", [("unpainted", None)]),
        ("R", [("unpainted", None)]),
        ("U", [("no-move", 1), ("unpainted", None)]),
        ("RRDLU", [("no-move", 2)]),
        ("RDLUr", [("bad-symbol", 5)]),
        ("RD LU", [("bad-symbol", 3)]),
        ("x", [("bad-symbol", 1), ("unpainted", None)]),
    ],
)
def test_violation_codes_and_steps(moves, expected):
    found = verify(RING, moves)
    assert [(v.code, v.step) for v in found] == expected
    assert all(v.code in CODES for v in found)
    assert is_solution(RING, moves) == (not expected)


def test_unpainted_names_how_many_and_which_cells():
    (violation,) = verify(RING, "R")
    assert violation.cells == ((2, 1), (2, 3), (3, 1), (3, 2), (3, 3))
    assert "5 floor cells" in violation.message and "(3, 3)" in violation.message


def test_no_move_names_the_cell():
    violation = verify(RING, "U")[0]
    assert violation.cells == ((1, 1),)
    assert "move 1 (U)" in violation.message


def test_long_lists_of_cells_are_shortened_in_the_message():
    level = Level.from_rows(["o" + "." * 29, "." * 30])
    (violation,) = verify(level, "")
    assert len(violation.cells) == 59
    assert "more)" in violation.message


def test_a_one_cell_level_is_solved_by_no_moves():
    assert verify(Level.from_rows(["#o#"]), "") == []


def test_moves_as_a_list_of_letters():
    assert verify(RING, list("RDLU")) == []


def test_starhermit_solutions_replay_with_par_moves():
    levels = read(shared_path("roller", "HypeDriven-starhermit-paint-maze", "data", "levels.json"))
    assert len(levels) == 60
    for level in levels:
        assert level.known_answer is not None and level.par is not None
        assert verify(level, level.known_answer) == [], level.name
        assert len(level.known_answer) == level.par, level.name


@pytest.mark.parametrize("convention, answers", [("bottom-left", "solution.txt"), ("row-major", "best_solution.txt")])
def test_tabtale_submitted_answers_replay_under_their_convention(convention, answers):
    folder = shared_path("roller", "eranheres-amaze")
    table = read_answers(folder / "solutions" / answers)
    failures = []
    for path in sorted((folder / "data" / "all").glob("*.xml")):
        (level,) = read(path, start=convention)
        moves = table.get(path.name)
        if moves is None:
            failures.append((path.name, "no answer"))
            continue
        problems = verify(level, moves)
        if problems:
            failures.append((path.name, [str(p) for p in problems]))
    assert len(table) == 170
    assert failures == []


def test_tabtale_answers_do_not_fit_the_other_convention():
    """The two answer files really belong to different starts (the convention matters)."""
    folder = shared_path("roller", "eranheres-amaze")
    table = read_answers(folder / "solutions" / "solution.txt")
    wrong = sum(bool(verify(read(path, start="row-major")[0], table[path.name]))
                for path in sorted((folder / "data" / "all").glob("*.xml")))
    assert wrong > 100


def test_answers_attached_to_levels_feed_the_par_comparison():
    from puzzlesat.roller import with_answers
    from puzzlesat.roller.records import stated_facts

    folder = shared_path("roller", "eranheres-amaze")
    table = read_answers(folder / "solutions" / "solution.txt")
    levels = with_answers([read(path)[0] for path in sorted((folder / "data" / "all").glob("00*.xml"))], table)
    assert [level.known_answer for level in levels] == [table[level.name] for level in levels]
    assert all(stated_facts(level) == (len(level.known_answer), []) for level in levels)
