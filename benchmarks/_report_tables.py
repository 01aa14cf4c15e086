"""The Markdown tables of a benchmark report: a summary per family and method, methods side by side
on the same instances, the quality of lower bounds, and PAR2 scores.

>>> rows = [{"family": "f", "method": "m", "task": "solve", "status": "solved", "verified": True, "seconds": 1.0, "time_limit": 10}]
>>> par2_table(rows, 10.0)[-1]
'| m | 1 | 1 | 1.00 | 1.00 |'
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from typing import Any

from benchmarks._report_rows import PROOF_OF_NONE, answered, by_method, method_label, method_name, natural_key, par2, percentile, seconds_of, unproven


def _fmt(value: float) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if value >= 100:
        return f"{value:.0f}"
    if value >= 1:
        return f"{value:.2f}"
    return f"{value:.3f}"


def summary_table(rows: list[dict[str, Any]], default_limit: float) -> list[str]:
    """One line per (set, task, method): counts, times of answered rows, PAR2."""
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for row in rows:
        groups[(str(row.get("set")), str(row.get("task")), method_name(row))].append(row)
    lines = [
        "| set | task | method | instances | solved ✓ | answer, proof missing | proven none | unknown | error | unverified | median s | p90 s | max s | PAR2 mean s |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for (set_name, task, method), group in sorted(groups.items(), key=lambda kv: [natural_key(part) for part in kv[0]]):
        solved = sum(r.get("status") == "solved" and answered(r) for r in group)
        upper = sum(unproven(r) for r in group)
        none = sum(r.get("status") in PROOF_OF_NONE for r in group)
        unknown = sum(r.get("status") == "unknown" for r in group)
        errors = sum(r.get("status") == "error" for r in group)
        unverified = sum(r.get("status") == "solved" and not r.get("verified") for r in group)
        times = [seconds_of(r) for r in group if answered(r)]
        mean_par2 = statistics.fmean(par2(r, default_limit) for r in group)
        lines.append(
            f"| {set_name} | {task} | {method} | {len(group)} | {solved} | {upper} | {none} | {unknown} | {errors} | "
            f"{'**' + str(unverified) + '**' if unverified else 0} | {_fmt(statistics.median(times) if times else math.nan)} | "
            f"{_fmt(percentile(times, 0.9))} | {_fmt(max(times) if times else math.nan)} | {_fmt(mean_par2)} |"
        )
    return lines


def side_by_side(rows: list[dict[str, Any]], default_limit: float) -> list[str]:
    """One line per set, one column per method (and task when a family has several): answered /
    instances, median seconds of the answered ones, and mean PAR2; the best PAR2 among the
    methods doing the same task in bold."""
    tasks: dict[str, set] = defaultdict(set)
    for row in rows:
        tasks[row.get("family")].add(row.get("task"))
    task_of = {method_label(r, tasks): f"{r.get('task')} {r.get('rules') or ''}" for r in rows}  # rivals: same task and rules
    columns = sorted(task_of, key=lambda c: (natural_key(task_of[c]), natural_key(c)))
    groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for row in rows:
        groups[(str(row.get("set")), method_label(row, tasks))].append(row)
    sets = sorted({key[0] for key in groups}, key=natural_key)
    lines = ["| set | " + " | ".join(columns) + " |", "|---|" + "---:|" * len(columns)]
    for set_name in sets:
        cells = []
        scores = {c: statistics.fmean(par2(r, default_limit) for r in groups[(set_name, c)]) for c in columns if groups.get((set_name, c))}
        for column in columns:
            group = groups.get((set_name, column))
            if not group:
                cells.append("")
                continue
            times = [seconds_of(r) for r in group if answered(r)]
            median = _fmt(statistics.median(times)) if times else "-"
            score = _fmt(scores[column])
            rivals = [v for c, v in scores.items() if task_of[c] == task_of[column]]
            if len(rivals) > 1 and scores[column] == min(rivals) and times:  # best of the methods doing the same task
                score = f"**{score}**"
            cells.append(f"{sum(answered(r) for r in group)}/{len(group)} · {median} · {score}")
        lines.append(f"| {set_name} | " + " | ".join(cells) + " |")
    return lines


def bound_quality_table(rows: list[dict[str, Any]]) -> list[str]:
    """For min-moves rows: each method's verified answers against the proven minimum of the same
    instance (from any method that proved one): how many equal it, how many are longer, and by
    how much. Empty when no instance has both a proven minimum and an answer to compare."""
    minimum: dict[tuple, int] = {}
    for row in rows:
        if row.get("task") == "min-moves" and answered(row) and row.get("status") == "solved" and isinstance(row.get("moves"), int):
            minimum[(row.get("set"), row.get("instance"))] = row["moves"]
    per_method: dict[str, list[int]] = defaultdict(list)
    for row in rows:
        key = (row.get("set"), row.get("instance"))
        if row.get("task") == "min-moves" and row.get("status") == "solved" and row.get("verified") and isinstance(row.get("moves"), int) and key in minimum:
            per_method[method_name(row)].append(row["moves"] - minimum[key])
    if not per_method:
        return []
    lines = ["| method | answers compared | equal to the proven minimum | longer | mean excess moves (longer ones) | max excess |",
             "|---|---:|---:|---:|---:|---:|"]
    for method, excess in sorted(per_method.items(), key=lambda kv: natural_key(kv[0])):
        longer = [e for e in excess if e > 0]
        below = sum(e < 0 for e in excess)  # impossible unless a claimed minimum is wrong: shown loudly
        mean = f"{statistics.fmean(longer):.2f}" if longer else "-"
        flag = f" (**{below} below the minimum!**)" if below else ""
        lines.append(f"| {method} | {len(excess)} | {sum(e == 0 for e in excess)} | {len(longer)} ({100 * len(longer) / len(excess):.0f} %){flag} | {mean} | {max(excess)} |")
    return lines


def par2_table(rows: list[dict[str, Any]], default_limit: float) -> list[str]:
    """Per method over the whole family: answered / instances and the PAR2 total, best first."""
    groups = by_method(rows)
    scored = sorted(groups.items(), key=lambda kv: sum(par2(r, default_limit) for r in kv[1]) / len(kv[1]))
    lines = ["| method | answered | instances | PAR2 total s | PAR2 mean s |", "|---|---:|---:|---:|---:|"]
    for label, group in scored:
        total = sum(par2(r, default_limit) for r in group)
        lines.append(f"| {label} | {sum(answered(r) for r in group)} | {len(group)} | {_fmt(total)} | {_fmt(total / len(group))} |")
    return lines
