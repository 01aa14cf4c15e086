"""Reading TabTale "Amaze!" levels: Tiled maps (``<map>`` XML) whose tile layer is ``<data
encoding="csv">``, base64 (optionally zlib or gzip) or ``<tile gid>``; ``0`` is wall, any other
tile floor (Tiled's flip flags masked). The start is not stored: a start convention gives it.

>>> text = '<map width="4" height="3"><layer><data encoding="csv">0,0,0,0, 0,1,1,0, 0,0,0,0</data></layer></map>'
>>> [(level.rows, level.start) for level in parse_tmx(text, start="row-major")]
[(('####', '#..#', '####'), (1, 1))]
"""

from __future__ import annotations

import base64
import re
import zlib
from pathlib import Path
from xml.etree import ElementTree

from ..errors import NotAPuzzle, ParseError, quoted
from ..textio import MAX_INPUT_BYTES, bounded_decompress
from .model import FLOOR, WALL, Level
from .reading import DEFAULT_START, check_size, check_start_rule, implied_start, make_level

TILED_GID_MASK = 0x1FFFFFFF  # Tiled keeps flip flags in the top three bits of a gid

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
    """The layer's tile gids in reading order, from csv, base64 (optionally zlib/gzip) or <tile>.
    A compressed layer is inflated a piece at a time up to the 4 bytes a tile the map declares
    (and never past MAX_INPUT_BYTES), so a decompression bomb is refused without being built."""
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
            if compression:
                limit = min(4 * count, MAX_INPUT_BYTES)
                raw = bounded_decompress(raw, wbits=15 if compression == "zlib" else 31, limit=limit,
                                         what=f"the {compression} tile data of a map of {count} tiles")
        except ParseError as exc:
            raise ParseError(exc.message, line=data_line) from None
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
    check_start_rule(start)
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
    check_size(width, height, map_line)
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
    cell = implied_start(rows, rule, line=map_line)
    name = Path(source).name if source else ""
    return [make_level(rows, cell, line=map_line, name=name, start_rule=rule)]
