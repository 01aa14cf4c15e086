"""The issue #44 targets of ``python -m benchmarks.certificates --target numberlink|roller``:
the sets, a row per puzzle (certify + check beside the uncertified answer), and the tables
that judge them (the command line and the sample's measure are in :mod:`benchmarks.certificates`).

>>> in_shard(list("abcde"), (2, 2)), TARGET_RATIO
(['b', 'd'], 3.0)
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from typing import Any, Iterator, Sequence

TARGET_SETS = ("janko", *(f"thomasahle-inputs{i}" for i in range(1, 10)), "mzucker", "houston")
TARGET_RATIO = 3.0  # certify + check within this many times the uncertified uniqueness time
ROLLER_SETS = ("starhermit", "tabtale-bottom-left", "tabtale-row-major")
ROLLER_DEFAULT_SETS = ROLLER_SETS[:2]
ROLLER_SHARE = 0.9  # of the levels certified and checked within the time limit


def fits_target(puzzle) -> bool:
    """Boards up to 40x20 (either way round), one layer.

    >>> from puzzlesat.numberlink.model import Puzzle
    >>> wide = ["A" + "." * 39 + "A"] + ["." * 41] * 19
    >>> fits_target(Puzzle.from_rows(["A.A"])), fits_target(Puzzle.from_rows(wide)), fits_target(Puzzle.from_rows(wide[:1] + wide[2:]))
    (True, False, False)
    """
    w, h = getattr(puzzle, "width", 0), getattr(puzzle, "height", 0)
    return not hasattr(puzzle, "layers") and ((w <= 40 and h <= 20) or (w <= 20 and h <= 40))


def target_rows(sets: Sequence[str], per_set: int | None, time_limit: float, shard: tuple[int, int] = (1, 1)) -> Iterator[dict[str, Any]]:
    """One row per puzzle of the target: ``uncertified_s`` (``numberlink.is_unique`` under
    no-self-touch rules, with its verdict) beside ``certify_s`` and ``check_s``."""
    from benchmarks import numberlink as nl_bench
    from benchmarks.certificates import cpu_seconds, measure_certificate
    from puzzlesat import numberlink
    from puzzlesat.numberlink.model import Puzzle, Rules

    warm = Puzzle.from_rows(["A.B", "...", "A.B"])  # (the first row pays no import: both sides warmed)
    numberlink.is_unique(warm, rules=Rules(no_self_touch=True))
    measure_certificate("numberlink", "-", "-", warm, {"no_self_touch": True}, time_limit)
    for set_name in sets:
        puzzles = in_shard([(name, p) for name, p in nl_bench.load_set(set_name) if fits_target(p)][:per_set], shard)
        if not puzzles:
            print(f"{set_name}: no puzzles under {nl_bench.DATA} (data set absent), skipped", file=sys.stderr, flush=True)
        for instance, puzzle in puzzles:
            started, cpu = time.perf_counter(), cpu_seconds()
            said = numberlink.is_unique(puzzle, rules=Rules(no_self_touch=True), time_limit=time_limit)
            uncertified_s, uncertified_cpu_s = time.perf_counter() - started, cpu_seconds() - cpu
            with sat_road():
                started, cpu = time.perf_counter(), cpu_seconds()
                numberlink.is_unique(puzzle, rules=Rules(no_self_touch=True), time_limit=time_limit)
                sat_s, sat_cpu_s = time.perf_counter() - started, cpu_seconds() - cpu
            row = measure_certificate("numberlink", set_name, instance, puzzle, {"no_self_touch": True}, time_limit)
            row.update(task="target", uncertified_s=round(uncertified_s, 4), uncertified_cpu_s=round(uncertified_cpu_s, 4),
                       sat_road_s=round(sat_s, 4), sat_road_cpu_s=round(sat_cpu_s, 4),
                       uncertified=said.uniqueness.value, ratio=round(row["seconds"] / max(uncertified_s, 1e-6), 2))
            yield row


@contextlib.contextmanager
def sat_road() -> Iterator[None]:
    """Numberlink's uncertified answer by the SAT road alone, without the compiled small-board
    search (docs/numberlink-engine.md, step 3), which came after the target was set: the
    uncertified time the issue measured "today" was the SAT road's."""
    from puzzlesat.numberlink.engine import tuning

    before, tuning.SMALL_BOARD_CELLS = tuning.SMALL_BOARD_CELLS, 0
    try:
        yield
    finally:
        tuning.SMALL_BOARD_CELLS = before


def target_table(rows: list[dict[str, Any]]) -> str:
    """Per set: puzzles, certified, confirmed, the sums of the uncertified uniqueness time and of
    certify + check, and their ratio (the target: at most ``TARGET_RATIO``)."""
    lines = ["| set | puzzles | several answers | certified | confirmed | uncertified s | certify s | check s | certify + check s | ratio "
             "| ratio of CPU seconds | worst puzzle ratio | uncertified s, SAT road | ratio to it (CPU) |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    names = list(dict.fromkeys(r["set"] for r in rows))
    for name in names + (["all"] if len(names) > 1 else []):
        mine = [r for r in rows if name in ("all", r["set"])]
        base = sum(r["uncertified_s"] for r in mine)
        cert = sum(r["certify_s"] for r in mine)
        check = sum(r["check_s"] for r in mine)
        worst = max(mine, key=lambda r: r["ratio"])
        cpu = sum(r["certify_cpu_s"] + r["check_cpu_s"] for r in mine) / max(sum(r["uncertified_cpu_s"] for r in mine), 1e-6)
        sat = sum(r.get("sat_road_s", 0.0) for r in mine)
        sat_cpu = sum(r["certify_cpu_s"] + r["check_cpu_s"] for r in mine) / max(sum(r.get("sat_road_cpu_s", 0.0) for r in mine), 1e-6)
        lines.append(f"| {name} | {len(mine)} | {sum(r['uncertified'] == 'multiple' for r in mine)} | "
                     f"{sum(r['status'] != 'uncertified' for r in mine)} | {sum(r['verified'] for r in mine)} | "
                     f"{base:.2f} | {cert:.2f} | {check:.2f} | {cert + check:.2f} | {(cert + check) / max(base, 1e-6):.1f} | "
                     f"{cpu:.1f} | {worst['ratio']} ({worst['instance']}) | {sat:.2f} | {(cert + check) / max(sat, 1e-6):.1f} ({sat_cpu:.1f}) |")
    return "\n".join(lines)


def in_shard(items: list, shard: tuple[int, int]) -> list:
    """The K-th of N shards of ``items`` (``shard`` = (K, N)): positions K-1, K-1+N, ...

    >>> in_shard(list("abcde"), (2, 2)), in_shard(list("abc"), (1, 1))
    (['b', 'd'], ['a', 'b', 'c'])
    """
    k, n = shard
    return items[k - 1::n]


def shard_argument(text: str) -> tuple[int, int]:
    """``K/N`` with 1 <= K <= N, for ``--shard``."""
    try:
        k, n = (int(part) for part in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not K/N (two whole numbers)") from None
    if not 1 <= k <= n:
        raise argparse.ArgumentTypeError(f"{text!r}: K must be between 1 and N")
    return k, n


def roller_rows(sets: Sequence[str], per_set: int | None, time_limit: float, shard: tuple[int, int] = (1, 1)) -> Iterator[dict[str, Any]]:
    """One row per level: its minimum certified, then checked (each within ``time_limit``);
    ``in_time``: both done and confirmed within ``time_limit`` CPU seconds in all (a shared
    machine's wall seconds are given too: ``in_time_wall``)."""
    from benchmarks import roller as roller_bench
    from benchmarks.certificates import measure_certificate

    for set_name in sets:
        for level in in_shard(roller_bench.load_set(set_name)[:per_set], shard):
            row = measure_certificate("roller", set_name, level.name, level, {}, time_limit)
            row.update(task="target", in_time=row["verified"] and row["certify_cpu_s"] + row["check_cpu_s"] <= time_limit,
                       in_time_wall=row["verified"] and row["seconds"] <= time_limit)
            yield row


def roller_table(rows: list[dict[str, Any]]) -> str:
    lines = ["| set | levels | certified | confirmed | in time (CPU) | share | in time (wall) | certify CPU s | check CPU s | slowest (CPU) |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for name in dict.fromkeys(r["set"] for r in rows):
        mine = [r for r in rows if r["set"] == name]
        slowest = max(mine, key=lambda r: r["certify_cpu_s"] + r["check_cpu_s"])
        done = sum(r["in_time"] for r in mine)
        lines.append(f"| {name} | {len(mine)} | {sum(r['status'] != 'uncertified' for r in mine)} | {sum(r['verified'] for r in mine)} | "
                     f"{done} | {100 * done / len(mine):.0f} % | {sum(r['in_time_wall'] for r in mine)} | "
                     f"{sum(r['certify_cpu_s'] for r in mine):.1f} | {sum(r['check_cpu_s'] for r in mine):.1f} | "
                     f"{slowest['certify_cpu_s'] + slowest['check_cpu_s']:.1f} ({slowest['instance']}) |")
    return "\n".join(lines)
