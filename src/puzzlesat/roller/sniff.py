"""Which texts are Roller level sets, for a file whose ending names no family (``sniff``).

Specific on purpose because Numberlink grids also use ``.`` and ``#``:
a Tiled ``<map`` XML (or ``<tileset``, the tiles of TabTale's maps: claimed only to be refused
as not a level); TabTale answer lines (``001.xml,0,1,3``, alone or in a solver's log:
claimed only to be refused with a clear message, :class:`~puzzlesat.errors.NotAPuzzle`, which
``verify`` of a folder reports as skipped; ``verify --answers`` reads them with
:func:`.records.answer_table`); a JSON object with ``"levels"``, ``"rows"`` and ``"start"``; herbou's
``levels = [[[`` arrays; a headerless grid of space-separated ``0``/``1`` with more than two
``1``; a ``W``/``G`` grid; a grid over ``#`` ``.`` with exactly one ``o`` (or exactly one ``x``)
in every block. A Numberlink label occurs exactly twice, so none of these is a Numberlink
puzzle. The ``.roller`` ending (or ``--family roller``) always wins; anything else falls
through to Numberlink (``sniff_order``).

>>> sniff("#####\\n#o..#\\n#####"), sniff("A.B\\n...\\nA.B")
(True, False)
"""

from __future__ import annotations

import re

from ..textio import split_lines
from . import formats
from .reading import blank_js_comments

_GRID_LINE = re.compile(r"^[#.ox]+$")
_BINARY_ROW = re.compile(r"^[01](?:[ \t]+[01])+$")
_WG_ROW = re.compile(r"^[WG]+$")
_ANSWER_LINE = re.compile(r"^[^,]+\.(?:xml|tmx),\s*\d+(?:\.\d+)?(?:,\s*[1-4])*\s*$", re.IGNORECASE)


def is_answer_file(text: str) -> bool:
    """TabTale answer lines (``001.xml,0,1,3,2,4``) rather than levels."""
    lines = [line.strip() for line in split_lines(text[:200_000]) if line.strip()]
    return bool(lines) and all(_ANSWER_LINE.match(line) for line in lines)


def answers_kind(text: str) -> str | None:
    """What a text holding TabTale answer lines is, in words, or None when it holds none: a
    table of answers, or a solver's log with such a table in it (eranheres' ``solution_dump.txt``).
    Either holds no level (:func:`puzzlesat.roller.read_answers` reads the answers of both).

    >>> answers_kind("001.xml,0,1,3\\n002.xml,0,4\\n")
    'a TabTale answer file (2 answers: level file, seconds, moves with 1=R 2=L 3=U 4=D)'
    >>> answers_kind("solving ../data/all\\n001.xml(2) depth:2\\n001.xml,0,1,3\\n")
    'a solver log holding a TabTale answer file (1 answer: level file, seconds, moves with 1=R 2=L 3=U 4=D)'
    >>> answers_kind("#####\\n#o..#\\n#####") is None
    True
    """
    lines = [line.strip() for line in filter(None, split_lines(text)) if not line.isspace()]
    count = sum(1 for line in lines if _ANSWER_LINE.match(line) and not line.startswith("#"))
    if not count:
        return None
    what = f"a TabTale answer file ({count} answer{'s' if count != 1 else ''}: level file, seconds, moves with 1=R 2=L 3=U 4=D)"
    return what if count == len(lines) else f"a solver log holding {what}"


_GRIDLIKE_TITLE = re.compile(r"^[A-Za-z0-9]*[.#][A-Za-z0-9.#]*$")  # 'A.A': a grid row of another family, not a title
_URL_LIKE = re.compile(r"://|\?(?:numlin|arukone)/", re.IGNORECASE)


def _grid_blocks(text: str) -> list[list[str]] | None:
    """Blocks of grid lines (comments and titles before a grid skipped), or None when a block
    holds a line that is neither, or a title line looks like another family's grid row or a
    puzzle URL (``A.A`` before ``x..`` is a damaged Numberlink grid, not a titled level)."""
    blocks: list[list[str]] = []
    current: list[str] = []
    for raw in split_lines(text):
        line = raw.strip()
        if not line:
            if current:
                blocks.append(current)
                current = []
            continue
        if line.startswith("# ") or (not current and line[0] not in "#.ox"):
            if not line.startswith("#") and (_GRIDLIKE_TITLE.match(line) or _URL_LIKE.search(line)):
                return None
            continue
        if not _GRID_LINE.match(line):
            return None
        current.append(line)
    if current:
        blocks.append(current)
    return blocks


def sniff(text: str) -> bool:
    """Is this text a Roller level set? Cheap and specific (see the module docstring)."""
    return refusal(text) is None


def refusal(text: str) -> str | None:
    """Why this text is not a Roller level set (a phrase for the error that no family reads
    it), or None when it is one (:func:`sniff`).

    >>> refusal("A.A\\nx..\\n")
    'not a Roller grid: every line must be over # . o x (one ball o, or one x, per level), after a title'
    >>> refusal("#####\\n#o.o#\\n#####")
    'a level grid must hold exactly one ball o (or one x): a block holds 2 o and 0 x'
    """
    head = text[:200_000].lstrip("\ufeff \t\r\n")
    if not head:
        return "empty text"
    if head.startswith("<"):
        if "<map" in head[:4000] or re.search(r"<tileset\b", head[:4000]) is not None:  # (a tileset: to be refused clearly)
            return None
        return "XML, but no Tiled <map>"
    if head.startswith("{"):
        if '"levels"' in head and '"rows"' in head and '"start"' in head:
            return None
        return 'JSON, but not a level set with "levels", "rows" and "start"'
    if "levels" in head and re.search(r"\blevels\s*=\s*\[\s*\[\s*\[", blank_js_comments(head)):
        return None
    if is_answer_file(head):
        return None  # claimed so that load() can say what it is
    lines = [line.strip() for line in split_lines(head) if line.strip()]
    if len(lines) >= 2 and all(_BINARY_ROW.match(line) for line in lines):
        ones = sum(line.split().count("1") for line in lines)
        return None if ones > 2 else f"a 0/1 grid needs more than two floor cells 1, found {ones}"
    if len(lines) >= 2 and all(_WG_ROW.match(line) for line in lines):
        joined = "".join(lines)
        return None if joined.count("W") > 2 or joined.count("G") > 2 else "a W/G grid needs more than two cells of a kind"
    if formats.detect_format(head) == "nohtaray":
        blocks = _grid_blocks(re.split(r"\n[ \t\r]*\n", head, maxsplit=1)[0])
        return None if blocks and "".join(blocks[0]).count("o") == 1 else "a nohtaray grid must hold exactly one ball o"
    blocks = _grid_blocks(head)
    if not blocks:
        if answers_kind(head) is not None:
            return None  # a solver's log around an answer table: claimed so that load() says what it is
        return "not a Roller grid: every line must be over # . o x (one ball o, or one x, per level), after a title"
    for block in blocks:
        cells = "".join(block)
        has_o, has_x = cells.count("o"), cells.count("x")
        if not ((has_o == 1 and has_x == 0) or (has_x == 1 and has_o == 0)):
            return f"a level grid must hold exactly one ball o (or one x): a block holds {has_o} o and {has_x} x"
    return None


def has_grid(text: str) -> bool:
    """Whether the text holds a level grid (over ``#`` ``.`` ``o`` ``x``)."""
    return bool(_grid_blocks(text))
