"""``puzzlesat generate FAMILY``: certified puzzles written as a pack by the one pack writer
(:mod:`puzzlesat.pack`), for every family alike; the family's own settings come from its
``generate_options`` (and the rules of its ``options``). Without ``--out`` the pack goes to
standard output; ``--json`` prints one record per puzzle instead (``docs/record.schema.json``).
"""

from __future__ import annotations

import argparse
import json
import sys

from ..errors import PuzzlesatError
from ..family import Family
from ..registry import family_for_path, get_family
from .output import Progress


def generate_option_names(family: Family) -> list[str]:
    """The names of the options ``generate FAMILY`` offers: its generate options, then its rules."""
    names: list[str] = []
    for option in (*family.generate_options, *family.options):
        if option.name not in names:
            names.append(option.name)
    return names


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
    status = 0
    try:
        for entry in writer:
            progress.close()  # (a line is never printed on the bar's)
            if args.json:
                print(json.dumps({"error": None, **entry.record}), flush=True)  # (the schema's keys: no error)
            elif args.out is None:
                first = writer.first_line + "\n" if entry.index == 0 and getattr(writer, "first_line", None) else ""
                print(first + entry.text, end="" if entry.text.endswith("\n") else "\n", flush=True)
            progress.advance(note=f"{entry.generated.tries} tries")
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
