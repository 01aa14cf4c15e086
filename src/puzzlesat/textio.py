"""Text input shared by every family's parsers: bytes are decoded the same way everywhere.

>>> as_text("A.A"), as_text(b"\\xef\\xbb\\xbfA.A"), as_text("A.A".encode("utf-16"))
('A.A', 'A.A', 'A.A')
>>> as_text(None)
Traceback (most recent call last):
...
TypeError: expected text (str or bytes), got NoneType
"""

from __future__ import annotations

UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")  # little- and big-endian byte order marks


def as_text(data: str | bytes | bytearray) -> str:
    """Text from str or bytes: UTF-16 with a byte order mark, UTF-8 (with or without BOM), else
    cp932 (Japanese Windows, the ADC originals), else Latin-1 (each family's parser then refuses
    control characters)."""
    if isinstance(data, (bytes, bytearray)):
        if bytes(data[:2]) in UTF16_BOMS:  # UTF-16 with its byte order mark (Windows editors)
            try:
                return bytes(data).decode("utf-16")
            except UnicodeDecodeError:
                pass
        for encoding in ("utf-8-sig", "cp932"):
            try:
                return bytes(data).decode(encoding)
            except UnicodeDecodeError:
                continue
        return bytes(data).decode("latin-1")
    if not isinstance(data, str):
        raise TypeError(f"expected text (str or bytes), got {type(data).__name__}")
    return data
