"""Which Numberlink format a text is written in (:func:`detect_format`), and what a text that is no
puzzle is instead: the output of imos' solver, or JSON.

>>> detect_format("https://puzz.link/p?numlin/5/5/1j2h3m1h2j3"), detect_format("A.B\\nA.B")
('puzzlink', 'native')
"""

from __future__ import annotations

import json
import re
from typing import Sequence

from ..errors import NotAPuzzle, ParseError
from ..textio import as_text
from .dailyprogrammer import _DP_HEADER
from .puzzlink import _URL
from .reading import _COMMA_HEADER, _HEADER, _SINGLE_NUMBER, _first_content, _lines, _number


def _detect(lines: Sequence[str]) -> str:
    first = _first_content(lines)
    if first is None:
        raise ParseError("empty input: no puzzle found", line=1 if lines else None)
    i, line = first
    stripped = line.strip()
    raw = line.rstrip()  # a size line starts in the first column
    if _URL.match(stripped) or re.match(r"^\s*\S*\?(numlin|arukone)/", stripped):
        return "puzzlink"
    if re.match(r"SIZE\b", stripped, re.IGNORECASE):
        return "adc"
    if _DP_HEADER.match(stripped):
        nxt = _first_content(lines[i + 1:])
        if nxt is not None and nxt[1].lstrip().startswith("("):
            return "dailyprogrammer"
    if _SINGLE_NUMBER.match(stripped) and i + 2 < len(lines) and _SINGLE_NUMBER.match(lines[i + 1]):
        row = lines[i + 2].split()
        if len(row) > 1 and all(t == "-" or (t.isdigit() and t.isascii()) for t in row):
            return "tokens"  # Copris: rows, columns, then the grid
    if _HEADER.match(raw) or _COMMA_HEADER.match(raw):
        header = _HEADER.match(raw) or _COMMA_HEADER.match(raw)
        height = _number(header.group(2) if _HEADER.match(raw) else header.group(1))
        rows = []
        for row in lines[i + 1:i + 1 + min(height, 100)]:
            if not row.strip():
                break
            rows.append(row.split())
        if not rows:
            return "native"
        numeric = all(t == "-" or (t.isdigit() and t.isascii()) for row in rows for t in row)
        blanks = any(t == "-" or not t.strip("0") for row in rows for t in row)
        if any(len(row) > 1 for row in rows):
            # numbers only: a token grid; a native grid of numbers needs '.' for its empty cells
            return "tokens" if numeric and (blanks or _COMMA_HEADER.match(raw)) else "native"
        # one token per row: a character grid, unless a 1-wide grid of numbers with blanks
        one_wide = bool(_HEADER.match(raw)) and _number(_HEADER.match(raw).group(1)) == 1
        if one_wide and numeric and any(row[0] == "-" or not row[0].strip("0") or len(row[0]) > 1 for row in rows):
            return "tokens"
        if one_wide and any(len(row[0]) > 1 for row in rows):
            return "native"  # one cell per row, some labels longer than a character
        return "thomasahle"
    rows = []
    for line in lines[i:]:
        if not line.strip():
            break
        rows.append(line.strip())
    if all(len(row) == len(rows) for row in rows) and all(ch.isalpha() or ch == "." for row in rows for ch in row):
        return "mzucker"
    return "native"


def detect_format(text: str | bytes) -> str:
    """The name (one of ``FORMATS``) of the format ``text`` is written in.

    >>> detect_format("3 2\\nA.B\\nA.B"), detect_format("SIZE 3X2\\nLINE_NUM 0"), detect_format("p?numlin/1/1/g")
    ('thomasahle', 'adc', 'puzzlink')
    """
    return _detect(_lines(as_text(text)))


_IMOS_BORDER = re.compile(r"\+(---\+)+$")
_IMOS_COUNT = re.compile(r"# of solutions: \S+$")


def _refuse_solver_output(lines: Sequence[str]) -> None:
    """Raise :class:`NotAPuzzle` for the output of imos' NumberLink solver (its
    ``sample_output``: each answer drawn in ``+---+`` boxes, then ``# of solutions: N``), which
    no grid format reads."""
    first = _first_content(lines)
    if first is None or not _IMOS_BORDER.match(first[1].strip()):  # (most texts: one line looked at)
        return
    counts = sum(1 for line in lines if _IMOS_COUNT.match(line.strip()))
    if counts:
        raise NotAPuzzle(f"the output of imos' NumberLink solver ({counts} drawn answer{'s' if counts != 1 else ''} "
                         "with '# of solutions' counts), not a puzzle", line=1)


def _as_json_problem(text: str | bytes) -> ParseError | None:
    """For text that failed to parse and opens like JSON (``{`` or ``[``, which a grid row may
    also do): what is wrong with it as JSON, since no Numberlink format is JSON."""
    try:
        whole = as_text(text)
    except (TypeError, ValueError):
        return None
    body = whole.lstrip("\ufeff \t\r\n")
    after = body[1:].lstrip()[:1]  # what follows the opening bracket: a JSON key or value starts so
    if not ((body.startswith("{") and after in ('"', "}")) or (body.startswith("[") and after and after in '{["]-0123456789')):
        return None
    try:
        json.loads(body)
    except json.JSONDecodeError as error:
        skipped = whole[: len(whole) - len(body)]  # the blank lines before the JSON keep their numbers
        return ParseError(f"JSON that does not parse: {error.msg}", line=error.lineno + skipped.count("\n"), column=error.colno)
    except RecursionError:  # (json's decoder recurses once per nested bracket)
        return ParseError("JSON nested too deeply, and no Numberlink format is JSON", line=1)
    return ParseError("JSON is not a Numberlink format (a Roller level set holds levels with rows and a start)")
