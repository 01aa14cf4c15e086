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
    in ``line_ends`` (increasing; the last value ends a line) instead of the space."""
    v = np.asarray(values, dtype=np.int64)
    if not v.size:
        return ""
    negative = v < 0
    magnitude = np.abs(v)
    digits = np.ones(v.size, dtype=np.int64)
    rest = magnitude // 10
    while rest.any():
        digits += rest > 0
        rest //= 10
    width = digits + negative + 1  # (the sign, the digits, the separator)
    ends = np.cumsum(width)
    out = np.full(int(ends[-1]), ord(" "), dtype=np.uint8)
    out[ends[np.asarray(line_ends, dtype=np.int64)] - 1] = ord("\n")
    out[(ends - width)[negative]] = ord("-")
    place = ends - 2  # the last digit's position, then one to the left per digit
    for k in range(int(digits.max())):
        if k:
            keep = digits > k
            place, magnitude, digits = place[keep] - 1, magnitude[keep] // 10, digits[keep]
        out[place] = ord("0") + magnitude % 10
    return out.tobytes().decode("ascii")
