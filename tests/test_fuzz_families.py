"""A seeded property-based fuzzer of every reader of every family, through the registry (#45):
small puzzles written in every format each family writes (and a few hand-written inputs) are
mutated, then read with ``FAMILY.load`` under every format name (and detection). Nothing but a
ParseError / PuzzlesatError may escape; anything accepted is solved under a short time limit
without crashing, and any answer passes the family's own checker.

Seeded (``derandomize``): the same cases on every run, a few thousand in all."""

from __future__ import annotations

import importlib
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzlesat import roller, swap
from puzzlesat.errors import CannotExpress, ParseError, PuzzlesatError, UnverifiedAnswer
from puzzlesat.numberlink import multilayer
from puzzlesat.numberlink.model import Puzzle, Rules
from puzzlesat.registry import detect_family, families, get_family

EXAMPLES = 600  # per family: about 1,800 inputs, each read under up to 9 format names
SOLVE_SECONDS = 0.2
MAX_SOLVED_CELLS = 400  # accepted boards larger than this are read, not solved (time)

SAMPLES = {
    "numberlink": [Puzzle.from_rows(["A.B", "...", "A.B"]), Puzzle.from_rows(["A..B", "C..C", "A..B"]),
                   multilayer.Puzzle.from_layers([["A.", ".."], ["..", ".A"]])],
    "roller": [roller.Level(("...", "#..", "..."), (0, 0)), roller.Level(("#####", "#...#", "#.#.#", "#####"), (1, 1))],
    "swap": [swap.Level.from_rows(["T1R T1G"], goal=["G R"]), swap.Level.from_rows(["T1R B1G ###", "Q1R T1G T1B"])],
}
EXTRA = {
    "numberlink": ["SIZE 4X2\r\nLINE_NUM 2\r\nLINE#1 (0,0)-(3,0)\r\nLINE#2 (0,1) (3,1)\r\n",
                   "https://puzz.link/p?numlin/5/5/1j2h3m1h2j3\n", "2 4 2\n(0, 0) (3, 1)\n(1, 0) (2, 0)\n"],
    "roller": ['<map width="3" height="2"><layer><data encoding="csv">1,1,1,0,1,0</data></layer></map>',
               "# answer: RD\n#####\n#o..#\n#.#.#\n#####\n", "001.xml,0,1,3\n"],
    "swap": ["start\nT1R T1G\ngoal touch\nminimum 1\nsolution 0,0>0,1\n", "start\nT2R ### T1G\ngoal cluster\n"],
}
ALPHABET = "AaBb0129.#-+(),xXoO TtQRGB>\n\r\t<>=/\"{}[]:;"


def _texts(name: str) -> list[str]:
    family = get_family(name)
    texts = list(EXTRA[name])
    for puzzle in SAMPLES[name]:
        for fmt in family.writable_formats():
            try:
                texts.append(family.format(puzzle, fmt=fmt))
            except CannotExpress:
                continue
    return texts


@st.composite
def mutated(draw, texts: list[str]) -> str:
    text = draw(st.sampled_from(texts))
    for _ in range(draw(st.integers(0, 3))):
        if not text:
            break
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["insert", "delete", "replace", "duplicate line", "drop line", "truncate"]))
        piece = draw(st.text(alphabet=ALPHABET, min_size=1, max_size=4))
        lines = text.split("\n")
        row = draw(st.integers(0, len(lines) - 1))
        if kind == "insert":
            text = text[:at] + piece + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 4)):]
        elif kind == "replace":
            text = text[:at] + piece + text[at + len(piece):]
        elif kind == "duplicate line":
            text = "\n".join(lines[:row + 1] + lines[row:])
        elif kind == "drop line":
            text = "\n".join(lines[:row] + lines[row + 1:])
        else:
            text = text[:at]
    return text


def _cells(family, puzzle) -> int:
    return math.prod(int(side) for side in family.size_text(puzzle).split("x"))


def _verify(name: str, puzzle, family, record) -> list:
    if name == "numberlink":
        answer = family.answer_of(puzzle, record)
        assert answer is not None
        rules = Rules()
        check = multilayer.verify if isinstance(puzzle, multilayer.Puzzle) else importlib.import_module("puzzlesat.numberlink").verify
        return check(puzzle, answer, rules)
    module = roller if name == "roller" else swap
    return module.verify(puzzle, record["answer"])


def _exercise(name: str, text: str) -> None:
    family = get_family(name)
    try:
        detect_family(text, "fuzz.txt")
    except ParseError:
        pass
    for fmt in (None, *(f.name for f in family.formats)):
        try:
            items = family.load(text, source="fuzz.txt", fmt=fmt, options=family.defaults())
        except UnverifiedAnswer:
            raise
        except PuzzlesatError:
            continue
        for item in items:
            if isinstance(item, PuzzlesatError) or _cells(family, item) > MAX_SOLVED_CELLS:
                continue
            try:
                record = family.solve_record(item, options=family.defaults(), time_limit=SOLVE_SECONDS)
            except UnverifiedAnswer:
                raise
            except PuzzlesatError:
                continue  # (e.g. rules a format states that the family refuses to solve under)
            assert record["status"] in ("solved", "unsolvable", "unknown"), record["status"]
            answered = record.get("paths") if name == "numberlink" else record["answer"] is not None
            if record["status"] == "solved" and answered:
                assert _verify(name, item, family, record) == [], (text, fmt, record["answer"])


@pytest.mark.parametrize("name", [family.name for family in families()])
def test_every_reader_refuses_cleanly_or_gives_puzzles_that_solve(name) -> None:
    texts = _texts(name)

    @settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(mutated(texts))
    def run(text: str) -> None:
        _exercise(name, text)

    run()


def test_the_unmutated_samples_are_read_and_solved() -> None:
    for family in families():
        for text in _texts(family.name):
            _exercise(family.name, text)
        assert any(family.load(text, source="s", fmt=None, options=family.defaults()) for text in _texts(family.name))
