"""``puzzlesat convert IN -o OUT --to FORMAT``: a puzzle file in another format of its family,
read with ``Family.load`` and written with ``Family.format(puzzle, fmt=)``. A format that
cannot hold the puzzle (its rules, its layers) is an error naming what would be lost, never a
silent change.
"""

from __future__ import annotations

import argparse
import sys

from ..errors import CannotExpress, ParseError
from .inputs import load_items


def command_convert(args: argparse.Namespace) -> int:
    try:
        family, items = load_items(args.input, family=args.family, fmt=args.fmt, options=args,
                                    max_bytes=args.max_input_bytes)
    except ParseError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    to = args.to.strip().lower()
    names = {name: f.name for f in family.formats if f.writes for name in (f.name, *f.aliases)}
    if to not in names:
        print(f"error: --to {args.to}: {family.name} writes {', '.join(family.writable_formats())}", file=sys.stderr)
        return 2
    fmt = names[to]
    if args.index is not None and not 0 <= args.index < len(items):
        print(f"error: no puzzle #{args.index} in {args.input} (it holds {len(items)})", file=sys.stderr)
        return 2
    chosen = range(len(items)) if args.index is None else [args.index]
    texts = []
    for index in chosen:
        if isinstance(items[index], ParseError):
            print(f"error: {items[index]}", file=sys.stderr)
            return 2
        try:
            text = family.format(items[index], fmt=fmt)
        except CannotExpress as exc:
            where = args.input + (f"#{index}" if len(items) > 1 else "")
            print(f"error: cannot write {where} as {fmt}: {exc}", file=sys.stderr)
            return 2
        texts.append(text if text.endswith("\n") else text + "\n")
    out = "\n".join(texts)
    if len(texts) > 1 and _puzzles_in(family, out, fmt, args.output) != len(texts):
        print(f"error: {fmt} holds one puzzle per file and {args.input} holds {len(texts)}: choose one with --index",
              file=sys.stderr)
        return 2
    if args.output == "-":
        sys.stdout.write(out)
        return 0
    try:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(out)
    except OSError as exc:
        print(f"error: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"wrote {args.output} ({len(texts)} puzzle{'s' if len(texts) != 1 else ''}, {fmt})", file=sys.stderr)
    return 0


def _puzzles_in(family, text: str, fmt: str, source: str) -> int:
    """How many puzzles ``text`` reads back as (0 when it does not read)."""
    try:
        return len(family.load(text, source=source, fmt=fmt, options=family.defaults()))
    except ParseError:
        return 0
