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
