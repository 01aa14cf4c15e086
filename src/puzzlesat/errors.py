"""Errors shared by every family.

A parser never lets a traceback escape: anything it refuses raises :class:`ParseError`, whose
message names the source, the line (1-based) and, where it applies, the column.

>>> str(ParseError("label 'A' occurs 3 times (expected 2)", line=4, column=7, source="p.txt"))
"p.txt:4:7: label 'A' occurs 3 times (expected 2)"
"""

from __future__ import annotations


class PuzzlesatError(Exception):
    """Base class of every error this library raises on purpose."""


class ParseError(PuzzlesatError, ValueError):
    """Input text that is not a puzzle: says where (line, column) and what is wrong."""

    def __init__(
        self,
        message: str,
        *,
        line: int | None = None,
        column: int | None = None,
        source: str | None = None,
    ) -> None:
        self.message = message
        self.line = line
        self.column = column
        self.source = source
        super().__init__(str(self))

    def with_source(self, source: str) -> "ParseError":
        """The same error, naming the file or URL it came from."""
        return ParseError(self.message, line=self.line, column=self.column, source=source)

    def __str__(self) -> str:
        where = [part for part in (self.source, self.line, self.column) if part is not None]
        prefix = ":".join(str(part) for part in where)
        if prefix:
            return f"{prefix}: {self.message}" if self.line is not None or self.source else self.message
        return self.message


class InvalidPuzzle(PuzzlesatError, ValueError):
    """A puzzle object that breaks the model's invariants (built in code, not parsed)."""


def require_type(value: object, kind: type, name: str, hint: str = "") -> None:
    """Raise a TypeError that names the argument when ``value`` is not a ``kind``.

    The public verbs check their main arguments with it, so a wrong argument fails at the call
    with a plain message instead of deep inside a solver.

    >>> class Puzzle: pass
    >>> require_type("A.A", Puzzle, "puzzle")
    Traceback (most recent call last):
    ...
    TypeError: puzzle must be a Puzzle, not str
    """
    if not isinstance(value, kind):
        wanted, got = kind.__name__, type(value).__name__
        if wanted == got:  # a Level of another family, say: name the modules
            wanted, got = f"{kind.__module__}.{wanted}", f"{type(value).__module__}.{got}"
        message = f"{name} must be a {wanted}, not {got}"
        raise TypeError(f"{message} ({hint})" if hint else message)
