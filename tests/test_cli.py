"""The generic command line: errors as records (never tracebacks), exit status, family keys."""

from __future__ import annotations

import json
import os
import threading

import pytest

from puzzlesat.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr().out
    return code, [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def test_bad_files_become_error_records_with_their_family_keys(tmp_path, capsys):
    (tmp_path / "odd.nl").write_text("A.B\nA..\n")
    (tmp_path / "binary.roller").write_bytes(b"\x00\x01garbage")
    (tmp_path / "empty.swap").write_text("")
    code, records = run(capsys, "verify", str(tmp_path), "--json")
    assert code == 1
    by_name = {r["source"].rsplit("/", 1)[-1]: r for r in records}
    assert set(by_name) == {"odd.nl", "binary.roller", "empty.swap"}
    for record in records:
        assert record["status"] == "error" and record["error"]
    assert {"objective", "unique", "answer", "size"} <= set(by_name["odd.nl"]) and by_name["odd.nl"]["objective"] == "unique"
    assert "line" not in by_name["odd.nl"]["error"] and ":1:3:" in by_name["odd.nl"]["error"]
    assert "occurs once" in by_name["odd.nl"]["error"]
    assert {"moves", "optimal", "lower_bound"} <= set(by_name["binary.roller"]) and by_name["binary.roller"]["objective"] == "fewest-moves"
    assert by_name["binary.roller"]["family"] == "roller"
    assert by_name["empty.swap"]["family"] == "swap"


SHARED_KEYS = {"family", "source", "index", "status", "method", "solved_by", "encode_seconds", "solve_seconds", "seconds", "error"}


def test_every_family_records_the_shared_keys(tmp_path, capsys):
    """``verify --json`` records of all three families carry the same shared keys (numberlink
    records had no ``method`` and no ``solved_by``), each with the family's own value."""
    (tmp_path / "good.nl").write_text("...B\n.A..\n..BA\n")
    (tmp_path / "small.roller").write_text("#####\n#o..#\n#####\n")
    (tmp_path / "two.swap").write_text("start\nT1R T1Y\nT2R T2Y\ngoal\nR R\nY Y\n")
    code, records = run(capsys, "verify", str(tmp_path), "--json")
    assert code == 0 and len(records) == 3
    by_family = {record["family"]: record for record in records}
    for family, record in by_family.items():
        assert SHARED_KEYS <= set(record), (family, SHARED_KEYS - set(record))
        assert record["solved_by"] is None and record["error"] is None
    assert by_family["numberlink"]["method"] == "sat-cadical195"
    assert by_family["roller"]["method"] and by_family["swap"]["method"]


def test_missing_file_is_an_error_line_and_the_run_goes_on(tmp_path, capsys):
    good = tmp_path / "good.nl"
    good.write_text("...B\n.A..\n..BA\n")
    code, records = run(capsys, "verify", str(tmp_path / "missing.nl"), str(good), "--json")
    assert code == 1
    assert [r["status"] for r in records] == ["error", "solved"]
    assert "cannot read file" in records[0]["error"]
    assert records[1]["unique"] is True


def test_all_passing_gives_exit_zero_and_human_lines(tmp_path, capsys):
    good = tmp_path / "good.nl"
    good.write_text("...B\n.A..\n..BA\n")
    assert main(["verify", str(good)]) == 0
    out = capsys.readouterr().out
    assert "solved, unique" in out and "1 passed, 0 failed" in out


def test_the_summary_seconds_count_reading_the_files_too(tmp_path, capsys, monkeypatch):
    """Every file is read before the first puzzle is checked; the summary's "in N s" counted
    only the checking, so a run that spent its time reading (a huge file refused) said 0.00s."""
    import re
    import time

    from puzzlesat.cli import inputs

    slow_source = inputs.read_source

    def read_slowly(source, **limits):
        time.sleep(0.3)
        return slow_source(source, **limits)

    monkeypatch.setattr(inputs, "read_source", read_slowly)
    good = tmp_path / "good.nl"
    good.write_text("...B\n.A..\n..BA\n")
    assert main(["verify", str(good)]) == 0
    seconds = float(re.search(r"failed in ([0-9.]+)s", capsys.readouterr().out).group(1))
    assert seconds >= 0.3


def test_solve_picks_one_puzzle_by_index_and_refuses_a_missing_one(tmp_path, capsys):
    pack = tmp_path / "pack.txt"
    pack.write_text("3 1\nA.A\n\n3 1\nB.B\n")
    code, records = run(capsys, "solve", str(pack), "--index", "1", "--json")
    assert code == 0 and len(records) == 1 and records[0]["index"] == 1
    assert records[0]["grid"] == [["B", "B", "B"]]
    code, records = run(capsys, "solve", str(pack), "--index", "5", "--json")
    assert code == 1 and records[0]["status"] == "error" and "no puzzle #5" in records[0]["error"]


def test_a_puzzle_refuted_without_search_says_why(tmp_path, capsys):
    crossing = tmp_path / "crossing.nl"
    crossing.write_text("A . . B\n. . . .\n. . . .\nB . . A\n")
    code, records = run(capsys, "solve", str(crossing), "--json", "--allow-empty")
    assert code == 1 and records[0]["status"] == "unsolvable" and "alternate along the border" in records[0]["reason"]
    main(["verify", str(crossing), "--allow-empty"])
    assert "(pairs 'A' and 'B' alternate along the border" in capsys.readouterr().out


def test_human_lines_number_every_puzzle_of_a_multi_puzzle_file(tmp_path, capsys):
    pack = tmp_path / "pack.txt"
    pack.write_text("3 1\nA.A\n\n3 1\nB.B\n")
    single = tmp_path / "single.nl"
    single.write_text("A.A\n")
    main(["verify", str(pack), str(single)])
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith(f"{pack}#0 (3x1): solved") for line in lines)
    assert any(line.startswith(f"{pack}#1 (3x1): solved") for line in lines)
    assert any(line.startswith(f"{single} (3x1): solved") for line in lines)
    main(["solve", str(pack), "--index", "0"])
    assert capsys.readouterr().out.startswith(f"{pack}#0 (3x1): solved")


def test_one_bad_puzzle_of_a_multi_puzzle_file_is_one_error_record(tmp_path, capsys):
    pack = tmp_path / "pack.txt"
    pack.write_text("3 1\nA.A\n\n3 2\nB.B\nB.\n\n3 1\nC.C\n")  # the second grid has a short row
    code, records = run(capsys, "verify", str(pack), "--json")
    assert code == 1 and [(r["index"], r["status"]) for r in records] == [(0, "solved"), (1, "error"), (2, "solved")]
    assert f"{pack}:6:" in records[1]["error"]
    main(["verify", str(pack)])
    (line,) = [line for line in capsys.readouterr().out.splitlines() if line.startswith("error:")]
    assert line.startswith(f"error: {pack}:6: ") and line.endswith("(puzzle #1)")
    assert main(["render", str(pack), "--index", "1", "-o", str(tmp_path / "p.svg")]) == 2
    assert f"{pack}:6:" in capsys.readouterr().err


def test_verify_honours_index_and_names_a_missing_one(tmp_path, capsys):
    pack = tmp_path / "pack.txt"
    pack.write_text("3 1\nA.A\n\n3 1\nB.B\n")
    code, records = run(capsys, "verify", str(pack), "--index", "1", "--json")
    assert code == 0 and [r["index"] for r in records] == [1]
    code, records = run(capsys, "verify", str(pack), "--index", "7", "--json")
    assert code == 1 and records[0]["status"] == "error" and "no puzzle #7" in records[0]["error"]


def test_verify_prints_each_record_as_soon_as_it_is_made(tmp_path, capsys, monkeypatch):
    import importlib

    engine = importlib.import_module("puzzlesat.batch.run")  # (verify runs its puzzles through the batch engine, here in process)

    pack = tmp_path / "pack.txt"
    pack.write_text("3 1\nA.A\n\n3 1\nB.B\n\n3 1\nC.C\n")
    real, calls = engine.execute, []

    def interrupted_at_the_second(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(engine, "execute", interrupted_at_the_second)
    code = main(["verify", str(pack), "--json"])
    out, err = capsys.readouterr()
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 130 and "interrupted: 1 finished kept" in err
    assert [r["index"] for r in records] == [0] and records[0]["status"] == "solved"


def test_ctrl_c_while_the_family_modules_are_imported_says_interrupted(capsys, monkeypatch):
    """Building the parser imports every family's record (most of a second), so a Ctrl-C right
    after starting lands there; it printed a traceback."""
    import importlib

    cli = importlib.import_module("puzzlesat.cli.main")  # (puzzlesat.cli.main is also the function)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "build_parser", interrupted)
    assert main(["verify", "examples"]) == 130
    assert capsys.readouterr().err == "interrupted\n"


def test_a_family_option_no_puzzle_read_uses_is_said(capsys):
    """--start (Roller) on a Swap level, or --allow-empty (Numberlink) on it, was ignored silently."""
    assert main(["solve", "examples/swap/touch.swap", "--start", "row-major", "--allow-empty"]) == 0
    err = capsys.readouterr().err
    assert "note: --start applies to roller puzzles, and none was read: it was not used" in err
    assert "note: --allow-empty applies to numberlink puzzles, and none was read: it was not used" in err
    assert main(["verify", "examples", "--start", "row-major", "--method", "exact", "--allow-empty", "--allow-multiple"]) in (0, 1)
    assert "note:" not in capsys.readouterr().err  # a folder of every family reads them all
    assert main(["solve", "examples/numberlink/first_5x5.nl", "--method", "astar"]) == 0
    assert "note: --method applies to roller and swap puzzles" in capsys.readouterr().err
    assert main(["verify", "examples/swap", "--answers", "examples/numberlink"]) == 0  # (a folder: paired by name)
    assert "note: --answers applies to numberlink and roller puzzles, and none was read" in capsys.readouterr().err


def test_an_empty_folder_is_said_plainly(tmp_path, capsys):
    assert main(["verify", str(tmp_path)]) == 1
    assert "no puzzle files found" in capsys.readouterr().err


def test_library_errors_and_unwritable_outputs_are_error_lines(tmp_path, capsys):
    puzzle = tmp_path / "p.nl"
    puzzle.write_text("...B\n.A..\n..BA\n")
    with pytest.raises(SystemExit) as stop:
        main(["render", str(puzzle), "--solution", "--solver", "bogus", "-o", str(tmp_path / "s.svg")])
    assert stop.value.code == 2 and "unknown SAT solver 'bogus'" in capsys.readouterr().err
    assert main(["render", str(puzzle), "--solution", "-o", str(tmp_path / "s.jpg")]) == 2
    assert "must end in .svg or .png" in capsys.readouterr().err
    assert main(["render", str(puzzle), "-o", str(tmp_path / "nowhere" / "s.svg")]) == 2
    assert "no folder" in capsys.readouterr().err
    assert main(["generate", "numberlink", "--size", "5x5", "--out", str(tmp_path / "missing" / "x.txt")]) == 2
    assert "no folder" in capsys.readouterr().err
    assert main(["generate", "numberlink", "--size", "5x5", "--out", str(tmp_path)]) == 2
    assert "it is a folder" in capsys.readouterr().err
    assert main(["generate", "numberlink", "--size", "5x5", "--target", "1000"]) == 2
    assert "holds at most 8 links" in capsys.readouterr().err


def test_devices_are_refused_and_pipes_read(tmp_path, capsys):
    code, records = run(capsys, "verify", os.devnull, "--json")
    assert code == 1 and "not a puzzle file: a device" in records[0]["error"]
    pipe = tmp_path / "pipe.nl"
    os.mkfifo(pipe)
    writer = threading.Thread(target=lambda: pipe.write_text("A.A\n"))
    writer.start()
    code, records = run(capsys, "solve", str(pipe), "--json")
    writer.join()
    assert code == 0 and records[0]["grid"] == [["A", "A", "A"]]


def test_standard_input_and_utf16_files_are_read(tmp_path, capsys, monkeypatch):
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"...B\n.A..\n..BA\n")))
    code, records = run(capsys, "solve", "-", "--json")
    assert code == 0 and records[0]["unique"] is True and records[0]["source"] == "-"
    wide = tmp_path / "utf16.nl"
    wide.write_bytes("...B\n.A..\n..BA\n".encode("utf-16"))
    code, records = run(capsys, "verify", str(wide), "--json")
    assert code == 0 and records[0]["status"] == "solved"


def test_utf16_without_byte_order_mark_is_named_not_called_binary(tmp_path, capsys):
    """It was 'binary data (NUL byte), not a puzzle text', which sends a user looking for a
    corrupt file rather than at the encoding; a batch goes on past it."""
    (tmp_path / "le.swap").write_bytes("start\nT1R T1G\ngoal\nG R\n".encode("utf-16-le"))
    (tmp_path / "be.nl").write_bytes("A.A\n".encode("utf-16-be"))
    (tmp_path / "ok.nl").write_text("A.A\n")
    (tmp_path / "bin.nl").write_bytes(b"\x00\x01garbage")
    code, records = run(capsys, "verify", str(tmp_path), "--json")
    by_name = {os.path.basename(record["source"]): record for record in records}
    assert code == 1 and by_name["ok.nl"]["status"] == "solved"
    assert "UTF-16 (little-endian) text without a byte order mark" in by_name["le.swap"]["error"]
    assert by_name["le.swap"]["family"] == "swap" and by_name["le.swap"]["index"] is None
    assert "UTF-16 (big-endian) text without a byte order mark" in by_name["be.nl"]["error"]
    assert "binary data" in by_name["bin.nl"]["error"]


def test_render_takes_no_json_flag_and_names_the_puzzle_it_draws(tmp_path, capsys):
    import pytest

    pack = tmp_path / "pack.txt"
    pack.write_text("3 1\nA.A\n\n3 1\nB.B\n")
    assert main(["render", str(pack), "-o", str(tmp_path / "p.svg")]) == 0
    assert "holds 2 puzzles; drawing #0" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["render", str(pack), "-o", str(tmp_path / "p.svg"), "--json"])


def test_web_addresses_other_than_puzzle_urls_are_refused_not_read_as_text(capsys):
    assert main(["solve", "https://example.com/pack.nl"]) == 1
    assert "web addresses are not fetched" in capsys.readouterr().out
    assert main(["solve", "https://puzz.link/p?numlin/5/5/1j2h3m1h2j3"]) == 0


@pytest.mark.parametrize("family, text", [("numberlink", "...B\n.A..\n..BA\n"), ("roller", "#####\n#o..#\n#####\n"),
                                          ("swap", "start\nT1R T1G\ngoal\nG R\n")])
def test_a_search_stopped_by_its_time_limit_is_said_alike_in_every_family(tmp_path, capsys, monkeypatch, family, text):
    """solve, verify and render say 'unknown (time limit)' (Numberlink said 'unknown' alone,
    Swap's render too)."""
    import importlib

    from puzzlesat.results import CountResult, SolveResult, Status

    if family == "numberlink":
        monkeypatch.setattr(importlib.import_module("puzzlesat.numberlink.records"), "sat_count",
                            lambda puzzle, **options: CountResult(count=0, complete=False, limit=2))  # (solve, verify, render)
    else:
        monkeypatch.setattr(importlib.import_module(f"puzzlesat.{family}.solve"), "solve",
                            lambda level, **options: SolveResult(Status.UNKNOWN, method="stub"))
    path = tmp_path / f"one.{'nl' if family == 'numberlink' else family}"
    path.write_text(text)
    for verb in ("solve", "verify"):
        assert main([verb, str(path), "--time-limit", "1"]) == 1
        out = capsys.readouterr().out
        assert "one." in out and ": unknown (time limit)" in out
    assert main(["render", str(path), "--time-limit", "1", "--solution", "-o", str(tmp_path / "one.svg")]) == 1
    assert "no answer drawn: unknown (time limit)" in capsys.readouterr().err


@pytest.mark.parametrize("family, size, out", [("numberlink", "5x5", "pack.roller"), ("roller", "6x6", "levels.swap"),
                                               ("swap", None, "levels.nl")])
def test_a_pack_named_for_another_family_is_refused(tmp_path, capsys, family, size, out):
    """verify and solve read a file by its ending: a Numberlink pack called pack.roller would
    be read as Roller levels, so generate refuses the name before drawing anything."""
    args = ["generate", family, "--count", "1", "--out", str(tmp_path / out)] + (["--size", size] if size else [])
    assert main(args) == 2
    assert "names" in capsys.readouterr().err and not (tmp_path / out).exists()


def test_version_names_the_package_and_its_solver_libraries(capsys):
    from puzzlesat import __version__

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"puzzlesat {__version__}, python-sat ")
    assert ", ortools " in out and ", numpy " in out and ", Python " in out


def test_the_command_line_and_the_packages_load_or_tools_scipy_and_networkx_only_when_a_solve_needs_them():
    """Start-up cost of every command: OR-Tools (with pandas) and SciPy took about 0.35 s of a
    0.85 s 'puzzlesat --version'; they are imported when a CP-SAT model or a Swap bound is built.
    networkx (about 0.2 s) is imported when a Roller stop graph is analysed."""
    import subprocess
    import sys

    probe = ("import sys\n"
             "from puzzlesat.cli import build_parser\n"
             "build_parser()\n"
             "from puzzlesat import numberlink, roller, swap\n"
             "from puzzlesat.sat import VarPool\n"
             "print(sorted({m.split('.')[0] for m in sys.modules} & {'ortools', 'scipy', 'pandas', 'networkx'}))\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("family", ["numberlink", "roller", "swap"])
def test_generate_refuses_a_negative_seed_naming_the_option(family, capsys):
    """--seed -5 drew what --seed 5 draws (Python's random uses a seed's absolute value): the
    first Numberlink and Swap puzzles of the two packs were the same."""
    with pytest.raises(SystemExit) as stopped:
        main(["generate", family, "--seed", "-5"])
    assert stopped.value.code == 2
    assert "argument --seed: '-5' is not a seed of 0 or more" in capsys.readouterr().err


def test_every_generator_draws_the_same_number_of_tries_per_puzzle_by_default():
    """A request the boards hardly reach ends after --max-tries draws; Roller's default was ten
    times the others' (100,000 boards, hours on 12x12 with nothing said)."""
    from puzzlesat.cli import build_parser

    defaults = {family: build_parser().parse_args(["generate", family]).max_tries for family in ("numberlink", "roller", "swap")}
    assert len(set(defaults.values())) == 1, defaults


def test_a_folder_skips_notes_by_name_but_not_puzzles_whose_names_start_alike(tmp_path, capsys):
    """README, SOURCE.txt and LICENSE-MIT in a folder are a data set's notes and are passed over;
    a puzzle file named sources.txt or readme2.nl was passed over too, without a word."""
    for name in ("README", "SOURCE.txt", "LICENSE-MIT"):
        (tmp_path / name).write_text("notes about the set\n")
    for name in ("sources.txt", "readme2.nl"):
        (tmp_path / name).write_text("...B\n.A..\n..BA\n")
    code, records = run(capsys, "verify", str(tmp_path), "--json")
    assert code == 0
    assert sorted(os.path.basename(r["source"]) for r in records) == ["readme2.nl", "sources.txt"]
