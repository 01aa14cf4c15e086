"""The generator: seeded, certified (proven minimum in range), non-trivial; the CLI pack resumes."""

from __future__ import annotations

import importlib
import json
import re

import pytest

from puzzlesat import cli
from puzzlesat.results import SolveResult, Status
from puzzlesat.roller import read, verify
from puzzlesat.roller.formats import parse as read_text
from puzzlesat.roller.generate import GenerationFailed, carve, generate, most_moves_needed, trim
from puzzlesat.roller.model import Level
from tests.roller.oracle import bfs_min_moves, install_solver, stand_in_solve



@pytest.mark.parametrize("size, moves", [((8, 8), (6, 12)), ((9, 6), (5, 9)), ((5, 9), (4, 8))])
def test_levels_are_certified_and_in_range(oracle, size, moves):
    for seed in range(4):
        item = generate(*size, moves=moves, seed=seed)
        level = item.level
        assert level.size == size
        assert moves[0] <= item.min_moves <= moves[1]
        assert item.min_moves == len(item.solution) == level.par
        assert level.known_answer == item.solution
        assert verify(level, item.solution) == []
        assert len(bfs_min_moves(level)) == item.min_moves  # the minimum, checked independently
        assert FLOOR_BORDER_IS_WALL(level)
        inner = (size[0] - 2) * (size[1] - 2)
        assert level.floor_count >= max(5, inner // 3)
        assert item.tries >= 1 and item.seed == seed


def FLOOR_BORDER_IS_WALL(level: Level) -> bool:
    return set(level.rows[0] + level.rows[-1] + "".join(row[0] + row[-1] for row in level.rows)) == {"#"}


def test_same_seed_same_level_and_different_seeds_differ(oracle):
    a = generate(8, 8, moves=(5, 10), seed=7)
    b = generate(8, 8, moves=(5, 10), seed=7)
    assert a.level == b.level and a.solution == b.solution
    others = {generate(8, 8, moves=(5, 10), seed=s).level for s in range(5)}
    assert len(others) >= 4


def test_trivial_requests_are_refused_and_impossible_ones_fail(oracle):
    with pytest.raises(ValueError, match="trivial"):
        generate(8, 8, moves=(1, 2))
    with pytest.raises(ValueError, match="at least 3x3"):
        generate(2, 8, moves=(3, 5))
    with pytest.raises(ValueError, match="empty"):
        generate(8, 8, moves=(9, 5))
    with pytest.raises(GenerationFailed, match="no 5x5 level") as failed:
        generate(5, 5, moves=(30, 40), max_tries=50)
    # the message says what the draws reached, so that the user can ask for less
    reached = re.search(r"the (\d+) levels proven had minima of (\d+)-(\d+) moves", str(failed.value))
    assert reached and 0 < int(reached[1]) <= 50 and int(reached[2]) <= int(reached[3]) < 30


@pytest.mark.slow
@pytest.mark.parametrize("inside", [(3, 3), (4, 3)])
def test_no_level_needs_more_moves_than_the_bound_and_the_bound_is_not_linear(inside):
    """Every level inside a small walled region, every start: its minimum (breadth-first) is at
    most F (F - 1) / 2 for its F floor cells, and some need more than F moves (a bound linear
    in F would refuse requests that levels meet)."""
    width, height = inside
    above_floor_count = 0
    for bits in range(1, 1 << (width * height)):
        inner = [["." if bits >> (r * width + c) & 1 else "#" for c in range(width)] for r in range(height)]
        rows = tuple(["#" * (width + 2)] + ["#" + "".join(row) + "#" for row in inner] + ["#" * (width + 2)])
        floor = [(r + 1, c + 1) for r in range(height) for c in range(width) if inner[r][c] == "."]
        for start in floor:
            answer = bfs_min_moves(Level(rows, start))
            if answer is not None:
                assert len(answer) <= most_moves_needed(len(floor)), (rows, start, answer)
                above_floor_count += len(answer) > len(floor)
    assert above_floor_count > 0


def test_move_counts_no_level_of_the_size_needs_are_refused_at_once(monkeypatch):
    roller_generate = importlib.import_module("puzzlesat.roller.generate")  # (roller.generate is the function)

    def no_carving(*args, **kwargs):
        raise AssertionError("a board was carved for a request that should have been refused")

    monkeypatch.setattr(roller_generate, "carve", no_carving)
    with pytest.raises(ValueError, match=r"no 8x8 level needs 1000 moves: .* at most 630 moves"):
        generate(8, 8, moves=1000, max_tries=5)
    with pytest.raises(ValueError, match="no 8x8 level needs 631-700 moves"):
        generate(8, 8, moves=(631, 700), max_tries=5)
    # 630 itself is not refused as impossible (sound at the bound) but lies beyond what the
    # carving walks reach (6 x 36 = 216 slides): that fails at once, naming the generator's limit
    with pytest.raises(GenerationFailed, match="this generator cannot draw a 8x8 level needing 217-630 moves.*216 slides"):
        generate(8, 8, moves=(217, 630), max_tries=5)
    # an inside of 2x3 cells: at most 15 moves (within the carving's reach of 36)
    with pytest.raises(ValueError, match="no 5x4 level needs 16 moves"):
        generate(5, 4, moves=16, min_floor=0)


def test_the_smallest_board_the_errors_advise_is_generated_with_the_default_floor():
    """A 3x3 board is refused with 'use at least 4 cells each way', but 4x4 was then refused too:
    the default min_floor (a third of the inner cells, at least 5) was 5 of its 4 inner cells."""
    made = generate(4, 4, seed=0)
    assert made.min_moves == 3 and made.level.floor_count == 4 and verify(made.level, made.solution) == []


def test_a_request_at_the_bound_is_tried_not_refused(oracle):
    with pytest.raises(GenerationFailed, match="after 30 tries"):
        generate(5, 4, moves=15, min_floor=0, max_tries=30)


@pytest.mark.parametrize("options, error, message", [
    ({"moves": -4}, ValueError, "moves must be 0 or more, not -4"),
    ({"moves": (-1, 5)}, ValueError, "moves must be 0 or more, not -1"),
    ({"moves": (True, 6)}, TypeError, "whole number or a"),
    ({"min_floor": -3}, ValueError, "min_floor must be 0 or more"),
    ({"min_floor": 2.5}, TypeError, "min_floor must be a whole number"),
    ({"min_floor": "9"}, TypeError, "min_floor must be a whole number"),
])
def test_absurd_options_are_refused_before_any_drawing(monkeypatch, options, error, message):
    roller_generate = importlib.import_module("puzzlesat.roller.generate")  # (roller.generate is the function)

    monkeypatch.setattr(roller_generate, "carve", lambda *a, **k: pytest.fail("carved"))
    with pytest.raises(error, match=message):
        generate(8, 8, max_tries=3, **options)


def test_cli_refuses_impossible_move_counts_and_negative_floors_with_exit_2(capsys):
    assert cli.main(["generate", "roller", "--size", "8x8", "--moves", "1000"]) == 2
    err = capsys.readouterr().err
    assert "error: no 8x8 level needs 1000 moves" in err and "Traceback" not in err
    with pytest.raises(SystemExit) as stop:  # (refused as the flag is read)
        cli.main(["generate", "roller", "--size", "8x8", "--min-floor", "-4"])
    assert stop.value.code == 2 and "'-4' is not a whole number of 0 or more" in capsys.readouterr().err


def test_unproven_answers_are_rejected(monkeypatch):
    calls = []

    def unproven(level, *, time_limit=None, method=None, work_limit=None):
        calls.append(level)
        result = stand_in_solve(level)
        return SolveResult(Status.SOLVED, result.solution, optimal=False, lower_bound=1)

    install_solver(monkeypatch, unproven)
    with pytest.raises(GenerationFailed):
        generate(8, 8, moves=(3, 30), max_tries=20)
    assert calls  # the solver was asked, and every unproven answer was thrown away


def test_boards_whose_proofs_run_out_of_work_twenty_in_a_row_end_the_level_saying_so(monkeypatch):
    """As generate numberlink and swap do: with --certify-limit too short for the size, every
    board was drawn and thrown away until --max-tries (10,000 boards, minutes) with nothing said.
    The default method's proofs are bounded by work (CP-SAT's deterministic seconds), not by the
    clock, so that a seed's level does not depend on the machine; other methods by the clock."""
    from puzzlesat.roller.generate import UNPROVEN_STREAK

    calls = []

    def out_of_work(level, *, time_limit=None, method=None, work_limit=None):
        calls.append((method, work_limit, time_limit))
        return SolveResult(Status.UNKNOWN)

    install_solver(monkeypatch, out_of_work)
    with pytest.raises(GenerationFailed, match=f"the proofs of {UNPROVEN_STREAK} 8x8 boards in a row ran out of work "
                                               r"\(0.5 s of CP-SAT work each.*allow more time per proof"):
        generate(8, 8, moves=(5, 9), certify_time_limit=0.5, max_tries=1000)
    assert [(method, work) for method, work, _ in calls] == [(None, 0.5)] * UNPROVEN_STREAK
    assert all(limit.time_limit is None for _, _, limit in calls)  # (no clock: the call has no time limit)
    calls.clear()
    with pytest.raises(GenerationFailed, match=f"the proofs of {UNPROVEN_STREAK} 8x8 boards in a row ran out of time "
                                               r"\(0.5 s each.*allow more time per proof"):
        generate(8, 8, moves=(5, 9), certify_time_limit=0.5, max_tries=1000, method="astar")
    assert calls == [("astar", None, 0.5)] * UNPROVEN_STREAK


def test_time_limit_is_honoured(monkeypatch):
    install_solver(monkeypatch, lambda level, *, time_limit=None, method=None, work_limit=None: SolveResult(Status.UNKNOWN))
    with pytest.raises(GenerationFailed):
        generate(8, 8, moves=(5, 9), time_limit=0.2)


def test_carved_boards_are_painted_by_their_carving_walk():
    import random

    for seed in range(40):
        level = carve(9, 7, steps=12, rng=random.Random(seed))
        assert level.known_answer and verify(level, level.known_answer) == []
        assert trim(level) == level  # nothing unpaintable
        assert FLOOR_BORDER_IS_WALL(level)


def test_trim_walls_off_floor_no_reachable_slide_paints():
    level = Level(("#######", "#...#.#", "#.#####", "#######"), (1, 1))
    assert trim(level).rows == ("#######", "#...###", "#.#####", "#######")


def test_cli_pack_writes_as_it_goes_and_resumes(tmp_path, capsys, oracle):
    out = tmp_path / "pack.roller"
    args = ["generate", "roller", "--size", "8x7", "--moves", "4-9", "--seed", "3", "--out", str(out)]
    assert cli.main(args + ["--count", "2"]) == 0
    first = read(out)
    assert len(first) == 2
    assert cli.main(args + ["--count", "4"]) == 0
    err = capsys.readouterr().err
    assert "2 puzzle(s) written" in err and "(2 already there)" in err
    pack = read(out)
    assert len(pack) == 4 and pack[:2] == first
    assert [lv.name for lv in pack[:2]] == [lv.name for lv in first]
    assert len(set(pack)) == 4
    for level in pack:
        assert level.size == (8, 7) and 4 <= level.par <= 9
        assert verify(level, level.known_answer) == [] and len(bfs_min_moves(level)) == level.par
    # the same pack from scratch: the same levels
    again = tmp_path / "again.roller"
    assert cli.main(["generate", "roller", "--size", "8x7", "--moves", "4-9", "--seed", "3", "--out", str(again), "--count", "4"]) == 0
    assert read(again) == pack


def test_cli_pack_verifies(tmp_path, capsys, oracle):
    out = tmp_path / "pack.roller"
    assert cli.main(["generate", "roller", "--size", "7x7", "--count", "3", "--moves", "3-8", "--out", str(out)]) == 0
    capsys.readouterr()
    assert cli.main(["verify", str(out), "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert [(r["stated_minimum_match"], r["stated_answer"]["valid"]) for r in records] == [("equal", True)] * 3


def test_cli_to_stdout_and_bad_arguments(capsys, oracle):
    assert cli.main(["generate", "roller", "--size", "6x6", "--moves", "3-6"]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("# puzzlesat generate roller --size 6x6 --seed 0 --moves 3-6\n# puzzle 0: seed 0,")
    assert "1 puzzle(s) written" in captured.err
    with pytest.raises(SystemExit):
        cli.main(["generate", "roller", "--size", "8by8"])
    with pytest.raises(SystemExit):
        cli.main(["generate", "roller", "--moves", "9-3"])


def test_resume_refuses_a_pack_of_another_size_or_settings(tmp_path, capsys, oracle):
    out = tmp_path / "pack.roller"
    assert cli.main(["generate", "roller", "--size", "6x6", "--moves", "3-6", "--out", str(out)]) == 0
    assert cli.main(["generate", "roller", "--size", "7x7", "--moves", "3-6", "--out", str(out), "--count", "2"]) == 2
    err = capsys.readouterr().err
    assert "not written by a run with these settings" in err and "--size 6x6" in err and "--size 7x7" in err
    # the same size and seed with another moves range would mix two kinds of level in one pack
    assert cli.main(["generate", "roller", "--size", "6x6", "--moves", "5-9", "--out", str(out), "--count", "2"]) == 2
    err = capsys.readouterr().err
    assert "not written by a run with these settings" in err and "--moves 3-6" in err and "--moves 5-9" in err
    assert cli.main(["generate", "roller", "--size", "6x6", "--moves", "3-6", "--out", str(out), "--count", "2"]) == 0
    assert len(read(out)) == 2


def test_real_solver_pack_re_solves_from_its_saved_text(tmp_path, capsys):
    """As Tatham's benchmark does: every generated level, read back from the pack's text alone,
    re-solves to the proven minimum the pack states."""
    solve = pytest.importorskip("puzzlesat.roller.solve").solve
    out = tmp_path / "pack.roller"
    assert cli.main(["generate", "roller", "--size", "11x9", "--count", "3", "--moves", "10-18", "--seed", "5",
                     "--out", str(out), "--time-limit", "60"]) == 0
    pack = read(out)
    assert len(pack) == 3
    for level in pack:
        result = solve(level, time_limit=30)
        assert result.optimal and len(result.solution) == level.par and 10 <= level.par <= 18


def test_cli_json_lines(tmp_path, capsys, oracle):
    import json

    out = tmp_path / "pack.roller"
    assert cli.main(["generate", "roller", "--size", "7x6", "--count", "2", "--moves", "3-8", "--out", str(out), "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["index"] for r in records] == [0, 1]
    pack = read(out)
    for record, level in zip(records, pack):
        assert record["family"] == "roller" and record["optimal"] is True
        assert read_text(record["puzzle"]).rows == level.rows and record["moves_count"] == level.par == len(record["moves"])


def test_generate_takes_max_tries_as_the_other_families_do(tmp_path, capsys):
    """--max-tries bounds the boards drawn per level, as in generate numberlink and swap (a
    range no 6x6 board reaches ran on for 100,000 draws, minutes, with no way to bound it
    but --time-limit)."""
    code = cli.main(["generate", "roller", "--size", "6x6", "--moves", "90-99", "--max-tries", "3"])
    assert code == 1 and "after 3 tries" in capsys.readouterr().err


def test_certify_limit_bounds_each_boards_proof(capsys, monkeypatch):
    """``--certify-limit`` is the proof time of one board, as in generate numberlink and swap
    (it had no option: 10 s, the library's default, was fixed)."""
    import importlib

    generate_module = importlib.import_module("puzzlesat.roller.generate")  # (the package's name is the function)
    family_module = importlib.import_module("puzzlesat.roller.family")
    seen = []
    real = generate_module.generate

    def recording(width, height, **options):
        seen.append(options["certify_time_limit"])
        return real(width, height, **options)

    monkeypatch.setattr(family_module, "generate", recording)
    assert cli.main(["generate", "roller", "--size", "6x6", "--seed", "1", "--certify-limit", "4"]) == 0
    assert cli.main(["generate", "roller", "--size", "6x6", "--seed", "1"]) == 0
    capsys.readouterr()
    assert seen == [4.0, generate_module.DEFAULT_CERTIFY_LIMIT]


def test_a_failed_level_ends_the_run_and_the_rerun_resumes_there(tmp_path, capsys, oracle, monkeypatch):
    import importlib

    from puzzlesat.seeds import puzzle_seed

    def flaky(width, height, **options):  # level 2 fails the first time, as a tight time limit can
        if options["seed"] == puzzle_seed(3, 2) and not calls:
            calls.append(1)
            raise GenerationFailed("no level in time")
        return generate(width, height, **options)

    calls: list = []
    monkeypatch.setattr(importlib.import_module("puzzlesat.roller.family"), "generate", flaky)
    out = tmp_path / "pack.roller"
    args = ["generate", "roller", "--size", "8x7", "--count", "4", "--moves", "4-9", "--seed", "3", "--out", str(out)]
    assert cli.main(args) == 1
    assert "error: puzzle 2: no level in time" in capsys.readouterr().err and len(read(out)) == 2
    assert cli.main(args) == 0
    whole = tmp_path / "whole.roller"
    assert cli.main(args[:-1] + [str(whole)]) == 0
    assert out.read_bytes() == whole.read_bytes()  # (the rerun made what one run makes)
    # packs end in a blank line, so two of them concatenated are read level by level
    twice = tmp_path / "twice.roller"
    twice.write_text(out.read_text() + out.read_text())
    assert len(read(twice)) == 8
    assert cli.main(["generate", "roller", "--out", str(tmp_path / "missing" / "pack.roller")]) == 2
    assert "no folder" in capsys.readouterr().err


HAND_MADE = "# name: my level\n#######\n#o....#\n#.###.#\n#.....#\n#######\n#######\n#######\n"


@pytest.mark.parametrize("where", ["end", "middle", "notes"])
def test_a_hand_added_level_is_named_as_such_when_resuming(tmp_path, capsys, oracle, where):
    """A level (or a note) added by hand to a generated pack is not a level cut short by a run
    (the message said so, and told to remove 'the incomplete last block'), nor one of another
    seed: the message names the line and its text and says the command did not write it."""
    out = tmp_path / "pack.roller"
    args = ["generate", "roller", "--size", "7x7", "--moves", "4-8", "--out", str(out)]
    assert cli.main(args + ["--count", "2"]) == 0
    blocks = out.read_text().split("\n\n")  # each level, then a blank line
    first_line = {"end": 1 + sum(len(block.splitlines()) + 1 for block in blocks[:2]),
                  "middle": 1 + len(blocks[0].splitlines()) + 1, "notes": 1}[where]
    if where == "end":
        out.write_text(out.read_text() + HAND_MADE)
    elif where == "middle":
        out.write_text(blocks[0] + "\n\n" + HAND_MADE + "\n" + blocks[1] + "\n\n")
    else:
        out.write_text("# my notes on this pack\n\n" + out.read_text())
    capsys.readouterr()
    assert cli.main(args + ["--count", "3"]) == 2
    err = capsys.readouterr().err
    if where == "notes":
        said = f"error: {out} was not written by a run with these settings (its first line is '# my notes on this pack'"
    else:
        said = (f"error: cannot resume {out}: line {first_line} is not the line of puzzle {2 if where == 'end' else 1} "
                "('# name: my level'); a pack resumes only as this command wrote it")
    assert said in err, err
    assert "middle of" not in err and "has seed" not in err


@pytest.mark.parametrize("levels", [1, 2])
def test_a_pack_cut_inside_its_last_level_is_named_as_such(tmp_path, capsys, oracle, levels):
    out = tmp_path / "pack.roller"
    args = ["generate", "roller", "--size", "8x7", "--moves", "4-9", "--seed", "3", "--out", str(out)]
    assert cli.main(args + ["--count", str(levels)]) == 0
    text = out.read_text()
    body = text.rstrip("\n")
    cuts = [text.rindex("# par:") + 4,  # the run stopped while writing the last level's par line,
            body.rindex("\n"),  # its last row (the level reads, one row short),
            body.rindex("\n", 0, body.rindex("\n")) + 3]  # or a row cut in the middle
    capsys.readouterr()
    for cut in cuts:
        out.write_text(text[:cut])
        assert cli.main(args + ["--count", str(levels + 1)]) == 2
        assert f"{out} ends in the middle of puzzle {levels - 1}" in capsys.readouterr().err


def test_each_board_drawn_is_reported_with_the_minima_proven_so_far(oracle):
    """on_try(tries, minima) after every board, so a caller can show a request that the boards
    hardly reach (12x12 at 60-70 moves ran 5 minutes with nothing on the screen)."""
    calls = []
    with pytest.raises(GenerationFailed) as failed:
        generate(8, 8, moves=(40, 45), seed=1, max_tries=6, on_try=lambda tries, minima: calls.append((tries, list(minima))))
    assert [tries for tries, _ in calls] == [1, 2, 3, 4, 5, 6]
    proven = calls[-1][1]
    assert proven and all(n < 40 for n in proven)
    assert all(calls[i][1] == proven[: len(calls[i][1])] for i in range(6))  # each list extends the one before
    assert f"minima of {min(proven)}-{max(proven)} moves" in str(failed.value)


class _Terminal:
    def __init__(self):
        import io

        self.text = io.StringIO()

    def write(self, text):
        return self.text.write(text)

    def flush(self):
        pass

    def isatty(self):
        return True


def test_a_level_being_drawn_shows_its_tries_and_ctrl_c_says_what_they_gave(monkeypatch, oracle):
    """On a terminal the progress line counts the boards of the level being drawn and the range
    of their proven minima; Ctrl-C then says what the level's draws gave (it said only
    'interrupted: 0 level(s) kept' after minutes of a blank screen)."""
    import sys

    def drawn_then_interrupted(width, height, *, on_try, **options):
        on_try(1, [7])
        on_try(2, [7, 12])
        raise KeyboardInterrupt

    monkeypatch.setattr(importlib.import_module("puzzlesat.roller.family"), "generate", drawn_then_interrupted)
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert cli.main(["generate", "roller", "--size", "12x12", "--count", "2", "--moves", "60-70"]) == 130
    shown = terminal.text.getvalue()
    assert "#0: 1 board(s), proven minima" in shown or "#0: 2 board(s), proven minima" in shown  # (the line cuts a long note)
    assert shown.rstrip().endswith("interrupted: 0 puzzle(s) kept; puzzle 0 had drawn: 2 board(s), proven minima 7-12 moves")
