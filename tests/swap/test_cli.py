"""Swap on the command line: detection, the JSON contract, verify's verdicts, generate with resume."""

from __future__ import annotations

import importlib
import json
import sys
import types

import pytest

from puzzlesat.cli import main
from puzzlesat.registry import detect_family
from puzzlesat.seeds import puzzle_seed
from puzzlesat.swap import FAMILY
from puzzlesat.swap import parse, parse_all
from tests.swap.test_generate import bfs_solve

generate_module = importlib.import_module("puzzlesat.swap.generate")

LEVEL = """# demo
start
T1R B1G ### Q2Y
T3B T1R B1G T1R
goal
R G # R
B R G Y
"""
CONTRACT = {"family", "source", "index", "status", "objective", "size", "answer", "moves", "moves_count", "optimal",
            "lower_bound", "solved_by", "stated_answer", "seconds", "error"}


@pytest.fixture
def exact(monkeypatch):
    """A stand-in for the exact solver module (test-only): breadth-first search."""
    fake = types.ModuleType("puzzlesat.swap.solve")

    def solve(level, *, method=None, time_limit=None):
        if method == "astar":  # the real module hands the baseline on (in a child process on large boards)
            from puzzlesat.swap.astar import astar_solve

            return astar_solve(level, time_limit=time_limit)
        if method not in (None, "bfs"):
            raise ValueError(f"unknown method {method!r}")
        return bfs_solve(level)

    fake.solve = solve
    fake.METHODS = ("search", "cpsat", "astar")
    monkeypatch.setitem(sys.modules, "puzzlesat.swap.solve", fake)
    monkeypatch.setattr(generate_module, "exact_solve", bfs_solve)


def run_json(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr().out
    return code, [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def test_sniff_is_specific():
    assert FAMILY.sniff(LEVEL)
    assert not FAMILY.sniff("5 5\nA...B\n.....\n")
    assert not FAMILY.sniff("start\nsome text\ngoal: reach it\n")
    assert detect_family(LEVEL, "level.txt").name == "swap"
    for ending in ("\r\n", "\r"):  # Windows and old Mac line endings
        assert detect_family(LEVEL.replace("\n", ending), "level.txt").name == "swap"
    assert detect_family("anything", "level.swap").name == "swap"


def test_lower_case_squares_in_a_txt_file_are_refused_by_the_swap_reader(tmp_path, capsys):
    """'t1r' is a Swap square written in the wrong case: the Swap reader says so (it was read
    as a Numberlink grid: 'row has 2 cells but the first row (line 1) gives 1 (ragged rows)')."""
    path = tmp_path / "level.txt"
    path.write_text("start\nt1r t1g\nt1g t1r\ngoal\nR G\nR G\n")
    code = main(["solve", str(path)])
    out = capsys.readouterr().out
    assert code == 1 and "level.txt:2:1: unknown figure 't' in 't1r' (expected T tower" in out


def test_solve_json_contract(tmp_path, capsys, exact):
    path = tmp_path / "a.txt"
    path.write_text(LEVEL)
    code, (record,) = run_json(capsys, "solve", str(path), "--json")
    assert code == 0 and CONTRACT <= set(record)
    assert record["family"] == "swap" and record["status"] == "solved"
    assert record["moves"] == ["0,3>1,3"] and record["optimal"] is True and record["lower_bound"] == 1
    assert record["answer"] == "0,3>1,3" and record["size"] == {"width": 4, "height": 2} and "rows" not in record
    assert record["objective"] == "fewest-moves" and record["solved_by"] is None and record["stated_answer"] is None


def test_astar_method_is_never_optimal(tmp_path, capsys):
    path = tmp_path / "a.swap"
    path.write_text(LEVEL)
    code, (record,) = run_json(capsys, "solve", str(path), "--json", "--method", "astar")
    assert code == 0 and record["method"] == "astar" and record["optimal"] is False
    assert record["moves"] == ["0,3>1,3"]


def test_a_search_stopped_by_its_cap_says_so_not_time_limit(tmp_path, capsys, monkeypatch):
    """With no time limit, the A* baseline's runs stopped at their cap of expansions (here 1;
    5,000 in the game) answer "unknown": the line and the record say why, as Roller's do
    (it said 'unknown (time limit)')."""
    astar = importlib.import_module("puzzlesat.swap.astar")
    real = astar.astar_solve
    monkeypatch.setattr(astar, "astar_solve", lambda level, **options: real(level, cap=1, **options))
    path = tmp_path / "far.swap"
    path.write_text("start\nT1R T1G T1B\ngoal\nG B R\n")  # two moves: more than one expansion
    code, (record,) = run_json(capsys, "solve", str(path), "--json", "--method", "astar")
    assert code == 1 and record["status"] == "unknown"
    assert record["reason"] == "A* baseline: every run stopped at its cap of 1 expansions"
    assert main(["verify", str(path), "--method", "astar"]) == 1
    assert "far.swap (3x1 match): unknown (A* baseline: every run stopped at its cap of 1 expansions)" in capsys.readouterr().out
    assert main(["render", str(path), "--method", "astar", "--solution", "-o", str(tmp_path / "far.svg")]) == 1
    assert "no answer drawn: unknown (A* baseline: every run stopped at its cap" in capsys.readouterr().err


def test_unsolvable_and_unknown_method(tmp_path, capsys, exact):
    path = tmp_path / "b.swap"
    path.write_text("start\nB1R B1G\ngoal\nG R\n---\nstart\nT1R T1G\ngoal\nG R\n")
    code, records = run_json(capsys, "solve", str(path), "--json")
    assert code == 1 and [r["status"] for r in records] == ["unsolvable", "solved"]
    assert records[0]["moves"] is None
    with pytest.raises(SystemExit) as stop:  # refused once, before any level is read
        main(["solve", str(path), "--json", "--index", "1", "--method", "nonsense"])
    assert stop.value.code == 2 and "unknown method 'nonsense'" in capsys.readouterr().err


def test_verify_compares_stated_claims(tmp_path, capsys, exact):
    good = tmp_path / "good.swap"
    good.write_text(LEVEL + "minimum 1\nsolution 1,3>0,3\n")
    upper = tmp_path / "upper.swap"
    upper.write_text(LEVEL + "minimum 4\n")  # an A*-style upper bound: not the minimum, so it fails
    wrong = tmp_path / "wrong.swap"
    wrong.write_text(LEVEL + "minimum 0\n")  # claims fewer moves than possible
    bad_answer = tmp_path / "bad.swap"
    bad_answer.write_text(LEVEL + "solution 0,0>1,1\n")
    code, records = run_json(capsys, "verify", str(tmp_path), "--json")
    by_name = {r["source"].rsplit("/", 1)[1]: r for r in records}
    assert code == 1
    assert by_name["good.swap"]["stated_minimum_match"] == "equal" and by_name["good.swap"]["stated_answer"]["valid"] is True
    assert by_name["good.swap"]["stated_answer"]["same"] is True and by_name["good.swap"]["stated_answer"]["source"] is None
    assert by_name["upper.swap"]["stated_minimum_match"] == "better"
    assert by_name["wrong.swap"]["stated_minimum_match"] == "worse"
    assert by_name["bad.swap"]["stated_answer"]["valid"] is False
    assert by_name["bad.swap"]["stated_answer"]["violations"][0].startswith("wrong-direction: move 1 (0,0>1,1): ")
    verdicts = {name: FAMILY.passed(r) for name, r in by_name.items()}
    assert verdicts == {"bad.swap": False, "good.swap": True, "upper.swap": False, "wrong.swap": False}
    code, records = run_json(capsys, "verify", str(upper), "--json", "--method", "astar")  # the baseline's shorter plan disproves it too
    assert records[0]["stated_minimum_match"] == "better" and not FAMILY.passed(records[0]) and code == 1


def test_verify_says_when_a_stated_solution_is_longer_than_the_proven_minimum(tmp_path, capsys, exact):
    """With no stated minimum the solution claims no minimality (the level still passes), but a
    checker of a level set is told that it is not the shortest."""
    long_way = tmp_path / "long.swap"
    long_way.write_text(LEVEL + "solution 1,3>0,3 0,0>0,1 0,0>0,1\n")  # the minimum is 1 move
    assert main(["verify", str(long_way)]) == 0
    assert "solved in 1 move, proven minimum; stated solution has 3 moves, more than the minimum (the file states no minimum)" in capsys.readouterr().out
    shortest = tmp_path / "short.swap"
    shortest.write_text(LEVEL + "solution 1,3>0,3\n")
    assert main(["verify", str(shortest)]) == 0
    assert "stated solution" not in capsys.readouterr().out


def test_verify_takes_a_valid_stated_solution_when_the_search_runs_out_of_time(tmp_path, capsys, monkeypatch):
    """A search stopped at its time limit with no plan, or a longer one, and a proven bound:
    a valid stated solution shows the level solvable (it was "unknown"), and proves its minimum
    when it is as short as the bound; it is written mover first; one shorter than the bound
    shows a fault in the solver."""
    from puzzlesat.results import SolveResult, Status

    outcome = {}
    fake = types.ModuleType("puzzlesat.swap.solve")
    fake.solve = lambda level, *, method=None, time_limit=None: outcome["result"]
    fake.METHODS = ("search", "cpsat", "astar")
    monkeypatch.setitem(sys.modules, "puzzlesat.swap.solve", fake)
    path = tmp_path / "stated.swap"
    path.write_text("start\nT1R B1G\ngoal\nG R\nminimum 1\nsolution 0,1>0,0\n")  # the bishop does not reach the tower: it does

    outcome["result"] = SolveResult(Status.UNKNOWN, None, optimal=False, lower_bound=1, method="search")
    code, (record,) = run_json(capsys, "verify", str(path), "--json")
    assert (record["status"], record["moves"], record["optimal"], record["lower_bound"]) == ("solved", ["0,0>0,1"], True, 1)
    assert record["solved_by"] == "stated answer" and record["stated_minimum_match"] == "equal" and code == 0

    outcome["result"] = SolveResult(Status.UNKNOWN, None, optimal=False, lower_bound=0, method="search")
    code, (record,) = run_json(capsys, "verify", str(path), "--json")
    assert (record["status"], record["optimal"], record["lower_bound"], record["stated_minimum_match"]) == ("solved", False, 0, "equal")
    assert code == 1  # (not proven minimal)

    longer = ("0,0>0,1", "0,0>0,1", "0,0>0,1")
    outcome["result"] = SolveResult(Status.SOLVED, longer, optimal=False, lower_bound=1, method="search")
    code, (record,) = run_json(capsys, "verify", str(path), "--json")
    assert (record["moves"], record["optimal"], record["solved_by"]) == (["0,0>0,1"], True, "stated answer") and code == 0

    outcome["result"] = SolveResult(Status.UNKNOWN, None, optimal=False, lower_bound=2, method="search")
    code, (record,) = run_json(capsys, "verify", str(path), "--json")
    assert record["status"] == "error" and "fault in the solver" in record["error"] and code == 1


def test_parse_error_becomes_an_error_record(tmp_path, capsys):
    path = tmp_path / "broken.swap"
    path.write_text("start\nT1R X1G\ngoal cluster\n")
    code, (record,) = run_json(capsys, "verify", str(path), "--json")
    assert code == 1 and record["status"] == "error" and "broken.swap:2:5: unknown figure 'X'" in record["error"]


def test_show_draws_start_goal_reached_and_moves(exact):
    level = parse(LEVEL)
    record = FAMILY.solve_record(level, options=FAMILY.defaults(), time_limit=None)
    record.update(source="x.swap", index=0, seconds=0.1)
    text = FAMILY.show(level, record, verb="solve", where=record["source"], colour=False)
    assert "start" in text and "goal" in text and "reached" in text and "moves: 0,3>1,3" in text
    assert "T1R B1G ### T1R" in text  # the reached board
    coloured = FAMILY.show(level, record, verb="solve", where=record["source"], colour=True)
    assert "\x1b[31mT1R\x1b[0m" in coloured


def test_generate_writes_and_resumes(tmp_path, capsys, exact):
    out = tmp_path / "pack.swap"
    args = ["generate", "swap", "--difficulty", "easy", "--goal", "match", "--seed", "4", "--out", str(out)]
    assert main(args + ["--count", "2"]) == 0
    first = parse_all(out.read_text())
    assert len(first) == 2 and all(level.stated_minimum is not None for level in first)
    assert main(args + ["--count", "3"]) == 0
    again = parse_all(out.read_text())
    assert again[:2] == first and len(again) == 3
    fresh = tmp_path / "fresh.swap"
    assert main(args[:-1] + [str(fresh), "--count", "3"]) == 0
    assert parse_all(fresh.read_text()) == again  # resuming gives the same pack as one run
    assert main(["generate", "swap", "--difficulty", "medium", "--seed", "4", "--out", str(out), "--count", "4"]) == 2
    err = capsys.readouterr().err
    assert "not written by a run with these settings" in err and "--difficulty easy" in err and "--difficulty medium" in err
    for level in again:
        bfs = bfs_solve(level)
        assert len(bfs.solution) == level.stated_minimum


def test_generate_moves_range_argument(capsys, exact):
    assert main(["generate", "swap", "--difficulty", "easy", "--moves", "2-3", "--seed", "1"]) == 0
    (level,) = parse_all(capsys.readouterr().out)
    assert 2 <= level.stated_minimum <= 3
    with pytest.raises(SystemExit):
        main(["generate", "swap", "--moves", "5-2"])


def test_solve_with_the_real_exact_solver(tmp_path, capsys):
    pytest.importorskip("puzzlesat.swap.solve")
    path = tmp_path / "real.swap"
    path.write_text(LEVEL)
    code, (record,) = run_json(capsys, "solve", str(path), "--json", "--time-limit", "20")
    assert code == 0 and record["status"] == "solved" and record["optimal"] is True
    assert record["moves_count"] == 1 and record["lower_bound"] == 1


def test_a_pack_never_holds_one_level_twice_and_refuses_a_torn_last_level(tmp_path, capsys, exact, monkeypatch):
    from puzzlesat.seeds import puzzle_seed  # (the one pack writer's seeds)

    real = generate_module.generate
    seeds = []

    def repeating(**options):  # the first draw of every level repeats level 0
        seeds.append(options["seed"])
        first = puzzle_seed(1, 0)
        return real(**{**options, "seed": first if options["seed"] == puzzle_seed(1, len(set(seeds)) - 1) else options["seed"]})

    monkeypatch.setattr(generate_module, "generate", repeating)
    out = tmp_path / "tiny.swap"
    args = ["generate", "swap", "--difficulty", "easy", "--seed", "1", "--out", str(out)]
    assert main(args + ["--count", "3"]) == 0
    levels = parse_all(out.read_text())
    assert len(levels) == 3 and len({(level.start, level.goal) for level in levels}) == 3
    assert puzzle_seed(1, 1, 1) in seeds  # level 1 was drawn again from its next seed
    monkeypatch.setattr(generate_module, "generate", real)
    text = out.read_text()
    last = text.rindex("# puzzle 2:")
    first_end = text.index("# puzzle 1:")
    for cut in (text.rsplit("minimum", 1)[0], text.rsplit(" ", 1)[0], text.rstrip("\n")[:-1], text[:last + 20],
                text[:first_end].rsplit(">", 1)[0]):  # ... and a pack of one level cut in its solution
        torn = tmp_path / "torn.swap"  # the run stopped while writing the last level
        torn.write_text(cut)
        assert main(args[:-1] + [str(torn), "--count", "4"]) == 2
        assert f"{torn} ends in the middle of puzzle" in capsys.readouterr().err
    whole = tmp_path / "whole.swap"  # complete, but without the blank line that ends its last level
    whole.write_text(text.rstrip("\n") + "\n")
    assert main(args[:-1] + [str(whole), "--count", "4"]) == 0
    assert len(parse_all(whole.read_text())) == 4
    assert main(["generate", "swap", "--out", str(tmp_path / "missing" / "pack.swap")]) == 2
    assert "no folder" in capsys.readouterr().err


def test_a_request_no_level_can_meet_is_one_error_line_without_a_run_summary(capsys):
    """As generate numberlink and roller: the refusal alone (a summary "0 new level(s), 0 of 1; ...
    0 draws ..." followed it)."""
    assert main(["generate", "swap", "--size", "2x2", "--moves", "40-50"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: no 2x2 level needs 40 moves") and "new level(s)" not in err


def test_draws_whose_proofs_keep_running_out_of_work_end_the_level(monkeypatch):
    from puzzlesat.results import SolveResult, Status
    from puzzlesat.swap.generate import UNKNOWN_STREAK, GenerationFailed, certify_work, generate

    calls = []
    monkeypatch.setattr(generate_module, "exact_solve",
                        lambda level, *, time_limit=None, work_limit=None: calls.append(work_limit) or SolveResult(Status.UNKNOWN))
    with pytest.raises(GenerationFailed, match=f"the proofs of {UNKNOWN_STREAK} draws in a row ran out of work "
                                               r"\(3 s of nominal work, 45000 expansions, each\)"):
        generate(difficulty="easy", seed=0, certify_time_limit=3)
    assert calls == [certify_work(3)] * UNKNOWN_STREAK == [45_000] * UNKNOWN_STREAK


def test_generate_time_limit_bounds_a_level_and_certify_limit_each_proof(monkeypatch, capsys):
    """As in Numberlink and Roller: ``--time-limit`` is one level's time, all its draws together,
    and ``--certify-limit`` one draw's proof (the generic option of every family's generate)."""
    seen = []
    real = generate_module.generate

    def recording(**kwargs):
        seen.append((kwargs["time_limit"].remaining(), kwargs["certify_time_limit"]))
        return real(**kwargs)

    monkeypatch.setattr(generate_module, "generate", recording)
    assert main(["generate", "swap", "--difficulty", "easy", "--seed", "3", "--time-limit", "50", "--certify-limit", "7"]) == 0
    assert main(["generate", "swap", "--difficulty", "easy", "--seed", "3"]) == 0
    capsys.readouterr()
    (level_time, proof_time), (no_level_limit, default_proof_time) = seen
    assert 45 < level_time <= 50 and proof_time == 7
    assert no_level_limit is None and default_proof_time == generate_module.DEFAULT_CERTIFY_LIMIT


def test_generate_json_prints_one_object_per_new_level(tmp_path, capsys) -> None:
    """``generate swap --json``, as ``generate roller --json``: one JSON object per level made,
    the pack still written to --out; without --out only the objects go to standard output."""
    from puzzlesat.swap import read, verify

    out = tmp_path / "pack.swap"
    assert main(["generate", "swap", "--difficulty", "easy", "--count", "2", "--seed", "5", "--out", str(out), "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    levels = read(out)
    assert [r["index"] for r in records] == [0, 1] and all(r["source"] == str(out) for r in records)
    for record, level in zip(records, levels):
        assert record["family"] == "swap" and record["optimal"] is True and record["moves_count"] == len(record["moves"])
        assert record["moves_count"] == level.stated_minimum and record["moves"] == [str(m) for m in level.stated_solution]
        rebuilt = parse(record["puzzle"])  # (the level's text, as docs/record.schema.json says)
        assert (rebuilt.start, rebuilt.goal) == (level.start, level.goal) and verify(rebuilt, record["moves"]) == []
    assert main(["generate", "swap", "--difficulty", "easy", "--goal", "cluster", "--seed", "5", "--json"]) == 0
    (record,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert record["source"] is None and record["goal"] == "cluster"


def test_one_bad_level_of_a_pack_is_one_error_record(tmp_path, capsys, exact):
    good = "start\nT1R T1G\ngoal\nG R\n"
    pack = tmp_path / "pack.swap"
    pack.write_text(good + "---\nstart\nT1R X1G\ngoal\nG R\n---\n" + good)
    code, records = run_json(capsys, "verify", str(pack), "--json")
    assert code == 1 and [(r["index"], r["status"]) for r in records] == [(0, "solved"), (1, "error"), (2, "solved")]
    assert records[1]["error"].startswith(f"{pack}:7:")  # the file's own line numbers


def test_ctrl_c_while_a_level_is_drawn_says_what_its_draws_gave(monkeypatch, capsys):
    """Minutes of draws outside the range ended, on Ctrl-C, in 'interrupted: 0 level(s) kept'
    alone; the line now says how many draws the level had made and where they fell (the one
    pack writer's words, as for every family)."""
    import importlib

    from puzzlesat.cli import main

    def drawn_then_interrupted(**options):
        stats = {"tries": 2, "unsolvable": 0, "unknown": 0, "out_of_range": 2, "below": 2, "above": 0,
                 "most_below": 11, "least_above": None}
        options["on_try"](2, stats)
        raise KeyboardInterrupt

    monkeypatch.setattr(importlib.import_module("puzzlesat.swap.generate"), "generate", drawn_then_interrupted)
    assert main(["generate", "swap", "--moves", "30-40"]) == 130
    assert ("interrupted: 0 puzzle(s) kept; puzzle 0 had drawn: 2 draw(s), 2 outside the moves range: "
            "2 below it, each solved in at most 11 moves") in capsys.readouterr().err
