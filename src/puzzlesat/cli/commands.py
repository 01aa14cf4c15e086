"""The commands ``solve``, ``verify`` and ``render`` (``bench``: .bench): each loops over its inputs,
asks the puzzle's family (its :class:`~puzzlesat.family.Family` record) for a record, prints it
(:mod:`.output`) and returns the exit status. Nothing here names a family.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from typing import Any, Iterator

from ..batch import Job
from ..batch.execute import execute
from ..batch.jobs import sorted_options
from ..errors import CannotExpress, NotAPuzzle, ParseError
from ..family import Family, Objective
from ..registry import families
from .batching import Slot, interrupted, records
from .certificates import proof_of
from .inputs import answer_files, answer_table, answers_without_puzzle, expand_paths, family_options, files_in_folders, is_url, load_items, one_puzzle, read_source
from .output import Progress, caption, emit, error_record, output_problem, save_picture, skipped_record, unread_record


# Ctrl-C raises KeyboardInterrupt as usual, and is also noted here: when it lands inside a
# finaliser (a pipe closed after a solver process ends), Python prints "Exception ignored" and
# goes on, and the batch loops check the note after each puzzle, so the run still stops.
INTERRUPT = threading.Event()


def note_interrupt(signum: int, frame: object) -> None:
    INTERRUPT.set()
    raise KeyboardInterrupt


def stop_if_interrupted() -> None:
    """Raise KeyboardInterrupt when a Ctrl-C was swallowed on its way (see ``INTERRUPT``)."""
    if INTERRUPT.is_set():
        raise KeyboardInterrupt


def load(args: argparse.Namespace, source: str) -> tuple[Family, list[Any]]:
    """The family and puzzles of one input, each puzzle's reading within ``--time-limit``."""
    return load_items(source, family=getattr(args, "family", None), fmt=getattr(args, "fmt", None), options=args,
                      max_bytes=getattr(args, "max_input_bytes", None), time_limit=getattr(args, "time_limit", None))


def verb_options(family: Family, verb: str, args: argparse.Namespace) -> dict[str, Any]:
    """The family's options for ``verb`` from the command line (verify's answers and
    allow-multiple among them, and ``explain`` for a family that can say its steps)."""
    options = family_options(family, args)
    if getattr(args, "explain", False) and "explain" in family.capabilities:
        options["explain"] = True
    if verb == "verify":
        options["answers"] = getattr(args, "answers", None)
        if family.objective is Objective.UNIQUE:
            options["allow_multiple"] = bool(getattr(args, "allow_multiple", False))
    return options


def slot_of(family: Family, verb: str, item: Any, source: str, index: int, args: argparse.Namespace, *,
            answer: tuple[str, str] | None = None) -> Slot:
    """The batch engine's job for one puzzle (as :func:`run_one` would run it), the puzzle kept
    to print its record; a puzzle that could not be read is its error record."""
    if isinstance(item, ParseError):
        return Slot(record=unread_record(family, source, index, item), extra=item)
    try:
        job = Job.of(family, verb, item, source=source, index=index, options=verb_options(family, verb, args),
                     time_limit=args.time_limit, answer=answer, proof=proof_of(args, source, index))
    except CannotExpress:  # (no text of its family holds it: it runs here, in its turn)
        return Slot(make=lambda: run_one(family, verb, item, source, index, args, answer=answer), extra=item)
    return Slot(job=job, extra=item)


def run_one(family: Family, verb: str, item: Any, source: str, index: int, args: argparse.Namespace, *,
            answer: tuple[str, str] | None = None) -> dict[str, Any]:
    """Apply a family verb to one puzzle in this process, as the batch engine runs a job
    (:func:`puzzlesat.batch.execute`: any failure an error record, never a traceback), with
    its certificate under ``--proof``. ``answer``: a stated answer ``(source, text)`` to check
    as well (``verify --answers``)."""
    if isinstance(item, ParseError):
        return unread_record(family, source, index, item)
    start = time.perf_counter()
    job = Job(family.name, verb, source=source, index=index, options=sorted_options(verb_options(family, verb, args)),
              time_limit=args.time_limit, answer=answer, proof=proof_of(args, source, index), puzzle=item)
    record = execute(job)  # (with --proof DIR, the certificate too)
    record["seconds"] = round(time.perf_counter() - start, 4)
    return record


def note_unused_options(args: argparse.Namespace, families_read: set[str]) -> None:
    """Say on standard error which family options were given while no puzzle of their
    families was read (they were ignored silently otherwise)."""
    owners: dict[str, tuple[str, list[str]]] = {}  # option name -> (flag, families)
    for family in families():
        for option in family.options:
            owners.setdefault(option.name, (option.flag, []))[1].append(family.name)
    if getattr(args, "method", None) is not None:
        owners["method"] = ("--method", [f.name for f in families() if args.method in (m.name for m in f.methods)])
    if getattr(args, "answers", None) is not None:
        owners["answers"] = ("--answers", [f.name for f in families() if "answer-files" in f.capabilities or f.answer_table])
    if getattr(args, "explain", False):
        owners["explain"] = ("--explain", [f.name for f in families() if "explain" in f.capabilities])
    if getattr(args, "allow_multiple", False):
        owners["allow_multiple"] = ("--allow-multiple", [f.name for f in families() if f.objective is Objective.UNIQUE])
    for name, (flag, names) in owners.items():
        value = getattr(args, name, None)
        if value not in (None, False) and not families_read.intersection(names):
            print(f"note: {flag} applies to {' and '.join(names)} puzzles, and none was read: it was not used", file=sys.stderr)


def command_solve(args: argparse.Namespace) -> int:
    families_read: set[str] = set()
    slots: list[Slot] = []
    for source in args.inputs:
        try:
            family, items = load(args, source)
        except ParseError as exc:
            slots.append(Slot(record=unread_record(getattr(exc, "family", None), source, None, exc), extra=(None, None, 1)))
            continue
        families_read.add(family.name)
        chosen = range(len(items)) if args.index is None else [args.index]
        for index in chosen:
            if not 0 <= index < len(items):
                slots.append(Slot(record=error_record(family, source, index, f"no puzzle #{index} (the input holds {len(items)})"),
                                  extra=(family, None, len(items))))
                continue
            slot = slot_of(family, "solve", items[index], source, index, args)
            slot.extra = (family, items[index], len(items))
            slots.append(slot)
    progress = Progress(sum(slot.record is None for slot in slots), label="solve")
    ok = True
    finished = 0
    try:
        for slot, record in records(args, slots, on_progress=progress.engine):
            family, item, count = slot.extra
            ok &= record["status"] == "solved"
            progress.close()
            emit(record, json_lines=args.json, family=family, item=item, verb="solve", puzzles_in_source=count)
            finished += 1
            stop_if_interrupted()
    except KeyboardInterrupt:
        return interrupted(progress, finished, args)
    progress.close()
    note_unused_options(args, families_read)
    return 0 if ok else 1


def _answer_families(kind: str) -> str:
    if kind == "files":
        names = [f.name.capitalize() for f in families() if "answer-files" in f.capabilities]
    else:
        names = [f.name.capitalize() for f in families() if f.answer_table is not None]
    return " and ".join(names) or "no family's"


def command_verify(args: argparse.Namespace) -> int:
    started = time.perf_counter()  # (the summary's seconds count reading the files too)
    sources = list(expand_paths(args.paths))
    answers: dict[str, str] = {}
    unpaired_answers: list[str] = []
    table = answer_table(args.answers, max_bytes=args.max_input_bytes) if args.answers is not None else None
    if table is not None:  # one file answers many puzzles, by name: every puzzle is checked against it
        sources = [source for source in sources if is_url(source) or os.path.realpath(source) != os.path.realpath(args.answers)]
        answers = {source: args.answers for source in sources}
    elif args.answers is not None:
        answers = answer_files(sources, args.answers)
        unpaired_answers = answers_without_puzzle(sources, args.answers, answers)
        used = {os.path.realpath(path) for path in answers.values()}
        sources = [source for source in sources if is_url(source) or os.path.realpath(source) not in used]
    in_folders = files_in_folders(args.paths)
    loaded: list[tuple[str, Family | None, list[Any] | ParseError]] = []
    skipped: set[str] = set()  # files found in folders that are not puzzles (named ones are errors)
    for source in sources:
        try:
            family, items = load(args, source)
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
    progress = Progress(total, label="verify")  # (drawn from the engine's progress: done / total, rate, ETA)
    counts: dict[str, int] = {}
    failed = 0
    unanswered = 0  # puzzles no stated answer pairs with (--answers)
    named: set[str] = set()  # the names of an answer table's entries that puzzles were checked against
    slots: list[Slot] = []
    for source, family, items in loaded:
        if source in skipped:
            assert isinstance(items, NotAPuzzle)
            slots.append(Slot(record=skipped_record(family, source, items.message), extra=(family, None, 1, True)))
            continue
        for item, slot in _verify_records(args, source, family, items, answers.get(source), table, named):
            slot.extra = (family, item, len(items) if isinstance(items, list) else 1, False)
            slots.append(slot)
    finished = 0
    try:
        for slot, record in records(args, slots, on_progress=progress.engine):
            family, item, count, skip = slot.extra
            progress.close()  # (the record's line is not printed on the bar's; the engine's progress draws it again)
            emit(record, json_lines=args.json, family=family, item=item, verb="verify", puzzles_in_source=count)  # as soon as it is made
            finished += 1
            if skip:
                continue
            counts[record["status"]] = counts.get(record["status"], 0) + 1
            stated = record.get("stated_answer")  # (one the puzzle's own file states has source None)
            unanswered += args.answers is not None and record["status"] != "error" and (
                stated is None or stated.get("source") is None)
            passed = record["status"] != "error" and family is not None and family.passed(record)
            failed += not passed
            stop_if_interrupted()
    except KeyboardInterrupt:
        return interrupted(progress, finished, args)
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


def _verify_records(args: argparse.Namespace, source: str, family: Family | None, items: list[Any] | ParseError,
                    answer_path: str | None, table: tuple[Family, dict[str, str]] | None,
                    named: set[str]) -> Iterator[tuple[Any, Slot]]:
    """(puzzle, slot) of each puzzle ``verify`` checks in one input (``--index``: that one
    only): its job, or its record when there is nothing to run; ``answer_path``: the answer file
    or table paired with it."""
    if isinstance(items, ParseError):
        yield None, Slot(record=unread_record(family, source, None, items))
        return
    assert family is not None
    chosen = range(len(items)) if args.index is None else [args.index]
    for index in chosen:
        if not 0 <= index < len(items):
            yield None, Slot(record=error_record(family, source, index, f"no puzzle #{index} (the input holds {len(items)})"))
        elif answer_path is None:
            yield items[index], slot_of(family, "verify", items[index], source, index, args)
        elif table is not None and family.name != table[0].name:
            yield items[index], Slot(record=error_record(family, source, index, f"--answers {args.answers} holds answers to "
                                             f"{table[0].name} levels, not to {family.name} puzzles"))
        elif table is not None:
            name = getattr(items[index], "name", None)
            text = table[1].get(name) if name is not None else None
            if text:  # (an empty entry: the submitter gave up)
                named.add(name)
            stated = (answer_path, text) if text else None
            yield items[index], slot_of(family, "verify", items[index], source, index, args, answer=stated)
        elif "answer-files" not in family.capabilities:
            yield items[index], Slot(record=error_record(family, source, index, f"--answers checks {_answer_families('files')} answer files "
                                             f"and {_answer_families('tables')} answer tables; a {family.name} level states its own answer in its file"))
        elif len(items) > 1:
            yield items[index], Slot(record=error_record(family, source, index, f"--answers pairs an answer file with a file of one puzzle; this one holds {len(items)}"))
        else:
            try:
                stated = (answer_path, read_source(answer_path, max_bytes=args.max_input_bytes))
            except ParseError as exc:
                yield items[index], Slot(record=error_record(family, source, index, str(exc)))
                continue
            yield items[index], slot_of(family, "verify", items[index], source, index, args, answer=stated)


def _solved_caption(family: Family, record: dict[str, Any]) -> str:
    """What ``render --solution`` adds to the caption: the facts its family proves."""
    if family.objective is Objective.UNIQUE:
        facts = {True: "unique", False: "multiple answers", None: "uniqueness unknown"}[record.get("unique")]
        return f", solved, {facts}"
    count = record.get("moves_count") or 0
    proven = " (proven minimum)" if record.get("optimal") else " (not proven minimal)"
    return f", {count} move{'s' if count != 1 else ''}{proven}"


def command_render(args: argparse.Namespace) -> int:
    problem = output_problem(args.output)
    if problem:  # said before any solving
        print(f"error: {problem}", file=sys.stderr)
        return 2
    chosen = one_puzzle(args, verb="render")
    if chosen is None:
        return 2
    family, index, item = chosen
    note_unused_options(args, {family.name})
    title = caption(args.input, args.index, getattr(item, "name", None) or "", family.size_text(item))
    answer = None
    status = 0
    if args.solution:
        record = run_one(family, "solve", item, args.input, index, args)
        if record["status"] == "error":
            print(f"error: {record['error']}", file=sys.stderr)
            return 2
        if record["status"] == "solved":
            answer = family.answer_of(item, record)
            title += _solved_caption(family, record)
        else:
            why = record["status"] if record["status"] == "unsolvable" else f"unknown ({record.get('reason') or 'time limit'})"
            reason = record.get("reason") if record["status"] == "unsolvable" else None
            rules = f" under {record['rules']} rules" if record.get("rules") else ""
            print(f"no answer drawn: {why}{rules}" + (f": {reason}" if reason else ""), file=sys.stderr)
            status = 1
        for note in record.get("notes") or ():
            print(f"note: {note}", file=sys.stderr)
    written = save_picture(family.render(item, answer, title=title), args.output)
    return written or status
