"""TEMPORARY (issue #42): ``puzzlesat generate FAMILY`` of the current ``cli.py`` routed through the
one pack writer (:mod:`puzzlesat.pack`) until the new ``puzzlesat/cli/`` package lands; the lead
merges it into ``cli/generate.py`` and deletes this module. Its flags come from the family's
record alone: ``--size --count --seed --out --time-limit --json`` and the family's
``generate_options`` and ``options``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .errors import PuzzlesatError, count_argument
from .family import Family, Option
from .progress import Progress
from .seeds import seed_argument
from .timing import seconds_argument


def _size(text: str) -> tuple[int, ...]:
    parts = text.lower().replace("*", "x").split("x")
    if not all(part.strip().isdigit() for part in parts):
        raise argparse.ArgumentTypeError(f"size {text!r} is not WIDTHxHEIGHT (e.g. 10x10) or WIDTHxHEIGHTxLAYERS (e.g. 8x8x3)")
    return tuple(int(part) for part in parts)


def _converter(option: Option) -> Any:
    def convert(text: str) -> Any:
        try:
            return option.convert(text) if option.convert is not None else text
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    convert.__name__ = option.name  # (argparse names the option in its message)
    return convert


def add_generate_arguments(parser: argparse.ArgumentParser, family: Family) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = family.generate_example or None
    parser.add_argument("--size", type=_size, default=None, metavar="WxH[xL]", help="board size (default: the family's)")
    parser.add_argument("--count", type=count_argument, default=1, help="puzzles to write (default 1)")
    parser.add_argument("--seed", type=seed_argument, default=0, help="run seed; puzzle i uses seed*1000003+i (default 0)")
    parser.add_argument("--out", default=None, metavar="PATH",
                        help="write each puzzle to PATH as soon as it is certified; a rerun continues it (default: standard output)")
    parser.add_argument("--time-limit", type=seconds_argument, default=None, metavar="S", help="seconds allowed per puzzle (default: no limit)")
    parser.add_argument("--json", action="store_true", help="print one JSON object per new puzzle (the pack still goes to --out)")
    seen = {"size", "count", "seed", "out", "time_limit", "json"}
    for option in (*family.generate_options, *family.options):
        if option.name in seen:
            continue
        seen.add(option.name)
        if option.kind == "flag":
            parser.add_argument(option.flag, dest=option.name, action="store_true", help=option.help)
        elif option.kind == "choice":
            parser.add_argument(option.flag, dest=option.name, choices=option.choices, default=option.default, help=option.help)
        else:
            parser.add_argument(option.flag, dest=option.name, type=_converter(option), default=option.default,
                                metavar=option.metavar, help=option.help)


def command_generate(args: argparse.Namespace) -> int:
    from .pack import PackError, PackRequest, PackWriter
    from .registry import family_for_path, get_family

    family = get_family(args.family)
    named = family_for_path(args.out) if args.out else None
    if named is not None and named.name != family.name:  # (verify and solve would read the pack as the family its ending names)
        print(f"error: --out {args.out} ends in {', '.join(named.extensions)}, which names {named.name} files; "
              f"give a {family.name} pack another name", file=sys.stderr)
        return 2
    names = {option.name for option in (*family.generate_options, *family.options)}
    options = {name: getattr(args, name) for name in names if hasattr(args, name)}
    size = "x".join(str(side) for side in args.size) if args.size else ""
    progress = Progress(args.count, label=f"generate {family.name} {size}".rstrip())
    try:
        request = PackRequest(family, args.size, count=args.count, seed=args.seed, options=options,
                              time_limit=args.time_limit, out=args.out)
        writer = PackWriter(request, on_event=lambda index, note: progress.advance(0, note=note))
    except (PackError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    progress.done = min(writer.resumed, args.count)
    status = 0
    try:
        for entry in writer:
            if args.json:
                print(json.dumps(entry.record), flush=True)
            elif args.out is None:
                print((writer.first_line + "\n" if entry.index == 0 else "") + entry.text, end="", flush=True)
            progress.advance(note=f"{entry.generated.tries} tries")
    except KeyboardInterrupt:
        progress.close()
        drawn = f"; puzzle {writer.drawing[0]} had drawn: {writer.drawn()}" if writer.drawn() else ""
        print(f"interrupted: {writer.resumed + writer.tally.made} puzzle(s) kept" + (f" in {args.out}" if args.out else "") + drawn,
              file=sys.stderr)
        return 130
    except (PackError, OSError) as exc:  # a pack that cannot be written
        progress.close()
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except ValueError as exc:  # a request the family refuses (before any drawing)
        progress.close()
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except PuzzlesatError as exc:  # the family's GenerationFailed, or only repeats: the puzzles before stay
        progress.close()
        print(f"error: puzzle {writer.resumed + writer.tally.made}: {exc}", file=sys.stderr)
        status = 1
    progress.close()
    print(writer.summary(), file=sys.stderr)
    return status
