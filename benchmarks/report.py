"""The Markdown report of a benchmark run: tables per family, PAR2 scores and plots.

    python -m benchmarks.report benchmarks/results/latest/rows.jsonl [--out FOLDER]

A row counts as *answered* when it is ``solved`` with ``verified`` true (the family's own
checker accepted the answer) and carries the proof its task asks for (``min-moves``: the
minimum is proven, ``optimal`` true; ``solve+unique``: uniqueness decided, ``unique`` not null),
or when it is a proof that no answer exists (``unsatisfiable`` / ``unsolvable``). A verified
answer without that proof is counted apart ("answer, proof missing": an upper bound, or
uniqueness undecided), not as answered. A ``solved`` row whose answer was not verified is counted apart and flagged,
never as solved. PAR2 = the row's seconds when answered, else twice the time limit; lower is
better. Plots (PNG, when matplotlib is installed): a cactus plot per family (instances answered
against the time limit needed) and time against board size (cells) per family.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import re
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any, Iterable, Sequence

from benchmarks import gauge_line
from puzzlesat.registry import families as registered_families

PROOF_OF_NONE = ("unsatisfiable", "unsolvable")
NOT_PLOTTED = ("generate",)  # tasks shown in the tables but not on the solver plots


def load_rows(path: str | Path) -> list[dict[str, Any]]:
    """The rows of a JSON-lines file; a torn last line (an interrupted run) is skipped."""
    rows = []
    path = Path(path)
    if not path.exists():
        return rows
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(row, dict):
            rows.append(row)
    return rows


def proven(row: dict[str, Any]) -> bool:
    """Whether a solved row also carries the proof its task asks for: a proven minimum for a
    ``min-moves`` task (``optimal`` true), a decided uniqueness for ``solve+unique`` (``unique``
    true or false, not null)."""
    if row.get("task") == "min-moves":
        return row.get("optimal") is True
    if row.get("task") == "solve+unique" and "unique" in row:
        return row["unique"] is not None
    return True


def answered(row: dict[str, Any]) -> bool:
    """Solved with a verified answer and the proof its task asks for, or proven to have none."""
    status = row.get("status")
    if status in PROOF_OF_NONE:
        return True
    return status == "solved" and bool(row.get("verified")) and proven(row)


def unproven(row: dict[str, Any]) -> bool:
    """A verified answer without the proof its task asks for (a min-moves answer not proven
    minimal, i.e. an upper bound; or an answer whose uniqueness was not decided)."""
    return row.get("status") == "solved" and bool(row.get("verified")) and not proven(row)


def seconds_of(row: dict[str, Any]) -> float:
    value = row.get("seconds")
    if not isinstance(value, (int, float)):
        value = (row.get("encode_s") or 0) + (row.get("solve_s") or 0)
    return float(value)


def limit_of(row: dict[str, Any], default: float) -> float:
    value = row.get("time_limit")
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0 else default


def par2(row: dict[str, Any], default_limit: float) -> float:
    """The row's seconds when answered, else twice its time limit.

    >>> par2({"status": "solved", "verified": True, "seconds": 1.5}, 10)
    1.5
    >>> par2({"status": "solved", "verified": False, "seconds": 1.5}, 10)
    20.0
    >>> par2({"status": "unknown", "seconds": 10.2, "time_limit": 5}, 10)
    10.0
    """
    return seconds_of(row) if answered(row) else 2.0 * limit_of(row, default_limit)


def common_instances(rows: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    """The rows of the instances every method of their comparison (family, task, rules) has a
    row for, so that methods are compared on the same instances (in groups where methods share
    instances at all: each generator makes its own), and how many instances were left out.

    >>> rows = [{"instance": "a", "method": "x"}, {"instance": "a", "method": "y"}, {"instance": "b", "method": "x"}]
    >>> [(r["instance"], r["method"]) for r in common_instances(rows)[0]], common_instances(rows)[1]
    ([('a', 'x'), ('a', 'y')], 1)
    """
    def group(row: dict[str, Any]) -> tuple:
        return (row.get("family"), row.get("task"), row.get("rules"))

    methods: dict[tuple, set] = {}
    per_instance: dict[tuple, set] = {}
    for row in rows:
        methods.setdefault(group(row), set()).add(row.get("method"))
        per_instance.setdefault((*group(row), row.get("set"), row.get("instance")), set()).add(row.get("method"))
    shared = {key[:3] for key, found in per_instance.items() if len(found) > 1}  # groups whose methods share instances
    incomplete = {key for key, found in per_instance.items() if key[:3] in shared and found != methods[key[:3]]}
    kept = [row for row in rows if (*group(row), row.get("set"), row.get("instance")) not in incomplete]
    return kept, len(incomplete)


def method_name(row: dict[str, Any]) -> str:
    """The method, with the rule set when the row names one (Numberlink's rule options)."""
    method = str(row.get("method") or "?")
    if row.get("rules") not in (None, ""):
        method += f" ({row['rules']})"
    return method


def method_label(row: dict[str, Any], tasks_per_family: dict[str, set]) -> str:
    method = method_name(row)
    if len(tasks_per_family.get(row.get("family"), ())) > 1:
        return f"{method} [{row.get('task')}]"
    return method


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return math.nan
    index = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[index]


def natural_key(text: str) -> list:
    """Sort key that puts "gen-5x5" before "gen-10x10".

    >>> sorted(["gen-10x10", "gen-5x5"], key=natural_key)
    ['gen-5x5', 'gen-10x10']
    """
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", str(text))]


FLOOR_SECONDS = 1e-4  # plotted times are at least this (log axes cannot show 0)


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
    tasks: dict[str, set] = defaultdict(set)
    for row in rows:
        tasks[row.get("family")].add(row.get("task"))
    groups: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        groups[method_label(row, tasks)].append(row)
    scored = sorted(groups.items(), key=lambda kv: sum(par2(r, default_limit) for r in kv[1]) / len(kv[1]))
    lines = ["| method | answered | instances | PAR2 total s | PAR2 mean s |", "|---|---:|---:|---:|---:|"]
    for label, group in scored:
        total = sum(par2(r, default_limit) for r in group)
        lines.append(f"| {label} | {sum(answered(r) for r in group)} | {len(group)} | {_fmt(total)} | {_fmt(total / len(group))} |")
    return lines


def _have_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def median_line(points: list[tuple[float, float]], *, bins: int = 8) -> tuple[list[float], list[float]]:
    """Median seconds per board size; with many distinct sizes, per logarithmic size bin
    (plotted at the bin's geometric mean size), so the line shows the trend, not the noise.

    >>> median_line([(25, 1.0), (25, 3.0), (100, 5.0)])
    ([25, 100], [2.0, 5.0])
    """
    sizes = sorted({cells for cells, _ in points})
    if len(sizes) <= bins:
        groups = {size: [s for c, s in points if c == size] for size in sizes}
        return sizes, [statistics.median(groups[size]) for size in sizes]
    low, high = math.log(sizes[0]), math.log(sizes[-1])
    width = (high - low) / bins or 1.0
    binned: dict[int, list[tuple[float, float]]] = defaultdict(list)
    for cells, seconds in points:
        binned[min(bins - 1, int((math.log(cells) - low) / width))].append((cells, seconds))
    xs, ys = [], []
    for key in sorted(binned):
        group = binned[key]
        xs.append(math.exp(statistics.fmean(math.log(c) for c, _ in group)))
        ys.append(statistics.median(s for _, s in group))
    return xs, ys


def _new_plot():
    """A figure with one axes, drawn off screen (matplotlib from the ``plot`` extra)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6.4, 4.2), dpi=110)
    FigureCanvasAgg(figure)
    return figure, figure.add_subplot(1, 1, 1)


def _save_plot(figure, ax, path: Path) -> Path:
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="upper left")
    figure.tight_layout()
    figure.savefig(path)
    return path


def plot_family(rows: list[dict[str, Any]], family: str, out: Path, default_limit: float) -> list[Path]:
    """Cactus plot and time-against-size plot of one family as PNG files; returns their paths."""
    rows = [r for r in rows if r.get("task") not in NOT_PLOTTED]  # generators are not solvers: tables only
    if not rows:
        return []
    tasks: dict[str, set] = defaultdict(set)
    for row in rows:
        tasks[row.get("family")].add(row.get("task"))
    by_method: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        by_method[method_label(row, tasks)].append(row)
    limit = max((limit_of(r, default_limit) for r in rows), default=default_limit)
    written = []

    figure, ax = _new_plot()
    for label, group in sorted(by_method.items()):
        times = sorted(max(FLOOR_SECONDS, seconds_of(r)) for r in group if answered(r))
        if times:
            ax.step(range(1, len(times) + 1), times, where="post", marker=".", markersize=4, label=f"{label} ({len(times)}/{len(group)})")
    ax.axhline(limit, color="grey", linestyle=":", linewidth=1, label=f"time limit {limit:g} s")
    ax.set_yscale("log")
    ax.set_xlabel("instances answered (solved and verified, or proven none)")
    ax.set_ylabel("seconds per instance")
    ax.set_title(f"{family}: cactus plot (lower and further right is better)")
    written.append(_save_plot(figure, ax, out / f"{family}-cactus.png"))

    sized = [r for r in rows if isinstance(r.get("cells"), (int, float)) and r.get("cells")]
    if sized:
        figure, ax = _new_plot()
        colours = {}
        for i, (label, group) in enumerate(sorted(by_method.items())):
            colour = f"C{i % 10}"
            colours[label] = colour
            done = [(r["cells"], max(FLOOR_SECONDS, seconds_of(r))) for r in group if answered(r) and r.get("cells")]
            missed = [(r["cells"], limit_of(r, default_limit)) for r in group if not answered(r) and r.get("cells")]
            if done:
                ax.scatter(*zip(*done), s=10, color=colour, alpha=0.6, label=label)
            if done or missed:  # the median counts a row not answered at the time limit
                xs, ys = median_line(done + missed)
                ax.plot(xs, ys, color=colour, linewidth=1.2)
            if missed:
                ax.scatter(*zip(*missed), s=22, color=colour, marker="x", label=f"{label}: not answered")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("board size (cells)")
        ax.set_ylabel("seconds (x = not answered; lines: median)")
        ax.set_title(f"{family}: time against size")
        written.append(_save_plot(figure, ax, out / f"{family}-size.png"))
    return written


def machine_line() -> str:
    return f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}"


def render_report(rows: list[dict[str, Any]], out: Path, *, notes: dict[str, Any] | None = None, plots: bool = True) -> str:
    """The Markdown text of the report (plots are written into ``out`` as a side effect)."""
    notes = notes or {}
    recorded = [limit_of(r, -1.0) for r in rows if limit_of(r, -1.0) >= 0]
    default_limit = float(notes["time_limit"] if isinstance(notes.get("time_limit"), (int, float)) else max(recorded, default=10.0))
    lines = ["# puzzlesat benchmark report", ""]
    lines.append(f"- written {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}" + (f", run started {notes['started']}" if notes.get("started") else ""))
    lines.append(f"- machine: {machine_line()}")
    if isinstance(notes.get("gauge_start_s"), (int, float)):
        lines.append(f"- {gauge_line(notes['gauge_start_s'], notes.get('gauge_end_s'))}: compare runs by it, as this "
                     "machine's speed may change from day to day")
    lines.append(f"- time limit per instance and method: {default_limit:g} s" + (" (quick run)" if notes.get("quick") else ""))
    if isinstance(notes.get("workers"), int):
        lines.append(f"- rows measured through the batch engine, -j {notes['workers']} (0: one worker per core): rows measured "
                     "side by side share the cores, so their seconds are slower than alone")
    per_method = sorted({(method_name(r), limit_of(r, -1.0)) for r in rows if limit_of(r, -1.0) not in (-1.0, default_limit)})
    if per_method:
        lines.append("- other limits, per method: " + ", ".join(f"{name} {limit:g} s" for name, limit in per_method)
                     + " (PAR2 counts twice each row's own limit)")
    unlimited = sum(1 for r in rows if limit_of(r, -1.0) < 0)
    if unlimited:
        lines.append(f"- {unlimited} row(s) record no time limit: counted at {default_limit:g} s")
    for key in ("commit", "versions", "command"):
        if notes.get(key):
            lines.append(f"- {key}: {notes[key]}")
    if not notes.get("commit"):
        lines.append("- code and versions: not recorded with these rows")
    lines.append(f"- rows: {len(rows)}")
    if notes.get("modules"):
        lines.append(f"- modules run: {', '.join(notes['modules'])}")
    data = notes.get("data") or {}
    if data.get("present"):
        lines.append(f"- public data: {data['folder']} ({', '.join(data['present'])})")
    if data.get("absent"):
        where = data["folder"] + ("" if data.get("given", True) else ", the default, as no folder was given")
        lines.append(f"- **public data absent**: no {' or '.join(data['absent'])} sets under {where}, so their rows are "
                     "missing here (give the folder with `--data DIR` or `PUZZLESAT_SHARED_DATA`)")
    for name in notes.get("empty") or []:
        lines.append(f"- `benchmarks.{name}` measured nothing: its data sets are not present (or it found no instance); "
                     "its console lines say which")
    for name, why in (notes.get("missing") or {}).items():
        lines.append(f"- **missing module** `benchmarks.{name}`: {why}")
    for name, why in (notes.get("failed") or {}).items():
        lines.append(f"- **module failed** `benchmarks.{name}`: {why}")
    for name, why in (notes.get("stopped") or {}).items():
        lines.append(f"- **module stopped** `benchmarks.{name}`: {why}; the tables hold the rows it finished")
    if notes.get("interrupted"):
        lines.append("- **the run was interrupted**: the tables hold the rows that finished")
    lines += ["", "A row counts as answered (solved ✓) when its answer passed the family's own `verify` and carries the "
              "proof its task asks for (min-moves: minimum proven; solve+unique: uniqueness decided), or when it is a "
              "proof that no answer exists. A verified answer without that proof is listed as *answer, proof missing* "
              "(an upper bound, or uniqueness undecided). PAR2 = seconds when answered, else twice the time limit.", ""]
    can_plot = plots and _have_matplotlib()
    if plots and not can_plot:
        lines += ["_Plots skipped: matplotlib is not installed (`pip install 'puzzlesat[plot]'`)._", ""]
    registry = [family.name for family in registered_families()]
    families = registry + sorted({str(r.get("family")) for r in rows} - set(registry))
    if not rows:
        lines += ["No rows: nothing was measured.", ""]
    rows, left_out = common_instances(rows)
    if left_out:
        lines += [f"_{left_out} instance(s) without a row for every method (a module stopped at its budget, or a "
                  "method that failed) are left out of the comparison._", ""]
    for family in families:
        family_rows = [r for r in rows if str(r.get("family")) == family]
        if not family_rows:
            if rows:
                lines += [f"## {family}", "", "No rows for this family in this run.", ""]
            continue
        lines += [f"## {family}", "", "Side by side (answered/instances · median s of the answered · mean PAR2 s; the best PAR2 among methods doing the same task under the same rules in bold):", "",
                  *side_by_side(family_rows, default_limit), "", "PAR2 per method (best first):", "",
                  *par2_table(family_rows, default_limit), ""]
        quality = bound_quality_table(family_rows)
        if quality:
            lines += ["Answers against the proven minimum (an answer without proof is an upper bound; how good is it?):", "", *quality, ""]
        lines += ["Every set and method:", "",
                  *summary_table(family_rows, default_limit), ""]
        if can_plot:
            # one pair of plots per benchmark module: a cactus plot compares methods on the same
            # instances, which only rows of one module share
            modules = sorted({str(r.get("module") or "") for r in family_rows if r.get("task") not in NOT_PLOTTED})
            for module in modules:
                module_rows = [r for r in family_rows if str(r.get("module") or "") == module]
                name = family if len(modules) == 1 or not module else (module if module.startswith(family) else f"{family}-{module}")
                for path in plot_family(module_rows, name, out, default_limit):
                    kind = "cactus plot" if path.stem.endswith("cactus") else "time against size"
                    lines += [f"![{name} {kind}]({path.name})", ""]
    return "\n".join(lines)


def write_report(rows_path: str | Path, out: str | Path, *, notes: dict[str, Any] | None = None, plots: bool = True) -> Path:
    """Read the rows, write ``out/report.md`` (and the plots), return the report's path."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for beside in (out / "run.json", Path(f"{rows_path}.run.json")):  # (puzzlesat bench's, or a script's --json)
        if notes is None and beside.exists():
            try:
                notes = json.loads(beside.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError):
                notes = None
    text = render_report(load_rows(rows_path), out, notes=notes, plots=plots)
    path = out / "report.md"
    path.write_text(text, encoding="utf-8")
    return path


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.report", description="Rebuild the Markdown report from benchmark rows.",
                                     epilog="example: python -m benchmarks.report benchmarks/results/latest/rows.jsonl")
    parser.add_argument("rows", type=Path, help="rows.jsonl written by python -m benchmarks")
    parser.add_argument("--out", type=Path, default=None, help="folder for report.md and plots (default: the rows' folder)")
    parser.add_argument("--no-plots", action="store_true", help="tables only")
    args = parser.parse_args(list(argv) if argv is not None else None)
    if not args.rows.exists():
        print(f"error: no such file: {args.rows}", file=sys.stderr)
        return 2
    path = write_report(args.rows, args.out or args.rows.parent, plots=not args.no_plots)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
