"""Errors shared by every family.

A parser never lets a traceback escape: anything it refuses raises :class:`ParseError`, whose
message names the source, the line (1-based) and, where it applies, the column.

>>> str(ParseError("label 'A' occurs 3 times (expected 2)", line=4, column=7, source="p.txt"))
"p.txt:4:7: label 'A' occurs 3 times (expected 2)"
"""

from __future__ import annotations

from typing import Sequence


QUOTED_LIMIT = 40  # characters of a piece of input an error message shows before it cuts it short


def quoted(text: object, limit: int = QUOTED_LIMIT) -> str:
    """A piece of the input as an error message shows it: its repr, cut short after ``limit``
    characters with its length said, so a 100 MB token does not make a 100 MB message.

    >>> quoted("T1X")
    "'T1X'"
    >>> quoted("Z" * 1000, limit=5)
    "'ZZZZZ'... (1000 characters)"
    >>> quoted(["Z" * 1000, 1], limit=5)
    "['ZZZ... (1007 characters written out)"
    """
    if isinstance(text, str):
        return repr(text) if len(text) <= limit else f"{text[:limit]!r}... ({len(text)} characters)"
    shown = repr(text)
    return shown if len(shown) <= limit else f"{shown[:limit]}... ({len(shown)} characters written out)"


def shown(text: str) -> str:
    """A piece of the input shown bare (a number, a level's id), or quoted and cut short like
    :func:`quoted` when it is longer than ``QUOTED_LIMIT`` characters.

    >>> shown("07"), shown("9" * 50)
    ('07', "'9999999999999999999999999999999999999999'... (50 characters)")
    """
    return text if len(text) <= QUOTED_LIMIT else quoted(text)


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
        """The same error (of the same class), naming the file or URL it came from."""
        return type(self)(self.message, line=self.line, column=self.column, source=source)

    def __str__(self) -> str:
        where = [part for part in (self.source, self.line, self.column) if part is not None]
        prefix = ":".join(str(part) for part in where)
        if prefix:
            return f"{prefix}: {self.message}" if self.line is not None or self.source else self.message
        return self.message


class NotAPuzzle(ParseError):
    """The input is a file of a known kind that holds no puzzle (a table of answers, a solver's
    log): an error when it is named on the command line, skipped (and said so) when ``verify``
    meets it inside a folder."""


class TimeLimitReached(ParseError):
    """The time limit ran out while a puzzle was being read (a reader given a ``deadline``): the
    puzzle is not refused, its answer is unknown. The command line records it as "unknown" with
    the reason :data:`READING_TIME_LIMIT`; code that knows only ParseError still reports it cleanly."""


READING_TIME_LIMIT = "time limit while reading"  # the reason of a record whose puzzle was not read in time


class InvalidPuzzle(PuzzlesatError, ValueError):
    """A puzzle object that breaks the model's invariants (built in code, not parsed)."""


class CannotExpress(PuzzlesatError, ValueError):
    """A format that cannot hold this puzzle (or its rules): the message names what would be lost."""


class UnverifiedAnswer(PuzzlesatError, AssertionError):
    """A solver's answer that fails the family's independent check: a bug in puzzlesat, never
    reported as an answer (the message names the method and the first broken rule)."""


def require_valid(violations: Sequence[object], method: str) -> None:
    """Raise :class:`UnverifiedAnswer` when the family's independent check found ``violations``
    in an answer of ``method`` (a solver, a baseline or a generator); nothing when there are none.

    >>> require_valid([], "flow")
    >>> require_valid(["cell (0,1) is never painted"], "flow")
    Traceback (most recent call last):
    ...
    puzzlesat.errors.UnverifiedAnswer: flow gave an answer that fails the independent check: cell (0,1) is never painted (a bug in puzzlesat: please report this puzzle)
    """
    if violations:
        raise UnverifiedAnswer(f"{method} gave an answer that fails the independent check: {violations[0]} "
                               "(a bug in puzzlesat: please report this puzzle)")


def require_type(value: object, kind: type, name: str, hint: str = "") -> None:
    """Raise a TypeError that names the argument when ``value`` is not a ``kind``.

    The public verbs check their main arguments with it, so a wrong argument fails at the call
    with a plain message instead of deep inside a solver.

    >>> class Puzzle: pass
    >>> require_type("A.A", Puzzle, "puzzle")
    Traceback (most recent call last):
    ...
    TypeError: puzzle must be a Puzzle, not str
    >>> require_type("7", int, "seed")
    Traceback (most recent call last):
    ...
    TypeError: seed must be an int, not str
    """
    if not isinstance(value, kind):
        wanted, got = kind.__name__, type(value).__name__
        if wanted == got:  # a Level of another family, say: name the modules
            wanted, got = f"{kind.__module__}.{wanted}", f"{type(value).__module__}.{got}"
        article = "an" if wanted[:1].lower() in "aeiou" else "a"
        message = f"{name} must be {article} {wanted}, not {got}"
        raise TypeError(f"{message} ({hint})" if hint else message)


def require_iterable(value: object, name: str, wanted: str, *, text: bool = False) -> None:
    """Raise a TypeError that names the argument when ``value`` cannot be iterated (None, a
    number) or, unless ``text``, is one string (which would be read a character at a time).

    >>> require_iterable(None, "pairs", "a sequence of Pair objects")
    Traceback (most recent call last):
    ...
    TypeError: pairs must be a sequence of Pair objects, not NoneType
    """
    if isinstance(value, (str, bytes)) and not text:
        raise TypeError(f"{name} must be {wanted}, not one {type(value).__name__}")
    try:
        iter(value)  # type: ignore[call-overload]
    except TypeError:
        raise TypeError(f"{name} must be {wanted}, not {type(value).__name__}") from None


def require_mapping(value: object, name: str, wanted: str) -> None:
    """Raise a TypeError that names the argument unless ``value`` is a mapping (has ``items``).

    >>> require_mapping(None, "paths", "a mapping of label to cells")
    Traceback (most recent call last):
    ...
    TypeError: paths must be a mapping of label to cells, not NoneType
    """
    if not callable(getattr(value, "items", None)):
        raise TypeError(f"{name} must be {wanted}, not {type(value).__name__}")


def require_count(value: object, name: str, unit: str = "") -> int:
    """Raise a TypeError or ValueError that names the argument unless ``value`` is a whole
    number of 1 or more (a number of draws, tries, puzzles or answers: ``unit``).

    >>> require_count(0, "max_tries")
    Traceback (most recent call last):
    ...
    ValueError: max_tries must be 1 or more, not 0
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be a whole number{' of ' + unit if unit else ''}, not {type(value).__name__}")
    if value < 1:
        raise ValueError(f"{name} must be 1 or more{' ' + unit if unit else ''}, not {value}")
    return value


def whole_number(text: str, minimum: int, wanted: str) -> int:
    """A whole number of ``minimum`` or more read from text (a count, a position), or a
    ValueError saying what was wanted (the command line's converters wrap it).

    >>> whole_number("3", 1, "a whole number of 1 or more")
    3
    >>> whole_number("-1", 1, "a whole number of 1 or more")
    Traceback (most recent call last):
    ...
    ValueError: '-1' is not a whole number of 1 or more
    """
    try:
        value = int(text)
    except ValueError:
        value = minimum - 1
    if value < minimum:
        raise ValueError(f"{text!r} is not {wanted}")
    return value
