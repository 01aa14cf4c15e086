"""Reading the Roller level sets written as other text grids: joseleite19's (``x`` the start),
nohtaray's (commentary after the first blank line), rollersplat's (``W`` wall, ``G`` ground) and
mazepaint's (rows of ``0`` floor and ``1`` wall, the start at (1, 1)).

>>> parse_joseleite19("###\\n#x#\\n#.#\\n###")[0].start
(1, 1)
"""

from __future__ import annotations

from ..errors import ParseError, quoted
from ..textio import split_lines
from .model import BALL, FLOOR, WALL, Level
from .native import NATIVE_SYMBOLS, _blocks, _metadata_fields, _parse_grid_block
from .reading import DEFAULT_START, check_size, check_start_rule, default_name, implied_start, make_level


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
        cell = implied_start(rows, rule, line=first)
    fields = _metadata_fields(metadata)
    fields.setdefault("name", default_name(source, index, count))
    return make_level(rows, cell, line=first, start_rule=rule, **fields)


def parse_joseleite19(text: str, *, source: str | None = None, each: bool = False) -> list[Level]:
    """joseleite19 grids: ``#`` wall, ``.`` floor, ``x`` start."""
    return _parse_text_grids(text, symbols={WALL: WALL, FLOOR: FLOOR, "x": BALL}, start_symbol="x", fmt="joseleite19", source=source,
                             each=each)


def parse_nohtaray(text: str, *, source: str | None = None) -> list[Level]:
    """nohtaray's solver input: the first grid (``o`` start); the rest is commentary."""
    return _parse_text_grids(text, symbols=NATIVE_SYMBOLS, start_symbol=BALL, fmt="nohtaray", source=source, first_block_only=True)


def parse_rollersplat(text: str, *, start: str | None = None, source: str | None = None, each: bool = False) -> list[Level]:
    """RollerSplat grids: ``W`` wall, ``G`` ground; no start stored (default: first floor cell in reading order)."""
    check_start_rule(start)
    return _parse_text_grids(text, symbols={"W": WALL, "G": FLOOR}, start_symbol=None, fmt="rollersplat", source=source,
                             start=start, default_start=DEFAULT_START["rollersplat"], each=each)


def parse_mazepaint(text: str, *, start: str | None = None, source: str | None = None) -> list[Level]:
    """MazePaint maps: rows of space-separated ``0`` floor / ``1`` wall; start (1, 1) as the game fixes it."""
    check_start_rule(start)
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
        check_size(len(rows[0]), len(rows), number)
    if not rows:
        raise ParseError("empty input: no map rows")
    if start is not None:
        cell, rule = implied_start(rows, start, line=first), start
    else:
        cell, rule = (1, 1), "fixed (1, 1)"
        if len(rows) < 2 or len(rows[0]) < 2 or rows[1][1] != FLOOR:
            raise ParseError("MazePaint's fixed start (row 1, column 1) is not a floor cell", line=(first or 1) + 1)
    return [make_level(rows, cell, line=first, name=default_name(source, 0, 1), start_rule=rule)]
