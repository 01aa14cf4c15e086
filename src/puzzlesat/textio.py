"""Text input shared by every family's parsers: bytes are decoded the same way everywhere.

>>> as_text("A.A"), as_text(b"\\xef\\xbb\\xbfA.A"), as_text("A.A".encode("utf-16"))
('A.A', 'A.A', 'A.A')
>>> split_lines("A.A\\r\\n.\\x0c.\\n")
['A.A', '.\\x0c.']
>>> as_text(None)
Traceback (most recent call last):
...
TypeError: expected text (str or bytes), got NoneType
"""

from __future__ import annotations

import contextlib
import gc
import os
import re
import stat
import zlib
from typing import Iterator

from .errors import ParseError, TimeLimitReached
from .timing import Deadline

UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")  # little- and big-endian byte order marks

# The most bytes a reader takes from one file (or one decompressed layer): far above any real
# puzzle file, far below what hurts the machine. Every ``read`` raises it with ``max_bytes=``.
MAX_INPUT_BYTES = 64 * 1024 * 1024


CHECK_EVERY = 2048  # steps of a reader (lines, endpoints) between two looks at the clock


def check_time(deadline: Deadline | None, step: int, *, line: int | None = None) -> None:
    """Raise :class:`~puzzlesat.errors.TimeLimitReached` (at ``line``) when ``deadline`` has
    passed; the clock is read at every CHECK_EVERY-th ``step`` only, from the first CHECK_EVERY
    on (a reader's loops call this once a step; a puzzle smaller than that is read whatever the
    clock says: it takes no time, and its record then says what it is).

    >>> check_time(None, 2048), check_time(Deadline(5.0), 2048), check_time(Deadline(0.0), 0)
    (None, None, None)
    >>> check_time(Deadline(0.0), 2048, line=7)
    Traceback (most recent call last):
    ...
    puzzlesat.errors.TimeLimitReached: 7: the time limit ran out while the puzzle was read
    """
    if deadline is not None and step and step % CHECK_EVERY == 0 and deadline.expired():
        raise TimeLimitReached("the time limit ran out while the puzzle was read", line=line)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused while a reader runs: a file of a million lines
    makes millions of small objects that hold no cycles, and the collector's passes over them
    (each full pass walks all of them) took more time than the reading itself.

    >>> with collector_paused():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def read_bytes(path: str | os.PathLike, *, max_bytes: int = MAX_INPUT_BYTES, raise_with: str = "max_bytes=") -> bytes:
    """The bytes of a file, at most ``max_bytes`` of them: a larger file, a device or a socket
    is a ParseError naming the file and the limit (a pipe is read, capped); ``raise_with``
    names, in that message, what raises the limit (the command line's flag).

    >>> read_bytes("/dev/zero")
    Traceback (most recent call last):
    ...
    puzzlesat.errors.ParseError: /dev/zero: not a puzzle file: a device or socket
    """
    name = os.fspath(path)
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int):
        raise TypeError(f"max_bytes must be a whole number of bytes, not {type(max_bytes).__name__}")
    if max_bytes < 0:
        raise ValueError(f"max_bytes must be 0 or more, not {max_bytes}")
    source = os.fsdecode(name)
    try:
        mode = os.stat(name).st_mode
        if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode) or stat.S_ISDIR(mode)):  # (a folder: open says so)
            raise ParseError("not a puzzle file: a device or socket", source=source)
        with open(name, "rb") as handle:
            data = handle.read(max_bytes + 1)  # capped: a growing file or a pipe cannot run on
    except OSError as exc:
        raise ParseError(f"cannot read file: {exc.strerror or exc}", source=source) from None
    if len(data) > max_bytes:
        raise ParseError(f"file is larger than the {max_bytes} bytes accepted "
                         f"(the input limit: raise it with {raise_with})", source=source)
    return data


def bounded_decompress(data: bytes, *, wbits: int, limit: int, what: str = "data") -> bytes:
    """``data`` decompressed (zlib, gzip or raw deflate by ``wbits``, as :mod:`zlib` takes it)
    a piece at a time, refused as soon as the output would pass ``limit`` bytes: a
    decompression bomb costs ``limit`` bytes at most, never its full size.

    >>> bounded_decompress(zlib.compress(bytes(8)), wbits=15, limit=8)
    b'\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00'
    >>> bounded_decompress(zlib.compress(bytes(9)), wbits=15, limit=8, what="the tile data")
    Traceback (most recent call last):
    ...
    puzzlesat.errors.ParseError: the tile data decompresses to more than 8 bytes (the decompression limit)
    """
    inflater = zlib.decompressobj(wbits)
    pieces, total = [], 0
    pending = data
    while True:
        piece = inflater.decompress(pending, limit + 1 - total)
        pieces.append(piece)
        total += len(piece)
        if total > limit:
            raise ParseError(f"{what} decompresses to more than {limit} bytes (the decompression limit)")
        pending = inflater.unconsumed_tail
        if inflater.eof or not pending:
            break
    if not inflater.eof:
        tail = inflater.flush()
        if len(tail) + total > limit:
            raise ParseError(f"{what} decompresses to more than {limit} bytes (the decompression limit)")
        raise zlib.error("incomplete or truncated stream")
    return b"".join(pieces)


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` as an editor numbers them: broken at ``\\n``, ``\\r\\n`` and ``\\r``
    only (``str.splitlines`` also breaks at form feeds, NEL, U+2028 and more, which put the line
    numbers of error messages out of step with the file)."""
    parts = text.split("\n") if "\r" not in text else _LINE_BREAK.split(text)  # (str.split: several times faster)
    if parts[-1] == "":
        parts.pop()
    return parts


def as_text(data: str | bytes | bytearray) -> str:
    """Text from str or bytes: UTF-16 with a byte order mark, UTF-8 (with or without BOM), else
    cp932 (Japanese Windows, the ADC originals), else Latin-1 (each family's parser then refuses
    control characters). A str loses a leading byte order mark (a file opened as "utf-8" keeps it).

    >>> as_text("\\ufeffstart"), as_text(b"\\xef\\xbb\\xbfstart"), as_text("start".encode("utf-16"))
    ('start', 'start', 'start')
    """
    if isinstance(data, (bytes, bytearray)):
        data = _decoded(bytes(data))
    elif not isinstance(data, str):
        raise TypeError(f"expected text (str or bytes), got {type(data).__name__}")
    return data[1:] if data.startswith("\ufeff") else data


def utf16_without_bom(data: bytes) -> str | None:
    """The byte order, "little" or "big", when ``data`` reads as UTF-16 text with no byte order
    mark (a NUL byte beside each character of plain text: what a binary-data check would
    otherwise call it), else None.

    >>> utf16_without_bom("start".encode("utf-16-le")), utf16_without_bom("go".encode("utf-16-be"))
    ('little', 'big')
    >>> utf16_without_bom("start".encode("utf-16")), utf16_without_bom(bytes(range(8)))
    (None, None)
    """
    if data[:2] in UTF16_BOMS or len(data) < 2:
        return None
    sample = data[:4096]
    for order, zeros, chars in (("little", sample[1::2], sample[0::2]), ("big", sample[0::2], sample[1::2])):
        if zeros.count(0) >= 0.9 * len(zeros) and chars.count(0) == 0:
            return order
    return None


def _decoded(data: bytes) -> str:
    if data[:2] in UTF16_BOMS:  # UTF-16 with its byte order mark (Windows editors)
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            pass
    for encoding in ("utf-8-sig", "cp932"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def with_file_name_hint(error: ParseError, data: object) -> ParseError:
    """``error``, with a hint added when ``data``, given as puzzle text, is one line naming an
    existing file (``parse("puzzles/p1.nl")`` instead of ``read(...)``)."""
    if not isinstance(data, str) or "\n" in data.strip() or len(data) > 4096:
        return error
    try:
        named = os.path.isfile(data.strip())
    except (OSError, ValueError):
        return error
    if not named:
        return error
    return ParseError(error.message + " (this text names a file: read files with read())",
                      line=error.line, column=error.column, source=error.source)


def output_file_problem(path: str | os.PathLike) -> str | None:
    """Why a pack or picture could not be written to ``path`` (checked before the work that
    would fill it), or None.

    >>> output_file_problem("no/such/folder/pack.txt")
    'cannot write no/such/folder/pack.txt: no folder no/such/folder'
    >>> output_file_problem(".")
    'cannot write .: it is a folder'
    """
    text = os.fspath(path)
    folder = os.path.dirname(text) or "."
    if os.path.isdir(text):
        return f"cannot write {text}: it is a folder"
    if not os.path.isdir(folder):
        return f"cannot write {text}: no folder {folder}"
    if not os.access(text if os.path.exists(text) else folder, os.W_OK):
        return f"cannot write {text}: permission denied"
    return None
