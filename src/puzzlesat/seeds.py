"""Seeds derived from names: the same parts always give the same seed, on every machine and
Python (unlike ``hash``), so a pack's levels can be drawn again from their names alone.

>>> hashed_seed("roller", 1, 0) == hashed_seed("roller", 1, 0) != hashed_seed("roller", 1, 1)
True
>>> 0 <= hashed_seed("swap", 7, 3, 2) < 2 ** 48
True
"""

from __future__ import annotations

import hashlib


def hashed_seed(*parts: object) -> int:
    """A 48-bit seed from the parts, joined by "/" (e.g. family, pack seed, index, attempt)."""
    digest = hashlib.sha256("/".join(str(part) for part in parts).encode()).digest()
    return int.from_bytes(digest[:6], "big")
