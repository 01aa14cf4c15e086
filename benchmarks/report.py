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

This module writes the report; what it counts of the rows is in :mod:`benchmarks._report_rows`,
its tables in :mod:`benchmarks._report_tables` and its plots in :mod:`benchmarks._report_plots`.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any, Iterable

from benchmarks import gauge_line
from puzzlesat.registry import families as registered_families

from benchmarks._report_plots import NOT_PLOTTED, _have_matplotlib, plot_family
from benchmarks._report_rows import answered, common_instances, limit_of, load_rows, method_name, par2, unproven  # noqa: F401 (some imported from here too)
from benchmarks._report_tables import bound_quality_table, par2_table, side_by_side, summary_table


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
