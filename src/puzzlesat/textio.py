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

import os
import re

from .errors import ParseError

UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")  # little- and big-endian byte order marks


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
