"""Integers as text at numpy speed: the DIMACS and LRAT lines a certificate writes, formatted
at once from one array of numbers instead of one ``str`` per number (encodings/certificates.md,
"The Numberlink target").

>>> import numpy as np
>>> print(lines_text(np.array([5, -2, 0, 3, 4, 0, 12, 0]), np.array([5, 7])), end="")
5 -2 0 3 4 0
12 0
>>> lines_text(np.array([], dtype=np.int64), np.array([], dtype=np.int64))
''
"""

from __future__ import annotations

import numpy as np


def lines_text(values: np.ndarray, line_ends: np.ndarray) -> str:
    """``values`` written in decimal, one space apart, with a line break after each position
    in ``line_ends`` (the last value ends a line) instead of the space."""
    v = np.asarray(values, dtype=np.int64)
    if not v.size:
        return ""
    magnitude = np.abs(v)
    widest = len(str(int(magnitude.max())))
    magnitude = magnitude.astype(np.int32 if widest < 10 else np.int64)
    digits = np.ones(v.size, dtype=np.int64)
    for k in range(1, widest):
        digits += magnitude >= 10 ** k
    negative = v < 0
    width = digits + negative + 1  # (the sign, the digits, the separator)
    ends = np.cumsum(width)
    total = int(ends[-1])
    out = np.full(total + 1, ord(" "), dtype=np.uint8)  # (the byte past the end: where writes to no place go)
    out[ends[np.asarray(line_ends, dtype=np.int64)] - 1] = ord("\n")
    out[np.where(negative, ends - width, total)] = ord("-")
    place = ends - 2  # the last digit's position, then one to the left per digit
    for k in range(widest):
        rest = magnitude // 10
        out[place if k == 0 else np.where(digits > k, place, total)] = (magnitude - 10 * rest + 48).astype(np.uint8)
        magnitude, place = rest, place - 1
    return out[:total].tobytes().decode("ascii")
