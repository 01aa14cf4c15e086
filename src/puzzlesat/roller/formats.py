"""Reading and writing Roller levels: the native text format and the formats of public level sets.
This module tells the formats apart and holds the entry points; the native text is read by
:mod:`.native`, the other text grids by :mod:`.textgrids`, the Tiled maps, starhermit JSON
and herbou arrays by :mod:`.tmx`, :mod:`.starhermit` and :mod:`.herbou`, every format
is written by :mod:`.writers`, and TabTale answer tables are read by :mod:`.answers`.

Native grammar (``.roller`` files; :func:`format` writes it)::

    file    := block (blank-line+ block)*
    block   := comment* row+                 rows of one level, no blank line between them
    comment := "# " text                     anywhere in a block; before the first row, a line
             | text                          that does not start with '#', '.' or 'o' is a title
    row     := ("#" | "." | "o")+            '#' wall, '.' floor, 'o' the start (exactly one)

Rows may differ in length only when every shorter row ends with a wall ``#`` (it is padded with
walls); a shorter row ending in floor is refused as ragged. Comments of the form ``# name: X``,
``# par: N`` and ``# answer: MOVES`` set the level's metadata (``format`` writes them back).

Other formats (``fmt=`` names them; :func:`detect_format` guesses from the text):

- ``tmx``: TabTale "Amaze!" Tiled maps (``<map>`` XML, ``<data encoding="csv">``, or base64,
  zlib/gzip, or ``<tile gid>``). ``0`` wall, any other gid floor after masking Tiled's flip
  flags; the board edge is a wall. The start is not stored: ``start="bottom-left"`` (the
  default: leftmost column, bottom-most floor cell) or ``start="row-major"`` (first floor cell in
  reading order). :func:`read_answers` reads the answer files (``file,seconds,1,2,3...``).
- ``starhermit``: ``{"levels": [{"id", "rows", "start": [x, y], "par", "solution"}]}``.
- ``joseleite19``: a text grid, ``#`` wall, ``.`` floor, ``x`` start.
- ``nohtaray``: a text grid with ``o`` start; everything after the first blank line is
  commentary and ignored.
- ``herbou``: ``const levels = [[[1,0,...], ...], ...]`` JavaScript arrays, ``0`` road (floor),
  ``1`` wall; start = first road cell in reading order.
- ``mazepaint``: rows of space-separated ``0`` floor / ``1`` wall; start fixed at (1, 1).
- ``rollersplat``: rows over ``W`` wall / ``G`` ground; no start is stored: the first floor
  cell in reading order is taken.

``start=`` ("bottom-left" or "row-major") picks the start for every format that does not store
one (tmx, herbou, rollersplat, mazepaint); formats that store a start ignore it.

>>> level = parse("# name: tiny\\n#####\\n#o..#\\n#.#.#\\n#...#\\n#####\\n")
>>> level.name, level.start, level.floor_count
('tiny', (1, 1), 8)
>>> parse(format(level)) == level
True
>>> parse("#####\\n#o.o#\\n#####")
Traceback (most recent call last):
...
puzzlesat.errors.ParseError: 2:4: two starts: 'o' at line 2 column 2 and here
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

from ..errors import NotAPuzzle, ParseError, require_type
from ..textio import as_text, split_lines, with_file_name_hint
from ..textio import MAX_INPUT_BYTES
from . import writers
from .answers import ANSWER_DIGITS, is_answer_line, parse_answers, read_answers, with_answers  # noqa: F401 (read through formats too)
from .herbou import parse_herbou
from .model import Level
from .native import NATIVE_SYMBOLS, _blocks, _is_comment, parse_native
from .reading import DEFAULT_START, check_size, check_start_rule, default_name, implied_start, make_level, read_text  # noqa: F401
from .starhermit import parse_starhermit
from .textgrids import parse_joseleite19, parse_mazepaint, parse_nohtaray, parse_rollersplat
from .tmx import TILED_GID_MASK, parse_tmx  # noqa: F401


FORMATS = ("native", "tmx", "starhermit", "joseleite19", "nohtaray", "herbou", "mazepaint", "rollersplat")
FORMAT_ALIASES = {"roller": "native", "text": "native", "tiled": "tmx", "xml": "tmx", "tabtale": "tmx",
                  "json": "starhermit", "js": "herbou", "amaze": "nohtaray"}


def format(level: Level, *, fmt: str = "native", start: str | None = None) -> str:
    """The level as text in any format this module reads (:mod:`.writers` writes each): every
    format where it can hold the level, else :class:`~puzzlesat.errors.CannotExpress` naming
    what would be lost (a start the format does not store and its convention does not give, a
    par or shipped answer outside ``native`` and ``starhermit``). ``start`` ("bottom-left" or
    "row-major"): the start convention of a format that stores none, as :func:`parse` takes it.

    >>> level = parse("#####\\n#o..#\\n#####")
    >>> parse(format(level, fmt="tmx", start="row-major"), start="row-major") == level
    True
    >>> print(format(level, fmt="joseleite19"), end="")
    #####
    #x..#
    #####
    """
    require_type(level, Level, "level", "parse text with roller.parse")
    check_start_rule(start)
    return writers.write(level, normalise_format(fmt), start)


def format_all(levels: list[Level], *, fmt: str = "native", start: str | None = None) -> str:
    """Several levels in one text: blocks separated by blank lines (native, joseleite19,
    rollersplat), or one document (a starhermit ``levels.json``, a herbou array); a format
    whose file holds one level (tmx, nohtaray, mazepaint) refuses several (CannotExpress).

    >>> levels = [parse("o..", source="a"), parse("#.\\no.", source="b")]
    >>> print(format_all(levels), end="")
    # name: a
    o..
    <BLANKLINE>
    # name: b
    #.
    o.
    >>> parse_all(format_all(levels)) == levels
    True
    """
    levels = list(levels)
    for level in levels:
        require_type(level, Level, "level", "parse text with roller.parse")
    check_start_rule(start)
    return writers.write_all(levels, normalise_format(fmt), start)


# -- detection and the public entry points ------------------------------------------------------
PARSERS: dict[str, Callable[..., list[Level]]] = {
    "native": parse_native,
    "tmx": parse_tmx,
    "starhermit": parse_starhermit,
    "joseleite19": parse_joseleite19,
    "nohtaray": parse_nohtaray,
    "herbou": parse_herbou,
    "mazepaint": parse_mazepaint,
    "rollersplat": parse_rollersplat,
}
TAKES_START = {"tmx", "herbou", "mazepaint", "rollersplat"}
TAKES_EACH = {"native", "starhermit", "joseleite19", "herbou", "rollersplat"}  # files of several levels

_MAZEPAINT_ROW = re.compile(r"^\s*\d+(?:[ \t]+\d+)+\s*$")
_ROLLERSPLAT_ROW = re.compile(r"^\s*[WG]+\s*$")
_GRID_ROW = re.compile(r"^\s*[#.ox]+\s*$")


def detect_format(text: str) -> str:
    """The format a text is written in, by its look: ``<`` first: tmx; ``{`` first (or ``[``
    with ``"rows"``): starhermit; ``levels = [`` or ``[`` first: herbou; a first block of
    space-separated integers: mazepaint; of ``W``/``G``: rollersplat; a grid with ``x`` and no
    ``o``: joseleite19; a grid followed, after a blank line, by lines holding non-ASCII text or
    ``=`` (commentary): nohtaray; anything else: native. ``fmt=`` overrides the guess.

    >>> detect_format("#####\\n#o..#\\n#####"), detect_format("1 1 1\\n1 0 1\\n1 1 1")
    ('native', 'mazepaint')
    """
    head = text.lstrip("\ufeff \t\r\n")
    if head.startswith("<"):
        return "tmx"
    if head.startswith("{"):
        return "starhermit"
    if head.startswith("[") or re.search(r"\blevels\s*=\s*\[", text[:100_000]):
        if '"rows"' in text[:100_000]:
            return "starhermit"
        return "herbou"
    blocks = _blocks(split_lines(text))
    if not blocks:
        return "native"
    first = [line for _, line in blocks[0] if not _is_comment(line)]
    if first and all(_MAZEPAINT_ROW.match(line) for line in first):
        return "mazepaint"
    if first and all(_ROLLERSPLAT_ROW.match(line) for line in first):
        return "rollersplat"
    symbols = set("".join(line for line in first if _GRID_ROW.match(line)))
    if "x" in symbols and "o" not in symbols:
        return "joseleite19"
    for block in blocks[1:]:
        lines = [line for _, line in block if not _is_comment(line)]
        if not _is_titled_grid(lines) and any(not line.isascii() or "=" in line for line in lines):
            return "nohtaray"  # commentary after the first blank line
    return "native"


def _is_titled_grid(lines: list[str]) -> bool:
    """Whether the lines of a block are a native level: title lines (not starting with a grid
    symbol), then grid rows only. A later level titled 'Stage 2 = hard' or 'Niveau 2 – été' is
    one, not nohtaray's commentary (which made every level after the first silently dropped)."""
    rows = list(lines)
    while rows and rows[0].strip()[0] not in NATIVE_SYMBOLS:
        rows.pop(0)
    return bool(rows) and all(_GRID_ROW.match(row) for row in rows)


def normalise_format(fmt: str | None) -> str | None:
    if fmt is None:
        return None
    name = fmt.strip().lower()
    name = FORMAT_ALIASES.get(name, name)
    if name not in PARSERS:
        raise ValueError(f"unknown roller format {fmt!r} (known: {', '.join(FORMATS)})")
    return name


def parse_all(text: str, *, fmt: str | None = None, start: str | None = None, source: str | None = None) -> list[Level]:
    """Every level in ``text`` (format detected unless ``fmt`` names it).

    ``start`` ("bottom-left" / "row-major") picks the start for formats that do not store one.
    Raises :class:`ParseError` naming the line (and column) of the first problem.

    >>> [(level.size, level.start) for level in parse_all("o..\\n\\n#.\\no.")]
    [((3, 1), (0, 0)), ((2, 2), (1, 0))]
    >>> text = "0 0\\n0 1"  # mazepaint: 0 floor, 1 wall, no start stored
    >>> parse_all(text, start="row-major")[0].start, parse_all(text, start="bottom-left")[0].start
    ((0, 0), (1, 0))
    """
    return _run_parser(text, fmt=fmt, start=start, source=source, each=False)


def parse_each(text: str, *, fmt: str | None = None, start: str | None = None, source: str | None = None) -> list[Level | ParseError]:
    """Like :func:`parse_all`, but in a file of several levels (native, starhermit, herbou,
    joseleite19, RollerSplat) a level that cannot be read is its :class:`ParseError` in the
    list, and the others are still read. Errors in the file as a whole (JSON that does not
    parse, no level at all, one level that cannot be read) still raise.

    >>> [type(item).__name__ for item in parse_each("#####\\n#o..#\\n#####\\n\\n###\\n#.#\\n###")]
    ['Level', 'ParseError']
    """
    items = _run_parser(text, fmt=fmt, start=start, source=source, each=True)
    if len(items) == 1 and isinstance(items[0], ParseError):
        raise items[0]
    return items


def _run_parser(text: str, *, fmt: str | None, start: str | None, source: str | None, each: bool) -> list:
    text = as_text(text)
    try:
        name = normalise_format(fmt) or detect_format(text)
        check_start_rule(start)
    except ValueError as exc:
        raise ParseError(str(exc), source=source) from None
    lines = [line for line in filter(None, split_lines(text)) if not line.isspace()] if fmt is None and name == "native" else []
    if lines and all(is_answer_line(line) for line in lines):  # (the command line says the same)
        raise NotAPuzzle(f"a TabTale answer file ({len(lines)} answer{'s' if len(lines) != 1 else ''}), not a level: "
                         "read it with read_answers", line=1, source=source)
    parser = PARSERS[name]
    options: dict = {"source": source}
    if name in TAKES_START:
        options["start"] = start
    if name in TAKES_EACH:
        options["each"] = each
    try:
        levels = parser(text, **options)
    except ParseError as exc:
        exc = with_file_name_hint(exc, text)
        raise exc.with_source(source) if source and not exc.source else exc
    except RecursionError:
        raise ParseError("input nested too deeply", source=source) from None
    if not levels:
        raise ParseError("no level found", source=source)
    return [with_file_name_hint(item, text).with_source(source) if isinstance(item, ParseError) and source and not item.source
            else item for item in levels]


def parse(text: str, *, fmt: str | None = None, start: str | None = None, source: str | None = None) -> Level:
    """The one level in ``text``; a ParseError when it holds none or several.

    >>> level = parse("#####\\n#o..#\\n#####")
    >>> level.size, level.start, level.floor_count
    ((5, 3), (1, 1), 3)
    """
    levels = parse_all(text, fmt=fmt, start=start, source=source)
    if len(levels) != 1:
        raise ParseError(f"expected one level, found {len(levels)} (use parse_all)", source=source)
    return levels[0]


def read(path: str | Path, *, fmt: str | None = None, start: str | None = None,
         max_bytes: int = MAX_INPUT_BYTES) -> list[Level]:
    """Every level in a file (format from ``fmt``, else the content, else the file ending) of
    at most ``max_bytes`` (:data:`puzzlesat.textio.MAX_INPUT_BYTES`; devices are refused).

    A file of one level names it after the file.

    >>> import os, tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = os.path.join(folder.name, "tiny.roller")
    >>> with open(path, "w") as handle:
    ...     _ = handle.write("#####\\n#o..#\\n#####\\n")
    >>> [(level.name, level.floor_count) for level in read(path)]
    [('tiny.roller', 3)]
    >>> folder.cleanup()
    """
    text = read_text(path, max_bytes=max_bytes)
    if fmt is None and str(path).lower().endswith(".roller"):
        fmt = "native"
    return parse_all(text, fmt=fmt, start=start, source=str(path))
