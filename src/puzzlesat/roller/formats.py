"""Reading and writing Roller levels: the native text format and the formats of public level sets.

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

import base64
import gzip
import itertools
import json
import re
import zlib
from pathlib import Path
from typing import Any, Callable
from xml.etree import ElementTree

from ..errors import InvalidPuzzle, NotAPuzzle, ParseError, quoted, require_type, shown
from ..textio import as_text, split_lines, with_file_name_hint
from . import writers
from .model import BALL, FLOOR, MAX_CELLS, MOVES, START_RULES, WALL, Level, start_cell

FORMATS = ("native", "tmx", "starhermit", "joseleite19", "nohtaray", "herbou", "mazepaint", "rollersplat")
FORMAT_ALIASES = {"roller": "native", "text": "native", "tiled": "tmx", "xml": "tmx", "tabtale": "tmx",
                  "json": "starhermit", "js": "herbou", "amaze": "nohtaray"}
DEFAULT_START = {"tmx": "bottom-left", "herbou": "row-major", "rollersplat": "row-major"}

TILED_GID_MASK = 0x1FFFFFFF  # Tiled keeps flip flags in the top three bits of a gid
ANSWER_DIGITS = {"1": "R", "2": "L", "3": "U", "4": "D"}  # TabTale answer files
ANSWER_NAME_RE = re.compile(r"\S\.(?:xml|tmx)$", re.IGNORECASE)  # an answer line's first field: a level file


# -- shared helpers -----------------------------------------------------------------------------
def _check_start_rule(start: str | None) -> None:
    if start is not None and start not in START_RULES:
        raise ValueError(f"start must be one of {', '.join(START_RULES)}, not {start!r}")


def _check_size(width: int, height: int, line: int | None = None) -> None:
    if width * height > MAX_CELLS:
        raise ParseError(f"board size {width}x{height} is absurd (more than {MAX_CELLS} cells)", line=line)
    if width < 0 or height < 0:
        raise ParseError(f"board size {width}x{height} is negative", line=line)
    if width < 1 or height < 1:
        raise ParseError("empty level: the board has no cells", line=line)


def _level(rows: list[str], start: tuple[int, int], *, line: int | None = None, **metadata: Any) -> Level:
    """Build a Level, turning model errors into ParseErrors at ``line``."""
    try:
        return Level(tuple(rows), start, **metadata)
    except InvalidPuzzle as exc:
        raise ParseError(str(exc), line=line) from None


def _implied_start(rows: list[str], rule: str, *, line: int | None) -> tuple[int, int]:
    cell = start_cell(rows, rule)
    if cell is None:
        raise ParseError("no floor cell, so no start: the level is empty", line=line)
    return cell


def _lf_line_ends(text: str) -> str:
    """``text`` with CRLF and lone CR line ends (old Mac editors) written as LF, for the readers
    that count lines by LF (JSON, JavaScript): a // comment then ends at its line end, and an
    error names the line an editor shows."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _offset_to_line_column(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column


# -- native text --------------------------------------------------------------------------------
METADATA_RE = re.compile(r"^#\s+(name|par|answer)\s*:\s*(.*?)\s*$", re.IGNORECASE)


def _is_comment(line: str) -> bool:
    return line.startswith("#") and len(line) > 1 and line[1] in " \t"


def _blocks(lines: list[str]) -> list[list[tuple[int, str]]]:
    """Non-blank lines grouped into blocks separated by blank lines, with 1-based line numbers."""
    blocks: list[list[tuple[int, str]]] = []
    current: list[tuple[int, str]] = []
    previous = -2
    for index in itertools.compress(itertools.count(), lines):  # (empty lines skipped at C speed: they end a block too)
        line = lines[index].rstrip()
        if current and (not line or index != previous + 1):
            blocks.append(current)
            current = []
        if line:
            current.append((index + 1, line))
        previous = index
    if current:
        blocks.append(current)
    return blocks


def _parse_grid_block(
    block: list[tuple[int, str]],
    *,
    symbols: dict[str, str],
    start_symbol: str,
    fmt: str,
) -> tuple[list[str], tuple[int, int] | None, dict[str, tuple[str, int]], int]:
    """Read one block of a text grid: (board rows over '#'/'.', start, metadata as key -> (value,
    line), first row line).

    ``symbols`` maps each accepted character to WALL, FLOOR or BALL.
    """
    metadata: dict[str, tuple[str, int]] = {}  # key -> (value, line)
    rows: list[str] = []
    row_lines: list[int] = []
    start: tuple[int, int] | None = None
    start_where: tuple[int, int] | None = None
    title_where: tuple[int, int, str] | None = None
    widest = 0
    for number, line in block:
        if _is_comment(line):
            match = METADATA_RE.match(line)
            if match:
                key = match.group(1).lower()
                if key in metadata:  # two pars (or names, answers): which one the file claims is unclear
                    raise ParseError(f"a second '# {key}:' line for the same level (the first is line {metadata[key][1]})",
                                     line=number)
                metadata[key] = (match.group(2), number)
            continue
        text = line.strip()
        indent = len(line) - len(line.lstrip())
        if not rows and text[0] not in symbols:
            metadata.setdefault("title", (text, number))  # a title line before the grid
            title_where = title_where or (number, indent + 1, text[0])
            continue
        cells = []
        for i, ch in enumerate(text):
            column = indent + i + 1
            kind = symbols.get(ch)
            if kind is None:
                symbol = "a space" if ch.isspace() else repr(ch)
                raise ParseError(f"unknown symbol {symbol} in a {fmt} grid (accepted: {' '.join(repr(s) for s in symbols)})",
                                 line=number, column=column)
            if kind == BALL:
                if start is not None:
                    assert start_where is not None
                    raise ParseError(f"two starts: {start_symbol!r} at line {start_where[0]} column {start_where[1]} and here",
                                     line=number, column=column)
                start = (len(rows), i)
                start_where = (number, column)
                kind = FLOOR
            cells.append(kind)
        rows.append("".join(cells))
        row_lines.append(number)
        widest = max(widest, len(cells))
        if len(rows) * widest > MAX_CELLS:
            raise ParseError(f"board is absurdly large (more than {MAX_CELLS} cells)", line=number)
    if not rows:
        if title_where is not None:
            number, column, ch = title_where
            raise ParseError(f"no grid rows: this line starts with {ch!r}, not a {fmt} grid symbol "
                             f"({' '.join(repr(s) for s in symbols)})", line=number, column=column)
        raise ParseError("empty level: comments but no grid rows", line=block[0][0])
    width = max(len(row) for row in rows)
    for row, number in zip(rows, row_lines):
        if len(row) < width and row[-1] != WALL:
            raise ParseError(f"ragged row: {len(row)} cells where the widest row has {width}, and it ends in floor "
                             f"(pad short rows with '#')", line=number, column=len(row) + 1)
    rows = [row.ljust(width, WALL) for row in rows]
    return rows, start, metadata, row_lines[0]


def _metadata_fields(metadata: dict[str, tuple[str, int]]) -> dict[str, Any]:
    """Level fields from ``# name:``, ``# par:`` and ``# answer:`` lines (errors name their line)."""
    fields: dict[str, Any] = {}
    if "name" in metadata:
        fields["name"] = metadata["name"][0]
    elif "title" in metadata:
        fields["name"] = metadata["title"][0]
    if "par" in metadata:
        par, line = metadata["par"]
        try:
            fields["par"] = int(par)
        except ValueError:
            raise ParseError(f"par must be a whole number, not {quoted(par)}", line=line) from None
        if fields["par"] < 0:
            raise ParseError(f"par must be a whole number of moves, zero or more, not {quoted(par)}", line=line)
    if "answer" in metadata:
        text, line = metadata["answer"]
        answer = re.sub(r"[\s,]", "", text).upper()
        if answer.strip(MOVES):
            raise ParseError(f"answer {quoted(text)} holds a letter other than U, D, L, R", line=line)
        fields["known_answer"] = answer
    return fields


NATIVE_SYMBOLS = {WALL: WALL, FLOOR: FLOOR, BALL: BALL}


def parse_native(text: str, *, source: str | None = None, each: bool = False) -> list[Level]:
    """Every level of a native text (blocks separated by blank lines). ``each``: a level that
    cannot be read is its ParseError in the list (see :func:`parse_each`)."""
    blocks = _native_blocks(text)
    levels: list = []
    for index, block in enumerate(blocks):
        try:
            levels.append(_native_level(block, index, len(blocks), source))
        except ParseError as error:
            if not each:
                raise
            levels.append(error)
    return levels


def _native_blocks(text: str) -> list:
    """The level blocks of a native text. A block of comments only (a file's header, a note
    between levels, a trailing note) is not a level and is dropped; a text of comments only
    keeps its first block, which is then an error naming it.

    >>> len(_native_blocks("# my pack\\n\\n###\\n#o#\\n###\\n\\n# the end"))
    1
    """
    blocks = _blocks(split_lines(text))
    if not blocks:
        raise ParseError("empty input: no level found")
    levels = [block for block in blocks if not all(_is_comment(line) for _, line in block)]
    return levels or blocks[:1]


def _native_level(block: list, index: int, count: int, source: str | None) -> Level:
    rows, start, metadata, first = _parse_grid_block(block, symbols=NATIVE_SYMBOLS, start_symbol=BALL, fmt="native")
    if start is None:
        raise ParseError("no start: the grid has no 'o'", line=first)
    fields = _metadata_fields(metadata)
    fields.setdefault("name", _default_name(source, index, count))
    return _level(rows, start, line=first, **fields)


def _default_name(source: str | None, index: int, count: int) -> str:
    base = Path(source).name if source else ""
    if count <= 1:
        return base
    return f"{base}#{index}" if base else f"#{index}"


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
    _check_start_rule(start)
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
    _check_start_rule(start)
    return writers.write_all(levels, normalise_format(fmt), start)


# -- TabTale TMX (Tiled XML) --------------------------------------------------------------------
def _tag(element: ElementTree.Element) -> str:
    return element.tag.rsplit("}", 1)[-1]


def _line_of(text: str, needle: str, default: int | None = None) -> int | None:
    offset = text.find(needle)
    return default if offset < 0 else text.count("\n", 0, offset) + 1


def _int_attribute(element: ElementTree.Element, name: str, line: int | None) -> int:
    value = element.get(name)
    if value is None:
        raise ParseError(f"<{_tag(element)}> has no {name!r} attribute", line=line)
    if not re.fullmatch(r"\s*-?[0-9]{1,18}\s*", value):  # (int() refuses more than 4,300 digits)
        raise ParseError(f"<{_tag(element)}> attribute {name}={quoted(value)} is not a whole number", line=line)
    return int(value)


def _tmx_gids(data: ElementTree.Element, text: str, count: int) -> list[int]:
    """The layer's tile gids in reading order, from csv, base64 (optionally zlib/gzip) or <tile>."""
    data_line = _line_of(text, "<data")
    encoding = (data.get("encoding") or "").strip().lower()
    compression = (data.get("compression") or "").strip().lower()
    if encoding == "csv":
        body = data.text or ""
        # line numbers inside the data: the text of <data> starts on the line of its tag
        start_offset = text.find(">", text.find("<data")) + 1 if "<data" in text else -1
        gids = []
        for match in re.finditer(r"[^,\s]+", body):
            token = match.group()
            if not _is_gid(token):
                line = data_line
                if start_offset > 0 and data_line is not None:
                    line = data_line + body.count("\n", 0, match.start())
                raise ParseError(f"tile value {quoted(token)} in the csv data is not a tile number (0 to {MAX_GID})", line=line)
            gids.append(int(token))
        return gids
    if encoding == "base64":
        if compression not in ("", "zlib", "gzip"):
            raise ParseError(f"unsupported tile data compression {compression!r} (use csv, base64, zlib or gzip)", line=data_line)
        try:
            raw = base64.b64decode("".join((data.text or "").split()), validate=True)
            if compression == "zlib":
                raw = zlib.decompress(raw)
            elif compression == "gzip":
                raw = gzip.decompress(raw)
        except (ValueError, zlib.error, OSError, EOFError) as exc:
            raise ParseError(f"cannot decode the base64 tile data: {exc}", line=data_line) from None
        if len(raw) != 4 * count:
            raise ParseError(f"the tile data holds {len(raw) // 4} tiles, expected {count}", line=data_line)
        return [int.from_bytes(raw[i : i + 4], "little") for i in range(0, len(raw), 4)]
    if encoding:
        raise ParseError(f"unsupported tile data encoding {encoding!r} (use csv or base64)", line=data_line)
    gids = []
    for tile in data:
        if _tag(tile) == "tile":
            gid = tile.get("gid", "0")
            if not _is_gid(gid):
                raise ParseError(f"<tile gid={quoted(gid)}> is not a tile number (0 to {MAX_GID})", line=data_line)
            gids.append(int(gid))
    return gids


MAX_GID = 0xFFFFFFFF  # Tiled's tile numbers are unsigned 32-bit (flip flags in the top bits)


def _is_gid(text: str) -> bool:
    """A Tiled tile number: ASCII digits, at most MAX_GID ('-1' was read as floor, -1 & mask != 0)."""
    return text.isascii() and text.isdigit() and len(text) <= 18 and int(text) <= MAX_GID


def parse_tmx(text: str, *, start: str | None = None, source: str | None = None) -> list[Level]:
    """One level from a Tiled map: ``0`` wall, any other gid (flip flags masked) floor.

    The start is not stored in these files: ``start`` picks the convention ("bottom-left" by
    default, or "row-major"); see :func:`puzzlesat.roller.model.start_cell`.
    """
    _check_start_rule(start)
    rule = start or DEFAULT_START["tmx"]
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError as exc:
        line, column = getattr(exc, "position", (None, None))
        message = str(exc).split(":")[0]
        raise ParseError(f"malformed XML: {message}", line=line, column=None if column is None else column + 1) from None
    if _tag(root) == "tileset":  # the tile images a TabTale level folder ships beside its maps
        raise NotAPuzzle("a Tiled tileset (the tiles a .tmx map is drawn with), not a level: the levels are the .tmx maps", line=1)
    if _tag(root) != "map":
        raise ParseError(f"not a Tiled map: the root element is <{_tag(root)}>, expected <map>", line=1)
    map_line = _line_of(text, "<map", 1)
    width = _int_attribute(root, "width", map_line)
    height = _int_attribute(root, "height", map_line)
    _check_size(width, height, map_line)
    if root.get("orientation", "orthogonal") != "orthogonal":
        raise ParseError(f"only orthogonal maps are Roller boards, not {root.get('orientation')!r}", line=map_line)
    layers = [layer for layer in root.iter() if _tag(layer) == "layer"]
    data = next((child for layer in layers for child in layer if _tag(child) == "data"), None)
    if data is None:
        raise ParseError("the map has no tile layer with <data>", line=map_line)
    layer = next(layer for layer in layers if data in list(layer))
    layer_width = _int_attribute(layer, "width", map_line) if layer.get("width") else width
    layer_height = _int_attribute(layer, "height", map_line) if layer.get("height") else height
    if (layer_width, layer_height) != (width, height):
        raise ParseError(f"the layer is {layer_width}x{layer_height} but the map is {width}x{height}",
                         line=_line_of(text, "<layer", map_line))
    gids = _tmx_gids(data, text, width * height)
    if len(gids) != width * height:
        raise ParseError(f"the tile data holds {len(gids)} values, expected width x height = {width}x{height} = {width * height}",
                         line=_line_of(text, "<data", map_line))
    rows = ["".join(FLOOR if gid & TILED_GID_MASK else WALL for gid in gids[r * width : (r + 1) * width]) for r in range(height)]
    cell = _implied_start(rows, rule, line=map_line)
    name = Path(source).name if source else ""
    return [_level(rows, cell, line=map_line, name=name, start_rule=rule)]


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


def read_answers(path: str | Path) -> dict[str, str]:
    """:func:`parse_answers` of a file (e.g. TabTale's ``solutions/solution.txt``).

    >>> import os, tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = os.path.join(folder.name, "solution.txt")
    >>> with open(path, "w") as handle:
    ...     _ = handle.write("001.xml,0,1,3\\n002.xml,2\\n")
    >>> read_answers(path)
    {'001.xml': 'RU', '002.xml': ''}
    >>> folder.cleanup()
    """
    return parse_answers(_read_text(path))


def with_answers(levels: list[Level], answers: dict[str, str]) -> list[Level]:
    """The levels with ``known_answer`` set from an answer table (file name -> moves, as
    :func:`read_answers` gives), matched by level name; levels without an entry are unchanged.
    Whether an answer is valid for the level's start is left to ``verify``.

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


# -- starhermit JSON ----------------------------------------------------------------------------
def _json_error(exc: json.JSONDecodeError) -> ParseError:
    return ParseError(f"malformed JSON: {exc.msg}", line=exc.lineno, column=exc.colno)


def _json_number(digits: str) -> int | float:
    """A JSON integer as the levels' checks see it: too long for ``int`` (Python refuses more than
    4,300 digits, with a ValueError that is no JSONDecodeError) it stays a number, but no whole
    one (infinity), so it is refused as any other value that is not a tile, size or move count."""
    return int(digits) if len(digits) <= 18 else float(digits)


def parse_starhermit(text: str, *, source: str | None = None, each: bool = False) -> list[Level]:
    """The levels of a starhermit ``levels.json``: ``rows`` over ``#``/``.``, ``start`` [x, y]."""
    entries = _starhermit_entries(_lf_line_ends(text))
    levels: list = []
    for index, (entry, line) in enumerate(entries):
        try:
            levels.append(_starhermit_level(entry, index, len(entries), line, source))
        except ParseError as error:
            if not each:
                raise
            levels.append(error)
    return levels


def _starhermit_entries(text: str) -> list[tuple[object, int | None]]:
    """Each level entry of a starhermit file with the line of its ``"rows"`` key."""
    try:
        data = json.loads(text, parse_int=_json_number)
    except json.JSONDecodeError as exc:
        raise _json_error(exc) from None
    entries = data.get("levels") if isinstance(data, dict) else data
    if not isinstance(entries, list):
        raise ParseError('expected a JSON object with a "levels" list (or a list of levels)', line=1)
    if not entries:
        raise ParseError('the "levels" list is empty', line=1)
    out = []
    search_from = 0
    for entry in entries:
        # the line of this level: where its "rows" key appears (searching forward in order)
        offset = text.find('"rows"', search_from)
        line = text.count("\n", 0, offset) + 1 if offset >= 0 else None
        if offset >= 0:
            search_from = offset + 1
        out.append((entry, line))
    return out


def _starhermit_level(entry: object, index: int, count: int, line: int | None, source: str | None) -> Level:
    label = f"level {index}"
    if not isinstance(entry, dict):
        raise ParseError(f"{label} is not a JSON object", line=line)
    if "id" in entry:
        label += f" ({shown(str(entry['id']))})"
    rows = entry.get("rows")
    if not isinstance(rows, list) or not all(isinstance(row, str) for row in rows):
        raise ParseError(f'{label}: "rows" must be a list of strings', line=line)
    if not rows or not any(rows):
        raise ParseError(f"{label}: empty level", line=line)
    width = max(len(row) for row in rows)
    _check_size(width, len(rows), line)
    for r, row in enumerate(rows):
        bad = row.strip(WALL + FLOOR)
        if bad:
            raise ParseError(f"{label}: row {r} holds {bad[0]!r}; rows use '#' wall and '.' floor", line=line)
        if len(row) < width and (not row or row[-1] != WALL):
            raise ParseError(f"{label}: ragged row {r} ({len(row)} cells where the widest has {width}; pad with '#')", line=line)
    for key, size in (("w", width), ("h", len(rows))):
        if key in entry and entry[key] != size:
            raise ParseError(f'{label}: "{key}" is {quoted(entry[key])} but the rows give {size}', line=line)
    where = entry.get("start")
    if not (isinstance(where, list) and len(where) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in where)):
        raise ParseError(f'{label}: "start" must be [column, row], not {quoted(where)}', line=line)
    par = entry.get("par")
    if par is not None and (not isinstance(par, int) or isinstance(par, bool) or par < 0):
        raise ParseError(f'{label}: "par" must be a non-negative whole number, not {quoted(par)}', line=line)
    answer = entry.get("solution")
    if answer is not None and (not isinstance(answer, str) or answer.strip(MOVES)):
        raise ParseError(f'{label}: "solution" must be a string over U D L R, not {quoted(answer)}', line=line)
    padded = [row.ljust(width, WALL) for row in rows]
    name = str(entry.get("id", _default_name(source, index, count)))
    return _level(padded, (where[1], where[0]), line=line, name=name, par=par, known_answer=answer)


# -- other text grids ---------------------------------------------------------------------------
def _parse_text_grids(text: str, *, symbols: dict[str, str], start_symbol: str | None, fmt: str,
                      source: str | None, first_block_only: bool = False, start: str | None = None,
                      default_start: str | None = None, each: bool = False) -> list[Level]:
    blocks = _blocks(split_lines(text))
    if not blocks:
        raise ParseError("empty input: no level found")
    if first_block_only:
        blocks = blocks[:1]
    levels: list = []
    for index, block in enumerate(blocks):
        try:
            levels.append(_text_grid_level(block, index, len(blocks), symbols=symbols, start_symbol=start_symbol, fmt=fmt,
                                           source=source, start=start, default_start=default_start))
        except ParseError as error:
            if not each:
                raise
            levels.append(error)
    return levels


def _text_grid_level(block: list, index: int, count: int, *, symbols: dict[str, str], start_symbol: str | None, fmt: str,
                     source: str | None, start: str | None, default_start: str | None) -> Level:
    rows, cell, metadata, first = _parse_grid_block(block, symbols=symbols, start_symbol=start_symbol or "", fmt=fmt)
    rule = None
    if cell is None:
        if start_symbol is not None and start is None:
            raise ParseError(f"no start: the grid has no {start_symbol!r}", line=first)
        rule = start or default_start
        assert rule is not None
        cell = _implied_start(rows, rule, line=first)
    fields = _metadata_fields(metadata)
    fields.setdefault("name", _default_name(source, index, count))
    return _level(rows, cell, line=first, start_rule=rule, **fields)


def parse_joseleite19(text: str, *, source: str | None = None, each: bool = False) -> list[Level]:
    """joseleite19 grids: ``#`` wall, ``.`` floor, ``x`` start."""
    return _parse_text_grids(text, symbols={WALL: WALL, FLOOR: FLOOR, "x": BALL}, start_symbol="x", fmt="joseleite19", source=source,
                             each=each)


def parse_nohtaray(text: str, *, source: str | None = None) -> list[Level]:
    """nohtaray's solver input: the first grid (``o`` start); the rest is commentary."""
    return _parse_text_grids(text, symbols=NATIVE_SYMBOLS, start_symbol=BALL, fmt="nohtaray", source=source, first_block_only=True)


def parse_rollersplat(text: str, *, start: str | None = None, source: str | None = None, each: bool = False) -> list[Level]:
    """RollerSplat grids: ``W`` wall, ``G`` ground; no start stored (default: first floor cell in reading order)."""
    _check_start_rule(start)
    return _parse_text_grids(text, symbols={"W": WALL, "G": FLOOR}, start_symbol=None, fmt="rollersplat", source=source,
                             start=start, default_start=DEFAULT_START["rollersplat"], each=each)


def parse_mazepaint(text: str, *, start: str | None = None, source: str | None = None) -> list[Level]:
    """MazePaint maps: rows of space-separated ``0`` floor / ``1`` wall; start (1, 1) as the game fixes it."""
    _check_start_rule(start)
    rows: list[str] = []
    first = None
    for number, line in enumerate(split_lines(text), 1):
        tokens = line.split()
        if not tokens:
            if rows:
                break  # one map per file; anything after a blank line is ignored
            continue
        first = first or number
        cells = []
        for token in tokens:
            if token not in ("0", "1"):
                column = line.find(token) + 1
                raise ParseError(f"unknown value {quoted(token)} in a MazePaint map (0 floor, 1 wall)", line=number, column=column)
            cells.append(FLOOR if token == "0" else WALL)
        if rows and len(cells) != len(rows[0]):
            raise ParseError(f"ragged row: {len(cells)} values where the first row has {len(rows[0])}", line=number)
        rows.append("".join(cells))
        _check_size(len(rows[0]), len(rows), number)
    if not rows:
        raise ParseError("empty input: no map rows")
    if start is not None:
        cell, rule = _implied_start(rows, start, line=first), start
    else:
        cell, rule = (1, 1), "fixed (1, 1)"
        if len(rows) < 2 or len(rows[0]) < 2 or rows[1][1] != FLOOR:
            raise ParseError("MazePaint's fixed start (row 1, column 1) is not a floor cell", line=(first or 1) + 1)
    return [_level(rows, cell, line=first, name=_default_name(source, 0, 1), start_rule=rule)]


# -- herbou JavaScript arrays ---------------------------------------------------------------------
def _blank_js_comments(text: str) -> str:
    """The text with // and /* */ comments replaced by spaces (newlines kept, so offsets hold)."""
    def blank(match: re.Match[str]) -> str:
        return re.sub(r"[^\n]", " ", match.group())
    return re.sub(r"//[^\n]*|/\*.*?\*/", blank, text, flags=re.DOTALL)


def _level_offsets(text: str, start: int) -> list[int]:
    """Offsets of the '[' opening each level (depth 2) in the array that opens at ``start``."""
    offsets, depth = [], 0
    for i in range(start, len(text)):
        ch = text[i]
        if ch == "[":
            depth += 1
            if depth == 2:
                offsets.append(i)
        elif ch == "]":
            depth -= 1
            if depth == 0:
                break
    return offsets


def parse_herbou(text: str, *, start: str | None = None, source: str | None = None, each: bool = False) -> list[Level]:
    """herbou's ``levels-data.js``: ``levels = [[[1,0,...], ...], ...]``, ``0`` road, ``1`` wall.

    As the game does, the outer border is forced to wall and the ball starts on the first road
    cell in reading order (``start=`` picks another convention).
    """
    _check_start_rule(start)
    rule = start or DEFAULT_START["herbou"]
    text = _lf_line_ends(text)
    clean = _blank_js_comments(text)
    match = re.search(r"\blevels\s*=\s*\[", clean)
    begin = match.end() - 1 if match else clean.find("[")
    if begin < 0:
        raise ParseError("no JavaScript array found (expected `levels = [[[1,0,...], ...], ...]`)", line=1)
    clean = re.sub(r",(\s*)\]", lambda m: " " + m.group(1) + "]", clean)  # trailing commas, same length
    try:
        data, _ = json.JSONDecoder(parse_int=_json_number).raw_decode(clean, begin)
    except json.JSONDecodeError as exc:
        raise _json_error(exc) from None
    if not isinstance(data, list) or not data:
        raise ParseError("the levels array is empty", line=_offset_to_line_column(text, begin)[0])
    single = all(isinstance(row, list) and all(isinstance(v, int) for v in row) for row in data)
    if single:
        data = [data]  # one level: a list of rows
    offsets = [begin] if single else _level_offsets(clean, begin)
    levels: list = []
    for index, grid in enumerate(data):
        line = _offset_to_line_column(text, offsets[index])[0] if index < len(offsets) else None
        try:
            levels.append(_herbou_level(grid, index, line, rule, source))
        except ParseError as error:
            if not each:
                raise
            levels.append(error)
    return levels


def _herbou_level(grid: object, index: int, line: int | None, rule: str, source: str | None) -> Level:
    if not isinstance(grid, list) or not grid or not all(isinstance(row, list) and row for row in grid):
        raise ParseError(f"level {index + 1} is not an array of rows of 0 and 1", line=line)
    width = len(grid[0])
    _check_size(width, len(grid), line)
    rows = []
    for r, row in enumerate(grid):
        if len(row) != width:
            raise ParseError(f"level {index + 1}: ragged row {r} ({len(row)} values where the first row has {width})", line=line)
        if any(v not in (0, 1) or isinstance(v, bool) for v in row):
            raise ParseError(f"level {index + 1}: row {r} holds a value other than 0 (road) and 1 (wall)", line=line)
        rows.append("".join(FLOOR if v == 0 and 0 < r < len(grid) - 1 and 0 < c < width - 1 else WALL
                            for c, v in enumerate(row)))
    cell = _implied_start(rows, rule, line=line)
    name = f"{Path(source).name if source else 'levels'}#{index}"  # its position from 0, as every multi-level file names its levels
    return _level(rows, cell, line=line, name=name, start_rule=rule)


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
        _check_start_rule(start)
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


def _read_text(path: str | Path) -> str:
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise ParseError(f"cannot read file: {exc.strerror or exc}", source=str(path)) from None
    if len(data) > 64 * 1024 * 1024:
        raise ParseError("file is larger than 64 MB", source=str(path))
    return as_text(data)


def read(path: str | Path, *, fmt: str | None = None, start: str | None = None) -> list[Level]:
    """Every level in a file (format from ``fmt``, else the content, else the file ending).

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
    text = _read_text(path)
    if fmt is None and str(path).lower().endswith(".roller"):
        fmt = "native"
    return parse_all(text, fmt=fmt, start=start, source=str(path))
