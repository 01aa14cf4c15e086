"""The multi-layer Numberlink generators: every puzzle's answer verified, uniqueness confirmed by
a fresh count of the puzzle's text and (on tiny stacks) by brute-force enumeration, the same
seed giving the same puzzle, routing problems shaped as asked, and requests refused up front."""

from __future__ import annotations

import importlib
import json
import math

import pytest

from puzzlesat.numberlink.model import Rules
from puzzlesat.numberlink.multilayer import count, format, format_solution, parse, parse_solution, solve, verify
from puzzlesat.numberlink.multilayer.model import is_adjacent
from tests.numberlink.test_multilayer_solve import brute_force_answers

gen = importlib.import_module("puzzlesat.numberlink.multilayer.generate")  # the package re-exports the function

EMPTY = Rules(cover_all=False)


def fresh_count(made, rules: Rules):
    """A count (limit 2) of the puzzle read from nothing but the text its pack would hold."""
    fmt = gen.TEXT_FORMAT[made.method]
    return count(parse(format(made.puzzle, fmt=fmt), fmt=fmt), rules=rules, limit=2)


def every_cell_once(made) -> bool:
    """Paths and blocked cells cover the stack, no cell twice (cover-all rules)."""
    cells = [cell for _, path in made.solution.paths for cell in path] + sorted(made.puzzle.blocked)
    return len(cells) == len(set(cells)) == made.puzzle.num_cells


@pytest.mark.parametrize("size", [(4, 3, 2), (3, 2, 3), (4, 4, 2)])
@pytest.mark.parametrize("rules", [Rules(), Rules(no_self_touch=True)], ids=str)
def test_split_puzzles_are_unique_by_brute_force(size, rules) -> None:
    for seed in range(4):
        made = gen.generate(*size, seed=seed, rules=rules)
        assert made.unique is True and made.method == "split" and made.seed == seed and made.tries >= 1
        assert made.puzzle.size == size
        assert verify(made.puzzle, made.solution, rules) == []
        assert brute_force_answers(made.puzzle, rules) == {made.solution}
        assert every_cell_once(made)
        assert min(made.link_lengths()) >= 3, "no link of 2 cells"
        assert sorted(made.puzzle.labels, key=int) == [str(k) for k in range(1, len(made.puzzle.pairs) + 1)]


@pytest.mark.parametrize("size", [(6, 5, 2), (4, 4, 3)])
def test_split_puzzles_on_larger_stacks_are_unique_from_their_text(size) -> None:
    lengths = []
    for seed in range(5):
        made = gen.generate(*size, seed=seed)
        assert made.unique is True and verify(made.puzzle, made.solution) == []
        assert fresh_count(made, Rules()).unique is True
        assert every_cell_once(made)
        lengths += made.link_lengths()
    assert min(lengths) >= 3 and max(lengths) >= 2 * size[0], "a mix of short and long links"
    assert any(len({cell[0] for cell in path}) > 1 for _, path in made.solution.paths), "some link changes layer"


def test_split_under_may_leave_empty_rules_on_a_tiny_stack() -> None:
    made = gen.generate(3, 3, 2, seed=1, rules=EMPTY)
    assert not made.puzzle.blocked, "leftovers stay empty cells under may-leave-empty rules"
    assert verify(made.puzzle, made.solution, EMPTY) == []
    assert brute_force_answers(made.puzzle, EMPTY) == {made.solution}


def test_unionfind_labels_are_confirmed_and_unique_true_retries() -> None:
    labels = set()
    for seed in range(12):
        made = gen.generate(4, 3, 2, method="unionfind", seed=seed, unique=False)
        assert made.tries == 1 and verify(made.puzzle, made.solution) == []
        assert every_cell_once(made)
        answers = brute_force_answers(made.puzzle, Rules())
        assert made.solution in answers and (len(answers) == 1) is made.unique
        labels.add(made.unique)
        # union-find leftovers are isolated cells: no two side by side (they would have made a path)
        assert not any(is_adjacent(a, b) for a in made.puzzle.blocked for b in made.puzzle.blocked)
        # union-find paths never run beside themselves
        assert verify(made.puzzle, made.solution, Rules(no_self_touch=True)) == []
    assert labels == {True, False}, "the sample shows both verdicts"
    for seed in range(3):
        made = gen.generate(4, 4, 2, method="unionfind", seed=seed)
        assert made.unique is True and fresh_count(made, Rules()).unique is True


def test_same_seed_same_puzzle_and_seeds_differ() -> None:
    for method, options in (("split", {}), ("unionfind", {"unique": False}), ("routing", {"rules": EMPTY})):
        a = gen.generate(5, 4, 2, method=method, seed=7, **options)
        b = gen.generate(5, 4, 2, method=method, seed=7, **options)
        c = gen.generate(5, 4, 2, method=method, seed=8, **options)
        assert a == b and a.puzzle == b.puzzle and a.solution == b.solution and a.tries == b.tries
        assert a.puzzle != c.puzzle


@pytest.mark.parametrize("size,lines", [((8, 8, 3), None), ((6, 5, 4), 15), ((12, 9, 2), 1), ((7, 7, 1), 6)])
def test_routing_problems_have_the_lines_asked_and_a_verified_answer(size, lines) -> None:
    width, height, layers = size
    for seed in range(3):
        made = gen.generate(*size, method="routing", rules=EMPTY, lines=lines, seed=seed)
        expected = gen.target_lines(*size) if lines is None else lines
        assert made.unique is None and made.method == "routing" and not made.puzzle.blocked
        assert len(made.puzzle.pairs) == expected == len(made.solution.paths)
        assert verify(made.puzzle, made.solution, EMPTY) == []
        assert verify(made.puzzle, made.solution, Rules(cover_all=False, no_self_touch=True)) == []
        lengths = made.link_lengths()
        assert 3 <= min(lengths) and max(lengths) <= max(3, gen.longest_line(*size))
        for pair in made.puzzle.pairs:
            assert not is_adjacent(pair.start, pair.end), "no line's ends touch"
        # the contest's own text, problem and answer, reads back
        problem = format(made.puzzle, fmt="adc")
        assert problem.startswith(f"SIZE {width}X{height}X{layers}\nLINE_NUM {expected}\n")
        assert parse(problem) == made.puzzle
        assert parse_solution(format_solution(made.puzzle, made.solution, fmt="adc"), made.puzzle) == made.solution
    # a fresh solve finds an answer (not necessarily the drawn one)
    found = solve(parse(problem), rules=EMPTY, time_limit=60)
    assert found.status.value == "solved" and verify(made.puzzle, found.solution, EMPTY) == []


def test_routing_min_length_and_a_full_stack() -> None:
    made = gen.generate(6, 6, 2, method="routing", rules=EMPTY, lines=4, min_length=8, seed=3)
    assert min(made.link_lengths()) >= 8 and verify(made.puzzle, made.solution, EMPTY) == []
    dense = gen.generate(4, 4, 2, method="routing", rules=EMPTY, lines=8, min_length=3, seed=0, time_limit=60)
    assert sum(dense.link_lengths()) >= 24 and verify(dense.puzzle, dense.solution, EMPTY) == []


def test_default_line_counts_follow_the_board() -> None:
    assert gen.target_lines(5, 5, 3) == 8 and gen.target_lines(72, 72, 8) == 288
    assert gen.target_lines(2, 2, 1) == 1
    assert gen.target_lines(10, 10, 2) == round(math.sqrt(100) * 2 / 2)


@pytest.mark.parametrize("call,error,words", [
    (dict(width=4, height=4, layers=2, method="magic"), ValueError, "unknown method"),
    (dict(width=1, height=4, layers=2), ValueError, "too small"),
    (dict(width=4, height=4, layers=0), ValueError, "too small"),
    (dict(width=4.0, height=4, layers=2), TypeError, "whole numbers"),
    (dict(width=4, height=True, layers=2), TypeError, "whole numbers"),
    (dict(width=1000, height=1000, layers=2), ValueError, "larger than"),
    (dict(width=4, height=4, layers=2, rules="cover-all"), TypeError, "rules"),
    (dict(width=4, height=4, layers=2, unique="yes"), TypeError, "unique"),
    (dict(width=4, height=4, layers=2, lines=3), ValueError, "routing"),
    (dict(width=4, height=4, layers=2, method="unionfind", min_length=3), ValueError, "routing"),
    (dict(width=4, height=4, layers=2, method="routing"), ValueError, "may-leave-empty"),
    (dict(width=4, height=4, layers=2, method="routing", rules=EMPTY, unique=True), ValueError, "not unique"),
    (dict(width=4, height=4, layers=2, method="routing", rules=EMPTY, lines=0), ValueError, "1 or more"),
    (dict(width=4, height=4, layers=2, method="routing", rules=EMPTY, lines=2.5), TypeError, "whole number"),
    (dict(width=4, height=4, layers=2, method="routing", rules=EMPTY, lines=11), ValueError, "at most 10 such lines"),
    (dict(width=4, height=4, layers=2, method="routing", rules=EMPTY, min_length=1), ValueError, "min_length must be 2..8"),
    (dict(width=4, height=4, layers=2, method="routing", rules=EMPTY, min_length=9), ValueError, "min_length must be 2..8"),
    (dict(width=4, height=4, layers=2, max_tries=0), ValueError, "max_tries"),
    (dict(width=4, height=4, layers=2, seed="1"), TypeError, "seed"),
    (dict(width=4, height=4, layers=2, solver="no-such-solver"), ValueError, "no-such-solver"),
    (dict(width=4, height=4, layers=2, time_limit=-1), ValueError, "time_limit"),
    (dict(width=4, height=4, layers=2, certify_time_limit="10"), TypeError, "time_limit"),
])
def test_bad_requests_are_refused_before_any_drawing(call, error, words) -> None:
    width, height, layers = call.pop("width"), call.pop("height"), call.pop("layers")
    with pytest.raises(error, match=words):
        gen.generate(width, height, layers, **call)


def test_limits_end_in_generation_failed() -> None:
    with pytest.raises(gen.GenerationFailed, match="within 0.0 s"):
        gen.generate(8, 8, 4, seed=0, time_limit=0.0)
    with pytest.raises(gen.GenerationFailed, match="within 0.0 s"):
        gen.generate(72, 72, 8, method="routing", rules=EMPTY, seed=0, time_limit=0.0)
    with pytest.raises(gen.GenerationFailed, match=r"ran out of work \(undecided within 0 conflicts"):  # (work, not seconds)
        gen.generate(5, 5, 2, seed=0, certify_time_limit=0)
    with pytest.raises(gen.GenerationFailed, match="ran out of work"):
        gen.generate(5, 5, 2, seed=0, certify_work=0)
    with pytest.raises(gen.GenerationFailed, match="in 1 tries") as failed:
        gen.generate(6, 6, 3, method="unionfind", seed=0, max_tries=1)
    assert failed.value.tries == 1
    # 10 lines of 3 cells fill a 5x3x2 stack of 30 cells only when every line fits exactly: a draw rarely does
    with pytest.raises(gen.GenerationFailed, match="no room for 10 lines"):
        gen.generate(5, 3, 2, method="routing", rules=EMPTY, lines=10, seed=0, max_tries=2)


def test_on_try_follows_the_draws_and_why_candidates_were_turned_down() -> None:
    """As on one layer: ``on_try(draws, tries, rejected)`` after each draw and each count (a
    10x10x3 split puzzle takes minutes and hundreds of counts, with nothing on the progress
    line before), and a give-up says why the candidates were turned down."""
    calls = []
    with pytest.raises(gen.GenerationFailed) as failed:
        gen.generate(6, 6, 3, seed=0, max_tries=2, on_try=lambda draws, tries, rejected: calls.append((draws, tries, dict(rejected))))
    assert calls and calls[-1][1] == 2 and failed.value.tries == 2
    assert [tries for _, tries, _ in calls] == sorted(tries for _, tries, _ in calls)
    assert [draws for draws, _, _ in calls] == sorted(draws for draws, _, _ in calls)
    reasons = calls[-1][2]
    assert set(reasons) <= {"with no path drawn", "with a drawn path that breaks the rules", "whose count ran out of time",
                            "with a second answer", "with a second answer no split removes"}
    assert "no certified unique 6x6x3 puzzle in 2 tries" in str(failed.value)
    if reasons:
        assert "; turned down: " in str(failed.value)
    made = gen.generate(5, 5, 2, seed=1, on_try=lambda draws, tries, rejected: calls.append((draws, tries)))
    assert calls[-1] == (calls[-1][0], made.tries)


def test_ctrl_c_while_a_stack_is_drawn_says_what_its_draws_gave(monkeypatch, capsys) -> None:
    from puzzlesat.cli import main

    def drawn_then_interrupted(width, height, layers, *, on_try, **options):
        on_try(4, 3, {"with a second answer no split removes": 2, "with no path drawn": 1})
        raise KeyboardInterrupt

    monkeypatch.setattr(importlib.import_module("puzzlesat.numberlink.multilayer.generate"), "generate", drawn_then_interrupted)
    assert main(["generate", "numberlink", "--size", "10x10x3"]) == 130
    assert ("interrupted: 0 puzzle(s) kept; puzzle 0 had drawn: 4 draw(s) and 3 tries; turned down: 2 with a second "
            "answer no split removes, 1 with no path drawn") in capsys.readouterr().err


def test_cli_time_limit_is_one_deadline_per_stack_repeats_redrawn_included(monkeypatch, capsys) -> None:
    """As on one layer: the further seeds tried when a draw repeats an earlier puzzle share the
    puzzle's --time-limit (each got a fresh one)."""
    from puzzlesat.cli import main

    first, second = (gen.generate(4, 3, 2, seed=seed) for seed in (1, 2))
    limits = []

    def repeating(width, height, layers, *, seed, on_try, **options):  # puzzle 1's first draw repeats puzzle 0
        limits.append(options["time_limit"])
        return first if len(limits) <= 2 else second

    monkeypatch.setattr(importlib.import_module("puzzlesat.numberlink.multilayer.generate"), "generate", repeating)
    assert main(["generate", "numberlink", "--size", "4x3x2", "--count", "2", "--time-limit", "30"]) == 0
    capsys.readouterr()
    zero, one, one_again = limits
    assert one is one_again and one is not zero and 25 < one.remaining() <= 30


# -- the command ------------------------------------------------------------------------------
def read_pack(folder):
    """Every (puzzle, answer) of a pack folder, read with the library's own readers."""
    from puzzlesat.numberlink.multilayer import read

    found = []
    for problem in sorted((folder / "problems").iterdir()):
        puzzle = read(problem)[0]
        answer = folder / "answers" / problem.name.replace("Q", "A")
        found.append((puzzle, parse_solution(answer.read_text(), puzzle)))
    return found


def files_of(folder) -> dict:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


def test_cli_pack_is_written_as_made_resumes_and_reads_back(tmp_path, capsys) -> None:
    from puzzlesat.cli import main

    out = tmp_path / "stack"
    command = ["generate", "numberlink", "--size", "5x4x2", "--seed", "3", "--out", str(out)]
    assert main(command + ["--count", "2"]) == 0
    first = files_of(out)
    assert sorted(first) == ["answers/A0000.txt", "answers/A0001.txt", "pack.txt", "problems/Q0000.txt", "problems/Q0001.txt"]
    summary = capsys.readouterr().err
    assert "2 puzzle(s) written" in summary and "link lengths" in summary and "puzzlesat verify" in summary

    # a rerun with a larger count keeps the finished puzzles and adds to them (a file half
    # written when a run was stopped is dropped)
    (out / "problems" / "Q0002.txt.part").write_text("SIZE 5X4X2\nLINE_NUM 1\n")
    assert main(command + ["--count", "4"]) == 0
    again = files_of(out)
    assert all(again[name] == data for name, data in first.items() if name != "pack.txt")
    assert again["pack.txt"].startswith(first["pack.txt"]) and again["pack.txt"].count(b"# puzzle ") == 4
    assert "2 already there" in capsys.readouterr().err
    # a fresh run with the same seed writes the same bytes
    assert main(["generate", "numberlink", "--size", "5x4x2", "--seed", "3", "--count", "4", "--out", str(tmp_path / "fresh")]) == 0
    assert files_of(tmp_path / "fresh") == again

    # the readers take every file back; each answer is valid and the only one
    pairs = read_pack(out)
    assert len(pairs) == 4 and len({str(puzzle) for puzzle, _ in pairs}) == 4
    for puzzle, answer in pairs:
        assert verify(puzzle, answer) == [] and count(puzzle).unique is True
    capsys.readouterr()
    assert main(["verify", str(out / "problems"), "--answers", str(out / "answers"), "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert len(records) == 4 and all(r["unique"] is True and r["layers"] == 2 and r["stated_answer"]["same"] for r in records)

    # another run refuses the folder; so does a folder that is not a pack, or a pack cut short
    assert main(["generate", "numberlink", "--size", "5x4x2", "--seed", "4", "--count", "5", "--out", str(out)]) == 2
    assert "not written by a run with these settings" in capsys.readouterr().err
    stranger = tmp_path / "stranger"
    stranger.mkdir()
    (stranger / "notes.txt").write_text("mine")
    assert main(["generate", "numberlink", "--size", "5x4x2", "--out", str(stranger)]) == 2
    assert "not a pack of this command" in capsys.readouterr().err
    (out / "pack.txt").write_bytes(again["pack.txt"][:-5])
    assert main(command + ["--count", "5"]) == 2
    assert "incomplete last line" in capsys.readouterr().err
    (out / "pack.txt").write_bytes(again["pack.txt"])
    (out / "problems" / "Q0001.txt").write_text("layer 1\n1 . 1\n")
    assert main(command + ["--count", "5"]) == 2
    assert "cannot resume" in capsys.readouterr().err


def test_cli_pack_folder_is_made_but_not_its_missing_parents(tmp_path, capsys) -> None:
    """As generate roller, swap and one-layer numberlink refuse an --out in a missing folder:
    the pack's folder is made, but a mistyped parent was made too, in silence."""
    from puzzlesat.cli import main

    assert main(["generate", "numberlink", "--size", "5x4x2", "--out", str(tmp_path / "typo" / "pack")]) == 2
    assert f"cannot write {tmp_path / 'typo' / 'pack'}: no folder {tmp_path / 'typo'}" in capsys.readouterr().err
    assert not (tmp_path / "typo").exists()


def test_cli_routing_pack_is_an_adc_set(tmp_path, capsys) -> None:
    from puzzlesat.cli import main

    out = tmp_path / "adc"
    assert main(["generate", "numberlink", "--size", "9x8x3", "--method", "routing", "--allow-empty", "--lines", "9",
                 "--count", "3", "--seed", "1", "--out", str(out)]) == 0
    assert "--allow-empty --allow-multiple" in capsys.readouterr().err
    assert (out / "problems" / "Q0000.txt").read_text().startswith("SIZE 9X8X3\nLINE_NUM 9\nLINE#1 ")
    assert (out / "answers" / "A0000.txt").read_text().startswith("SIZE 9X8X3\nLAYER 1\n")
    for puzzle, answer in read_pack(out):
        assert len(puzzle.pairs) == 9 and verify(puzzle, answer, EMPTY) == []
    assert main(["verify", str(out / "problems"), "--answers", str(out / "answers"), "--allow-empty", "--allow-multiple"]) == 0
    assert "3 passed, 0 failed" in capsys.readouterr().out


def test_cli_json_prints_one_object_per_new_stack(tmp_path, capsys) -> None:
    """``--json`` for stacks too: one object per puzzle (``layers``, the board and the drawn
    answer as layers of rows), the folder still written, the summary on standard error."""
    from puzzlesat.cli import main
    from puzzlesat.numberlink.multilayer import Solution
    from puzzlesat.numberlink.multilayer import parse as multilayer_parse

    out = tmp_path / "stack"
    assert main(["generate", "numberlink", "--size", "4x3x2", "--count", "2", "--seed", "2", "--out", str(out), "--json"]) == 0
    printed = capsys.readouterr()
    records = [json.loads(line) for line in printed.out.splitlines()]
    assert [(r["index"], r["layers"], r["unique"]) for r in records] == [(0, 2, True), (1, 2, True)]
    assert "check: puzzlesat verify" in printed.err
    for record, (puzzle, answer) in zip(records, read_pack(out)):
        assert multilayer_parse(record["puzzle"]) == puzzle and record["grid"] == answer.to_layers(puzzle)  # (the puzzle as text)
        drawn = Solution.from_mapping({label: [tuple(cell) for cell in cells] for label, cells in record["paths"].items()})
        assert verify(puzzle, drawn) == []
    assert main(["generate", "numberlink", "--size", "4x3x2", "--seed", "2", "--json"]) == 0
    (record,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert record["source"] is None and record["puzzle"] == records[0]["puzzle"]


def test_cli_layered_problems_name_their_rules_for_verify(tmp_path, capsys) -> None:
    """Each layered problem file opens with the run's line, so verify under other rules says
    which rules the pack was made under (as for one-layer packs)."""
    from puzzlesat.cli import main

    out = tmp_path / "nst"
    assert main(["generate", "numberlink", "--size", "4x4x2", "--count", "2", "--seed", "1", "--no-self-touch",
                 "--out", str(out)]) == 0
    first = (out / "pack.txt").read_text().splitlines()[0]
    assert first.split()[-1] == "--no-self-touch"  # (the rules are the run's flags)
    assert all((out / "problems" / name).read_text().startswith(first + "\nlayer 1\n") for name in ("Q0000.txt", "Q0001.txt"))
    capsys.readouterr()
    assert main(["verify", str(out / "problems"), "--answers", str(out / "answers")]) == 1  # both have a touching second answer
    failing = [line for line in capsys.readouterr().out.splitlines() if "multiple answers" in line]
    assert len(failing) == 2 and all("the pack was generated under cover-all, no-self-touch rules" in line for line in failing)
    assert main(["verify", str(out / "problems"), "--answers", str(out / "answers"), "--no-self-touch"]) == 0


def test_cli_unionfind_labels_and_standard_output(tmp_path, capsys) -> None:
    from puzzlesat.cli import main

    out = tmp_path / "uf"
    assert main(["generate", "numberlink", "--size", "4x3x2", "--method", "unionfind", "--allow-multiple", "--count", "8",
                 "--seed", "0", "--out", str(out)]) == 0
    assert "unique:" in capsys.readouterr().err
    claims = [line for line in (out / "pack.txt").read_text().splitlines() if line.startswith("# puzzle ")]
    verdicts = set()
    for claim, (puzzle, answer) in zip(claims, read_pack(out)):
        verdicts.add(", not unique," not in claim)
        assert (brute_force_answers(puzzle, Rules()) == {answer}) is (", not unique," not in claim)
    assert verdicts == {True, False}
    # without --out one puzzle is printed as a file the readers take
    assert main(["generate", "numberlink", "--size", "4x3x2", "--seed", "2"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("# puzzlesat generate numberlink --size 4x3x2 --seed 2\n# puzzle 0: seed 2000006, 3 tries, unique, method split")
    assert printed.count("# puzzlesat generate") == 1
    assert count(parse(printed)).unique is True


@pytest.mark.parametrize("arguments,words", [
    (["--size", "5x4x2", "--method", "routing"], "--allow-empty"),
    (["--size", "5x4x2", "--method", "routing", "--allow-empty", "--lines", "20"], "at most 13 such lines"),
    (["--size", "5x4x2", "--method", "routing", "--allow-empty", "--min-length", "12"], "min_length must be 2..9"),
    (["--size", "5x4x2", "--lines", "3"], "routing"),
    (["--size", "5x4x2", "--allow-multiple"], "--method unionfind"),
    (["--size", "5x4x2", "--method", "routing", "--allow-empty", "--allow-multiple"], "--method unionfind"),
    (["--size", "5x4x2", "--band", "0.2"], "one-layer"),
    (["--size", "5x4x2", "--method", "quality"], "one-layer"),
    (["--size", "5x4", "--method", "split"], "--size WxHxL"),
    (["--size", "5x4", "--method", "routing"], "--size WxHxL"),
    (["--size", "5x4", "--lines", "4"], "--size WxHxL"),
    (["--size", "200x200x30"], "larger than"),
])
def test_cli_refuses_bad_requests(arguments, words, capsys) -> None:
    from puzzlesat.cli import main

    assert main(["generate", "numberlink", *arguments]) == 2
    assert words in capsys.readouterr().err


def test_cli_bad_sizes_and_failures(tmp_path, capsys) -> None:
    from puzzlesat.cli import main

    for size in ("5x4x0", "5x4x101", "5x4x2x2", "5xx2"):  # refused before any drawing, exit 2
        try:
            code = main(["generate", "numberlink", "--size", size])
        except SystemExit as stop:
            code = stop.code
        err = capsys.readouterr().err
        assert code == 2 and ("size" in err or size in err), err
    assert main(["generate", "numberlink", "--size", "8x8x4", "--time-limit", "0", "--out", str(tmp_path / "none")]) == 1
    assert "error: puzzle 0: no 8x8x4 puzzle within 0.0 s" in capsys.readouterr().err
