"""Numberlink against the Go peer (thomasahle/numberlink), side by side in one run on one machine.

    python -m benchmarks.numberlink_peer --peer /path/to/bin/numberlink [--quick] [--json PATH]

The peer is a plain backtracker in Go (no-self-touch rules, one process reads a whole file of
puzzles); build it outside this repository (encodings/numberlink.md, "Measured against the Go
peer and on unseen sets") and name its binary with ``--peer`` or ``$PUZZLESAT_NUMBERLINK_PEER``.
Without it our side is measured alone and the output says so. Four parts (issue #46):

(a) ``janko`` (270 boards), solve only, the whole file in one process: ours under no-self-touch
    and under default rules against the peer's whole-file time (target: within 5x);
(b) ``janko``, solve + uniqueness under no-self-touch, against the peer's solve (within 8x);
(c) ``inputs6#0``, the 1002x1002 board (= Houston flowfree_huge), solve under no-self-touch: time
    and peak memory (target: at most 5 s and 1 GB), beside the peer's; default rules for reference;
(d) ``inputs10`` (11 boards of 50x50), ours with uniqueness (default rules) against the peer's
    solve, one process per board each side (ours must stay ahead, in total and at the worst board).

Our side goes through the public API only (``numberlink.read``, ``solve``, ``is_unique``) in a
child process per measurement; its time is the loop over the file's puzzles (``process``: the
whole child, start-up and imports included), the peer's its whole process. Peak resident memory
is the process's with what it waited for (``/usr/bin/time``). Both sides read the same file,
written by ``numberlink.format(..., fmt="thomasahle")``. Times are the best of ``--repeats`` runs
for (a) and (b), one run for (c) and (d); the targets are judged on wall time, and the CPU time
ratio is printed beside it (on a loaded machine the peer's 0.1 s runs dodge the load more easily
than our seconds-long ones). Every answer is checked: ours by ``numberlink.verify`` in the child,
the peer's by reading its output back and verifying it under no-self-touch rules.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Iterator, Sequence

from benchmarks import JSON_HELP, RowWriter, data_folder, json_path
from puzzlesat import numberlink
from puzzlesat.numberlink import Rules

PEER_VARIABLE = "PUZZLESAT_NUMBERLINK_PEER"
RULES = {"no-self-touch": Rules(no_self_touch=True), "default": Rules()}
PEER_METHOD = "go-thomasahle"
OURS = "puzzlesat"
QUICK_JANKO = 40       # boards of janko in --quick (the huge board is skipped, inputs10 cut to QUICK_50)
QUICK_50 = 2
WALL = 900.0           # a child (ours or the peer's) still running after this many seconds is stopped
TARGETS = {"janko-solve": 5.0, "janko-unique": 8.0, "huge-seconds": 5.0, "huge-mb": 1024.0}
ROOT = Path(__file__).resolve().parents[1]
TIME = "/usr/bin/time"  # GNU time: the peak memory of the process it runs (and of that process alone)


def puzzles_folder() -> Path:
    return data_folder() / "numberlink" / "thomasahle-numberlink" / "puzzles"


def peer_default() -> str | None:
    return os.environ.get(PEER_VARIABLE) or None


# -- processes ------------------------------------------------------------------------------

def run_process(command: Sequence[str], *, stdin: Path | None = None, wall: float = WALL) -> tuple[float, float, float, int, str]:
    """(wall seconds, CPU seconds, peak MB, exit status, standard output) of one process (CPU
    and peak with the children it waited for), stopped after
    ``wall`` seconds (exit status -9). The peak is the process's and its children's, taken by
    ``/usr/bin/time`` when there is one: ``os.wait4`` alone would count the resident memory of
    this Python process, which the child was forked from before its exec."""
    timer_path = TIME if os.access(TIME, os.X_OK) else None
    with tempfile.TemporaryFile("w+", encoding="utf-8") as out, open(stdin or os.devnull, "rb") as source, \
            tempfile.NamedTemporaryFile("r", encoding="utf-8", suffix=".rss") as rss:
        argv = [timer_path, "-f", "%M", "-o", rss.name, *command] if timer_path else list(command)
        start = time.perf_counter()
        child = subprocess.Popen(argv, stdin=source, stdout=out, stderr=subprocess.DEVNULL, cwd=ROOT)
        timer = threading.Timer(wall, child.kill)
        timer.start()
        try:
            _, status, usage = os.wait4(child.pid, 0)
        finally:
            timer.cancel()
        seconds = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)  # (reaped here: Popen must not wait again)
        said = rss.read().split()
        peak_kb = int(said[-1]) if said and said[-1].isdigit() else usage.ru_maxrss
        out.seek(0)
        return seconds, usage.ru_utime + usage.ru_stime, peak_kb / 1024, child.returncode, out.read()


def ours_in_child(path: Path, verb: str, rules: str, time_limit: float | None) -> dict[str, Any]:
    """Our side of one measurement, in a child process (``--child``): its own report plus the
    process's wall time and peak memory."""
    spec = json.dumps({"file": str(path), "verb": verb, "rules": rules, "time_limit": time_limit})
    wall, _, peak, status, out = run_process([sys.executable, "-m", "benchmarks.numberlink_peer", "--child", spec])
    lines = [line for line in out.splitlines() if line.startswith("{")]
    report = json.loads(lines[-1]) if lines else {"error": f"child exit status {status}"}
    return {**report, "process_s": round(wall, 3), "peak_mb": round(peak, 1)}


def _cpu() -> float:
    """CPU seconds of this process and of the children it waited for (a solver may run in one)."""
    return time.process_time() + sum(getattr(resource.getrusage(resource.RUSAGE_CHILDREN), k) for k in ("ru_utime", "ru_stime"))


def outcome(result: Any, answer: Any, verb: str) -> str:
    """One puzzle's outcome: "none" (proven), "answer" (solve), "unique", "several" or "undecided"."""
    if answer is None:
        proven = (result.count == 0 and result.complete) if verb == "unique" else result.status.value == "unsatisfiable"
        return "none" if proven else "undecided"
    return "answer" if verb == "solve" else {True: "unique", False: "several", None: "undecided"}[result.unique]


def child_main(spec: dict[str, Any]) -> dict[str, Any]:
    """Read the file, run the verb on every puzzle (timed as one loop), then check every answer."""
    start = time.perf_counter()
    puzzles = numberlink.read(spec["file"])
    read_s = time.perf_counter() - start
    rules, verb = RULES[spec["rules"]], spec["verb"]
    run_verb = numberlink.solve if verb == "solve" else numberlink.is_unique
    results, each = [], []
    start, cpu = time.perf_counter(), _cpu()
    for puzzle in puzzles:
        began = time.perf_counter()
        results.append(run_verb(puzzle, rules=rules, time_limit=spec["time_limit"]))
        each.append(time.perf_counter() - began)
    seconds, cpu = time.perf_counter() - start, _cpu() - cpu
    answers = [(r.solutions[0] if r.solutions else None) if verb == "unique" else r.solution for r in results]
    outcomes = [outcome(r, a, verb) for r, a in zip(results, answers)]
    return {"puzzles": len(puzzles), "seconds": round(seconds, 4), "cpu_s": round(cpu, 4), "read_s": round(read_s, 4),
            "max_s": round(max(each, default=0.0), 4), "answered": sum(a is not None for a in answers),
            "verified": sum(1 for p, a in zip(puzzles, answers) if a is not None and not numberlink.verify(p, a, rules)),
            **{key: outcomes.count(word) for key, word in (("none", "none"), ("unique", "unique"), ("multiple", "several"), ("undecided", "undecided"))}}


def peer_run(peer: str, path: Path, puzzles: list[numberlink.Puzzle]) -> dict[str, Any]:
    """The peer on the whole file: wall time, peak memory, its answers read back and verified."""
    wall, cpu, peak, status, out = run_process([peer], stdin=path)
    blocks = [block for block in out.strip().split("\n\n") if block.strip()]
    verified = answered = 0
    for puzzle, block in zip(puzzles, blocks):
        if block.strip() == "IMPOSSIBLE":
            continue
        answered += 1
        try:
            answer = numberlink.parse_solution(block, puzzle)
        except Exception:  # (an answer we cannot read is not verified)
            continue
        verified += not numberlink.verify(puzzle, answer, RULES["no-self-touch"])
    return {"puzzles": len(puzzles), "seconds": round(wall, 4), "cpu_s": round(cpu, 4), "process_s": round(wall, 4), "peak_mb": round(peak, 1),
            "answered": answered, "verified": verified, "exit": status}


# -- the parts ------------------------------------------------------------------------------

def write_file(puzzles: list[numberlink.Puzzle], folder: Path, name: str) -> Path:
    path = folder / name
    path.write_text("\n".join(numberlink.format(p, fmt="thomasahle") for p in puzzles) + "\n", encoding="utf-8")
    return path


def _size(puzzles: list[numberlink.Puzzle]) -> tuple[str, int]:
    sizes = sorted({f"{p.width}x{p.height}" for p in puzzles})
    return (sizes[0] if len(sizes) == 1 else f"{len(sizes)} sizes"), sum(p.width * p.height for p in puzzles)


def row(part: str, set_name: str, instance: str, puzzles: list[numberlink.Puzzle], method: str, task: str, rules: str,
        measured: dict[str, Any], time_limit: float | None) -> dict[str, Any]:
    size, cells = _size(puzzles)
    complete = "error" not in measured and measured.get("verified", 0) + measured.get("none", 0) == measured.get("puzzles")
    status = "error" if "error" in measured else "solved" if complete else "unknown"
    return {"family": "numberlink", "set": set_name, "instance": instance, "size": size, "cells": cells, "method": method,
            "task": task, "status": status, "encode_s": 0.0, "solve_s": measured.get("seconds", 0.0),
            "seconds": measured.get("seconds", 0.0), "verified": complete, "time_limit": time_limit,
            "part": part, "rules": rules, **{k: v for k, v in measured.items() if k != "seconds"}}


def best(measure, repeats: int) -> dict[str, Any]:
    runs = [measure() for _ in range(max(1, repeats))]
    return min(runs, key=lambda r: r.get("seconds", float("inf")))


def run(*, time_limit: float | None = None, quick: bool = False, peer: str | None = None, repeats: int = 3,
        folder: Path | None = None) -> Iterator[dict[str, Any]]:
    """Yield the rows of the four parts (ours and the peer's), each as soon as it is measured."""
    peer = peer if peer is not None else peer_default()
    source = puzzles_folder()
    if not source.is_dir():
        print(f"numberlink_peer: no thomasahle puzzles under {source} (data set absent), skipped", file=sys.stderr)
        return
    if peer is None:
        print(f"numberlink_peer: no peer binary (--peer or ${PEER_VARIABLE}): our side only", file=sys.stderr)
    repeats = 1 if quick else repeats
    with tempfile.TemporaryDirectory() as scratch:
        tmp = Path(folder or scratch)
        janko = numberlink.read(source / "janko")[: QUICK_JANKO if quick else None]
        path = write_file(janko, tmp, "janko.txt")
        instance = f"{len(janko)} boards, one process"
        for verb, rules in (("solve", "no-self-touch"), ("solve", "default"), ("unique", "no-self-touch")):
            measured = best(lambda: ours_in_child(path, verb, rules, time_limit), repeats)
            part = "janko-solve" if verb == "solve" else "janko-unique"
            yield row(part, "janko", instance, janko, OURS, "solve" if verb == "solve" else "solve+unique", rules, measured, time_limit)
        if peer:
            yield row("janko-solve", "janko", instance, janko, PEER_METHOD, "solve", "no-self-touch",
                      best(lambda: peer_run(peer, path, janko), repeats), None)
        if not quick:
            huge = numberlink.read(source / "inputs6")[:1]
            path = write_file(huge, tmp, "inputs6-0.txt")
            for rules in ("no-self-touch", "default"):
                yield row("huge", "inputs6", "#0 (Houston flowfree_huge)", huge, OURS, "solve", rules,
                          ours_in_child(path, "solve", rules, time_limit), time_limit)
            if peer:
                yield row("huge", "inputs6", "#0 (Houston flowfree_huge)", huge, PEER_METHOD, "solve", "no-self-touch",
                          peer_run(peer, path, huge), None)
        boards = numberlink.read(source / "inputs10")[: QUICK_50 if quick else None]
        for i, board in enumerate(boards):
            path = write_file([board], tmp, f"inputs10-{i}.txt")
            yield row("50x50", "inputs10", f"#{i}", [board], OURS, "solve+unique", "default",
                      ours_in_child(path, "unique", "default", time_limit), time_limit)
            if peer:
                yield row("50x50", "inputs10", f"#{i}", [board], PEER_METHOD, "solve", "no-self-touch", peer_run(peer, path, [board]), None)


# -- the table ------------------------------------------------------------------------------

def _pick(rows: list[dict[str, Any]], part: str, method: str, rules: str | None = None, task: str | None = None) -> list[dict[str, Any]]:
    return [r for r in rows if r["part"] == part and r["method"] == method and (rules is None or r["rules"] == rules)
            and (task is None or r["task"] == task)]


def _ratio(ours: float, theirs: float | None) -> str:
    return "-" if not theirs else f"{ours / theirs:.1f}x"


def _met(ok: bool | None) -> str:
    return "" if ok is None else ("met" if ok else "MISSED")


def summary(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One line per target: what ours took, what the peer took, the ratio and whether it is met."""
    lines: list[dict[str, Any]] = []
    go = _pick(rows, "janko-solve", PEER_METHOD)
    go_s, go_cpu = (go[0]["seconds"], go[0].get("cpu_s")) if go else (None, None)
    for part, task, rules, target in (("janko-solve", "solve", "no-self-touch", TARGETS["janko-solve"]),
                                      ("janko-solve", "solve", "default", TARGETS["janko-solve"]),
                                      ("janko-unique", "solve+unique", "no-self-touch", TARGETS["janko-unique"])):
        for r in _pick(rows, part, OURS, rules, task):
            ratio = r["seconds"] / go_s if go_s else None
            lines.append({"what": f"janko {task}, {rules}", "ours_s": r["seconds"], "ours_mb": r.get("peak_mb"), "peer_s": go_s,
                          "ratio": _ratio(r["seconds"], go_s), "cpu_ratio": _ratio(r.get("cpu_s") or 0, go_cpu), "target": f"<= {target:g}x of peer solve",
                          "met": None if ratio is None else ratio <= target and r["verified"]})
    go = _pick(rows, "huge", PEER_METHOD)
    for r in _pick(rows, "huge", OURS):
        ok = r["seconds"] <= TARGETS["huge-seconds"] and (r.get("peak_mb") or 0) <= TARGETS["huge-mb"] and r["verified"]
        lines.append({"what": f"1002x1002 solve, {r['rules']}", "ours_s": r["seconds"], "ours_mb": r.get("peak_mb"),
                      "peer_s": go[0]["seconds"] if go else None, "peer_mb": go[0].get("peak_mb") if go else None,
                      "ratio": _ratio(r["seconds"], go[0]["seconds"] if go else None),
                      "cpu_ratio": _ratio(r.get("cpu_s") or 0, go[0].get("cpu_s") if go else None),
                      "target": "<= 5 s, <= 1 GB" if r["rules"] == "no-self-touch" else "(reference)",
                      "met": ok if r["rules"] == "no-self-touch" else None})
    ours, go = _pick(rows, "50x50", OURS), _pick(rows, "50x50", PEER_METHOD)
    if ours:
        total, worst = sum(r["seconds"] for r in ours), max(r["seconds"] for r in ours)
        go_total, go_worst = (sum(r["seconds"] for r in go), max(r["seconds"] for r in go)) if go else (None, None)
        lines.append({"what": f"50x50 x{len(ours)} total (ours +unique)", "ours_s": round(total, 3), "peer_s": go_total,
                      "ratio": _ratio(total, go_total), "target": "ours < peer",
                      "cpu_ratio": _ratio(sum(r.get("cpu_s") or 0 for r in ours), sum(r.get("cpu_s") or 0 for r in go) if go else None),
                      "met": None if go_total is None else total < go_total and all(r["verified"] for r in ours)})
        lines.append({"what": "50x50 worst board", "ours_s": worst, "peer_s": go_worst, "ratio": _ratio(worst, go_worst),
                      "target": "ours < peer", "met": None if go_worst is None else worst < go_worst})
    return lines


def table(rows: list[dict[str, Any]]) -> str:
    head = (f"{'part':6} {'set':9} {'instance':28} {'method':14} {'task':13} {'rules':14} {'answered':>9} {'verified':>8} {'seconds':>9} "
            f"{'cpu s':>8} {'process':>8} {'peak MB':>8}")
    out = [head, "-" * len(head)]
    for r in rows:
        out.append(f"{r['part'][:6]:6} {r['set']:9} {r['instance'][:28]:28} {r['method']:14} {r['task']:13} {r['rules']:14} "
                   f"{r.get('answered', 0):>4}/{r.get('puzzles', 0):<4} {r.get('verified', 0):>8} {r['seconds']:9.3f} {r.get('cpu_s') or 0:8.3f} "
                   f"{r.get('process_s', 0):8.2f} {r.get('peak_mb') or 0:8.0f}")
    out += ["", f"{'target':38} {'ours s':>8} {'ours MB':>8} {'peer s':>8} {'ratio':>7} {'cpu ratio':>9}  {'target':24} verdict", "-" * 120]
    for s in summary(rows):
        peer_s = "-" if s.get("peer_s") is None else f"{s['peer_s']:.3f}"
        mb = "-" if s.get("ours_mb") is None else f"{s['ours_mb']:.0f}"
        out.append(f"{s['what']:38} {s['ours_s']:8.3f} {mb:>8} {peer_s:>8} {s['ratio']:>7} {s.get('cpu_ratio', '-'):>9}  {s['target']:24} {_met(s['met'])}")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.numberlink_peer", description=__doc__.split("\n\n")[0])
    parser.add_argument("--peer", metavar="PATH", default=peer_default(), help=f"the Go solver's binary (default ${PEER_VARIABLE}; none: our side only)")
    parser.add_argument("--quick", action="store_true", help=f"janko's first {QUICK_JANKO} boards, {QUICK_50} of the 50x50, no 1002x1002, one run each")
    parser.add_argument("--repeats", type=int, default=3, metavar="N", help="runs of the janko parts, the best kept (default 3)")
    parser.add_argument("--time-limit", type=float, default=None, metavar="S", help="seconds per puzzle on our side (default none)")
    parser.add_argument("--json", type=json_path, metavar="PATH", help=JSON_HELP)
    parser.add_argument("--child", metavar="SPEC", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child_main(json.loads(args.child))), flush=True)
        return 0
    if args.peer is not None and not os.access(args.peer, os.X_OK):
        parser.error(f"--peer {args.peer}: no executable file there")
    kept: list[dict[str, Any]] = []
    with RowWriter(args.json) as sink:
        for r in run(time_limit=args.time_limit, quick=args.quick, peer=args.peer, repeats=args.repeats):
            kept.append(r)
            sink.write(r)
            print(f"{r['part']:12} {r['instance']:28} {r['method']:14} {r['rules']:14} {r['seconds']:8.3f}s peak {r.get('peak_mb') or 0:.0f} MB",
                  file=sys.stderr, flush=True)
    if kept:
        print(table(kept))
    print(sink.gauge_line())
    return 0


if __name__ == "__main__":
    sys.exit(main())
