"""Numberlink generators: certified unique puzzles per minute per size, and the seed sweep.

    python -m benchmarks.generators --quick
    python -m benchmarks.generators --json gen.jsonl          # seeds 0..99 at 8x8 and 12x10, and more sizes

For each generator (``quality``, ``unionfind`` with ``unique=True``) and board size, puzzles for
seeds 0..N-1 are generated on one core; each puzzle is then written as native text, read back,
and counted again by a *fresh* SAT count (limit 2): the row is ``verified`` when that count
confirms the uniqueness the generator claimed. Union-find without ``unique=True`` is run too
(``unionfind-label``): there the fresh count must confirm the label (unique or not) it gave.
The table gives puzzles, tries, seconds, certified unique puzzles per minute, confirmations,
and for the quality method the link-length histogram. Target (issue 3): the quality method
certifies at least 60 unique 10x10 puzzles per minute on one core.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from benchmarks import INTERRUPTED, JSON_HELP, RowWriter, json_path
from puzzlesat.numberlink.formats import parse
from puzzlesat.numberlink.verify import verify
from puzzlesat.cli.arguments import seconds_argument

gen = importlib.import_module("puzzlesat.numberlink.generate")
sat = importlib.import_module("puzzlesat.numberlink.solve")

QUICK_PLAN = [((8, 8), 10), ((10, 10), 10), ((12, 10), 6)]
FULL_PLAN = [((5, 5), 30), ((8, 8), 100), ((10, 10), 60), ((12, 10), 100), ((15, 15), 10)]
METHODS = (("quality", True), ("unionfind", True), ("unionfind-label", False))


def timed_generation(row: dict[str, Any], make: Callable[[], Any]) -> tuple[Any, float]:
    """``make()`` (a generator call) and its wall seconds; when it raises GenerationFailed, None,
    and ``row`` is filled as an "unknown" row (its tries kept). Shared with the multi-layer
    generators' benchmark."""
    started = time.perf_counter()
    try:
        made = make()
    except gen.GenerationFailed as exc:
        seconds = time.perf_counter() - started
        row.update(status="unknown", solve_s=seconds, seconds=seconds, verified=False, tries=exc.tries, unique=None, confirmed=None)
        return None, seconds
    return made, time.perf_counter() - started


def run(*, time_limit: float, quick: bool = False, plan: list | None = None) -> Iterator[dict[str, Any]]:
    """One row per generated puzzle (ROW_KEYS plus ``tries``, ``unique``, ``links``,
    ``link_lengths``, ``confirmed``). ``time_limit`` bounds each puzzle's generation."""
    for (width, height), seeds in plan or (QUICK_PLAN if quick else FULL_PLAN):
        for name, require_unique in METHODS:
            method = "unionfind" if name.startswith("unionfind") else name
            for seed in range(seeds):
                row: dict[str, Any] = {"family": "numberlink", "set": f"generate-{width}x{height}", "instance": f"{name}-seed{seed}",
                                       "size": f"{width}x{height}", "cells": width * height, "method": name, "task": "generate",
                                       "encode_s": 0.0, "time_limit": time_limit}
                made, seconds = timed_generation(row, lambda: gen.generate(width, height, method=method, seed=seed,
                                                                            unique=require_unique, time_limit=time_limit))
                if made is None:
                    yield row
                    continue
                text = gen.puzzle_text(made.puzzle)
                fresh = sat.count(parse(text, fmt="native"), limit=2, time_limit=60).unique
                confirmed = fresh is made.unique and not verify(made.puzzle, made.solution)
                # the task is done when the puzzle is made and its verdict decided (``unique`` says which)
                row.update(status="unknown" if made.unique is None else "solved",
                           solve_s=seconds, seconds=seconds, verified=confirmed, tries=made.tries, unique=made.unique,
                           confirmed=confirmed, links=len(made.link_lengths()), link_lengths=made.link_lengths(), text=text)
                yield row


def table(rows: list[dict[str, Any]]) -> str:
    groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for row in rows:
        groups[(row["size"], row["method"])].append(row)
    lines = [f"{'size':7} {'method':16} {'puzzles':>7} {'unique':>6} {'confirmed':>9} {'tries':>7} {'seconds':>8} {'s/puzzle':>8} {'unique/min':>10} {'links (median)':>14}"]
    for (size, method), group in groups.items():
        seconds = sum(r["seconds"] for r in group)
        unique = sum(1 for r in group if r.get("unique") is True)
        confirmed = sum(1 for r in group if r.get("confirmed"))
        tries = sum(r.get("tries") or 0 for r in group)
        links = [r["links"] for r in group if r.get("links")]
        per_minute = 60 * unique / seconds if seconds > 0 else float("nan")
        lines.append(f"{size:7} {method:16} {len(group):7d} {unique:6d} {confirmed:>9} {tries:7d} {seconds:8.2f} {seconds / len(group):8.3f} "
                     f"{per_minute:10.1f} {statistics.median(links) if links else '-':>14}")
    return "\n".join(lines)


def histograms(rows: list[dict[str, Any]]) -> str:
    out = []
    for size in dict.fromkeys(r["size"] for r in rows):
        lengths = Counter(n for r in rows if r["size"] == size and r["method"] == "quality" for n in r.get("link_lengths") or ())
        if not lengths:
            continue
        top = max(lengths.values())
        out.append(f"quality {size}: link lengths (cells per link: links)")
        for n in sorted(lengths):
            out.append(f"  {n:4d} {lengths[n]:5d} {'#' * max(1, round(40 * lengths[n] / top))}")
    return "\n".join(out)


def _plan(text: str) -> list:
    plan = []
    for part in text.split(","):
        size, _, seeds = part.partition(":")
        w, h = size.lower().split("x")
        plan.append(((int(w), int(h)), int(seeds or 10)))
    return plan


def collect(rows: Iterable[dict], json: Path | None) -> tuple[list[dict], bool, str]:
    """The rows of a generator run as they come, each written to ``json`` (when given) and noted
    on standard error, whether Ctrl-C ended the run (the rows made so far are kept), and the
    run's machine gauge line."""
    collected = []
    interrupted = False
    sink = RowWriter(json)
    try:
        for row in rows:
            collected.append(row)
            sink.write(row)
            note = "" if row.get("confirmed") else (" (gave up: time limit or tries)" if row.get("confirmed") is None else " NOT CONFIRMED")
            print(f"  {row['size']} {row['method']} {row['instance']}: {row['status']} tries {row.get('tries')} {row['seconds']:.3f}s{note}",
                  file=sys.stderr)
    except KeyboardInterrupt:
        interrupted = True
        print("interrupted: reporting the puzzles made so far", file=sys.stderr)
    finally:
        sink.close()
    return collected, interrupted, sink.gauge_line()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.generators", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a small sample (8x8, 10x10, 12x10; a few seeds)")
    parser.add_argument("--time-limit", type=seconds_argument, default=120.0, metavar="S", help="seconds allowed per puzzle (default 120)")
    parser.add_argument("--plan", type=_plan, default=None, metavar="WxH:SEEDS,...", help="sizes and seed counts, e.g. 8x8:100,12x10:100")
    parser.add_argument("--json", type=json_path, default=None, metavar="PATH", help=JSON_HELP)
    args = parser.parse_args(argv)
    rows, interrupted, gauge = collect(run(time_limit=args.time_limit, quick=args.quick, plan=args.plan), args.json)
    print(table(rows))
    print()
    print(histograms(rows))
    print(gauge)
    unconfirmed = [r for r in rows if r.get("status") != "unknown" and not r.get("confirmed")]
    print(f"\n{len(rows)} puzzles, {len(unconfirmed)} whose claim a fresh count from their text did not confirm")
    if interrupted:
        return INTERRUPTED
    return 1 if unconfirmed else 0


if __name__ == "__main__":
    sys.exit(main())
