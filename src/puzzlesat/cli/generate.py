"""``puzzlesat generate FAMILY``: certified puzzles written as a pack by the one pack writer
(:mod:`puzzlesat.pack`), for every family alike; the family's own settings come from its
``generate_options``. Without ``--out`` the pack goes to standard output; ``--json`` prints one
record per puzzle instead (``docs/record.schema.json``).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..registry import family_for_path, get_family
from .output import Progress


def command_generate(args: argparse.Namespace) -> int:
    from ..pack import PackError, PackRequest, PackWriter

    family = get_family(args.family)
    named = family_for_path(args.out) if args.out else None
    if named is not None and named.name != family.name:
        # (verify and solve would read the pack as the family its ending names)
        print(f"error: --out {args.out} ends in {', '.join(named.extensions)}, which names {named.name} files; "
              f"give a {family.name} pack another name", file=sys.stderr)
        return 2
    options = {option.name: getattr(args, option.name) for option in family.generate_options}
    request = PackRequest(family=family, size=args.size, count=args.count, seed=args.seed, options=options,
                          time_limit=args.time_limit, out=args.out)
    size = "x".join(str(side) for side in args.size) if args.size else "default size"
    progress = Progress(args.count, label=f"generate {family.name} {size}")

    def on_event(event: Any) -> None:
        progress.show(note=str(event))

    try:
        writer = PackWriter(request, on_event=on_event)
    except PackError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        for entry in writer:
            progress.close()
            if args.json:
                record = {"family": family.name, "source": args.out, "index": entry.index, "error": None,
                          "seconds": round(getattr(entry.generated, "seconds", 0.0), 4), **entry.record}
                print(json.dumps(record), flush=True)
            elif not args.out:
                print(entry.text, end="" if entry.text.endswith("\n") else "\n", flush=True)
            progress.advance(note=f"#{entry.index}")
    except PackError as exc:
        progress.close()
        print(f"error: {exc}", file=sys.stderr)
        return 1
    finally:
        progress.close()
    summary = writer.summary()
    for line in [summary] if isinstance(summary, str) else summary:
        print(line, file=sys.stderr)
    return 0
