"""Bounded memory: a limit in bytes on what one puzzle's work may take, set on the process that
runs it (``RLIMIT_DATA`` on Linux, which counts the memory a process has written to or may
write: heap and private mappings; ``RLIMIT_AS`` elsewhere), so that a board that would take all
the memory ends as "unknown" with the reason :data:`REASON` instead of hurting the machine.
(Not ``RLIMIT_AS`` on Linux: it counts address space merely reserved, such as the 64 MB malloc
arena of each solver thread, and refuses a solve long before memory is short.)

The limit is set in a process that does the work and nothing else: a forked child
(:class:`puzzlesat.child.Child`) or a batch worker (:class:`puzzlesat.batch.pool.Pool`). There
Python raises :class:`MemoryError` when an allocation would pass it; a C extension (the SAT
solver) may instead abort the process, which the parent sees as a death, and, with a limit set,
reads as the limit reached.

>>> parse_memory("2G"), parse_memory("500M"), parse_memory("1.5g"), parse_memory("none")
(2147483648, 524288000, 1610612736, None)
>>> parse_memory("lots")
Traceback (most recent call last):
...
ValueError: memory size 'lots' is not a number of bytes with an optional K, M, G or T (e.g. 500M, 2G), or "none"
>>> describe_memory(3 * 2**30), describe_memory(300 * 2**20), describe_memory(None)
('3G', '300M', 'none')
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import re
import sys
from typing import Iterator

REASON = "memory limit"  # the reason of a record whose work reached its memory limit
DEFAULT_SHARE = 0.8  # the default limit: this share of the machine's physical memory
UNITS = {"": 1, "B": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
MINIMUM = 64 * 2**20  # below this the interpreter itself cannot run its work


class MemoryLimitReached(MemoryError):
    """The work reached its memory limit (raised where its result was awaited)."""

    def __init__(self, limit: int | None = None) -> None:
        self.limit = limit
        super().__init__(REASON if limit is None else f"{REASON} of {describe_memory(limit)} reached")


def parse_bytes(text: str, *, what: str = "size") -> int:
    """A number of bytes with an optional binary unit (K = 1024, M, G, T; a trailing B or iB is
    allowed), as ``--memory-limit`` and ``--max-input-bytes`` take it.

    >>> parse_bytes("64M"), parse_bytes("100"), parse_bytes("2GiB")
    (67108864, 100, 2147483648)
    """
    cleaned = re.sub(r"(?<=[KMGT])I?B$", "", text.strip().upper())  # (2GB and 2GiB read as 2G)
    match = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([KMGT]?)", cleaned)
    if match is None:
        raise ValueError(f"{what} {text!r} is not a number of bytes with an optional K, M, G or T (e.g. 500M, 2G)")
    return int(float(match.group(1)) * UNITS[match.group(2)])


def parse_memory(text: str) -> int | None:
    """``--memory-limit SIZE``: bytes (:func:`parse_bytes`), or None for "none" (no limit)."""
    if text.strip().lower() in ("none", "off", "unlimited"):
        return None
    try:
        value = parse_bytes(text, what="memory size")
    except ValueError as exc:
        raise ValueError(f"{exc}, or \"none\"") from None
    if value < MINIMUM:
        raise ValueError(f"memory size {text!r} is below {describe_memory(MINIMUM)}, too little for the interpreter itself")
    return value


def describe_memory(limit: int | None) -> str:
    """A limit in the largest binary unit that divides it (as ``--memory-limit`` takes it)."""
    if limit is None:
        return "none"
    for unit in "TGMK":
        if limit % UNITS[unit] == 0:
            return f"{limit // UNITS[unit]}{unit}"
    return str(limit)


def physical_memory() -> int | None:
    """The machine's physical memory in bytes, None where it cannot be told."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None


def default_memory_limit() -> int | None:
    """The command line's default: :data:`DEFAULT_SHARE` of physical memory, in whole
    mebibytes (None where the machine's memory is unknown)."""
    total = physical_memory()
    return None if total is None else max(MINIMUM, int(total * DEFAULT_SHARE) // 2**20 * 2**20)


def can_limit() -> bool:
    """Whether this platform can limit a process's memory (``resource``: Unix)."""
    return importlib.util.find_spec("resource") is not None


_limit: int | None = None  # the limit set in this process (inherited by its forked children)


def current_limit() -> int | None:
    """The limit :func:`limit_this_process` set in this process or the parent it was forked
    from (None: none set by puzzlesat)."""
    return _limit


def _kinds() -> list[int]:
    """The resource limits that bound memory here: ``RLIMIT_DATA`` on Linux (since 4.7 it
    counts private mappings too, so large allocations are bounded), else ``RLIMIT_AS``."""
    import resource

    if sys.platform.startswith("linux") and hasattr(resource, "RLIMIT_DATA"):
        return [resource.RLIMIT_DATA]
    return [resource.RLIMIT_AS]


def limit_this_process(limit: int | None) -> None:
    """Set ``limit`` (bytes) as this process's soft limit of memory (:func:`_kinds`; never above
    a hard limit already set). Meant for a process that runs one job's work: the limit stays
    for the rest of the process's life. Nothing happens for None or where limits are unknown."""
    global _limit
    if limit is None or not can_limit():
        return
    import resource

    _limit = limit

    for kind in _kinds():
        try:
            _, hard = resource.getrlimit(kind)
            resource.setrlimit(kind, (limit if hard == resource.RLIM_INFINITY else min(limit, hard), hard))
        except (ValueError, OSError):  # (a platform that refuses one kind keeps the other)
            pass


def check_limit(limit: object) -> int | None:
    """``memory_limit=`` of the API: None or a whole number of bytes of at least :data:`MINIMUM`.

    >>> check_limit(None), check_limit(2**30)
    (None, 1073741824)
    >>> check_limit("2G")
    Traceback (most recent call last):
    ...
    TypeError: memory_limit must be a whole number of bytes or None, not str (parse_memory('2G') reads a size)
    """
    if limit is None:
        return None
    if isinstance(limit, bool) or not isinstance(limit, int):
        hint = f" (parse_memory({limit!r}) reads a size)" if isinstance(limit, str) else ""
        raise TypeError(f"memory_limit must be a whole number of bytes or None, not {type(limit).__name__}{hint}")
    if limit < MINIMUM:
        raise ValueError(f"memory_limit of {limit} bytes is below {MINIMUM}, too little for the interpreter itself")
    return limit


def held_memory() -> int | None:
    """The bytes this process holds now as the limit counts them (data and stack, Linux's
    ``/proc/self/statm``), None where it cannot be told."""
    try:
        with open("/proc/self/statm") as handle:
            return int(handle.read().split()[5]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError, AttributeError):
        return None


@contextlib.contextmanager
def limited(limit: int) -> Iterator[None]:
    """This process under ``limit`` for the span of a ``with`` block, the earlier soft limits
    restored after it (every thread of the process is under it meanwhile).

    >>> with limited(2**40):
    ...     len(bytearray(1000))
    1000
    """
    if not can_limit():
        yield
        return
    import resource

    before = {kind: resource.getrlimit(kind) for kind in _kinds()}
    global _limit
    earlier, _limit = _limit, limit
    try:
        for kind, (_, hard) in before.items():
            with contextlib.suppress(ValueError, OSError):
                resource.setrlimit(kind, (limit if hard == resource.RLIM_INFINITY else min(limit, hard), hard))
        yield
    finally:
        _limit = earlier
        for kind, soft_hard in before.items():
            with contextlib.suppress(ValueError, OSError):
                resource.setrlimit(kind, soft_hard)
