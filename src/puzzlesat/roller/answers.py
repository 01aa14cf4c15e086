"""TabTale answer tables: ``001.xml,0,1,3,2,4`` lines (a level file, the seconds, move digits
1=R 2=L 3=U 4=D), alone in a file or inside a solver's log; read for ``verify --answers`` and
attached to levels as their shipped answers."""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import ParseError, quoted
from ..textio import split_lines
from .model import Level
from ..textio import MAX_INPUT_BYTES
from .reading import read_text

ANSWER_DIGITS = {"1": "R", "2": "L", "3": "U", "4": "D"}  # TabTale answer files
ANSWER_NAME_RE = re.compile(r"\S\.(?:xml|tmx)$", re.IGNORECASE)  # an answer line's first field: a level file

def parse_answers(text: str) -> dict[str, str]:
    """TabTale answer lines ``file,seconds,d1,d2,...`` (1=R 2=L 3=U 4=D) as file name -> moves.

    An answer line starts with a level file's name (ending ``.xml`` or ``.tmx``), a comma and the
    seconds; other lines are skipped (blank ones, comments, and the log a solver printed around
    its table, as in eranheres' ``solution_dump.txt``). Lines without moves (a level the
    submitter gave up on) map to an empty string. A bad move digit, a second different answer
    for one file, or a text without any answer line is a ParseError naming the line.

    >>> parse_answers("001.xml,0,1,3,2,4\\n002.xml,3,4,1\\n")
    {'001.xml': 'RULD', '002.xml': 'DR'}
    >>> parse_answers("=> 001.xml(4) level:l-0\\n001.xml(4) time:0 solution:[b'R', b'U']\\n001.xml,0,1,3\\n")
    {'001.xml': 'RU'}
    """
    answers: dict[str, str] = {}
    first_line: dict[str, int] = {}
    for number, line in enumerate(split_lines(text), 1):
        if not is_answer_line(line):
            continue  # not an answer line: a comment, a blank line or a solver's log
        parts = [part.strip() for part in line.split(",")]
        try:
            float(parts[1])
        except ValueError:
            raise ParseError(f"answer field 2 is {quoted(parts[1])}, not the seconds the answer took", line=number) from None
        moves = []
        for column, digit in enumerate(parts[2:], 3):
            if digit == "":
                continue
            if digit not in ANSWER_DIGITS:
                raise ParseError(f"answer field {column} is {quoted(digit)}, not a move digit 1-4 (1=R 2=L 3=U 4=D)", line=number)
            moves.append(ANSWER_DIGITS[digit])
        answer = "".join(moves)
        if parts[0] in answers and answers[parts[0]] != answer:
            raise ParseError(f"a second, different answer for {parts[0]} (the first is on line {first_line[parts[0]]})", line=number)
        answers[parts[0]] = answer
        first_line.setdefault(parts[0], number)
    if not answers:
        raise ParseError("no TabTale answer line (a level file ending .xml or .tmx, the seconds, then move digits 1-4)")
    return answers


def is_answer_line(line: str) -> bool:
    """Whether :func:`parse_answers` reads ``line`` as an answer line (a level file's name ending
    ``.xml`` or ``.tmx``, then a comma), right or wrong in its other fields.

    >>> is_answer_line("001.xml,0,1,3"), is_answer_line("001.xml,0,R,U"), is_answer_line("001.xml(4) time:0")
    (True, True, False)
    """
    parts = line.split(",")
    return len(parts) >= 2 and bool(ANSWER_NAME_RE.search(parts[0].strip())) and not line.lstrip().startswith(("[", "=>", "#"))


def read_answers(path: str | Path, *, max_bytes: int = MAX_INPUT_BYTES) -> dict[str, str]:
    """:func:`parse_answers` of a file (e.g. TabTale's ``solutions/solution.txt``) of at most
    ``max_bytes`` (:data:`puzzlesat.textio.MAX_INPUT_BYTES`).

    >>> import os, tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = os.path.join(folder.name, "solution.txt")
    >>> with open(path, "w") as handle:
    ...     _ = handle.write("001.xml,0,1,3\\n002.xml,2\\n")
    >>> read_answers(path)
    {'001.xml': 'RU', '002.xml': ''}
    >>> folder.cleanup()
    """
    return parse_answers(read_text(path, max_bytes=max_bytes))


def with_answers(levels: list[Level], answers: dict[str, str]) -> list[Level]:
    """The levels with ``known_answer`` set from an answer table (file name -> moves, as
    :func:`read_answers` gives), matched by level name; levels without an entry are unchanged.
    Whether an answer is valid for the level's start is left to ``verify``.

    >>> from puzzlesat.roller.formats import parse
    >>> level = parse("#####\\n#o..#\\n#####", source="001.xml")
    >>> with_answers([level], {"001.xml": "R"})[0].known_answer
    'R'
    """
    out = []
    for level in levels:
        moves = answers.get(level.name)
        if moves is None:
            out.append(level)
            continue
        out.append(Level(level.rows, level.start, name=level.name, par=level.par, known_answer=moves,
                         start_rule=level.start_rule))
    return out
