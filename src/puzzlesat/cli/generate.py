"""``puzzlesat generate FAMILY``: certified puzzles written as a pack by the one pack writer
(:mod:`puzzlesat.pack`), for every family alike; the family's own settings come from its
``generate_options`` (and the rules of its ``options``). Without ``--out`` the pack goes to
standard output; ``--json`` prints one record per puzzle instead (``docs/record.schema.json``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from typing import Any

from ..errors import PuzzlesatError
from ..family import Family, Generated
from ..memory import REASON, describe_memory, limited
from ..registry import family_for_path, get_family
from .batching import Slot, records, uses_engine
from .output import Progress


def generate_option_names(family: Family) -> list[str]:
    """The names of the options ``generate FAMILY`` offers: its generate options, then its rules."""
    names: list[str] = []
    for option in (*family.generate_options, *family.options):
        if option.name not in names:
            names.append(option.name)
    return names


def past_limit(args: argparse.Namespace) -> str:
    """What a puzzle that reached ``--memory-limit`` is told."""
    return f"{REASON} of {describe_memory(args.memory_limit)} reached (--memory-limit)"


def command_generate(args: argparse.Namespace) -> int:
    from ..pack import PackError, PackRequest, PackWriter

    family = get_family(args.family)
    named = family_for_path(args.out) if args.out else None
    if named is not None and named.name != family.name:
        # (verify and solve would read the pack as the family its ending names)
        print(f"error: --out {args.out} ends in {', '.join(named.extensions)}, which names {named.name} files; "
              f"give a {family.name} pack another name", file=sys.stderr)
        return 2
    options = {name: getattr(args, name) for name in generate_option_names(family) if getattr(args, name, None) is not None}
    size = "x".join(str(side) for side in args.size) if args.size else ""
    progress = Progress(args.count, label=f"generate {family.name} {size}".rstrip())
    try:
        request = PackRequest(family=family, size=args.size, count=args.count, seed=args.seed, options=options,
                              time_limit=args.time_limit, out=args.out)
        writer = PackWriter(request, on_event=lambda index, note: progress.show(note))
    except (PackError, ValueError) as exc:  # an --out that cannot be resumed, a request the family refuses
        print(f"error: {exc}", file=sys.stderr)
        return 2
    progress.done = min(writer.resumed, args.count)
    if uses_engine(args):
        if writer.folder is None:
            return generate_through_engine(args, writer, progress)
        print(f"note: a {family.name} pack of this size is a folder of puzzle files: it is made in this process, "
              "one puzzle at a time (-j, --store and Dask are not used)", file=sys.stderr)
    status = 0
    bounded = limited(args.memory_limit) if getattr(args, "memory_limit", None) is not None else contextlib.nullcontext()
    try:
        with bounded:  # (made in this process: a draw past the limit raises MemoryError)
            for entry in writer:
                progress.close()  # (a line is never printed on the bar's)
                say(entry, writer, args)
                progress.advance(note=f"{entry.generated.tries} tries")
    except MemoryError:  # the puzzles before stay
        progress.close()
        print(f"error: puzzle {writer.resumed + writer.tally.made}: {past_limit(args)}", file=sys.stderr)
        status = 1
    except KeyboardInterrupt:
        progress.close()
        kept = writer.resumed + writer.tally.made
        drawn = writer.drawn()  # (what the draws of the puzzle being made gave, "" before its first)
        said = f"; puzzle {writer.drawing[0]} had drawn: {drawn}" if drawn and writer.drawing else ""
        print(f"interrupted: {kept} puzzle(s) kept" + (f" in {args.out}" if args.out else "") + said, file=sys.stderr)
        return 130
    except (PackError, OSError, ValueError) as exc:  # a pack that cannot be written, a request refused before drawing
        progress.close()
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except PuzzlesatError as exc:  # the family gave up, or drew only repeats: the puzzles before stay
        progress.close()
        print(f"error: puzzle {writer.resumed + writer.tally.made}: {exc}", file=sys.stderr)
        status = 1
    progress.close()
    print(writer.summary(), file=sys.stderr)
    return status


def say(entry: Any, writer: Any, args: argparse.Namespace) -> None:
    """A written puzzle on standard output: its JSON record (the schema's keys: no error), or
    without ``--out`` its pack text (after the pack's first line, before the first puzzle)."""
    if args.json:
        print(json.dumps({"error": None, **entry.record}), flush=True)
    elif args.out is None:
        first = writer.first_line + "\n" if entry.index == 0 and getattr(writer, "first_line", None) else ""
        print(first + entry.text, end="" if entry.text.endswith("\n") else "\n", flush=True)


def generate_through_engine(args: argparse.Namespace, writer: Any, progress: Progress) -> int:
    """``generate`` with ``-j``, ``--store`` or Dask: puzzle I's draw (seed ``puzzle_seed(seed,
    I, 0)``) is a job of the batch engine; the pack is written in index order from the records
    (their ``pack_entry``), a repeat of an earlier puzzle drawn again with the next attempt's
    seed, so the pack is the very pack a run in this process writes."""
    from ..batch import Job, run
    from ..pack import PackError, RepeatedPuzzles
    from ..seeds import DUPLICATE_RETRIES, puzzle_seed

    request = writer.request
    source = writer.out or "-"

    def job(index: int, attempt: int) -> Job:
        return Job.generate(request.family, request.size, seed=puzzle_seed(request.seed, index, attempt), source=source,
                            index=index, options=dict(request.options), time_limit=request.time_limit)

    slots = [Slot(job=job(index, 0)) for index in range(writer.resumed, request.count)]
    progress.done, progress.total = 0, len(slots)
    written = 0
    try:
        for slot, record in records(args, slots, on_progress=progress.engine):
            index = slot.job.index
            entry = None
            for attempt in range(1, DUPLICATE_RETRIES + 1):
                if record["status"] != "generated":
                    raise PuzzlesatError(record["error"] or past_limit(args))
                made = Generated(None, None, seed=record["seed"], tries=record["tries"], facts=record.get("pack_facts") or {},
                                 seconds=record.get("seconds") or 0.0)
                body = {key: value for key, value in record.items()
                        if key not in ("family", "source", "index", "status", "error", "pack_entry", "pack_facts")}
                entry = writer.add(index, made, record["pack_entry"], body)
                if entry is not None or attempt == DUPLICATE_RETRIES:
                    break
                record = next(run([job(index, attempt)], store=args.store))  # (a repeat: drawn again, here)
            if entry is None:
                raise RepeatedPuzzles(f"puzzle {index}: only repeats of earlier puzzles of the pack after {DUPLICATE_RETRIES} seeds")
            written += 1
            progress.close()  # (a line is never printed on the bar's)
            say(entry, writer, args)
    except KeyboardInterrupt:
        progress.close()
        kept = f"; every finished one in {args.store}" if args.store else ""
        print(f"interrupted: {writer.resumed + written} puzzle(s) kept" + (f" in {args.out}" if args.out else "") + kept,
              file=sys.stderr)
        return 130
    except (PackError, OSError, ValueError) as exc:  # a pack that cannot be written
        progress.close()
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except PuzzlesatError as exc:  # the family gave up, or drew only repeats: the puzzles before stay
        progress.close()
        print(f"error: puzzle {writer.resumed + written}: {exc}", file=sys.stderr)
        print(writer.summary(), file=sys.stderr)
        return 1
    progress.close()
    print(writer.summary(), file=sys.stderr)
    return 0
