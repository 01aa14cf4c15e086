"""The one benchmark runner (``python -m benchmarks`` / ``puzzlesat bench``) and its report,
on a stand-in benchmark module and synthetic rows (the real modules are benchmarks, not tests)."""

from __future__ import annotations

import importlib
import json
import sys
import time
import types
from pathlib import Path

import pytest

import benchmarks.__main__ as runner
from benchmarks import ROW_KEYS
from benchmarks.report import answered, load_rows, par2, unproven, write_report
from puzzlesat.cli import main as puzzlesat_main


def row(method: str, instance: str, status: str, seconds: float, *, verified: bool | None = None, cells: int = 25) -> dict:
    return {
        "family": "numberlink", "set": "toy", "instance": instance, "size": "5x5", "cells": cells, "method": method,
        "task": "solve", "status": status, "encode_s": 0.0, "solve_s": seconds, "seconds": seconds,
        "verified": (status == "solved") if verified is None else verified,
    }


@pytest.fixture
def fake_module(monkeypatch):
    """benchmarks.fake: three rows, then a crash (the rows before it must be kept)."""
    module = types.ModuleType("benchmarks.fake")

    def run(*, time_limit, quick=False):
        assert quick is True and time_limit == 1.5
        yield row("sat", "a", "solved", 0.1)
        yield row("sat", "b", "unknown", 1.5, cells=100)
        yield {**row("dfs", "a", "solved", 0.2, verified=False), "extra": (1, 2)}
        raise RuntimeError("disk on fire")

    module.run = run
    monkeypatch.setitem(sys.modules, "benchmarks.fake", module)
    monkeypatch.setattr(runner, "MODULES", ("fake", "not_there"))
    return module


def test_runner_keeps_rows_names_missing_and_failed_modules(fake_module, tmp_path) -> None:
    notes = runner.run_all(["fake", "not_there"], time_limit=1.5, quick=True, out=tmp_path, echo=lambda *a: None)
    assert notes["missing"] == {"not_there": "not written yet (no module)"}
    assert "disk on fire" in notes["failed"]["fake"] and "after 3 rows" in notes["failed"]["fake"]
    rows = load_rows(tmp_path / "rows.jsonl")
    assert [r["instance"] for r in rows] == ["a", "b", "a"]
    assert all(set(ROW_KEYS) <= set(r) for r in rows)
    assert rows[2]["extra"] == [1, 2] and rows[0]["module"] == "fake" and rows[0]["time_limit"] == 1.5

    text = write_report(tmp_path / "rows.jsonl", tmp_path, notes=notes, plots=False).read_text()
    assert "**missing module** `benchmarks.not_there`" in text
    assert "**module failed** `benchmarks.fake`" in text
    # the unverified "solved" row of dfs is flagged and not counted as solved
    dfs_line = next(line for line in text.splitlines() if line.startswith("| toy | solve | dfs |"))
    assert dfs_line.split("|")[5].strip() == "0" and "**1**" in dfs_line


def test_a_module_that_measured_nothing_is_named_in_the_report(monkeypatch, tmp_path) -> None:
    """Without ../shared/data the Numberlink and Roller benchmarks give no rows; the report
    listed them as run and said only "No rows" (the reason was on the console alone)."""
    module = types.ModuleType("benchmarks.nodata")
    module.run = lambda *, time_limit, quick=False: iter(())
    monkeypatch.setitem(sys.modules, "benchmarks.nodata", module)
    monkeypatch.setattr(runner, "MODULES", ("nodata",))
    notes = runner.run_all(["nodata"], time_limit=1.0, quick=True, out=tmp_path, echo=lambda *a: None)
    assert notes["empty"] == ["nodata"] and notes["modules"] == ["nodata"]
    text = write_report(tmp_path / "rows.jsonl", tmp_path, notes=notes, plots=False).read_text()
    assert "`benchmarks.nodata` measured nothing: its data sets are not present" in text


def test_torn_last_line_of_an_interrupted_run_is_skipped(tmp_path) -> None:
    path = tmp_path / "rows.jsonl"
    path.write_text(json.dumps(row("sat", "a", "solved", 0.1)) + "\n" + '{"family": "numb')
    assert len(load_rows(path)) == 1


def test_par2_and_answered() -> None:
    assert answered(row("sat", "a", "unsatisfiable", 0.3)) and answered(row("sat", "a", "unsolvable", 0.3))
    assert not answered(row("sat", "a", "solved", 0.3, verified=False))
    assert par2(row("sat", "a", "unknown", 9.0), 4.0) == 8.0
    assert par2(row("sat", "a", "solved", 0.25), 4.0) == 0.25
    # a min-moves answer counts only with a proven minimum; otherwise it is an upper bound
    shortest = {**row("flow", "a", "solved", 0.5), "task": "min-moves", "optimal": True}
    bound = {**row("astar", "a", "solved", 0.5), "task": "min-moves", "optimal": False}
    assert answered(shortest) and not answered(bound) and unproven(bound) and not unproven(shortest)
    assert par2(bound, 4.0) == 8.0
    undecided = {**row("sat", "a", "solved", 2.0), "task": "solve+unique", "unique": None}
    decided = {**row("sat", "a", "solved", 0.2), "task": "solve+unique", "unique": False}
    assert not answered(undecided) and unproven(undecided) and answered(decided)


def test_report_with_plots(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    rows = [row(m, str(i), "solved" if i % 3 else "unknown", 0.01 * (i + 1) * (2 if m == "dfs" else 1), cells=25 * (1 + i % 4))
            for m in ("sat", "dfs") for i in range(12)] + [row("sat", "zero", "solved", 0.0)]
    (tmp_path / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    text = write_report(tmp_path / "rows.jsonl", tmp_path).read_text()
    assert "![numberlink cactus plot](numberlink-cactus.png)" in text
    for name in ("numberlink-cactus.png", "numberlink-size.png"):
        assert (tmp_path / name).read_bytes().startswith(b"\x89PNG")
    par2_lines = text.split("PAR2 per method (best first):")[1].strip().splitlines()
    assert par2_lines[2].startswith("| sat |")  # sat is faster on every instance


def test_puzzlesat_bench_command_runs_the_runner(fake_module, tmp_path, capsys) -> None:
    status = puzzlesat_main(["bench", "--quick", "--in-process", "--time-limit", "1.5", "--only", "fake", "--out", str(tmp_path)])
    assert status == 1  # the stand-in module failed mid-run
    assert (tmp_path / "report.md").exists() and len(load_rows(tmp_path / "rows.jsonl")) == 3
    assert puzzlesat_main(["bench", "--only", "nonsense", "--out", str(tmp_path)]) == 2
    assert "unknown benchmark module" in capsys.readouterr().err


@pytest.mark.slow
def test_a_module_in_its_own_process_is_stopped_at_its_budget(tmp_path, monkeypatch) -> None:
    """A stand-in module that gives two rows and then hangs: the runner keeps both rows, stops
    the child process at the budget and says so in the notes and the report."""
    package = tmp_path / "pkg"
    (package / "benchmarks").mkdir(parents=True)
    for name in ("__init__.py", "__main__.py", "_engine.py", "report.py", "_report_rows.py", "_report_tables.py", "_report_plots.py"):
        (package / "benchmarks" / name).write_text((runner.ROOT / "benchmarks" / name).read_text())
    (package / "benchmarks" / "hangs.py").write_text(
        "import time\n"
        "def run(*, time_limit, quick=False):\n"
        "    yield {'family': 'roller', 'set': 's', 'instance': 'a', 'method': 'm', 'task': 'min-moves', 'status': 'solved', 'verified': True, 'optimal': True, 'seconds': 0.1}\n"
        "    yield {'family': 'roller', 'set': 's', 'instance': 'b', 'method': 'm', 'task': 'min-moves', 'status': 'unknown', 'verified': False, 'seconds': 1.0}\n"
        "    time.sleep(600)\n"
    )
    monkeypatch.setattr(runner, "ROOT", package)
    monkeypatch.syspath_prepend(str(package))
    monkeypatch.setattr(runner.importlib.util, "find_spec", lambda name: object())
    started = time.monotonic()
    notes = runner.run_all(["hangs"], time_limit=1.0, quick=True, out=tmp_path / "out", echo=lambda *a: None, isolate=True, budget=5.0)
    assert time.monotonic() - started < 60  # (a hang guard only: the module sleeps 600 s unless stopped)
    assert "budget of 5 s" in notes["stopped"]["hangs"] and "after 2 rows" in notes["stopped"]["hangs"]
    assert [r["instance"] for r in load_rows(tmp_path / "out" / "rows.jsonl")] == ["a", "b"]
    text = write_report(tmp_path / "out" / "rows.jsonl", tmp_path / "out", notes=notes, plots=False).read_text()
    assert "**module stopped** `benchmarks.hangs`" in text


def test_upper_bounds_are_compared_with_the_proven_minimum() -> None:
    from benchmarks.report import bound_quality_table

    def mm(method, instance, moves, optimal):
        return {**row(method, instance, "solved", 0.1), "task": "min-moves", "moves": moves, "optimal": optimal}

    rows = [mm("exact", "a", 5, True), mm("astar", "a", 7, False), mm("exact", "b", 4, True), mm("astar", "b", 4, False),
            mm("astar", "c", 9, False)]  # c: no proven minimum, not compared
    table = bound_quality_table(rows)
    astar = next(line for line in table if line.startswith("| astar |"))
    assert astar == "| astar | 2 | 1 | 1 (50 %) | 2.00 | 2 |"


def test_report_without_matplotlib_still_has_its_tables(tmp_path, monkeypatch) -> None:
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    (tmp_path / "rows.jsonl").write_text(json.dumps(row("sat", "a", "solved", 0.1)) + "\n")
    text = write_report(tmp_path / "rows.jsonl", tmp_path).read_text()
    assert "Plots skipped: matplotlib is not installed" in text and "| toy |" in text
    assert not list(tmp_path.glob("*.png"))


def test_benchmark_rows_are_json_lines_kept_as_measured_and_started_afresh(tmp_path):
    from benchmarks import RowWriter

    path = tmp_path / "rows.jsonl"
    path.write_text('{"instance": "from an earlier run"}\n')
    writer = RowWriter(path)
    writer.write({"instance": "a", "seconds": 0.5})
    # flushed at once: a run stopped here (before close) keeps the row
    assert [json.loads(line) for line in path.read_text().splitlines()] == [{"instance": "a", "seconds": 0.5}]
    writer.write({"instance": "b", "seconds": 1.0})
    writer.close()
    assert [json.loads(line)["instance"] for line in path.read_text().splitlines()] == ["a", "b"]
    with RowWriter(None) as nothing:
        nothing.write({"instance": "c"})


def test_a_benchmark_run_records_the_machine_gauge_at_its_start_and_end(tmp_path) -> None:
    """The same code ran 2.1-3.5 times slower on some days of this shared machine: every run's
    record carries the gauge, the run's report prints it, and so does the module's table."""
    from benchmarks import RowWriter
    from benchmarks.report import write_report as report

    path = tmp_path / "rows.jsonl"
    with RowWriter(path) as writer:
        record = json.loads(Path(f"{path}.run.json").read_text())
        assert record["gauge_start_s"] == writer.gauge_start > 0 and "gauge_end_s" not in record
        writer.write({"family": "swap", "set": "s", "instance": "a", "method": "exact", "task": "min-moves",
                      "status": "solved", "seconds": 0.5, "verified": True, "time_limit": 1.0})
    record = json.loads(Path(f"{path}.run.json").read_text())
    assert record["gauge_end_s"] == writer.gauge_end > 0
    assert writer.gauge_line().startswith(f"machine gauge: {writer.gauge_start:g} s at the start, {writer.gauge_end:g} s at the end")
    text = Path(report(path, tmp_path / "report", plots=False)).read_text()
    assert f"machine gauge: {writer.gauge_start:g} s at the start" in text


def test_the_report_names_per_method_limits_and_compares_methods_on_common_instances(tmp_path) -> None:
    from benchmarks.report import render_report

    rows = [{"family": "roller", "set": "s", "instance": f"i{k}", "method": method, "task": "min-moves", "status": "solved",
             "verified": True, "optimal": True, "seconds": 0.1, "time_limit": limit, "size": "5x5", "cells": 25}
            for k in range(3) for method, limit in (("flow", 8.0), ("dfs", 5.0))]
    rows.append({**rows[0], "instance": "unfinished", "method": "flow"})  # a module stopped before its dfs row
    text = render_report(rows, tmp_path, notes={"time_limit": 8.0}, plots=False)
    assert "other limits, per method: dfs 5 s" in text
    assert "1 instance(s) without a row for every method" in text
    assert "code and versions: not recorded" in text


def test_bad_benchmark_arguments_are_usage_errors_not_tracebacks(capsys) -> None:
    from benchmarks import swap as swap_bench

    for argv in (["--json", "/no/such/folder/rows.jsonl"], ["--time-limit", "-1"]):
        with pytest.raises(SystemExit) as stop:
            swap_bench.main(argv)
        assert stop.value.code == 2
    assert "no folder" in capsys.readouterr().err


def test_numberlink_vs_search_writes_its_summary_beside_the_json_rows(tmp_path, monkeypatch, capsys) -> None:
    from benchmarks import numberlink_vs_search

    monkeypatch.setattr(numberlink_vs_search, "DATA", tmp_path / "absent")
    rows = tmp_path / "rows.jsonl"
    assert numberlink_vs_search.main(["--sets", "public", "--agreement", "0", "--json", str(rows)]) == 0
    assert (tmp_path / "rows.jsonl.summary.json").exists() and (tmp_path / "rows.jsonl.run.json").exists()
    # without its data it says why the table is empty (it printed bare table headers)
    assert "no instance measured: the data sets of --sets public are not present" in capsys.readouterr().out


def test_rows_to_a_device_get_no_sidecar_file(tmp_path) -> None:
    from benchmarks import RowWriter

    with RowWriter("/dev/null") as sink:
        sink.write({"instance": "a"})
    assert not Path("/dev/null.run.json").exists()


def test_a_confirmed_generator_verdict_of_several_answers_is_a_generated_puzzle() -> None:
    """unionfind-label keeps puzzles with several answers, labelled: a confirmed label is a made
    puzzle, so its row has a status of ROW_KEYS and counts as answered in the report (a row
    'multiple' was counted nowhere and scored at twice the time limit)."""
    from benchmarks import generators, multilayer_generators

    rows = [*generators.run(time_limit=30, plan=[((5, 5), 3)]),
            *multilayer_generators.run(time_limit=30, plan=[("unionfind-label", (4, 4, 2), 3)])]
    labelled = [r for r in rows if r["method"] == "unionfind-label"]
    assert any(r["unique"] is False for r in labelled) and all(r["confirmed"] for r in labelled)
    assert {r["status"] for r in rows} == {"solved"}
    assert all(answered(r) and par2(r, 30) == r["seconds"] for r in labelled)


def test_a_public_set_that_is_absent_is_named_as_skipped(tmp_path, monkeypatch, capsys) -> None:
    """With a partial copy of ../shared/data (several sets are not shipped) each absent set is
    named on standard error; it was left out of the tables without a word."""
    from benchmarks import numberlink, numberlink_vs_search, roller

    (tmp_path / "numberlink").mkdir()
    monkeypatch.setattr(numberlink, "DATA", tmp_path / "numberlink")
    monkeypatch.setattr(numberlink_vs_search, "DATA", tmp_path / "numberlink")
    monkeypatch.setattr(roller, "DATA", tmp_path / "roller")
    assert list(numberlink.run(time_limit=1, rules="default", sets=["janko"])) == []
    assert list(numberlink_vs_search.run(time_limit=1, sets="public")) == []
    assert list(roller.run(time_limit=1, methods=["flow"], sets=["herbou"])) == []
    err = capsys.readouterr().err
    for name in ("janko", "flowfree-inputs1", "mzucker", "houston", "herbou"):
        assert f"{name}: no " in err and "(data set absent), skipped" in err
    # once per set, not once per rule set (puzzlesat bench printed 30 such lines for 15 sets)
    assert list(numberlink.run(time_limit=1, rules="all", sets=["janko"])) == []
    assert capsys.readouterr().err.count("janko: no puzzles") == 1


def test_the_roller_script_gives_dfs_no_more_time_than_the_exact_methods_by_default(monkeypatch, capsys) -> None:
    """``python -m benchmarks.roller --time-limit 2`` gave the DFS baseline 5 s a level while
    ``puzzlesat bench`` (run() alone) gives it 2 s: the same measurement differed by entry point."""
    from benchmarks import roller

    seen = []

    def run(**options):
        seen.append(options["dfs_limit"])
        return iter(())

    monkeypatch.setattr(roller, "run", run)
    roller.main(["--time-limit", "2"])
    roller.main(["--time-limit", "60"])
    roller.main(["--time-limit", "2", "--dfs-limit", "7"])
    assert seen == [2.0, 5.0, 7.0]
    capsys.readouterr()


@pytest.mark.parametrize("value", ["time-indexed=abc", "time-indexed=-3"])
def test_a_roller_method_limit_that_is_no_number_of_seconds_is_a_usage_error(value, capsys) -> None:
    """'time-indexed=abc' ended in a ValueError traceback; '=-3' was taken, and every row of the
    method was an error."""
    from benchmarks import roller

    with pytest.raises(SystemExit) as stop:
        roller.main(["--method-limit", value, "--sets", "uridanan-invalid"])
    assert stop.value.code == 2 and "is not a number of seconds" in capsys.readouterr().err


def test_numberlink_vs_search_report_reads_rows_of_an_interrupted_run_and_names_a_missing_file(tmp_path, capsys) -> None:
    """--report ended in a traceback on a file that is not there, and on a torn last line (a run
    killed while writing), which benchmarks.report skips."""
    from benchmarks import numberlink_vs_search

    kept = {**row("backtracking", "a", "solved", 0.1), "set": "unionfind-5x5", "task": "solve", "time_limit": 1.0}
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps(kept) + "\n" + '{"family": "numb')
    assert numberlink_vs_search.main(["--report", str(rows)]) == 0
    assert "unionfind-5x5" in capsys.readouterr().out
    assert numberlink_vs_search.main(["--report", str(rows), str(tmp_path / "absent.jsonl")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_ctrl_c_in_the_agreement_check_of_numberlink_vs_search_is_no_traceback(monkeypatch, capsys) -> None:
    from benchmarks import numberlink_vs_search

    def agreement(n, **options):
        raise KeyboardInterrupt

    monkeypatch.setattr(numberlink_vs_search, "agreement", agreement)
    assert numberlink_vs_search.main(["--agreement", "5"]) == 130
    assert "interrupted during the agreement check" in capsys.readouterr().err


@pytest.mark.parametrize("module, argv", [
    ("numberlink", []), ("numberlink_vs_search", ["--agreement", "0"]), ("roller", []), ("roller_generate", []),
    ("swap", []), ("generators", []), ("multilayer_generators", []),
])
def test_a_benchmark_cut_short_by_ctrl_c_prints_its_table_and_exits_130(module, argv, monkeypatch, capsys) -> None:
    """Each module's run ended by Ctrl-C printed the table of the rows so far and exited 0, as if
    it had finished: a script running 'python -m benchmarks.swap && next' went on."""
    benchmark = importlib.import_module(f"benchmarks.{module}")

    def run(**options):
        raise KeyboardInterrupt
        yield  # (a generator, as the real run is)

    monkeypatch.setattr(benchmark, "run", run)
    if module == "numberlink":
        monkeypatch.setattr(benchmark, "DATA", Path(__file__))  # (present, so the run starts)
    assert benchmark.main(argv) == 130
    assert "interrupted" in " ".join(capsys.readouterr())


@pytest.mark.parametrize("plan", ["split:4x4:2", "bogus:4x4x2:2", "routing-many:8x8x4:2", "split:4x4x2:x"])
def test_a_multilayer_generator_plan_that_cannot_run_is_a_usage_error(plan, capsys) -> None:
    """A stack without its layer count, or a method no generator has, ended in a traceback part
    way through the run (after the plan's earlier parts were drawn)."""
    from benchmarks import multilayer_generators

    with pytest.raises(SystemExit) as stop:
        multilayer_generators.main(["--plan", plan])
    assert stop.value.code == 2 and "--plan" in capsys.readouterr().err


def test_puzzlesat_bench_help_names_every_benchmark_module(capsys) -> None:
    """The help of --only listed six modules; multilayer_generators, run by default, was not among them."""
    with pytest.raises(SystemExit):
        puzzlesat_main(["bench", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert all(name in text for name in runner.MODULES)


SPY_FIRST_SOLVE = """
import importlib.util
import sys
from benchmarks import roller, roller_generate, swap
from puzzlesat import roller as rules

def loaded():  # (without SciPy, should it be missing, Swap's own assignment code runs: nothing to load)
    scipy_loaded = "scipy.optimize" in sys.modules or importlib.util.find_spec("scipy") is None
    return "ortools.sat.python.cp_model" in sys.modules and scipy_loaded

assert not loaded()  # (the solvers load them on first use)
seen = []
module, name, rows = {
    "swap": (swap, "solve", lambda: swap.run(time_limit=5, quick=True, methods=("exact",), sets=("expert",))),
    "roller": (roller, "solve", lambda: roller.run(time_limit=5, methods=["flow"], sets=["starhermit"])),
    "roller_generate": (roller_generate, "generate", lambda: roller_generate.run(time_limit=20, plan=[((6, 6), (3, 8), 1)])),
}[sys.argv[1]]
real = getattr(module, name)

def spy(*args, **options):
    seen.append(loaded())
    return real(*args, **options)

setattr(module, name, spy)
roller.load_set = lambda name: rules.read("examples/roller/medium.roller")
next(iter(rows()))
print(seen[0])
"""


@pytest.mark.parametrize("module", ["swap", "roller", "roller_generate"])
def test_no_timed_row_pays_for_loading_the_solver_libraries(module) -> None:
    """OR-Tools and SciPy are imported on a solver's first call: the benchmarks load them before
    the first timed row (which took 0.13-0.25 s more than the same level later)."""
    import subprocess

    done = subprocess.run([sys.executable, "-c", SPY_FIRST_SOLVE, module], cwd=runner.ROOT, capture_output=True, text=True, timeout=300)
    assert done.stdout.strip() == "True", done.stderr[-2000:]


def test_the_recorded_command_of_a_benchmark_run_can_be_typed_again(tmp_path) -> None:
    """PATH.run.json (and so the report) gave '/.../benchmarks/swap.py --quick ...', which does
    not run: the module's imports need 'python -m' from the checkout's root."""
    import subprocess

    rows = tmp_path / "my rows.jsonl"
    argv = ["-m", "benchmarks.swap", "--quick", "--sets", "7x6", "--methods", "astar", "--time-limit", "0.1", "--json", str(rows)]
    subprocess.run([sys.executable, *argv], cwd=runner.ROOT, capture_output=True, check=True, timeout=300)
    command = json.loads(Path(f"{rows}.run.json").read_text())["command"]
    assert command == f"python -m benchmarks.swap --quick --sets 7x6 --methods astar --time-limit 0.1 --json '{rows}'"


def test_python_m_benchmarks_refuses_a_negative_module_budget_as_puzzlesat_bench_does(capsys) -> None:
    """'--module-budget -5' was taken: every module stopped at once with no rows, exit 0."""
    with pytest.raises(SystemExit) as stop:
        runner.build_parser().parse_args(["--module-budget", "-5"])
    assert stop.value.code == 2 and "is not a number of seconds" in capsys.readouterr().err


@pytest.mark.parametrize("module, default", [("numberlink", "default 10"), ("roller", "default 60"), ("swap", "default 60"),
                                             ("roller_generate", "default 60")])
def test_each_benchmark_help_states_its_time_limit(module, default, capsys) -> None:
    """Roller and Swap said neither the unit nor the default (60 s a level, also with --quick),
    Numberlink no default; Swap's --quick showed a Python dict."""
    import importlib

    with pytest.raises(SystemExit):
        importlib.import_module(f"benchmarks.{module}").main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    said = text.split("--time-limit S ", 1)[1].split(" --", 1)[0]
    assert default in said and "{'" not in text


def test_ctrl_c_in_a_module_process_leaves_the_report_to_the_runner(monkeypatch, capfd) -> None:
    """Ctrl-C on a terminal reaches the module's own process too: it printed a KeyboardInterrupt
    traceback under the runner's 'interrupted ... writing the report of what finished'."""
    module = types.ModuleType("benchmarks.stopped")

    def run(*, time_limit, quick=False):
        yield row("sat", "a", "solved", 0.1)
        raise KeyboardInterrupt

    module.run = run
    monkeypatch.setitem(sys.modules, "benchmarks.stopped", module)
    monkeypatch.setattr(sys, "stdout", sys.stdout)  # (child_main sends stdout to stderr)
    try:
        status = runner.child_main("stopped", 1.0, True)
    except KeyboardInterrupt:
        pytest.fail("the KeyboardInterrupt left the module's process with a traceback")
    assert status == 130
    assert '"instance": "a"' in capfd.readouterr().out


def test_swap_benchmark_compares_the_baseline_with_the_minimum_whatever_the_order_of_methods(monkeypatch) -> None:
    """--methods astar exact measured A* before the minimum was proven: every A* row had excess
    None and the summary said 'above the proven minimum on 0/0 compared levels'."""
    from benchmarks import swap as swap_bench
    from puzzlesat import swap as rules

    level = rules.parse("start\nT1R T1G\nT1G T1R\ngoal\nR G\nR G")
    monkeypatch.setattr(swap_bench, "load_set", lambda name, count: [level])
    rows = list(swap_bench.run(time_limit=5, methods=("astar", "exact"), sets=("expert",)))
    baseline = [row for row in rows if row["method"] == "astar"]
    assert len(baseline) == 1 and baseline[0]["excess"] == 0


def test_numberlink_benchmark_refuses_a_set_its_rules_never_run(capsys) -> None:
    """--sets janko --rules may-leave-empty measured nothing and printed nothing, exit 0: janko
    is a cover-all set, run only under default or no-self-touch rules."""
    from benchmarks import numberlink as numberlink_bench

    with pytest.raises(SystemExit) as stop:
        numberlink_bench.main(["--sets", "janko", "--rules", "may-leave-empty"])
    assert stop.value.code == 2
    error = capsys.readouterr().err
    assert "--sets janko: not run under may-leave-empty rules" in error


def test_roller_benchmark_header_gives_the_limits_the_rows_run_under(monkeypatch, capsys) -> None:
    """--method-limit dfs=0.5 ran the DFS rows for 0.5 s while the header said 'DFS 3.0 s'
    (the --time-limit), and a per-method limit of another method was not named at all."""
    from benchmarks import roller as roller_bench

    monkeypatch.setattr(roller_bench, "load_set", lambda name: [])
    roller_bench.main(["--sets", "herbou", "--time-limit", "3", "--method-limit", "dfs=0.5",
                       "--method-limit", "time-indexed=2"])
    header = capsys.readouterr().out.splitlines()[0]
    assert "DFS 0.5 s" in header and "time-indexed 2.0 s" in header


@pytest.mark.parametrize("name", ["roller", "swap"])
def test_a_method_or_set_named_twice_is_run_once(name, monkeypatch, capsys) -> None:
    """``--methods flow flow`` wrote every row twice, which skewed the medians."""
    import importlib

    bench = importlib.import_module(f"benchmarks.{name}")
    seen = []

    def run(**options):
        seen.append((list(options["methods"]), list(options["sets"])))
        return iter(())

    monkeypatch.setattr(bench, "run", run)
    method, chosen = ("flow", "herbou") if name == "roller" else ("exact", "expert")
    bench.main(["--methods", method, method, "--sets", chosen, chosen])
    assert seen == [([method], [chosen])]
    capsys.readouterr()


def test_one_puzzle_of_a_set_that_is_not_there_is_a_clean_error(tmp_path, monkeypatch, capsys) -> None:
    """``--one SET INDEX`` (one puzzle, the huge boards' own process) raised an IndexError or a
    ValueError traceback for a set that is absent or unknown, or an index that is not in it."""
    from benchmarks import numberlink

    monkeypatch.setattr(numberlink, "DATA", tmp_path / "numberlink")
    for argv, said in ((["--one", "janko", "0"], "--one janko 0: no such puzzle (0 in the set janko"),
                       (["--one", "janko", "x"], "--one janko x: no such puzzle"),
                       (["--one", "nosuch", "0"], "--one nosuch: no such set")):
        with pytest.raises(SystemExit) as stop:
            numberlink.main(argv)
        assert stop.value.code == 2 and said in capsys.readouterr().err


def test_the_report_names_absent_public_data(monkeypatch, tmp_path) -> None:
    """Without the public data the Numberlink and Roller sets are not measured: the report says
    so and names the folder it looked in, not only the console."""
    empty = tmp_path / "no-data"
    empty.mkdir()
    (empty / "roller").mkdir()  # Roller's sets present, Numberlink's absent
    monkeypatch.setenv("PUZZLESAT_SHARED_DATA", str(empty))
    module = types.ModuleType("benchmarks.nodata")
    module.run = lambda *, time_limit, quick=False: iter([row("sat", "a", "solved", 0.1)])
    monkeypatch.setitem(sys.modules, "benchmarks.nodata", module)
    monkeypatch.setattr(runner, "MODULES", ("nodata",))
    printed: list[str] = []
    notes = runner.run_all(["nodata"], time_limit=1.0, quick=True, out=tmp_path / "out", echo=printed.append)
    assert notes["data"] == {"folder": str(empty), "given": True, "present": ["roller"], "absent": ["numberlink"]}
    text = write_report(tmp_path / "out" / "rows.jsonl", tmp_path / "out", notes=notes, plots=False).read_text()
    assert f"**public data absent**: no numberlink sets under {empty}" in text and "--data DIR" in text
    assert f"- public data: {empty} (roller)" in text
    assert any("numberlink data absent" in line for line in printed)
    # no folder given: the report says the folder it looked in was only the default
    notes["data"] = {**notes["data"], "given": False, "present": [], "absent": ["numberlink", "roller"]}
    text = write_report(tmp_path / "out" / "rows.jsonl", tmp_path / "out", notes=notes, plots=False).read_text()
    assert f"no numberlink or roller sets under {empty}, the default, as no folder was given" in text


def test_bench_data_option_is_where_the_modules_read(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("PUZZLESAT_SHARED_DATA", str(tmp_path / "elsewhere"))  # (--data wins; restored after the test)
    (tmp_path / "sets" / "numberlink").mkdir(parents=True)
    seen: list[str] = []

    def run(*, time_limit, quick=False):
        from benchmarks import data_folder

        seen.append(str(data_folder()))
        yield row("sat", "a", "solved", 0.1)

    module = types.ModuleType("benchmarks.reads")
    module.run = run
    monkeypatch.setitem(sys.modules, "benchmarks.reads", module)
    monkeypatch.setattr(runner, "MODULES", ("reads",))
    out = tmp_path / "out"
    status = puzzlesat_main(["bench", "--in-process", "--only", "reads", "--out", str(out), "--data", str(tmp_path / "sets")])
    assert status == 0 and seen == [str(tmp_path / "sets")]
    assert "**public data absent**: no roller sets under" in (out / "report.md").read_text()
    with pytest.raises(SystemExit):
        puzzlesat_main(["bench", "--only", "reads", "--data", str(tmp_path / "nowhere")])


def _count_case(text: str, time_limit: float) -> dict:
    """A stand-in case that does real work: one small Numberlink board counted up to two."""
    from puzzlesat.numberlink import count, parse

    result = count(parse(text), limit=2, time_limit=time_limit)
    return {**row("sat", text.replace("\n", "/"), "solved" if result.count else "unsatisfiable", 0.01), "unique": result.unique}


def _probe_case() -> list:
    """Where it ran: the process and the memory limit set on it."""
    import os

    from puzzlesat.memory import current_limit

    return [{**row("probe", "where", "solved", 0.0), "pid": os.getpid(), "limit": current_limit()}]


BOARDS = ("A.A\nB.B", "A..\n...\n..A", "AB\nBA", "A.B\n...\nB.A", "ABC\n...\nABC")


@pytest.fixture
def cased_module(monkeypatch):
    """benchmarks.cased: its work listed as cases (a row each, and one giving a list of rows)."""
    from benchmarks import rows_of

    module = types.ModuleType("benchmarks.cased")
    module.row_cases = lambda *, time_limit, quick: iter([(_count_case, {"text": text, "time_limit": time_limit}) for text in BOARDS]
                                                     + [(_probe_case, {})])
    module.run = lambda *, time_limit, quick=False: rows_of(module.row_cases(time_limit=time_limit, quick=quick))
    monkeypatch.setitem(sys.modules, "benchmarks.cased", module)
    return module


def test_bench_jobs_run_the_rows_through_the_batch_engine_in_order(cased_module, fake_module, monkeypatch, tmp_path) -> None:
    """-j 2 and -j 1 give the same rows in the same order (a module's cases, then a module with
    none as one job, whose failure keeps its rows); the workers are other processes, under
    --memory-limit."""
    import os

    monkeypatch.setattr(runner, "MODULES", ("cased", "fake", "not_there"))
    verdicts, notes = {}, {}
    for workers in ("1", "2"):
        out = tmp_path / workers
        status = puzzlesat_main(["bench", "--quick", "--time-limit", "1.5", "-j", workers, "--memory-limit", "1G",
                                 "--only", "cased", "fake", "not_there", "--out", str(out)])
        assert status == 1  # (the stand-in module fake fails part way)
        notes[workers] = json.loads((out / "run.json").read_text())
        rows = load_rows(out / "rows.jsonl")
        verdicts[workers] = [(r["module"], r["instance"], r["method"], r["status"], r.get("unique")) for r in rows]
        probe = next(r for r in rows if r["method"] == "probe")
        assert probe["limit"] == 2**30 and (probe["pid"] != os.getpid()) == (workers == "2")
    assert verdicts["1"] == verdicts["2"]
    assert [v[1] for v in verdicts["2"]] == [b.replace("\n", "/") for b in BOARDS] + ["where", "a", "b", "a"]
    assert [v[3:] for v in verdicts["2"][:5]] == [("solved", True), ("solved", False), ("unsatisfiable", False),
                                                  ("unsatisfiable", False), ("solved", True)]
    assert "-j 2 (0: one worker per core)" in (tmp_path / "2" / "report.md").read_text()
    for found in notes.values():
        assert found["workers"] in (1, 2) and "disk on fire" in found["failed"]["fake"] and "after 3 rows" in found["failed"]["fake"]
        assert found["missing"] == {"not_there": "not written yet (no module)"} and found["modules"] == ["cased", "fake"]


def test_the_scale_benchmark_runs_end_to_end_and_its_resume_runs_nothing(tmp_path) -> None:
    """benchmarks.batch --scale N on the first four of its mix (Numberlink and Roller, cheap):
    every puzzle generated, then verified from its pack entry, into one store; run again, the
    finished jobs all come from the store; their records written again make a store as large."""
    from benchmarks import batch

    made = list(batch.scale(4, 2, tmp_path))
    rows = {row["measure"]: row for row in made}
    assert rows["scale generate"]["statuses"] == {"generated": 4} and rows["scale verify"]["statuses"] == {"solved": 4}
    for phase, status in (("generate", "generated"), ("verify", "solved")):  # (where the time went, per entry of the mix)
        mix = [row for row in made if row["measure"] == f"scale {phase} mix"]
        assert [(row["family"], row["jobs"], row["statuses"]) for row in mix] == [
            (family, int(n < 4), {status: 1} if n < 4 else {}) for n, (family, _, _) in enumerate(batch.MIX)]
        assert abs(sum(row["share"] for row in mix) - 1) < 0.01 and rows[f"scale {phase}"]["cpu_seconds"] > 0
    assert rows["scale generate"]["overhead_ms_per_job"] >= 0 and rows["scale verify"]["per_worker_per_second"] > 0
    assert (rows["scale resume"]["jobs"], rows["scale resume"]["resumed"], rows["scale resume"]["ran"]) == (8, 8, 0)
    assert rows["scale store"]["records"] == 8 and rows["scale store"]["per_second"] > 0
