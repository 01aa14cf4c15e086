"""Multi-layer Numberlink generators: how fast each makes puzzles per stack size, and every claim checked.

    python -m benchmarks.multilayer_generators --quick
    python -m benchmarks.multilayer_generators --json ml-gen.jsonl       # the sizes of the docs

For each method and stack, puzzles for seeds 0..N-1 are generated on one core, each under a time
limit. ``split`` and ``unionfind`` (``unique=True``) claim uniqueness under cover-all rules:
each puzzle is written in its pack's text, read back, and counted again by a *fresh* count
(limit 2); ``unionfind-label`` (``unique=False``) claims a verdict that the fresh count must
confirm; ``routing`` (ADC-style, may-leave-empty; ``routing-N``: with N lines) claims a drawn answer: it must pass
``verify``, and the problem is then solved afresh from its ADC text (``solve_s``, with the same
time limit). The table gives puzzles made, confirmations, tries, seconds per puzzle (median and
largest), lines per puzzle, blocked cells, and for routing the share of cells the drawn answer
uses and the solve time.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
from collections import defaultdict
from typing import Any, Iterator

from benchmarks import INTERRUPTED, JSON_HELP, json_path
from benchmarks.generators import collect, timed_generation
from puzzlesat.numberlink.model import Rules
from puzzlesat.numberlink.multilayer import count, format, parse, solve, verify
from puzzlesat.cli.arguments import seconds_argument

gen = importlib.import_module("puzzlesat.numberlink.multilayer.generate")

EMPTY = Rules(cover_all=False)
# (method, (width, height, layers), seeds)
QUICK_PLAN = [("split", (4, 4, 2), 5), ("split", (6, 6, 2), 5), ("unionfind", (5, 5, 2), 5), ("unionfind-label", (5, 5, 2), 10),
              ("routing", (8, 8, 4), 5), ("routing", (16, 16, 5), 5)]
FULL_PLAN = [
    ("split", (4, 4, 2), 20), ("split", (5, 5, 2), 20), ("split", (6, 6, 2), 20), ("split", (5, 5, 3), 20), ("split", (8, 8, 2), 20),
    ("split", (6, 6, 3), 10), ("split", (6, 6, 4), 10), ("split", (10, 10, 2), 10), ("split", (8, 8, 3), 10), ("split", (12, 12, 2), 10),
    ("split", (8, 8, 4), 10),
    ("unionfind", (4, 4, 2), 10), ("unionfind", (5, 5, 2), 10), ("unionfind", (6, 6, 2), 10), ("unionfind", (5, 5, 3), 10),
    ("unionfind", (8, 8, 2), 10),
    ("unionfind-label", (4, 4, 2), 40), ("unionfind-label", (5, 5, 2), 40), ("unionfind-label", (6, 6, 2), 40),
    ("unionfind-label", (8, 8, 2), 40),
    ("routing", (5, 5, 3), 10), ("routing", (8, 8, 4), 10), ("routing", (8, 8, 8), 10), ("routing", (16, 16, 5), 10),
    ("routing", (32, 32, 3), 10), ("routing", (40, 40, 4), 10), ("routing", (72, 72, 8), 3),
    ("routing-30", (8, 8, 4), 10), ("routing-60", (8, 8, 8), 10), ("routing-120", (16, 16, 5), 10), ("routing-1500", (72, 72, 8), 2),
]


def _options(name: str) -> dict[str, Any]:
    """The generator's arguments for a plan's method name; ``routing-N``: routing with N lines."""
    if name.startswith("routing"):
        lines = name.partition("-")[2]
        return {"method": "routing", "rules": EMPTY, **({"lines": int(lines)} if lines else {})}
    if name == "unionfind-label":
        return {"method": "unionfind", "unique": False}
    return {"method": name}


def run(*, time_limit: float, quick: bool = False, plan: list | None = None) -> Iterator[dict[str, Any]]:
    """One row per puzzle (ROW_KEYS plus ``tries``, ``unique``, ``confirmed``, ``lines``,
    ``blocked``, ``used`` and for routing ``fresh_solve_s``)."""
    for name, (width, height, layers), seeds in plan or (QUICK_PLAN if quick else FULL_PLAN):
        options = _options(name)
        rules = options.get("rules", Rules())
        size = f"{width}x{height}x{layers}"
        for seed in range(seeds):
            row: dict[str, Any] = {"family": "numberlink", "set": f"generate-{size}", "instance": f"{name}-seed{seed}", "size": size,
                                   "cells": width * height * layers, "method": name, "task": "generate", "encode_s": 0.0,
                                   "time_limit": time_limit}
            made, seconds = timed_generation(row, lambda: gen.generate(width, height, layers, seed=seed, time_limit=time_limit, **options))
            if made is None:
                yield row
                continue
            fmt = gen.TEXT_FORMAT[made.method]
            text = format(made.puzzle, fmt=fmt)
            valid = not verify(made.puzzle, made.solution, rules)
            row.update(solve_s=seconds, seconds=seconds, tries=made.tries, unique=made.unique, lines=len(made.puzzle.pairs),
                       blocked=len(made.puzzle.blocked), used=round(sum(made.link_lengths()) / made.puzzle.num_cells, 3))
            if name.startswith("routing"):
                solved_at = time.perf_counter()
                fresh = solve(parse(text, fmt=fmt), rules=rules, time_limit=time_limit)
                row["fresh_solve_s"] = time.perf_counter() - solved_at
                row["fresh_status"] = fresh.status.value
                confirmed = valid
                row["status"] = "solved"
            else:
                confirmed = valid and count(parse(text, fmt=fmt), rules=rules, limit=2, time_limit=60).unique is made.unique
                row["status"] = "unknown" if made.unique is None else "solved"  # the verdict itself is ``unique``
            row.update(verified=confirmed, confirmed=confirmed)
            yield row


def table(rows: list[dict[str, Any]]) -> str:
    groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for row in rows:
        groups[(row["method"], row["size"])].append(row)
    lines = [f"{'method':16} {'size':9} {'made':>9} {'unique':>6} {'confirmed':>9} {'tries':>6} {'s median':>8} {'s max':>7} "
             f"{'lines':>6} {'blocked':>7} {'used':>5} {'solved':>7} {'solve med':>9} {'solve max':>9}"]

    def median(values: list) -> str:
        return f"{statistics.median(values):g}" if values else "-"

    for (method, size), group in groups.items():
        made = [r for r in group if r["status"] != "unknown" or r.get("confirmed") is not None]
        seconds = [r["seconds"] for r in made]
        solves = [r["fresh_solve_s"] for r in made if "fresh_solve_s" in r]
        solved = sum(1 for r in made if r.get("fresh_status") == "solved")
        lines.append(
            f"{method:16} {size:9} {len(made):4d}/{len(group):<4d} {sum(1 for r in made if r.get('unique') is True):6d} "
            f"{sum(1 for r in made if r.get('confirmed')):9d} {median([r['tries'] for r in made]):>6} "
            f"{statistics.median(seconds) if seconds else float('nan'):8.3f} {max(seconds, default=float('nan')):7.2f} "
            f"{median([r['lines'] for r in made]):>6} {median([r['blocked'] for r in made]):>7} {median([r['used'] for r in made]):>5} "
            f"{(f'{solved}/{len(solves)}' if solves else '-'):>7} "
            f"{(f'{statistics.median(solves):.3f}' if solves else '-'):>9} {(f'{max(solves):.2f}' if solves else '-'):>9}")
    return "\n".join(lines)


def _plan(text: str) -> list:
    """``METHOD:WxHxL:SEEDS,...``, each part checked before any puzzle is drawn."""
    plan = []
    for part in text.split(","):
        try:
            name, size, seeds = part.split(":")
            stack = tuple(int(n) for n in size.lower().split("x"))
            if len(stack) != 3:
                raise ValueError
            options, count = _options(name), int(seeds)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{part!r} is not METHOD:WxHxL:SEEDS (e.g. split:6x6x2:20)") from None
        if options["method"] not in gen.METHODS:
            raise argparse.ArgumentTypeError(f"unknown method {name!r} in {part!r}: split, unionfind, unionfind-label, routing or routing-N")
        plan.append((name, stack, count))
    return plan


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.multilayer_generators", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a small sample (a few seeds on small stacks)")
    parser.add_argument("--time-limit", type=seconds_argument, default=120.0, metavar="S", help="seconds allowed per puzzle (default 120)")
    parser.add_argument("--plan", type=_plan, default=None, metavar="METHOD:WxHxL:SEEDS,...", help="e.g. split:6x6x2:20,routing:8x8x4:10")
    parser.add_argument("--json", type=json_path, default=None, metavar="PATH", help=JSON_HELP)
    args = parser.parse_args(argv)
    rows, interrupted, gauge = collect(run(time_limit=args.time_limit, quick=args.quick, plan=args.plan), args.json)
    print(table(rows))
    print(gauge)
    unconfirmed = [r for r in rows if r.get("confirmed") is False]
    print(f"\n{len(rows)} puzzles, {len(unconfirmed)} whose claim was not confirmed")
    if interrupted:
        return INTERRUPTED
    return 1 if unconfirmed else 0


if __name__ == "__main__":
    sys.exit(main())
