"""Reproducible generation (#45, #43): the same pack, byte for byte, on a quiet and a loaded machine.

    python -m benchmarks.reproducible [--families swap numberlink roller] [--count 100] [--seed 1]
                                      [--busy 2] [--loaded-jobs 1] [--args FAMILY=ARGS ...] [--json PATH]

Per family, ``puzzlesat generate FAMILY --count N --seed S`` writes a pack twice, each in a
fresh process: once alone, once beside ``--busy`` processes that spin on the CPU (heavy load:
with 2 busy processes on 2 cores, the generator gets about a third of its usual speed), that
run with ``-j --loaded-jobs``. The target of #45 is "100 seeds per family generate
byte-identical packs in two runs, one of them under heavy load"; with ``--loaded-jobs 2`` the
loaded run also checks that a pack written by two workers equals one written by one (#43).
Each row says whether the two packs are identical and, if not, the first puzzle that differs.
Per-family generate arguments (``DEFAULT_ARGS``) keep a run of 100 seeds within minutes; give
others with ``--args swap="--difficulty expert"``. In ``python -m benchmarks`` (``run``), a row
has the keys of ``benchmarks.ROW_KEYS``: ``status`` "solved" and ``verified`` True when the two
packs are identical, "error" otherwise; ``--quick`` makes 3 Swap levels per pack only.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator, Sequence

from benchmarks import INTERRUPTED, JSON_HELP, RowWriter, json_path

FAMILIES = ("swap", "numberlink", "roller")
DEFAULT_COUNT = 100
QUICK = (("swap",), 3)  # (families, puzzles per pack) of --quick
DEFAULT_ARGS = {"swap": "--difficulty hard", "numberlink": "--size 10x10", "roller": "--size 8x8"}
SPIN = "while True: pass"  # a busy process


def _generate(family: str, args: Sequence[str], *, count: int, seed: int, jobs: int, out: Path) -> float:
    """Seconds one ``puzzlesat generate`` run took to write ``out`` (in a fresh process)."""
    command = [sys.executable, "-m", "puzzlesat", "generate", family, *args, "--count", str(count), "--seed", str(seed),
               "-j", str(jobs), "--out", str(out)]
    started = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    return time.perf_counter() - started


def first_difference(a: bytes, b: bytes) -> str | None:
    """The first puzzle (its ``# puzzle`` line) where two packs differ; None when identical.

    >>> first_difference(b"# puzzle 0: x\\nA\\n# puzzle 1: y\\nB\\n", b"# puzzle 0: x\\nA\\n# puzzle 1: y\\nC\\n")
    '# puzzle 1: y'
    >>> first_difference(b"same", b"same") is None
    True
    """
    if a == b:
        return None
    at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    heads = re.findall(rb"^# puzzle [^\n]*", a[:at], flags=re.M)
    return heads[-1].decode() if heads else "the header"


def run(*, time_limit: float | None = None, quick: bool = False, families: Sequence[str] | None = None,
        count: int | None = None, seed: int = 1, busy: int = 2, loaded_jobs: int = 1,
        args: dict[str, str] | None = None) -> Iterator[dict[str, Any]]:
    """One row per family: the two runs' seconds and whether their packs are identical
    (``time_limit`` is not used: generation has no per-puzzle limit here)."""
    families = families or (QUICK[0] if quick else FAMILIES)
    count = count or (QUICK[1] if quick else DEFAULT_COUNT)
    args = args or {}
    with tempfile.TemporaryDirectory() as folder:
        for family in families:
            extra = shlex.split(args.get(family, DEFAULT_ARGS.get(family, "")))
            quiet, loaded = Path(folder, f"{family}-quiet.txt"), Path(folder, f"{family}-loaded.txt")
            quiet_s = _generate(family, extra, count=count, seed=seed, jobs=1, out=quiet)
            spinners = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(busy)]
            try:
                loaded_s = _generate(family, extra, count=count, seed=seed, jobs=loaded_jobs, out=loaded)
            finally:
                for spinner in spinners:  # (only the processes started here, by their ids)
                    spinner.kill()
                    spinner.wait()
            differs = first_difference(quiet.read_bytes(), loaded.read_bytes())
            yield {"family": family, "set": "reproducible", "instance": f"{family}-seed{seed}-x{count}", "size": None,
                   "cells": None, "method": f"generate twice, -j 1 / -j {loaded_jobs} beside {busy} busy", "task": "reproduce",
                   "status": "solved" if differs is None else "error", "encode_s": 0.0, "solve_s": round(loaded_s, 2),
                   "seconds": round(quiet_s + loaded_s, 2), "verified": differs is None, "time_limit": time_limit,
                   "args": " ".join(extra), "count": count, "seed": seed, "busy": busy, "loaded_jobs": loaded_jobs,
                   "quiet_s": round(quiet_s, 2), "loaded_s": round(loaded_s, 2), "identical": differs is None,
                   "first_difference": differs, "load": round(os.getloadavg()[0], 2)}


def _whole(least: int):
    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = least - 1
        if value < least:
            raise argparse.ArgumentTypeError(f"expected a whole number of {least} or more, not {text!r}")
        return value
    return convert


def _family_args(text: str) -> tuple[str, str]:
    family, sep, value = text.partition("=")
    if not sep or family not in FAMILIES:
        raise argparse.ArgumentTypeError(f"expected FAMILY=ARGS with FAMILY one of {', '.join(FAMILIES)}, not {text!r}")
    return family, value


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.reproducible", description=__doc__.split("\n\n")[0])
    parser.add_argument("--families", nargs="+", default=list(FAMILIES), choices=FAMILIES)
    parser.add_argument("--count", type=_whole(1), default=DEFAULT_COUNT, help=f"puzzles per pack (default {DEFAULT_COUNT})")
    parser.add_argument("--seed", type=_whole(0), default=1, help="the packs' seed (default 1)")
    parser.add_argument("--busy", type=_whole(0), default=2, help="busy processes beside the loaded run (default 2)")
    parser.add_argument("--loaded-jobs", type=_whole(1), default=1, help="-j of the loaded run (default 1; 2 also checks #43)")
    parser.add_argument("--args", type=_family_args, action="append", default=[], metavar="FAMILY=ARGS",
                        help=f"generate arguments of a family (defaults: {DEFAULT_ARGS})")
    parser.add_argument("--json", type=json_path, metavar="PATH", help=JSON_HELP)
    args = parser.parse_args(argv)
    print(f"{'family':11} {'puzzles':>7} {'args':>20} {'quiet s':>8} {'loaded s':>9} {'identical':>9}  first difference")
    sink = RowWriter(args.json)
    rows = []
    try:
        for row in run(families=args.families, count=args.count, seed=args.seed, busy=args.busy,
                       loaded_jobs=args.loaded_jobs, args=dict(args.args)):
            rows.append(row)
            sink.write(row)
            print(f"{row['family']:11} {row['count']:>7} {row['args']:>20} {row['quiet_s']:>8.1f} {row['loaded_s']:>9.1f} "
                  f"{'yes' if row['identical'] else 'NO':>9}  {row['first_difference'] or '-'}", flush=True)
    except KeyboardInterrupt:
        sink.close()
        return INTERRUPTED
    sink.close()
    print(f"loaded run: {args.busy} busy process(es) beside it, -j {args.loaded_jobs}; {sink.gauge_line()}")
    return 0 if all(row["identical"] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
