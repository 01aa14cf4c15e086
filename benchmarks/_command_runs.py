"""Runs of the ``puzzlesat`` command on huge inputs, for the robustness benchmark's command-line
cases (:mod:`benchmarks.robustness`): the inputs, built here (seeded), and a run measured as a
user meets it: its wall time from start to exit and the peak memory of its whole process tree
(the command and every child it forks, polled from ``/proc``; proportional set sizes, so pages
a forked child shares with its parent count once).

>>> text = roller_level(6, seed=1)
>>> text.splitlines()[0], len(text.splitlines())
('######', 6)
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Sequence

ROOT = Path(__file__).resolve().parents[1]
POLL_SECONDS = 0.1


def adc_lines(side: int) -> str:
    """An ADC problem of ``side`` x ``side`` cells with a line of two cells in every other row and
    column: ``side * side / 4`` lines (a million for 2000)."""
    lines = [f"SIZE {side}X{side}", f"LINE_NUM {(side // 2) ** 2}"]
    number = 0
    for r in range(0, side - 1, 2):
        for c in range(0, side - 1, 2):
            number += 1
            lines.append(f"LINE#{number} ({c},{r})-({c},{r + 1})")
    return "\n".join(lines) + "\n"


def two_labels(side: int) -> str:
    """A ``side`` x ``side`` Numberlink board (native) with two labels down its left and right
    edges: every cell free, the whole board for the solver to take in."""
    middle = "." * side
    edge = "A" + "." * (side - 2) + "B"
    return "\n".join([edge] + [middle] * (side - 2) + [edge]) + "\n"


def roller_level(side: int, *, seed: int) -> str:
    """A ``side`` x ``side`` Roller level (native): walls round the edge, each inner cell floor
    with chance 0.7, the start at (1, 1)."""
    rng = random.Random(seed)
    rows = []
    for r in range(side):
        if r in (0, side - 1):
            rows.append("#" * side)
            continue
        inner = "".join("." if rng.random() < 0.7 else "#" for _ in range(side - 2))
        rows.append("#" + ("o" + inner[1:] if r == 1 else inner) + "#")
    return "\n".join(rows) + "\n"


def swap_level(side: int, *, seed: int) -> str:
    """A ``side`` x ``side`` Swap level: random towers, bishops and queens of reach 1-3 in four
    colours, the goal the same colours shuffled."""
    rng = random.Random(seed)
    start = [[rng.choice("TBQ") + str(rng.randint(1, 3)) + rng.choice("RGBY") for _ in range(side)] for _ in range(side)]
    colours = [token[2] for row in start for token in row]
    rng.shuffle(colours)
    goal = [colours[r * side:(r + 1) * side] for r in range(side)]
    return ("start\n" + "\n".join(" ".join(row) for row in start) + "\ngoal\n"
            + "\n".join(" ".join(row) for row in goal) + "\n")


def run_command(arguments: Sequence[str], *, timeout: float = 600.0) -> dict[str, Any]:
    """``python -m puzzlesat ARGUMENTS`` (this tree's code): ``seconds`` from start to exit,
    ``returncode``, ``record`` (its last JSON line, or None), ``peak_mb`` (the process tree's
    largest total, polled every POLL_SECONDS) and ``peak_processes`` (how many it had then)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")]))}
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "puzzlesat", *arguments], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    peak, processes = 0, 0
    try:
        while process.poll() is None:
            if time.perf_counter() - start > timeout:
                process.kill()
                break
            tree = _tree(process.pid)
            total = sum(map(_memory, tree))
            if total > peak:
                peak, processes = total, len(tree)
            time.sleep(POLL_SECONDS)
        out, err = process.communicate()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    seconds = time.perf_counter() - start
    records = [line for line in out.splitlines() if line.startswith("{")]
    return {"seconds": seconds, "returncode": process.returncode, "record": json.loads(records[-1]) if records else None,
            "peak_mb": round(peak / 2**20, 1), "peak_processes": processes, "stderr": err.strip().splitlines()[-1:] }


def _tree(root: int) -> list[int]:
    """``root`` and its descendants (from each process's parent in ``/proc/PID/stat``)."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as handle:
                parent = int(handle.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(parent, []).append(int(name))
    found, todo = [root], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _memory(pid: int) -> int:
    """The proportional set size of a process in bytes (its resident size where the kernel
    gives no ``smaps_rollup``), 0 when it has gone."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as handle:
            for line in handle:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        with open(f"/proc/{pid}/statm") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0
