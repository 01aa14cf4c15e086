"""Read and write multi-layer (3-D) Numberlink puzzles and answers.

Rules and the model live in :mod:`.model`; this module only turns text into :class:`Puzzle` /
:class:`Solution` objects and back. Every refusal of input text is a :class:`ParseError` naming
the line (and the column where it applies); every puzzle goes through the ``Puzzle``
constructor, so nothing accepted here can break a solver later. Cells are ``(layer, row,
column)`` from 0; text counts layers from 1, as the contest files do.

>>> p = parse("SIZE 3X2X2\\nLINE_NUM 2\\nLINE#1 (0,0,1) (2,1,2)\\nLINE#2 (2,0,1)-(0,1,2)")
>>> p.size, p.pair("1")
((3, 2, 2), Pair(label='1', start=(0, 0, 0), end=(1, 1, 2)))
>>> print(format(p), end="")
layer 1
1 . 2
. . .
<BLANKLINE>
layer 2
. . .
2 . 1
>>> parse(format(p)) == p == parse(format(p, fmt="adc"))
True

Formats (``FORMATS``; :func:`detect_format` picks one when ``fmt`` is None):

``layers``
    The library's own (what ``str(puzzle)`` prints). For each layer a line ``layer z`` (any
    case; z = 1, 2, ... in order), then the rows of that layer; a ``layer`` line starts the
    input or follows a blank line, and a layer's rows hold no blank line (so every line of a
    layer is a row, even one reading ``layer 2``). Rows are whitespace-separated tokens or,
    when no row of the stack holds whitespace, plain character strings (one character per
    cell): ``.`` empty, ``#`` blocked, any other token a label occurring exactly twice in the
    whole stack; ``@a`` (rows of tokens) a cell of the via named ``a``. Outside the layers,
    lines that are blank or comments (``#`` alone or followed
    by a space or tab) are skipped. Character rows of different lengths, all single tokens,
    are a board one cell wide (labels such as ``10``); a board one cell wide whose every cell
    holds a label of one length of two or more characters reads as a character grid instead.
    The same text with every path cell holding its label is an answer (:func:`parse_solution`).
``adc``
    The DA Symposium Algorithm Design Contest 2017/2018 problems: ``SIZE XxYxZ`` (X columns,
    Y rows, Z layers), optional ``LINE_NUM n``, ``LINE#k (x,y,z) (x,y,z)`` (x the column and
    y the row from 0, z the layer from 1; between the points spaces or ``-``); the label is k
    without leading zeros. A 2-D ``SIZE XxY`` is one layer (its points may omit z). ADC 2016
    problems add ``VIA#a (x,y,z) (x,y,z) ...`` lines: a via (:class:`~.model.Via`) at one place
    on consecutive layers, the only place a line may change layer. Answers: ``SIZE XxYxZ``,
    then per layer ``LAYER z`` and Y rows of X comma-separated line numbers, ``0``/``00``
    unused (:func:`parse_solution`; a via's cells hold the number of the line through it).

This module holds detection and the reading entry points. The formats are read by
:mod:`.layered` and :mod:`.adc` over the shared pieces of :mod:`.reading`; :mod:`.writers`
writes them.
"""

from __future__ import annotations

import copy
import os
from typing import Sequence

from ...errors import ParseError, require_type
from ...textio import MAX_INPUT_BYTES, collector_paused, read_bytes, with_file_name_hint
from ...timing import Deadline
from ..answers import solution_from_drawing
from ..reading import _first_content, _number
from .adc import (  # noqa: F401 (the private ones imported from here too)
    _ADC_LAYER, _LINE, _LINE_NUM, _LINE_WORD, _NUMBER_ROW, _ONE_POINT, _POINT, _SIZE, _SIZE_WORD, _VIA, _VIA_LINE,
    _adc_answer_grid, _adc_size, _add_via, _answer_cells, _content, _parse_adc, _point_cell, _refuse_adc_line, _signed,
    _user,
)
from .layered import (  # noqa: F401 (the private ones imported from here too)
    _LAYER_LINE, _TOKEN, _cells, _layer_blocks, _layered_grid, _parse_layers, _shaped, _stack_puzzle, _token_mode,
)
from .model import Cell, Puzzle, Solution
from .reading import FORMATS, _check_size, _Grid, _name, _places, _Row, _Stack, _text_lines  # noqa: F401 (as above)
from .writers import _line_numbers, format, format_solution  # noqa: F401 (as above)

__all__ = [
    "FORMATS", "parse", "read", "detect_format", "format", "format_solution",
    "parse_solution", "parse_answer_layers",
]


# ---------------------------------------------------------------------------------------------
# Detection and the public reading API
# ---------------------------------------------------------------------------------------------

def _detect(lines: Sequence[str]) -> str:
    first = _first_content(lines)
    if first is None:
        raise ParseError("empty input: no puzzle found", line=1 if lines else None)
    line = first[1]
    if _SIZE_WORD.match(line) or _LINE_WORD.match(line) or _VIA.match(line):
        return "adc"
    return "layers"


def detect_format(text: str | bytes) -> str:
    """The name (one of ``FORMATS``) of the format ``text`` is written in: ``adc`` when it opens
    with ``SIZE`` (or a ``LINE``), else ``layers``.

    >>> detect_format("SIZE 3X3X2\\nLINE_NUM 0"), detect_format("layer 1\\nA.A")
    ('adc', 'layers')
    """
    return _detect(_text_lines(text))


def layered_format(text: str | bytes) -> str | None:
    """The format of ``text`` when it is a multi-layer puzzle, else None: ``adc`` when it opens
    with an ADC ``SIZE XxYxZ`` line of more than one layer, ``layers`` when it opens with a
    ``layer`` line. A single-layer ADC problem (``SIZE 5X5`` or ``SIZE 5X5X1``) is a 2-D puzzle
    and gives None; so does text that is no puzzle at all (its reader names the fault).

    >>> layered_format("SIZE 3X3X2\\nLINE_NUM 0"), layered_format("SIZE 3X3X1"), layered_format("layer 1\\nA A")
    ('adc', None, 'layers')
    """
    head = _head(text)
    first = _first_content(_text_lines(head)) or (None if head is text else _first_content(_text_lines(text)))
    if first is None:
        return None
    match = _SIZE.match(first[1])
    if match:
        return "adc" if match.group(3) is not None and _number(match.group(3)) > 1 else None
    return "layers" if _LAYER_LINE.match(first[1]) else None


HEAD_CHARS = 65_536  # how much of a text layered_format looks at first (its opening line decides)


def _head(text: str | bytes) -> str | bytes:
    """The whole lines of ``text`` within its first HEAD_CHARS characters (all of a short text,
    or of bytes): splitting a text of a million lines takes a noticeable time."""
    if not isinstance(text, str) or len(text) <= HEAD_CHARS:
        return text
    return text[:text.rfind("\n", 0, HEAD_CHARS) + 1]


def _fail(error: ParseError, text: object, source: str | None) -> ParseError:
    error = with_file_name_hint(error, text)
    return error.with_source(source) if source else error


def parse(text: str | bytes, *, fmt: str | None = None, source: str | None = None, deadline: Deadline | None = None) -> Puzzle:
    """The multi-layer puzzle in ``text``, in ``fmt`` (one of ``FORMATS``; detected when None).
    ``source`` (a file name) is named in errors, and its file name becomes the puzzle's ``name``.
    ``deadline`` (none by default): the reading ends by it, or raises
    :class:`~puzzlesat.errors.TimeLimitReached`.

    >>> parse("layer 1\\nA.\\n..\\n\\nlayer 2\\n.#\\n.A").pair("A")
    Pair(label='A', start=(0, 0, 0), end=(1, 1, 1))
    >>> parse("SIZE 2X2X2\\nLINE#1 (0,0,1) (1,1,3)", source="Q9.txt")
    Traceback (most recent call last):
    ...
    puzzlesat.errors.ParseError: Q9.txt:2:16: LINE#1 point 2 (1,1,3) is off the 2x2x2 board: z = 3 (layers are 1..2)
    """
    try:
        if fmt is not None and fmt not in FORMATS:
            raise ParseError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
        lines = _text_lines(text)
        chosen = fmt or _detect(lines)
        with collector_paused():
            puzzle = _parse_adc(lines, deadline) if chosen == "adc" else _parse_layers(lines, deadline)
    except ParseError as error:
        raise _fail(error, text, source) from None
    name = _name(source)
    if not name:
        return puzzle
    renamed = copy.copy(puzzle)  # (a new Puzzle would check every pair again; the name takes no part in the checks)
    object.__setattr__(renamed, "name", name)
    return renamed


def read(path: str | os.PathLike, *, fmt: str | None = None, max_bytes: int = MAX_INPUT_BYTES,
         deadline: Deadline | None = None) -> list[Puzzle]:
    """The puzzle in a file, as a list of one (the shape of the 2-D family's ``read``), named
    after the file. Bytes are decoded as the 2-D reader does (UTF-8, UTF-16 with a BOM,
    cp932, else Latin-1); binary data is refused as a ParseError. At most ``max_bytes`` are
    read (:data:`puzzlesat.textio.MAX_INPUT_BYTES`); devices and sockets are refused; ``deadline``
    as :func:`parse`.

    >>> import os, tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = os.path.join(folder.name, "Q0.txt")
    >>> with open(path, "w") as handle:
    ...     _ = handle.write("SIZE 2X1X2\\r\\nLINE_NUM 1\\r\\nLINE#1 (0,0,1) (1,0,2)\\r\\n")
    >>> [(p.name, p.size, p.labels) for p in read(path)]
    [('Q0.txt', (2, 1, 2), ('1',))]
    >>> folder.cleanup()
    """
    name = os.fspath(path)
    data = read_bytes(name, max_bytes=max_bytes)
    return [parse(data, fmt=fmt, source=str(name), deadline=deadline)]


def _answer_grid(text: str | bytes, fmt: str | None, one_wide: bool | None) -> tuple[_Grid, str]:
    if fmt is not None and fmt not in FORMATS:
        raise ParseError(f"unknown answer format {fmt!r}; expected one of {', '.join(FORMATS)}")
    lines = _text_lines(text)
    first = _first_content(lines)
    if first is None:
        raise ParseError("empty input: no answer found", line=1 if lines else None)
    chosen = fmt or ("adc" if _SIZE_WORD.match(first[1]) else "layers")
    if chosen == "adc":
        return _adc_answer_grid(lines), chosen
    return _layered_grid(lines, one_wide=one_wide), chosen


def parse_answer_layers(
    text: str | bytes, *, fmt: str | None = None, source: str | None = None
) -> tuple[int, int, int, list[list[list[str]]]]:
    """``(width, height, layers, grid)`` of an answer read without its puzzle: ``grid`` holds
    layers of rows of tokens, ``.`` for unused cells (ADC line numbers without leading zeros;
    a layered answer's tokens as written). ``fmt``: None (detect), ``adc`` or ``layers``.

    >>> parse_answer_layers("SIZE 2X1X2\\nLAYER 1\\n01,00\\nLAYER 2\\n01,01")
    (2, 1, 2, [[['1', '.']], [['1', '1']]])
    """
    try:
        grid, _ = _answer_grid(text, fmt, None)
    except ParseError as error:
        raise _fail(error, text, source) from None
    tokens = [[[token for token, _ in cells] for _, cells in layer] for layer in grid]
    return len(tokens[0][0]), len(tokens[0]), len(tokens), tokens


def parse_solution(
    text: str | bytes, puzzle: Puzzle, *, fmt: str | None = None, source: str | None = None
) -> Solution:
    """An answer to ``puzzle``: an ADC answer (``SIZE XxYxZ``, ``LAYER z`` blocks of
    comma-separated line numbers, ``00`` unused) or a layered answer (the layered text with
    every path cell holding its label, ``.`` or ``#`` for cells on no path). Each label's cells
    must trace one simple path between its endpoints. ``fmt``: None (detect), ``adc`` or
    ``layers``.

    >>> p = parse("SIZE 3X3X2\\nLINE_NUM 1\\nLINE#1 (0,0,1) (2,2,2)")
    >>> parse_solution("SIZE 3X3X2\\nLAYER 1\\n1,1,1\\n0,0,1\\n0,0,0\\nLAYER 2\\n0,0,0\\n0,0,1\\n0,0,1", p).path("1")
    ((0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 1, 2), (1, 1, 2), (1, 2, 2))
    >>> parse_solution("layer 1\\n1 1 .\\n. . .\\n. . .\\n\\nlayer 2\\n. . .\\n. . .\\n. . 1", p)
    Traceback (most recent call last):
    ...
    puzzlesat.errors.ParseError: 2:1: not an answer to this puzzle: label '1' is not one simple path from (0, 0, 0) to (1, 2, 2)
    """
    require_type(puzzle, Puzzle, "puzzle", "a multi-layer puzzle (puzzlesat.numberlink.multilayer.Puzzle)")
    try:
        grid, chosen = _answer_grid(text, fmt, puzzle.width == 1)
        return _solution(grid, puzzle, chosen)
    except ParseError as error:
        raise _fail(error, text, source) from None


def _solution(grid: _Grid, puzzle: Puzzle, fmt: str) -> Solution:
    size = (len(grid[0][0][1]), len(grid[0]), len(grid))
    if size != puzzle.size:
        raise ParseError(
            f"answer is {size[0]}x{size[1]}x{size[2]} but the puzzle is {puzzle.size_text}", line=grid[0][0][0]
        )
    drawing = {(z, r, c): (token, number, column) for z, layer in enumerate(grid)
               for r, (number, cells) in enumerate(layer) for c, (token, column) in enumerate(cells)}
    tokens = [[[token for token, _ in cells] for _, cells in layer] for layer in grid]
    return solution_from_drawing(drawing, puzzle, fmt, lambda cell: _where(cell, fmt), lambda: Solution.from_layers(puzzle, tokens))


def _where(cell: Cell, fmt: str) -> str:
    z, r, c = cell
    return f"(x,y,z) = ({c},{r},{z + 1})" if fmt == "adc" else f"(layer, row, column) = {cell}"
