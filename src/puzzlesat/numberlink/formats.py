"""Read and write Numberlink puzzles in the formats of the public puzzle sets.

Rules of the game live in :mod:`puzzlesat.numberlink.model`; this module only turns text into
:class:`Puzzle` / :class:`Solution` objects and back. Every refusal is a :class:`ParseError` naming
the line (and column where it applies); every puzzle goes through the ``Puzzle`` constructor, so
nothing accepted here can break the solver later.

>>> puzzle = parse("3 2\\nA.B\\nA.B")
>>> puzzle.width, puzzle.height, puzzle.labels
(3, 2, ('A', 'B'))
>>> print(format(puzzle))
A . B
A . B
>>> format(parse("https://puzz.link/p?numlin/5/5/1j2h3m1h2j3"), fmt="puzzlink")
'https://puzz.link/p?numlin/5/5/1j2h3m1h2j3'
>>> parse("2 3 2\\n(0, 0) (2, 0)\\n(0, 1) (2, 1)").pairs[0]
Pair(label='1', start=(0, 0), end=(0, 2))

Formats (``FORMATS``; :func:`detect_format` picks one when ``fmt`` is None):

``native``
    Rows of whitespace-separated tokens, or a plain character grid (one character per cell) when
    no row holds whitespace: ``.`` empty, ``#`` blocked, anything else a label that occurs exactly
    twice. An optional ``W H`` line before the rows states the size (then exactly H rows follow).
    Blank lines separate puzzles. A line starting with ``#`` followed by a space (or a lone ``#``)
    is a comment when it stands *outside* a grid: before the first row or header, or after the
    last row (there only when it has not as many tokens as the rows). Inside a grid every line
    is a row, so after a ``W H`` header a row may start with a blocked cell; a headerless token
    grid whose first row starts with ``#`` needs the header (:func:`format` writes one then). A line of two integers starting in the first column, before
    a grid, is a header (``0 0`` ends the input); a first row of two numbers is written indented.
``thomasahle``
    The same grammar with the ``W H`` header required before every grid (his files: ``#``
    comments, blank lines between puzzles, ``0 0`` at the end). Every character is a cell.
``mzucker``
    A square character grid: letters are colours, any other character an empty cell.
``dailyprogrammer``
    Challenge #280: ``ncolours width height``, then per colour ``(x, y) (x, y)`` with x the
    column and y the row, from 0. Colours are labelled ``1`` .. ``n`` in file order.
``adc``
    DA Symposium Algorithm Design Contest problems: ``SIZE 12X11``, ``LINE_NUM n``,
    ``LINE#k (x,y)-(x,y)``; also the 2016 form ``SIZE 12X11X1`` with ``(x,y,z)`` points when there is
    a single layer. Several layers are refused here (:mod:`.multilayer` reads them). Lines are
    labelled by k, from 1 (``0`` marks unused cells in answers).
    ADC answers (``SIZE`` then rows of comma-separated line numbers, ``00`` unused, optional
    ``LAYER 1``) are read by :func:`parse_solution`.
``puzzlink``
    A puzz.link / pzv.jp URL ``p?numlin/COLS/ROWS/BODY`` or ``p?arukone/[e/]COLS/ROWS/BODY``;
    numbers become labels (``"1"``, ``"2"``, ...); one URL per line. Nikoli's numlin lets cells
    stay empty and the arukone pflag ``e`` says the same: :func:`url_rules` gives the rules a URL
    asks for (the Puzzle itself holds no rules). A ``?`` clue (``.``) is refused.
``tokens``
    imos / Copris / algorithms2012 token grids: ``W H`` (or ``rows, cols`` with a comma, or
    Copris' rows and columns on two lines), then rows of integers, ``0`` or ``-`` blank; several
    datasets may follow; ``0 0`` ends.

Writing: :func:`format` gives native text, a puzz.link URL or any of the other formats;
:func:`format_solution` gives the native answer grid (every path cell holds its label).

This module holds the entry points. The formats are read by :mod:`.grids` (native,
thomasahle, mzucker, tokens), :mod:`.dailyprogrammer`, :mod:`.adc` and :mod:`.puzzlink` (which
also writes URLs), over the shared pieces of :mod:`.reading`; :mod:`.detect` tells the format,
:mod:`.writers` writes the other formats, and :mod:`.answers` reads and writes answers.
"""

from __future__ import annotations

import copy
import os
import re
from typing import Callable, Sequence

from ..errors import ParseError, TimeLimitReached, require_type
from ..textio import MAX_INPUT_BYTES, as_text, collector_paused, read_bytes, with_file_name_hint
from ..timing import Deadline
from .adc import _parse_adc
from .answers import format_solution, parse_solution, solution_from_drawing  # noqa: F401 (imported from here too)
from .dailyprogrammer import _dailyprogrammer_blocks, _dailyprogrammer_puzzle, _parse_dailyprogrammer
from .detect import _as_json_problem, _detect, _refuse_solver_output, detect_format  # noqa: F401 (some imported from here too)
from .grids import _grid_puzzle_or_hint, _parse_grids, _split_blocks
from .model import ONE_LAYER_HINT, Puzzle, Rules
from .puzzlink import _URL, _format_puzzlink, _parse_puzzlink, _puzzlink_puzzle, _url_lines, url_rules  # noqa: F401 (some imported from here too)
from .reading import _afresh, _canonical, _first_content, _is_comment, _lines, _number  # noqa: F401 (some imported from here too)
from .writers import _WRITERS, _grid_text

FORMATS = ("native", "thomasahle", "mzucker", "dailyprogrammer", "adc", "puzzlink", "tokens")


# ---------------------------------------------------------------------------------------------
# The public reading API
# ---------------------------------------------------------------------------------------------


_PARSERS: dict[str, Callable[[Sequence[str], Deadline | None], list[Puzzle]]] = {
    "native": lambda lines, deadline: _parse_grids(lines, "native", deadline),
    "thomasahle": lambda lines, deadline: _parse_grids(lines, "thomasahle", deadline),
    "mzucker": lambda lines, deadline: _parse_grids(lines, "mzucker", deadline),
    "tokens": lambda lines, deadline: _parse_grids(lines, "tokens", deadline),
    "dailyprogrammer": _parse_dailyprogrammer,
    "adc": _parse_adc,
    "puzzlink": _parse_puzzlink,
}


def _source_name(source: str | None) -> str:
    if not source:
        return ""
    if _URL.match(source) or "?" in source:
        return source
    return os.path.basename(source.rstrip("/\\")) or source


def parse_all(text: str | bytes, *, fmt: str | None = None, source: str | None = None,
              deadline: Deadline | None = None) -> list[Puzzle]:
    """Every puzzle in ``text`` (several for multi-puzzle files such as thomasahle's).

    ``fmt`` is one of ``FORMATS`` (auto-detected when None); ``source`` (a file name or URL) is
    named in errors and in each puzzle's ``name`` (``"janko#12"``: 0-based position in the file).
    ``deadline`` (none by default): the reading of each puzzle ends by it, or raises
    :class:`~puzzlesat.errors.TimeLimitReached` (the first puzzle, with the work on the whole
    text before it, by ``deadline`` itself; each later one by the same limit counted afresh).

    >>> [p.size for p in parse_all("2 1\\nAA\\n\\n1 2\\nB\\nB\\n0 0")]
    [(2, 1), (1, 2)]
    >>> many = "SIZE 2X1100\\n" + "\\n".join(f"LINE#{k + 1} (0,{k})-(1,{k})" for k in range(1100))
    >>> parse_all(many, deadline=Deadline(0.0))
    Traceback (most recent call last):
    ...
    puzzlesat.errors.TimeLimitReached: 1026: the time limit ran out while the puzzle was read
    >>> parse_all("SIZE 3X1\\nLINE#1 (0,0)-(2,0)", deadline=Deadline(0.0))[0].labels  # (too small to look at the clock)
    ('1',)
    """
    with collector_paused():
        return _parse_all(text, fmt=fmt, source=source, deadline=deadline)


def _parse_all(text: str | bytes, *, fmt: str | None, source: str | None, deadline: Deadline | None,
               lines: list[str] | None = None) -> list[Puzzle]:
    """:func:`parse_all`; ``lines``: the text's lines when the caller has split them already."""
    try:
        if fmt is not None and fmt not in FORMATS:
            raise ParseError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
        if lines is None:
            lines = _lines(as_text(text))
        if fmt is None:
            _refuse_solver_output(lines)
        chosen = fmt or _detect(lines)
        puzzles = _PARSERS[chosen](lines, deadline)
        if not puzzles:
            raise ParseError(f"no puzzle found ({chosen} format)", line=1 if lines else None)
    except ParseError as error:
        if not isinstance(error, TimeLimitReached):
            error = with_file_name_hint(_as_json_problem(text) or error, text)
        raise error.with_source(source) if source else error from None
    base = _source_name(source)
    if len(puzzles) == 1:
        names = [base]
    else:
        names = [f"{base}#{k}" for k in range(len(puzzles))]
    return [_renamed(p, name) for p, name in zip(puzzles, names)]


def parse_each(text: str | bytes, *, fmt: str | None = None, source: str | None = None,
               deadline: Deadline | None = None) -> list[Puzzle | ParseError]:
    """Like :func:`parse_all`, but in a file of several grids (native, thomasahle, tokens),
    dailyprogrammer puzzles or URLs (puzzlink) a puzzle that cannot be read is its
    :class:`ParseError` in the list, and the others are still read: one ragged row, or a size
    line that disagrees with its rows (a truncated download), does not hide the rest of a
    270-puzzle file. A file of one puzzle that cannot be read still raises. ``deadline``: as
    :func:`parse_all` (a puzzle of several not read in time is its TimeLimitReached).

    >>> [type(item).__name__ for item in parse_each("3 1\\nA.A\\n\\n3 1\\nA.B\\n\\n3 1\\nB.B")]
    ['Puzzle', 'ParseError', 'Puzzle']
    """
    with collector_paused():
        return _parse_each(text, fmt=fmt, source=source, deadline=deadline)


def _parse_each(text: str | bytes, *, fmt: str | None, source: str | None, deadline: Deadline | None) -> list[Puzzle | ParseError]:
    try:
        lines = _lines(as_text(text))  # (split once: the puzzles are read again one by one when one fails)
    except ParseError:
        lines = None  # (binary data: parse_all says so, with its hints)
    try:
        return list(_parse_all(text, fmt=fmt, source=source, deadline=deadline, lines=lines))
    except ParseError:
        cut = None if lines is None else _pieces(lines, fmt)
        if cut is None or len(cut[1]) < 2:
            raise  # (re-raised bare: an exception kept in a local here would hold this frame, a cycle)
    chosen, pieces = cut
    base = _source_name(source)
    out: list[Puzzle | ParseError] = []
    for k, piece in enumerate(pieces):
        try:
            if isinstance(piece, ParseError):  # its layout could not be read
                raise piece
            clock = _afresh(deadline, k)
            if chosen == "puzzlink":
                puzzle = _puzzlink_puzzle(piece[1], piece[0], clock)
            elif chosen == "dailyprogrammer":
                puzzle = _dailyprogrammer_puzzle(lines, *piece, clock)
            else:
                puzzle = _grid_puzzle_or_hint(piece, chosen, clock)
            out.append(_renamed(puzzle, f"{base}#{k}"))
        except ParseError as error:
            out.append(error.with_source(source) if source else error.with_traceback(None))
    return out


def _pieces(lines: Sequence[str], fmt: str | None) -> tuple[str, list] | None:
    """(format, pieces) of a text whose puzzles can be read one by one (grids, dailyprogrammer
    puzzles, URLs), else None."""
    try:
        chosen = fmt or _detect(lines)
        if chosen == "puzzlink":  # one URL per line
            return chosen, _url_lines(lines)
        if chosen in ("native", "thomasahle", "tokens"):
            return chosen, _split_blocks(lines, header_required=chosen in ("thomasahle", "tokens"), comma_header=chosen == "tokens", each=True)
        if chosen == "dailyprogrammer":
            return chosen, _dailyprogrammer_blocks(lines)
    except ParseError:
        pass
    return None


def _renamed(puzzle: Puzzle, name: str) -> Puzzle:
    """``puzzle`` named ``name``: a copy with the name changed (a new Puzzle would check every
    pair again, seconds on a million of them; the name takes no part in the checks)."""
    if puzzle.name == name or not name:
        return puzzle
    renamed = copy.copy(puzzle)
    object.__setattr__(renamed, "name", name)
    return renamed


def parse(text: str | bytes, *, fmt: str | None = None, source: str | None = None, deadline: Deadline | None = None) -> Puzzle:
    """The one puzzle in ``text``; a ParseError when there are none or several.

    >>> parse("A.B\\n#..\\nA.B").blocked
    frozenset({(1, 0)})
    """
    puzzles = parse_all(text, fmt=fmt, source=source, deadline=deadline)
    if len(puzzles) != 1:
        raise ParseError(f"expected one puzzle, found {len(puzzles)} (use parse_all)", source=source)
    return puzzles[0]


def read(path_or_url: str | os.PathLike, *, fmt: str | None = None, max_bytes: int = MAX_INPUT_BYTES,
         deadline: Deadline | None = None) -> list[Puzzle]:
    """Every puzzle in a file, or the puzzle a puzz.link URL describes (no network: the URL is
    the data). A file of one puzzle names it after the file. At most ``max_bytes`` are read
    (:data:`puzzlesat.textio.MAX_INPUT_BYTES`); devices and sockets are refused; ``deadline``
    as :func:`parse_all`.

    >>> import os, tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = os.path.join(folder.name, "tiny.txt")
    >>> with open(path, "w") as handle:
    ...     _ = handle.write("3 2\\nA.A\\nB.B\\n")
    >>> [(p.name, p.size, p.labels) for p in read(path)]
    [('tiny.txt', (3, 2), ('A', 'B'))]
    >>> folder.cleanup()
    >>> [p.size for p in read("https://puzz.link/p?numlin/5/5/1j2h3m1h2j3")]
    [(5, 5)]
    """
    name = os.fspath(path_or_url)
    if isinstance(name, str) and (_URL.match(name) or re.match(r"^\s*\S*\?(numlin|arukone)/", name)):
        return parse_all(name, fmt=fmt or "puzzlink", source=name, deadline=deadline)
    data = read_bytes(name, max_bytes=max_bytes)
    return parse_all(data, fmt=fmt, source=str(name), deadline=deadline)


# ---------------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------------


MULTI_PUZZLE_FORMATS = ("native", "thomasahle", "puzzlink")


def format_all(puzzles: Sequence[Puzzle], *, fmt: str = "native") -> str:
    """Several puzzles as one text that :func:`parse_all` reads back, with the format named or
    detected: native or thomasahle grids separated by blank lines, or one puzz.link URL per line
    (the other formats hold one puzzle). Native packs whose labels are all one character are
    written as character grids each under its ``W H`` line (native text too, and detected as one
    format whatever the boards; token rows after a one-column first board would be read as
    thomasahle's). A native pack with longer labels is token rows, which detection reads back
    unless its first board is one cell wide (such a board also reads as a thomasahle or token
    grid: then name the format, ``parse_all(text, fmt="native")``).

    >>> print(format_all([Puzzle.from_rows(["AA"]), Puzzle.from_rows(["B.B"])]))
    2 1
    AA
    <BLANKLINE>
    3 1
    B.B
    """
    if fmt not in MULTI_PUZZLE_FORMATS:
        raise ValueError(f"format {fmt!r} holds one puzzle per file; several are written as {', '.join(MULTI_PUZZLE_FORMATS)}")
    for puzzle in puzzles:  # (before their labels are read)
        require_type(puzzle, Puzzle, "puzzle", ONE_LAYER_HINT)
    if fmt == "native" and all(len(label) == 1 for puzzle in puzzles for label in puzzle.labels):
        fmt = "thomasahle"
    texts = [format(puzzle, fmt=fmt).rstrip("\n") for puzzle in puzzles]
    return "\n".join(texts) if fmt == "puzzlink" else "\n\n".join(texts)


def format(puzzle: Puzzle, *, fmt: str = "native", rules: Rules | None = None) -> str:  # noqa: A001 - the verb of every family
    """The puzzle as text in any of ``FORMATS``: ``native`` token rows, a ``puzzlink`` URL, or
    the other public formats (to hand puzzles to the tools that read them).

    Native text always reads back as an equal puzzle with ``fmt="native"``, and with the format
    detected too except on a board one cell wide whose labels are all numbers, among them ``0``
    or numbers of several digits: such text is also a token grid (``0`` blank), and detection
    reads it so. A puzz.link URL holds numbers 0..4095 and
    no blocked cells: labels that are all such numbers are kept; otherwise (letters, say) the
    labels are renumbered 1..K in reading order of their first endpoint, since only the pairs
    matter to the puzzle. The URL keeps the rules (``rules``, default the ones the puzzle's
    source stated, else cover-all): ``arukone`` for cover-all, ``numlin`` (Nikoli's) for
    may-leave-empty. The same renumbering applies to ``adc`` and ``tokens`` (positive
    numbers); ``dailyprogrammer`` numbers colours in reading order; ``thomasahle`` needs
    one-character labels, ``mzucker`` one-letter labels on a square board; only ``native`` and
    ``thomasahle`` hold blocked cells. What a format cannot hold (blocked cells, more than
    4095 labels in a URL, no-self-touch rules in a URL...) raises
    :class:`~puzzlesat.errors.CannotExpress` naming it.

    >>> print(format(Puzzle.from_rows(["A.#", "A.."])))
    A . #
    A . .
    >>> format(Puzzle.from_rows(["B.A", "A.B"]), fmt="puzzlink")
    'https://puzz.link/p?arukone/3/2/1g22g1'
    >>> format(Puzzle.from_rows(["B.A", "A.B"]), fmt="puzzlink", rules=Rules(cover_all=False))
    'https://puzz.link/p?numlin/3/2/1g22g1'
    """
    require_type(puzzle, Puzzle, "puzzle", ONE_LAYER_HINT)
    if fmt == "native":
        return _grid_text(puzzle.grid().tolist(), puzzle.width, puzzle.height)
    if fmt == "puzzlink":
        return _format_puzzlink(puzzle, rules)
    if fmt in _WRITERS:
        return _WRITERS[fmt](puzzle)
    raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")

