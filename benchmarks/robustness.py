"""Robustness benchmark (#45): how untrusted input ends, against the issue's targets.

    python -m benchmarks.robustness [--json PATH] [--quick] [--board N] [--time-limit S]

Each case runs in a fresh process of its own (``--one CASE``), so its peak resident memory
(``peak_mb``) is its own; the table says whether it met its target (``met``):

* ``tmx-zlib-bomb`` / ``tmx-gzip-bomb``: a 1000 x 1000 Tiled map whose layer inflates to 1 GB of zeros
  (about 1 MB on disk, built here in pieces) is refused in under 10 s below 300 MB;
* ``read-dev-zero-<reader>``: every ``read`` of the API given ``/dev/zero`` ends with a clear
  error in under 10 s;
* ``checks-expired-deadline`` / ``solve-deadline``: a generated N x N board (default 1000, 500
  with ``--quick``) of N*N/4 two-cell lines: the search-free checks stop at a passed deadline,
  and ``solve(time_limit=S)`` (default 3) ends within S + 1 s.

Not with ``--quick``, the command itself on huge inputs (:mod:`benchmarks._command_runs`; peak
memory is then the whole process tree's):

* ``adc-million-lines``: ``puzzlesat solve`` of a 2000 x 2000 ADC problem of a million lines
  with ``--time-limit 3`` ends "unknown" for the time limit within 15 s in all, reading included;
* ``overshoot-<family>``: ``solve --time-limit S`` of the largest boards (Numberlink 1002 x 1002,
  Roller 1000 x 1000, Swap 100 x 100) runs less than 1 s past S (``overshoot_s``: its wall time
  less S and less ``startup_s``, that of ``puzzlesat solve --help``; ``record_s``: the
  record's own seconds, the solve's);
* ``memory-limit-2000``: a 2000 x 2000 Numberlink board of two labels, no time limit,
  ``--memory-limit 2G``, ends "unknown" for the memory limit below 2.6 GB.

Rows have the keys of ``benchmarks.ROW_KEYS`` plus ``peak_mb``, ``target`` and ``met``.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import resource
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any, Iterator, Sequence

from benchmarks import JSON_HELP, Case, json_path, print_rows, rows_of
from puzzlesat.cli.arguments import seconds_argument

BOMB_BYTES = 1 << 30  # what the bomb's layer inflates to
BOMB_PIECE = 1 << 20
TARGET_SECONDS = 10.0
TARGET_BOMB_MB = 300.0
READERS = ("numberlink", "multilayer", "roller", "roller-answers", "swap")
DEFAULT_BOARD = 1000
QUICK_BOARD = 500
DEFAULT_SOLVE_LIMIT = 3.0
ROOT = Path(__file__).resolve().parents[1]
ADC_LIMIT, ADC_TARGET = 3.0, 15.0  # the million-line ADC file: its time limit, and when it must have ended
OVERSHOOT_TARGET = 1.0
OVERSHOOT_SIDES = {"numberlink": 1002, "roller": 1000, "swap": 100}
MEMORY_LIMIT, TARGET_MEMORY_MB = "2G", 2.6 * 1024
COMMAND_CASES = ("adc-million-lines", *(f"overshoot-{family}" for family in OVERSHOOT_SIDES), "memory-limit-2000")


def cases(board: int, *, quick: bool = False) -> list[str]:
    return ["tmx-zlib-bomb", "tmx-gzip-bomb", *(f"read-dev-zero-{name}" for name in READERS),
            f"checks-expired-deadline-{board}", f"solve-deadline-{board}", *(() if quick else COMMAND_CASES)]


def _bomb(compression: str, inflated: int = BOMB_BYTES) -> str:
    """A TMX map of 1000 x 1000 tiles (4 MB of tile data) whose layer inflates to ``inflated``
    zeros (a whole number of BOMB_PIECE, two or more). Built from one compressed piece repeated: after a sync flush the compressor is in the
    same state at every piece of zeros, so each piece after the first compresses to the same
    bytes; the checksum of the whole is computed apart (a tenth of the time of compressing it)."""
    gzip = compression == "gzip"
    packer = zlib.compressobj(9, zlib.DEFLATED, 31 if gzip else 15)
    zeros = bytes(BOMB_PIECE)
    first = packer.compress(zeros) + packer.flush(zlib.Z_SYNC_FLUSH)
    piece = packer.compress(zeros) + packer.flush(zlib.Z_SYNC_FLUSH)
    end = packer.flush()[:-8 if gzip else -4]  # (the final block, without the trailer of two pieces)
    check = 0 if gzip else 1
    for _ in range(inflated // BOMB_PIECE):
        check = zlib.crc32(zeros, check) if gzip else zlib.adler32(zeros, check)
    trailer = struct.pack("<II", check, inflated % 2**32) if gzip else struct.pack(">I", check)
    body = base64.b64encode(first + piece * (inflated // BOMB_PIECE - 1) + end + trailer).decode()
    return (f'<map width="1000" height="1000"><layer><data encoding="base64" compression="{compression}">'
            f"{body}</data></layer></map>")


def _board(size: int):
    from puzzlesat.numberlink.model import Pair, Puzzle

    pairs = tuple(Pair(f"L{r}_{c}", (r, c), (r + 1, c)) for r in range(1, size - 2, 2) for c in range(1, size - 1, 2))
    return Puzzle(size, size, pairs)


def measure(case: str, *, time_limit: float) -> dict[str, Any]:
    """One case, in this process: its row (peak memory added by the caller's ``--one``)."""
    from puzzlesat.errors import ParseError

    row: dict[str, Any] = {"family": "roller", "set": "robustness", "instance": case, "size": "", "cells": 0,
                           "method": "read", "task": "refuse", "status": "error", "encode_s": 0.0, "solve_s": 0.0,
                           "seconds": 0.0, "verified": False, "time_limit": TARGET_SECONDS}
    if case in COMMAND_CASES:
        row.update(_command_case(case, time_limit))
    elif case.startswith("tmx-"):
        from puzzlesat import roller

        text = _bomb(case.split("-")[1])
        row.update(size="1000x1000", cells=1_000_000, target=f"refused < {TARGET_SECONDS:g} s, < {TARGET_BOMB_MB:g} MB",
                   bomb_mb=round(BOMB_BYTES / 2**20), file_mb=round(len(text) / 2**20, 2))
        start = time.perf_counter()
        try:
            roller.parse(text, fmt="tmx")
            row["status"] = "accepted"
        except ParseError as error:
            row.update(status="refused", error=error.message)
        row["seconds"] = time.perf_counter() - start
    elif case.startswith("read-dev-zero-"):
        reader = _reader(case.removeprefix("read-dev-zero-"))
        row.update(family="roller" if "roller" in case else "swap" if "swap" in case else "numberlink",
                   target=f"clear error < {TARGET_SECONDS:g} s")
        start = time.perf_counter()
        try:
            reader("/dev/zero")
            row["status"] = "accepted"
        except ParseError as error:
            row.update(status="refused", error=str(error))
        row["seconds"] = time.perf_counter() - start
    else:
        from puzzlesat.numberlink import topology
        from puzzlesat.numberlink.model import Rules
        from puzzlesat.numberlink.solve import solve
        from puzzlesat.timing import Deadline

        size = int(case.rsplit("-", 1)[1])
        start = time.perf_counter()
        board = _board(size)
        row.update(family="numberlink", size=f"{size}x{size}", cells=size * size, encode_s=time.perf_counter() - start,
                   lines=len(board.pairs))
        if case.startswith("checks-"):
            row.update(method="topology", task="checks", time_limit=0.0, target="stops at once (< 0.1 s)")
            start = time.perf_counter()
            found = topology.contradiction(board, Rules(cover_all=False), deadline=Deadline(0.0))
            row.update(status="stopped" if found is None else "refuted", seconds=time.perf_counter() - start)
            row["unbounded_s"] = _timed(lambda: topology.contradiction(board, Rules(cover_all=False)))
        else:
            row.update(method="sat", task="solve", time_limit=time_limit, target=f"ends < {time_limit + 1:g} s")
            start = time.perf_counter()
            result = solve(board, rules=Rules(cover_all=False), time_limit=time_limit)
            row.update(status=result.status.value, seconds=time.perf_counter() - start)
        row["solve_s"] = row["seconds"]
    row["met"] = _met(row)
    return row


def _command_case(case: str, time_limit: float) -> dict[str, Any]:
    """The row of a case that runs the ``puzzlesat`` command (its keys but ``instance``)."""
    from benchmarks import _command_runs as command_runs

    with tempfile.TemporaryDirectory() as folder:
        if case == "adc-million-lines":
            path = Path(folder, "Q_million.txt")
            path.write_text(command_runs.adc_lines(2000))
            run = command_runs.run_command(["solve", str(path), "--time-limit", f"{ADC_LIMIT:g}", "--json"])
            row = {"family": "numberlink", "size": "2000x2000", "cells": 4_000_000, "lines": 1_000_000,
                   "time_limit": ADC_LIMIT, "target": f"unknown (time limit) < {ADC_TARGET:g} s"}
        elif case == "memory-limit-2000":
            path = Path(folder, "two_labels.nl")
            path.write_text(command_runs.two_labels(2000))
            run = command_runs.run_command(["solve", str(path), "--memory-limit", MEMORY_LIMIT, "--json"])
            row = {"family": "numberlink", "size": "2000x2000", "cells": 4_000_000, "time_limit": 0.0,
                   "memory_limit": MEMORY_LIMIT, "target": f"unknown (memory limit) < {TARGET_MEMORY_MB / 1024:g} GB"}
        else:
            family = case.removeprefix("overshoot-")
            side = OVERSHOOT_SIDES[family]
            made = {"numberlink": lambda: command_runs.two_labels(side), "roller": lambda: command_runs.roller_level(side, seed=1),
                    "swap": lambda: command_runs.swap_level(side, seed=1)}[family]
            path = Path(folder, f"big.{'nl' if family == 'numberlink' else family}")
            path.write_text(made())
            startup = min(command_runs.run_command(["solve", "--help"])["seconds"] for _ in range(3))  # (the interpreter, the imports)
            run = command_runs.run_command(["solve", str(path), "--time-limit", f"{time_limit:g}", "--json"])
            overshoot = run["seconds"] - startup - time_limit
            row = {"family": family, "size": f"{side}x{side}", "cells": side * side, "time_limit": time_limit,
                   "startup_s": round(startup, 3), "overshoot_s": round(overshoot, 3),
                   "target": f"< {OVERSHOOT_TARGET:g} s past the limit", "note": f"{overshoot:.2f} s past the limit, "
                   f"start-up {startup:.2f} s, the solve {run['record']['seconds'] if run['record'] else '?'} s"}
    record = run["record"] or {}
    row.update(method="cli", task="solve", status=record.get("status") or f"exit {run['returncode']}",
               reason=record.get("reason"), error=record.get("error") or (None if record else " ".join(run["stderr"])),
               record_s=record.get("seconds"), seconds=run["seconds"], solve_s=run["seconds"],
               peak_mb=run["peak_mb"], peak_processes=run["peak_processes"])
    return row


def _timed(work) -> float:
    start = time.perf_counter()
    work()
    return round(time.perf_counter() - start, 3)


def _reader(name: str):
    if name == "numberlink":
        from puzzlesat.numberlink import read
    elif name == "multilayer":
        from puzzlesat.numberlink.multilayer import read
    elif name == "roller":
        from puzzlesat.roller import read
    elif name == "roller-answers":
        from puzzlesat.roller.answers import read_answers as read
    else:
        from puzzlesat.swap import read
    return read


def _met(row: dict[str, Any]) -> bool:
    case = row["instance"]
    reason = row.get("reason") or ""
    if case == "adc-million-lines":
        return row["status"] == "unknown" and "time limit" in reason and row["seconds"] < ADC_TARGET
    if case == "memory-limit-2000":
        return row["status"] == "unknown" and reason == "memory limit" and row["peak_mb"] < TARGET_MEMORY_MB
    if case.startswith("overshoot-"):
        return row["status"] != "error" and row["overshoot_s"] < OVERSHOOT_TARGET
    if case.startswith(("tmx-", "read-")):
        return row["status"] == "refused" and row["seconds"] < TARGET_SECONDS
    if case.startswith("checks-"):
        return row["status"] == "stopped" and row["seconds"] < 0.1
    return row["status"] == "unknown" and row["seconds"] < row["time_limit"] + 1


def _in_process(case: str, time_limit: float) -> dict[str, Any]:
    command = [sys.executable, "-m", "benchmarks.robustness", "--one", case, "--time-limit", str(time_limit)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "src"), str(ROOT), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        return {"family": "", "set": "robustness", "instance": case, "size": "", "cells": 0, "method": "", "task": "",
                "status": "error", "encode_s": 0.0, "solve_s": 0.0, "seconds": 0.0, "verified": False,
                "time_limit": time_limit, "met": False, "error": (done.stderr.strip().splitlines() or ["no row"])[-1]}
    return json.loads(lines[-1])


def run(*, time_limit: float = DEFAULT_SOLVE_LIMIT, quick: bool = False, board: int | None = None) -> Iterator[dict[str, Any]]:
    """One row per case, each measured in a process of its own."""
    yield from rows_of(row_cases(time_limit=time_limit, quick=quick, board=board))


def row_cases(*, time_limit: float = DEFAULT_SOLVE_LIMIT, quick: bool = False, board: int | None = None) -> Iterator[Case]:
    """A case per row (``bench -j N`` runs N at a time), each measured in a process of its own."""
    size = board or (QUICK_BOARD if quick else DEFAULT_BOARD)
    for case in cases(size, quick=quick):
        yield _in_process, {"case": case, "time_limit": time_limit}


def table(rows: list[dict[str, Any]]) -> str:
    lines = [f"{'case':34} {'status':>9} {'seconds':>8} {'peak MB':>8}  {'target':32} met",
             "-" * 100]
    for row in rows:
        lines.append(f"{row['instance']:34} {row['status']:>9} {row['seconds']:8.3f} {row.get('peak_mb', 0):8.1f}  "
                     f"{row.get('target', ''):32} {'yes' if row.get('met') else 'NO'}" + (f"  ({row['note']})" if row.get("note") else ""))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.robustness", description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=json_path, metavar="PATH", help=JSON_HELP)
    parser.add_argument("--quick", action="store_true", help=f"a {QUICK_BOARD} x {QUICK_BOARD} board for the deadline cases")
    parser.add_argument("--board", type=int, default=None, metavar="N", help=f"the deadline cases' board side (default {DEFAULT_BOARD})")
    parser.add_argument("--time-limit", type=seconds_argument, default=DEFAULT_SOLVE_LIMIT, metavar="S",
                        help=f"solve-deadline: the time limit (default {DEFAULT_SOLVE_LIMIT:g})")
    parser.add_argument("--one", metavar="CASE", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        row = measure(args.one, time_limit=args.time_limit)
        peaks = [resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
        row.setdefault("peak_mb", round(max(peaks) / 1024, 1))  # (a command case: its process tree's, measured there)
        if args.one.startswith("tmx-"):
            row["met"] = row["met"] and row["peak_mb"] < TARGET_BOMB_MB
        print(json.dumps(row), flush=True)
        return 0
    rows = run(time_limit=args.time_limit, quick=args.quick, board=args.board)
    return print_rows(rows, json_out=args.json, table=table,
                      line=lambda row: f"{row['instance']:34} {row['status']:>9} {row['seconds']:8.3f}s")


if __name__ == "__main__":
    sys.exit(main())
