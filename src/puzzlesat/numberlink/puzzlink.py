"""puzz.link / pzv.jp URLs of Numberlink (``p?numlin/COLS/ROWS/BODY``, ``p?arukone/[e/]COLS/ROWS/BODY``):
reading one puzzle a line, the rules a URL asks for, and writing a puzzle as a URL.

>>> url_rules("https://puzz.link/p?arukone/e/5/5/1j2h3m1h2j3").cover_all
False
"""

from __future__ import annotations

import builtins
import re
from dataclasses import dataclass
from typing import Sequence

from ..errors import CannotExpress, ParseError, quoted
from ..timing import Deadline
from .model import DEFAULT_RULES, Puzzle, Rules, StatedRules
from .reading import _Board, _afresh, _canonical, _check_size, _is_comment, _number


PUZZLINK_PREFIX = "https://puzz.link/p?"
MAX_URL_NUMBER = 4095  # '+XXX': the largest clue a numlin URL holds with the standard encoders


_URL_LINE = re.compile(r"^\s*(?:\S*?\?)?(numlin|arukone)/(\S*)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class _Url:
    variety: str
    pflags: tuple[str, ...]
    width: int
    height: int
    body: str
    body_column: int  # 1-based column of the body's first character


def _split_url(line: str, number: int) -> _Url:
    match = _URL_LINE.match(line)
    if not match:
        raise ParseError("expected a puzz.link URL like 'https://puzz.link/p?numlin/5/5/1j2h3m1h2j3'", line=number)
    variety = match.group(1).lower()
    parts = match.group(2).split("/")
    pflags = []
    while parts and parts[0] and not parts[0].isdigit():
        pflags.append(parts.pop(0))
    if len(parts) < 2 or not all(p.isdigit() and p.isascii() for p in parts[:2]):
        raise ParseError(f"expected {variety}/COLS/ROWS/BODY", line=number, column=match.start(2) + 1)
    width, height = _number(parts[0]), _number(parts[1])
    _check_size(width, height, number)
    body = parts[2] if len(parts) > 2 else ""
    if len(parts) > 3 and any(parts[3:]):
        raise ParseError("unexpected text after the URL body", line=number)
    column = match.start(2) + 1 + sum(len(p) + 1 for p in pflags) + len(parts[0]) + len(parts[1]) + 2
    return _Url(variety, tuple(pflags), width, height, body, column)


def _url_lines(lines: Sequence[str]) -> list[tuple[int, str]]:
    """(line number, line) of every URL line (blank and comment lines skipped)."""
    return [(number, line) for number, line in enumerate(lines, 1) if line.strip() and not _is_comment(line)]


def _parse_puzzlink(lines: Sequence[str], deadline: Deadline | None = None) -> list[Puzzle]:
    return [_puzzlink_puzzle(line, number, _afresh(deadline, k)) for k, (number, line) in enumerate(_url_lines(lines))]


def _puzzlink_puzzle(line: str, number: int, deadline: Deadline | None = None) -> Puzzle:
    """The puzzle of one URL, on line ``number`` of its input."""
    line = line.split("#", 1)[0]  # a #fragment names a place on the page, never part of the puzzle
    url = _split_url(line, number)
    board = _Board(url.width, url.height, number, deadline)
    cells = url.width * url.height
    body = url.body
    position, i = 0, 0
    while i < len(body):
        ch = body[i]
        column = url.body_column + i
        if position >= cells:
            raise ParseError(f"unexpected {quoted(body[i:])} after the {cells} cells of the board", line=number, column=column)
        if ch in "0123456789abcdef":
            value, width = int(ch, 16), 1
        elif ch in "-+=%":
            digits = {"-": 2, "+": 3, "=": 3, "%": 3}[ch]
            chunk = body[i + 1:i + 1 + digits]
            if len(chunk) != digits or any(d not in "0123456789abcdef" for d in chunk):
                raise ParseError(f"{ch!r} must be followed by {digits} hex digits", line=number, column=column)
            value = int(chunk, 16) + {"-": 0, "+": 0, "=": 4096, "%": 8192}[ch]
            width = 1 + digits
        elif ch == ".":
            raise ParseError("a '?' clue (number unknown) cannot be a pair label", line=number, column=column)
        elif "g" <= ch <= "z":
            position += int(ch, 36) - 15
            if position > cells:
                raise ParseError(f"{ch!r} skips past the end of the {cells}-cell board", line=number, column=column)
            i += 1
            continue
        else:
            raise ParseError(f"unknown symbol {ch!r} in the URL body", line=number, column=column)
        board.add(str(value), divmod(position, url.width), number, column)
        position += 1
        i += width
    return board.build(name=line.strip(), stated_rules=StatedRules(_rules_of(url), "url"))


def url_rules(url: str) -> Rules:
    """The rules a puzz.link URL asks for: Nikoli's numlin and arukone with pflag ``e`` let
    cells stay empty; plain arukone covers every cell.

    >>> url_rules("p?numlin/5/5/1j2h3m1h2j3").cover_all, url_rules("p?arukone/5/5/1j2h3m1h2j3").cover_all
    (False, True)
    """
    return _rules_of(_split_url(url.strip(), 1))


def _rules_of(url: _Url) -> Rules:
    may_leave_empty = url.variety == "numlin" or any("e" in flag for flag in url.pflags)
    return Rules(cover_all=not may_leave_empty)


def _url_variety(puzzle: Puzzle, rules: Rules | None) -> str:
    """The puzz.link variety whose rules are ``rules`` (default: the ones the puzzle's source
    stated, else the library's default, cover-all): ``arukone`` covers every cell, ``numlin``
    lets cells stay empty; no variety forbids a path to run beside itself."""
    if rules is None:
        rules = puzzle.stated_rules.rules if puzzle.stated_rules is not None else DEFAULT_RULES
    if rules.no_self_touch:
        raise CannotExpress("a puzz.link URL cannot state no-self-touch rules (neither numlin nor arukone forbids "
                            "a path to run beside itself)")
    return "arukone" if rules.cover_all else "numlin"


def _format_puzzlink(puzzle: Puzzle, rules: Rules | None = None) -> str:
    variety = _url_variety(puzzle, rules)
    if puzzle.blocked:
        raise CannotExpress(f"a puzz.link {variety} URL cannot express blocked cells ({len(puzzle.blocked)} on this board)")
    labels = puzzle.labels
    numeric = all(label.isdigit() and label.isascii() and _canonical(label) == label for label in labels)
    if numeric and all(_number(label) <= MAX_URL_NUMBER for label in labels):
        number_of = {label: _number(label) for label in labels}
    else:  # renumber 1..K in reading order of each label's first endpoint
        order = sorted(puzzle.pairs, key=lambda pair: min(pair.start, pair.end))
        number_of = {pair.label: k for k, pair in enumerate(order, 1)}
    if len(number_of) > MAX_URL_NUMBER:
        raise CannotExpress(f"puzz.link clues go up to {MAX_URL_NUMBER}; this puzzle has {len(number_of)} labels")
    at = {cell: number_of[label] for cell, label in puzzle.endpoints().items()}
    out, gap = [], 0
    for r in range(puzzle.height):
        for c in range(puzzle.width):
            value = at.get((r, c))
            if value is None:
                gap += 1
                if gap == 20:
                    out.append("z")
                    gap = 0
                continue
            if gap:
                out.append(_skip(gap))
                gap = 0
            if value < 16:
                out.append(builtins.format(value, "x"))
            elif value < 256:
                out.append("-" + builtins.format(value, "02x"))
            else:
                out.append("+" + builtins.format(value, "03x"))
    if gap:
        out.append(_skip(gap))
    return f"{PUZZLINK_PREFIX}{variety}/{puzzle.width}/{puzzle.height}/{''.join(out)}"


def _skip(gap: int) -> str:
    """The letter g..z that skips 1..20 empty cells."""
    return "0123456789abcdefghijklmnopqrstuvwxyz"[15 + gap]


_URL = re.compile(r"^\s*(?:https?://[^?\s]*)?\??(?:p\?)?(numlin|arukone)/", re.IGNORECASE)
