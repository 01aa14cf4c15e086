"""The batch flags of the command line (-j, --unordered, --store, --dask, --scheduler) and
``puzzlesat report``: the same records as a run in this process, resumed stores that run
nothing again, packs byte for byte the same, and a report a real browser renders."""

from __future__ import annotations

import importlib
import json
import os
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from puzzlesat.cli import main

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
TIMING = ("seconds", "encode_seconds", "solve_seconds")
engine = importlib.import_module("puzzlesat.batch.run")  # (the module: puzzlesat.batch.run is also the function)


def lines(capsys, *argv) -> tuple[int, list[str], str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out.splitlines(), captured.err


def comparable(line: str) -> dict:
    """A record without its timings (and, for Swap, without which of the equally short plans
    was found: its search races beams against A* on the clock)."""
    record = {key: value for key, value in json.loads(line).items() if key not in TIMING}
    if record.get("family") == "swap":
        record.pop("answer", None), record.pop("moves", None)
        if record.get("stated_answer"):
            record["stated_answer"] = {**record["stated_answer"], "same": None}
    return record


def count_runs(monkeypatch) -> list[str]:
    """The keys of the jobs the engine runs in this process from now on."""
    ran: list[str] = []
    real = engine.execute

    def counted(job):
        ran.append(job.key)
        return real(job)

    monkeypatch.setattr(engine, "execute", counted)
    return ran


def test_two_workers_give_the_records_of_one_in_input_order(capsys):
    code1, one, err1 = lines(capsys, "verify", str(EXAMPLES), "--json")
    code2, two, err2 = lines(capsys, "verify", str(EXAMPLES), "--json", "-j", "2")
    assert code1 == code2 == 0 and len(one) == len(two) > 20
    assert [comparable(line) for line in two] == [comparable(line) for line in one]
    assert err1.split(" in ")[0] == err2.split(" in ")[0]  # the summary ("28 puzzle(s) in 20 file(s): ...")
    code3, unordered, _ = lines(capsys, "verify", str(EXAMPLES / "numberlink"), "--json", "-j", "2", "--unordered")
    expected = [comparable(line) for line in one if json.loads(line)["family"] == "numberlink"]
    assert code3 == 0
    assert sorted(map(json.dumps, map(comparable, unordered))) == sorted(map(json.dumps, expected))


def test_a_store_is_resumed_running_nothing_and_printing_the_same(tmp_path, capsys, monkeypatch):
    store = str(tmp_path / "results.sqlite")
    folder = EXAMPLES / "roller"
    code, first, _ = lines(capsys, "verify", str(folder), "--json", "--store", store)
    ran = count_runs(monkeypatch)
    again_code, again, _ = lines(capsys, "verify", str(folder), "--json", "--store", store)
    assert code == again_code == 0 and again == first and ran == []
    human_code, human, _ = lines(capsys, "verify", str(folder), "--store", store)
    assert human_code == 0 and ran == [] and len(human) == len(first) + 1  # the records' lines and the summary
    assert sum("unsolvable" in line for line in human[:-1]) == 1


def test_a_store_cut_short_resumes_with_what_was_left_and_a_repeat_runs_once(tmp_path, capsys, monkeypatch):
    pack = tmp_path / "pack.txt"
    pack.write_text("3 1\nA.A\n\n3 1\nB.B\n\n3 1\nA.A\n\n4 1\nC..C\n")  # the third repeats the first
    store = str(tmp_path / "results.sqlite")
    fresh_code, fresh, _ = lines(capsys, "verify", str(pack), "--json")
    real, calls = engine.execute, []

    def stopped_at_the_second(job):
        calls.append(job)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(job)

    monkeypatch.setattr(engine, "execute", stopped_at_the_second)
    code, cut, err = lines(capsys, "verify", str(pack), "--json", "--store", store)
    assert code == 130 and "interrupted: 1 finished kept" in err and len(cut) == 1
    ran = count_runs(monkeypatch)
    code, resumed, _ = lines(capsys, "verify", str(pack), "--json", "--store", store)
    assert code == fresh_code == 0 and len(ran) == 2  # B.B and C..C; A.A from the store, and once for its repeat
    assert [comparable(line) for line in resumed] == [comparable(line) for line in fresh]
    assert [json.loads(line)["index"] for line in resumed] == [0, 1, 2, 3]


@pytest.mark.parametrize("family, size", [("numberlink", "6x6"), ("roller", "7x7")])
def test_a_pack_made_by_the_engine_is_the_pack_made_in_process(tmp_path, capsys, family, size):
    common = ["generate", family, "--size", size, "--count", "4", "--seed", "5"]
    assert main([*common, "--out", str(tmp_path / "one.txt")]) == 0
    assert main([*common, "--out", str(tmp_path / "two.txt"), "-j", "2"]) == 0
    store = str(tmp_path / "made.sqlite")
    assert main([*common[:4], "--count", "2", "--seed", "5", "--out", str(tmp_path / "stored.txt"), "--store", store]) == 0
    assert main([*common, "--out", str(tmp_path / "stored.txt"), "--store", store]) == 0  # (the pack resumed: 2 more)
    capsys.readouterr()
    one = (tmp_path / "one.txt").read_bytes()
    assert one.count(b"# puzzle ") == 4
    assert (tmp_path / "two.txt").read_bytes() == one and (tmp_path / "stored.txt").read_bytes() == one
    code, printed, _ = lines(capsys, *common, "--json")
    code_j, printed_j, _ = lines(capsys, *common, "--json", "-j", "2")
    assert code == code_j == 0 and [comparable(line) for line in printed_j] == [comparable(line) for line in printed]
    assert list(json.loads(printed_j[0])) == list(json.loads(printed[0]))  # the same keys in the same order


@pytest.mark.slow
@pytest.mark.xfail(strict=False, reason="Swap's solver races beams against A* on the clock, so a pack may state another "
                   "plan of the same length (docs/batch.md); the swapdet branch makes it deterministic: then drop this mark")
@pytest.mark.parametrize("difficulty, seed", [("hard", "1"), ("expert", "1")])
def test_a_swap_pack_made_by_two_workers_is_the_pack_made_by_one(tmp_path, capsys, difficulty, seed):
    """As for the other families: byte for byte (with expert levels, two plans of one length
    were seen to differ on this seed)."""
    common = ["generate", "swap", "--difficulty", difficulty, "--count", "2", "--seed", seed]
    assert main([*common, "--out", str(tmp_path / "one.swap")]) == 0
    assert main([*common, "--out", str(tmp_path / "two.swap"), "-j", "2"]) == 0
    capsys.readouterr()
    one = (tmp_path / "one.swap").read_bytes()
    assert one.count(b"\nsolution ") == 2 and (tmp_path / "two.swap").read_bytes() == one


@pytest.mark.parametrize("flags, said", [
    (["--dask", "2", "--scheduler", "tcp://127.0.0.1:1"], "--dask: not allowed with --scheduler"),
    (["--store", "no/such/folder/results.sqlite"], "--store: no folder no/such/folder"),
    (["-j", "-1"], "argument -j/--jobs"),
])
def test_batch_flags_are_refused_before_anything_runs(tmp_path, capsys, monkeypatch, flags, said):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stopped:
        main(["verify", str(EXAMPLES / "roller"), *flags])
    assert stopped.value.code == 2 and said in capsys.readouterr().err


def test_a_local_dask_cluster_gives_the_records_of_one_process(capsys):
    pytest.importorskip("distributed")  # (the dev extra installs it: CI runs this)
    folder = str(EXAMPLES / "numberlink")
    code, here, _ = lines(capsys, "verify", folder, "--json")
    code_d, there, err = lines(capsys, "verify", folder, "--json", "--dask", "2")
    assert code == code_d == 0 and [comparable(line) for line in there] == [comparable(line) for line in here]
    assert "Traceback" not in err


# -- puzzlesat report --------------------------------------------------------------------------
def test_report_writes_markdown_html_csv_and_json_lines(tmp_path, capsys):
    store = str(tmp_path / "results.sqlite")
    assert main(["verify", str(EXAMPLES / "roller"), "--json", "--store", store]) == 0
    capsys.readouterr()
    stem = tmp_path / "out" / "report"
    code, said, _ = lines(capsys, "report", store, "--out", str(stem), "--csv", str(tmp_path / "r.csv"),
                          "--jsonl", str(tmp_path / "r.jsonl"))
    assert code == 0 and said[0].endswith("(7 record(s))")
    markdown = (tmp_path / "out" / "report.md").read_text()
    assert "examples/roller" in markdown and "hard.roller" in markdown  # (a set, and among the slowest)
    assert "report-cactus.svg" in markdown and (tmp_path / "out" / "report-cactus.svg").exists()
    html = (tmp_path / "out" / "report.html").read_text()
    assert html.startswith("<!DOCTYPE html>") and "<svg" in html and "src=" not in html  # one page, plots inline
    header = next(line for line in markdown.splitlines() if "stated minimum matched" in line).split("|")
    row = next(line for line in markdown.splitlines() if line.startswith("| roller |")).split("|")
    matched = row[header.index(" stated minimum matched ")].strip()
    assert matched == "6"  # six of the seven roller examples state a minimum, and each is matched (equal)
    assert len((tmp_path / "r.csv").read_text().splitlines()) == 8  # (and the header)
    assert len((tmp_path / "r.jsonl").read_text().splitlines()) == 7
    assert main(["report", str(tmp_path / "none.sqlite")]) == 2 and "no results store" in capsys.readouterr().err
    (tmp_path / "junk.sqlite").write_text("not a database")
    assert main(["report", str(tmp_path / "junk.sqlite")]) == 2 and "not a results store" in capsys.readouterr().err


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """(width, height, rows of RGB(A) bytes) of an 8-bit RGB or RGBA PNG, unfiltered."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, chunks, header = 8, b"", None
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks += body
        position += 12 + length
    width, height, depth, colour = header[:4]
    assert depth == 8 and colour in (2, 6), header
    step = 3 if colour == 2 else 4
    raw, rows, previous = zlib.decompress(chunks), [], bytearray(width * step)
    for y in range(height):
        kind, line = raw[y * (width * step + 1)], bytearray(raw[y * (width * step + 1) + 1:(y + 1) * (width * step + 1)])
        for x in range(len(line)):
            left = line[x - step] if x >= step else 0
            up, corner = previous[x], previous[x - step] if x >= step else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                near = min((abs(p - left), 0, left), (abs(p - up), 1, up), (abs(p - corner), 2, corner))[2]
                line[x] = (line[x] + near) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, rows


def test_the_html_report_renders_in_a_headless_browser_without_errors(tmp_path, capsys):
    browser = chromium()
    if browser is None:
        if os.environ.get("CI", "").lower() in ("true", "1"):
            pytest.fail("CI must have chromium for the report's browser test (.ci/run installs it)")
        pytest.skip("chromium not found (apt-get install chromium); CI installs it")
    store = str(tmp_path / "results.sqlite")
    assert main(["verify", str(EXAMPLES / "numberlink"), str(EXAMPLES / "roller"), "--json", "--store", store]) == 0
    assert main(["report", store, "--out", str(tmp_path / "report")]) == 0
    capsys.readouterr()
    page, shot = tmp_path / "report.html", tmp_path / "shot.png"
    done = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0",
                           f"--screenshot={shot}", "--window-size=1200,1600", page.as_uri()],
                          capture_output=True, text=True, timeout=120)
    assert shot.exists() and shot.stat().st_size > 5000, done.stderr[-2000:]
    console = [line for line in done.stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]
    assert console == [], console
    width, height, rows = png_pixels(shot.read_bytes())
    assert (width, height) == (1200, 1600)
    colours = {row[x:x + 3] for row in rows[::40] for x in range(0, len(row), 4 * 7)}
    assert len(colours) > 3  # text, table rules and the plots' colours, not a blank page
