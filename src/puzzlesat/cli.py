"""The ``puzzlesat`` command: solve, verify, generate, render and bench, for every family.

The family of a file comes from ``--family``, its ending (``.roller``, ``.swap``, ``.nl``) or
its content; each family's ``cli`` module turns its verbs into JSON records, and this module
does the rest the same way for all: reading files and folders, error lines instead of
tracebacks, JSON lines, a progress bar on a terminal, a summary and the exit status.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import stat
import sys
import threading
import time
import traceback
from pathlib import Path
from typing import Any, Iterator, Sequence

from .errors import NotAPuzzle, ParseError, PuzzlesatError, index_argument
from .families import FAMILIES, Family, detect_family, family_for_format, family_for_path, get_family
from .progress import Progress, clear_all
from .textio import UTF16_BOMS, as_text, utf16_without_bom
from .timing import seconds_argument

SKIPPED_NAMES = ("readme", "source", "license", "licence", "copying")  # a file name up to its first ".", "-" or "_", any case
SKIPPED_SUFFIXES = (".md", ".py", ".png", ".svg", ".pdf", ".zip", ".gz", ".tsx", ".js.map")
MAX_FILE_BYTES = 64 * 1024 * 1024


# -- reading inputs ---------------------------------------------------------------------------
def is_url(source: str) -> bool:
    lowered = source.lower()
    return lowered.startswith(("http://", "https://", "p?", "puzz.link/", "pzv.jp/")) or "?numlin/" in lowered or "?arukone/" in lowered


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
    """``--answers``: the stated-answer file of each puzzle file (Numberlink). ``answers`` is a
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


def answer_table(path: str) -> tuple[Family, dict[str, str]] | None:
    """``--answers`` naming one file of answers to many puzzles, matched by puzzle name (Roller:
    a TabTale answer file, ``001.xml,0,1,3``): the family it answers and its table (name ->
    answer), or None for anything else (a Numberlink answer file or folder). A family reads such
    tables when its ``cli`` module has ``answer_table(text, source)``."""
    if is_url(path) or not os.path.isfile(path):
        return None
    text = read_source(path)
    for family in FAMILIES:
        read_table = getattr(family.cli, "answer_table", None)
        table = read_table(text, path) if read_table is not None else None
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


def read_source(source: str) -> str:
    """The text of a file (or the URL itself), with clear errors for missing or binary files."""
    if is_url(source):
        lowered = source.lower()
        if lowered.startswith(("http://", "https://")) and "?numlin/" not in lowered and "?arukone/" not in lowered:
            raise ParseError("web addresses are not fetched: download the file first "
                             "(puzz.link and pzv.jp numlin / arukone puzzle URLs are read as they stand)", source=source)
        return source
    try:
        if source == "-":  # standard input
            data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
            size = len(data)
        else:
            mode = os.stat(source).st_mode
            if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode)):  # a pipe is read like standard input
                kind = "a folder" if stat.S_ISDIR(mode) else "a device or socket"
                raise ParseError(f"not a puzzle file: {kind}", source=source)
            with open(source, "rb") as handle:
                data = handle.read(MAX_FILE_BYTES + 1)  # capped: never read without end
            size = os.path.getsize(source) if stat.S_ISREG(mode) else len(data)
    except OSError as exc:
        raise ParseError(f"cannot read file: {exc.strerror or exc}", source=source) from None
    if size > MAX_FILE_BYTES:
        what = "input" if source == "-" else f"file is {size} bytes,"
        raise ParseError(f"{what} larger than the {MAX_FILE_BYTES} bytes accepted", source=source)
    if b"\x00" in data and not data.startswith(UTF16_BOMS):  # (UTF-16 text has NUL bytes)
        order = utf16_without_bom(data)
        if order is not None:
            raise ParseError(f"UTF-16 ({order}-endian) text without a byte order mark: save it as UTF-8, "
                             "or as UTF-16 with a byte order mark", source=source)
        raise ParseError("binary data (NUL byte), not a puzzle text", source=source)
    return as_text(data)


def pick_family(args: argparse.Namespace, text: str, source: str) -> Family:
    """``--family``, else the file ending (``.nl``, ``.roller``, ``.swap``), else the one family
    that reads the ``--format`` named, else the content."""
    if getattr(args, "family", None):
        return get_family(args.family)
    path = "" if is_url(source) else source
    named = family_for_path(path) or (family_for_format(args.fmt) if getattr(args, "fmt", None) else None)
    return named or detect_family(text, path)


def load_items(args: argparse.Namespace, source: str) -> tuple[Family, list[Any]]:
    """The family and puzzles of one input; a ParseError raised here carries ``.family`` (the
    family the input was read as, or the best guess when it could not be read), so error
    records still hold that family's keys."""
    try:
        text = read_source(source)
    except ParseError as exc:
        exc.family = pick_family(args, "", source)  # type: ignore[attr-defined]
        raise
    family = pick_family(args, text, source)
    try:
        items = family.cli.load(text, source, args)
        if not items:
            raise ParseError("no puzzle found in the input", source=source)
    except ParseError as exc:
        error = exc if exc.source else exc.with_source(source)
    except PuzzlesatError as exc:
        error = ParseError(str(exc), source=source)
    else:
        return family, items
    error.family = family  # type: ignore[attr-defined]
    raise error


# -- records --------------------------------------------------------------------------------
def base_record(family: Family | None, source: str, index: int | None) -> dict[str, Any]:
    return {"family": family.name if family else None, "source": source, "index": index}


def error_record(family: Family | None, source: str, index: int | None, message: str, seconds: float = 0.0) -> dict[str, Any]:
    record = base_record(family, source, index)
    if family is not None:
        record.update(family.cli.blank_record())
    record.update(status="error", error=message, seconds=round(seconds, 4))
    return record


def skipped_record(family: Family | None, source: str, reason: str) -> dict[str, Any]:
    """``verify`` of a folder: a file found in it that is known not to be a puzzle (an answer
    table, a solver's log), with what it is in ``reason``; neither a puzzle nor a failure."""
    record = base_record(family, source, None)
    if family is not None:
        record.update(family.cli.blank_record())
    record.update(status="skipped", reason=reason, error=None, seconds=0.0)
    return record


def run_one(family: Family, verb: str, item: Any, source: str, index: int, args: argparse.Namespace, *,
            answer: str | None = None) -> dict[str, Any]:
    """Apply a family verb to one puzzle; any failure becomes an error record, never a traceback
    (as does a puzzle of a multi-puzzle file that could not be read: its ParseError).
    ``answer``: the file of a stated answer to check as well (Numberlink ``verify --answers``)."""
    if isinstance(item, ParseError):
        return error_record(family, source, index, str(item))
    start = time.perf_counter()
    try:
        make = getattr(family.cli, f"{verb}_record")
        body = make(item, args) if answer is None else make(item, args, answer=answer)
    except (PuzzlesatError, ValueError) as exc:
        if os.environ.get("PUZZLESAT_DEBUG"):
            raise
        return error_record(family, source, index, str(exc), time.perf_counter() - start)
    except Exception as exc:  # an internal bug: report it and go on with the batch
        if os.environ.get("PUZZLESAT_DEBUG"):
            raise
        detail = traceback.format_exception_only(type(exc), exc)[-1].strip()
        return error_record(family, source, index, f"internal error: {detail}", time.perf_counter() - start)
    record = base_record(family, source, index)
    record.update(body)
    record.setdefault("error", None)
    record["seconds"] = round(time.perf_counter() - start, 4)
    return record


def place(record: dict[str, Any], puzzles_in_source: int) -> str:
    """Where a record's puzzle is, for human output: the source, and ``#index`` when the source
    holds more than one puzzle (or the index asked for is not there)."""
    index = record.get("index")
    if index is None or (puzzles_in_source == 1 and index == 0):
        return record["source"]
    return f"{record['source']}#{index}"


def emit(record: dict[str, Any], args: argparse.Namespace, family: Family | None, item: Any, verb: str,
         puzzles_in_source: int = 1) -> None:
    if args.json:
        print(json.dumps(record), flush=True)
        return
    where = place(record, puzzles_in_source)
    if record["status"] == "skipped":
        print(f"{where}: skipped: {record['reason']}", flush=True)
        return
    if record["status"] == "error":
        message = record["error"]
        if message.startswith(record["source"]):  # it names the file (and line) itself
            numbered = where != record["source"]
            print(f"error: {message}" + (f" (puzzle #{record['index']})" if numbered else ""), flush=True)
        else:
            print(f"{where}: error: {message}", flush=True)
        return
    assert family is not None
    print(family.cli.show(item, record, args, verb, where=where, colour=use_colour()), flush=True)


def use_colour() -> bool:
    """ANSI colours on a terminal, never when piped or when NO_COLOR is set (no-color.org)."""
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


# -- commands -------------------------------------------------------------------------------
# Options that only some families read (--family's groups in --help): option -> (flag, families).
FAMILY_OPTIONS = {"allow_empty": ("--allow-empty", ("numberlink",)), "no_self_touch": ("--no-self-touch", ("numberlink",)),
                  "solver": ("--solver", ("numberlink",)), "start": ("--start", ("roller",)), "method": ("--method", ("roller", "swap")),
                  "answers": ("--answers", ("numberlink", "roller"))}  # (a swap level states its own answer)


def note_unused_options(args: argparse.Namespace, families_read: set[str]) -> None:
    """Say on standard error which family options were given while no puzzle of their
    families was read (they were ignored silently: ``--start`` on swap levels, say).

    >>> import contextlib, io
    >>> err = io.StringIO()
    >>> with contextlib.redirect_stderr(err):
    ...     note_unused_options(argparse.Namespace(start="row-major", allow_empty=False), {"swap"})
    >>> err.getvalue()
    'note: --start applies to roller puzzles, and none was read: it was not used\\n'
    """
    for option, (flag, families) in FAMILY_OPTIONS.items():
        if getattr(args, option, None) not in (None, False) and not families_read.intersection(families):
            print(f"note: {flag} applies to {' and '.join(families)} puzzles, and none was read: it was not used", file=sys.stderr)


def command_solve(args: argparse.Namespace) -> int:
    ok = True
    families_read: set[str] = set()
    for source in args.inputs:
        try:
            family, items = load_items(args, source)
        except ParseError as exc:
            emit(error_record(getattr(exc, "family", None), source, None, str(exc)), args, None, None, "solve")
            ok = False
            continue
        families_read.add(family.name)
        chosen = range(len(items)) if args.index is None else [args.index]
        for index in chosen:
            if not 0 <= index < len(items):
                emit(error_record(family, source, index, f"no puzzle #{index} (the input holds {len(items)})"), args, family, None, "solve",
                     len(items))
                ok = False
                continue
            record = run_one(family, "solve", items[index], source, index, args)
            ok &= record["status"] == "solved"
            emit(record, args, family, items[index], "solve", len(items))
            stop_if_interrupted()
    note_unused_options(args, families_read)
    return 0 if ok else 1


def command_verify(args: argparse.Namespace) -> int:
    started = time.perf_counter()  # (the summary's seconds count reading the files too)
    sources = list(expand_paths(args.paths))
    answers: dict[str, str] = {}
    unpaired_answers: list[str] = []
    table = answer_table(args.answers) if args.answers is not None else None
    args.answer_table = table
    if table is not None:  # one file answers many puzzles, by name: every puzzle is checked against it
        sources = [source for source in sources if is_url(source) or os.path.realpath(source) != os.path.realpath(args.answers)]
        answers = {source: args.answers for source in sources}
    elif args.answers is not None:
        answers = answer_files(sources, args.answers)
        unpaired_answers = answers_without_puzzle(sources, args.answers, answers)
        used = {os.path.realpath(path) for path in answers.values()}
        sources = [source for source in sources if is_url(source) or os.path.realpath(source) not in used]
    args.answer_of = answers
    in_folders = files_in_folders(args.paths)
    loaded: list[tuple[str, Family | None, list[Any] | ParseError]] = []
    skipped: set[str] = set()  # files found in folders that are not puzzles (named ones are errors)
    for source in sources:
        try:
            family, items = load_items(args, source)
            loaded.append((source, family, items))
        except ParseError as exc:
            loaded.append((source, getattr(exc, "family", None), exc))
            if isinstance(exc, NotAPuzzle) and source in in_folders:
                skipped.add(source)
    if not sources:
        print(f"error: no puzzle files found in {', '.join(args.paths)}", file=sys.stderr)
        return 1
    note_unused_options(args, {family.name for _, family, items in loaded if family is not None and isinstance(items, list)})
    total = sum((1 if args.index is not None else len(x)) if isinstance(x, list) else 1
                for source, _, x in loaded if source not in skipped)
    progress = Progress(total, label="verify")
    counts: dict[str, int] = {}
    failed = 0
    unanswered = 0  # puzzles no answer file pairs with (--answers)
    named = set()  # the names of an answer table's entries that puzzles were checked against
    for source, family, items in loaded:
        if source in skipped:
            assert isinstance(items, NotAPuzzle)
            emit(skipped_record(family, source, items.message), args, family, None, "verify")
            continue
        for item, record in _verify_records(args, source, family, items):
            counts[record["status"]] = counts.get(record["status"], 0) + 1
            # a puzzle --answers gave no answer to: none stated, or only its own file's
            given = record.get("stated_answer", False)
            unanswered += args.answers is not None and record["status"] not in ("error", "skipped") and (
                bool(record.get("stated_answer_missing")) or given is None
                or (isinstance(given, dict) and given.get("source") is None))
            if isinstance(given, dict) and given.get("source") is not None:
                named.add(given.get("name", record.get("name")))
            passed = record["status"] != "error" and family is not None and family.cli.passed(record)
            failed += not passed
            progress.close()  # (the record's line is not printed on the bar's; advance draws it again)
            emit(record, args, family, item, "verify", len(items) if isinstance(items, list) else 1)  # as soon as it is made
            progress.advance(note=os.path.basename(source))
            stop_if_interrupted()
    progress.close()
    summary = ", ".join(f"{n} {status}" for status, n in sorted(counts.items())) or "none read"
    line = f"{total} puzzle(s) in {len(loaded) - len(skipped)} file(s): {summary}; {total - failed} passed, {failed} failed in {time.perf_counter() - started:.2f}s"
    if skipped:
        line += f"; {len(skipped)} file(s) skipped (not puzzles: answers, logs, tilesets)"
    if table is not None:
        unpaired_answers = [name for name in table[1] if name not in named]
        line += (f"; {unanswered} puzzle(s) with no stated answer, {len(unpaired_answers)} answer(s) of "
                 f"{os.path.basename(args.answers)} naming no puzzle checked")
    elif args.answers is not None:
        line += f"; {unanswered} puzzle(s) with no stated answer, {len(unpaired_answers)} answer file(s) paired with no puzzle"
        if unpaired_answers:
            shown = [os.path.basename(path) for path in unpaired_answers[:5]]
            line += f" ({', '.join(shown)}{', ...' if len(unpaired_answers) > 5 else ''})"
    print(line, file=sys.stderr if args.json else sys.stdout)
    return 0 if failed == 0 and total > 0 else 1


def _verify_records(args: argparse.Namespace, source: str, family: Family | None,
                    items: list[Any] | ParseError) -> Iterator[tuple[Any, dict[str, Any]]]:
    """(puzzle, record) of each puzzle ``verify`` checks in one input (``--index``: that one
    only), made one at a time."""
    if isinstance(items, ParseError):
        yield None, error_record(family, source, None, str(items))
        return
    assert family is not None
    answer = args.answer_of.get(source)
    chosen = range(len(items)) if args.index is None else [args.index]
    for index in chosen:
        if not 0 <= index < len(items):
            yield None, error_record(family, source, index, f"no puzzle #{index} (the input holds {len(items)})")
        elif answer is not None and args.answer_table is not None and family.name != args.answer_table[0].name:
            yield items[index], error_record(family, source, index, f"--answers {args.answers} holds answers to "
                                             f"{args.answer_table[0].name} levels, not to {family.name} puzzles")
        elif answer is not None and args.answer_table is not None:
            yield items[index], run_one(family, "verify", items[index], source, index, args, answer=answer)
        elif answer is not None and family.name != "numberlink":
            yield items[index], error_record(family, source, index, f"--answers checks Numberlink answer files and Roller answer tables; a {family.name} level states its own answer in its file")
        elif answer is not None and len(items) > 1:
            yield items[index], error_record(family, source, index, f"--answers pairs an answer file with a file of one puzzle; this one holds {len(items)}")
        else:
            yield items[index], run_one(family, "verify", items[index], source, index, args, answer=answer)


def command_generate(args: argparse.Namespace) -> int:
    # TEMPORARY (issue #42): the one pack writer, through an adapter the new cli/ package replaces
    from .generate_cli_temporary import command_generate as generate

    return generate(args)


def command_render(args: argparse.Namespace) -> int:
    from .scene import output_problem

    problem = output_problem(args.output)
    if problem:  # said before any solving
        print(f"error: {problem}", file=sys.stderr)
        return 2
    try:
        family, items = load_items(args, args.input)
    except ParseError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    index = args.index or 0
    if not 0 <= index < len(items):
        print(f"error: no puzzle #{index} in {args.input} (it holds {len(items)})", file=sys.stderr)
        return 2
    if args.index is None and len(items) > 1:
        print(f"note: {args.input} holds {len(items)} puzzles; drawing #0 (choose with --index)", file=sys.stderr)
    if isinstance(items[index], ParseError):
        print(f"error: {items[index]}", file=sys.stderr)
        return 2
    note_unused_options(args, {family.name})
    return family.cli.render(items[index], args)


def _benchmark_runner():
    """The ``benchmarks`` runner of this source checkout (it is not installed with the package)."""
    import importlib

    root = Path(__file__).resolve().parents[2]
    for folder in (root, Path.cwd()):
        if (folder / "benchmarks" / "__main__.py").exists() and str(folder) not in sys.path:
            sys.path.insert(0, str(folder))
    try:
        runner = importlib.import_module("benchmarks.__main__")
    except ImportError:
        return None
    return runner if hasattr(runner, "run_from_args") else None


def command_bench(args: argparse.Namespace) -> int:
    runner = _benchmark_runner()
    if runner is None:
        print("error: puzzlesat bench runs the benchmarks/ folder of a source checkout; none found "
              "(run it from the checkout, or use python -m benchmarks there)", file=sys.stderr)
        return 2
    unknown = [name for name in args.only or () if name not in runner.MODULES]
    if unknown:
        print(f"error: unknown benchmark module(s) {', '.join(unknown)} (known: {', '.join(runner.MODULES)})", file=sys.stderr)
        return 2
    return runner.run_from_args(args)


# -- argument parsing -----------------------------------------------------------------------
EXAMPLES = {
    "solve": "example: puzzlesat solve 'p?numlin/5/5/1j2h3m1h2j3' --json",
    "verify": "example: puzzlesat verify examples/ --time-limit 10",
    "generate": "example: puzzlesat generate numberlink --size 10x10 --count 5 --seed 1 --out pack.txt",
    "render": "example: puzzlesat render puzzle.txt --solution -o answer.svg",
    "bench": "example: puzzlesat bench --quick --out /tmp/bench",
}


def add_common_options(p: argparse.ArgumentParser, *, json_lines: bool = True) -> None:
    p.add_argument("--family", choices=[f.name for f in FAMILIES], help="puzzle family (default: from the file ending or content)")
    p.add_argument("--format", dest="fmt", help="input format (default: detected); see each family's docs")
    p.add_argument("--index", type=index_argument, help="only the puzzle at this position in a multi-puzzle file (from 0)")
    p.add_argument("--time-limit", type=seconds_argument, default=None, metavar="S", help="seconds allowed per puzzle (then: unknown)")
    if json_lines:
        p.add_argument("--json", action="store_true", help="print one JSON object per puzzle")
    nl = p.add_argument_group("numberlink rules")
    nl.add_argument("--allow-empty", action="store_true", help="cells may stay empty (Nikoli / ADC rules)")
    nl.add_argument("--no-self-touch", action="store_true", help="a path may not run beside itself")
    nl.add_argument("--solver", default=None, help="SAT back-end by pysat name (default cadical195; Glucose heeds --time-limit only between its restarts)")
    mv = p.add_argument_group("roller and swap")
    mv.add_argument("--start", choices=["bottom-left", "row-major"], default=None, help="roller start for files that store none: TabTale TMX default bottom-left (leftmost column, bottom-most floor), row-major = first floor cell in reading order")
    mv.add_argument("--method", default=None, help="solver method: exact (each family's default) or astar (roller: exact A*; swap: the capped baseline); "
                                                   "roller also auto, flow, time-indexed, dfs; swap also search, cpsat")


def installed_versions() -> list[str]:
    """The versions that matter for what puzzlesat answers and how fast: its own, its solver
    libraries' and Python's, e.g. ``['puzzlesat 0.1.0', 'python-sat 1.9', ..., 'Python 3.11.7']``
    (a library missing is left out). ``puzzlesat --version`` prints them; each benchmark's
    ``.run.json`` records them."""
    from importlib import metadata
    from platform import python_version

    from . import __version__

    found = [f"puzzlesat {__version__}"]
    for name in ("python-sat", "ortools", "networkx", "numpy", "scipy"):
        try:
            found.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            continue
    return [*found, f"Python {python_version()}"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="puzzlesat",
        description="Solve, certify and generate grid logic puzzles (Numberlink, Roller, Swap) with SAT.",
        epilog="example: puzzlesat verify examples/",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=", ".join(installed_versions()),
                        help="print puzzlesat's version and those of its solver libraries, then exit")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("solve", help="solve puzzles and print the answers", epilog=EXAMPLES["solve"])
    p.add_argument("inputs", nargs="+", metavar="FILE_OR_URL")
    add_common_options(p)
    p.set_defaults(run=command_solve)

    p = sub.add_parser("verify", help="check puzzle sets: solvable, unique / proven minimum, seconds", epilog=EXAMPLES["verify"])
    p.add_argument("paths", nargs="+", metavar="PATH", help="files, folders (read recursively) or URLs")
    add_common_options(p)
    p.add_argument("--answers", metavar="PATH", default=None,
                   help="check stated answers too. numberlink: an answer file (for one puzzle file) or a folder of them, "
                        "paired by name (the same name, or A04.txt for Q04.txt); ADC and native answer grids. "
                        "roller: a TabTale answer file (001.xml,seconds,1,3,...), paired with levels by file name")
    p.add_argument("--allow-multiple", action="store_true",
                   help="numberlink: a solved puzzle passes whether or not its answer is unique (contest sets of routing "
                        "problems); uniqueness is still decided and reported")
    p.set_defaults(run=command_verify)

    p = sub.add_parser("generate", help="generate certified puzzles", epilog=EXAMPLES["generate"])
    gen = p.add_subparsers(dest="family", required=True)
    from . import generate_cli_temporary, registry  # TEMPORARY (issue #42): flags from each Family record

    for record in registry.families():
        generate_cli_temporary.add_generate_arguments(gen.add_parser(record.name, help=f"generate {record.name} puzzles"), record)
    p.set_defaults(run=command_generate)

    p = sub.add_parser("render", help="draw a puzzle (and its answer) as SVG or PNG", epilog=EXAMPLES["render"])
    p.add_argument("input", metavar="FILE_OR_URL")
    p.add_argument("-o", "--output", required=True, help="out.svg or out.png (PNG needs matplotlib)")
    p.add_argument("--solution", action="store_true", help="solve first and draw the answer")
    add_common_options(p, json_lines=False)
    p.set_defaults(run=command_render)

    p = sub.add_parser("bench", help="run the benchmarks of every family and write a report with plots", epilog=EXAMPLES["bench"])
    p.add_argument("--quick", action="store_true", help="a small run (default limit 2 s)")
    p.add_argument("--time-limit", type=seconds_argument, default=None, metavar="S", help="seconds per instance and method (default 10, 2 with --quick)")
    p.add_argument("--out", type=Path, default=None, help="folder for rows.jsonl, report.md and plots (default benchmarks/results/latest)")
    p.add_argument("--only", nargs="+", metavar="MODULE", help="run only these benchmark modules (numberlink, roller, swap, numberlink_vs_search, generators, roller_generate, multilayer_generators)")
    p.add_argument("--module-budget", type=seconds_argument, default=None, metavar="S", help="wall seconds per module, then it is stopped and its rows kept (default: none; 420 with --quick)")
    p.add_argument("--in-process", action="store_true", help="run the modules in this process (no budget; for debugging)")
    p.set_defaults(run=command_bench)
    return parser


def bad_option_value(args: argparse.Namespace) -> str | None:
    """A ``--format``, ``--method`` or ``--solver`` value no family knows, said once before any
    puzzle is read (the family modules are imported only when such an option is given)."""
    if getattr(args, "fmt", None) is not None and args.command in ("solve", "verify", "render"):
        from .numberlink.formats import FORMATS as NUMBERLINK_FORMATS
        from .numberlink.multilayer.formats import FORMATS as LAYERED_FORMATS
        from .roller.formats import FORMATS as ROLLER_FORMATS
        from .roller.formats import normalise_format

        try:
            normalise_format(args.fmt)  # Roller's names and their aliases (tabtale, json, ...)
        except ValueError:
            if args.fmt not in (*NUMBERLINK_FORMATS, *LAYERED_FORMATS, "swap"):
                known = sorted({*NUMBERLINK_FORMATS, *LAYERED_FORMATS, *ROLLER_FORMATS, "swap"})
                return f"argument --format: unknown format {args.fmt!r} (one of {', '.join(known)})"
    if getattr(args, "method", None) is not None and args.command in ("solve", "verify", "render"):
        from .roller.solve import METHODS as ROLLER_METHODS
        from .swap.solve import METHODS as SWAP_METHODS

        known = sorted({*ROLLER_METHODS, *SWAP_METHODS, "exact"})
        if args.method not in known:
            return f"argument --method: unknown method {args.method!r} (roller: {', '.join(ROLLER_METHODS)}; swap: exact, {', '.join(SWAP_METHODS)})"
    if getattr(args, "solver", None) is not None:
        from .sat.solver import UnknownSolver, check_solver_name

        try:
            check_solver_name(args.solver)
        except UnknownSolver as error:
            return f"argument --solver: {error}"
    return None


def joined_dash_values(argv: Sequence[str]) -> list[str]:
    """``--size -3x5`` as ``--size=-3x5``: argparse takes a value starting with ``-`` (and not a
    plain negative number) for an option, and says only "expected one argument"; joined, the
    option's own check says what is wrong with the value.

    >>> joined_dash_values(["generate", "roller", "--size", "-3x5", "--moves", "-2-4", "--seed", "-1"])
    ['generate', 'roller', '--size=-3x5', '--moves=-2-4', '--seed', '-1']
    """
    out: list[str] = []
    for token in argv:
        if out and out[-1] in ("--size", "--moves") and re.match(r"-\d", token) and not re.fullmatch(r"-\d+", token):
            out[-1] = f"{out[-1]}={token}"
        else:
            out.append(token)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    try:
        parser = build_parser()  # imports every family's command-line module: most of a second
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    args = parser.parse_args(joined_dash_values(sys.argv[1:] if argv is None else argv))
    if getattr(args, "fmt", None):
        args.fmt = args.fmt.strip().lower()  # format names are lower case; --format ADC is adc
    problem = bad_option_value(args)
    if problem:
        parser.error(problem)  # exit status 2, with the usage line
    INTERRUPT.clear()
    previous = None  # (a SIGINT the process was started to ignore stays ignored)
    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        previous = signal.signal(signal.SIGINT, _note_interrupt)
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        clear_all()  # (not on the line of a progress bar)
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except (PuzzlesatError, OSError) as exc:  # e.g. an unknown --solver, an --out path that cannot be written
        if os.environ.get("PUZZLESAT_DEBUG"):
            raise
        print(f"error: {exc}", file=sys.stderr)
        return 2
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


# Ctrl-C raises KeyboardInterrupt as usual, and is also noted here: when it lands inside a
# finaliser (a pipe closed after a solver process ends), Python prints "Exception ignored" and
# goes on, and the batch loops check the note after each puzzle, so the run still stops.
INTERRUPT = threading.Event()


def _note_interrupt(signum: int, frame: object) -> None:
    INTERRUPT.set()
    raise KeyboardInterrupt


def stop_if_interrupted() -> None:
    """Raise KeyboardInterrupt when a Ctrl-C was swallowed on its way (see ``INTERRUPT``)."""
    if INTERRUPT.is_set():
        raise KeyboardInterrupt


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
