"""Reading the command line's inputs: files, folders (read recursively), standard input and
puzzle URLs; pairing answer files with puzzles (``verify --answers``); and loading the puzzles
of one input through its family's record (``Family.load``), the family found by
``--family``, the file ending, the ``--format`` named, or the content (:mod:`puzzlesat.registry`).
Nothing here names a family.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from ..errors import ParseError, PuzzlesatError
from ..family import Family
from ..registry import detect_family, families, family_for_format, family_for_path, get_family
from ..textio import MAX_INPUT_BYTES, UTF16_BOMS, as_text, read_bytes, utf16_without_bom
from ..timing import Deadline

SKIPPED_NAMES = ("readme", "source", "license", "licence", "copying")  # a file name up to its first ".", "-" or "_", any case
SKIPPED_SUFFIXES = (".md", ".py", ".png", ".svg", ".pdf", ".zip", ".gz", ".tsx", ".js.map")
FLAG = "--max-input-bytes"  # what raises the input limit, named in its error
WEB_PREFIXES = ("http://", "https://")


def is_puzzle_url(source: str) -> bool:
    """Whether ``source`` is a puzzle URL some family reads as it stands: a family with the
    "url" capability detects it as a format named (or aliased) "url"."""
    if "\n" in source or len(source) > 100_000:
        return False
    for family in families():
        if "url" not in family.capabilities:
            continue
        fmt = family.detect_format(source)
        if any(f.name == fmt and "url" in (f.name, *f.aliases) for f in family.formats):
            return True
    return False


def is_url(source: str) -> bool:
    """A web address, or a puzzle URL a family's format reads as it stands (not a file)."""
    return source.lower().startswith(WEB_PREFIXES) or is_puzzle_url(source)


def expand_paths(paths: Sequence[str]) -> Iterator[str]:
    """Files named, and every file inside folders named (sorted, recursively)."""
    for source in paths:
        if is_url(source) or not os.path.isdir(source):
            yield source
            continue
        for path in sorted(Path(source).rglob("*")):
            name = path.name.lower()
            if not path.is_file() or name.startswith(".") or _is_skipped_name(name) or name.endswith(SKIPPED_SUFFIXES):
                continue
            yield str(path)


def _is_skipped_name(name: str) -> bool:
    """Whether a file found in a folder is a data set's notes by its (lower-case) name: README,
    SOURCE.txt, LICENSE-MIT and the like, but not a puzzle file that merely starts so.

    >>> [_is_skipped_name(n) for n in ("readme.md", "source.txt", "license-mit", "copying", "sources.txt", "readme2.nl")]
    [True, True, True, True, False, False]
    """
    return re.split(r"[.\-_]", name, maxsplit=1)[0] in SKIPPED_NAMES


def files_in_folders(paths: Sequence[str]) -> set[str]:
    """The files :func:`expand_paths` finds inside the folders named (not the files named)."""
    return set(expand_paths([path for path in paths if not is_url(path) and os.path.isdir(path)]))


def answer_files(sources: Sequence[str], answers: str) -> dict[str, str]:
    """``--answers``: the stated-answer file of each puzzle file (a family with answer files). ``answers`` is a
    file (then there must be one puzzle file, not itself, or one puzz.link URL) or a folder,
    read recursively, where the answer to ``.../Q04.txt`` is a file of the same name, or else one
    named ``...A04.txt`` (any prefix, the same number and ending: ``A04.2016.txt`` answers
    ``Q04.2016.txt``, ``T99_A01.txt`` answers ``NL_Q01.txt``; without a number, the same name with
    ``A`` for ``Q``: ``sample_A.txt`` answers ``sample_Q.txt``), as in the ADC sets; of several
    such files, the one in the puzzle's own folder. A source with no answer is left out of the map; a puzzle that
    several answer files could answer, or an answer file several puzzles would share, raises a
    ParseError naming them.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> for name in ("A04.txt", "A05.2016.txt", "Q07.txt"):
    ...     _ = (folder / name).write_text("")
    >>> found = answer_files(["Q/Q04.txt", "Q/Q05.2016.txt", "Q/Q06.txt", "Q/Q07.txt"], str(folder))
    >>> {Path(k).name: Path(v).name for k, v in found.items()}
    {'Q04.txt': 'A04.txt', 'Q05.2016.txt': 'A05.2016.txt', 'Q07.txt': 'Q07.txt'}
    """
    files = [source for source in sources if not is_url(source)]
    if not os.path.isdir(answers):
        if not os.path.exists(answers):
            raise ParseError("no such file or folder", source=answers)
        if len(sources) != 1:  # (a puzz.link URL is a puzzle too: one URL, one answer file)
            raise ParseError(f"one answer file for {len(sources)} puzzle files: give a folder of answers, paired by name", source=answers)
        if files and os.path.realpath(files[0]) == os.path.realpath(answers):
            raise ParseError("the answer file is the puzzle file itself", source=answers)
        return {sources[0]: answers}
    candidates: dict[str, str] = {}  # real path -> the path as found (one entry for two paths to one file)
    for path in expand_paths([answers]):
        candidates.setdefault(os.path.realpath(path), path)
    by_name: dict[str, list[str]] = {}  # file name -> real paths
    by_number: dict[tuple[str, str], list[str]] = {}  # ("04", ".2016.txt") -> real paths of ...A04.2016.txt
    for real, path in candidates.items():
        by_name.setdefault(os.path.basename(path), []).append(real)
        lettered_name = re.fullmatch(r".*[Aa](\d+)(\D.*)?", os.path.basename(path))
        if lettered_name:
            by_number.setdefault((lettered_name.group(1), lettered_name.group(2) or ""), []).append(real)
    being_verified = {os.path.realpath(source) for source in files}
    found: dict[str, str] = {}
    for source in files:
        name = os.path.basename(source)
        folder = os.path.dirname(os.path.realpath(source))
        # a file of the same name answers it only when it is not a puzzle being verified itself
        same = [real for real in by_name.get(name, []) if real not in being_verified]
        numbered = re.fullmatch(r"(.*)[Qq](\d+)(\D.*)?", name)
        lettered = by_number.get((numbered.group(2), numbered.group(3) or ""), []) if numbered else []
        unnumbered = re.fullmatch(r"(.*[^A-Za-z]|)([Qq])([^A-Za-z0-9].*)", name)  # sample_Q.txt -> sample_A.txt
        if unnumbered:
            answer_name = unnumbered.group(1) + ("A" if unnumbered.group(2) == "Q" else "a") + unnumbered.group(3)
            lettered = lettered + by_name.get(answer_name, [])
        same_beside = [real for real in same if os.path.dirname(real) == folder]
        lettered_beside = [real for real in lettered if os.path.dirname(real) == folder]
        for tier in (same_beside, lettered_beside, same, lettered):  # the answer beside its puzzle first
            if len(tier) > 1:
                raise ParseError(f"{source} could be answered by {' or '.join(candidates[real] for real in tier)}: "
                                 "give the answer file itself", source=answers)
            if tier:
                found[source] = candidates[tier[0]]
                break
    shared: dict[str, list[str]] = {}
    for source, answer in found.items():
        shared.setdefault(os.path.realpath(answer), []).append(source)
    for answer, sharing in shared.items():
        if len(sharing) > 1:
            raise ParseError(f"{' and '.join(sharing)} would share one answer file: give each its own", source=answer)
    return found


def answer_table(path: str, *, max_bytes: int | None = None) -> tuple[Family, dict[str, str]] | None:
    """``--answers`` naming one file of answers to many puzzles, matched by puzzle name: the
    family it answers and its table (name -> answer text), or None for anything else (an answer
    file of one puzzle, or a folder). A family reads such tables with its ``answer_table`` verb."""
    if is_url(path) or not os.path.isfile(path):
        return None
    text = read_source(path, max_bytes=max_bytes)
    for family in families():
        table = family.answer_table(text, path) if family.answer_table is not None else None
        if table is not None:
            return family, table
    return None


def answers_without_puzzle(sources: Sequence[str], answers: str, found: dict[str, str]) -> list[str]:
    """``--answers``: the files of an answer folder that no puzzle file pairs with (``found`` is
    :func:`answer_files`' map) and that are not puzzles being verified themselves. An answer
    file given on its own always pairs.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> for name in ("A04.txt", "A09.txt"):
    ...     _ = (folder / name).write_text("")
    >>> sources = ["Q/Q04.txt"]
    >>> [Path(path).name for path in answers_without_puzzle(sources, str(folder), answer_files(sources, str(folder)))]
    ['A09.txt']
    """
    if not os.path.isdir(answers):
        return []
    taken = {os.path.realpath(path) for path in [*found.values(), *sources] if not is_url(path)}
    left: dict[str, str] = {}  # real path -> the path as found (one entry for two paths to one file)
    for path in expand_paths([answers]):
        if os.path.realpath(path) not in taken:
            left.setdefault(os.path.realpath(path), path)
    return list(left.values())


def read_source(source: str, *, max_bytes: int | None = None) -> str:
    """The text of a file (or the URL itself), with clear errors for missing or binary files;
    at most ``max_bytes`` (``--max-input-bytes``; default :data:`puzzlesat.textio.MAX_INPUT_BYTES`)."""
    limit = MAX_INPUT_BYTES if max_bytes is None else max_bytes
    if is_url(source):
        if not is_puzzle_url(source):
            raise ParseError("web addresses are not fetched: download the file first "
                             "(puzzle URLs a family reads, such as puzz.link's, are read as they stand)", source=source)
        return source
    if source == "-":  # standard input
        data = sys.stdin.buffer.read(limit + 1)
        if len(data) > limit:
            raise ParseError(f"input larger than the {limit} bytes accepted (the input limit: raise it with {FLAG})",
                             source=source)
    else:
        if os.path.isdir(source):
            raise ParseError("not a puzzle file: a folder", source=source)
        data = read_bytes(source, max_bytes=limit, raise_with=FLAG)
    if b"\x00" in data and not data.startswith(UTF16_BOMS):  # (UTF-16 text has NUL bytes)
        order = utf16_without_bom(data)
        if order is not None:
            raise ParseError(f"UTF-16 ({order}-endian) text without a byte order mark: save it as UTF-8, "
                             "or as UTF-16 with a byte order mark", source=source)
        raise ParseError("binary data (NUL byte), not a puzzle text", source=source)
    return as_text(data)


def named_family(source: str, *, family: str | None = None, fmt: str | None = None) -> Family | None:
    """The family ``--family``, the file ending or the ``--format`` named names, if any."""
    if family:
        return get_family(family)
    path = "" if is_url(source) else source
    return family_for_path(path) or (family_for_format(fmt) if fmt else None)


def pick_family(text: str, source: str, *, family: str | None = None, fmt: str | None = None) -> Family:
    """``--family``, else the file ending, else the one family that reads the ``--format``
    named, else the content (a ParseError naming every family tried when none claims it)."""
    return named_family(source, family=family, fmt=fmt) or detect_family(text, "" if is_url(source) else source)


def family_options(family: Family, values: Mapping[str, Any] | Any) -> dict[str, Any]:
    """The family's options (``Family.options``) as its verbs take them, from the parsed
    command line (a Namespace) or a mapping; an option not given keeps the family's default."""
    get = values.get if isinstance(values, Mapping) else (lambda name, default: getattr(values, name, default))
    chosen = {}
    for option in family.options:
        value = get(option.name, None)
        chosen[option.name] = option.default if value is None else value
    method = get("method", None)
    if method is not None and method in (m.name for m in family.methods):  # (another family's method: not this one's)
        chosen["method"] = method
    return chosen


def load_items(source: str, *, family: str | None = None, fmt: str | None = None,
               options: Mapping[str, Any] | Any = None, max_bytes: int | None = None,
               time_limit: float | None = None) -> tuple[Family, list[Any]]:
    """The family and puzzles of one input (``Family.load``; at most ``max_bytes`` read, see
    :func:`read_source`); a ParseError raised here carries ``.family`` (the family the input
    was read as, or the best guess when it could not be read), so error records still name it.
    ``time_limit`` (seconds, each puzzle's, counted from here for the first): a family with the
    "read-deadline" capability stops reading a puzzle that takes longer (TimeLimitReached)."""
    deadline = Deadline.of(time_limit)
    try:
        text = read_source(source, max_bytes=max_bytes)
    except ParseError as exc:
        exc.family = named_family(source, family=family, fmt=fmt)  # type: ignore[attr-defined]
        raise
    try:
        chosen = pick_family(text, source, family=family, fmt=fmt)
    except ParseError as exc:
        unclaimed = exc if exc.source else exc.with_source(source)
        unclaimed.family = None  # type: ignore[attr-defined]
        raise unclaimed from None
    try:
        if fmt and fmt not in chosen.format_names():
            raise ParseError(f"unknown format {fmt!r} for {chosen.name} puzzles (one of {', '.join(chosen.format_names())})")
        clock = {"deadline": deadline} if "read-deadline" in chosen.capabilities and deadline.time_limit is not None else {}
        items = chosen.load(text, source=source, fmt=fmt, options=family_options(chosen, options or {}), **clock)
        if not items:
            raise ParseError("no puzzle found in the input", source=source)
    except ParseError as exc:
        error = exc if exc.source else exc.with_source(source)
    except PuzzlesatError as exc:
        error = ParseError(str(exc), source=source)
    else:
        return chosen, list(items)
    error.family = chosen  # type: ignore[attr-defined]
    try:
        raise error
    finally:
        del error  # (a local naming the exception would hold its traceback, this frame among it: a cycle
        # that only the garbage collector frees, late, with everything a reader made before it stopped)


def one_puzzle(args: Any, *, verb: str) -> tuple[Family, int, Any] | None:
    """The one puzzle of ``args.input`` a command works on (``--index``, from 0), or None after
    an error line on standard error: the input cannot be read, holds no such puzzle, or that
    puzzle is unreadable. An input of several puzzles without ``--index``: ``render`` draws the
    first and says so, ``export`` asks for ``--index``."""
    try:
        family, items = load_items(args.input, family=getattr(args, "family", None), fmt=getattr(args, "fmt", None), options=args,
                                   max_bytes=getattr(args, "max_input_bytes", None))
    except ParseError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return None
    if args.index is None and len(items) > 1:
        if verb != "render":
            print(f"error: {args.input} holds {len(items)} puzzles: choose one with --index", file=sys.stderr)
            return None
        print(f"note: {args.input} holds {len(items)} puzzles; drawing #0 (choose with --index)", file=sys.stderr)
    index = args.index or 0
    if not 0 <= index < len(items):
        print(f"error: no puzzle #{index} in {args.input} (it holds {len(items)})", file=sys.stderr)
        return None
    if isinstance(items[index], ParseError):
        print(f"error: {items[index]}", file=sys.stderr)
        return None
    return family, index, items[index]
