"""How a pack of multi-layer puzzles (``--size WxHxL``) lays out its folder, as an ADC set::

    OUT/pack.txt              the run's first line, then one line per puzzle
    OUT/problems/Q0000.txt    puzzle 0: an ADC problem (``--method routing``), else the layered
                              text after a comment line naming the run and its rules (the first
                              line of pack.txt), so that ``verify`` can name them
    OUT/answers/A0000.txt     its drawn answer, in the same format (ADC: LAYER blocks of line numbers)

The layered readers take one puzzle per file, as the contest sets hold them; the pack writer
(:mod:`puzzlesat.pack`) writes each puzzle's files before its line, and a rerun reads every
listed problem back and checks its answer (:func:`check`). ``puzzlesat verify OUT/problems
--answers OUT/answers`` (with ``--allow-empty --allow-multiple`` for routing problems) checks it.

>>> names(7)
('problems/Q0007.txt', 'answers/A0007.txt')
>>> from puzzlesat.family import Generated
>>> from puzzlesat.numberlink.multilayer import Puzzle, solve
>>> puzzle = Puzzle.from_layers([["1.", ".2"], ["1.", ".2"]])
>>> made = Generated(puzzle, solve(puzzle).solution, seed=5, tries=1)
>>> problem, answer = files(made, 0, options={}, first_line="# puzzlesat generate numberlink --size 2x2x2 --seed 0")
>>> print(problem.splitlines()[:3], answer.splitlines()[:3])
['# puzzlesat generate numberlink --size 2x2x2 --seed 0', 'layer 1', '1 .'] ['layer 1', '1 1', '2 2']
>>> check((problem, answer), options={}, sources=names(0))  # (a ValueError when it does not read back or breaks the rules)
>>> check((problem, answer.replace("1 1", "1 .")), options={}, sources=names(0))
Traceback (most recent call last):
...
ValueError: the answer answers/A0000.txt breaks the rules: uncovered: 2 free cell(s) on no path, first (0, 0, 1)
"""

from __future__ import annotations

from typing import Any, Mapping

from ...family import Generated, PackFolder
from ..records import rules_of
from .formats import format as format_text
from .formats import format_solution, parse, parse_solution
from .generate import TEXT_FORMAT
from .verify import verify

PROBLEMS, ANSWERS = "problems", "answers"
DEFAULT_METHOD = "split"  # the multi-layer method a pack draws with when none is named


def applies(size: tuple[int, ...] | None) -> bool:
    """A stack of layers (``WxHxL``) goes one puzzle per file."""
    return size is not None and len(size) == 3


def names(index: int) -> tuple[str, str]:
    """The problem and answer file of puzzle ``index`` (numbered as ADC sets are, Q/A, from 0)."""
    return f"{PROBLEMS}/Q{index:04d}.txt", f"{ANSWERS}/A{index:04d}.txt"


def _text_format(options: Mapping[str, Any]) -> str:
    return TEXT_FORMAT[options.get("method") or DEFAULT_METHOD]


def files(generated: Generated, index: int, *, options: Mapping[str, Any], first_line: str) -> tuple[str, str]:
    """The problem and answer texts of puzzle ``index``; a layered problem opens with the run's
    line (ADC problems stay as the contest tools read them)."""
    fmt = _text_format(options)
    problem = format_text(generated.puzzle, fmt=fmt)
    answer = format_solution(generated.puzzle, generated.answer, fmt=fmt)
    return (problem if fmt == "adc" else f"{first_line}\n{problem}"), answer


def check(texts: tuple[str, ...], *, options: Mapping[str, Any], sources: tuple[str, ...]) -> None:
    """Raise ValueError (a ParseError is one) unless the problem reads back and its answer does
    and passes :func:`~puzzlesat.numberlink.multilayer.verify` under the run's rules."""
    fmt = _text_format(options)
    (problem, answer), (problem_source, answer_source) = texts, sources
    puzzle = parse(problem, fmt=fmt, source=problem_source)
    solution = parse_solution(answer, puzzle, fmt=fmt, source=answer_source)
    broken = verify(puzzle, solution, rules_of(options))
    if broken:
        raise ValueError(f"the answer {answer_source} breaks the rules: {broken[0]}")


def summary(folder: str, *, options: Mapping[str, Any]) -> str:
    """How to check the folder: verify its problems with their answers, under the run's rules.

    >>> summary("out", options={"method": "routing", "allow_empty": True})
    'check: puzzlesat verify out/problems --answers out/answers --allow-empty --allow-multiple'
    """
    if (options.get("method") or DEFAULT_METHOD) == "routing":
        flags = " --allow-empty --allow-multiple"  # (routing problems have many answers)
    else:
        flags = "".join(f" --{name.replace('_', '-')}" for name in ("allow_empty", "no_self_touch", "allow_multiple") if options.get(name))
    return f"check: puzzlesat verify {folder}/{PROBLEMS} --answers {folder}/{ANSWERS}{flags}"


PACK_FOLDER = PackFolder(applies=applies, names=names, files=files, check=check, summary=summary)
