"""The two Numberlink generators: determinism, certificates re-checked from text, quality rules,
and the ``puzzlesat generate numberlink`` command (writes as it goes, resumes, is readable by
``puzzlesat verify``). The full 0..99 seed sweep lives in ``python -m benchmarks.generators``."""

from __future__ import annotations

import importlib
import json
import random

import pytest

from puzzlesat.cli import main
from puzzlesat.numberlink import backtracking
from puzzlesat.numberlink.formats import parse, parse_all
from puzzlesat.numberlink.model import Puzzle, Rules
from puzzlesat.numberlink.solve import count
from puzzlesat.numberlink.verify import verify
from puzzlesat.seeds import puzzle_seed

gen = importlib.import_module("puzzlesat.numberlink.generate")  # the package re-exports the function


def fresh_uniqueness(text: str, rules: Rules = Rules()) -> bool | None:
    """A SAT count (limit 2) of a puzzle read from nothing but its text."""
    return count(parse(text, fmt="native"), rules=rules, limit=2).unique


@pytest.mark.parametrize("width,height,seeds", [(8, 8, range(20)), (12, 10, range(10))])
def test_quality_puzzles_are_unique_from_their_text_and_follow_the_pipeline_rules(width, height, seeds) -> None:
    low, high = gen.link_band(width, height)
    lengths = []
    for seed in seeds:
        made = gen.generate(width, height, method="quality", seed=seed)
        assert made.unique is True and made.method == "quality" and made.seed == seed and made.tries >= 1
        assert made.puzzle.size == (width, height) and not made.puzzle.blocked
        assert verify(made.puzzle, made.solution) == []
        assert fresh_uniqueness(gen.puzzle_text(made.puzzle)) is True
        links = made.link_lengths()
        assert min(links) >= 3, "no 2-cell links"
        assert low <= len(links) <= high, "link count inside the band"
        for _, cells in made.solution.paths:
            assert abs(cells[0][0] - cells[-1][0]) + abs(cells[0][1] - cells[-1][1]) != 1, "no loop (ends side by side)"
        assert sorted(made.puzzle.labels, key=int) == [str(i) for i in range(1, len(links) + 1)]
        lengths.extend(links)
    # a mix of short and long links
    assert min(lengths) <= 4 and max(lengths) >= 2 * width


@pytest.mark.parametrize("width,height", [(8, 8), (12, 10)])
def test_unionfind_labels_uniqueness_correctly_and_retries_until_unique(width, height) -> None:
    labels = set()
    for seed in range(15):
        made = gen.generate(width, height, method="unionfind", seed=seed, unique=False)
        assert made.tries == 1
        assert verify(made.puzzle, made.solution) == []
        assert fresh_uniqueness(gen.puzzle_text(made.puzzle)) is made.unique
        labels.add(made.unique)
        # the leftovers are isolated: no two blocked squares are neighbours (they would have formed a path)
        for (r, c) in made.puzzle.blocked:
            assert (r + 1, c) not in made.puzzle.blocked and (r, c + 1) not in made.puzzle.blocked
        # paths never run beside themselves (the only neighbour on the path is the current end)
        assert verify(made.puzzle, made.solution, Rules(no_self_touch=True)) == []
    assert labels == {True, False}, "the sample shows both labels"
    for seed in range(6):
        made = gen.generate(width, height, method="unionfind", seed=seed, unique=True)
        assert made.unique is True and fresh_uniqueness(gen.puzzle_text(made.puzzle)) is True


def test_same_seed_same_puzzle_and_seeds_differ() -> None:
    for method in gen.METHODS:
        a = gen.generate(7, 6, method=method, seed=11)
        b = gen.generate(7, 6, method=method, seed=11)
        c = gen.generate(7, 6, method=method, seed=12)
        assert a.puzzle == b.puzzle and a.solution == b.solution and a.tries == b.tries
        assert a.puzzle != c.puzzle
    assert puzzle_seed(4, 3) == 4 * 1_000_003 + 3  # (a pack's puzzle 3 of run seed 4)


def test_unionfind_follows_the_published_partition() -> None:
    rng = random.Random(5)
    for _ in range(50):
        links, blocked = gen.unionfind_links(9, 7, rng)
        cells = [cell for link in links for cell in link]
        assert len(cells) == len(set(cells)) and len(cells) + len(blocked) == 63
        assert all(len(link) >= 2 for link in links)
        free_neighbours = [(r, c) for (r, c) in blocked for n in ((r + 1, c), (r, c + 1)) if n in blocked]
        assert not free_neighbours


def test_the_start_pairs_of_unionfind_match_a_fresh_listing_after_every_cell_taken() -> None:
    """grow_unionfind picks each path's first two cells as the k-th pair of free neighbours;
    its Fenwick tree must give the same pair as listing them all again (what it replaced)."""
    rng = random.Random(3)
    for width, height in ((1, 5), (4, 3), (7, 6)):
        cells = [(r, c) for r in range(height) for c in range(width)]
        neighbours = lambda cell: gen._neighbours(cell, width, height)  # noqa: E731
        pairs = gen._FreePairs(cells, neighbours)
        free = set(cells)
        for cell in rng.sample(cells, len(cells)) + [cells[0]]:  # the last take: a cell already taken
            listing = [(a, b) for a in cells if a in free for b in neighbours(a) if a < b and b in free]
            assert pairs.total == len(listing)
            assert [pairs.pair(k) for k in range(len(listing))] == listing
            pairs.take(cell)
            free.discard(cell)
        assert pairs.total == 0


def test_a_quality_candidate_with_a_second_answer_is_cut_where_the_answers_part() -> None:
    """The repair step keeps the pipeline's rules (parts of 3 or more cells, no loop, no link
    beside itself, the link count within the band) and cuts at a step the second answer does not
    take: two inner cells of that answer become endpoints, so it is no answer any more."""
    rng = random.Random(4)
    band = gen.link_band(8, 8)
    repaired = 0
    while repaired < 15:
        links = gen.quality_links(8, 8, rng)
        if links is None or gen._quality_problem(links, band) is not None:
            continue
        counted = count(gen._puzzle_from_links(8, 8, links, frozenset())[0], limit=2)
        if counted.unique is not False:
            continue
        other = counted.solutions[1]
        cut = gen._split_where_answers_differ(links, other, rng, band[1])
        if cut is None:
            continue
        repaired += 1
        assert len(cut) == len(links) + 1 <= band[1] and gen._quality_problem(cut, band) is None
        assert sorted(cell for link in cut for cell in link) == sorted(cell for link in links for cell in link)
        ends = {link[k] for link in links for k in (0, -1)}
        a, b = {link[k] for link in cut for k in (0, -1)} - ends
        assert abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
        assert frozenset((a, b)) not in {frozenset(step) for _, path in other.paths for step in zip(path, path[1:])}
    assert gen._split_where_answers_differ([[(0, c) for c in range(6)]], other, rng, most=1) is None  # the band is full


def test_quality_band_and_target_are_configurable() -> None:
    assert gen.link_band(10, 10) == (8, 12)
    assert gen.link_band(10, 10, band=0.0, target=11) == (11, 11)
    made = gen.generate(9, 9, method="quality", seed=2, target=11, band=0.1)
    assert 9 <= len(made.link_lengths()) <= 13


def test_generation_under_other_rules_is_certified_under_them() -> None:
    rules = Rules(no_self_touch=True)
    made = gen.generate(7, 7, method="quality", seed=1, rules=rules)
    assert verify(made.puzzle, made.solution, rules) == []
    assert count(parse(gen.puzzle_text(made.puzzle)), rules=rules).unique is True
    assert backtracking.count(made.puzzle, rules=rules).unique is True


def test_bad_requests_and_limits() -> None:
    with pytest.raises(ValueError):
        gen.generate(5, 5, method="magic")
    with pytest.raises(ValueError):
        gen.generate(1, 5, method="unionfind")
    with pytest.raises(ValueError):
        gen.generate(2, 3, method="quality")
    with pytest.raises(gen.GenerationFailed):
        gen.generate(12, 12, method="quality", seed=0, time_limit=0.0)
    with pytest.raises(gen.GenerationFailed):
        gen.generate(12, 12, method="quality", seed=0, max_tries=1, band=0.0, target=40)


def test_impossible_requests_fail_at_once_and_draws_stop_at_the_deadline() -> None:
    for options, message in (({"target": 1000}, "holds at most 8 links"), ({"band": -1.0}, "band"),
                             ({"band": float("nan")}, "band"), ({"target": float("inf")}, "target")):
        with pytest.raises(ValueError, match=message):
            gen.generate(5, 5, **options)
    from puzzlesat.timing import Deadline

    passed = Deadline(0.0)
    assert gen.quality_links(60, 60, random.Random(1), deadline=passed) is None
    assert gen.unionfind_links(60, 60, random.Random(1), deadline=passed) == ([], frozenset())
    assert gen.quality_links(6, 6, random.Random(1), deadline=Deadline(None)) == gen.quality_links(6, 6, random.Random(1))


def test_puzzle_text_survives_rows_that_start_with_a_blocked_cell() -> None:
    puzzle = Puzzle.from_rows([["1", ".", "1"], [".", ".", "."], ["#", "2", "2"]])
    assert parse(gen.puzzle_text(puzzle), fmt="native") == puzzle
    assert parse_all(gen.puzzle_text(puzzle) + "\n\n" + gen.puzzle_text(puzzle))[1] == puzzle


# -- the command ------------------------------------------------------------------------------
def test_cli_writes_each_puzzle_resumes_and_verify_reads_the_file(tmp_path, capsys) -> None:
    out = tmp_path / "pack.txt"
    assert main(["generate", "numberlink", "--size", "7x6", "--count", "2", "--seed", "4", "--out", str(out)]) == 0
    first = out.read_text()
    assert first.count("# puzzle ") == 2
    printed = capsys.readouterr()
    summary = printed.err  # (on standard error, as generate roller and swap print theirs; it was on standard output with --out)
    assert "2 puzzle(s) written" in summary and "link lengths" in summary and "tries" in summary and printed.out == ""

    # a rerun with a larger count continues the file: the first two puzzles stay as they were
    assert main(["generate", "numberlink", "--size", "7x6", "--count", "4", "--seed", "4", "--out", str(out)]) == 0
    text = out.read_text()
    assert text.startswith(first) and text.count("# puzzle ") == 4
    assert "2 already there" in capsys.readouterr().err
    puzzles = parse_all(text)
    assert len(puzzles) == 4
    # a fresh run with the same seed writes the same bytes (no timings in the pack)
    fresh = tmp_path / "fresh.txt"
    assert main(["generate", "numberlink", "--size", "7x6", "--count", "4", "--seed", "4", "--out", str(fresh)]) == 0
    assert fresh.read_text() == text
    capsys.readouterr()

    # the output is readable by 'puzzlesat verify', and every puzzle passes (solved and unique)
    assert main(["verify", str(out), "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert [r["index"] for r in records] == [0, 1, 2, 3] and all(r["unique"] is True for r in records)

    # a different run refuses to append to this file
    assert main(["generate", "numberlink", "--size", "7x6", "--count", "5", "--seed", "5", "--out", str(out)]) == 2
    refused = capsys.readouterr().err
    assert "not written by a run with these settings" in refused
    # ... and says which settings differ, as generate roller and swap do (it said only "its first line differs")
    assert "--seed 4" in refused and "--seed 5" in refused


def test_cli_json_prints_one_object_per_new_puzzle(tmp_path, capsys) -> None:
    """``generate numberlink --json``, as ``generate roller --json``: one JSON object per puzzle
    made (its board, the answer it was drawn from, the uniqueness verdict), the pack still
    written to --out and the summary on standard error; without --out only the objects."""
    from puzzlesat.cli import main
    from puzzlesat.numberlink import Solution, read, verify

    out = tmp_path / "pack.txt"
    assert main(["generate", "numberlink", "--size", "6x5", "--count", "2", "--seed", "3", "--out", str(out), "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["index"], r["source"], r["unique"], r["family"]) for r in records] == [(0, str(out), True, "numberlink"), (1, str(out), True, "numberlink")]
    for record, puzzle in zip(records, read(out)):
        assert parse(record["puzzle"]) == puzzle  # (the puzzle's text, as docs/record.schema.json says)
        answer = Solution.from_mapping({label: [tuple(cell) for cell in cells] for label, cells in record["paths"].items()})
        assert verify(puzzle, answer) == [] and answer.to_rows(puzzle) == record["grid"]
        assert record["link_lengths"] == [len(record["paths"][label]) for label in sorted(record["paths"], key=int)]
    assert main(["generate", "numberlink", "--size", "5x4", "--seed", "3", "--json"]) == 0
    printed = capsys.readouterr()
    (record,) = [json.loads(line) for line in printed.out.splitlines()]
    assert record["source"] is None and record["size"]["width"] == 5 and "1 puzzle(s) written" in printed.err


def test_cli_time_limit_is_one_deadline_per_puzzle_repeats_redrawn_included(monkeypatch, capsys) -> None:
    """A draw that repeats an earlier puzzle of the pack is drawn again from a further seed;
    each such seed got a fresh --time-limit, so one puzzle could take up to 20 limits."""
    import importlib

    from puzzlesat.cli import main

    generate_module = importlib.import_module("puzzlesat.numberlink.generate")
    first, second = (generate_module.generate(5, 5, seed=seed) for seed in (1, 2))
    limits = []

    def repeating(width, height, *, seed, on_try, **options):  # puzzle 1's first draw repeats puzzle 0
        limits.append(options["time_limit"])
        return first if len(limits) <= 2 else second

    monkeypatch.setattr(generate_module, "generate", repeating)
    assert main(["generate", "numberlink", "--size", "5x5", "--count", "2", "--time-limit", "30"]) == 0
    capsys.readouterr()
    zero, one, one_again = limits
    assert one is one_again and one is not zero and 25 < one.remaining() <= 30


def test_cli_resumes_a_pack_whose_last_blank_line_an_editor_dropped(tmp_path, capsys) -> None:
    """Its last puzzle is whole (every row came), so it is kept, not called incomplete; a pack
    cut between two rows of its last puzzle is still refused."""
    whole = tmp_path / "whole.txt"
    assert main(["generate", "numberlink", "--size", "6x5", "--count", "3", "--seed", "2", "--out", str(whole)]) == 0
    edited = tmp_path / "edited.txt"
    assert main(["generate", "numberlink", "--size", "6x5", "--count", "2", "--seed", "2", "--out", str(edited)]) == 0
    edited.write_text(edited.read_text().rstrip("\n") + "\n")  # as an editor that trims trailing blank lines saves it
    assert main(["generate", "numberlink", "--size", "6x5", "--count", "3", "--seed", "2", "--out", str(edited)]) == 0
    assert "1 puzzle(s) written" in capsys.readouterr().err
    assert edited.read_text() == whole.read_text()

    cut = tmp_path / "cut.txt"
    cut.write_text(whole.read_text().rstrip("\n").rsplit("\n", 2)[0] + "\n")  # the last two rows of puzzle 2 missing
    assert main(["generate", "numberlink", "--size", "6x5", "--count", "4", "--seed", "2", "--out", str(cut)]) == 2
    assert f"{cut} ends in the middle of puzzle 2" in capsys.readouterr().err


def test_cli_unionfind_allow_multiple_labels_each_puzzle(tmp_path, capsys) -> None:
    out = tmp_path / "uf.txt"
    code = main(["generate", "numberlink", "--size", "10x10", "--count", "6", "--method", "unionfind", "--allow-multiple", "--seed", "0", "--out", str(out)])
    assert code == 0
    text = out.read_text()
    comments = [line for line in text.splitlines() if line.startswith("# puzzle ")]
    for comment, puzzle in zip(comments, parse_all(text)):
        claimed = ", not unique," not in comment
        assert count(puzzle, limit=2).unique is claimed
    assert "unique:" in capsys.readouterr().err


def test_cli_refuses_bad_arguments(tmp_path, capsys) -> None:
    with pytest.raises(SystemExit):
        main(["generate", "numberlink", "--count", "0"])
    assert main(["generate", "numberlink", "--allow-multiple"]) == 2
    with pytest.raises(SystemExit):
        main(["generate", "numberlink", "--size", "ten"])
    half = tmp_path / "half.txt"
    half.write_text("# puzzlesat generate numberlink --size 10x10 --method quality --seed 0 (rules: cover-all)\n# puzzle 0: seed 0, unique\n10 10\n1 . .")
    assert main(["generate", "numberlink", "--count", "2", "--out", str(half)]) == 2
    assert "error" in capsys.readouterr().err


def test_cli_out_in_a_missing_folder_or_naming_a_folder_is_refused_in_words(tmp_path, capsys) -> None:
    """As generate roller and swap: "cannot write PATH: no folder ..." (it was "[Errno 2] No such
    file or directory: ...", and a folder "cannot resume PATH: [Errno 21] Is a directory")."""
    assert main(["generate", "numberlink", "--size", "5x5", "--out", str(tmp_path / "no" / "pack.txt")]) == 2
    assert "cannot write" in (err := capsys.readouterr().err) and "no folder" in err and "Errno" not in err
    assert main(["generate", "numberlink", "--size", "5x5", "--out", str(tmp_path)]) == 2
    assert "it is a folder" in (err := capsys.readouterr().err) and "Errno" not in err


def test_a_pack_never_holds_one_puzzle_twice_and_resumes_past_a_retried_seed(tmp_path, capsys) -> None:
    out = tmp_path / "small.txt"  # 4x4 boards repeat often: 12 of 100 did before retries
    assert main(["generate", "numberlink", "--size", "4x4", "--count", "40", "--seed", "1", "--out", str(out)]) == 0
    texts = [gen.puzzle_text(p) for p in parse_all(out.read_text())]
    assert len(texts) == 40 == len(set(texts))
    seeds = [int(line.split("seed ")[1].split(",")[0]) for line in out.read_text().splitlines() if line.startswith("# puzzle ")]
    assert any(seed != puzzle_seed(1, i) for i, seed in enumerate(seeds)), "no repeat was retried: pick a smaller board"
    assert main(["generate", "numberlink", "--size", "4x4", "--count", "45", "--seed", "1", "--out", str(out)]) == 0
    texts = [gen.puzzle_text(p) for p in parse_all(out.read_text())]
    assert len(texts) == 45 == len(set(texts))
    capsys.readouterr()


def test_certificates_that_all_run_out_of_work_are_named_as_the_reason() -> None:
    # (certificates are bounded by work, not seconds: certify_time_limit=0 allows none)
    with pytest.raises(gen.GenerationFailed, match=r"ran out of work \(undecided within 0 conflicts"):
        gen.generate(5, 5, seed=0, certify_time_limit=0)
    with pytest.raises(gen.GenerationFailed, match="ran out of work"):
        gen.generate(5, 5, seed=0, certify_work=0)


def test_verify_names_the_rules_a_pack_was_generated_under_when_other_rules_fail_it(tmp_path, capsys) -> None:
    out = tmp_path / "nst.txt"
    assert main(["generate", "numberlink", "--size", "7x7", "--count", "8", "--seed", "2", "--no-self-touch", "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["verify", str(out)]) == 1  # some are unique only when paths may not run beside themselves
    lines = capsys.readouterr().out.splitlines()
    failing = [line for line in lines if "multiple answers" in line]
    assert failing and all("the pack was generated under cover-all, no-self-touch rules" in line for line in failing)
    assert main(["verify", str(out), "--no-self-touch"]) == 0


def test_a_give_up_says_why_the_candidates_were_turned_down_and_each_draw_is_reported():
    """'generate numberlink --size 30x30' drew for hours with nothing on the screen: no quality
    candidate of 30x30 came near the band of sqrt(W*H) links (the default target then). Each draw is reported (the
    progress line shows it) and the give-up message says why the candidates failed."""
    from puzzlesat.numberlink.generate import GenerationFailed, check_request, generate

    band = check_request(8, 8, target=20)
    calls = []
    with pytest.raises(GenerationFailed) as failed:
        generate(8, 8, target=20, seed=1, max_tries=1, on_try=lambda draws, tries, rejected: calls.append((draws, dict(rejected))))
    assert [draws for draws, _ in calls] == list(range(1, 101))
    rejected = calls[-1][1]
    fewest, most = rejected["links"]
    outside = rejected["link count outside the band"]
    assert outside > 0 and fewest <= most
    assert (f"in 100 draws; turned down: {outside} with a link count outside the band "
            f"({band[0]}-{band[1]} links; the candidates had {fewest}-{most})") in str(failed.value)
    assert sum(n for reason, n in rejected.items() if reason != "links") == 100


def test_ctrl_c_while_a_puzzle_is_drawn_says_what_its_draws_gave(monkeypatch, capsys):
    import importlib

    from puzzlesat.cli import main

    def drawn_then_interrupted(width, height, *, on_try, **options):
        on_try(3, 0, {"loop": 1, "link count outside the band": 2, "links": (40, 52)})
        raise KeyboardInterrupt

    monkeypatch.setattr(importlib.import_module("puzzlesat.numberlink.generate"), "generate", drawn_then_interrupted)
    assert main(["generate", "numberlink", "--size", "30x30"]) == 130
    assert ("interrupted: 0 puzzle(s) kept; puzzle 0 had drawn: 3 draw(s) and 0 tries; turned down: 2 with a link count "
            "outside the band (49-68 links; the candidates had 40-52), 1 with a loop") in capsys.readouterr().err
